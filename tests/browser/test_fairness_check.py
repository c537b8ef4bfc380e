"""The fairness page checks a finished game on the reader's own machine: its script fetches the
game's fairness record, hashes the seed against the commitment, derives the v2 key from the seed
and the players' contributions, and draws every die and shuffle again with the browser's Web
Crypto. A game whose record was changed in the database shows the changed die, recorded against
replayed; without JavaScript the server's own check still reads. At desktop and phone width."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dos_de_mayo_by_mail import play_turn_one
from fairness_games import (
    WORDS,
    contributions,
    finished_thermopyles,
    recorded_draws,
    tamper_one_die,
)
from playbymail import gm_command
from playwright.sync_api import BrowserContext, Page, expect

from adjudicator.core.chance import ChanceEvent, Contribution, chance_key, recompute
from adjudicator.models import Game
from browser.conftest import DESKTOP, PHONE, Live, Watch, assert_inert
from browser.playing import start_dos

Shot = Callable[[Page, str], Path]
WIDTHS = {"desktop": {"viewport": DESKTOP}, "phone": {"viewport": PHONE, "is_mobile": True}}


def replayed(live: Live, game_id: int, draw: dict[str, Any]) -> int:
    """What the game's key gives for a die, worked out here, apart from the page."""
    with live.runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        contributions = [Contribution.from_json(data) for data in game.contributions]
        key = chance_key(game.seed, game.chance_scheme, contributions)
        return recompute(key, game.stream, ChanceEvent.from_json(draw))[0]


def opened(context: BrowserContext, live: Live, game_id: int, query: str = "") -> Page:
    page = context.new_page()
    page.goto(live.at(f"/games/{game_id}/fairness{query}"))
    return page


def draws_once_checked(page: Page, verdict: str) -> int:
    """Waits for the page's own check to end in ``verdict`` (good or wrong); the number of draws
    the page lists."""
    verdict_class = re.compile(rf"\b{verdict}\b")
    expect(page.locator("#local-check")).to_have_class(verdict_class, timeout=60_000)
    return page.locator("tr[data-index]").count()


def fits(page: Page, width: int) -> None:
    # Nothing makes the page itself scroll sideways: on a phone each draw is a card.
    scrolled = page.evaluate("document.documentElement.scrollWidth")
    assert scrolled <= width, scrolled


def test_every_draw_is_checked_in_the_browser_and_a_changed_die_is_shown(
    live: Live, contexts: Callable[..., BrowserContext], watch: Watch, screenshot: Shot
) -> None:
    honest = finished_thermopyles(live.runtime, "leonidas@example.com")
    [given] = contributions(live.runtime, honest)
    assert given.words == WORDS
    tampered = finished_thermopyles(live.runtime, "dienekes@example.com")
    contributions(live.runtime, tampered)  # v2 too
    changed = tamper_one_die(live.runtime, tampered)
    truth = replayed(live, tampered, changed)
    assert truth != changed["result"][0]

    for name, options in WIDTHS.items():
        width = options["viewport"]["width"]
        page = opened(contexts(**options), live, honest)
        # The first lines say what the reader can do here.
        expect(page.locator("p.lede")).to_contain_text("The seed is revealed")
        # Every draw the game recorded has its row (a short game may have only a few).
        count = draws_once_checked(page, "good")
        box = page.locator("#local-check")
        assert count == recorded_draws(live.runtime, honest) > 0, count
        expect(box).to_have_text(
            "✓ Checked on your machine: the seed hashes to the commitment, and the key made from"
            f" the seed and 1 player contribution reproduces all {count} recorded draws."
        )
        mine = page.locator("td.local")
        expect(mine.filter(has_text=re.compile(r"^✓ checked on your machine$"))).to_have_count(
            count
        )
        expect(page.locator("tr.mismatch")).to_have_count(0)
        # The player's words are text on the page, never markup.
        expect(page.locator(".contributions code")).to_have_text(given.words)
        assert_inert(page, watch)
        fits(page, width)
        screenshot(page, f"checked-{name}")

        page = opened(contexts(**options), live, tampered)
        count = draws_once_checked(page, "wrong")
        box = page.locator("#local-check")
        expect(box).to_contain_text(f"1 of {count} recorded draws differs from what the key")
        row = page.locator("tr.mismatch")
        expect(row).to_have_count(1)
        expect(row).to_have_attribute("data-label", changed["label"])
        expect(row.locator("td.local .bad")).to_have_text("✗ differs")
        expect(row.locator("td.local .detail")).to_have_text(
            f"recorded {changed['result'][0]}; your machine gives {truth}"
        )
        expect(row.locator('[title="differs"]')).to_have_count(1)  # the server's check agrees
        checked = page.locator("td.local", has_text="✓ checked on your machine")
        expect(checked).to_have_count(count - 1)
        row.scroll_into_view_if_needed()
        fits(page, width)
        screenshot(page, f"tampered-{name}")
    assert watch.errors == [], watch.errors


def test_without_javascript_the_server_s_check_reads(
    live: Live, contexts: Callable[..., BrowserContext], screenshot: Shot
) -> None:
    game_id = finished_thermopyles(live.runtime)
    page = opened(contexts(viewport=PHONE, java_script_enabled=False), live, game_id)
    expect(page.locator("#local-check")).to_contain_text("Your browser runs no script here")
    count = page.locator("tr[data-index]").count()
    expect(page.locator('[title="matches"]')).to_have_count(count)
    expect(page.get_by_text("✓ Confirmed:")).to_be_visible()
    record = page.get_by_role("link", name="record", exact=True)
    expect(record).to_have_attribute("href", f"/api/games/{game_id}/fairness.json")
    fits(page, PHONE["width"])
    screenshot(page, "no-script-phone")


def test_a_game_dealt_from_the_seed_alone_is_checked_too(
    live: Live, contexts: Callable[..., BrowserContext], screenshot: Shot
) -> None:
    """Scheme v1, as every game stored before contributions and every game an operator seats
    directly: the key is the seed itself. A 2 de Mayo game, its decks dealt, one turn played."""
    game_id, addresses = start_dos(live.runtime)
    play_turn_one(live.runtime, addresses)
    gm_command(live.runtime, game_id, "END")
    with live.runtime.db.session() as session:
        assert session.get_one(Game, game_id).chance_scheme == "v1"
    page = opened(contexts(), live, game_id)
    box = page.locator("#local-check")
    expect(box).to_have_class(re.compile(r"\bgood\b"), timeout=60_000)
    count = page.locator("tr[data-index]").count()
    expect(box).to_have_text(
        "✓ Checked on your machine: the seed hashes to the commitment and reproduces all"
        f" {count} recorded draws."
    )
    expect(page.get_by_text("The draws' key is the seed itself (scheme v1).")).to_be_visible()
    expect(page.locator("td.local", has_text="✓ checked on your machine")).to_have_count(count)
    screenshot(page, "v1-desktop")


def test_a_russian_page_checks_in_russian_at_phone_width(
    live: Live, contexts: Callable[..., BrowserContext], watch: Watch, screenshot: Shot
) -> None:
    """Every sentence the page's own check writes comes from the page, in its language: the
    result, each draw's mark, and a changed die recorded against replayed, with the Russian
    plural of the count that differs."""
    honest = finished_thermopyles(live.runtime, "leonidas@example.com")
    contributions(live.runtime, honest)
    tampered = finished_thermopyles(live.runtime, "dienekes@example.com")
    contributions(live.runtime, tampered)
    changed = tamper_one_die(live.runtime, tampered)
    truth = replayed(live, tampered, changed)
    latin = re.compile(r"[A-Za-z]{3,}")

    page = opened(contexts(viewport=PHONE, is_mobile=True), live, honest, "?lang=ru")
    count = draws_once_checked(page, "good")
    expect(page.locator("#local-check")).to_have_text(
        "✓ Проверено на вашем компьютере: хеш зерна совпадает с обязательством, и ключ,"
        " составленный из зерна и 1 вклада игрока, воспроизводит все записанные выборки"
        f" ({count})."
    )
    mine = page.locator("td.local")
    expect(mine.filter(has_text=re.compile(r"^✓ проверено на вашем компьютере$"))).to_have_count(
        count
    )
    assert_inert(page, watch)
    fits(page, PHONE["width"])
    screenshot(page, "checked-phone-ru")

    page = opened(contexts(viewport=PHONE, is_mobile=True), live, tampered, "?lang=ru")
    count = draws_once_checked(page, "wrong")
    box = page.locator("#local-check")
    expect(box).to_have_text(
        f"✗ Ваш компьютер нашёл расхождение: 1 из {count} записанных выборок отличается от того,"
        " что даёт ключ, составленный из зерна и 1 вклада игрока (отмечена ниже)."
    )
    row = page.locator("tr.mismatch")
    expect(row).to_have_count(1)
    expect(row.locator("td.local .bad")).to_have_text("✗ отличается")
    expect(row.locator("td.local .detail")).to_have_text(
        f"записано {changed['result'][0]}; ваш компьютер получает {truth}"
    )
    # The server's own check names the changed die in Russian too.
    expect(page.get_by_text(re.compile(r"записано \d+, ключ даёт \d+$"))).to_have_count(1)
    assert "the key gives" not in page.content()
    # Nothing the script wrote is left in English.
    written = [box.inner_text(), *page.locator("td.local").all_inner_texts()]
    assert [text for text in written if latin.search(text)] == [], written
    row.scroll_into_view_if_needed()
    fits(page, PHONE["width"])
    screenshot(page, "tampered-phone-ru")
    assert watch.errors == [], watch.errors
