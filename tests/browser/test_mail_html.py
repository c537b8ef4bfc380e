"""The HTML part of a game's mail, read in Chromium as a mail client shows it, on a phone: the
ask comes first, the map's alternative text is one sentence (what it shows, whose turn), the
position in words follows the picture once, and nothing is wider than the screen."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path

from dos_de_mayo_by_mail import FRANCE, SPAIN, start_dos_de_mayo
from playbymail import compose, deliver_mail, html_of, sent
from playwright.sync_api import Page

from adjudicator.services.record.runtime import Runtime

Shot = Callable[[Page, str], Path]
ASK = r"You owe your orders for turn \d|Your orders for turn 1 are on file"


def shown_as_a_client_would(mail: EmailMessage) -> str:
    """The HTML part with each cid: picture inlined from the mail's own image part."""
    html = html_of(mail)
    for part in mail.walk():
        if part.get_content_type() == "image/png":
            cid = str(part["Content-ID"]).strip("<>")
            png = part.get_payload(decode=True)
            assert isinstance(png, bytes)
            data = "data:image/png;base64," + base64.b64encode(png).decode()
            html = html.replace(f"cid:{cid}", data)
    assert "cid:" not in html
    return html


def read_on_a_phone(phone: Page, mail: EmailMessage) -> dict[str, object]:
    phone.set_content(shown_as_a_client_would(mail))
    result: dict[str, object] = phone.evaluate(
        """() => ({
            first: document.querySelector('p').innerText,
            alts: [...document.images].map(image => image.alt),
            loaded: [...document.images].every(image => image.complete && image.naturalWidth > 0),
            widest: Math.max(...[...document.querySelectorAll('body *')].map(
                element => element.getBoundingClientRect().right)),
            text: document.body.innerText,
        })"""
    )
    return result


def test_a_turns_mail_reads_on_a_phone(runtime: Runtime, phone: Page, screenshot: Shot) -> None:
    _, addresses = start_dos_de_mayo(runtime)
    deliver_mail(runtime, compose(SPAIN, addresses[SPAIN], "Hola,\n9-4\n8-7\nDRAW"))
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW"))
    mails = {str(mail["X-Pbem-Kind"]): mail for mail in sent(runtime) if mail["To"] == SPAIN}
    for kind in ("start", "receipt", "report"):
        read = read_on_a_phone(phone, mails[kind])
        screenshot(phone, kind)
        first = str(read["first"])
        assert re.match(ASK, first), (kind, first)
        assert float(str(read["widest"])) <= 390 + 1, (kind, read["widest"])
        alts = [str(alt) for alt in read["alts"]]  # type: ignore[attr-defined]
        if kind == "receipt":
            assert alts == []  # nothing moved: the map is in the mail that has it
            continue
        assert read["loaded"], kind
        [alt] = alts
        # The map every player is shown: Spain's own hand is in the words, not in the picture.
        shared = r"Map of 2 de Mayo after turn \d, as every player sees it; next, [^.]+\."
        assert re.fullmatch(shared, alt)
        # The position in words is in the mail once: after the map, not also inside it.
        assert "Units on the map:" not in alt
        assert str(read["text"]).count("Units on the map:") == 1
