"""A newcomer follows a game in the browser: the list filtered by game, the game page with its
deadline in the reader's own time zone, the map, the feed, and a turn's permanent page."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from dos_de_mayo_by_mail import play_turn_one
from playwright.sync_api import Page, expect

from adjudicator.models import Game
from browser.conftest import Live, Watch, local_text, spaced
from browser.playing import start_dos, start_thermopyles

Shot = Callable[[Page, str], Path]


def loaded(image: Page, selector: str) -> int:
    """The natural width of the picture at ``selector`` once the browser has fetched it."""
    found = image.locator(selector)
    found.scroll_into_view_if_needed()
    image.wait_for_function(
        "(img) => img.complete && img.naturalWidth > 0", arg=found.element_handle()
    )
    return int(found.evaluate("img => img.naturalWidth"))


def test_a_newcomer_follows_a_game_from_the_list_to_a_turn(
    live: Live, page: Page, watch: Watch, screenshot: Shot
) -> None:
    game_id, addresses = start_dos(live.runtime)
    play_turn_one(live.runtime, addresses)
    solo = start_thermopyles(live.runtime, "leonidas@example.com")
    with live.runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
        assert deadline is not None

    page.goto(live.at("/"))
    rows = page.locator("table.games tbody tr td.name > a")
    expect(rows).to_have_count(2)
    screenshot(page, "list")
    page.get_by_role("navigation", name="Filter by game").get_by_role(
        "link", name=re.compile(r"^2 de Mayo \(1\)$")
    ).click()
    page.wait_for_url(re.compile(r"/\?game=2demayo$"))
    expect(rows).to_have_count(1)
    expect(rows).to_have_text(f"2 de Mayo #{game_id}")
    assert page.locator(f'a[href="/games/{solo}"]').count() == 0
    rows.first.click()

    page.wait_for_url(live.at(f"/games/{game_id}"))
    expect(page.locator("h1")).to_have_text(f"2 de Mayo, game {game_id}")
    # The deadline is written in UTC; the page's script rewrote it for a reader in New York.
    due = page.locator("h1 + p.next-step").locator("time[data-local]")
    iso = deadline.isoformat(timespec="seconds").replace("+00:00", "Z")
    expect(due).to_have_attribute("datetime", iso)
    expect(due).to_have_attribute("title", iso)  # set by the script once it has localised
    shown = spaced(due.inner_text())
    assert shown != f"{deadline:%Y-%m-%d %H:%M} UTC"
    assert shown in local_text(deadline, "America/New_York"), shown
    # The current position's map, and the feed both as a link and for feed readers.
    assert loaded(page, f'img[src^="/games/{game_id}/turns/1/"][src$=".png"] >> nth=0') > 300
    feed = page.get_by_role("link", name="Atom feed")
    expect(feed).to_have_attribute("href", f"/games/{game_id}/feed.atom")
    alternate = page.locator('link[rel="alternate"][type="application/atom+xml"]')
    expect(alternate).to_have_attribute("href", f"/games/{game_id}/feed.atom")
    assert page.request.get(live.at(f"/games/{game_id}/feed.atom")).ok
    screenshot(page, "game")

    # Any turn has a permanent page: its line links to it, and it leads to the one before.
    page.locator("#turn-1").get_by_role("link", name="After turn 1").click()
    page.wait_for_url(live.at(f"/games/{game_id}/turns/1"))
    expect(page.locator("#turn-1 h2")).to_have_text("After turn 1")
    expect(page.locator("#turn-1 code", has_text="16-14 x1")).to_be_visible()
    assert loaded(page, f'#turn-1 img[src^="/games/{game_id}/turns/1/"][src$=".png"]') > 300
    screenshot(page, "turn-1")
    page.locator('a[rel="prev"]').click()
    page.wait_for_url(live.at(f"/games/{game_id}/turns/0"))
    expect(page.locator("#turn-0 h2")).to_have_text("Opening position")
    assert loaded(page, f'#turn-0 img[src^="/games/{game_id}/turns/0/"][src$=".png"]') > 300
    assert watch.dialogs == [] and watch.errors == [], (watch.dialogs, watch.errors)


def test_the_game_page_fits_a_phone(live: Live, phone: Page, screenshot: Shot) -> None:
    game_id, addresses = start_dos(live.runtime)
    play_turn_one(live.runtime, addresses)
    for path in ("/", f"/games/{game_id}", f"/games/{game_id}/turns/1"):
        phone.goto(live.at(path))
        # Wide tables scroll inside their own box: the page itself never scrolls sideways.
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, (path, width)
    assert loaded(phone, f'#turn-1 img[src^="/games/{game_id}/turns/1/"][src$=".png"]') > 300
    # The map is laid out as wide as the mail shows it, where its labels read, and pans sideways
    # in its own box, which fits the phone.
    shown = phone.evaluate("document.querySelector('#turn-1 img').getBoundingClientRect().width")
    box = phone.evaluate(
        "document.querySelector('#turn-1 img').closest('.pan').getBoundingClientRect().width"
    )
    assert shown == 720 and 0 < box <= 390, (shown, box)
    screenshot(phone, "turn-1-phone")
