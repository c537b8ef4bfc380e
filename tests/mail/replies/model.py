"""What a reply is made of, before a client writes it: the service mail it answers, the player's
own text (above, below or between the quoted lines), and what the client adds (signature, mobile
footer, disclaimer); and the text shapes every client shares (">" quoting, format=flowed)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
SERVICE = HERE / "service"
SENDER = "pbem@pbem.example"
# The game's reply address, as Reply-To of every service mail names it.
GAME = "orders+1-spain-1-bf8ab23591b94094@pbem.example"


@dataclass(frozen=True)
class Service:
    """A mail the service sent, as its text and HTML parts."""

    key: str
    subject: str
    message_id: str
    text: str
    html: str


@dataclass(frozen=True)
class Reply:
    """One case: who writes, in which language, answering which service mail, and how."""

    name: str
    code: str  # the language's key in languages.toml
    lang: dict[str, Any]
    service: Service
    above: str  # the player's text above the quote (top posting)
    below: str  # the player's text below the quote (bottom posting)
    inline: tuple[tuple[str, str], ...]  # (quoted line it answers, the player's text after it)
    signature: str
    mobile: bool
    disclaimer: bool
    forward: bool
    pasted: str  # a section of the service's text the player pasted into their own, unmarked
    charset: str
    cte: str
    seed: int

    @property
    def player(self) -> str:
        name: str = self.lang["player"][0]
        return name

    def address(self, domain: str) -> str:
        return f"{self.lang['player'][1]}@{domain}"

    def phrase(self, key: str) -> str:
        """A language's wording for this client, with the service's name and address filled in."""
        text: str = self.lang[key]
        return text.replace("{name}", SENDER).replace("{address}", SENDER)

    def footer(self, key: str) -> str:
        """The mobile app's "Sent from" line in this language, when the case says it was sent
        from the app (a missing translation is an error, never a silently absent line)."""
        line: str = self.lang[key] if self.mobile else ""
        return line

    def date(self, zone: str = "", *, pad: bool = False, suffix: str = "") -> str:
        """When the reply was written (a few minutes after the service's mail of 18:37 UTC), in
        ``zone`` (the writer's own when not given), as the client writes the Date field."""
        zone = zone or self.lang["zone"]
        hours = 18 + int(zone[:3])
        minute, second = 40 + self.seed % 19, (self.seed * 7) % 60
        day = "07" if pad else "7"
        if hours >= 24:
            hours, day = hours - 24, "08" if pad else "8"
            weekday = "Tue"
        else:
            weekday = "Mon"
        return f"{weekday}, {day} Dec 2026 {hours:02d}:{minute:02d}:{second:02d} {zone}{suffix}"

    def subject(self, prefix: str = "Re:") -> str:
        return f"{prefix} {self.service.subject}"

    @property
    def ids(self) -> list[tuple[str, str]]:
        """In-Reply-To and References, naming the service's mail."""
        return [("In-Reply-To", self.service.message_id), ("References", self.service.message_id)]

    @property
    def to(self) -> str:
        return GAME


@cache
def languages() -> dict[str, dict[str, Any]]:
    return tomllib.loads((HERE / "languages.toml").read_text("utf-8"))


@cache
def service(key: str) -> Service:
    meta = tomllib.loads((SERVICE / "mails.toml").read_text("utf-8"))[key]
    text = (SERVICE / f"{key}.txt").read_text("utf-8").rstrip("\n")
    html = (SERVICE / f"{key}.html").read_text("utf-8").rstrip("\n")
    return Service(key, meta["subject"], meta["message_id"], text, html)


def section(text: str, heading: str) -> str:
    """The lines of a service mail from ``heading`` to the next blank line."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return "\n".join(lines[start:end])


def marked(text: str, mark: str = ">") -> str:
    """Every line quoted as text clients quote: "> line", and a bare ">" on an empty line."""
    return "\n".join(f"{mark} {line}".rstrip() for line in text.split("\n"))


def answered(text: str, inline: tuple[tuple[str, str], ...]) -> str:
    """The quoted text with the player's answers put in below the lines they answer."""
    lines = [f"> {line}".rstrip() for line in text.split("\n")]
    for after, answer in reversed(inline):
        at = next(i for i, line in enumerate(lines) if line.strip("> ").startswith(after))
        lines[at + 1 : at + 1] = ["", *answer.split("\n"), ""]
    return "\n".join(lines)


def flowed(text: str, *, delsp: bool, width: int = 76) -> str:
    """RFC 3676 as Apple Mail and Thunderbird write it: long lines soft-broken at spaces (a
    trailing space marks the break; with DelSp another one is added and deleted on reading),
    quote depth repeated on each piece, lines that start with a space, ">" or "From " stuffed."""
    out: list[str] = []
    for line in text.split("\n"):
        if line == "-- ":  # the signature separator keeps its space and is never stuffed
            out.append(line)
            continue
        marks = re.match(r">*", line).group(0)  # type: ignore[union-attr]
        content = line[len(marks) :].removeprefix(" ") if marks else line
        lead = f"{marks} " if marks else (" " if content.startswith((" ", ">", "From ")) else "")
        while len(lead) + len(content) > width and " " in content[: width - len(lead)].rstrip():
            cut = content[: width - len(lead)].rstrip().rfind(" ") + 1
            out.append(lead + content[:cut] + (" " if delsp else ""))
            content = content[cut:]
        out.append((lead + content).rstrip() if content.strip() else marks)
    return "\n".join(out)


def html_lines(text: str, wrap: str = "<div>{}</div>") -> str:
    """The player's own text as a webmail's editor writes it: a block per line, <br> when empty."""
    from html import escape

    return "".join(wrap.format(escape(line) if line else "<br>") for line in text.split("\n"))


def html_body(document: str) -> str:
    """The inside of a service HTML mail's <body>, as a client puts it into its quote."""
    found = re.search(r"<body[^>]*>(.*)</body>", document, re.DOTALL | re.IGNORECASE)
    return (found.group(1) if found else document).strip()


def own_blocks(
    reply: Reply, quote: str, *, footer: str = "", delimiter: str = "-- ", always: bool = False
) -> str:
    """The plain text of a reply: the player's text, then what the client adds, around the quote.
    Top posting: own text, signature, footer, disclaimer, then the quote. Bottom posting: any text
    written above, the app's footer where the app put it when the reply was opened (above the
    quote), the quote, then the own text, the signature and the disclaimer."""
    sig = f"{delimiter}\n{reply.signature}" if reply.signature and delimiter else reply.signature
    line = footer if reply.mobile or always else ""
    disclaimer = reply.lang["disclaimer"] if reply.disclaimer else ""
    own = [reply.above, reply.pasted]
    if reply.below:
        blocks = [*own, line, quote, reply.below, sig, disclaimer]
    else:
        blocks = [*own, sig, line, disclaimer, quote]
    return "\n\n".join(block for block in blocks if block) + "\n"


def wrapped(text: str, width: int = 76) -> str:
    """Hard line breaks as Gmail and Yahoo put them into their plain text: a long line is cut at
    its last space (or after the "<" of an address) before ``width``, quote marks repeated."""
    out: list[str] = []
    for line in text.split("\n"):
        marks = re.match(r"(?:> ?)*", line).group(0)  # type: ignore[union-attr]
        while len(line) > width:
            room = line[:width]
            cut = max(room.rfind(" "), room.rfind("<") + 1 if "<" in room else -1)
            if cut <= len(marks):
                break
            out.append(line[:cut].rstrip())
            line = marks + line[cut:].lstrip(" ")
        out.append(line)
    return "\n".join(out)
