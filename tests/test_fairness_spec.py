"""docs/fairness.md, implemented from the page alone (hashlib and hmac, nothing of the service's
own chance code), agrees with the page's test vectors and with every draw of played games of all
three games, where the players added words of their own."""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import Any

import pytest
from conftest import ROOT
from sqlalchemy import select
from test_mail_as_players_read_it import (  # the same three games, played by mail
    Table,
    listener,  # noqa: F401 (the fixture)
    play_dos_de_mayo,
    play_musket_and_pike,
    play_thermopyles,
)

from adjudicator.models import Game, Turn
from adjudicator.services.record.runtime import Runtime

# -- the verifier, as docs/fairness.md specifies it ---------------------------------------------


def field(text: str) -> bytes:
    data = text.encode()
    return len(data).to_bytes(4, "big") + data


def key_of(seed: bytes, scheme: str, contributions: list[tuple[str, str]]) -> bytes:
    if scheme == "v1":
        return seed
    assert scheme == "v2", scheme
    message = b"pbem chance v2" + b"".join(field(s) + field(w) for s, w in contributions)
    return hmac.new(seed, message, hashlib.sha256).digest()


def uniform(key: bytes, message: str, n: int) -> int:
    limit, step = 2**64 - 2**64 % n, 0
    while True:
        digest = hmac.new(key, f"{message}|{step}".encode(), hashlib.sha256).digest()
        for word in (int.from_bytes(digest[i : i + 8], "big") for i in range(0, 32, 8)):
            if word < limit:
                return word % n
        step += 1


def draw(key: bytes, stream: str, event: dict[str, Any]) -> list[int]:
    message = f"{stream}|{event['turn']}|{event['label']}|{event['counter']}"
    n = event["bound"]
    if event["kind"] == "die":
        return [uniform(key, message, n) + 1]
    order = list(range(n))
    for top in range(n - 1, 0, -1):
        pick = uniform(key, f"{message}|swap{top}", top + 1)
        order[top], order[pick] = order[pick], order[top]
    return order


# -- the page's own vectors ----------------------------------------------------------------------

PAGE = (ROOT / "docs" / "fairness.md").read_text()
SEED = bytes(32)
GIVEN = [("france", "tiger 4417"), ("spain", "<17962.5@example.com>")]


def on_page(text: str) -> str:
    """A vector as the page prints it (so the page and this test cannot drift apart)."""
    assert text in " ".join(PAGE.split()), text
    return text


def test_the_pages_vectors() -> None:
    assert hashlib.sha256(SEED).hexdigest() == on_page(
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    )
    key = key_of(SEED, "v2", GIVEN)
    assert key.hex() == on_page("7ab977f5f768b2e43e9d78ccf2ab841a9179268323456bf344fb4537c5ba9388")
    digest = hmac.new(key, b"game-1|1|combat|0|0", hashlib.sha256).hexdigest()
    assert digest == on_page("2f6945cc31df92ac49d33e1470e37ce8f8ecfa60f79c29d793d9a6df1c8ef294")
    dice = [draw(key, "game-1", die(1, "combat", c, 6))[0] for c in range(3)]
    assert f"`{dice[0]}`, `{dice[1]}`, `{dice[2]}`" == on_page("`5`, `1`, `4`")
    assert draw(key, "game-1", die(1, "x", 0, 20)) == [4]
    on_page("label `x`, counter 0: `4`")
    shuffled = draw(key, "game-1", {**die(0, "france-deck", 0, 8), "kind": "shuffle"})
    assert str(shuffled) == on_page("[4, 1, 6, 7, 2, 5, 3, 0]")
    alone = key_of(SEED, "v2", GIVEN[:1])
    assert alone.hex() == on_page(
        "4eb1038b4608e5cc9051a157ec43d9164c1634bcbd4909d729b12865f0698b88"
    )
    assert draw(SEED, "game-1", die(1, "combat", 0, 6)) == [5]
    assert str(2**64 - 2**64 % 6) == on_page("18446744073709551612")
    assert str(2**64 - 2**64 % 7) == on_page("18446744073709551614")


def die(turn: int, label: str, counter: int, sides: int) -> dict[str, Any]:
    return {"turn": turn, "label": label, "counter": counter, "kind": "die", "bound": sides}


# -- played games --------------------------------------------------------------------------------


def record(runtime: Runtime, game_id: int) -> tuple[Game, int, list[dict[str, Any]]]:
    """A finished game's row, its number of seats, and every draw recorded in its turns."""
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        seats = len(game.seats)
        session.expunge(game)
        turns = session.scalars(select(Turn).where(Turn.game_id == game_id).order_by(Turn.number))
        return game, seats, [event for turn in turns for event in turn.events]


def disagreements(game: Game, events: list[dict[str, Any]], given: list[tuple[str, str]]) -> int:
    key = key_of(game.seed, game.chance_scheme, given)
    return sum(draw(key, game.stream, event) != event["result"] for event in events)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_every_draw_of_three_played_games_agrees_with_the_page(
    runtime: Runtime,
    listener: int,  # noqa: F811 (the fixture)
) -> None:
    table = Table(runtime, listener)
    games = [play_dos_de_mayo(table), play_thermopyles(table), play_musket_and_pike(table)]
    for game_id in games:
        game, seats, events = record(runtime, game_id)
        assert game.status == "finished"  # so its seed is public
        assert hashlib.sha256(game.seed).hexdigest() == game.commitment
        given = [(c["seat"], c["words"]) for c in game.contributions]
        assert game.chance_scheme == "v2" and len(given) == seats, game.game_key
        # The players' own words, as they wrote them after JOIN or NEW.
        assert all(re.fullmatch(r"\S+@example\.com|molon labe", w) for _, w in given), given
        kinds = {event["kind"] for event in events}
        assert events and kinds <= {"die", "shuffle"}, (game.game_key, kinds)
        assert disagreements(game, events, given) == 0, game.game_key
        # One contribution changed: the draws are no longer the recorded ones.
        changed = [(given[0][0], given[0][1] + "!"), *given[1:]]
        assert disagreements(game, events, changed) > 0, game.game_key
