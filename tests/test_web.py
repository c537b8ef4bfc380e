"""The web site: inbound webhook, archive pages, pictures and help; nothing hidden shown."""

from __future__ import annotations

import html
import re

from playbymail import compose, deliver_mail, drain, sent
from sqlalchemy import select

from adjudicator.games import registry
from adjudicator.models import Game, InboundMessage, Turn
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

THERMOPYLES = registry.games()["thermopyles"]


def new_game(runtime: Runtime, body: str = "NEW THERMOPYLES") -> tuple[Game, str]:
    deliver_mail(runtime, compose("leonidas@example.com", "new@pbem.localhost", body))
    with runtime.db.session() as session:
        game = session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert game is not None
        return game, play.seat_address(runtime, game, game.seats[0])


def test_inbound_webhook_needs_the_token_and_stores_first(runtime: Runtime) -> None:
    client = create_app(runtime).test_client()
    raw = compose("leonidas@example.com", "new@pbem.localhost", "NEW THERMOPYLES")
    assert client.post("/inbound/mime", data=raw).status_code == 401
    wrong = {"Authorization": "Bearer nope"}
    assert client.post("/inbound/mime", data=raw, headers=wrong).status_code == 401
    good = {"Authorization": f"Bearer {runtime.config.inbound_token}"}
    assert client.post("/inbound/mime", data=b"", headers=good).status_code == 400
    first = client.post("/inbound/mime", data=raw, headers=good)
    again = client.post("/inbound/mime", data=raw, headers=good)
    assert first.status_code == again.status_code == 202
    assert again.get_json() == {"id": first.get_json()["id"], "duplicate": True}
    with runtime.db.session() as session:
        row = session.get_one(InboundMessage, first.get_json()["id"])
        assert (row.raw, row.status, row.source) == (raw, "received", "http")
    too_big = b"x" * (runtime.config.max_message_bytes + 1)
    assert client.post("/inbound/mime", data=too_big, headers=good).status_code == 413
    drain(runtime)
    assert len(sent(runtime)) == 1


def test_archive_lists_games_and_shows_every_turn(runtime: Runtime) -> None:
    game, address = new_game(runtime)
    deliver_mail(runtime, compose("leonidas@example.com", address, "RETREAT"))
    client = create_app(runtime).test_client()
    index = client.get("/").get_data(as_text=True)
    assert f'href="/games/{game.id}"' in index and "Thermopyles" in index
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "Opening position" in page and "After turn 1" in page
    # Each turn's picture at the address of what it shows (services/outbound/turn_pictures.py).
    addresses = {
        number: re.search(rf"/games/{game.id}/turns/{number}/[0-9a-f]{{20}}\.png", page)
        for number in (0, 1)
    }
    assert all(addresses.values()), addresses
    assert game.commitment in page
    one = addresses[1]
    assert one is not None
    picture = client.get(one.group(0))
    assert picture.status_code == 200 and picture.data.startswith(b"\x89PNG")
    # The address by number alone leads there.
    assert client.get(f"/games/{game.id}/turns/1.png").headers["Location"] == one.group(0)
    with runtime.db.session() as session:
        stored = session.scalar(
            select(Turn.public_png).where(Turn.game_id == game.id, Turn.number == 1)
        )
    assert picture.data == stored
    assert client.get(f"/games/{game.id}/turns/9.png").status_code == 404
    assert client.get("/games/999").status_code == 404


def test_public_pages_hide_the_hand_and_the_seed(runtime: Runtime) -> None:
    game, _ = new_game(runtime)
    client = create_app(runtime).test_client()
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert game.seed.hex() not in page
    with runtime.db.session() as session:
        state = THERMOPYLES.load(play.latest_turn(session, game.id).state)
    private = THERMOPYLES.describe(THERMOPYLES.view(state, "spartans"))
    public = THERMOPYLES.describe(THERMOPYLES.view(state, None))
    assert private != public
    shown = html.unescape(page)
    assert public in shown
    assert private not in shown
    hand = THERMOPYLES.view(state, "spartans")["hand"]
    assert "Your hand" not in shown and ", ".join(map(str, hand)) not in shown
    # The old verify address, mailed to players, now leads to the fairness page.
    moved = client.get(f"/games/{game.id}/verify")
    assert moved.status_code == 301 and moved.location == f"/games/{game.id}/fairness"
    verify = client.get(f"/games/{game.id}/verify", follow_redirects=True).get_data(as_text=True)
    assert "still running" in verify and game.seed.hex() not in verify


def test_a_running_shared_deal_shows_no_positions(runtime: Runtime) -> None:
    game, _ = new_game(runtime, "NEW THERMOPYLES SHARED winter-cup")
    client = create_app(runtime).test_client()
    page = client.get(f"/games/{game.id}").get_data(as_text=True)
    assert "still running" in page and "turns/0.png" not in page
    assert client.get(f"/games/{game.id}/turns/0.png").status_code == 404
    board = client.get("/challenges/winter-cup").get_data(as_text=True)
    assert f"/games/{game.id}" in board and "NEW THERMOPYLES SHARED winter-cup" in board


def test_help_pages(runtime: Runtime) -> None:
    client = create_app(runtime).test_client()
    assert "Thermopyles" in client.get("/help").get_data(as_text=True)
    page = client.get("/help/thermopyles").get_data(as_text=True)
    assert "FIGHT" in page and "RETREAT" in page
    assert client.get("/help/chess").status_code == 404
