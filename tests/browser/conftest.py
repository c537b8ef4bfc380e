"""Browser tests: the real Flask app served on a loopback port from a thread, over the same
database the test plays its games in (PostgreSQL, the service's own), driven by Debian's Chromium
through Playwright. Every screenshot is kept as a test artifact and checked not to be blank."""

from __future__ import annotations

import html
import os
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from empty_tables import emptied
from live_server import Live, serving
from PIL import Image
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Dialog,
    Page,
    Playwright,
    sync_playwright,
)
from werkzeug.serving import make_server

from adjudicator.models import Base
from adjudicator.services.record.runtime import Runtime

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("PBEM_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = Path(os.environ.get("PBEM_ARTIFACTS") or ROOT / "test-artifacts") / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# As root Chromium needs --no-sandbox; the rest keep it from calling out on a closed network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")


@pytest.fixture
def database_url(postgres_url: str) -> str:
    """PostgreSQL alone, not each database in turn as elsewhere: a page reads the same whichever
    database holds the game, and the pages are tested on SQLite too, without a browser
    (tests/test_web*.py, tests/test_archive.py), so a second browser run of each would only
    double the slowest tests of the suite."""
    return emptied(postgres_url)


@pytest.fixture
def live(runtime: Runtime) -> Iterator[Live]:
    """The real app on a free loopback port, its base URL (and so every mailed link) that port."""
    with serving(runtime) as served:
        yield served


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    # CI installs Debian's chromium (./run test): a missing browser is a failure, never a skip.
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package (./run test does)")
    launched = playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )
    yield launched
    launched.close()


@dataclass
class Watch:
    """What the pages of one test did that a test must see: dialogs (alert, confirm, prompt)
    opened by a script, uncaught script errors, and console errors."""

    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)

    def attach(self, context: BrowserContext) -> None:
        context.on("dialog", self._dialog)
        context.on("weberror", lambda error: self.errors.append(str(error.error)))
        context.on("console", self._console)

    def _dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.console.append(message.text)


@pytest.fixture
def watch() -> Watch:
    return Watch()


@pytest.fixture
def contexts(browser: Browser, watch: Watch) -> Iterator[Callable[..., BrowserContext]]:
    """Make browser contexts (each its own cookies) watched by ``watch``; closed after the test."""
    made: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        options.setdefault("viewport", DESKTOP)
        options.setdefault("locale", "en-US")
        context = browser.new_context(**options)
        context.set_default_timeout(10_000)
        watch.attach(context)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


@pytest.fixture
def page(contexts: Callable[..., BrowserContext]) -> Page:
    """A desktop page whose reader is in New York."""
    return contexts(timezone_id="America/New_York").new_page()


@pytest.fixture
def phone(contexts: Callable[..., BrowserContext]) -> Page:
    """A phone-sized touch page, as a reader in Madrid holds it."""
    context = contexts(
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
        timezone_id="Europe/Madrid",
    )
    return context.new_page()


def local_text(moment: datetime, zone: str) -> set[str]:
    """How an en-US browser in ``zone`` may write the moment with the site's <time> format: the
    zone by its abbreviation (EST) or, where en-US has none, by its offset (GMT+1)."""
    local = moment.astimezone(ZoneInfo(zone))
    shown = f"{local:%a}, {local:%b} {local.day}, {local.year}, {local:%I:%M %p}"
    offset = local.utcoffset()
    assert offset is not None
    hours, rest = divmod(int(offset.total_seconds()), 3600)
    gmt = "GMT" + (f"{hours:+d}" if hours else "") + (f":{rest // 60:02d}" if rest else "")
    return {f"{shown} {local.tzname()}", f"{shown} {gmt}"}


def spaced(text: str) -> str:
    """Text with its runs of spaces (ICU writes narrow and no-break ones) as single spaces."""
    return re.sub(r"[\s\u202f\u00a0]+", " ", text).strip()


def assert_not_blank(path: Path) -> None:
    """A screenshot shows something: many distinct colours (text is anti-aliased, maps are drawn),
    and the background colour does not cover all but a sliver of it."""
    with Image.open(path) as opened:
        image = opened.convert("RGB")
    found = image.getcolors(maxcolors=1 << 20)
    assert found is not None
    colours = len(found)
    commonest = max(count for count, _ in found)
    share = commonest / (image.width * image.height)
    assert colours > 32 and share < 0.995, f"{path} looks blank: {colours} colours, {share:.1%}"


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Callable[[Page, str], Path]:
    """Save a full-page screenshot under the artifacts folder and check that it is not blank."""
    test = re.sub(r"[^\w.-]+", "-", request.node.name).strip("-")

    def take(target: Page, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{test}-{name}.png"
        target.screenshot(path=str(path), full_page=True)
        assert_not_blank(path)
        return path

    return take


# Elements a script payload would make if a page let it through as markup.
INJECTED = 'img[src="x"], svg, a[href^="javascript:" i], [onload], [onerror], iframe'


def assert_inert(page: Page, watch: Watch, where: str = "") -> None:
    """Nothing a player wrote ran on the page or became markup: no dialog opened, no global set
    by a payload, no element a payload makes, no page script that is not the site's own."""
    where = where or page.url
    assert page.evaluate("typeof window.__pwned") == "undefined", where
    assert watch.dialogs == [], (where, watch.dialogs)
    assert page.locator(INJECTED).count() == 0, where
    scripts = page.locator("script").all_text_contents()
    assert not any("__pwned" in script or "alert(" in script for script in scripts), where


class Elsewhere:
    """Another origin on this machine (same host, another port, as a page on a neighbouring
    site would be): it serves pages that post a form to the service as soon as they load."""

    def __init__(self) -> None:
        self.pages: dict[str, str] = {}
        self.server = make_server("127.0.0.1", 0, self._serve, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def _serve(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        body = self.pages.get(environ.get("PATH_INFO", ""))
        if body is None:
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not found"]
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
        return [body.encode()]

    def posting(self, action: str, fields: dict[str, str]) -> str:
        """The address of a page that posts ``fields`` to ``action`` when it loads."""
        inputs = "".join(
            f'<input type="hidden" name="{html.escape(name)}" value="{html.escape(value)}">'
            for name, value in fields.items()
        )
        path = f"/page-{len(self.pages)}"
        self.pages[path] = (
            f'<!doctype html><form method="post" action="{html.escape(action)}">{inputs}</form>'
            "<script>document.forms[0].submit()</script>"
        )
        return self.url + path

    def close(self) -> None:
        self.server.shutdown()
        self.thread.join(10)
        self.server.server_close()


@pytest.fixture
def elsewhere() -> Iterator[Elsewhere]:
    other = Elsewhere()
    yield other
    other.close()


def database_rows(runtime: Runtime) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, to show that a page changed nothing."""
    with runtime.db.session() as session:
        return {
            table.name: sorted(
                (tuple(map(repr, row)) for row in session.execute(table.select())), key=repr
            )
            for table in Base.metadata.sorted_tables
        }
