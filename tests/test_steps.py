"""A table of steps runs in order until one answers; the last step answers when none does."""

from __future__ import annotations

from adjudicator.services.record import steps


def test_the_steps_run_in_order_until_one_answers() -> None:
    seen: list[str] = []

    def first(context: list[str]) -> str | None:
        context.append("first")
        return None

    def second(context: list[str]) -> str | None:
        context.append("second")
        return "answered"

    def never(context: list[str]) -> str | None:
        context.append("never")
        return "too late"

    def last(context: list[str]) -> str:
        context.append("last")
        return "last"

    assert steps.run((first, second, never), seen, last) == "answered"
    assert seen == ["first", "second"]


def test_the_last_step_answers_when_every_step_goes_on() -> None:
    seen: list[str] = []
    table = [lambda context: context.append("one"), lambda context: context.append("two")]
    assert steps.run(table, seen, lambda context: len(context)) == 2
    assert seen == ["one", "two"]
    assert steps.run((), seen, lambda context: "nothing to do") == "nothing to do"


def test_a_falsy_verdict_ends_the_work_too() -> None:
    def empty(context: None) -> str | None:
        return ""

    def unreached(context: None) -> str | None:
        raise AssertionError("the work ended at the empty verdict")

    assert steps.run((empty, unreached), None, lambda context: "last") == ""
