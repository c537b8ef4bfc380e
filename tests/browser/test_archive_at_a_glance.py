"""The archive as players use it: the list says who each game waits for and by when, each game's
page opens with what happens next, its history is one line per turn, and a turn's page groups
the orders by side; on a desktop and on a 390 px phone, which never scrolls sideways."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from dos_de_mayo_by_mail import play_turn_one
from playbymail import compose, deliver_mail
from playwright.sync_api import Page, expect

from adjudicator.mail import addresses
from adjudicator.models import Game
from browser.conftest import Live
from browser.playing import PARLIAMENT, ROYALIST, start_dos, start_musket, start_thermopyles

Shot = Callable[[Page, str], Path]


def fits(page: Page, where: str) -> None:
    width = page.evaluate("document.scrollingElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, (where, width, inner)


def three_games(live: Live) -> dict[str, int]:
    dos, mailed = start_dos(live.runtime)
    play_turn_one(live.runtime, mailed)
    solo = start_thermopyles(live.runtime, "leonidas@example.com")
    musket, _ = start_musket(live.runtime)
    return {"2 de Mayo": dos, "Thermopyles": solo, "Musket & Pike": musket}


def test_every_game_says_who_owes_what_by_when(
    live: Live, page: Page, phone: Page, screenshot: Shot
) -> None:
    games = three_games(live)
    for reader, size in ((page, "desktop"), (phone, "phone")):
        reader.goto(live.at("/"))
        rows = reader.locator("table.games tbody tr")
        expect(rows).to_have_count(3)
        # Musket & Pike waits for the royalist's wing orders, named as the player signed.
        musket = rows.filter(has=reader.locator(f'a[href="/games/{games["Musket & Pike"]}"]'))
        expect(musket.locator("td.waiting")).to_contain_text("Royalist")
        dos = rows.filter(has=reader.locator(f'a[href="/games/{games["2 de Mayo"]}"]'))
        expect(dos.locator("td.waiting")).to_contain_text("orders for turn 2")
        deadline = dos.locator("td.deadline time[data-local]")
        expect(deadline).to_have_attribute("title", re.compile(r"Z$"))  # localised by the script
        expect(dos.locator("td.deadline")).to_contain_text(re.compile(r"in \d+\u00a0(h|min|days)"))
        # The date stays on one line: its box is no taller than one line of its text.
        box = deadline.bounding_box()
        assert box is not None and box["height"] < 30, box
        fits(reader, "/")
        screenshot(reader, f"list-{size}")
        for title, game_id in games.items():
            reader.goto(live.at(f"/games/{game_id}"))
            first = reader.locator("h1 + p.next-step")
            expect(first).to_be_visible()
            assert "turn  " not in first.inner_text()
            fits(reader, f"/games/{game_id}")
            screenshot(reader, f"game-{title.replace(' ', '-').replace('&', 'and')}-{size}")
    phone.goto(live.at(f"/games/{games['2 de Mayo']}"))
    expect(phone.locator("p.next-step")).to_contain_text(
        re.compile(r"Waiting for orders for turn 2 from .*Orders are due", re.S)
    )
    phone.goto(live.at(f"/games/{games['Musket & Pike']}"))
    expect(phone.locator("p.next-step")).to_contain_text(
        re.compile(r"Royalist.* to .*The answer is due", re.S)
    )


def test_a_turn_page_reads_in_words_on_a_phone(live: Live, phone: Page, screenshot: Shot) -> None:
    games = three_games(live)
    dos = games["2 de Mayo"]
    phone.goto(live.at(f"/games/{dos}"))
    # One line per turn, newest first, each a link to the turn's own page.
    lines = phone.locator("ol.history li")
    expect(lines).to_have_count(2)
    height = phone.evaluate("document.scrollingElement.scrollHeight")
    assert height < 4000, height
    lines.first.get_by_role("link", name="After turn 1").click()
    phone.wait_for_url(live.at(f"/games/{dos}/turns/1"))
    expect(phone.locator("#turn-1 h2")).to_have_text("After turn 1")
    expect(phone.locator("#turn-1 .side h4")).to_have_count(2)
    fits(phone, "turn 1")
    screenshot(phone, "turn-1-phone")


def test_a_game_of_steps_lists_each_step_and_who_owes_the_next(
    live: Live, page: Page, phone: Page, screenshot: Shot
) -> None:
    game_id, replies = start_musket(live.runtime)
    wings = {ROYALIST: "R-A=charge R-B=make ready", PARLIAMENT: "P-A=receive charge P-B=make ready"}
    for address, orders in wings.items():
        deliver_mail(live.runtime, compose(address, replies[address], f"ORDERS {orders}"))
    for reader, size in ((page, "desktop"), (phone, "phone")):
        reader.goto(live.at(f"/games/{game_id}"))
        # Only the royalist owes the next decision now, and the page names it and the side.
        first = reader.locator("h1 + p.next-step")
        expect(first).to_contain_text(re.compile(r"^Royalists \(Ralph Hopton\) (is|are) to "))
        expect(first).not_to_contain_text("Parliament")
        lines = reader.locator("ol.history li")
        assert lines.count() >= 2
        expect(lines.first.locator("a")).to_have_count(2)  # the thumbnail and the title
        fits(reader, f"/games/{game_id}")
        screenshot(reader, f"musket-steps-{size}")
    phone.locator("ol.history li").first.locator(".what a").click()
    phone.wait_for_url(re.compile(rf"/games/{game_id}/turns/\d+$"))
    expect(phone.locator("h2").first).to_contain_text(re.compile(r"^After step \d+"))
    fits(phone, phone.url)
    screenshot(phone, "musket-step-phone")


def test_a_players_private_link_lists_their_games(
    live: Live, page: Page, phone: Page, screenshot: Shot
) -> None:
    games = three_games(live)
    secret = live.runtime.config.secret_key
    with live.runtime.db.session() as session:
        seat = session.get_one(Game, games["Musket & Pike"]).seats[0]
        version, name = seat.key_version, seat.seat
    signature = addresses.check_signature(secret, games["Musket & Pike"], name, version)
    page.goto(live.at(f"/games/{games['Musket & Pike']}/mine/{name}/{signature}"))
    page.wait_for_url(re.compile(r"/\?player=\d+-[0-9a-f]+$"))
    expect(page.locator("h1")).to_have_text("Your games")
    expect(page.locator("table.games tbody tr")).to_have_count(1)
    screenshot(page, "mine")
    # A forged link shows no one's games.
    forged = page.url[:-1] + ("0" if page.url[-1] != "0" else "1")
    assert page.request.get(forged).status == 400
    wrong = live.at(f"/games/{games['Musket & Pike']}/mine/{name}/{'0' * 16}")
    assert page.request.get(wrong).status == 404
