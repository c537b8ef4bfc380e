"""The game master's panel for a game whose zone came from its schedule, on a desktop and on a
phone without scripts: the deadline on the game's clock with UTC and how far off it is; the
changes that cannot be undone stand apart and ask once more, and nothing happens before yes."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playbymail import compose, deliver_mail, sent, text_of
from playwright.sync_api import BrowserContext, Page, expect
from sqlalchemy import select

from adjudicator.models import Game
from browser.conftest import DESKTOP, PHONE, Live, Watch, database_rows
from browser.playing import FRANCE, GM, NEW, SPAIN

Shot = Callable[[Page, str], Path]
SCHEDULE = "SCHEDULE Mon, Thu 20:00 Europe/Madrid"


def game_by_mail(live: Live) -> tuple[int, str]:
    """A 2 de Mayo game whose schedule alone names its zone; both players JOIN. Its id and the
    welcome's panel link."""
    runtime = live.runtime
    deliver_mail(
        runtime, compose(GM, NEW, f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\n{SCHEDULE}")
    )
    [welcome] = [mail for mail in sent(runtime) if str(mail["To"]) == GM]
    found = re.search(r"Run the game on the web: (\S+)", text_of(welcome))
    assert found is not None, text_of(welcome)
    for player in (FRANCE, SPAIN):
        reply = next(str(m["Reply-To"]) for m in sent(runtime) if str(m["To"]) == player)
        deliver_mail(runtime, compose(player, reply, "JOIN"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        assert game.status == "active" and game.timezone == "Europe/Madrid"
        return game.id, found.group(1)


def game_row(live: Live, game_id: int) -> Game:
    with live.runtime.db.session() as session:
        return session.get_one(Game, game_id)


def click(page: Page, selector: str) -> None:
    with page.expect_navigation():
        page.locator(selector).click()


def unchanged(
    before: dict[str, list[tuple[Any, ...]]], after: dict[str, list[tuple[Any, ...]]]
) -> bool:
    return {k: v for k, v in before.items() if k != "panel_links"} == {
        k: v for k, v in after.items() if k != "panel_links"
    }


def fits(page: Page) -> None:
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{page.url} scrolls sideways by {overflow} px"


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_deadline_on_the_games_clock_and_changes_that_ask_first(
    live: Live,
    contexts: Callable[..., BrowserContext],
    watch: Watch,
    screenshot: Shot,
    device: str,
) -> None:
    game_id, login = game_by_mail(live)
    if device == "desktop":
        gm = contexts(viewport=DESKTOP).new_page()
    else:
        # The confirmation is a page of its own, not a script's dialog: it works with scripts off.
        options = {"is_mobile": True, "has_touch": True, "device_scale_factor": 2}
        gm = contexts(viewport=PHONE, java_script_enabled=False, **options).new_page()
    gm.goto(login)
    click(gm, "form#open button")
    manage = live.at(f"/games/{game_id}/manage")
    assert gm.url == manage

    # The deadline on Madrid's clock (the zone the schedule named), UTC, and how far off.
    deadline = game_row(live, game_id).deadline
    assert deadline is not None
    madrid = deadline.astimezone(ZoneInfo("Europe/Madrid"))
    assert (madrid.hour, madrid.minute) == (20, 0)
    due = gm.locator("#current-deadline time")
    expect(due).to_have_text(
        re.compile(
            re.escape(f"{madrid:%a %d %b %Y} 20:00 {madrid.tzname()} = ")
            + r"(\w{3} \d{2} \w{3} )?\d{2}:00 UTC \(in \d+\u00a0(h|days)\)$"
        )
    )
    expect(gm.locator("main")).to_contain_text("the game's zone: Europe/Madrid")

    # The changes that cannot be undone look unlike the others.
    danger = gm.locator("section.danger")
    expect(danger).to_contain_text("Changes that cannot be undone")
    plain = gm.locator("form#extend button")
    for action in ("process", "end"):
        button = gm.locator(f"form#{action} button")
        expect(button).to_be_visible()
        assert button.evaluate("b => getComputedStyle(b).backgroundColor") != plain.evaluate(
            "b => getComputedStyle(b).backgroundColor"
        )
        assert "178, 34, 34" in button.evaluate("b => getComputedStyle(b).borderTopColor")
    fits(gm)
    screenshot(gm, "panel")

    # Process now: a question; keeping it changes nothing.
    before = database_rows(live.runtime)
    count = len(sent(live.runtime))
    click(gm, "form#process button")
    expect(gm.locator("h1")).to_have_text(f"Process turn 1 of game {game_id} now?")
    expect(gm.locator(".warning")).to_contain_text("No orders are on file for France, Spain")
    fits(gm)
    screenshot(gm, "process-question")
    click(gm, "#keep")
    assert gm.url == manage
    assert game_row(live, game_id).forced_at is None

    # End: a question; nothing happens before the yes; then the game is over.
    click(gm, "form#end button")
    expect(gm.locator("h1")).to_have_text(f"Really end game {game_id}?")
    expect(gm.locator("form#confirm button")).to_have_text(f"End game {game_id}")
    expect(gm.locator("#keep")).to_have_text("Keep it going")
    fits(gm)
    screenshot(gm, "end-question")
    assert game_row(live, game_id).status == "active"
    # Only the session's count of posts moved (each question was a post): no other row.
    assert unchanged(before, database_rows(live.runtime))
    assert len(sent(live.runtime)) == count
    click(gm, "form#confirm button")
    assert gm.url == manage
    expect(gm.locator(".flash.ok")).to_contain_text("END: done")
    expect(gm.locator("#read-only")).to_be_visible()
    assert game_row(live, game_id).status == "finished"
    fits(gm)
    screenshot(gm, "ended")
    assert watch.dialogs == [] and watch.errors == [], (watch.dialogs, watch.errors)
