"""Musket & Pike behind the game contract: the sequence of play's decisions, answered by mail.

Every decision resolves the moment its answer arrives (``resolves_on_receipt``): one side owes a
decision at a time, except the secret set-up orders, owed by both. An order set is JSON:

    {"step": <the step it answers>, "answer": <decision text | list of unit actions | None>,
     "actions": [...]        # only at the order change: the activation's unit actions after it
     "standing": {kind: value}}   # standing instructions to keep (see rules/standing.py)

After each answer, the decisions a standing instruction covers are answered at once.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import replace

from adjudicator.core.chance import Chance
from adjudicator.core.contract import (
    JSON,
    Decision,
    Game,
    Option,
    OrderOutcome,
    OrderReport,
    Outcome,
    Resolution,
)
from adjudicator.core.refusal import Refusal
from adjudicator.core.said import SOURCE, _, joined, language, ngettext, spoken
from adjudicator.games.musket_and_pike.pictures import preview
from adjudicator.games.musket_and_pike.rules import decisions, sequence, standing
from adjudicator.games.musket_and_pike.rules.command import CommandRules
from adjudicator.games.musket_and_pike.rules.data import ruleset
from adjudicator.games.musket_and_pike.rules.decisions import Actions, Answer
from adjudicator.games.musket_and_pike.rules.dry_run import (
    action_sets,
    check_actions,
    written_retreat,
    written_routs,
)
from adjudicator.games.musket_and_pike.rules.resolvers import command_rules, unit_resolvers
from adjudicator.games.musket_and_pike.rules.scenario import scenario, scenario_names
from adjudicator.games.musket_and_pike.rules.state import SCHEMA, Event, Position, dump, load
from adjudicator.games.musket_and_pike.rules.titles import battle_of, side_title
from adjudicator.games.musket_and_pike.rules.view import GAME_KEY, scramble_hidden, view, visible
from adjudicator.games.musket_and_pike.words import gist, grammar, receipts, report
from adjudicator.games.musket_and_pike.words.battle_end import battle_outcome
from adjudicator.games.musket_and_pike.words.changes import changes
from adjudicator.games.musket_and_pike.words.forms import order_forms
from adjudicator.games.musket_and_pike.words.help import help_text, last_turn_rule_text
from adjudicator.games.musket_and_pike.words.outcomes import (
    not_done,
    outcome_of,
    public_event,
)
from adjudicator.games.musket_and_pike.words.standing_words import MEANING

DEFAULT_SCENARIO = "braddock-down"
# The tiny field the tests play on: a game master may still name it, players are never offered it.
TEST_SCENARIOS = ("skirmish",)
DECISION_HOURS = ("6", "12", "24", "48", "72")
HOURS_KEY = "option.decision_hours"
# A standing instruction answers at most this many decisions in a row; each one ends an
# activation or a pre-emption chance, so a turn never needs more than a handful.
MAX_STANDING_STEPS = 50


def _rules(position: Position) -> CommandRules:
    """The ruleset as the sequence reads it, with the end rule of the position's scenario."""
    return command_rules(ruleset(), battle_of(position.scenario))


def _seats() -> tuple[str, ...]:
    return scenario(DEFAULT_SCENARIO).opening.sides


def _options() -> tuple[Option, ...]:
    # Seats are the game's, not the scenario's: only scenarios with the same two sides are offered.
    names = tuple(n for n in scenario_names() if scenario(n).opening.sides == _seats())
    offered = [n for n in names if n not in TEST_SCENARIOS]
    # Each option's help is a sentence written anew where it is shown (core.said), made in
    # English whatever language the module is first imported in. A battle's title is its name.
    with spoken(SOURCE):
        battles = joined(
            [
                ngettext(
                    "%(name)s: %(title)s (%(num)s turn)",
                    "%(name)s: %(title)s (%(num)s turns)",
                    scenario(n).opening.last_turn,
                    name=n,
                    title=scenario(n).title,
                )
                for n in offered
            ]
        )
        return (
            Option(
                "scenario",
                DEFAULT_SCENARIO,
                names,
                _("the battle: %(battles)s", battles=battles),
                unlisted=TEST_SCENARIOS,
            ),
            Option(
                "decision_hours",
                "24",
                DECISION_HOURS,
                _("hours a player has for each decision before its default is taken (our rule)"),
            ),
        )


def _answer_json(answer: Answer) -> JSON:
    if isinstance(answer, Actions):
        return list(answer.orders)
    return decisions.text(answer)


class MusketAndPike(Game[Position]):
    key = GAME_KEY
    title = "Musket & Pike"
    seats = _seats()
    options = _options()
    schema_version = SCHEMA
    resolves_on_receipt = True
    # A step's report map draws the step's events as arrows, which the archive's stored picture
    # of the step has not: each report draws its own (once for both sides, ``render``).
    shared_picture = False
    turn_noun = "step"

    def seat_title(self, seat: str) -> str:
        return side_title(DEFAULT_SCENARIO, seat)

    def chance_words(self, label: str) -> str:
        # A die's label is its purpose ("fire musket R-HI-1>P-HI-2"): in the reader's words.
        return report.purpose_words(label)

    # --- starting and asking ----------------------------------------------------------------

    def new_game(self, options: Mapping[str, str], chance: Chance) -> Position:
        chosen = self.check_options(options)
        if isinstance(chosen, Refusal):
            raise ValueError(f"{GAME_KEY}: {chosen.reason}")
        opening = sequence.setup(scenario(chosen["scenario"]).opening)
        return replace(opening, extra=((HOURS_KEY, chosen["decision_hours"]),))

    def pending(self, state: Position) -> dict[str, Decision]:
        owed = sequence.pending(state, _rules(state))
        out: dict[str, Decision] = {}
        for seat, decision in owed.items():
            prompt = _(
                "Turn %(turn)s of %(last)s: %(prompt)s",
                turn=state.turn,
                last=state.last_turn,
                prompt=decision.prompt,
            )
            default = grammar.orders_text(self.default_orders(state, seat)) or ""
            forms = tuple(decisions.in_words(form) for form in order_forms(state, seat, decision))
            out[seat] = Decision(seat, prompt, forms, default, decision.brief)
        return out

    def parse_orders(self, state: Position, seat: str, text: str) -> OrderReport:
        return receipts.read_mail(state, seat, text, _rules(state), check_actions)

    def default_orders(self, state: Position, seat: str) -> JSON:
        rules = _rules(state)
        decision = sequence.pending(state, rules).get(seat)
        if decision is None:
            return {"step": state.step, "answer": None}
        answer = standing.answer_for(state, seat, rules)
        if answer is None:
            read = decisions.read(state.step, decision.default)
            assert not isinstance(read, Refusal), read
            answer = read
        return {"step": state.step, "answer": _answer_json(answer)}

    def legal_orders(self, state: Position, seat: str) -> Sequence[JSON]:
        rules = _rules(state)
        if seat not in sequence.pending(state, rules):
            return []
        answers = [
            {"step": state.step, "answer": _answer_json(a)}
            for a in sequence.legal_answers(state, seat, rules)
        ]
        if state.step == "actions" and state.current is not None:
            answers += [
                {"step": "actions", "answer": orders}
                for orders in action_sets(state, state.current)
            ]
        if state.step == "rout_paths":
            answers.append({"step": "rout_paths", "answer": written_routs(state, seat)})
        if state.step == "retreat_path":
            answers.append({"step": "retreat_path", "answer": written_retreat(state)})
        return answers

    # --- resolving ----------------------------------------------------------------------------

    def resolve(
        self, state: Position, orders_by_seat: Mapping[str, JSON], chance: Chance
    ) -> Resolution[Position]:
        position = state
        outcomes: list[OrderOutcome] = []
        events: list[Event] = []
        step_before = state.step
        for seat in [s for s in state.sides if s in orders_by_seat]:
            orders = orders_by_seat[seat]
            if not isinstance(orders, dict):
                raise ValueError(f"{GAME_KEY} orders must be an object, not {orders!r}")
            for kind, value in dict(orders.get("standing") or {}).items():
                position = standing.with_instruction(position, seat, str(kind), str(value))
                meaning = MEANING.get((str(kind), str(value)))
                words = _(meaning) if meaning else _("asked each time")
                outcomes.append(
                    OrderOutcome(
                        seat,
                        standing.phrase(str(kind), str(value)),
                        "standing-set",
                        _("standing instruction kept: %(words)s", words=words),
                        public=False,
                    )
                )
            position = self._answer(position, seat, orders, chance, outcomes, events)
        position = self._standing(position, chance, outcomes, events)
        if not outcomes:
            outcomes.append(OrderOutcome("", "", "nothing", _("no decision was answered")))
        facts = {
            "step": step_before,
            "turn": state.turn,
            "last_turn": state.last_turn,
            "events": [public_event(e) for e in events],
            "dice": report.dice(events),
            "changes": changes(state, position),
        }
        return Resolution(position, tuple(outcomes), tuple(chance.events), facts)

    def _answer(
        self,
        position: Position,
        seat: str,
        orders: Mapping[str, JSON],
        chance: Chance,
        outcomes: list[OrderOutcome],
        events: list[Event],
    ) -> Position:
        answer = orders.get("answer")
        if answer is None:
            return position
        rules = _rules(position)
        # Unit actions may come with the order change: they answer the actions step after it.
        replies = [(str(orders.get("step")), answer)]
        if orders.get("step") == "order_change" and isinstance(orders.get("actions"), list):
            replies.append(("actions", orders["actions"]))
        for index, (step, reply) in enumerate(replies):
            if step != position.step or seat not in sequence.pending(position, rules):
                detail = _(
                    "this answer was for %(step)s; the battle has moved on",
                    step=report.step_words(step),
                )
                outcomes.append(not_done(seat, replies[index:], "not-owed", detail))
                break
            done = sequence.answer(position, seat, reply, chance, rules, unit_resolvers())
            if isinstance(done, Refusal):
                outcomes.append(not_done(seat, replies[index:], "refused", done.reason))
                break
            position, happened = done
            events += happened
            outcomes.append(outcome_of(seat, step, reply, happened))
        return position

    def _standing(
        self, position: Position, chance: Chance, outcomes: list[OrderOutcome], events: list[Event]
    ) -> Position:
        """Answer every decision a standing instruction covers, until one nobody answered."""
        rules = _rules(position)
        for _step in range(MAX_STANDING_STEPS):
            owed = sequence.pending(position, rules)
            if len(owed) != 1:
                return position
            seat = next(iter(owed))
            answer = standing.answer_for(position, seat, rules)
            if answer is None:
                return position
            step = position.step
            done = sequence.answer(
                position, seat, decisions.text(answer), chance, rules, unit_resolvers()
            )
            assert not isinstance(done, Refusal), done  # standing answers are legal ones
            position, happened = done
            events += happened
            given = decisions.text(answer)
            outcomes.append(
                OrderOutcome(
                    seat,
                    given,
                    "standing",
                    _("by standing instruction: %(given)s", given=given),
                    public=False,
                )
            )
            outcomes.append(outcome_of(seat, step, given, happened))
        return position

    def outcome(self, state: Position) -> Outcome:
        return battle_outcome(state)

    # --- showing ------------------------------------------------------------------------------

    def view(self, state: Position, seat: str | None) -> JSON:
        return view(state, seat, _rules(state))

    # The contract's questions the rules' own functions answer as they are.
    scramble_hidden = staticmethod(scramble_hidden)
    dump = staticmethod(dump)
    load = staticmethod(load)
    preview_facts = staticmethod(preview.preview_facts)
    draw_preview = staticmethod(preview.draw)

    def draw(self, view: JSON, facts: Mapping[str, JSON] | None, scale: int) -> bytes:
        records = [e["data"] for e in (facts or {}).get("events", []) if e.get("data")]
        # The map shows the position and the events, never whose view it is: what one side alone
        # sees (its secret set-up orders, its standing instructions) is never drawn, so the
        # drawing is keyed by the position as every side sees it, and both players' maps of a
        # step are one drawing, made once a scale.
        public = dump(visible(load(view["position"]), None))
        return _drawing(json.dumps([public, records], sort_keys=True), scale, language())

    def describe(self, view: JSON) -> str:
        from adjudicator.games.musket_and_pike.words.describe import describe as words

        return words(view)

    def help_text(self, options: Mapping[str, str] | None = None) -> str:
        return help_text(options, self.options[0].offered)

    def variant_text(self, options: Mapping[str, str]) -> str:
        return " ".join(last_turn_rule_text(options, self.options[0].offered).split())

    def step_report(self, facts: Mapping[str, JSON]) -> str:
        return report.step_report(facts)

    def step_summary(self, facts: Mapping[str, JSON]) -> str:
        return gist.step_summary(facts)

    def orders_text(self, orders: JSON) -> str | None:
        return grammar.orders_text(orders)


@functools.lru_cache(maxsize=16)
def _drawing(shown: str, scale: int, lang: str) -> bytes:
    """The PNG of a position and its events, given as JSON text (the cache's key, with the
    reader's language ``lang`` the panel's words are written in)."""
    # Imported here so the rules load without the imaging library.
    from adjudicator.games.musket_and_pike.pictures.render import render as picture

    position, records = json.loads(shown)
    return picture(load(position), records, scale=scale)
