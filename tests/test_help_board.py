"""The help pages as players read them: each game's board with its labelled places, Musket &
Pike's unit reference, the cards listed once, and nothing meant for the tests or the developers
(a "[house]" marker, the test scenario)."""

from __future__ import annotations

import html
import io
import re

import pytest
from flask.testing import FlaskClient
from PIL import Image

from adjudicator.games import registry
from adjudicator.games.dos_de_mayo.cards import card_data as dos_cards
from adjudicator.games.musket_and_pike.data import ruleset
from adjudicator.games.musket_and_pike.state import KINDS
from adjudicator.services.reading import checker
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

GAMES = sorted(registry.games())


def client_for(runtime: Runtime) -> FlaskClient:
    return create_app(runtime).test_client()


def words(client: FlaskClient, url: str) -> str:
    """A page's text as a reader sees it: no markup, entities read."""
    response = client.get(url)
    assert response.status_code == 200, url
    body = response.get_data(as_text=True)
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize("key", GAMES)
def test_a_game_page_shows_its_board_as_the_game_draws_it(runtime: Runtime, key: str) -> None:
    client = client_for(runtime)
    shown = client.get(f"/help/{key}").get_data(as_text=True)
    assert f'<img src="/help/{key}/board.png"' in shown
    response = client.get(f"/help/{key}/board.png")
    assert response.status_code == 200 and response.mimetype == "image/png"
    rules = registry.games()[key]
    opening = checker.opening(rules)
    assert response.data == rules.render(rules.view(opening, None), None)
    with Image.open(io.BytesIO(response.data)) as picture:
        assert picture.width >= 600  # the whole map, not a thumbnail
    assert client.get("/help/chess/board.png").status_code == 404


def test_the_2_de_mayo_board_shows_the_numbered_areas(runtime: Runtime) -> None:
    alt = re.search(
        r'<img src="/help/2demayo/board.png" alt="([^"]*)"',
        client_for(runtime).get("/help/2demayo").get_data(as_text=True),
    )
    assert alt is not None
    # The picture's words (its alt text) name the areas by the numbers the orders use.
    assert "1 Puerta de San Vicente" in html.unescape(alt.group(1))


def test_musket_and_pike_lists_its_units_from_the_ruleset(runtime: Runtime) -> None:
    shown = words(client_for(runtime), "/help/musketpike")
    rules = ruleset()
    for kind in KINDS:
        row = re.search(rf"^  {kind}\s+\D+?\s+(\d+)\s+\+(\d+)\s+(\d+)\s", shown, re.M)
        assert row is not None, kind
        assert int(row.group(1)) == rules.allowance[kind], kind
        assert int(row.group(2)) == rules.road_bonus[kind], kind
        assert int(row.group(3)) == rules.rout_hexes[kind], kind
    assert "heavy infantry" in shown and "column.row" in shown


@pytest.mark.parametrize("key", GAMES)
def test_no_developer_marker_or_test_scenario_reaches_players(runtime: Runtime, key: str) -> None:
    client = client_for(runtime)
    for url in (f"/help/{key}", f"/help/{key}/check", "/help"):
        shown = words(client, url)
        assert "[house" not in shown, url
        assert not re.search(r"\bhouse\b", shown, re.I), url
        assert not re.search(r"\(test\)|\bskirmish\b|\btests?\b", shown, re.I), url


def test_the_cards_are_listed_once(runtime: Runtime) -> None:
    shown = words(client_for(runtime), "/help/2demayo")
    for card in dos_cards().cards:
        assert shown.count(card.help) == 1, card.en
