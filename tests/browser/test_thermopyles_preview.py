"""The order checker draws a checked Thermopyles action on the battle line beside the receipt:
the cards a fight would meet and the support it spends, or the marker's step back, before the
mail is sent."""

from __future__ import annotations

import base64
import io
from collections.abc import Callable
from pathlib import Path

from PIL import Image
from playwright.sync_api import Page, expect

from browser import test_order_preview as order_preview
from browser.conftest import Live

Shot = Callable[[Page, str], Path]


def check(page: Page, orders: str) -> bytes:
    """Check ``orders`` and give the preview picture the page shows, as PNG bytes."""
    png = base64.b64decode(order_preview.check(page, orders).split(",", 1)[1])
    with Image.open(io.BytesIO(png)) as drawn:
        assert drawn.width >= 700  # the whole battle line, as the turn mail draws it
    return png


def test_the_checker_draws_the_action_on_the_battle_line(
    live: Live, page: Page, screenshot: Shot
) -> None:
    page.goto(live.at("/help/thermopyles/check"))
    fight = check(page, "FIGHT 17 SUPPORT 1")
    screenshot(page, "fight")
    retreat = check(page, "RETREAT")
    screenshot(page, "retreat")
    assert fight != retreat, "another action, the same picture"
    # The same action draws the same picture: it shows the orders, not the moment.
    assert check(page, "FIGHT 17 SUPPORT 1") == fight
    # An order refused draws nothing.
    page.locator("textarea#orders").fill("FIGHT 99")
    with page.expect_navigation():
        page.get_by_role("button", name="Check").click()
    expect(page.locator("#receipt")).to_be_visible()
    expect(page.locator("figure.preview")).to_have_count(0)
