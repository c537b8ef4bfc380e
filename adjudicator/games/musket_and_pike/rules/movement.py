"""Movement under orders: path costs, the simple zone of control, and each order's limits.

A path is the list of hexes a unit enters, in order, starting next to its hex. It may not enter
any occupied hex (friends included: units do not pass through each other here), may not cross
impassable terrain, costs each entered hex's terrain cost for the unit's kind, and ends at the
first hex next to an enemy when ``contact_stops`` is on. Facing changes are free.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import Any

from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _, ngettext
from adjudicator.games.musket_and_pike.rules.data import OrderLimits
from adjudicator.games.musket_and_pike.rules.field import Field, contacts, nearest_enemy, occupant
from adjudicator.games.musket_and_pike.rules.hexes import Hex, direction_to, neighbours
from adjudicator.games.musket_and_pike.rules.state import Leader, Position, Unit


def allowance(field: Field, mover: Unit, path: Sequence[Hex]) -> int:
    """Movement points for this path: the kind's allowance, plus the road bonus when the unit
    starts on a road and every hex it enters is road."""
    base = field.rules.allowance[mover.kind]
    if mover.hex is None or not path:
        return base
    road = field.rules.terrain["road"].letter
    if all(field.scenario.letter(where) == road for where in (mover.hex, *path)):
        return base + field.rules.road_bonus.get(mover.kind, 0)
    return base


def _step_problem(
    position: Position, field: Field, mover: Unit, here: Hex, there: Hex
) -> Refusal | None:
    if direction_to(here, there) is None:
        return Refusal(
            _("%(hex)s is not next to %(other)s", hex=str(list(there)), other=str(list(here))),
            "illegal",
        )
    if not field.on_map(there):
        return Refusal(_("%(hex)s is off the map", hex=str(list(there))), "illegal")
    if not field.terrain(there).passable(mover.kind):
        return Refusal(
            _(
                "%(kind)s may not enter %(terrain)s at %(hex)s",
                kind=mover.kind,
                terrain=field.terrain(there).name,
                hex=str(list(there)),
            ),
            "illegal",
        )
    other = occupant(position, there)
    if other is not None and other.id != mover.id:
        return Refusal(
            _("%(hex)s is occupied by %(unit)s", hex=str(list(there)), unit=other.id), "illegal"
        )
    return None


def path_cost(position: Position, field: Field, mover: Unit, path: Sequence[Hex]) -> int | Refusal:
    """The movement points the path costs, or why it cannot be walked (terrain, units, contact)."""
    if mover.hex is None:
        return Refusal(_("%(unit)s is not on the map", unit=mover.id), "illegal")
    here, spent = mover.hex, 0
    for number, there in enumerate(path):
        problem = _step_problem(position, field, mover, here, there)
        if problem is not None:
            return Refusal(
                _("%(unit)s: %(reason)s", unit=mover.id, reason=problem.reason), problem.code
            )
        spent += field.terrain(there).cost[mover.kind]
        last = number == len(path) - 1
        if field.rules.contact_stops and not last and contacts(position, mover.side, there):
            return Refusal(
                _(
                    "%(unit)s: the move must stop at %(hex)s, next to an enemy",
                    unit=mover.id,
                    hex=str(list(there)),
                ),
                "illegal",
            )
        here = there
    if spent > allowance(field, mover, path):
        return Refusal(
            _(
                "%(unit)s: the path costs %(cost)s, more than %(allowance)s",
                unit=mover.id,
                cost=spent,
                allowance=allowance(field, mover, path),
            ),
            "illegal",
        )
    return spent


def order_problem(
    position: Position, limits: OrderLimits, mover: Unit, path: Sequence[Hex]
) -> Refusal | None:
    """Why the wing's order forbids this move (None when it allows it)."""
    if mover.hex is None:
        return Refusal(_("%(unit)s is not on the map", unit=mover.id), "illegal")
    start, end = mover.hex, (path[-1] if path else mover.hex)
    order = limits.order.replace("_", " ")
    if limits.max_hexes and len(path) > limits.max_hexes:
        most = ngettext(
            "%(unit)s: under %(order)s a unit moves at most %(num)s hex",
            "%(unit)s: under %(order)s a unit moves at most %(num)s hexes",
            limits.max_hexes,
            unit=mover.id,
            order=order,
        )
        return Refusal(most, "illegal")
    before, after = contacts(position, mover.side, start), contacts(position, mover.side, end)
    gap = nearest_enemy(position, mover.side, start)
    new_contact = bool(after - before)
    if new_contact and limits.into_contact == "never":
        return Refusal(
            _("%(unit)s: under %(order)s no move may end in contact", unit=mover.id, order=order),
            "illegal",
        )
    if (
        new_contact
        and limits.into_contact == "near"
        and (gap is None or gap > limits.near_distance)
    ):
        return Refusal(
            _(
                "%(unit)s: under %(order)s a move starting more than %(hexes)s hexes from the"
                " enemy may not end in contact",
                unit=mover.id,
                order=order,
                hexes=limits.near_distance,
            ),
            "illegal",
        )
    if limits.must_close:
        if before and path:
            return Refusal(
                _(
                    "%(unit)s: under %(order)s a unit already in contact may only turn",
                    unit=mover.id,
                    order=order,
                ),
                "illegal",
            )
        ending = nearest_enemy(position, mover.side, end)
        if not before and gap is not None and (ending is None or ending >= gap):
            return Refusal(
                _(
                    "%(unit)s: under %(order)s the move must end nearer an enemy",
                    unit=mover.id,
                    order=order,
                ),
                "illegal",
            )
    return None


def check_move(
    position: Position, field: Field, mover: Unit, path: Sequence[Hex], order: str
) -> int | Refusal:
    """The path's cost when the unit may take it under its wing's order; else why not."""
    cost = path_cost(position, field, mover, path)
    if isinstance(cost, Refusal):
        return cost
    problem = order_problem(position, field.rules.orders[order], mover, path)
    return cost if problem is None else problem


def reachable(position: Position, field: Field, mover: Unit) -> dict[Hex, tuple[Hex, ...]]:
    """Every hex the unit can reach by terrain and units alone, with a cheapest path to it."""
    return _search(position, field, mover)[0]


def _search(
    position: Position, field: Field, mover: Unit
) -> tuple[dict[Hex, tuple[Hex, ...]], dict[Hex, int]]:
    """Cheapest paths by terrain and units alone, and what each costs (see ``reachable``)."""
    if mover.hex is None:
        return {}, {}
    # Road moves get more points; search with the larger allowance and let check_move re-cost.
    budget = field.rules.allowance[mover.kind] + field.rules.road_bonus.get(mover.kind, 0)
    best: dict[Hex, int] = {mover.hex: 0}
    paths: dict[Hex, tuple[Hex, ...]] = {mover.hex: ()}
    queue: list[tuple[int, Hex]] = [(0, mover.hex)]
    while queue:
        spent, here = heapq.heappop(queue)
        if spent > best.get(here, spent):
            continue
        if here != mover.hex and field.rules.contact_stops and contacts(position, mover.side, here):
            continue  # entering contact ends the move
        for there in neighbours(here):
            # _step_problem's checks, without its words: this loop runs for every edge.
            if not field.on_map(there):
                continue
            ground = field.terrain(there)
            other = occupant(position, there)
            if not ground.passable(mover.kind) or (other is not None and other.id != mover.id):
                continue
            total = spent + ground.cost[mover.kind]
            if total <= budget and total < best.get(there, budget + 1):
                best[there] = total
                paths[there] = (*paths[here], there)
                heapq.heappush(queue, (total, there))
    return paths, best


def legal_moves(
    position: Position, field: Field, mover: Unit, order: str
) -> dict[Hex, tuple[Hex, ...]]:
    """The hexes the unit may end its move in under ``order``, each with a legal path to it.

    Each hex is tried with its cheapest path. The order limits look only at where a move starts
    and ends and at its length, so this misses a hex only when its cheapest path is longer than
    ``max_hexes`` but a dearer, shorter one is not (possible only for limits above one hex).

    Every search path is walkable by construction (each step was checked, and the search never
    goes on from a hex in contact), so only what ``check_move`` adds to that is checked here:
    the allowance without the road bonus, and the order's limits."""
    paths, costs = _search(position, field, mover)
    return {
        end: path
        for end, path in paths.items()
        if _allowed(field, mover, path, costs[end], order, position)
    }


def first_legal_moves(
    position: Position,
    field: Field,
    mover: Unit,
    order: str,
    rank: Callable[[Hex], Any],
    count: int,
) -> list[tuple[Hex, tuple[Hex, ...]]]:
    """The first ``count`` moves of ``legal_moves`` (leaving the hex) in ``rank`` order, found
    without checking the order's limits for every other end: random play-outs want only a few."""
    paths, costs = _search(position, field, mover)
    found: list[tuple[Hex, tuple[Hex, ...]]] = []
    for end in sorted((end for end in paths if end != mover.hex), key=rank):
        if _allowed(field, mover, paths[end], costs[end], order, position):
            found.append((end, paths[end]))
            if len(found) == count:
                break
    return found


def _allowed(
    field: Field, mover: Unit, path: tuple[Hex, ...], cost: int, order: str, position: Position
) -> bool:
    """What ``check_move`` adds to a search path: the allowance without the road bonus, and the
    order's limits."""
    base = field.rules.allowance[mover.kind]
    if cost > base and cost > allowance(field, mover, path):
        return False
    return order_problem(position, field.rules.orders[order], mover, path) is None


def check_leader_path(
    position: Position, field: Field, mover: Leader, path: Sequence[Hex]
) -> Refusal | None:
    """Why a leader may not take this path (None when he may): a fixed cost per hex, any passable
    ground, never into an enemy unit's hex."""
    if mover.hex is None:
        return Refusal(_("%(unit)s is not on the map", unit=mover.id), "illegal")
    if len(path) * field.rules.leader_cost > field.rules.leader_allowance:
        return Refusal(
            _(
                "%(unit)s: a leader moves at most %(points)s points",
                unit=mover.id,
                points=field.rules.leader_allowance,
            ),
            "illegal",
        )
    here = mover.hex
    for there in path:
        why = _leader_step_problem(position, field, mover, here, there)
        if why is not None:
            return Refusal(why, "illegal")
        here = there
    return None


def _leader_step_problem(
    position: Position, field: Field, mover: Leader, here: Hex, there: Hex
) -> str | None:
    """Why the leader may not step from ``here`` into ``there``, or None."""
    at = {"unit": mover.id, "hex": str(list(there))}
    if direction_to(here, there) is None or not field.on_map(there):
        return _(
            "%(unit)s: %(hex)s is not a map hex next to %(other)s", other=str(list(here)), **at
        )
    if not field.terrain(there).cost:
        terrain = field.terrain(there).name
        return _("%(unit)s: no one may enter %(terrain)s at %(hex)s", terrain=terrain, **at)
    other = occupant(position, there)
    if other is not None and other.side != mover.side:
        return _("%(unit)s: %(hex)s holds the enemy %(enemy)s", enemy=other.id, **at)
    return None
