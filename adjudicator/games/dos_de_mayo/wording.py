"""Small pieces of sentences the rules join, each one ``_`` call so a sentence made at resolve
or parse time is written anew in every reader's language (``core.said``)."""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.core.said import _, ngettext


def either(choices: Sequence[str]) -> str:
    """ "A or B", "A, B or C": choices a player picks one of."""
    if len(choices) < 2:
        return "".join(choices)
    return _("%(some)s or %(last)s", some=", ".join(choices[:-1]), last=choices[-1])


def did_you_mean(order: str) -> str:
    """A suggestion: "did you mean 9-14?" (the order canonical, the words the reader's)."""
    return _("did you mean %(order)s?", order=order)


def spanish_on_map(count: int) -> str:
    """The first reason Spain holds out after the last turn: its units still on the map."""
    return ngettext(
        "%(num)s Spanish unit still on the map",
        "%(num)s Spanish units still on the map",
        count,
    )
