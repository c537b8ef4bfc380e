"""The 2 de Mayo game most service tests play, France against Spain, started through the
game-master service and played by mail as its players would."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playbymail import compose, deliver_mail, drain, reply_addresses, sent_count

from adjudicator.games import registry
from adjudicator.models import Game
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import lifecycle
from adjudicator.services.turns.lifecycle import GameSettings

FRANCE, SPAIN, GM = "murat@example.com", "daoiz@example.com", "gm@example.com"
DOS = registry.games()["2demayo"]


def dos_de_mayo_game(
    runtime: Runtime,
    france: str = FRANCE,
    spain: str = SPAIN,
    schedule: str = "48h",
    timezone: str = "UTC",
    **settings: Any,
) -> int:
    """A 2 de Mayo game made by the game-master service (``settings`` as ``GameSettings`` takes
    them, and ``invite``); its id. Its welcomes are only queued: ``drain`` sends them, as
    ``start_dos_de_mayo`` does."""
    seats = {"france": france, "spain": spain}
    invite = bool(settings.pop("invite", False))
    asked = GameSettings("2demayo", seats, {}, schedule, timezone, **settings)
    with runtime.db.session() as session:
        made = lifecycle.start_game(session, runtime, asked, invite=invite)
        assert isinstance(made, Game), made
        return made.id


def start_dos_de_mayo(
    runtime: Runtime, france: str = FRANCE, spain: str = SPAIN, **settings: Any
) -> tuple[int, dict[str, str]]:
    """A 2 de Mayo game with its welcomes sent: its id, and the reply address each mail the start
    sent gives, by recipient (each player's seat, and the game master's when there is one)."""
    before = sent_count(runtime)
    game_id = dos_de_mayo_game(runtime, france, spain, **settings)
    drain(runtime)
    return game_id, reply_addresses(runtime, before)


def position(runtime: Runtime, game_id: int) -> Any:
    """The game's position after its latest turn, as its rules load it."""
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        return play.rules_for(game).load(play.latest_turn(session, game_id).state)


def play_turn_one(runtime: Runtime, addresses: dict[str, str]) -> None:
    """France takes its start card and moves; Spain moves; the turn is resolved."""
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW"))
    deliver_mail(runtime, compose(SPAIN, addresses[SPAIN], "9-14\nNODRAW"))


def mail_unseen_orders(runtime: Runtime, game_id: int, france: str, shown: str) -> list[str]:
    """France's legal orders with the most move lines of which none is yet in ``shown`` (what
    the pages show), mailed to ``france``, the seat's address: a later page that shows one of
    them leaks orders not yet played. Returns those move lines; the game is still running."""
    candidates = []
    for orders in DOS.legal_orders(position(runtime, game_id), "france"):
        written = DOS.orders_text(orders)
        assert written is not None
        moves = [line for line in written.splitlines() if re.fullmatch(r"\d+-\d+ x\d+", line)]
        if moves and not any(line in shown for line in moves):
            candidates.append((written, moves))
    assert candidates, "no legal France order set to keep secret"
    written, moves = max(candidates, key=lambda found: len(found[1]))
    deliver_mail(runtime, compose(FRANCE, france, written))
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).status == "active"
    return moves


def secret_orders_on_file(runtime: Runtime, shown: Callable[[int], str]) -> tuple[int, list[str]]:
    """Turn 1 played by mail (France's secret start card among its orders), then France's orders
    for turn 2 on file and Spain's not, each move line new to what ``shown`` gives of the game's
    pages. Returns the game and France's unrevealed move lines."""
    game_id, addresses = start_dos_de_mayo(runtime, timezone="Europe/Madrid", gm_address=GM)
    play_turn_one(runtime, addresses)
    return game_id, mail_unseen_orders(runtime, game_id, addresses[FRANCE], shown(game_id))
