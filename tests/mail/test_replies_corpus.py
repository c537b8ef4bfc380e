"""Replies as each mail client writes them, in the languages players write in: what is read.

Every ``replies/NAME.eml`` is built by ``replies/build.py`` from a case of ``replies/cases.toml``
the way its client builds it (header fields, MIME structure, charset, transfer encoding, quote
style, HTML wrapper) around a mail the service really sent, with the orders that mail lists.
``NAME.expected.json`` holds the exact lines the order parser must get (the player's own, never
quoted, pasted or added by the client) and whether the reader must be in doubt.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from replies import build

from adjudicator.mail import extract
from adjudicator.mail.inspect import inspect
from adjudicator.mail.reading import MailIn, read

REPLIES = Path(__file__).parent / "replies"
DOMAIN, SECRET = "pbem.example", "corpus-secret"
CASES = {case["name"]: case for case in build.cases()}
NAMES = sorted(CASES)
# The clients and languages every release must read right (the shapes are in build.SHAPES).
CLIENTS = {
    "gmail_web", "gmail_android", "gmail_ios", "outlook_desktop", "outlook_web", "apple_mail",
    "iphone", "thunderbird", "yahoo", "zoho", "yandex", "mailru", "gmx", "proton", "k9",
    "samsung", "reply_message", "horde", "zimbra", "seznam", "libero", "wp", "qq", "netease",
    "naver", "becky",
}  # fmt: skip
LANGUAGES = {
    "en", "de", "fr", "es", "it", "pt-PT", "pt-BR", "nl", "sv", "da", "no", "fi", "pl", "cs",
    "hu", "ro", "el", "bg", "ru", "uk", "tr", "ar", "he", "zh", "ja", "ko", "id",
}  # fmt: skip


def expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((REPLIES / f"{name}.expected.json").read_text("utf-8"))
    return data


@cache
def built(name: str) -> tuple[bytes, str]:
    return build.build(CASES[name])


def test_the_corpus_is_broad() -> None:
    assert len(NAMES) >= 150
    assert {case["lang"] for case in CASES.values()} >= LANGUAGES
    assert len({case["lang"] for case in CASES.values()}) >= 25
    assert {case["client"] for case in CASES.values()} >= CLIENTS
    shapes = [build.shapes(case) for case in CASES.values()]
    for shape in build.SHAPES:
        assert sum(shape in found for found in shapes) >= 3, shape
    assert any(case.get("doubt") for case in CASES.values())
    charsets = {case.get("charset") for case in CASES.values()}
    assert {"windows-1251", "koi8-r", "iso-2022-jp", "gb2312"} <= charsets


def test_the_committed_files_are_what_the_builder_makes() -> None:
    on_disk = {path.name.removesuffix(".eml") for path in REPLIES.glob("*.eml")}
    answers = {path.name.removesuffix(".expected.json") for path in REPLIES.glob("*.json")}
    assert on_disk == answers == set(NAMES)
    for name in NAMES:
        raw, answer = built(name)
        assert (REPLIES / f"{name}.eml").read_bytes() == raw, f"{name}: run python -m replies.build"
        assert (REPLIES / f"{name}.expected.json").read_text("utf-8") == answer, name


@pytest.mark.parametrize("line_ending", ["lf", "crlf"])
@pytest.mark.parametrize("name", NAMES)
def test_reply_yields_exactly_the_players_lines(name: str, line_ending: str) -> None:
    raw = (REPLIES / f"{name}.eml").read_bytes()
    if line_ending == "crlf":  # as it travels over SMTP
        raw = raw.replace(b"\n", b"\r\n")
    want = expected(name)

    found = inspect(raw, DOMAIN, SECRET)

    assert found["kind"] == want["kind"], found
    assert found["sender"] == want["sender"]
    assert found["route"]["to"] is not None and found["route"]["to"].endswith("@" + DOMAIN)
    assert found["lines"] == want["lines"]


@pytest.mark.parametrize("name", NAMES)
def test_reply_is_read_in_doubt_exactly_when_it_must_be(name: str) -> None:
    mail = read((REPLIES / f"{name}.eml").read_bytes())
    assert isinstance(mail, MailIn)

    own = extract.own_text(mail.text)

    assert (own.doubt.value if own.doubt else None) == expected(name)["doubt"]
