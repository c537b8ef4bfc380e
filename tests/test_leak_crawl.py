"""A crawler walks the public site from `/`, following every same-origin link in pages, feeds and
API answers, while a 2 de Mayo game is in progress (hands dealt, France's orders for the coming
turn on file, Spain's not) beside a Thermopyles game: no page shows a card in a hand, an order not
yet revealed, a seed before its game ends, or a player's address. New pages are covered as soon
as something links to them."""

from __future__ import annotations

import html
import json
from collections import deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any, ClassVar
from urllib.parse import parse_qs, urldefrag, urljoin, urlsplit
from xml.etree import ElementTree as ET

import pytest
from dos_de_mayo_by_mail import FRANCE, GM, SPAIN, position, secret_orders_on_file
from flask.testing import FlaskClient
from playbymail import compose, deliver_mail, drain
from sqlalchemy import select

from adjudicator.games import registry
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.thermopyles import strategy
from adjudicator.models import Game, Player, Turn, utcnow
from adjudicator.services.game_master import gm
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines
from adjudicator.web import create_app

LEONIDAS = "leonidas@example.com"
DOS = registry.games()["2demayo"]
THERMOPYLES = registry.games()["thermopyles"]
LIMIT = 400  # pages; the site these games make has far fewer


class Links(HTMLParser):
    """Every address a page points at: links, pictures, scripts, alternates and GET forms."""

    ATTRIBUTES: ClassVar[dict[str, str]] = {
        "a": "href",
        "link": "href",
        "img": "src",
        "script": "src",
        "iframe": "src",
    }

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "form" and (values.get("method") or "get").lower() == "get":
            self.found.append(values.get("action") or "")
        wanted = self.ATTRIBUTES.get(tag)
        if wanted and values.get(wanted):
            self.found.append(values[wanted] or "")
        if tag == "img" and values.get("srcset"):
            self.found += [part.split()[0] for part in (values["srcset"] or "").split(",")]


def json_links(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [link for item in value.values() for link in json_links(item)]
    if isinstance(value, list):
        return [link for item in value for link in json_links(item)]
    if isinstance(value, str) and (value.startswith("/") or value.startswith("http")):
        return [value]
    return []


@dataclass
class Crawl:
    pages: dict[str, str] = field(default_factory=dict)  # path -> text as a reader sees it
    kinds: dict[str, str] = field(default_factory=dict)  # path -> mimetype


def crawl(client: FlaskClient, base_url: str) -> Crawl:
    origin = urlsplit(base_url)
    seen: set[str] = {"/"}
    queue: deque[str] = deque(["/"])
    done = Crawl()
    while queue:
        path = queue.popleft()
        assert len(done.kinds) < LIMIT, "the crawl does not end"
        response = client.get(path)
        assert response.status_code in (200, 301, 302), (path, response.status_code)
        kind = response.mimetype or ""
        done.kinds[path] = kind
        found: list[str] = []
        if response.status_code in (301, 302):
            found.append(response.location or "")
            body = ""
        elif kind == "text/html":
            body = response.get_data(as_text=True)
            parser = Links()
            parser.feed(body)
            found += parser.found
            body = html.unescape(body)
        elif kind.endswith("xml"):
            body = response.get_data(as_text=True)
            found += [
                node.get("href") or "" for node in ET.fromstring(body).iter() if node.get("href")
            ]
            body = html.unescape(body)
        elif kind == "application/json":
            data = response.get_json()
            found += json_links(data)
            body = response.get_data(as_text=True) + json.dumps(data, ensure_ascii=False)
        elif kind.startswith("text/"):
            body = response.get_data(as_text=True)
        else:
            body = ""  # pictures: fetched (they must exist), nothing to read
        done.pages[path] = body
        for link in found:
            target = urlsplit(urldefrag(urljoin(base_url + path, link))[0])
            if target.scheme not in ("http", "https") or target.netloc != origin.netloc:
                continue
            # The language switcher's links show the same pages in other words (whose words
            # test_web_languages checks), and would set the crawler's language cookie.
            if "lang" in parse_qs(target.query):
                continue
            local = target.path + (f"?{target.query}" if target.query else "")
            if local not in seen:
                seen.add(local)
                queue.append(local)
    return done


def dos_in_progress(runtime: Runtime) -> tuple[int, list[str]]:
    """Turn 1 played by mail, France's orders for turn 2 on file and Spain's not; returns the
    game and France's unrevealed move lines (each found on no public page before)."""

    def site(_: int) -> str:
        # Every page of the whole site, so that finding a move on one later means a leak.
        client = create_app(runtime).test_client()
        return "\n".join(crawl(client, runtime.config.base_url).pages.values())

    return secret_orders_on_file(runtime, site)


def thermopyles_in_progress(runtime: Runtime, actions: int) -> int:
    """A Thermopyles game a few actions in, still running."""
    deliver_mail(runtime, compose(LEONIDAS, "new@pbem.localhost", "NEW THERMOPYLES molon labe"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game).where(Game.game_key == "thermopyles")).one()
        game_id, address = game.id, play.seat_address(runtime, game, game.seats[0])
    for _ in range(actions):
        deliver_mail(
            runtime, compose(LEONIDAS, address, strategy.choose(position(runtime, game_id)).text())
        )
    assert not position(runtime, game_id).over
    return game_id


def opening(runtime: Runtime, game_id: int) -> Any:
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        first = session.scalars(select(Turn).where(Turn.game_id == game_id, Turn.number == 0)).one()
        return play.rules_for(game).load(first.state)


def private_lines(rules: Any, state: Any, start: Any, seat: str) -> list[str]:
    """What the seat's own view says that the public view does not (its hand, its options), less
    what every game's opening already tells that seat (a start card fixed by the rules)."""
    public = set(rules.describe(rules.view(state, None)).splitlines())
    known = set(rules.describe(rules.view(start, seat)).splitlines())
    own = rules.describe(rules.view(state, seat)).splitlines()
    return [
        line.strip()
        for line in own
        if line not in public and line not in known and len(line.strip()) > 8
    ]


# Fixed seeds, so that the deal is the same each run: this one gives France a card drawn in turn 1
# beside its start card.
@pytest.mark.usefixtures("fixed_seeds")
def test_no_page_reachable_from_the_front_page_leaks_a_secret(runtime: Runtime) -> None:
    dos, secret_moves = dos_in_progress(runtime)
    solo = thermopyles_in_progress(runtime, 3)
    dos_state, solo_state = position(runtime, dos), position(runtime, solo)
    dos_start, solo_start = opening(runtime, dos), opening(runtime, solo)
    with runtime.db.session() as session:
        seeds = {game.id: game.seed.hex() for game in session.scalars(select(Game))}
        addresses = [player.address for player in session.scalars(select(Player))]
    assert sorted(addresses) == sorted([FRANCE, SPAIN, GM, LEONIDAS])
    # Cards held in a hand and not yet played, by every name a page could give them; less the
    # ones every game's opening names in public (Spain's start card, France's two start options).
    cards = card_data()
    options = {card["id"] for card in DOS.view(dos_start, None).get("start_choice", [])}
    assert options == {"F-ART", "F-MUR"}
    held = [
        cards.by_id[card]
        for side in ("france", "spain")
        for card in dos_state.hands[side]
        if card not in dos_start.hands[side] and card not in options
    ]
    assert held and held[0].side == "france", held
    card_names = [name for card in held for name in (card.en, card.es)]
    hidden_lines = [
        *private_lines(DOS, dos_state, dos_start, "france"),
        *private_lines(DOS, dos_state, dos_start, "spain"),
        *private_lines(THERMOPYLES, solo_state, solo_start, THERMOPYLES.seats[0]),
    ]
    # France's hand and Leonidas's; Spain holds only the start card every game deals it.
    assert sum(line.startswith("Your hand:") for line in hidden_lines) == 2, hidden_lines
    everywhere = [
        *addresses,
        *(address.split("@")[0] + "@" for address in addresses),
        *seeds.values(),
        *secret_moves,
        *hidden_lines,
    ]
    # France's choice of start card is its secret too.
    game_secrets = [*card_names, "TAKE MURAT"]

    client = create_app(runtime).test_client()
    found = crawl(client, runtime.config.base_url)
    # The crawl reached every kind of public page, so the checks below cover them.
    paths = set(found.kinds)
    for expected in (
        f"/games/{dos}",
        f"/games/{solo}",
        f"/games/{dos}/turns/0",
        f"/games/{dos}/turns/1",
        f"/games/{dos}/feed.atom",
        f"/games/{dos}/fairness",
        f"/games/{dos}/strength.png",
        f"/api/games/{dos}",
        f"/api/games/{dos}/turns/1",
        "/api/games",
        "/help/2demayo",
        "/?game=2demayo",
        "/?status=active",
    ):
        assert expected in paths, (expected, sorted(paths))
    assert any(path.startswith(f"/api/games/{solo}/turns/") for path in paths), sorted(paths)
    # Each turn's picture, at the address of what it shows.
    assert any(path.startswith(f"/games/{dos}/turns/1/") for path in paths), sorted(paths)
    for path, body in found.pages.items():
        for hidden in everywhere:
            assert hidden not in body, (path, hidden)
        # The rules pages name every card and order form by design; no other page names a card
        # held in a hand.
        if not path.startswith("/help"):
            assert '"hand":' not in body and "Your hand" not in body, path
            for name in game_secrets:
                assert name not in body, (path, name)
    # The same crawl finds what is public once it is: the checks above could fail.
    deadlines.adjudicate(runtime, dos, force=True)
    drain(runtime)
    later = crawl(client, runtime.config.base_url).pages
    assert all(line in later[f"/games/{dos}/turns/2"] for line in secret_moves)
    with runtime.db.session() as session:
        [ended] = gm.run(session, runtime, session.get_one(Game, dos), ["END"], "end", utcnow())
        assert ended.done, ended.message
    drain(runtime)
    after = crawl(client, runtime.config.base_url).pages
    assert seeds[dos] in after[f"/games/{dos}"] and seeds[dos] in after[f"/games/{dos}/fairness"]
    assert not any(seeds[solo] in body for body in after.values())
