"""The game master runs a game from a phone: the login link from the real welcome mail, the
deadline moved with the time-zone picker (the panel, the public page and the players' mail all
show it), pause and resume, a rollback confirmed, a player replaced; and a form posted from
another site's page changes nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from playbymail import compose, deliver_mail, drain, sent, text_of
from playwright.sync_api import BrowserContext, Page, expect
from sqlalchemy import select

from adjudicator.models import Game
from browser.conftest import (
    PHONE,
    Elsewhere,
    Live,
    Watch,
    assert_inert,
    database_rows,
    local_text,
    spaced,
)
from browser.playing import FRANCE, GM, NEW, SPAIN, SVG

Shot = Callable[[Page, str], Path]


@dataclass
class Made:
    game_id: int
    login: str  # the panel link from the welcome mail
    commands: str  # the game master's reply address, for commands by mail
    seats: dict[str, str]  # player -> reply address


def game_by_mail(live: Live) -> Made:
    """The game master makes a 2 de Mayo game by mail; both players JOIN; the game starts."""
    runtime = live.runtime
    body = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\nTIMEZONE Europe/Madrid\n"
    deliver_mail(runtime, compose(GM, NEW, body))
    [welcome] = [mail for mail in sent(runtime) if str(mail["To"]) == GM]
    found = re.search(r"Run the game on the web: (\S+)", text_of(welcome))
    assert found is not None, text_of(welcome)
    assert found.group(1).startswith(f"{live.url}/gm/")
    seats = {
        str(mail["To"]): str(mail["Reply-To"])
        for mail in sent(runtime)
        if str(mail["To"]) in (FRANCE, SPAIN)
    }
    for player in (FRANCE, SPAIN):
        deliver_mail(runtime, compose(player, seats[player], "JOIN"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        assert game.status == "active" and game.deadline is not None
        return Made(game.id, found.group(1), str(welcome["Reply-To"]), seats)


def game_row(live: Live, game_id: int) -> Game:
    with live.runtime.db.session() as session:
        return session.get_one(Game, game_id)


def submit(page: Page, form: str) -> None:
    with page.expect_navigation():
        page.locator(f"form#{form} button[type=submit]").click()


def mails_since(live: Live, count: int, to: str) -> list[str]:
    drain(live.runtime)
    return [text_of(mail) for mail in sent(live.runtime)[count:] if str(mail["To"]) == to]


def open_panel(page: Page, link: str) -> None:
    """Open the mailed link as a person does: the page it shows, then its button (the link
    itself spends nothing, since mail scanners fetch links before people do)."""
    page.goto(link)
    expect(page.locator("form#open")).to_be_visible()
    page.locator("form#open button").click()


def test_the_game_master_moves_the_deadline_and_pauses_from_a_phone(
    live: Live, phone: Page, watch: Watch, screenshot: Shot
) -> None:
    made = game_by_mail(live)
    open_panel(phone, made.login)
    phone.wait_for_url(live.at(f"/games/{made.game_id}/manage"))
    expect(phone.locator("h1")).to_have_text(f"2 de Mayo, game {made.game_id}: game master")
    expect(phone.locator("#status")).to_have_text("active")
    expect(phone.locator("#seats")).to_contain_text(FRANCE)
    width = phone.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert width <= 0, width  # the forms fit the phone
    screenshot(phone, "panel")

    # A new deadline, picked on New York's clock.
    day = (datetime.now(UTC) + timedelta(days=5)).date()
    wanted = datetime.combine(day, time(18, 30), ZoneInfo("America/New_York"))
    form = phone.locator("form#deadline")
    form.locator("input[name=date]").fill(day.isoformat())
    form.locator("input[name=time]").fill("18:30")
    form.locator("select[name=zone]").select_option("America/New_York")
    count = len(sent(live.runtime))
    submit(phone, "deadline")
    phone.wait_for_url(live.at(f"/games/{made.game_id}/manage"))
    expect(phone.locator(".flash.ok")).to_contain_text("SET DEADLINE")
    utc = wanted.astimezone(UTC)
    due = phone.locator("#current-deadline time")
    expect(due).to_have_attribute("datetime", f"{utc:%Y-%m-%dT%H:%M:%SZ}")
    madrid = wanted.astimezone(ZoneInfo("Europe/Madrid"))
    # On the game's clock, then UTC (with its own date when that differs), then how far off.
    in_utc = f"{utc:%H:%M}" if utc.date() == madrid.date() else f"{utc:%a %d %b %H:%M}"
    expect(due).to_have_text(
        re.compile(
            re.escape(f"{madrid:%a %d %b %Y %H:%M} {madrid.tzname()} = {in_utc} UTC")
            + r" \(in \d+\u00a0days\)$"
        )
    )
    assert game_row(live, made.game_id).deadline == utc
    screenshot(phone, "deadline-moved")
    # Every player is told, with the new deadline on the game's clock and in UTC.
    for player in (FRANCE, SPAIN):
        [notice] = mails_since(live, count, player)
        assert "The deadline has moved (set by the game master)." in notice
        # The UTC time carries its own date when that is not the local one.
        same_day = utc.date() == madrid.date()
        in_utc = f"{utc:%H:%M}" if same_day else f"{utc:%a %d %b %H:%M}"
        assert f"{madrid:%a %d %b %Y %H:%M} {madrid.tzname()} = {in_utc} UTC" in notice
    # The public page shows it too, localised for this reader in Madrid.
    phone.goto(live.at(f"/games/{made.game_id}"))
    due = phone.locator("p", has_text="are due").locator("time[data-local]")
    expect(due).to_have_attribute("datetime", utc.strftime("%Y-%m-%dT%H:%M:%SZ"))
    expect(due).to_have_attribute("title", utc.strftime("%Y-%m-%dT%H:%M:%SZ"))
    assert spaced(due.inner_text()) in local_text(utc, "Europe/Madrid")

    # Pause: the panel, the public page and the players all say so; resume undoes it.
    phone.goto(live.at(f"/games/{made.game_id}/manage"))
    count = len(sent(live.runtime))
    submit(phone, "pause")
    expect(phone.locator("#status")).to_have_text("active, paused")
    expect(phone.locator("form#pause")).to_have_count(0)
    assert game_row(live, made.game_id).paused
    assert all(
        "paused the game" in text
        for player in (FRANCE, SPAIN)
        for text in mails_since(live, count, player)
    )
    assert len(mails_since(live, count, FRANCE)) == 1
    screenshot(phone, "paused")
    phone.goto(live.at(f"/games/{made.game_id}"))
    expect(phone.locator("main")).to_contain_text("paused by the game master")
    phone.goto(live.at(f"/games/{made.game_id}/manage"))
    count = len(sent(live.runtime))
    submit(phone, "resume")
    expect(phone.locator("#status")).to_have_text("active")
    assert not game_row(live, made.game_id).paused
    [resumed] = mails_since(live, count, SPAIN)
    assert "resumed the game" in resumed
    expect(phone.locator("form#pause")).to_have_count(1)

    # Extend by a day: the deadline moves on by exactly 24 hours.
    phone.locator("form#extend input[name=hours]").fill("24")
    submit(phone, "extend")
    expect(phone.locator(".flash.ok")).to_contain_text("EXTEND 24h")
    assert game_row(live, made.game_id).deadline == utc + timedelta(hours=24)

    # Logging out is a button (a POST with the form's token), a thumb's size on the phone.
    logout = phone.get_by_role("button", name="Log out")
    box = logout.bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= PHONE["width"]
    screenshot(phone, "before-logout")
    with phone.expect_navigation():
        logout.click()
    phone.wait_for_url(live.at(f"/gm?game={made.game_id}"))
    expect(phone.locator(".flash.ok")).to_have_text("You have logged out of the game-master panel.")
    phone.goto(live.at(f"/games/{made.game_id}/manage"))
    assert phone.url.startswith(live.at("/gm"))
    assert watch.dialogs == [] and watch.errors == [], (watch.dialogs, watch.errors)


def test_a_rollback_is_confirmed_and_a_player_replaced(
    live: Live, phone: Page, watch: Watch, screenshot: Shot
) -> None:
    made = game_by_mail(live)
    runtime = live.runtime
    deliver_mail(runtime, compose(FRANCE, made.seats[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW"))
    deliver_mail(runtime, compose(SPAIN, made.seats[SPAIN], "9-14\nNODRAW"))
    open_panel(phone, made.login)
    phone.wait_for_url(live.at(f"/games/{made.game_id}/manage"))
    expect(phone.locator("form#rollback")).to_be_visible()
    # The reason carries markup: it must come back as text on every page that shows it.
    reason = f"France misread the map {SVG}"
    phone.locator("form#rollback input[name=reason]").fill(reason)
    submit(phone, "rollback")
    expect(phone.locator("h1")).to_have_text(f"Roll back turn 1 of game {made.game_id}?")
    expect(phone.locator("main")).to_contain_text(reason)
    assert_inert(phone, watch)
    assert game_row(live, made.game_id).status == "active"  # nothing happens before the yes
    screenshot(phone, "rollback-confirm")
    submit(phone, "confirm")
    expect(phone.locator(".flash.ok")).to_contain_text("turn 1 rolled back")
    assert_inert(phone, watch)
    phone.goto(live.at(f"/games/{made.game_id}/turns/1"))
    expect(phone.locator("main")).to_contain_text(f"Rolled back by the game master: {reason}.")
    assert_inert(phone, watch)

    phone.goto(live.at(f"/games/{made.game_id}/manage"))
    phone.locator("form#replace select[name=seat]").select_option("spain")
    phone.locator("form#replace input[name=address]").fill("palafox@example.com")
    submit(phone, "replace")
    expect(phone.locator(".flash.ok")).to_contain_text("replaced by palafox@example.com")
    expect(phone.get_by_role("row", name=re.compile(r"^Spain"))).to_contain_text(
        "palafox@example.com"
    )
    screenshot(phone, "replaced")
    drain(runtime)
    assert any(str(mail["To"]) == "palafox@example.com" for mail in sent(runtime))


def test_the_login_link_works_once_and_forms_from_another_site_are_refused(
    live: Live,
    contexts: Callable[..., BrowserContext],
    elsewhere: Elsewhere,
    screenshot: Shot,
) -> None:
    made = game_by_mail(live)
    gm = contexts(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    open_panel(gm, made.login)
    gm.wait_for_url(live.at(f"/games/{made.game_id}/manage"))
    # The game master's browser holds a live session; a page elsewhere posts with its cookie
    # but cannot know the form's token.
    before = database_rows(live.runtime)
    count = len(sent(live.runtime))
    manage = live.at(f"/games/{made.game_id}/manage")
    for action, fields in (
        ("pause", {}),
        ("pause", {"csrf_token": "guessed"}),
        ("deadline", {"date": "2031-01-01", "time": "12:00", "zone": "UTC"}),
        ("replace", {"seat": "spain", "address": "mallory@example.com"}),
    ):
        with gm.expect_navigation(url=f"{manage}/{action}") as navigation:
            gm.goto(elsewhere.posting(f"{manage}/{action}", fields))
        response = navigation.value
        # Refused for where it came from, before its token is even read.
        assert response is not None and response.status == 403, action
        expect(gm.locator("main")).to_contain_text("sent from another site's page")
    screenshot(gm, "refused")
    assert database_rows(live.runtime) == before
    drain(live.runtime)
    assert len(sent(live.runtime)) == count
    assert not game_row(live, made.game_id).paused
    # The session itself still works for the game master's own forms.
    gm.goto(manage)
    submit(gm, "pause")
    expect(gm.locator("#status")).to_have_text("active, paused")

    # The mailed link opened a session once; a second browser gets nothing from it.
    other = contexts().new_page()
    response = other.goto(made.login)
    assert response is not None and response.status == 403
    expect(other.locator("#why")).to_be_visible()
    other.goto(manage)
    assert other.url.startswith(live.at("/gm"))
    expect(other.locator("form")).to_have_count(0)
    # PANEL by mail sends the game master a fresh link, which opens the panel there.
    count = len(sent(live.runtime))
    deliver_mail(live.runtime, compose(GM, made.commands, "PANEL"))
    [reply] = mails_since(live, count, GM)
    fresh = re.search(rf"{re.escape(live.url)}/gm/\S+", reply)
    assert fresh is not None and fresh.group(0) != made.login, reply
    # A page elsewhere that holds the link cannot log a browser in with it (login CSRF); the
    # refusal spends nothing.
    with gm.expect_navigation(url=fresh.group(0)) as navigation:
        gm.goto(elsewhere.posting(fresh.group(0), {}))
    response = navigation.value
    assert response is not None and response.status == 403
    expect(gm.locator("main")).to_contain_text("sent from another site's page")
    open_panel(other, fresh.group(0))
    other.wait_for_url(manage)
    expect(other.locator("#status")).to_have_text("active, paused")
