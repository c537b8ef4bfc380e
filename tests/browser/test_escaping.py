"""Script payloads in what players control (their names, their orders, their subjects, a game
master's reason) come out inert on every page: shown as text, never run, never a live link."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from playbymail import compose, deliver_mail, gm_command
from playwright.sync_api import Page, expect
from sqlalchemy import select

from adjudicator.models import Game, Player
from browser.conftest import Live, Watch, assert_inert
from browser.playing import (
    FRANCE,
    IMG,
    LINK,
    SCRIPT,
    SPAIN,
    SVG,
    named,
    start_dos,
    start_thermopyles,
)

Shot = Callable[[Page, str], Path]


def inert(page: Page, watch: Watch, url: str) -> None:
    """Open ``url``; nothing the players wrote ran or became markup."""
    response = page.goto(url)
    assert response is not None and response.ok, url
    page.wait_for_load_state("load")
    assert_inert(page, watch, url)


def test_player_names_orders_subjects_and_reasons_stay_text(
    live: Live, page: Page, watch: Watch, screenshot: Shot
) -> None:
    runtime = live.runtime
    # Each player's first mail names them; public pages show that name.
    solo = start_thermopyles(runtime, named(IMG, "p@example.com"), subject=SCRIPT)
    start_thermopyles(runtime, named(SCRIPT, FRANCE), subject=SVG)
    start_thermopyles(runtime, named(SVG, SPAIN), subject=LINK)
    with runtime.db.session() as session:
        names = {p.address: p.name for p in session.scalars(select(Player))}
    assert names == {"p@example.com": IMG, FRANCE: SCRIPT, SPAIN: SVG}
    game_id, addresses = start_dos(runtime)
    # Orders with payload lines around them, then a rollback whose reason is one.
    deliver_mail(
        runtime,
        compose(
            named(SCRIPT, FRANCE),
            addresses[FRANCE],
            f"TAKE MURAT\n16-14 x1\nDRAW\n{SCRIPT}\n{LINK}",
            subject=f"Re: {IMG}",
        ),
    )
    deliver_mail(
        runtime, compose(named(SVG, SPAIN), addresses[SPAIN], f"9-14\nNODRAW\n{SVG}", subject=SVG)
    )
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).status == "active"
    gm_command(runtime, game_id, f"ROLLBACK {LINK} {SVG} {SCRIPT}")

    inert(page, watch, live.at("/"))
    inert(page, watch, live.at(f"/games/{game_id}"))
    players = page.locator("table").first
    expect(players.get_by_role("cell", name=SCRIPT, exact=True)).to_be_visible()
    expect(players.get_by_role("cell", name=SVG, exact=True)).to_be_visible()
    screenshot(page, "game")
    inert(page, watch, live.at(f"/games/{game_id}/turns/1"))
    note = page.locator("#turn-1-rolled-back-1 p.muted").first
    expect(note).to_contain_text(f"Rolled back by the game master: {LINK} {SVG} {SCRIPT}.")
    screenshot(page, "rolled-back")
    inert(page, watch, live.at(f"/games/{solo}"))
    expect(page.get_by_role("cell", name=IMG, exact=True)).to_be_visible()
    for path in (
        f"/games/{game_id}/turns/0",
        f"/games/{game_id}/fairness",
        f"/games/{game_id}/feed.atom",
        f"/api/games/{game_id}",
        f"/api/games/{game_id}/turns/1",
        f"/api/games/{solo}",
        "/api/games",
        "/help",
        "/help/2demayo",
    ):
        inert(page, watch, live.at(path))
    # The checker puts a prefilled order text back in its textarea: no way out of it.
    breakout = f"</textarea>{SCRIPT}{IMG}"
    inert(page, watch, live.at(f"/help/2demayo/check?seat=france&orders={quote(breakout)}"))
    expect(page.locator("textarea#orders")).to_have_value(breakout)
    # The end of the game reveals everything; still nothing runs.
    gm_command(runtime, game_id, "END")
    for path in (f"/games/{game_id}", f"/games/{game_id}/fairness", f"/games/{game_id}/turns/1"):
        inert(page, watch, live.at(path))
    assert re.search(r"finished", page.locator("body").inner_text())
    assert watch.errors == [], watch.errors
