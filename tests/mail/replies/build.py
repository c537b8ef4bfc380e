"""Write the reply corpus: each case of cases.toml, written the way its client writes it, as
NAME.eml, and what must be read from it as NAME.expected.json.

    python -m replies.build        (from tests/mail)

The test (tests/mail/test_replies_corpus.py) builds every case again and compares the bytes, so
the committed files are always what this builder makes.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from email.parser import BytesHeaderParser
from email.policy import default
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a file: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "replies"

from . import apps, europe, regional, webmail
from .model import HERE, Reply, languages, section, service

Writer = Callable[[Reply], bytes]


@dataclass(frozen=True)
class Client:
    """A mail client: how it writes a reply, whether the mail carries HTML, and whether its
    signature stands after a "-- " line (only such a signature is not the player's text)."""

    label: str
    write: Writer
    html: bool
    delimits_signature: bool


CLIENTS: dict[str, Client] = {
    "gmail_web": Client("Gmail web", webmail.gmail_web, True, True),
    "gmail_android": Client("Gmail Android", webmail.gmail_android, True, True),
    "gmail_ios": Client("Gmail iOS", webmail.gmail_ios, True, True),
    "outlook_desktop": Client("Outlook for Windows", webmail.outlook_desktop, True, False),
    "outlook_web": Client("Outlook on the web / Hotmail", webmail.outlook_web, True, False),
    "yahoo": Client("Yahoo Mail", webmail.yahoo, True, False),
    "zoho": Client("Zoho Mail", webmail.zoho, True, False),
    "proton": Client("Proton Mail", webmail.proton, True, False),
    "yandex": Client("Yandex Mail", regional.yandex, True, True),
    "mailru": Client("Mail.ru", regional.mailru, True, True),
    "gmx": Client("GMX / web.de", regional.gmx, True, False),
    "qq": Client("QQ Mail", regional.qq, True, False),
    "netease": Client("NetEase 163 Mail", regional.netease, True, True),
    "naver": Client("Naver Mail", regional.naver, True, False),
    "zimbra": Client("Zimbra", europe.zimbra, True, True),
    "seznam": Client("Seznam Email", europe.seznam, True, False),
    "libero": Client("Libero Mail", europe.libero, False, False),
    "wp": Client("Poczta WP", europe.wp, False, True),
    "becky": Client("Becky! Internet Mail", regional.becky, False, True),
    "apple_mail": Client("Apple Mail macOS", apps.apple_mail, True, False),
    "iphone": Client("Apple Mail iPhone", apps.iphone, False, False),
    "thunderbird": Client("Thunderbird", apps.thunderbird, False, True),
    "thunderbird_html": Client("Thunderbird (HTML)", apps.thunderbird_html, True, True),
    "k9": Client("K-9 Mail / Thunderbird for Android", apps.k9, False, True),
    "samsung": Client("Samsung Email", apps.samsung, True, False),
    "horde": Client("Horde", apps.horde, False, True),
    "reply_message": Client("-----Reply Message----- apps", apps.reply_message, False, False),
}
SHAPES = ("top", "bottom", "inline", "forward", "signature", "disclaimer", "mobile", "html")
SHAPES += ("pasted-service-text",)


def cases() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = tomllib.loads((HERE / "cases.toml").read_text("utf-8"))["case"]
    return found


def _fill(text: str, lang: dict[str, Any]) -> str:
    """The player's words: {hello}, {thanks}, {closing} and {first} in the case's language."""
    for key in ("hello", "thanks", "closing"):
        text = text.replace("{" + key + "}", lang[key])
    return text.replace("{first}", lang["player"][0].split()[0]).strip("\n")


def reply_of(case: dict[str, Any]) -> Reply:
    lang = languages()[case["lang"]]
    mail = service(case.get("service", "turn_en"))
    pasted = case.get("pasted", "")
    return Reply(
        name=case["name"],
        code=case["lang"],
        lang=lang,
        service=mail,
        above=_fill(case.get("above", ""), lang),
        below=_fill(case.get("below", ""), lang),
        inline=tuple((after, _fill(text, lang)) for after, text in case.get("inline", [])),
        signature=_fill(case.get("signature", ""), lang),
        mobile=case.get("mobile", False),
        disclaimer=case.get("disclaimer", False),
        forward=case.get("forward", False),
        pasted=section(mail.text, pasted) if pasted else "",
        charset=case.get("charset", ""),
        cte=case.get("cte", ""),
        seed=int(hashlib.sha256(case["name"].encode()).hexdigest(), 16) % 997,
    )


def shapes(case: dict[str, Any]) -> set[str]:
    """What kind of reply a case is, from its data: where the player wrote, what was added."""
    found = {
        key for key in ("inline", "forward", "signature", "disclaimer", "mobile") if case.get(key)
    }
    if case.get("below"):
        found.add("bottom")
    elif case.get("above") and not case.get("inline"):
        found.add("top")
    if CLIENTS[case["client"]].html:
        found.add("html")
    if case.get("pasted"):
        found.add("pasted-service-text")
    return found


def expected(case: dict[str, Any], reply: Reply, raw: bytes) -> dict[str, Any]:
    """What must be read: the player's own lines, nothing quoted, pasted or added by the client
    (a signature after "-- ", a mobile footer, a disclaimer), and whether the reader must doubt."""
    client = CLIENTS[case["client"]]
    if reply.signature and not client.delimits_signature:
        raise ValueError(f"{reply.name}: {client.label} writes no '-- ' before a signature")
    own = [reply.above, *(text for _, text in reply.inline), reply.below]
    if reply.charset:  # what the player wrote must survive the charset, or the case is wrong
        "\n".join(own).encode(reply.charset)
    lines = case.get("lines") or [
        line.rstrip() for block in own for line in block.split("\n") if line.strip()
    ]
    headers = BytesHeaderParser(policy=default).parsebytes(raw)
    return {
        "kind": "orders/commands",
        "sender": headers["From"].addresses[0].addr_spec.lower(),
        "client": client.label,
        "language": reply.lang["language"],
        "shapes": sorted(shapes(case)),
        "lines": lines,
        "doubt": case.get("doubt"),
    }


def build(case: dict[str, Any]) -> tuple[bytes, str]:
    """One case's message bytes and its expectation as the JSON text written beside it."""
    reply = reply_of(case)
    raw = CLIENTS[case["client"]].write(reply)
    answer = json.dumps(expected(case, reply, raw), ensure_ascii=False, indent=2) + "\n"
    return raw, answer


def main() -> None:
    names = set()
    for case in cases():
        raw, answer = build(case)
        (HERE / f"{case['name']}.eml").write_bytes(raw)
        (HERE / f"{case['name']}.expected.json").write_text(answer, "utf-8")
        names.add(case["name"])
    for stale in HERE.glob("*.eml"):
        if stale.stem not in names:
            stale.unlink()
            stale.with_suffix(".expected.json").unlink(missing_ok=True)
    print(f"{len(names)} replies written to {HERE}")


if __name__ == "__main__":
    main()
