"""The order checker in the browser: a player pastes orders, reads the receipt the mail would
give (with its "did you mean"), and nothing is submitted or stored."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from dos_de_mayo_by_mail import play_turn_one
from playbymail import sent
from playwright.sync_api import Page, expect

from browser.conftest import Elsewhere, Live, Watch, assert_inert, database_rows
from browser.playing import (
    FRANCE,
    LINK,
    SCRIPT,
    SVG,
    check_orders,
    private_checker_link,
    start_dos,
)

Shot = Callable[[Page, str], Path]

RIGHT = "TAKE MURAT\n16-14 x1\nDRAW"
WRONG = "TAEK MURAT\n16-99 x1\nDRAW"


def test_the_public_checker_reads_orders_and_submits_nothing(
    live: Live, page: Page, watch: Watch, screenshot: Shot
) -> None:
    game_id, _ = start_dos(live.runtime)
    before, mails = database_rows(live.runtime), len(sent(live.runtime))

    page.goto(live.at("/"))
    page.locator("header").get_by_role("link", name="help").click()
    page.get_by_role("link", name="2 de Mayo").first.click()
    page.wait_for_url(live.at("/help/2demayo"))
    page.get_by_role("link", name="check orders").first.click()
    page.wait_for_url(re.compile(r"/help/2demayo/check"))
    page.locator("select#seat").select_option("france")
    check_orders(page, RIGHT)
    expect(page.locator("#receipt")).to_have_text("Accepted")
    lines = page.locator("tr.line")
    expect(lines).to_have_count(3)
    for row in lines.all():
        expect(row.locator("td").nth(2)).to_contain_text("accepted")
    expect(page.locator("pre.receipt")).to_contain_text("YOUR ORDERS AS UNDERSTOOD")
    expect(page.locator("textarea#orders")).to_have_value(RIGHT)
    screenshot(page, "accepted")

    check_orders(page, WRONG)
    # The refused lines are left out; the one accepted line (DRAW) would be filed alone.
    expect(page.locator("#receipt")).to_have_text("Partly accepted")
    expect(page.locator("#receipt + p")).to_contain_text("without lines 1, 2")
    expect(lines).to_have_count(3)
    expect(lines.nth(0)).to_have_attribute("data-code", "unknown-order")
    expect(lines.nth(0)).to_contain_text("did you mean TAKE MURAT?")
    expect(lines.nth(1)).to_have_attribute("data-code", "unknown-area")
    expect(lines.nth(1)).to_contain_text("did you mean 19?")
    expect(lines.nth(2)).to_contain_text("accepted")
    receipt = page.locator("pre.receipt")
    expect(receipt).to_contain_text("did you mean TAKE MURAT?")
    expect(receipt).to_contain_text("NOT IN YOUR ORDERS")
    expect(receipt).to_contain_text("- TAKE ARTILLERY or TAKE MURAT")
    screenshot(page, "not-accepted")

    # Payloads pasted as orders come back as text in the receipt.
    payload = f"{SCRIPT}\n{SVG}\n{LINK}"
    check_orders(page, payload)
    assert_inert(page, watch)
    for number, line in enumerate((SCRIPT, SVG, LINK)):
        expect(lines.nth(number).locator("td").nth(1)).to_have_text(line)
    expect(page.locator("textarea#orders")).to_have_value(payload)

    # Nothing was submitted: not a row of the database changed, no mail was sent.
    assert database_rows(live.runtime) == before
    assert len(sent(live.runtime)) == mails
    page.goto(live.at(f"/games/{game_id}"))
    expect(page.get_by_role("row", name=re.compile(r"^France"))).to_contain_text("waiting")
    assert watch.errors == [], watch.errors


def test_a_players_private_checker_reads_the_real_position(
    live: Live, page: Page, watch: Watch, screenshot: Shot
) -> None:
    game_id, addresses = start_dos(live.runtime)
    play_turn_one(live.runtime, addresses)
    link = private_checker_link(live.runtime, FRANCE)
    assert link.startswith(live.url)
    before, mails = database_rows(live.runtime), len(sent(live.runtime))
    page.goto(link)
    expect(page.locator("h1")).to_have_text(f"Check your orders: 2 de Mayo, game {game_id}, France")
    expect(page.locator("select#seat")).to_have_count(0)  # only this seat's own
    check_orders(page, "16-14 x1\nPLAY MURATT\nNODRAW")
    expect(page.locator("#receipt")).to_have_text("Partly accepted")
    expect(page.locator("tr.line").nth(1)).to_contain_text("did you mean")
    screenshot(page, "private")
    assert database_rows(live.runtime) == before and len(sent(live.runtime)) == mails
    # Changing the address by a character finds nothing, and says nothing about why.
    forged = link[:-1] + ("A" if link[-1] != "A" else "B")
    response = page.goto(forged)
    assert response is not None and response.status == 404
    assert watch.dialogs == [] and watch.errors == []


def test_a_check_posted_from_another_site_is_refused(
    live: Live, page: Page, elsewhere: Elsewhere
) -> None:
    page.goto(live.at("/help/2demayo/check"))  # the reader has a session with its own token
    before = database_rows(live.runtime)
    with page.expect_navigation(url=re.compile(r"/help/2demayo/check")) as navigation:
        page.goto(
            elsewhere.posting(live.at("/help/2demayo/check"), {"seat": "france", "orders": RIGHT})
        )
    response = navigation.value
    # Refused for where it came from (its Origin), before its missing token is even read.
    assert response is not None and response.status == 403
    expect(page.locator("main")).to_contain_text("sent from another site's page")
    expect(page.locator("#receipt")).to_have_count(0)
    assert database_rows(live.runtime) == before
