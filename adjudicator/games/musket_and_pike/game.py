"""Musket & Pike behind the game contract: the sequence of play's decisions, answered by mail.

Every decision resolves the moment its answer arrives (``resolves_on_receipt``): one side owes a
decision at a time, except the secret set-up orders, owed by both. An order set is JSON:

    {"step": <the step it answers>, "answer": <decision text | list of unit actions | None>,
     "actions": [...]        # only at the order change: the activation's unit actions after it
     "standing": {kind: value}}   # standing instructions to keep (see standing.py)

After each answer, decisions a standing instruction covers are answered at once, so the mail
only asks what nobody has answered in advance.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import replace
from importlib import resources
from typing import Any

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
from adjudicator.core.words import counted
from adjudicator.games.musket_and_pike import (
    actions,
    decisions,
    grammar,
    receipts,
    report,
    sequence,
    standing,
)
from adjudicator.games.musket_and_pike.combat import fire_problem, retreat
from adjudicator.games.musket_and_pike.command import CommandRules
from adjudicator.games.musket_and_pike.data import LAST_TURN_WORDS, ruleset
from adjudicator.games.musket_and_pike.decisions import Actions, Answer
from adjudicator.games.musket_and_pike.field import contacts, enemies, field_for, nearest_enemy
from adjudicator.games.musket_and_pike.hexes import aspect, distance
from adjudicator.games.musket_and_pike.movement import first_legal_moves
from adjudicator.games.musket_and_pike.report import event_words
from adjudicator.games.musket_and_pike.resolvers import command_rules, unit_resolvers
from adjudicator.games.musket_and_pike.scenario import Scenario, scenario, scenario_names
from adjudicator.games.musket_and_pike.state import SCHEMA, Event, Position, dump, load
from adjudicator.games.musket_and_pike.tables import tables_text
from adjudicator.games.musket_and_pike.view import GAME_KEY, scramble_hidden, view

DEFAULT_SCENARIO = "braddock-down"
DECISION_HOURS = ("6", "12", "24", "48", "72")
HOURS_KEY = "option.decision_hours"
# A standing instruction answers at most this many decisions in a row; each one ends an
# activation or a pre-emption chance, so a turn never needs more than a handful.
MAX_STANDING_STEPS = 50
DRY_SEED = b"musket-and-pike dry run"
# Random play-outs (the conformance test) try a few actions per unit, not every one.
MOVES_PER_UNIT = 2


def _rules(position: Position) -> CommandRules:
    """The ruleset as the sequence reads it, with the end rule of the position's scenario."""
    return command_rules(ruleset(), _battle(position.scenario))


def _battle(ident: str) -> Scenario | None:
    """A packaged scenario by id; None for a position of none (tests and tools build those)."""
    return scenario(ident) if ident in scenario_names() else None


def last_turn_rule_text(options: Mapping[str, str] | None) -> str:
    """What decides a battle whose last turn ends with both armies in the field, as that game
    plays it (its scenario's rule), or, without a game, as each scenario plays it; wrapped and
    indented for the help."""
    lead = "After the last turn, with both armies still in the field,"
    if options is not None and options.get("scenario") in scenario_names():
        words = LAST_TURN_WORDS[scenario(options["scenario"]).last_turn_rule]
        return textwrap.fill(f"{lead} {words}.", 76, initial_indent="  ", subsequent_indent="  ")
    lines = [textwrap.fill(f"{lead} the scenario decides:", 76, initial_indent="  ")]
    for name in _options()[0].choices:
        battle = scenario(name)
        said = f"{battle.title}: {LAST_TURN_WORDS[battle.last_turn_rule]}."
        lines.append(textwrap.fill(said, 76, initial_indent="  - ", subsequent_indent="    "))
    return "\n".join(lines)


def _seats() -> tuple[str, ...]:
    return scenario(DEFAULT_SCENARIO).opening.sides


def _options() -> tuple[Option, ...]:
    # Seats are the game's, not the scenario's: only scenarios with the same two sides are offered.
    names = tuple(n for n in scenario_names() if scenario(n).opening.sides == _seats())
    return (
        Option(
            "scenario",
            DEFAULT_SCENARIO,
            names,
            "the battle: "
            + "; ".join(
                f"{n}: {scenario(n).title} ({scenario(n).opening.last_turn} turns)" for n in names
            ),
        ),
        Option(
            "decision_hours",
            "24",
            DECISION_HOURS,
            "hours a player has for each decision before its default is taken [house]",
        ),
    )


def check_actions(position: Position, owner: str, orders: list[JSON]) -> Refusal | None:
    """Why the actions module refuses these unit actions of the wing ``owner``, with dice of no
    game (None: it takes them); at the rout phase, why the rout module refuses the side
    ``owner``'s chosen paths, and at a retreat the chosen path. Only faults every roll shares
    show up here."""
    dry = Chance(DRY_SEED, "dry", 0)
    if position.step == "rout_paths":
        done = unit_resolvers().rout(position, dry, owner, tuple(orders))
        return done if isinstance(done, Refusal) else None
    if position.step == "retreat_path":
        done = unit_resolvers().retreat(position, dry, tuple(orders))
        return done if isinstance(done, Refusal) else None
    moved = actions.resolve_activation(position, owner, orders, dry)
    return moved if isinstance(moved, Refusal) else None


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
    turn_noun = "step"

    # --- starting and asking ----------------------------------------------------------------

    def new_game(self, options: Mapping[str, str], chance: Chance) -> Position:
        chosen = self.check_options(options)
        if isinstance(chosen, str):
            raise ValueError(f"{GAME_KEY}: {chosen}")
        opening = sequence.setup(scenario(chosen["scenario"]).opening)
        return replace(opening, extra=((HOURS_KEY, chosen["decision_hours"]),))

    def pending(self, state: Position) -> dict[str, Decision]:
        owed = sequence.pending(state, _rules(state))
        out: dict[str, Decision] = {}
        for seat, decision in owed.items():
            prompt = f"Turn {state.turn} of {state.last_turn}: {decision.prompt}"
            default = grammar.orders_text(self.default_orders(state, seat)) or ""
            forms = _forms(state, seat, decision)
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
                for orders in _action_sets(state, state.current)
            ]
        if state.step == "rout_paths":
            answers.append({"step": "rout_paths", "answer": _written_routs(state, seat)})
        if state.step == "retreat_path":
            answers.append({"step": "retreat_path", "answer": _written_retreat(state)})
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
                words = standing.MEANING.get((str(kind), str(value)), "asked each time")
                outcomes.append(
                    OrderOutcome(
                        seat,
                        standing.phrase(str(kind), str(value)),
                        "standing-set",
                        f"standing instruction kept: {words}",
                        public=False,
                    )
                )
            position = self._answer(position, seat, orders, chance, outcomes, events)
        position = self._standing(position, chance, outcomes, events)
        if not outcomes:
            outcomes.append(OrderOutcome("", "", "nothing", "no decision was answered"))
        facts = {
            "step": step_before,
            "turn": state.turn,
            "last_turn": state.last_turn,
            "events": [_public_event(e) for e in events],
            "dice": report.dice(events),
            "changes": report.changes(state, position),
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
        if orders.get("step") != position.step or seat not in sequence.pending(position, rules):
            detail = f"this answer was for {orders.get('step')}; the battle has moved on"
            outcomes.append(OrderOutcome(seat, _said(answer), "not-owed", detail))
            return position
        # At the order change the activation's unit actions may come along: they answer the
        # actions step that always follows it.
        replies = [(position.step, answer)]
        if position.step == "order_change" and isinstance(orders.get("actions"), list):
            replies.append(("actions", orders["actions"]))
        for step, reply in replies:
            if step != position.step or seat not in sequence.pending(position, rules):
                break
            done = sequence.answer(position, seat, reply, chance, rules, unit_resolvers())
            if isinstance(done, Refusal):
                outcomes.append(OrderOutcome(seat, _said(reply), "refused", done.reason))
                break
            position, happened = done
            events += happened
            outcomes.append(_outcome(seat, step, reply, happened))
        return position

    def _standing(
        self, position: Position, chance: Chance, outcomes: list[OrderOutcome], events: list[Event]
    ) -> Position:
        """Answer every decision a standing instruction covers, until one nobody answered."""
        rules = _rules(position)
        for _ in range(MAX_STANDING_STEPS):
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
            said = decisions.text(answer)
            outcomes.append(
                OrderOutcome(
                    seat, said, "standing", f"by standing instruction: {said}", public=False
                )
            )
            outcomes.append(_outcome(seat, step, said, happened))
        return position

    def outcome(self, state: Position) -> Outcome:
        first, second = state.sides
        losses = ", ".join(
            f"{side} lost {state.lost(side)} of {state.break_level(side)} SP"
            for side in state.sides
        )
        if state.phase != "over":
            return Outcome(False, summary=f"Turn {state.turn} of {state.last_turn}: {losses}.")
        winners = (state.winner,) if state.winner else ()
        head = f"{state.winner} wins" if state.winner else "No winner"
        reason = state.end_reason or ""
        battle = _battle(state.scenario)
        if reason == "last turn played" and battle is not None:
            # The final report says which rule decided, as the help and the opening mail did.
            reason += f": after it {LAST_TURN_WORDS[battle.last_turn_rule]}"
        score = (1 if state.winner == first else 0, state.lost(second), -state.lost(first))
        return Outcome(True, winners, f"{head} ({reason}); {losses}.", score)

    # --- showing ------------------------------------------------------------------------------

    def view(self, state: Position, seat: str | None) -> JSON:
        return view(state, seat, _rules(state))

    def scramble_hidden(self, state: Position, seat: str | None, salt: int) -> Position:
        return scramble_hidden(state, seat, salt)

    def dump(self, state: Position) -> JSON:
        return dump(state)

    def load(self, data: JSON) -> Position:
        return load(data)

    def render(self, view: JSON, facts: Mapping[str, JSON] | None) -> bytes:
        # Imported here so the rules load without the imaging library.
        from adjudicator.games.musket_and_pike.render import render as picture

        records = [e["data"] for e in (facts or {}).get("events", []) if e.get("data")]
        return picture(load(view["position"]), records)

    def describe(self, view: JSON) -> str:
        from adjudicator.games.musket_and_pike.describe import describe as words

        return words(view)

    def help_text(self, options: Mapping[str, str] | None = None) -> str:
        return help_text().replace(END_RULE_MARK, last_turn_rule_text(options))

    def step_report(self, facts: Mapping[str, JSON]) -> str:
        return report.step_report(facts)

    def orders_text(self, orders: JSON) -> str | None:
        return grammar.orders_text(orders)


# Where help.txt states the rule after the last turn; it comes from the scenario data.
END_RULE_MARK = "{last_turn_rule}"


@functools.cache
def help_text() -> str:
    """help.txt, then the house tables written out from ruleset.toml (what the rules use); the
    rule after the last turn is filled in per game (``END_RULE_MARK``)."""
    package = resources.files("adjudicator.games.musket_and_pike")
    written = package.joinpath("help.txt").read_text(encoding="utf-8")
    return written.rstrip("\n") + "\n\n" + tables_text(ruleset()) + "\n"


# --- helpers -----------------------------------------------------------------------------------

OUTCOME_CODES = (
    "rout-paths",
    "retreat-path",
    "setup-orders",
    "first-wing",
    "activate",
    "pass",
    "preempt",
    "order-change",
    "actions",
    "continuation",
    "standing",
    "standing-set",
    "refused",
    "not-owed",
    "nothing",
)
_STEP_CODES = {
    "setup_orders": "setup-orders",
    "first_wing": "first-wing",
    "activate": "activate",
    "preempt": "preempt",
    "order_change": "order-change",
    "actions": "actions",
    "continuation": "continuation",
    "rout_paths": "rout-paths",
    "retreat_path": "retreat-path",
}


def _said(reply: JSON) -> str:
    if isinstance(reply, list):
        return "; ".join((grammar.orders_text({"answer": reply}) or "NO ACTIONS").splitlines())
    return str(reply)


def _outcome(seat: str, step: str, reply: JSON, happened: Sequence[Event]) -> OrderOutcome:
    code = "pass" if reply == "pass" else _STEP_CODES.get(step, "actions")
    texts = [event_words(e) for e in happened if (e.data or {}).get("type") != "roll"]
    detail = "; ".join(t for t in texts if t) or "done"
    if step == "setup_orders":
        # The orders stay secret until revealed; the reveal itself is a public event.
        return OrderOutcome(seat, _said(reply), code, detail, public=False)
    if step == "actions":
        detail = (
            counted(len(reply) if isinstance(reply, list) else 0, "unit action") + "; " + detail
        )
    if step == "rout_paths":
        chosen = counted(len(reply) if isinstance(reply, list) else 0, "path")
        detail = f"{chosen} chosen; " + detail
    if step == "retreat_path":
        detail = ("path chosen; " if isinstance(reply, list) and reply else "") + detail
    return OrderOutcome(seat, _said(reply), code, detail)


def _public_event(event: Event) -> dict[str, JSON]:
    return {**event.to_json(), "words": event_words(event)}


def _forms(state: Position, seat: str, decision: Decision) -> tuple[str, ...]:
    """The order forms open now, short enough for a mail: the set-up's and the activation's are
    patterns, the others the answers themselves."""
    if state.step == "setup_orders":
        wings = " ".join(f"{w.id}=<order>" for w in state.wings if w.side == seat)
        return (f"ORDERS {wings}", "<order>: CHARGE | MAKE READY | RECEIVE CHARGE | RALLY")
    if state.step == "actions" and state.current is not None:
        units = [u.id for u in state.units if u.wing == state.current and u.hex is not None]
        return (
            f"<unit> MOVE <hex> <hex> ... [FACE <dir>]   units: {', '.join(units)}",
            "<unit> FIRE | SALVO | CHARGE <enemy unit>",
            "<unit> PISTOL [<hex> ...] <enemy unit>",
            "<unit> RALLY | REFORM | HOLD",
            "NO ACTIONS",
        )
    if state.step == "rout_paths":
        running = ", ".join(state.routers(seat))
        return (
            f"<unit> ROUT <hex> <hex> ...   routed: {running}",
            "DEFAULT ROUTS   (every router runs away from the nearest enemy)",
        )
    if state.step == "retreat_path" and state.retreats:
        unit_id, hexes = state.retreats[0]
        return (
            f"{unit_id} RETREAT <hex> ...   "
            f"({counted(hexes, 'hex', 'hexes')}, each farther from the enemy)",
            "DEFAULT RETREAT   (it falls back away from the nearest enemy)",
        )
    return decision.legal


def _written_routs(state: Position, side: str) -> list[JSON]:
    """The default rout moves written out as chosen paths: what a player who copies the
    default would mail (random play-outs use it to exercise the chosen-path route)."""
    done = unit_resolvers().rout(state, Chance(DRY_SEED, "dry", 0), side, ())
    assert not isinstance(done, Refusal), done
    paths: dict[str, JSON] = {}
    for event in done[1]:
        data = event.data or {}
        if data.get("type") == "rout":
            paths[str(data["unit"])] = [list(h) for h in data.get("path", [])]
    return [{"unit": u, "action": "rout", "path": paths.get(u, [])} for u in state.routers(side)]


def _written_retreat(state: Position) -> list[JSON]:
    """The default retreat written out as a chosen path (as ``_written_routs``)."""
    unit_id, hexes = state.retreats[0]
    events: list[JSON] = []
    retreat(state, field_for(state), unit_id, hexes, events)  # only its event is wanted
    path: JSON = next((e["path"] for e in events if e.get("type") == "retreat"), [])
    return [{"unit": unit_id, "action": "retreat", "path": path}]


def _action_sets(position: Position, wing_id: str) -> list[list[JSON]]:
    """A sample of legal unit action sets for the wing (single actions, and one for every unit
    together), each checked by a dry run: enough for random play-outs to fight."""
    field = field_for(position)
    order = position.wing(wing_id).order
    chosen: list[list[JSON]] = []
    firsts: list[JSON] = []
    for unit in position.units:
        if unit.wing != wing_id or unit.hex is None:
            continue
        found: list[JSON] = []
        for candidate in _unit_candidates(position, field, unit, order):
            if check_actions(position, wing_id, [candidate]) is None:
                found.append(candidate)
        chosen += [[c] for c in found]
        if found:
            firsts.append(found[0])
    if len(firsts) > 1 and check_actions(position, wing_id, firsts) is None:
        chosen.append(firsts)
    return chosen


def _unit_candidates(position: Position, field: Any, unit: Any, order: str) -> list[JSON]:
    assert unit.hex is not None
    if unit.morale_state == "routed":
        return [{"unit": unit.id, "action": "rally"}]
    out: list[JSON] = []
    weapon = "artillery" if unit.kind == "ART" else "musket"
    for enemy in enemies(position, unit.side):
        assert enemy.hex is not None
        if (
            unit.id
            and distance(unit.hex, enemy.hex) == 1
            and aspect(unit.hex, unit.facing, enemy.hex) == "front"
        ):
            out.append({"unit": unit.id, "action": "charge", "target": enemy.id})
        if fire_problem(position, field, unit, enemy, weapon) is None:
            out.append({"unit": unit.id, "action": "fire", "target": enemy.id})
    if unit.formation != "normal":
        out.append({"unit": unit.id, "action": "reform"})
    if unit.morale_state == "shaken":
        out.append({"unit": unit.id, "action": "rally"})
    if not contacts(position, unit.side, unit.hex):
        nearest = first_legal_moves(
            position,
            field,
            unit,
            order,
            lambda end: (nearest_enemy(position, unit.side, end) or 0, end),
            MOVES_PER_UNIT,
        )
        for _, moves in nearest:
            path = [[c, r] for c, r in moves]
            out.append({"unit": unit.id, "action": "move", "path": path})
    return out
