"""The order checker draws the checked orders on the map beside the receipt, as the turn maps
draw a turn's moves: a player sees where the arrows go before the mail is sent, on a desktop
and on a phone, and the receipt is read once, with nothing to scroll sideways."""

from __future__ import annotations

import base64
import io
from collections.abc import Callable
from pathlib import Path

from dos_de_mayo_by_mail import play_turn_one
from PIL import Image
from playwright.sync_api import Page, expect

from browser.conftest import Live
from browser.playing import FRANCE, check_orders, private_checker_link, start_dos

Shot = Callable[[Page, str], Path]

# Two order sets of France at the public opening: a move with a start card, then others.
FIRST = "TAKE MURAT\n16-14 x1\nDRAW"
SECOND = "TAKE ARTILLERY\nPLAY ARTILLERY\nARTILLERY 16\n1-10 x2\n20-21 x1\nNODRAW"
# A long line a phone must wrap at its spaces, and a rejected one with a long reason.
LONG = "TAKE MURAT\nSanto Domingo - Puerta del Sol\n16-14 x1\nPLAY MAMELUKES 16-14-9 x2"


def check(page: Page, orders: str) -> str:
    """Check ``orders`` and give the preview picture's source (a data: URI)."""
    check_orders(page, orders)
    picture = page.locator("figure.preview img")
    expect(picture).to_be_visible()
    source = picture.get_attribute("src") or ""
    assert source.startswith("data:image/png;base64,"), source[:40]
    with Image.open(io.BytesIO(base64.b64decode(source.split(",", 1)[1]))) as drawn:
        assert drawn.width >= 600  # the whole map, as the turn mail draws it
    # The picture is really shown: the browser decoded it and laid it out.
    assert picture.evaluate("img => img.complete && img.naturalWidth") >= 600
    return source


def receipt_once(page: Page, lines: int) -> None:
    """One receipt is read: its table, each line once; the mail's wording stays folded."""
    expect(page.locator("table.receipt-lines")).to_have_count(1)
    expect(page.locator("tr.line")).to_have_count(lines)
    expect(page.locator("pre.receipt")).to_be_hidden()
    shown = page.locator("main").inner_text()
    assert shown.count("YOUR ORDERS AS UNDERSTOOD") == 0, "the receipt is shown twice"


def no_sideways_scroll(page: Page) -> None:
    wide, view = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert wide <= view, f"the page scrolls sideways: {wide} > {view}"


def test_the_checker_draws_the_orders_on_the_map(live: Live, page: Page, screenshot: Shot) -> None:
    page.goto(live.at("/help/2demayo/check"))
    page.locator("select#seat").select_option("france")
    first = check(page, FIRST)
    receipt_once(page, 3)
    screenshot(page, "first")
    page.locator("select#seat").select_option("france")
    second = check(page, SECOND)
    receipt_once(page, 6)
    screenshot(page, "second")
    assert first != second, "other orders, the same picture"
    # The same orders draw the same picture: it is the orders, not the moment, that it shows.
    page.locator("select#seat").select_option("france")
    assert check(page, FIRST) == first
    # A text without any order draws nothing.
    page.locator("textarea#orders").fill("Hello, just checking in")
    with page.expect_navigation():
        page.get_by_role("button", name="Check").click()
    expect(page.locator("figure.preview")).to_have_count(0)


def test_the_checker_reads_on_a_phone(live: Live, phone: Page, screenshot: Shot) -> None:
    phone.goto(live.at("/help/2demayo/check"))
    phone.locator("select#seat").select_option("france")
    first = check(phone, LONG)
    receipt_once(phone, 4)
    no_sideways_scroll(phone)
    # An order is wrapped at its spaces, never cut inside a word.
    cell = phone.locator("tr.line").nth(1).locator("code").first
    assert cell.evaluate("node => getComputedStyle(node).overflowWrap") != "anywhere"
    screenshot(phone, "phone")
    phone.locator("select#seat").select_option("france")
    assert check(phone, SECOND) != first
    no_sideways_scroll(phone)
    screenshot(phone, "phone-second")


def test_the_private_checker_draws_the_seats_own_orders(
    live: Live, page: Page, screenshot: Shot
) -> None:
    _, addresses = start_dos(live.runtime)
    play_turn_one(live.runtime, addresses)
    page.goto(private_checker_link(live.runtime, FRANCE))
    first = check(page, "16-14 x1\nNODRAW")
    receipt_once(page, 2)
    assert check(page, "1-10 x1\nNODRAW") != first
    screenshot(page, "private")


def test_the_checker_draws_musket_and_pike_orders(
    live: Live, page: Page, phone: Page, screenshot: Shot
) -> None:
    # The public opening owes each side's secret wing orders: the asked ones show in the panel.
    page.goto(live.at("/help/musketpike/check"))
    page.locator("select#seat").select_option("royalist")
    first = check(page, "ORDERS R-LEFT=charge R-CENTRE=make ready R-RIGHT=charge")
    receipt_once(page, 1)
    caption = page.locator("figure.preview figcaption")
    expect(caption).to_contain_text("(asked)")
    expect(caption).not_to_contain_text("cards played")  # 2 de Mayo's marks are not this game's
    screenshot(page, "musket")
    page.locator("select#seat").select_option("royalist")
    second = check(page, "ORDERS R-LEFT=rally R-CENTRE=rally R-RIGHT=receive charge")
    assert first != second, "other orders, the same picture"
    # A phone at two device pixels a pixel takes the picture drawn twice the size.
    phone.goto(live.at("/help/musketpike/check"))
    phone.locator("select#seat").select_option("parliament")
    once = check(phone, "P-RIGHT receive charge\nP-CENTRE = make ready\nP-LEFT: rally")
    picture = phone.locator("figure.preview img")
    twice = picture.get_attribute("srcset") or ""
    assert twice.startswith("data:image/png;base64,") and twice.endswith(" 2x")
    assert picture.evaluate("img => img.currentSrc") == twice.removesuffix(" 2x")
    sizes = []
    for source in (once, twice.removesuffix(" 2x")):
        with Image.open(io.BytesIO(base64.b64decode(source.split(",", 1)[1]))) as drawn:
            sizes.append(drawn.size)
    assert sizes[1] == (2 * sizes[0][0], 2 * sizes[0][1])
    no_sideways_scroll(phone)
    screenshot(phone, "musket-phone")
