"""Pictures twice the size on the web, for zooming on a phone: every game's turn pictures and
help board at ``@2x.png``, drawn from the same public view as the mail's, twice its width and
height, offered to the browser by every map's srcset, and showing nothing the public view
does not."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable

import pytest
from dos_de_mayo_by_mail import play_turn_one, start_dos_de_mayo
from flask.testing import FlaskClient
from PIL import Image
from playbymail import compose, deliver_mail, drain, gm_command, reply_to
from sqlalchemy import func, select
from test_musket_and_pike_by_mail import PLAYERS
from test_musket_and_pike_by_mail import start as start_musket_and_pike

from adjudicator import i18n
from adjudicator.games import registry
from adjudicator.models import Game, Turn
from adjudicator.services.outbound import turn_pictures
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines
from adjudicator.web import create_app, pictures

LEONIDAS = "leonidas@example.com"


def thermopyles(runtime: Runtime) -> int:
    deliver_mail(runtime, compose(LEONIDAS, "new@pbem.localhost", "NEW THERMOPYLES"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game).where(Game.game_key == "thermopyles")).one()
        game_id, address = game.id, play.seat_address(runtime, game, game.seats[0])
    deliver_mail(runtime, compose(LEONIDAS, address, "RETREAT"))
    return game_id


def dos_de_mayo(runtime: Runtime) -> int:
    game_id, addresses = start_dos_de_mayo(runtime)
    play_turn_one(runtime, addresses)
    drain(runtime)
    return game_id


def musket_and_pike(runtime: Runtime) -> int:
    game_id = start_musket_and_pike(runtime)
    orders = {
        "royalist": "ORDERS R-A=charge R-B=make ready",
        "parliament": "ORDERS P-A=rally P-B=rally",
    }
    for seat, address in PLAYERS.items():
        deliver_mail(runtime, compose(address, reply_to(runtime, address), orders[seat]))
    drain(runtime)
    return game_id


GAMES: dict[str, Callable[[Runtime], int]] = {
    "thermopyles": thermopyles,
    "2demayo": dos_de_mayo,
    "musketpike": musket_and_pike,
}


def png(client: FlaskClient, url: str) -> Image.Image:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    assert response.mimetype == "image/png" and response.data.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(response.data))
    image.load()
    assert image.format == "PNG"
    return image


def page(client: FlaskClient, url: str) -> str:
    """A page's markup as served (an alt text's ">" still escaped, so a tag ends at its ">")."""
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.get_data(as_text=True)


def srcsets(body: str) -> list[str]:
    return [html.unescape(found) for found in re.findall(r'<img [^>]*srcset="([^"]*)"', body)]


def live_state(runtime: Runtime, game_id: int, number: int) -> object:
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        turn = session.scalars(
            select(Turn).where(
                Turn.game_id == game_id, Turn.number == number, Turn.rolled_back_at.is_(None)
            )
        ).one()
        return play.rules_for(game).load(turn.state)


def picture_of(runtime: Runtime, game_id: int, number: int) -> str:
    """Where the live turn's picture is, without ".png": at the address of what it shows."""
    with runtime.db.session() as session:
        rules = play.rules_for(session.get_one(Game, game_id))
    view = rules.view(live_state(runtime, game_id, number), None)
    return turn_pictures.path(game_id, number, view)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_turn_picture_has_a_2x_twice_its_size_that_the_pages_offer(
    runtime: Runtime, key: str
) -> None:
    game_id = GAMES[key](runtime)
    rules = registry.games()[key]
    client = create_app(runtime).test_client()
    with runtime.db.session() as session:
        last = session.scalar(select(func.max(Turn.number)).where(Turn.game_id == game_id))
    assert last
    for number in (0, last):
        base = picture_of(runtime, game_id, number)
        one, two = png(client, f"{base}.png"), png(client, f"{base}@2x.png")
        assert two.size == (2 * one.width, 2 * one.height), key
        # The same public view the stored picture was drawn from, drawn at twice the size.
        view = rules.view(live_state(runtime, game_id, number), None)
        assert client.get(f"{base}@2x.png").data == rules.render(view, None, 2)
        wanted = f"{base}.png 1x, {base}@2x.png 2x"
        turn_page = page(client, f"/games/{game_id}/turns/{number}")
        assert (
            wanted in srcsets(turn_page) and f'<a href="{base}@2x.png">full size</a>' in turn_page
        )
    # The game page's current position offers it too.
    game_page = page(client, f"/games/{game_id}")
    latest = picture_of(runtime, game_id, last)
    assert f"{latest}.png 1x, {latest}@2x.png 2x" in srcsets(game_page)
    assert client.get(f"/games/{game_id}/turns/9@2x.png").status_code == 404
    assert client.get(f"/games/{game_id + 99}/turns/0@2x.png").status_code == 404


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_help_board_has_a_2x_twice_its_size(runtime: Runtime, key: str) -> None:
    client = create_app(runtime).test_client()
    one, two = png(client, f"/help/{key}/board.png"), png(client, f"/help/{key}/board@2x.png")
    assert two.size == (2 * one.width, 2 * one.height)
    wanted = f"/help/{key}/board.png 1x, /help/{key}/board@2x.png 2x"
    assert wanted in srcsets(page(client, f"/help/{key}"))
    assert client.get("/help/chess/board@2x.png").status_code == 404


def test_a_2x_picture_shows_the_public_view_never_the_players_own(runtime: Runtime) -> None:
    # A Thermopyles hand is the player's secret: the 2x picture is the public one, "Hand (not
    # shown)", as the mail's picture for the archive is.
    game_id = thermopyles(runtime)
    rules = registry.games()["thermopyles"]
    state = live_state(runtime, game_id, 1)
    at = picture_of(runtime, game_id, 1)
    served = create_app(runtime).test_client().get(f"{at}@2x.png").data
    assert served == rules.render(rules.view(state, None), None, 2)
    assert served != rules.render(rules.view(state, "spartans"), None, 2)


def test_a_running_shared_deal_has_no_2x_pictures(runtime: Runtime) -> None:
    deliver_mail(
        runtime, compose(LEONIDAS, "new@pbem.localhost", "NEW THERMOPYLES SHARED winter-cup")
    )
    with runtime.db.session() as session:
        game_id = session.scalars(select(Game.id)).one()
    client = create_app(runtime).test_client()
    assert client.get(f"/games/{game_id}/turns/0.png").status_code == 404
    assert client.get(f"/games/{game_id}/turns/0@2x.png").status_code == 404


def test_a_rolled_back_turn_keeps_its_2x_picture_and_its_replay_draws_its_own(
    runtime: Runtime,
) -> None:
    game_id = dos_de_mayo(runtime)
    rules = registry.games()["2demayo"]
    client = create_app(runtime).test_client()
    first = picture_of(runtime, game_id, 1)
    drawn = client.get(f"{first}@2x.png").data
    gm_command(runtime, game_id, "ROLLBACK France misread the map")
    # The address by number alone names no live turn; the version's own still names its own.
    assert client.get(f"/games/{game_id}/turns/1@2x.png").status_code == 404
    assert client.get(f"{first}@2x.png").data == drawn
    deadlines.adjudicate(runtime, game_id, force=True)
    drain(runtime)
    replayed = client.get(f"{picture_of(runtime, game_id, 1)}@2x.png")
    view = rules.view(live_state(runtime, game_id, 1), None)
    assert replayed.status_code == 200 and replayed.data == rules.render(view, None, 2)


def test_the_kept_pictures_are_few_and_the_latest() -> None:
    kept = pictures.Recent(2)
    drawn: list[str] = []

    def draw(name: str) -> Callable[[], bytes]:
        return lambda: drawn.append(name) or name.encode()

    assert kept.get("a", draw("a")) == b"a" and kept.get("b", draw("b")) == b"b"
    assert kept.get("a", draw("a")) == b"a"  # kept: not drawn again
    assert kept.get("c", draw("c")) == b"c"  # "b", asked for least lately, is dropped
    assert len(kept) == 2 and drawn == ["a", "b", "c"]
    assert kept.get("b", draw("b")) == b"b" and drawn == ["a", "b", "c", "b"]
    assert pictures.KEPT <= 64


@pytest.mark.parametrize("lang", ["ru", "es"])
def test_a_page_in_another_language_shows_its_maps_in_that_language(
    runtime: Runtime, lang: str
) -> None:
    game_id = dos_de_mayo(runtime)
    rules = registry.games()["2demayo"]
    client = create_app(runtime).test_client()
    base = picture_of(runtime, game_id, 1)
    turn_page = page(client, f"/games/{game_id}/turns/1?lang={lang}")
    # Each language's pictures at addresses of their own: the answers are cached for ever.
    assert f"{base}.{lang}.png 1x, {base}.{lang}@2x.png 2x" in srcsets(turn_page)
    assert f'<a href="{base}.{lang}@2x.png">' in turn_page
    assert f"{base}.png" not in turn_page and f"{base}@2x.png" not in turn_page
    view = rules.view(live_state(runtime, game_id, 1), None)
    with i18n.speaking(lang):
        wanted = {1: rules.render(view, None, 1), 2: rules.render(view, None, 2)}
    one, two = client.get(f"{base}.{lang}.png"), client.get(f"{base}.{lang}@2x.png")
    assert one.mimetype == two.mimetype == "image/png"
    assert one.data == wanted[1] and two.data == wanted[2]
    assert one.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    stored = client.get(f"{base}.png").data
    assert one.data != stored and two.data != client.get(f"{base}@2x.png").data
    # The game's page (its history's small pictures and its latest map) and the help board.
    game_page = page(client, f"/games/{game_id}?lang={lang}")
    assert f'src="{picture_of(runtime, game_id, 0)}.{lang}.png"' in game_page
    assert f'src="{base}.{lang}.png"' in game_page and f'src="{base}.png"' not in game_page
    board = f"/help/2demayo/board.{lang}"
    assert f"{board}.png 1x, {board}@2x.png 2x" in srcsets(
        page(client, f"/help/2demayo?lang={lang}")
    )
    small, large = png(client, f"{board}.png"), png(client, f"{board}@2x.png")
    assert large.size == (2 * small.width, 2 * small.height)
    assert client.get(f"{board}.png").data != client.get("/help/2demayo/board.png").data
    # An English page keeps the stored picture; a language without a catalog names no picture.
    english = page(client, f"/games/{game_id}/turns/1?lang=en")
    assert f"{base}.png 1x, {base}@2x.png 2x" in srcsets(english)
    for code in ("en", "xx", "fr"):
        assert client.get(f"{base}.{code}.png").status_code == 404
        assert client.get(f"/help/2demayo/board.{code}@2x.png").status_code == 404
