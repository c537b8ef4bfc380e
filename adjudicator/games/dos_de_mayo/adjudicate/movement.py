"""Steps 5-7: which moves may start (pins, half-stays, cards), head-on swaps, then all at once."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from adjudicator.core.said import _, ngettext
from adjudicator.games.dos_de_mayo.adjudicate.work import Work
from adjudicator.games.dos_de_mayo.move_checks import stays
from adjudicator.games.dos_de_mayo.orders import Move
from adjudicator.games.dos_de_mayo.sides import FRANCE, SIDES, SPAIN, Side, title
from adjudicator.games.dos_de_mayo.state import MoveRecord

Edge = tuple[str, str]


@dataclass
class Moving:
    """One ordered move on its way: how many units go, and what became of it."""

    side: Side
    path: tuple[str, ...]
    units: int
    order: str  # the order as written canonically, for the outcome
    result: str = "moved"  # moved | stopped | failed
    why: str = ""

    def edges(self) -> list[Edge]:
        return list(itertools.pairwise(self.path))


def starting_moves(work: Work) -> list[Moving]:
    """Step 5. Every ordered move with its units, checked against the position at the start of
    Movement (after the orders-window cards): France's pin, Spain's half-stays, the cards."""
    moves: list[Moving] = []
    for side in SIDES:
        orders = work.orders[side]
        entries = [(play.move, play.text()) for play in orders.plays if play.move is not None]
        entries += [(move, move.text()) for move in orders.moves]
        claimed: dict[str, int] = {}
        for move, text in entries:
            moves.append(_start(work, side, move, text, claimed))
    return moves


def _failed(side: Side, move: Move, text: str, why: str) -> Moving:
    return Moving(side, move.path, move.units or 0, text, "failed", why)


def _start(work: Work, side: Side, move: Move, text: str, claimed: dict[str, int]) -> Moving:
    origin, destination = move.origin, move.path[-1]
    enemy = SPAIN if side == FRANCE else FRANCE
    if origin in work.cancelled[side]:
        why = _("cancelled by a card: the group in %(area)s stays", area=origin)
        return _failed(side, move, text, why)
    if origin in work.board.index and side == FRANCE and work.at(SPAIN, origin) > 0:
        return _failed(side, move, text, _("pinned: Spanish units are in %(area)s", area=origin))
    if len(move.path) == 3 and work.at(enemy, move.path[1]) > 0:
        why = _("the middle area %(area)s holds enemy units", area=move.path[1])
        return _failed(side, move, text, why)
    if destination in work.blocked[side]:
        why = _("barricades: moves into %(area)s fail", area=destination)
        return _failed(side, move, text, why)
    if origin in work.board.stack_gate:
        here = work.stacks[work.board.stacks.index(origin)]
    else:
        here = work.at(side, origin)
    leaving = here
    if side == SPAIN and work.at(FRANCE, origin) > 0 and origin not in work.whole[side]:
        leaving = here - stays(here, work.before.settings.half_stays)
    left = leaving - claimed.get(origin, 0)
    units = left if move.units is None else min(move.units, left)
    if units <= 0:
        why = _("no unit of the group in %(area)s may leave", area=origin)
        return _failed(side, move, text, why)
    claimed[origin] = claimed.get(origin, 0) + units
    return Moving(side, move.path, units, text)


def swaps(work: Work, moves: list[Moving]) -> None:
    """Step 6. A French move A->B against a Spanish move B->A: only the larger force along that
    edge goes, the initiative side on a tie. One pass, from the sums as ordered; a stopped move
    stays in its origin and never makes a new swap."""
    along: dict[tuple[Side, Edge], int] = {}
    for move in moves:
        if move.result == "moved":
            for edge in move.edges():
                along[(move.side, edge)] = along.get((move.side, edge), 0) + move.units
    losers: dict[tuple[Side, Edge], str] = {}
    for (side, (a, b)), french in along.items():
        spanish = along.get((SPAIN, (b, a)), 0)
        if side != FRANCE or not spanish:
            continue
        if french > spanish or (french == spanish and work.initiative == FRANCE):
            losers[(SPAIN, (b, a))] = _swap_words(french, spanish, a, b, FRANCE, work)
        else:
            losers[(FRANCE, (a, b))] = _swap_words(spanish, french, b, a, SPAIN, work)
    for move in moves:
        for edge in move.edges() if move.result == "moved" else ():
            why = losers.get((move.side, edge))
            if why is not None:
                move.result, move.why = "stopped", why
                break


def _swap_words(won: int, lost: int, a: str, b: str, winner: Side, work: Work) -> str:
    values = {"side": title(winner), "won": won, "a": a, "b": b, "lost": lost}
    if won == lost:
        return _(
            "head-on with %(side)s's %(won)s moving %(a)s-%(b)s against %(lost)s "
            "(a tie: initiative decides)",
            **values,
        )
    return _("head-on with %(side)s's %(won)s moving %(a)s-%(b)s against %(lost)s", **values)


def execute(work: Work, moves: list[Moving]) -> None:
    """Step 7. Every move still going happens at once; each side's units in an area merge."""
    for move in moves:
        if move.result == "moved":
            origin = move.path[0]
            if origin in work.board.stack_gate:
                work.stacks[work.board.stacks.index(origin)] -= move.units
            else:
                work.add(move.side, origin, -move.units)
            work.add(move.side, move.path[-1], move.units)
        work.moves.append(MoveRecord(move.side, move.path, move.units, move.result, move.why))
        work.outcome(move.side, move.order, move.result, _detail(move))


def _detail(move: Moving) -> str:
    if move.result == "stopped":
        return _("stopped by a head-on swap, %(why)s", why=move.why)
    if move.result == "failed":
        return _("failed: %(why)s", why=move.why)
    if len(move.path) == 3:
        return ngettext(
            "%(num)s unit moved through %(area)s",
            "%(num)s units moved through %(area)s",
            move.units,
            area=move.path[1],
        )
    return ngettext("%(num)s unit moved", "%(num)s units moved", move.units)
