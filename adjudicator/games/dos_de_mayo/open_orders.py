"""What a side may order now, for the mail's "what you can do now" list.

Every entry is built from orders that ``checks.check_items`` accepts when sent alone, the same
checker that judges a mail's lines, so the list never offers what the rules refuse: a French group
pinned by Spaniards, a card before its turn or its prerequisite, a card whose every target fails.
An entry keeps the single orders it stands for (``examples``), one per choice its form names, so a
test can send each and see it accepted.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.core.said import _, ngettext
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import Card, card_data
from adjudicator.games.dos_de_mayo.checks import check_items
from adjudicator.games.dos_de_mayo.move_checks import france_group_limit, france_limit_set_by
from adjudicator.games.dos_de_mayo.orders import Aim, Draw, Item, Move, Play, Take
from adjudicator.games.dos_de_mayo.sides import FRANCE, Side
from adjudicator.games.dos_de_mayo.state import Position

# A form lists its choices while they are few; past this it names the kind of argument only.
MAX_CHOICES_SHOWN = 8


@dataclass(frozen=True)
class Open:
    """One line of the list: its form as the mail shows it, and the orders it stands for."""

    form: str
    examples: tuple[Item, ...]


def accepted_alone(position: Position, side: Side, item: Item) -> bool:
    verdicts, _ = check_items(position, side, [item])
    return verdicts[0].status == "accepted"


def entries(position: Position, side: Side) -> list[Open]:
    """Every order form open to ``side`` now, each with the single orders it offers."""
    if position.over:
        return []
    found = [*_takes(position, side), *_moves(position, side), *_plays(position, side)]
    found += _aims(position, side)
    found += [Open("DRAW", (Draw(True),)), Open("NODRAW", (Draw(False),))]
    return found


def forms(position: Position, side: Side) -> list[str]:
    """The list as the mail shows it: the forms, then a limit the forms alone do not show."""
    shown = [entry.form for entry in entries(position, side)]
    if side == FRANCE and not position.over:
        limit = france_group_limit(position)
        outside = [o for o in _own_origins(position, side) if o not in board().main_streets]
        if limit < len(outside):
            shown.append(
                ngettext(
                    "(France may move %(num)s group outside the main streets this turn; "
                    "reinforcements and main-street groups do not count)",
                    "(France may move %(num)s groups outside the main streets this turn; "
                    "reinforcements and main-street groups do not count)",
                    limit,
                )
            )
            set_by = france_limit_set_by(position)
            if set_by is not None:
                shown.append(
                    _("(%(card)s sets the limit at %(limit)s this turn, not %(usual)s)", **set_by)
                )
    return shown


def _takes(position: Position, side: Side) -> list[Open]:
    takes = [Take(c) for c in position.start_choice if accepted_alone(position, side, Take(c))]
    if not takes:
        return []
    keywords = "|".join(card_data().card(t.card).keyword for t in takes)
    return [Open(f"TAKE {keywords}", tuple(takes))]


def _own_origins(position: Position, side: Side) -> list[str]:
    return [area for area in board().areas if position.at(side, area)]


def _moves(position: Position, side: Side) -> list[Open]:
    the_board = board()
    count = " [xN]" if side == FRANCE else ""
    found: list[Open] = []
    for area in _own_origins(position, side):
        tries = [Move((area, n)) for n in the_board.neighbours[area]]
        moves = [m for m in tries if accepted_alone(position, side, m)]
        if moves:
            ends = "|".join(m.path[1] for m in moves)
            found.append(Open(f"{area}-{ends}{count}", tuple(moves)))
    if side == FRANCE:
        for stack, gate in the_board.stack_gate.items():
            entry = Move((stack, gate))
            if accepted_alone(position, side, entry):
                found.append(Open(f"{stack}-{gate} [xN]", (entry,)))
    return found


def _plays(position: Position, side: Side) -> list[Open]:
    data = card_data()
    hand = list(position.hands[side])
    if side == FRANCE and position.start_choice:
        # Without a TAKE line the default start card is the one taken: playable at once.
        hand.append(data.france_default)
    found: list[Open] = []
    for card_id in hand:
        card = data.card(card_id)
        tries = _candidate_plays(position, side, card)
        plays = [p for p in tries if accepted_alone(position, side, p)]
        if plays:
            found.append(Open(_play_form(card, plays), tuple(plays)))
    return found


def _candidate_plays(position: Position, side: Side, card: Card) -> list[Play]:
    the_board = board()
    if card.window == "on-draw":
        return []
    if card.args == "none":
        return [Play(card.id)]
    if card.args == "area":
        return [Play(card.id, target=area) for area in the_board.areas]
    if card.args == "entry":
        return [Play(card.id, move=Move((s, g))) for s, g in the_board.stack_gate.items()]
    paths = []
    for origin in _own_origins(position, side):
        for middle in the_board.neighbours[origin]:
            for end in the_board.neighbours[middle]:
                if end != origin:
                    paths.append(Play(card.id, move=Move((origin, middle, end))))
    return paths


def _play_form(card: Card, plays: list[Play]) -> str:
    head = f"PLAY {card.keyword}"
    if card.args == "none":
        return head
    choices = [p.args().split(" x")[0] for p in plays]
    kind = {"area": "<area>", "entry": "<stack>", "path": "<a-b-c>"}.get(card.args, "<a-b-c>")
    if len(choices) > MAX_CHOICES_SHOWN:
        return f"{head} {kind}"
    return f"{head} {'|'.join(choices)}"


def _aims(position: Position, side: Side) -> list[Open]:
    data = card_data()
    found: list[Open] = []
    for card_id in position.in_play:
        card = data.card(card_id)
        if not card.effect.aim or card.side != side:
            continue
        aims = [
            Aim(card_id, area)
            for area in board().areas
            if accepted_alone(position, side, Aim(card_id, area))
        ]
        if aims:
            areas = "|".join(a.area for a in aims)
            shown = areas if len(aims) <= MAX_CHOICES_SHOWN else "<area>"
            found.append(Open(f"{card.effect.aim} {shown}", tuple(aims)))
    return found
