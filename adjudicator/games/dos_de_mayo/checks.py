"""Legality of one side's orders against a position, line by line, with a reason for every refusal.

The same checker runs when a mail arrives (on the items read from its lines) and again at
adjudication (on the stored set), so a set accepted on receipt is accepted at resolve. Limits are
applied in the order the items come: the first item beyond a limit and every later one that would
break it are refused. Card plays are read before the moves, so a Murat or a Rise anywhere in the
set widens the limits of every move in it. The moves themselves are judged in ``move_checks``.
"""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.core.said import _
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import Card, card_data
from adjudicator.games.dos_de_mayo.move_checks import Check, check_movement
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
    reject,
    target_reason,
)
from adjudicator.games.dos_de_mayo.wording import either


def holds(position: Position, side: Side, area: str, wanted: str) -> bool:
    """Whether ``area`` holds what a card target asks: own, enemy or both sides' units (or any)."""
    own = position.at(side, area) > 0
    enemy = position.at(other(side), area) > 0
    return {"any": True, "own": own, "enemy": enemy, "both": own and enemy}[wanted]


def fatal(position: Position, side: str) -> Problem | None:
    """A problem that refuses every line of the mail."""
    if side not in SIDES:
        why = _("this game's seats are france and spain, not %(seat)s", seat=repr(side))
        return Problem("unknown-seat", why)
    if position.over:
        return Problem("game-over", _("the game is over; no more orders are taken"))
    return None


def check_items(
    position: Position, side: Side, items: Sequence[Item]
) -> tuple[list[Verdict], OrderSet]:
    """A verdict per item (same order) and the order set of the accepted ones."""
    check = Check(position, side, [None] * len(items))
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
        verdict = check_movement(check, index, item)
        if verdict.status == "rejected":
            check.plays.pop(index, None)
        check.verdicts[index] = verdict
    verdicts = [v if v is not None else accept("") for v in check.verdicts]
    return verdicts, _order_set(check)


def _order_set(check: Check) -> OrderSet:
    return OrderSet(
        add=check.add,
        take=check.take,
        plays=tuple(check.plays[index] for index in sorted(check.plays)),
        aims=tuple(check.aims),
        moves=tuple(check.moves),
        draw=True if check.draw is None else check.draw,
    )


def _take(check: Check, item: Take) -> Verdict:
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


def _draw(check: Check, item: Draw) -> Verdict:
    if check.draw is None:
        check.draw = item.draw
        return accept(item.text())
    if check.draw == item.draw:
        return Verdict("ignored", note=_("said already"))
    earlier = "DRAW" if check.draw else "NODRAW"
    return reject("conflicting-order", _("an earlier line already said %(order)s", order=earlier))


def _card_problem(check: Check, card: Card) -> Verdict | None:
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


def _play(check: Check, index: int, item: Play) -> Verdict:
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


def _aim(check: Check, item: Aim) -> Verdict:
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


__all__ = ["CODES", "Problem", "Verdict", "check_items", "fatal"]
