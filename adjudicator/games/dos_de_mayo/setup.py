"""A new game: the chosen setup laid out, start cards dealt, both decks shuffled by the server."""

from __future__ import annotations

from adjudicator.core.chance import Chance
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.draws import deck_label
from adjudicator.games.dos_de_mayo.sides import FRANCE, SPAIN
from adjudicator.games.dos_de_mayo.state import Pair, Position, Settings


def new_game(settings: Settings, chance: Chance) -> Position:
    """Turn 1 awaiting orders. France's start card is still to be chosen (TAKE, with its turn-1
    orders), so both start options are held apart; the unchosen one joins the deck at turn 1's
    end and that deck is shuffled again then."""
    the_board = board()
    data = card_data()
    layout = the_board.setups[settings.setup]
    units = Pair(
        tuple(layout.units["france"].get(area, 0) for area in the_board.areas),
        tuple(layout.units["spain"].get(area, 0) for area in the_board.areas),
    )
    france_rest = [c for c in data.deck("france") if c not in data.france_choice]
    spain_rest = [c for c in data.deck("spain") if c not in data.spain_start]
    return Position(
        settings=settings,
        turn=1,
        last_turn=0,
        status="playing",
        winner=None,
        end_reason=None,
        units=units,
        stacks=tuple(layout.stacks.get(stack, 0) for stack in the_board.stacks),
        set_aside=Pair(layout.set_aside["france"], layout.set_aside["spain"]),
        losses=Pair(0, 0),
        gone=Pair(0, 0),
        hands=Pair((), data.spain_start),
        decks=Pair(
            tuple(chance.shuffle(deck_label(FRANCE), france_rest)),
            tuple(chance.shuffle(deck_label(SPAIN), spain_rest)),
        ),
        played=(),
        discarded=(),
        in_play=(),
        start_choice=data.france_choice,
        turn_effects=(),
        drawn=Pair((), ()),
    )
