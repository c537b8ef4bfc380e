"""The public web archive on SQLite and PostgreSQL: lists, game and turn pages, the Atom feed, the
JSON API, the fairness page and the charts, with games played through the real services; and
nothing hidden (an address, an order not yet revealed, a hand, the seed) on any of them."""

from __future__ import annotations

import html
import io
import json
import re
from datetime import datetime, timedelta
from xml.etree import ElementTree as ET

from dos_de_mayo_by_mail import FRANCE, GM, SPAIN, secret_orders_on_file, start_dos_de_mayo
from dos_de_mayo_by_mail import position as game_position
from flask.testing import FlaskClient
from PIL import Image
from playbymail import compose, deliver_mail, drain, gm_command
from sqlalchemy import select

from adjudicator.games import registry
from adjudicator.games.thermopyles import strategy
from adjudicator.models import Game, Turn
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines
from adjudicator.web import create_app

DOS = registry.games()["2demayo"]
THERMOPYLES = registry.games()["thermopyles"]
ATOM = "{http://www.w3.org/2005/Atom}"


def client_for(runtime: Runtime) -> FlaskClient:
    return create_app(runtime).test_client()


def text(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return html.unescape(response.get_data(as_text=True))


def start(runtime: Runtime, invite: bool = False) -> tuple[int, dict[str, str]]:
    """A 2 de Mayo game made by the game-master service, and each player's reply address."""
    return start_dos_de_mayo(runtime, timezone="Europe/Madrid", gm_address=GM, invite=invite)


def played(runtime: Runtime) -> tuple[int, list[str]]:
    """Turn 1 played by mail (France's secret start card among its orders), then France's orders
    for turn 2 on file and Spain's not. Returns the game and France's unrevealed move lines."""
    return secret_orders_on_file(
        runtime, lambda game_id: text(client_for(runtime), f"/games/{game_id}")
    )


def public_urls(game_id: int) -> list[str]:
    return [
        "/",
        "/?game=2demayo",
        f"/games/{game_id}",
        f"/games/{game_id}/turns/0",
        f"/games/{game_id}/turns/1",
        f"/games/{game_id}/feed.atom",
        f"/games/{game_id}/fairness",
        "/api/games",
        f"/api/games/{game_id}",
        f"/api/games/{game_id}/turns/0",
        f"/api/games/{game_id}/turns/1",
    ]


def ids_listed(page: str) -> set[int]:
    return {int(found) for found in re.findall(r'<td class="name"><a href="/games/(\d+)">', page)}


def test_the_list_filters_by_game_and_status_with_counts(runtime: Runtime) -> None:
    active, _ = start(runtime)
    forming, _ = start(runtime, invite=True)
    ended, _ = start(runtime)
    gm_command(runtime, ended, "END")
    deliver_mail(runtime, compose("leonidas@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    with runtime.db.session() as session:
        solo = session.scalars(select(Game.id).where(Game.game_key == "thermopyles")).one()
    client = client_for(runtime)
    everything = text(client, "/")
    assert ids_listed(everything) == {active, forming, ended, solo}
    assert "2 de Mayo (3)" in everything and "Thermopyles (1)" in everything
    assert "active (2)" in everything and "forming (1)" in everything
    assert "finished (1)" in everything
    assert ids_listed(text(client, "/?game=2demayo")) == {active, forming, ended}
    assert ids_listed(text(client, "/?status=forming")) == {forming}
    assert ids_listed(text(client, "/?status=active")) == {active, solo}
    both = text(client, "/?game=2demayo&status=finished")
    assert ids_listed(both) == {ended}
    # The counts beside one filter follow the other: two kinds among the finished, one each.
    assert "2 de Mayo (1)" in both and "Thermopyles (0)" in both and "active (1)" in both
    assert 'aria-current="page">finished (1)' in both
    assert client.get("/?status=sleeping").status_code == 400
    assert client.get("/?game=chess").status_code == 400
    api = client.get("/api/games?game=2demayo&status=active").get_json()
    assert [row["id"] for row in api["games"]] == [active]
    assert api["counts"]["game"] == {"2demayo": 1, "musketpike": 0, "thermopyles": 1}
    assert api["counts"]["status"] == {"active": 1, "forming": 1, "finished": 1}
    assert client.get("/api/games?status=sleeping").status_code == 400


def test_the_game_page_shows_players_deadline_submissions_and_every_turn(
    runtime: Runtime,
) -> None:
    game_id, secret_moves = played(runtime)
    client = client_for(runtime)
    raw = client.get(f"/games/{game_id}").get_data(as_text=True)
    page = html.unescape(raw)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.deadline is not None
        iso = game.deadline.isoformat(timespec="seconds").replace("+00:00", "Z")
        turns = session.scalars(select(Turn).where(Turn.game_id == game_id)).all()
        public = {turn.number: DOS.describe(DOS.view(DOS.load(turn.state), None)) for turn in turns}
        after_one = next(DOS.view(DOS.load(t.state), None) for t in turns if t.number == 1)
    # Players who gave no name are their seat's player, never a part of their address; who has
    # sent orders for turn 2, never what.
    assert "<td>France</td><td>France's player</td>" in page
    assert "<td>Spain</td><td>Spain's player</td>" in page and "mu…" not in page
    assert re.search(r"<td>France</td>.*?\n<td><span class=\"ok\">✓</span> submitted", page)
    assert re.search(r"<td>Spain</td>.*?\n<td>waiting</td>", page)
    assert "Orders for turn 2" in page
    # The first line says who the game waits for (France's orders are in) and by when.
    assert re.search(
        r'<p class="next-step">Waiting for orders for turn 2 from Spain\.\s*Orders are due', page
    )
    for line in secret_moves:
        assert line not in page
    # The deadline as UTC in a <time> element the script localises, and on the game's clock.
    assert f'<time datetime="{iso}" data-local>{game.deadline:%Y-%m-%d %H:%M} UTC</time>' in page
    assert "Intl.DateTimeFormat" in page and "On the game's clock: " in page
    assert "CET (Europe/Madrid)" in page
    # Every turn as one line: its picture small, what was decided and lost, a link to its page.
    for number in (0, 1):
        assert f'id="turn-{number}"' in page and f'href="/games/{game_id}/turns/{number}"' in page
        # At the address of what it shows (services/outbound/turn_pictures.py).
        assert re.search(rf'src="/games/{game_id}/turns/{number}/[0-9a-f]{{20}}\.png"', page)
        assert f"<pre>{public[number]}</pre>" not in page
    assert "France: 16-14 x1, DRAW; Spain: 9-14, NODRAW." in page
    # The losses as the turn's combats and removals record them (the dice vary by seed).
    lost = {"france": 0, "spain": 0}
    for combat in after_one["combats"]:
        for side, n in combat["lost"].items():
            lost[side] += n
    for removal in after_one["removed"]:
        lost[removal["side"]] += removal["units"]
    said = ", ".join(f"{side.capitalize()} {n}" for side, n in lost.items() if n)
    assert said and f"Lost: {said}." in page, said
    assert "TAKE" not in page  # France's start card is its own secret
    # The turn's own page: the orders by side, the results, combat by area names, the report.
    for number in (0, 1):
        assert f"<pre>{public[number]}</pre>" in text(client, f"/games/{game_id}/turns/{number}")
    turn = html.unescape(text(client, f"/games/{game_id}/turns/1"))
    assert re.search(
        r"<h4>France</h4>.*?<td><code>16-14 x1</code></td><td>1 unit moved</td>", turn, re.S
    )
    assert re.search(
        r"<h4>Spain</h4>.*?<td><code>9-14</code></td><td>1 unit moved</td>", turn, re.S
    )
    assert "<h3>Combat</h3>" in turn and "France 2 against Spain 1" in turn
    assert "<td>20 Puerta de Toledo</td>" in turn and "TAKE" not in turn
    assert (
        f'<link rel="alternate" type="application/atom+xml" title="2 de Mayo, game {game_id}: '
        f'turns" href="/games/{game_id}/feed.atom">'
    ) in page
    chart = re.search(rf'<img src="/games/{game_id}/strength.png" alt="([^"]+)"', page)
    assert chart is not None
    assert "France units on the map 9, 9" in chart.group(1)
    assert "Spain units on the map 8, 7; losses so far 0, 1" in chart.group(1)


def test_paused_and_forming_games_say_so(runtime: Runtime) -> None:
    forming, _ = start(runtime, invite=True)
    running, _ = start(runtime)
    gm_command(runtime, running, "PAUSE")
    client = client_for(runtime)
    waiting = text(client, f"/games/{forming}")
    assert "Status: <strong>forming</strong>" in waiting
    assert waiting.count("invited, waiting") == 2 and "Orders for turn" not in waiting
    assert '<p class="next-step">Waiting for France and Spain to join.' in waiting
    paused = text(client, f"/games/{running}")
    assert "active, paused by the game master" in paused
    assert "The game master has paused the game: nothing is owed until it resumes." in paused
    assert "The last deadline was" in paused


def test_each_turn_has_a_permanent_page_and_a_rollback_is_struck(runtime: Runtime) -> None:
    game_id, _ = played(runtime)
    client = client_for(runtime)
    first = text(client, f"/games/{game_id}/turns/1")
    assert "<h2>After turn 1</h2>" in first and "16-14 x1" in first and "TAKE" not in first
    assert f'href="/games/{game_id}/turns/0" rel="prev"' in first and 'rel="next"' not in first
    opening = text(client, f"/games/{game_id}/turns/0")
    assert "<h2>Opening position</h2>" in opening
    assert client.get(f"/games/{game_id}/turns/2").status_code == 404
    assert client.get(f"/games/{game_id + 99}/turns/0").status_code == 404
    gm_command(runtime, game_id, "ROLLBACK France misread the map")
    struck = text(client, f"/games/{game_id}/turns/1")
    assert '<section class="turn rolled-back" id="turn-1-rolled-back-1">' in struck
    assert "After turn 1 — rolled back" in struck and "France misread the map" in struck
    # The struck version keeps its own picture, at the address of what it shows; the address by
    # number alone names no live picture any more.
    own = re.search(rf'src="(/games/{game_id}/turns/1/[0-9a-f]{{20}}\.png)"', struck)
    assert own is not None and client.get(own.group(1)).status_code == 200
    assert client.get(f"/games/{game_id}/turns/1.png").status_code == 404
    deadlines.adjudicate(runtime, game_id, force=True)
    drain(runtime)
    again = text(client, f"/games/{game_id}/turns/1")
    assert 'id="turn-1"' in again and "After turn 1 — rolled back" in again
    live = client.get(f"/games/{game_id}/turns/1.png")
    assert live.status_code == 302 and client.get(live.headers["Location"]).status_code == 200


def test_the_feed_is_atom_with_one_entry_per_turn(runtime: Runtime) -> None:
    game_id, _ = played(runtime)
    deadlines.adjudicate(runtime, game_id, force=True)
    gm_command(runtime, game_id, "ROLLBACK replayed")  # turn 2 is played twice: one entry
    deadlines.adjudicate(runtime, game_id, force=True)
    with runtime.db.session() as session:
        # A result with markup in it must come out as text, not as elements.
        session.get_one(Game, game_id).result = 'won <b>"&"</b>'
        live = session.scalars(
            select(Turn).where(Turn.game_id == game_id, Turn.rolled_back_at.is_(None))
        ).all()
        expected = {
            turn.number: (turn.created_at, DOS.describe(DOS.view(DOS.load(turn.state), None)))
            for turn in live
        }
    client = client_for(runtime)
    response = client.get(f"/games/{game_id}/feed.atom")
    assert response.status_code == 200 and response.mimetype == "application/atom+xml"
    feed = ET.fromstring(response.data)
    assert feed.tag == f"{ATOM}feed"
    assert feed.findtext(f"{ATOM}id") == f"tag:pbem.localhost,2026:game-{game_id}"
    assert feed.findtext(f"{ATOM}subtitle") == 'active — won <b>"&"</b>'
    assert feed.find(f"{ATOM}author/{ATOM}name") is not None
    every = feed.findall(f"{ATOM}entry")
    # The rollback every player was told of is an entry of its own, beside the turns'.
    [change] = [e for e in every if "-change-" in (e.findtext(f"{ATOM}id") or "")]
    assert change.findtext(f"{ATOM}title") == "The game master rolled back a turn: replayed"
    entries = [e for e in every if e is not change]
    assert len(entries) == len(expected) == 3
    base = runtime.config.base_url.rstrip("/")
    for entry in entries:
        entry_id = entry.findtext(f"{ATOM}id") or ""
        number = int(entry_id.rsplit("-", 1)[1])
        assert entry_id == f"tag:pbem.localhost,2026:game-{game_id}-turn-{number}"
        created, description = expected[number]
        updated = datetime.fromisoformat(entry.findtext(f"{ATOM}updated") or "")
        assert abs(updated - created) < timedelta(seconds=1)
        link = entry.find(f"{ATOM}link")
        assert link is not None and link.get("href") == f"{base}/games/{game_id}/turns/{number}"
        assert entry.findtext(f"{ATOM}summary") == description
    assert [e.findtext(f"{ATOM}title") for e in entries] == ["Turn 2", "Turn 1", "Opening position"]
    assert client.get("/games/999/feed.atom").status_code == 404


def test_the_api_gives_the_same_public_data(runtime: Runtime) -> None:
    game_id, secret_moves = played(runtime)
    client = client_for(runtime)
    game = client.get(f"/api/games/{game_id}").get_json()
    assert game["status"] == "active" and game["seed"] is None and game["next_turn"] == 2
    assert game["seats"] == [
        {
            "seat": "france",
            "player": "France's player",
            "joined": True,
            "owes": True,
            "submitted": True,
            "title": "France",
            "owed": "",
            "refused": 0,
        },
        {
            "seat": "spain",
            "player": "Spain's player",
            "joined": True,
            "owes": True,
            "submitted": False,
            "title": "Spain",
            "owed": "",
            "refused": 0,
        },
    ]
    assert [turn["number"] for turn in game["turns"]] == [0, 1]
    assert game["deadline"].endswith("Z") and game["timezone"] == "Europe/Madrid"
    turn = client.get(f"/api/games/{game_id}/turns/1").get_json()
    orders = [(o["seat"], o["order"], o["code"]) for o in turn["turn"]["outcomes"]]
    assert ("france", "16-14 x1", "moved") in orders and ("spain", "9-14", "moved") in orders
    assert all(o["order"] != "TAKE MURAT" for o in turn["turn"]["outcomes"])
    assert turn["turn"]["view"]["seat"] is None and "hand" not in turn["turn"]["view"]
    assert turn["turn"]["combats"] and turn["previous"] == 0 and turn["next"] is None
    with runtime.db.session() as session:
        stored = session.scalars(
            select(Turn).where(Turn.game_id == game_id, Turn.number == 1)
        ).one()
        public = DOS.view(DOS.load(stored.state), None)
    assert turn["turn"]["report"] == DOS.describe(public)
    assert turn["turn"]["view"] == json.loads(json.dumps(public))
    body = json.dumps([game, turn])
    assert FRANCE not in body and SPAIN not in body and "TAKE" not in body
    assert not any(line in body for line in secret_moves)
    assert client.get(f"/api/games/{game_id}/turns/7").status_code == 404
    assert client.get("/api/games/999").status_code == 404


def test_the_fairness_page_replays_every_draw_once_the_game_ends(runtime: Runtime) -> None:
    game_id, _ = played(runtime)
    deadlines.adjudicate(runtime, game_id, force=True)
    client = client_for(runtime)
    with runtime.db.session() as session:
        seed = session.get_one(Game, game_id).seed.hex()
    running = text(client, f"/games/{game_id}/fairness")
    assert "still running" in running and seed not in running and "<table>" not in running
    # No sentence points at a table the page does not show yet.
    assert "the table above" not in running and "once the game has ended" in running
    moved = client.get(f"/games/{game_id}/verify")
    assert moved.status_code == 301 and moved.location == f"/games/{game_id}/fairness"
    gm_command(runtime, game_id, "END")
    with runtime.db.session() as session:
        events = [
            event
            for turn in session.scalars(select(Turn).where(Turn.game_id == game_id))
            for event in turn.events
        ]
    assert len(events) >= 3  # both decks shuffled at the start, France's again in turn 1
    page = text(client, f"/games/{game_id}/fairness")
    assert f"Seed: <code>{seed}</code>" in page and "✓ Confirmed" in page
    assert page.count('title="matches">✓') == len(events) and "✗" not in page
    first = events[0]
    # The purpose in the game's words; the label the replay hashes, for programs, on the row.
    assert first["label"] == "france-deck"
    row = f"<td>France's deck shuffled</td>\n<td>shuffle of {first['bound']}</td>"
    assert html.unescape(row) in html.unescape(page), page
    assert f'data-label="{first["label"]}" data-draw="0"' in page
    assert " ".join(map(str, first["result"])) in page
    assert seed in text(client, f"/games/{game_id}")
    # A recorded draw changed after the fact no longer matches, and the page says so.
    with runtime.db.session() as session:
        opening = session.scalars(
            select(Turn).where(Turn.game_id == game_id, Turn.number == 0)
        ).one()
        tampered = [dict(event) for event in opening.events]
        tampered[0]["result"] = list(reversed(tampered[0]["result"]))
        opening.events = tampered
    broken = text(client, f"/games/{game_id}/fairness")
    assert "✗ Not confirmed" in broken and broken.count('title="differs">✗') == 1


def png(client: FlaskClient, url: str) -> Image.Image:
    response = client.get(url)
    assert response.status_code == 200 and response.mimetype == "image/png", url
    assert response.data.startswith(b"\x89PNG")
    image = Image.open(io.BytesIO(response.data))
    image.load()
    return image.convert("RGB")


def colours(image: Image.Image) -> set[tuple[int, int, int]]:
    found = image.getcolors(maxcolors=1 << 16)
    assert found is not None
    return {colour for _, colour in found}  # type: ignore[misc]


def test_the_strength_chart_is_a_real_picture(runtime: Runtime) -> None:
    game_id, _ = played(runtime)
    client = client_for(runtime)
    image = png(client, f"/games/{game_id}/strength.png")
    assert image.size == (720, 400)
    seen = colours(image)
    assert (43, 76, 155) in seen and (178, 34, 34) in seen  # France's and Spain's lines
    assert len(seen) > 20  # text and lines, not a blank canvas
    # A game without sides to compare has no such chart.
    deliver_mail(runtime, compose("leonidas@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    with runtime.db.session() as session:
        solo = session.scalars(select(Game.id).where(Game.game_key == "thermopyles")).one()
    assert client.get(f"/games/{solo}/strength.png").status_code == 404
    assert "strength.png" not in text(client, f"/games/{solo}")


def play_out(runtime: Runtime, player: str, fights: int) -> int:
    """A shared-deal entry played to its end by mail: the competent player's first ``fights``
    actions, then retreats."""
    deliver_mail(runtime, compose(player, "new@pbem.localhost", "NEW THERMOPYLES SHARED cup"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert game is not None
        game_id, address = game.id, play.seat_address(runtime, game, game.seats[0])
    for step in range(60):
        position = game_position(runtime, game_id)
        if position.over:
            return game_id
        order = strategy.choose(position).text() if step < fights else "RETREAT NODRAW"
        deliver_mail(runtime, compose(player, address, order))
    raise AssertionError(f"game {game_id} did not end")


def test_a_shared_deal_charts_its_leaderboard_and_spread(runtime: Runtime) -> None:
    client = client_for(runtime)
    retreated = play_out(runtime, "xerxes@example.com", 0)
    assert client.get("/challenges/nope/chart.png").status_code == 404
    players = {"leonidas@example.com": 40, "dienekes@example.com": 3}
    ended = [play_out(runtime, player, fights) for player, fights in players.items()]
    deliver_mail(
        runtime,
        compose("ephialtes@example.com", "new@pbem.localhost", "NEW THERMOPYLES SHARED cup"),
    )
    page = text(client, "/challenges/cup")
    alt = re.search(r'<img src="/challenges/cup/chart.png" alt="([^"]+)"', page)
    assert alt is not None and "Leaderboard by Persians in the Graveyard: 1. game" in alt.group(1)
    with runtime.db.session() as session:
        graveyards = {
            game.id: game.score[1]
            for game in session.scalars(select(Game).where(Game.id.in_([retreated, *ended])))
        }
    for game_id, value in graveyards.items():
        assert f"game {game_id} {value}, " in alt.group(1)  # entrants gave no name: none shown
    assert "le…" not in page and "leonidas" not in page and "@example.com" not in page
    image = png(client, "/challenges/cup/chart.png")
    width, height = image.size
    assert width == 720 and height > 400
    seen = colours(image)
    assert (46, 125, 50) in seen or (160, 150, 140) in seen  # the won or lost bars
    assert len(seen) > 20
    # The still-running entry shows no position while the deal runs.
    with runtime.db.session() as session:
        playing = session.scalars(select(Game.id).order_by(Game.id.desc())).first()
    assert client.get(f"/api/games/{playing}").get_json()["turns"] == []
    assert client.get(f"/api/games/{playing}/turns/0").status_code == 404
    feed = ET.fromstring(client.get(f"/games/{playing}/feed.atom").data)
    assert feed.findall(f"{ATOM}entry") == []


def test_pages_are_made_for_a_phone(runtime: Runtime) -> None:
    game_id, _ = played(runtime)
    client = client_for(runtime)
    for url in ("/", f"/games/{game_id}", f"/games/{game_id}/turns/1", "/help", "/help/2demayo"):
        page = client.get(url).get_data(as_text=True)
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page, url
        assert "img { max-width: 100%; height: auto;" in page
        # Every table sits in a box that scrolls by itself, so the page never scrolls sideways.
        assert page.count("<table>") == page.count('<div class="scroll"><table>'), url
    gm_command(runtime, game_id, "END")
    fairness = client.get(f"/games/{game_id}/fairness").get_data(as_text=True)
    assert fairness.count("<table>") == fairness.count('<div class="scroll"><table>') == 1


def test_no_public_page_shows_an_address_or_an_order_not_yet_revealed(runtime: Runtime) -> None:
    game_id, secret_moves = played(runtime)
    client = client_for(runtime)
    with runtime.db.session() as session:
        seed = session.get_one(Game, game_id).seed.hex()
    for url in public_urls(game_id):
        response = client.get(url)
        assert response.status_code == 200, url
        body = html.unescape(response.get_data(as_text=True))
        for hidden in (FRANCE, SPAIN, GM, "murat@", "daoiz", "gm@", seed, "TAKE", *secret_moves):
            assert hidden not in body, (url, hidden)
        assert "Your hand" not in body and '"hand"' not in body, url
    # Once the turn is played the same orders are public: the check above could have failed.
    deadlines.adjudicate(runtime, game_id, force=True)
    revealed = text(client, f"/games/{game_id}/turns/2")
    assert all(line in revealed for line in secret_moves)
