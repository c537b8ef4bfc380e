"""Legality of the moves in one side's orders: the board's adjacency and stack rules, France's
group limit and Spain's one order per group, the units that must stay behind with the French,
and the state a whole order set is checked in (``Check``). ``checks`` runs the other items.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.said import _, ngettext
from adjudicator.games.dos_de_mayo.board import Board, board
from adjudicator.games.dos_de_mayo.cards import Card, card_data
from adjudicator.games.dos_de_mayo.orders import Aim, Hold, Item, Move, Play
from adjudicator.games.dos_de_mayo.sides import FRANCE, Side, other
from adjudicator.games.dos_de_mayo.state import Position
from adjudicator.games.dos_de_mayo.verdicts import Verdict, accept, ordered_already, reject
from adjudicator.games.dos_de_mayo.wording import did_you_mean


def stays(units: int, rule: str) -> int:
    """Spanish units that stay behind when a group leaves an area holding French units."""
    return (units + 1) // 2 if rule == "ceil" else units // 2


def france_group_limit(position: Position) -> int:
    """How many French groups outside the main streets may move this turn, before the cards
    played with the orders add to it (Looting, say, has set it for the turn)."""
    data = card_data()
    limit = board().rules.france_group_limit
    for card_id in position.turn_effects:
        effect = data.card(card_id).effect
        if effect.kind == "group_limit_set":
            limit = effect.amount
    return limit


def france_limit_set_by(position: Position) -> dict[str, Any] | None:
    """Why France's group limit differs this turn, for where a mail states it: the card that
    set it and the two numbers (Looting, drawn this turn: 1 instead of 2); None when usual."""
    usual = board().rules.france_group_limit
    limit = france_group_limit(position)
    data = card_data()
    setting = [c for c in position.turn_effects if data.card(c).effect.kind == "group_limit_set"]
    if limit == usual or not setting:
        return None
    return {"card": data.card(setting[-1]).name, "limit": limit, "usual": usual}


@dataclass
class Check:
    """One side's order set while it is checked, item by item: what is ordered so far and the
    limits the plays set, so each later item is judged against the earlier ones."""

    position: Position
    side: Side
    verdicts: list[Verdict | None]
    take: str | None = None
    draw: bool | None = None
    add: bool = False
    plays: dict[int, Play] = field(default_factory=dict)
    aims: list[Aim] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    group_add: int = 0
    split: dict[str, int] = field(default_factory=dict)  # area -> ways the group may go
    whole: set[str] = field(default_factory=set)  # areas a group leaves with nobody staying
    claimed: dict[str, int] = field(default_factory=dict)  # origin -> units already ordered
    ways: dict[str, list[tuple[str, ...]]] = field(default_factory=dict)  # origin -> paths
    counted: set[str] = field(default_factory=set)  # France's origins against the group limit
    limit: int = 0  # France's group limit this turn, once the plays are read
    board: Board = field(default_factory=board)

    def group_limit(self) -> int:
        return france_group_limit(self.position) + self.group_add

    def hand(self) -> tuple[str, ...]:
        """The hand, with France's start card once taken (the default one if TAKE is absent)."""
        hand = self.position.hands[self.side]
        if self.side == FRANCE and self.position.start_choice:
            return (*hand, self.take or card_data().france_default)
        return hand


def item_move(item: Item) -> Move | None:
    """The move an item makes: a move's own, a card play's, or None."""
    return item.move if isinstance(item, Play) else item if isinstance(item, Move) else None


def check_movement(check: Check, index: int, item: Item) -> Verdict:
    """A move, a HOLD or a card's move (item ``index``), against the board, the stack rules and
    the side's own limits; an accepted one is added to ``check``."""
    if isinstance(item, Hold):
        return _hold(check, item)
    move = item_move(item)
    assert move is not None
    card = card_data().card(item.card) if isinstance(item, Play) else None
    steps = 2 if card is not None and card.effect.kind == "two_step" else 1
    if len(move.path) != steps + 1:
        why = ngettext("this move takes %(num)s step", "this move takes %(num)s steps", steps)
        return reject("malformed", why)
    if card is not None and card.args == "entry" and move.origin not in check.board.stack_gate:
        why = _("PLAY %(card)s names a reinforcement stack", card=card.keyword)
        return reject("malformed", why)
    shape = _shape(check, move, card)
    if shape is not None:
        return shape
    verdict = _france(check, move, card) if check.side == FRANCE else _spain(check, move)
    if verdict.status != "accepted" or verdict.canonical is None:
        return verdict
    if isinstance(item, Play):
        check.plays[index] = Play(item.card, move=check.moves.pop())
        return accept(check.plays[index].text())
    return verdict


def _hold(check: Check, item: Hold) -> Verdict:
    if item.area not in board().index or check.position.at(check.side, item.area) == 0:
        return reject("no-units", _("you have no units in %(area)s", area=item.area))
    if check.side != FRANCE:  # a Spanish HOLD is the group's one order
        if check.ways.get(item.area):
            why = _("the group in %(area)s already has an order", area=item.area)
            return reject("spain-no-split", why)
        check.ways[item.area] = [(item.area,)]
    return accept(item.text())


def _shape(check: Check, move: Move, card: Card | None) -> Verdict | None:
    """Adjacency and the stack rules: what is wrong with the move whoever's units they are."""
    the_board = check.board
    origin, path = move.origin, move.path
    stack = origin in the_board.stack_gate
    for area in path[1:] if stack else path:
        if area not in the_board.index:
            return reject("unknown-area", _("%(area)s is not an area", area=area))
    if stack:
        if check.side != FRANCE:
            return reject("wrong-side", _("only France has reinforcement stacks"))
        gate = the_board.stack_gate[origin]
        if path != (origin, gate):
            why = _("%(stack)s enters at %(gate)s only", stack=origin, gate=gate)
            return reject("not-own-gate", why, f"{origin}-{gate}")
        early = card is not None and card.effect.kind == "early_entry"
        first = the_board.rules.reinforcements_from_turn
        if check.position.turn < first and not early:
            return reject("too-early", _("reinforcements enter from turn %(turn)s on", turn=first))
        return None
    for here, there in itertools.pairwise(path):
        if there not in the_board.neighbours[here]:
            near = min(
                the_board.neighbours[here],
                key=lambda n: (abs(int(n) - int(there)) if there.isdigit() else 0, int(n)),
            )
            borders = ", ".join(the_board.neighbours[here])
            reason = _(
                "%(there)s is not next to %(here)s (%(here)s borders %(borders)s)",
                there=there,
                here=here,
                borders=borders,
            )
            return reject("not-adjacent", reason, did_you_mean(f"{here}-{near}"))
    if len(path) == 3 and check.position.at(other(check.side), path[1]) > 0:
        why = _("the middle area %(area)s holds enemy units", area=path[1])
        return reject("path-blocked", why)
    return None


def _france(check: Check, move: Move, card: Card | None) -> Verdict:
    the_board = check.board
    origin = move.origin
    area = the_board.index.get(origin)
    units_now = check.position.units
    here = check.position.stack(origin) if area is None else units_now.france[area]
    if here == 0:
        return reject("no-units", _("you have no units in %(area)s", area=origin))
    if area is not None and units_now.spain[area] > 0:
        why = _("French units may not leave %(area)s: Spanish units are there", area=origin)
        return reject("pinned", why)
    if move.path in check.ways.get(origin, []):
        return reject("duplicate-order", ordered_already(move))
    early = card is not None and card.effect.kind == "early_entry"
    exempt = origin in the_board.main_streets or early
    if not exempt and origin not in check.counted and len(check.counted) >= check.limit:
        limit = check.limit
        why = ngettext(
            "France may order %(num)s group outside the main streets this turn (%(areas)s already)",
            "France may order %(num)s groups outside the main streets this turn "
            "(%(areas)s already)",
            limit,
            areas=", ".join(sorted(check.counted)),
        )
        set_by = france_limit_set_by(check.position)
        if set_by is not None:
            why = _(
                "%(why)s: %(card)s sets it at %(limit)s this turn, not %(usual)s", why=why, **set_by
            )
        return reject("group-limit", why)
    left = here - check.claimed.get(origin, 0)
    units = left if move.units is None else move.units
    if units > left or left == 0:
        reason = _("%(area)s has %(left)s of your units without orders", area=origin, left=left)
        fix = did_you_mean(Move(move.path, left).text()) if left else None
        return reject("too-many-units", reason, fix)
    if not exempt:
        check.counted.add(origin)
    check.claimed[origin] = check.claimed.get(origin, 0) + units
    check.ways.setdefault(origin, []).append(move.path)
    canonical = Move(move.path, units)
    check.moves.append(canonical)
    return accept(canonical.text())


def _spain(check: Check, move: Move) -> Verdict:
    origin = move.origin
    here = check.position.at("spain", origin)
    if here == 0:
        return reject("no-units", _("you have no units in %(area)s", area=origin))
    taken = check.ways.get(origin, [])
    if move.path in taken:
        return reject("duplicate-order", ordered_already(move))
    ways = check.split.get(origin, 1)
    if len(taken) >= ways:
        reason = _(
            "Spain may not split a group: the group in %(area)s already has its order", area=origin
        )
        return reject("spain-no-split", reason)
    leaving = here
    if check.position.at(FRANCE, origin) > 0 and origin not in check.whole:
        leaving = here - stays(here, check.position.settings.half_stays)
    if leaving == 0:
        why = _("with French units in %(area)s, the group there must stay", area=origin)
        return reject("must-stay", why)
    if ways > 1:
        left = leaving - check.claimed.get(origin, 0)
        units = left if move.units is None else move.units
        if units > left or left == 0:
            why = _("%(left)s of the units in %(area)s may still leave", left=left, area=origin)
            return reject("too-many-units", why)
        check.claimed[origin] = check.claimed.get(origin, 0) + units
        canonical = Move(move.path, units)
    else:
        if move.units is not None and move.units not in (here, leaving):
            reason = _(
                "Spain moves whole groups: %(area)s holds %(here)s, %(leaving)s may leave",
                area=origin,
                here=here,
                leaving=leaving,
            )
            return reject("spain-no-split", reason, f"{'-'.join(move.path)}")
        canonical = Move(move.path, None)
    check.ways.setdefault(origin, []).append(move.path)
    check.moves.append(canonical)
    return accept(canonical.text())
