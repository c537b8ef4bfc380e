"""Legality of one side's orders against a position, line by line, with a reason for every refusal.

The same checker runs when a mail arrives (on the items read from its lines) and again at
adjudication (on the stored set), so a set accepted on receipt is accepted at resolve. Limits are
applied in the order the items come: the first item beyond a limit and every later one that would
break it are refused. Card plays are read before the moves, so a Murat or a Rise anywhere in the
set widens the limits of every move in it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.said import _, ngettext
from adjudicator.games.dos_de_mayo.board import Board, board
from adjudicator.games.dos_de_mayo.cards import Card, card_data
from adjudicator.games.dos_de_mayo.orders import (
    Aim,
    Draw,
    Hold,
    Item,
    Move,
    OrderSet,
    Play,
    Take,
)
from adjudicator.games.dos_de_mayo.sides import FRANCE, SIDES, Side, other, title
from adjudicator.games.dos_de_mayo.state import Position
from adjudicator.games.dos_de_mayo.verdicts import (
    CODES,
    Problem,
    Verdict,
    accept,
    ordered_already,
    reject,
    target_reason,
)
from adjudicator.games.dos_de_mayo.wording import did_you_mean, either


def stays(units: int, rule: str) -> int:
    """Spanish units that stay behind when a group leaves an area holding French units."""
    return (units + 1) // 2 if rule == "ceil" else units // 2


def holds(position: Position, side: Side, area: str, wanted: str) -> bool:
    """Whether ``area`` holds what a card target asks: own, enemy or both sides' units (or any)."""
    own = position.at(side, area) > 0
    enemy = position.at(other(side), area) > 0
    return {"any": True, "own": own, "enemy": enemy, "both": own and enemy}[wanted]


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


def fatal(position: Position, side: str) -> Problem | None:
    """A problem that refuses every line of the mail."""
    if side not in SIDES:
        why = _("this game's seats are france and spain, not %(seat)s", seat=repr(side))
        return Problem("unknown-seat", why)
    if position.over:
        return Problem("game-over", _("the game is over; no more orders are taken"))
    return None


@dataclass
class _Check:
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


def check_items(
    position: Position, side: Side, items: Sequence[Item]
) -> tuple[list[Verdict], OrderSet]:
    """A verdict per item (same order) and the order set of the accepted ones."""
    check = _Check(position, side, [None] * len(items))
    first: list[int] = []  # ADD, TAKE and DRAW: plays depend on TAKE
    plays: list[int] = []
    aims: list[int] = []  # after the plays: a play may bring the card into play
    movements: list[int] = []  # moves, holds and card moves, in line order
    for index, item in enumerate(items):
        kind = type(item)
        if kind is Move or kind is Hold:
            movements.append(index)
        elif kind is Play:
            plays.append(index)
            movements.append(index)
        elif kind is Aim:
            aims.append(index)
        else:
            first.append(index)
    for index in first:
        item = items[index]
        if isinstance(item, Take):
            check.verdicts[index] = _take(check, item)
        elif isinstance(item, Draw):
            check.verdicts[index] = _draw(check, item)
        else:
            check.add = index == 0
            note = None if index == 0 else _("ADD counts only as the first order line")
            check.verdicts[index] = accept("ADD") if index == 0 else Verdict("ignored", note=note)
    for index in plays:
        play = items[index]
        assert isinstance(play, Play)
        check.verdicts[index] = _play(check, index, play)
    check.limit = check.group_limit()
    for index in aims:
        aim = items[index]
        assert isinstance(aim, Aim)
        check.verdicts[index] = _aim(check, aim)
    for index in movements:
        item = items[index]
        if isinstance(item, Play) and (item.move is None or index not in check.plays):
            continue
        verdict = _movement(check, index, item)
        if verdict.status == "rejected":
            check.plays.pop(index, None)
        check.verdicts[index] = verdict
    verdicts = [v if v is not None else accept("") for v in check.verdicts]
    return verdicts, _order_set(check)


def item_move(item: Item) -> Move | None:
    return item.move if isinstance(item, Play) else item if isinstance(item, Move) else None


def _order_set(check: _Check) -> OrderSet:
    return OrderSet(
        add=check.add,
        take=check.take,
        plays=tuple(check.plays[index] for index in sorted(check.plays)),
        aims=tuple(check.aims),
        moves=tuple(check.moves),
        draw=True if check.draw is None else check.draw,
    )


def _take(check: _Check, item: Take) -> Verdict:
    position = check.position
    if check.side != FRANCE or not position.start_choice or position.turn != 1:
        return reject("not-turn-one", _("TAKE is France's turn-1 choice of its start card"))
    if item.card not in position.start_choice:
        keys = [card_data().card(c).keyword for c in position.start_choice]
        fix = _("TAKE %(names)s", names=either(keys))
        return reject("not-a-start-card", _("the start card is %(names)s", names=either(keys)), fix)
    if check.take is not None:
        if check.take == item.card:
            return Verdict("ignored", note=_("said already"))
        why = _("one start card only: an earlier line took the other")
        return reject("conflicting-order", why)
    check.take = item.card
    return accept(item.text())


def _draw(check: _Check, item: Draw) -> Verdict:
    if check.draw is None:
        check.draw = item.draw
        return accept(item.text())
    if check.draw == item.draw:
        return Verdict("ignored", note=_("said already"))
    earlier = "DRAW" if check.draw else "NODRAW"
    return reject("conflicting-order", _("an earlier line already said %(order)s", order=earlier))


def _card_problem(check: _Check, card: Card) -> Verdict | None:
    position = check.position
    key = card.keyword
    if card.side != check.side:
        return reject(
            "wrong-side", _("%(card)s is a %(side)s card", card=key, side=title(card.side))
        )
    if card.window == "on-draw":
        why = _("%(card)s takes effect when drawn; it is not played", card=key)
        return reject("card-on-draw", why)
    if card.id in position.in_play:
        return reject("card-not-in-hand", _("%(card)s is already in play", card=key))
    if card.id not in check.hand():
        return reject("card-not-in-hand", _("%(card)s is not in your hand", card=key))
    if any(play.card == card.id for play in check.plays.values()):
        return reject("duplicate-order", _("%(card)s is already played in this set", card=key))
    first, last = card.earliest, card.latest
    if not first <= position.turn <= last:
        if first == last:
            why = _("%(card)s can be played on turn %(turn)s only", card=key, turn=first)
        else:
            why = _(
                "%(card)s can be played on turns %(first)s-%(last)s only",
                card=key,
                first=first,
                last=last,
            )
        return reject("card-not-now", why)
    if card.requires_any and not any(position.has_played(c) for c in card.requires_any):
        names = either([card_data().card(c).name for c in card.requires_any])
        why = _("%(card)s needs %(cards)s played first", card=key, cards=names)
        return reject("card-prerequisite", why)
    return None


def _play(check: _Check, index: int, item: Play) -> Verdict:
    card = card_data().card(item.card)
    problem = _card_problem(check, card) or _arguments(card, item)
    if problem is not None:
        return problem
    target = item.target
    if card.target is not None and target is not None:
        wanted = card.target
        ok = target in wanted.also or holds(check.position, check.side, target, wanted.holds)
        if wanted.checked == "orders" and not ok:
            return reject("bad-card-target", target_reason(card.keyword, target, wanted))
    if card.effect.kind == "place_set_aside" and check.position.set_aside[check.side] < 1:
        return reject("no-units", _("no set-aside unit is left to bring in"))
    check.plays[index] = item
    if card.effect.kind == "group_limit_add":
        check.group_add += card.effect.amount
    elif card.effect.kind == "allow_split" and target is not None:
        check.split[target] = card.effect.amount
    elif card.effect.kind == "leave_whole" and target is not None:
        check.whole.add(target)
    return accept(item.text())


def _arguments(card: Card, item: Play) -> Verdict | None:
    """The play carries what its card takes: an area, a move, or nothing (JSON may lie)."""
    wanted = {"none": (False, False), "area": (True, False), "path": (False, True)}
    target, move = wanted.get(card.args, (False, True))
    if (item.target is not None) != target or (item.move is not None) != move:
        why = _("PLAY %(card)s takes %(args)s arguments", card=card.keyword, args=card.args)
        return reject("malformed", why)
    if item.target is not None and item.target not in board().index:
        return reject("unknown-area", _("%(area)s is not an area", area=item.target))
    return None


def _aim(check: _Check, item: Aim) -> Verdict:
    card = card_data().card(item.card)
    aim = card.effect.aim or card.keyword
    if not card.effect.aim or item.area not in board().index:
        return reject("malformed", _("%(aim)s takes an area, for a card that aims", aim=aim))
    if card.side != check.side:
        return reject(
            "wrong-side", _("%(aim)s is a %(side)s order", aim=aim, side=title(card.side))
        )
    played_now = any(play.card == card.id for play in check.plays.values())
    if card.id not in check.position.in_play and not played_now:
        if card.id in check.hand():
            fix = _("PLAY %(card)s first, then %(aim)s <area>", card=card.keyword, aim=aim)
            return reject("not-in-play", _("%(card)s is not in play", card=card.name), fix)
        why = _("%(card)s is neither in play nor in your hand", card=card.name)
        return reject("not-in-play", why)
    if any(done.card == item.card for done in check.aims):
        return reject("duplicate-order", _("%(aim)s names one area a turn", aim=aim))
    check.aims.append(item)
    return accept(item.text())


def _movement(check: _Check, index: int, item: Item) -> Verdict:
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


def _hold(check: _Check, item: Hold) -> Verdict:
    if item.area not in board().index or check.position.at(check.side, item.area) == 0:
        return reject("no-units", _("you have no units in %(area)s", area=item.area))
    if check.side != FRANCE:  # a Spanish HOLD is the group's one order
        if check.ways.get(item.area):
            why = _("the group in %(area)s already has an order", area=item.area)
            return reject("spain-no-split", why)
        check.ways[item.area] = [(item.area,)]
    return accept(item.text())


def _shape(check: _Check, move: Move, card: Card | None) -> Verdict | None:
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


def _france(check: _Check, move: Move, card: Card | None) -> Verdict:
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


def _spain(check: _Check, move: Move) -> Verdict:
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


__all__ = ["CODES", "Problem", "Verdict", "check_items", "fatal", "france_group_limit", "stays"]
