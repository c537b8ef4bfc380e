"""The wiring between the sequence of play and the unit-level modules (actions, close combat, rout).

The sequence machine takes its unit-level steps as functions (``handover.Resolvers``) so it can be
tested alone; this module builds the real ones. The actions and rout modules write their events as
JSON objects with a "type"; they are carried over unchanged in ``Event.data``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from adjudicator.core.chance import Chance
from adjudicator.core.contract import JSON
from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _
from adjudicator.games.musket_and_pike.rules import actions, rout
from adjudicator.games.musket_and_pike.rules.command import CommandRules
from adjudicator.games.musket_and_pike.rules.data import Ruleset
from adjudicator.games.musket_and_pike.rules.handover import Advance, Resolvers
from adjudicator.games.musket_and_pike.rules.scenario import Scenario
from adjudicator.games.musket_and_pike.rules.state import Event, Position


def _events(records: Iterable[Mapping[str, JSON]], wing: str | None) -> tuple[Event, ...]:
    return tuple(Event(str(r.get("type", "unit")), wing=wing, data=dict(r)) for r in records)


def unit_resolvers(rules: Ruleset | None = None, battle: Scenario | None = None) -> Resolvers:
    """Resolvers that hand steps C, D (actions.resolve_activation, and actions.resolve_retreat
    for a retreat path asked in the middle of D) and the rout phase (rout.rout_side, a side at a
    time) to their modules, with the given ruleset and scenario
    (default: the packaged ruleset and the position's own scenario)."""

    def activation(
        position: Position, wing_id: str, orders: tuple[JSON, ...], chance: Chance
    ) -> Advance | Refusal:
        done = actions.resolve_activation(
            position, wing_id, list(orders), chance, rules=rules, battle=battle
        )
        if isinstance(done, Refusal):
            return done
        moved, records = done
        return moved, _events(records, wing_id)

    def rout_phase(
        position: Position, chance: Chance, side: str, paths: tuple[JSON, ...]
    ) -> Advance | Refusal:
        chosen = {str(p["unit"]): [(int(h[0]), int(h[1])) for h in p["path"]] for p in paths}
        done = rout.rout_side(position, chance, side, chosen, rules=rules, battle=battle)
        if isinstance(done, Refusal):
            return done
        moved, records = done
        return moved, _events(records, None)

    def retreat(position: Position, chance: Chance, paths: tuple[JSON, ...]) -> Advance | Refusal:
        if not position.retreats:
            return Refusal(_("no retreat is owed"), "not-owed")
        owed = position.retreats[0][0]
        path = None
        for given in paths:
            if given.get("unit") != owed:
                return Refusal(
                    _(
                        "the retreat owed is %(unit)s's, not %(other)s's",
                        unit=owed,
                        other=given.get("unit"),
                    ),
                    "illegal",
                )
            path = [(int(h[0]), int(h[1])) for h in given["path"]]
        done = actions.resolve_retreat(position, path, chance, rules=rules, battle=battle)
        if isinstance(done, Refusal):
            return done
        moved, records = done
        return moved, _events(records, position.current)

    return Resolvers(activation=activation, rout=rout_phase, retreat=retreat)


def command_rules(rules: Ruleset, battle: Scenario | None = None) -> CommandRules:
    """The ruleset as the sequence reads it (mypy checks that the fields fit), with the end rule
    of the battle played when one is given: the scenario's rule decides after the last turn."""
    if battle is None:
        return rules
    return replace(rules, last_turn=battle.last_turn_rule)
