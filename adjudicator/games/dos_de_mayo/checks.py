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
from typing import NamedTuple

from adjudicator.core import words
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

# The closed set of rejection codes a line receipt (or an outcome at adjudication) may carry.
CODES = (
    "unknown-order",
    "malformed",
    "unknown-area",
    "unknown-card",
    "not-adjacent",
    "no-units",
    "too-many-units",
    "group-limit",
    "pinned",
    "spain-no-split",
    "must-stay",
    "too-early",
    "not-own-gate",
    "duplicate-order",
    "conflicting-order",
    "wrong-side",
    "card-not-in-hand",
    "card-not-now",
    "card-prerequisite",
    "card-on-draw",
    "bad-card-target",
    "path-blocked",
    "not-in-play",
    "not-turn-one",
    "not-a-start-card",
    "game-over",
    "unknown-seat",
)


@dataclass(frozen=True)
class Problem:
    code: str
    reason: str
    suggestion: str | None = None


class Verdict(NamedTuple):
    """What became of one item: accepted (canonical text), rejected (problem) or ignored (note).
    A named tuple, not a frozen dataclass: one is made per order line, twice a turn."""

    status: str  # accepted | rejected | ignored
    canonical: str | None = None
    problem: Problem | None = None
    note: str | None = None


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


def fatal(position: Position, side: str) -> Problem | None:
    """A problem that refuses every line of the mail."""
    if side not in SIDES:
        return Problem("unknown-seat", f"this game's seats are france and spain, not {side!r}")
    if position.over:
        return Problem("game-over", "the game is over; no more orders are taken")
    return None


def _reject(code: str, reason: str, suggestion: str | None = None) -> Verdict:
    return Verdict("rejected", problem=Problem(code, reason, suggestion))


def _accept(text: str) -> Verdict:
    return Verdict("accepted", canonical=text)


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
            note = None if index == 0 else "ADD counts only as the first order line"
            check.verdicts[index] = _accept("ADD") if index == 0 else Verdict("ignored", note=note)
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
    verdicts = [v if v is not None else _accept("") for v in check.verdicts]
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
        return _reject("not-turn-one", "TAKE is France's turn-1 choice of its start card")
    if item.card not in position.start_choice:
        names = " or ".join(card_data().card(c).keyword for c in position.start_choice)
        return _reject("not-a-start-card", f"the start card is {names}", f"TAKE {names}")
    if check.take is not None:
        if check.take == item.card:
            return Verdict("ignored", note="said already")
        return _reject("conflicting-order", "one start card only: an earlier line took the other")
    check.take = item.card
    return _accept(item.text())


def _draw(check: _Check, item: Draw) -> Verdict:
    if check.draw is None:
        check.draw = item.draw
        return _accept(item.text())
    if check.draw == item.draw:
        return Verdict("ignored", note="said already")
    earlier = "DRAW" if check.draw else "NODRAW"
    return _reject("conflicting-order", f"an earlier line already said {earlier}")


def _card_problem(check: _Check, card: Card) -> Verdict | None:
    position = check.position
    if card.side != check.side:
        return _reject("wrong-side", f"{card.keyword} is a {title(card.side)} card")
    if card.window == "on-draw":
        return _reject("card-on-draw", f"{card.keyword} takes effect when drawn; it is not played")
    if card.id in position.in_play:
        return _reject("card-not-in-hand", f"{card.keyword} is already in play")
    if card.id not in check.hand():
        return _reject("card-not-in-hand", f"{card.keyword} is not in your hand")
    if any(play.card == card.id for play in check.plays.values()):
        return _reject("duplicate-order", f"{card.keyword} is already played in this set")
    if not card.earliest <= position.turn <= card.latest:
        when = (
            f"turn {card.earliest}"
            if card.earliest == card.latest
            else (f"turns {card.earliest}-{card.latest}")
        )
        return _reject("card-not-now", f"{card.keyword} can be played on {when} only")
    if card.requires_any and not any(position.has_played(c) for c in card.requires_any):
        names = " or ".join(card_data().card(c).en for c in card.requires_any)
        return _reject("card-prerequisite", f"{card.keyword} needs {names} played first")
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
            where = {"own": "your units", "enemy": "enemy units", "both": "both sides"}
            extra = f" or be one of {', '.join(sorted(wanted.also))}" if wanted.also else ""
            reason = f"{card.keyword}: area {target} must hold {where[wanted.holds]}{extra}"
            return _reject("bad-card-target", reason)
    if card.effect.kind == "place_set_aside" and check.position.set_aside[check.side] < 1:
        return _reject("no-units", "no set-aside unit is left to bring in")
    check.plays[index] = item
    if card.effect.kind == "group_limit_add":
        check.group_add += card.effect.amount
    elif card.effect.kind == "allow_split" and target is not None:
        check.split[target] = card.effect.amount
    elif card.effect.kind == "leave_whole" and target is not None:
        check.whole.add(target)
    return _accept(item.text())


def _arguments(card: Card, item: Play) -> Verdict | None:
    """The play carries what its card takes: an area, a move, or nothing (JSON may lie)."""
    wanted = {"none": (False, False), "area": (True, False), "path": (False, True)}
    target, move = wanted.get(card.args, (False, True))
    if (item.target is not None) != target or (item.move is not None) != move:
        return _reject("malformed", f"PLAY {card.keyword} takes {card.args} arguments")
    if item.target is not None and item.target not in board().index:
        return _reject("unknown-area", f"{item.target} is not an area")
    return None


def _aim(check: _Check, item: Aim) -> Verdict:
    card = card_data().card(item.card)
    aim = card.effect.aim or card.keyword
    if not card.effect.aim or item.area not in board().index:
        return _reject("malformed", f"{aim} takes an area, for a card that aims")
    if card.side != check.side:
        return _reject("wrong-side", f"{aim} is a {title(card.side)} order")
    played_now = any(play.card == card.id for play in check.plays.values())
    if card.id not in check.position.in_play and not played_now:
        if card.id in check.hand():
            fix = f"PLAY {card.keyword} first, then {aim} <area>"
            return _reject("not-in-play", f"{card.en} is not in play", fix)
        return _reject("not-in-play", f"{card.en} is neither in play nor in your hand")
    if any(done.card == item.card for done in check.aims):
        return _reject("duplicate-order", f"{aim} names one area a turn")
    check.aims.append(item)
    return _accept(item.text())


def _movement(check: _Check, index: int, item: Item) -> Verdict:
    if isinstance(item, Hold):
        return _hold(check, item)
    move = item_move(item)
    assert move is not None
    card = card_data().card(item.card) if isinstance(item, Play) else None
    steps = 2 if card is not None and card.effect.kind == "two_step" else 1
    if len(move.path) != steps + 1:
        return _reject("malformed", f"this move takes {steps} step{'s' if steps > 1 else ''}")
    if card is not None and card.args == "entry" and move.origin not in check.board.stack_gate:
        return _reject("malformed", f"PLAY {card.keyword} names a reinforcement stack")
    shape = _shape(check, move, card)
    if shape is not None:
        return shape
    verdict = _france(check, move, card) if check.side == FRANCE else _spain(check, move)
    if verdict.status != "accepted" or verdict.canonical is None:
        return verdict
    if isinstance(item, Play):
        check.plays[index] = Play(item.card, move=check.moves.pop())
        return _accept(check.plays[index].text())
    return verdict


def _hold(check: _Check, item: Hold) -> Verdict:
    if item.area not in board().index or check.position.at(check.side, item.area) == 0:
        return _reject("no-units", f"you have no units in {item.area}")
    if check.side != FRANCE:  # a Spanish HOLD is the group's one order
        if check.ways.get(item.area):
            return _reject("spain-no-split", f"the group in {item.area} already has an order")
        check.ways[item.area] = [(item.area,)]
    return _accept(item.text())


def _shape(check: _Check, move: Move, card: Card | None) -> Verdict | None:
    """Adjacency and the stack rules: what is wrong with the move whoever's units they are."""
    the_board = check.board
    origin, path = move.origin, move.path
    stack = origin in the_board.stack_gate
    for area in path[1:] if stack else path:
        if area not in the_board.index:
            return _reject("unknown-area", f"{area} is not an area")
    if stack:
        if check.side != FRANCE:
            return _reject("wrong-side", "only France has reinforcement stacks")
        gate = the_board.stack_gate[origin]
        if path != (origin, gate):
            return _reject("not-own-gate", f"{origin} enters at {gate} only", f"{origin}-{gate}")
        early = card is not None and card.effect.kind == "early_entry"
        first = the_board.rules.reinforcements_from_turn
        if check.position.turn < first and not early:
            return _reject("too-early", f"reinforcements enter from turn {first} on")
        return None
    for here, there in itertools.pairwise(path):
        if there not in the_board.neighbours[here]:
            near = min(
                the_board.neighbours[here],
                key=lambda n: (abs(int(n) - int(there)) if there.isdigit() else 0, int(n)),
            )
            borders = ", ".join(the_board.neighbours[here])
            reason = f"{there} is not next to {here} ({here} borders {borders})"
            return _reject("not-adjacent", reason, f"did you mean {here}-{near}?")
    if len(path) == 3 and check.position.at(other(check.side), path[1]) > 0:
        return _reject("path-blocked", f"the middle area {path[1]} holds enemy units")
    return None


def _france(check: _Check, move: Move, card: Card | None) -> Verdict:
    the_board = check.board
    origin = move.origin
    area = the_board.index.get(origin)
    units_now = check.position.units
    here = check.position.stack(origin) if area is None else units_now.france[area]
    if here == 0:
        return _reject("no-units", f"you have no units in {origin}")
    if area is not None and units_now.spain[area] > 0:
        return _reject("pinned", f"French units may not leave {origin}: Spanish units are there")
    if move.path in check.ways.get(origin, []):
        return _reject("duplicate-order", f"{'-'.join(move.path)} is already ordered")
    early = card is not None and card.effect.kind == "early_entry"
    exempt = origin in the_board.main_streets or early
    if not exempt and origin not in check.counted and len(check.counted) >= check.limit:
        limit = check.limit
        return _reject(
            "group-limit",
            f"France may order {words.counted(limit, 'group')} outside the main streets this turn "
            f"({', '.join(sorted(check.counted))} already)",
        )
    left = here - check.claimed.get(origin, 0)
    units = left if move.units is None else move.units
    if units > left or left == 0:
        reason = f"{origin} has {left} of your units without orders"
        fix = f"did you mean {Move(move.path, left).text()}?" if left else None
        return _reject("too-many-units", reason, fix)
    if not exempt:
        check.counted.add(origin)
    check.claimed[origin] = check.claimed.get(origin, 0) + units
    check.ways.setdefault(origin, []).append(move.path)
    canonical = Move(move.path, units)
    check.moves.append(canonical)
    return _accept(canonical.text())


def _spain(check: _Check, move: Move) -> Verdict:
    origin = move.origin
    here = check.position.at("spain", origin)
    if here == 0:
        return _reject("no-units", f"you have no units in {origin}")
    taken = check.ways.get(origin, [])
    if move.path in taken:
        return _reject("duplicate-order", f"{'-'.join(move.path)} is already ordered")
    ways = check.split.get(origin, 1)
    if len(taken) >= ways:
        reason = f"Spain may not split a group: the group in {origin} already has its order"
        return _reject("spain-no-split", reason)
    leaving = here
    if check.position.at(FRANCE, origin) > 0 and origin not in check.whole:
        leaving = here - stays(here, check.position.settings.half_stays)
    if leaving == 0:
        return _reject("must-stay", f"with French units in {origin}, the group there must stay")
    if ways > 1:
        left = leaving - check.claimed.get(origin, 0)
        units = left if move.units is None else move.units
        if units > left or left == 0:
            return _reject("too-many-units", f"{left} of the units in {origin} may still leave")
        check.claimed[origin] = check.claimed.get(origin, 0) + units
        canonical = Move(move.path, units)
    else:
        if move.units is not None and move.units not in (here, leaving):
            reason = f"Spain moves whole groups: {origin} holds {here}, {leaving} may leave"
            return _reject("spain-no-split", reason, f"{'-'.join(move.path)}")
        canonical = Move(move.path, None)
    check.ways.setdefault(origin, []).append(move.path)
    check.moves.append(canonical)
    return _accept(canonical.text())
