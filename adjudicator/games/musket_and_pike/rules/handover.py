"""What the sequence machine hands over to the unit-level modules, and what it hands back.

The machine takes its unit-level steps (3.2 C and D, and the rout phase of 3.3) as functions so it
can be tested alone: ``Resolvers`` holds them, with defaults that wire nothing in; resolvers.py
builds the real ones. ``Ctx`` is what every step of one answer needs besides the position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adjudicator.core.chance import Chance
from adjudicator.core.contract import JSON
from adjudicator.core.refusal import Refusal
from adjudicator.games.musket_and_pike.rules.command import CommandRules
from adjudicator.games.musket_and_pike.rules.state import Event, Position

Events = tuple[Event, ...]
Advance = tuple[Position, Events]
# C and D: the actions module checks and resolves one activation's unit actions and close combat
# (the orders are the list of JSON objects the player gave; see resolvers.py for the wiring).
ActivationResolver = Callable[[Position, str, tuple[JSON, ...], Chance], Advance | Refusal]
# 3.3: one side's routed units make their rout moves, along the paths given (unit JSON objects
# with a "path", for a side that chooses them) or by default; a refused path is a Refusal.
RoutResolver = Callable[[Position, Chance, str, tuple[JSON, ...]], Advance | Refusal]
# D, paused for a retreat path: the first of ``position.retreats`` falls back along the path
# given (a unit JSON object with a "path") or by default (nothing given), and the rest of the
# activation's close combat is fought, maybe pausing again; a refused path is a Refusal.
RetreatResolver = Callable[[Position, Chance, tuple[JSON, ...]], Advance | Refusal]
# The standing RETREAT value with which a side chooses its routers' and retreats' paths by mail.
CHOOSE_PATHS = "choose"


def no_unit_actions(
    position: Position, wing_id: str, orders: tuple[JSON, ...], chance: Chance
) -> Advance | Refusal:
    """The default when no actions module is wired in (the sequence tested alone): an
    activation without unit actions."""
    if orders:
        return Refusal("unit actions are not wired in here: answer no actions", "not-wired")
    return position, ()


def no_rout_moves(
    position: Position, chance: Chance, side: str, paths: tuple[JSON, ...]
) -> Advance | Refusal:
    """The default when no rout module is wired in: nothing moves."""
    if paths:
        return Refusal("rout moves are not wired in here: answer default routs", "not-wired")
    return position, ()


def no_retreats(position: Position, chance: Chance, paths: tuple[JSON, ...]) -> Advance | Refusal:
    """The default when no actions module is wired in: no close combat, so no retreat."""
    return Refusal("retreats are not wired in here", "not-wired")


@dataclass(frozen=True)
class Resolvers:
    """The unit-level steps the machine hands over to the actions and rout modules."""

    activation: ActivationResolver = no_unit_actions
    rout: RoutResolver = no_rout_moves
    retreat: RetreatResolver = no_retreats


@dataclass(frozen=True)
class Ctx:
    """What every step of one ``answer`` call needs besides the position."""

    chance: Chance
    rules: CommandRules
    resolvers: Resolvers
