"""On a phone the game page shows the map as wide as the mail shows it, where its hex labels and
counters read without zooming: the map pans sideways inside its own box (the page does not),
and tapping it opens the picture at full size to zoom."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import BrowserContext, Page

from browser.conftest import DESKTOP, PHONE, Live
from browser.playing import start_musket
from browser.test_archive_at_a_glance import fits

Shot = Callable[[Page, str], Path]
# The mail shows a map in a 720-px box less its border (templates/email/_position.html); the
# Musket & Pike map's hex labels, 14 px in its 1000-px picture, show 10 px high there.
MAILED_WIDTH = 718
LABEL, PICTURE = 14, 1000
LEGIBLE = 10


def shown(page: Page) -> dict[str, float]:
    """The map's laid-out width, its box's width and how far that box scrolls, in CSS pixels."""
    image = page.locator("figure.map img").first
    image.scroll_into_view_if_needed()
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=image.element_handle()
    )
    found: dict[str, float] = image.evaluate(
        """img => {
            const box = img.closest('figure.map').querySelector('.pan');
            return {
                width: img.getBoundingClientRect().width,
                box: box ? box.clientWidth : 0,
                scrolls: box ? box.scrollWidth - box.clientWidth : 0,
            };
        }"""
    )
    return found


def test_the_map_on_a_phone_is_as_wide_as_the_mail_shows_it_and_pans_inside_its_box(
    live: Live, contexts: Callable[..., BrowserContext], screenshot: Shot
) -> None:
    game_id, _ = start_musket(live.runtime)
    phone = contexts(
        viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2
    ).new_page()
    desktop = contexts(viewport=DESKTOP).new_page()
    for path in (f"/games/{game_id}", f"/games/{game_id}/turns/0"):
        phone.goto(live.at(path))
        seen = shown(phone)
        assert seen["width"] >= MAILED_WIDTH, (path, seen)
        assert LABEL * seen["width"] / PICTURE >= LEGIBLE
        # The map pans inside its box, on the screen; the page itself never scrolls sideways.
        assert seen["box"] <= PHONE["width"] and seen["scrolls"] > 0, (path, seen)
        fits(phone, path)
        # Tapping the map opens it at full size, to zoom.
        link = phone.locator("figure.map a:has(img)").first
        full = link.get_attribute("href") or ""
        assert full.endswith("@2x.png")
        answer = phone.request.get(live.at(full))
        assert answer.ok and answer.headers["content-type"] == "image/png"
        # A desktop lays the map out whole, within the page's column, as before.
        desktop.goto(live.at(path))
        wide = shown(desktop)
        assert wide["scrolls"] == 0 and wide["width"] <= DESKTOP["width"]
        fits(desktop, path)
    phone.goto(live.at(f"/games/{game_id}"))
    phone.locator("figure.map .pan").first.evaluate("box => { box.scrollLeft = 200; }")
    screenshot(phone, "musket-map-phone")
