"""The help pages in the browser: each game's board is shown, whole, at the top of its page,
and a phone reads the page without scrolling sideways."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from browser.conftest import Live

Shot = Callable[[Page, str], Path]


@pytest.mark.parametrize("key", ["2demayo", "musketpike"])
def test_the_help_page_shows_the_board(
    live: Live, page: Page, phone: Page, screenshot: Shot, key: str
) -> None:
    for reader, name in ((page, "desktop"), (phone, "phone")):
        reader.goto(live.at(f"/help/{key}"))
        board = reader.locator("figure.board img")
        expect(board).to_be_visible()
        assert board.evaluate("img => img.complete && img.naturalWidth") >= 600
        wide, view = reader.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
        assert wide <= view, f"{key} on the {name} scrolls sideways: {wide} > {view}"
        screenshot(reader, f"{key}-{name}")
