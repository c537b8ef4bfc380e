"""The form of an activation's unit orders: each JSON object (see ``actions``) read into a typed
``Action``, with every problem of form found at once; whether an action is legal is the actions
module's question."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.games.musket_and_pike.rules.field import leader, unit
from adjudicator.games.musket_and_pike.rules.hexes import Hex
from adjudicator.games.musket_and_pike.rules.state import Position

ACTIONS = ("move", "fire", "salvo", "pistol", "rally", "reform", "charge")


@dataclass(frozen=True)
class Action:
    actor: str  # a unit id, or a leader id when ``leader`` is set
    action: str
    path: tuple[Hex, ...] = ()
    facing: int | None = None
    target: str | None = None
    leader: bool = False


def _path(raw: Any) -> tuple[Hex, ...] | None:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        return None
    out: list[Hex] = []
    for item in raw:
        if not (
            isinstance(item, list)
            and len(item) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in item)
        ):
            return None
        out.append((item[0], item[1]))
    return tuple(out)


def parse_orders(
    position: Position, wing_id: str, orders: Sequence[Mapping[str, Any]]
) -> list[Action] | list[str]:
    """The wing's actions, or every problem found in their form (not yet their legality)."""
    problems: list[str] = []
    actions: list[Action] = []
    seen: set[str] = set()
    wing = next((w for w in position.wings if w.id == wing_id), None)
    if wing is None:
        return [f"there is no wing {wing_id}"]
    for number, entry in enumerate(orders):
        if not isinstance(entry, Mapping):
            problems.append(f"order {number + 1} is not an object")
            continue
        is_leader = "leader" in entry
        actor = entry.get("leader" if is_leader else "unit")
        name = str(actor)
        if not isinstance(actor, str):
            problems.append(f"order {number + 1} names no unit")
            continue
        if actor in seen:
            problems.append(f"{name} has more than one action")
        seen.add(actor)
        action = str(entry.get("action", "move" if is_leader else ""))
        if is_leader:
            chief = leader(position, actor)
            ours = chief is not None and (
                chief.wing == wing_id or (chief.role == "AC" and chief.side == wing.side)
            )
            if not ours:
                problems.append(f"{name} is not a leader of wing {wing_id}")
            if action != "move":
                problems.append(f"{name}: a leader can only move")
        else:
            mover = unit(position, actor)
            if mover is None or mover.wing != wing_id:
                problems.append(f"{name} is not a unit of wing {wing_id}")
            elif mover.hex is None:
                problems.append(f"{name} is no longer on the map")
            if action not in ACTIONS:
                problems.append(f"{name}: unknown action {action!r} (one of {', '.join(ACTIONS)})")
        path = _path(entry.get("path"))
        if path is None:
            problems.append(f"{name}: path must be a list of [column, row]")
            path = ()
        facing = entry.get("facing")
        if facing is not None and (
            not isinstance(facing, int) or isinstance(facing, bool) or not 0 <= facing <= 5
        ):
            problems.append(f"{name}: facing must be 0..5")
            facing = None
        target = entry.get("target")
        if target is not None and not isinstance(target, str):
            problems.append(f"{name}: target must be a unit id")
            target = None
        if action in ("fire", "salvo", "charge") and target is None:
            problems.append(f"{name}: {action} needs a target")
        if action == "pistol" and not path and target is None:
            problems.append(f"{name}: pistol needs a path, a target or both")
        if action in ("fire", "salvo", "rally", "reform") and path:
            problems.append(f"{name}: {action} takes no path")
        actions.append(Action(actor, action, path, facing, target, is_leader))
    return problems or actions
