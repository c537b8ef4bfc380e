"""Finished games whose fairness a test checks: a Thermopyles game played to its end by mail
(dice in every battle, the decks shuffled), its dice under scheme v2 with the player's own words,
and such a record tampered with in the database."""

from __future__ import annotations

from typing import Any

from dos_de_mayo_by_mail import position
from playbymail import compose, deliver_mail
from sqlalchemy import select

from adjudicator.core.chance import Contribution
from adjudicator.games.thermopyles import strategy
from adjudicator.models import Game, Turn
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import GameStatus

LEONIDAS = "leonidas@example.com"
# The player's own words for the dice, with markup in them: every page shows them as text.
WORDS = "tiger 4417 <b>&</b>"


def finished_thermopyles(runtime: Runtime, player: str = LEONIDAS, words: str = WORDS) -> int:
    """A solo Thermopyles game played by mail to its end with a competent player's orders; the
    player adds ``words`` to its dice after the game's name (scheme v2)."""
    deliver_mail(runtime, compose(player, "new@pbem.localhost", f"NEW THERMOPYLES {words}"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert game is not None
        game_id, address = game.id, play.seat_address(runtime, game, game.seats[0])
    for _ in range(80):
        now = position(runtime, game_id)
        if now.over:
            break
        deliver_mail(runtime, compose(player, address, strategy.choose(now).text()))
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).status == GameStatus.FINISHED
    return game_id


def contributions(runtime: Runtime, game_id: int) -> list[Contribution]:
    """What the game's key is made with, as the game recorded it, in seat order."""
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.chance_scheme == "v2", game.chance_scheme
        return [Contribution.from_json(data) for data in game.contributions]


def dice_count(runtime: Runtime, game_id: int) -> int:
    with runtime.db.session() as session:
        turns = session.scalars(select(Turn).where(Turn.game_id == game_id))
        return sum(event["kind"] == "die" for turn in turns for event in turn.events)


def recorded_draws(runtime: Runtime, game_id: int) -> int:
    """How many draws (dice and shuffles) the game recorded over all its turns."""
    with runtime.db.session() as session:
        turns = session.scalars(select(Turn).where(Turn.game_id == game_id)).all()
        return sum(len(turn.events) for turn in turns)


def tamper_one_die(runtime: Runtime, game_id: int) -> dict[str, Any]:
    """One recorded die result changed in the database, as a dishonest operator would; the die
    as it now reads, with its turn."""
    with runtime.db.session() as session:
        turns = session.scalars(
            select(Turn).where(Turn.game_id == game_id).order_by(Turn.number, Turn.id)
        ).all()
        for turn in turns:
            events = [dict(event) for event in turn.events]
            for event in events:
                if event["kind"] == "die" and event["bound"] > 1:
                    value = event["result"][0]
                    event["result"] = [value % event["bound"] + 1]  # another face of the die
                    turn.events = events
                    return event
    raise AssertionError(f"game {game_id} rolled no die")
