"""On a dense screen (two device pixels to a CSS pixel, as on most phones) the browser takes
every map's picture drawn twice the size from its srcset, on a desktop and on a 390 px phone;
a screen of one pixel to a pixel keeps the mail's picture; "full size" opens the large one. No
page scrolls sideways."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import BrowserContext, Page

from browser.conftest import DESKTOP, PHONE, Live
from browser.test_archive_at_a_glance import fits, three_games

Shot = Callable[[Page, str], Path]
KEYS = {"2 de Mayo": "2demayo", "Thermopyles": "thermopyles", "Musket & Pike": "musketpike"}


def chosen(page: Page, selector: str) -> tuple[str, int]:
    """The picture the browser took for the first ``selector`` image, once it has loaded: its
    address (``currentSrc``) and its width in CSS pixels (a 2x picture's pixels, halved)."""
    image = page.locator(selector).first
    image.scroll_into_view_if_needed()
    page.wait_for_function(
        "(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle()
    )
    source = str(image.evaluate("img => img.currentSrc"))
    return source, int(image.evaluate("img => img.naturalWidth"))


def pixels(page: Page, address: str) -> tuple[int, int]:
    """The size of the PNG at ``address``, in image pixels."""
    answer = page.request.get(address)
    assert answer.ok and answer.headers["content-type"] == "image/png", address
    with Image.open(io.BytesIO(answer.body())) as drawn:
        return drawn.size


def reader(contexts: Callable[..., BrowserContext], width: int, density: int) -> Page:
    size = PHONE if width == PHONE["width"] else DESKTOP
    phone = width == PHONE["width"]
    context = contexts(viewport=size, device_scale_factor=density, is_mobile=phone, has_touch=phone)
    # A full-page screenshot at twice the pixels each way takes four times as long to take.
    context.set_default_timeout(10_000 * density**2)
    return context.new_page()


@pytest.mark.parametrize("width", [DESKTOP["width"], PHONE["width"]])
def test_a_dense_screen_takes_the_maps_drawn_twice_the_size(
    live: Live, contexts: Callable[..., BrowserContext], screenshot: Shot, width: int
) -> None:
    games = three_games(live)
    dense, plain = reader(contexts, width, 2), reader(contexts, width, 1)
    for title, game_id in games.items():
        latest = 1 if title == "2 de Mayo" else 0
        # A turn's picture is at the address of what it shows (the API names it).
        turns = dense.request.get(live.at(f"/api/games/{game_id}")).json()["turns"]
        [picture] = [t["picture"] for t in turns if t["number"] == latest and not t["rolled_back"]]
        address = picture.removesuffix(".png")
        base = live.at(address)
        pages = {
            f"/games/{game_id}": "figure.map img",
            f"/games/{game_id}/turns/{latest}": "figure.map img",
        }
        for path, selector in pages.items():
            plain.goto(live.at(path))
            one, one_width = chosen(plain, selector)
            assert one == f"{base}.png", (path, one)
            dense.goto(live.at(path))
            two, two_width = chosen(dense, selector)
            assert two == f"{base}@2x.png", (path, two)
            # Laid out at the mail picture's size, with twice its pixels each way.
            assert two_width == one_width
            (wide, high), (wider, higher) = pixels(dense, one), pixels(dense, two)
            assert (wider, higher) == (2 * wide, 2 * high) and wide == one_width
            fits(dense, path)
        link = dense.get_by_role("link", name="full size").first
        assert link.get_attribute("href") == f"{address}@2x.png"
        screenshot(dense, f"{KEYS[title]}-turn")
        opened = dense.request.get(live.at(link.get_attribute("href") or ""))
        assert opened.ok and opened.headers["content-type"] == "image/png"
    for key in KEYS.values():
        board = live.at(f"/help/{key}/board")
        plain.goto(live.at(f"/help/{key}"))
        assert chosen(plain, "figure.board img")[0] == f"{board}.png"
        dense.goto(live.at(f"/help/{key}"))
        assert chosen(dense, "figure.board img")[0] == f"{board}@2x.png"
        fits(dense, f"/help/{key}")
    screenshot(dense, "help-board")
