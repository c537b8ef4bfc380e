"""A game's page on a 390 px phone whose browser asks for Russian: the page is in Russian (its
headings, the deadline the script writes in the reader's zone), never wider than the screen, and
the footer's switcher turns it and the pages after it into Spanish, or back into English."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from dos_de_mayo_by_mail import play_turn_one
from playwright.sync_api import BrowserContext, expect

from browser.conftest import PHONE, Live, assert_not_blank, phone_page
from browser.playing import start_dos

CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def test_a_game_page_in_russian_on_a_phone_and_the_switcher(
    live: Live, contexts: Callable[..., BrowserContext], tmp_path: Path
) -> None:
    game_id, mailed = start_dos(live.runtime)
    play_turn_one(live.runtime, mailed)
    # The browser's Accept-Language is Russian.
    reader = phone_page(contexts, "Europe/Moscow", locale="ru-RU")
    reader.goto(live.at(f"/games/{game_id}"))
    expect(reader.locator("html")).to_have_attribute("lang", "ru")
    expect(reader.locator("h1")).to_contain_text(f"партия {game_id}")
    expect(reader.locator("main h2").first).to_have_text("Игроки")
    expect(reader.locator("p.next-step")).to_contain_text("Срок приказов")
    # The deadline, rewritten by the script in the reader's zone, in the page's language.
    due = reader.locator("p.next-step time[data-local]")
    expect(due).to_have_attribute("title", re.compile(r"Z$"))
    assert CYRILLIC.search(due.inner_text()), due.inner_text()
    expect(reader.locator("p.next-step")).to_contain_text(re.compile(r"через \d+"))
    # The phone never scrolls sideways, and the switcher's links are big enough to tap.
    assert reader.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    switcher = reader.locator("footer nav.languages a")
    expect(switcher).to_have_text(["English", "español", "русский"])
    for link in switcher.all():
        box = link.bounding_box()
        assert box is not None and box["height"] >= 32, box
    shot = tmp_path / "game-ru-phone.png"
    reader.screenshot(path=str(shot), full_page=True)
    assert_not_blank(shot)
    footer = tmp_path / "game-ru-phone-footer.png"
    reader.locator("footer").screenshot(path=str(footer))

    # The list of games, its rows as cards labelled in Russian, fits the phone too.
    reader.goto(live.at("/"))
    expect(reader.locator("table.games td.deadline")).to_have_attribute("data-label", "Срок")
    assert reader.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    reader.screenshot(path=str(tmp_path / "list-ru-phone.png"), full_page=True)
    reader.go_back()

    # Spanish from the switcher, kept on the pages it leads to.
    reader.locator("footer nav.languages a", has_text="español").click()
    expect(reader.locator("html")).to_have_attribute("lang", "es")
    expect(reader.locator("main h2").first).to_have_text("Jugadores")
    expect(reader.locator('footer a[aria-current="true"]')).to_have_text("español")
    reader.locator(".history a strong").first.click()
    expect(reader).to_have_url(re.compile(rf"/games/{game_id}/turns/\d+$"))
    expect(reader.locator("html")).to_have_attribute("lang", "es")
    expect(reader.locator("h3").first).to_have_text("Órdenes y resultados")
    reader.screenshot(path=str(tmp_path / "turn-es-phone.png"), full_page=True)
    # And English again, as written.
    reader.locator("footer nav.languages a", has_text="English").click()
    expect(reader.locator("html")).to_have_attribute("lang", "en")
    expect(reader.locator("h3").first).to_have_text("Orders and results")
