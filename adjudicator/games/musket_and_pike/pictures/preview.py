"""A side's checked orders drawn on the map before anything is resolved, for the order checker.

``preview_facts`` turns a parsed order set into facts marked ``preview``: the moves as events of
the shape a resolution records (``move``, ``leader_move``, ``rout``, ``retreat``), so the turn
maps' own renderer draws their arrows; fire and charges as arrows to their targets, each target's
hex ringed; a tag on the units that rally, reform, turn or hold; at set-up the wing orders asked
for. ``draw`` draws them over the map of the view, the order set in words under the panel.
Nothing is resolved (no die rolled, no move tried), and only the side's own orders and the
public battlefield (where the units stand) go into the facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.contract import JSON, PREVIEW
from adjudicator.core.said import N_, _
from adjudicator.games.musket_and_pike.rules.state import Position
from adjudicator.games.musket_and_pike.words import grammar

PATHS = {"rout": "rout", "retreat": "retreat", "move": "move"}  # unit action: event drawn
# A charge ends in close combat with its target; fire, a salvo and pistols shoot at theirs.
CLOSING = frozenset({"charge"})
TAGS = {"rally": N_("rallies"), "reform": N_("reforms")}


def _hexes(start: Any, path: Any) -> list[list[int]]:
    return [[int(start[0]), int(start[1])], *([int(h[0]), int(h[1])] for h in path or [])]


def _where(position: Position) -> dict[str, list[int]]:
    """Every unit and leader on the map, by id, at its hex."""
    found = {u.id: [u.hex[0], u.hex[1]] for u in position.units if u.hex is not None}
    found.update({x.id: [x.hex[0], x.hex[1]] for x in position.leaders if x.hex is not None})
    return found


def _action(
    order: Mapping[str, Any], where: Mapping[str, list[int]], facts: dict[str, Any]
) -> None:
    """One unit's (or leader's) action as events, target rings and tags in ``facts``."""
    actor = str(order.get("leader") or order.get("unit") or "")
    start = where.get(actor)
    if start is None:
        return
    path = list(order.get("path") or [])
    action = "move" if "leader" in order else str(order.get("action", "move"))
    end = _hexes(start, path)[-1]
    if path:
        kind = "leader_move" if "leader" in order else PATHS.get(action, "move")
        facts["events"].append({"type": kind, "unit": actor, "path": _hexes(start, path)})
    target = where.get(str(order.get("target") or ""))
    if target is not None:
        kind = "close_combat" if action in CLOSING else "fire"
        facts["events"].append({"type": kind, "from": end, "to": target})
        facts["targets"].append({"at": target, "kind": kind, "by": actor})
    if action in TAGS:
        facts["tags"].append({"at": end, "words": _(TAGS[action])})
    elif order.get("facing") is not None and not path:
        facts["tags"].append({"at": end, "words": _("turns")})


def _unit_orders(orders: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
    """The unit actions of an order set: the answer's (actions, paths) or the order change's."""
    for value in (orders.get("answer"), orders.get("actions")):
        if isinstance(value, list):
            return [order for order in value if isinstance(order, dict)]
    return None


def _wing_orders(answer: Any) -> dict[str, str]:
    """The set-up answer "orders R-A=charge R-B=make_ready" as each wing's order."""
    if not isinstance(answer, str) or not answer.startswith("orders "):
        return {}
    pairs = (part.split("=", 1) for part in answer.removeprefix("orders ").split())
    return {wing: order for wing, order in pairs}


def preview_facts(position: Position, seat: str, orders: JSON) -> dict[str, Any] | None:
    """The order set as facts to draw, or None when it is no Musket & Pike order set of a side."""
    if seat not in position.sides or not isinstance(orders, dict) or "step" not in orders:
        return None
    facts: dict[str, Any] = {
        PREVIEW: True,
        "side": seat,
        "step": orders["step"],
        "wing_orders": _wing_orders(orders.get("answer")),
        "events": [],
        "targets": [],
        "tags": [],
        "lines": (grammar.orders_text(orders) or "").splitlines(),
    }
    actions = _unit_orders(orders)
    where = _where(position)
    for order in actions or []:
        _action(order, where, facts)
    if actions is not None and orders["step"] in ("actions", "order_change"):
        # The activated wing's units given no action hold where they stand.
        acting = {str(order.get("unit")) for order in actions}
        for unit in position.units:
            if unit.wing == position.current and unit.hex is not None and unit.id not in acting:
                facts["tags"].append({"at": [unit.hex[0], unit.hex[1]], "words": _("holds")})
    return facts


def notes(facts: Mapping[str, Any]) -> tuple[str, ...]:
    """The order set in words under the map's panel: what is asked, never what will happen."""
    head = _("Checked, not resolved: your orders as asked (arrows: moves, rings: targets).")
    if facts.get("wing_orders"):
        head = _("Checked, not resolved: your wing orders as asked, marked (asked) in the panel.")
    return (head, *(str(line) for line in facts.get("lines") or []))


def draw(view: Mapping[str, Any], facts: Mapping[str, Any], scale: int = 1) -> bytes:
    """The map of ``view`` with the checked orders on it, as a PNG ``scale`` times the size."""
    # The renderer and the imaging library load only when a picture is drawn.
    from adjudicator.games.musket_and_pike.pictures import preview_marks, render
    from adjudicator.games.musket_and_pike.rules.state import load

    position = load(view["position"])
    plan = render.Plan(dict(facts.get("wing_orders") or {}), notes(facts))
    image, paint = render.draw(position, list(facts.get("events") or []), scale=scale, plan=plan)
    preview_marks.mark(paint, facts)
    return render.encode(image)
