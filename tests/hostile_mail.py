"""Hostile mail for the fuzz of the doors: MIME a careless, broken or malicious sender writes.

Each drawn ``Hostile`` is a whole message (CRLF line endings, as it travels over SMTP), its
envelope, and what the test must expect of it: whether a machine wrote it (so it must never be
answered) and whether a line is longer than SMTP allows. Sizes reach the configured limit and
just past it; parts nest inside parts, deeply at times; charsets are unknown, mislabelled,
UTF-7 or invalid; headers are very long, folded, duplicated, broken encoded words, or missing
(From, Message-ID); transfer encodings are broken; attachments and HTML-only mail come too.
"""

from __future__ import annotations

import base64
import itertools
import quopri
import re
import time
from dataclasses import dataclass

from aiosmtpd.smtp import SMTP
from hypothesis import strategies as st

DOMAIN = "pbem.localhost"
SPARTAN = "leonidas@example.com"
STRANGER = "stranger@example.com"
SERIAL = itertools.count()
# The longest line, CRLF included, the listener takes (RFC 5321 4.5.3.1.6 says 1000; aiosmtpd
# takes one byte more).
SMTP_LINE = SMTP.line_length_limit


@dataclass(frozen=True)
class Hostile:
    raw: bytes
    mail_from: str  # the envelope sender: "<>" is the null sender of bounces and auto-replies
    rcpt: tuple[str, ...]
    automatic: str  # which header says a machine wrote it (never to be answered); "" if none
    null: bool  # sent from the null sender, "<>": a bounce or an auto-reply, never answered

    @property
    def long_line(self) -> bool:
        return any(len(line) + 2 > SMTP_LINE for line in self.raw.split(b"\r\n"))


# Charsets: well known, unknown, misspelt, UTF-7, and a transfer encoding's name by mistake.
CHARSETS = [
    "utf-8", "us-ascii", "iso-8859-1", "windows-1252", "koi8-r", "utf-7", "utf-16", "gb2312",
    "x-unknown", "unknown-8bit", "utf8\"", "", "base64", "iso-2022-jp", "x-mac-klingon",
]  # fmt: skip
ENCODINGS = ["7bit", "8bit", "binary", "quoted-printable", "base64", "x-uuencode", "bogus", ""]
LINES = [
    "STATUS", "HELP", "ORDERS", "WAIT", "NEW THERMOPYLES", "NEW 2DEMAYO", "9-14", "HOLD 15",
    "PREFERENCES LANGUAGE es", "FORMAT TEXT", "JOIN", "> quoted 9-14", "-- ", "ORDERS", "END",
    "On Mon, 4 Mar 2024 at 10:12, Someone <a@b.c> wrote:", "Привет, ¿qué tal?", "x" * 300,
]  # fmt: skip
# (header, value, why it marks the mail as a machine's, "" when it does not)
AUTOMATIC = [
    ("Auto-Submitted", "auto-replied", "Auto-Submitted"),
    ("Auto-Submitted", "auto-generated; owner-email=x@example.com", "Auto-Submitted"),
    ("Precedence", "bulk", "Precedence"),
    ("Precedence", "junk", "Precedence"),
    ("X-Autoreply", "yes", "X-Autoreply"),
    ("X-Autorespond", "", "X-Autorespond"),
    ("List-Id", "<players.example.com>", "List-Id"),
    ("X-Loop", DOMAIN, "X-Loop"),
    ("Return-Path", "<>", "Return-Path"),
    ("Subject", "Out of Office: away until Monday", "Subject"),
    ("Subject", "Automatic reply: orders", "Subject"),
]
PERSON = [("Auto-Submitted", "no", ""), ("Precedence", "first-class", ""), ("X-Mailer", "Mutt", "")]


def crlf(raw: bytes) -> bytes:
    """Line endings as SMTP carries them, ending with one."""
    raw = re.sub(rb"\r\n|\r|\n", b"\r\n", raw)
    return raw if raw.endswith(b"\r\n") else raw + b"\r\n"


def encoded_word(draw: st.DrawFn) -> str:
    """An RFC 2047 encoded word, well formed or not."""
    charset = draw(st.sampled_from(CHARSETS))
    kind = draw(st.sampled_from("QBqbX"))
    word = draw(st.text(alphabet="ABCDEFabcdef0123456789=_?+/ ", max_size=24))
    good = base64.b64encode("Léonidas".encode()).decode()
    return draw(st.sampled_from([f"=?{charset}?{kind}?{word}?=", f"=?utf-8?B?{good}?=", "=?="]))


def header_text(draw: st.DrawFn) -> str:
    """A header value: plain, 8-bit, broken encoded words, very long, or folded."""
    plain = draw(st.text(st.characters(codec="utf-8"), max_size=40))
    options = [
        plain,
        f"{encoded_word(draw)} {plain} {encoded_word(draw)}",
        "orders " * draw(st.integers(100, 600)),  # one very long line
        "\r\n ".join(["folded"] * draw(st.integers(2, 300))),
        plain + "\r\n",  # a line break ending the value: the header block may end here
    ]
    return draw(st.sampled_from(options))


def sender(draw: st.DrawFn) -> list[tuple[str, str]]:
    """The From lines: one, none, two, a group, or something that is no address."""
    who = draw(st.sampled_from([SPARTAN] * 4 + [STRANGER, f"new@{DOMAIN}", f"pbem@{DOMAIN}"]))
    name = draw(st.sampled_from(['"Leonidas"', encoded_word(draw), "Léonidas", "x" * 1500, ""]))
    if draw(st.booleans()):  # a well-formed From half the time, so the mail is read further
        return [("From", draw(st.sampled_from([who, f"{name} <{who}>"])))]
    forms = [
        [("From", who)],
        [("From", f"{name} <{who}>")],
        [("From", f"{who} <{STRANGER}>")],
        [],
        [("From", "")],
        [("From", "<>")],
        [("From", who), ("From", STRANGER)],
        [("From", f"{who}, {STRANGER}")],
        [("From", "undisclosed-recipients:;")],
        [("From", encoded_word(draw))],
    ]
    return draw(st.sampled_from(forms))


def message_ids(draw: st.DrawFn) -> list[tuple[str, str]]:
    unique = f"{next(SERIAL)}.{time.monotonic_ns()}"
    forms = [
        [("Message-ID", f"<{unique}@fuzz>")],
        [],
        [("Message-ID", f"<{unique}a@fuzz>"), ("Message-ID", f"<{unique}b@fuzz>")],
        [("Message-ID", f"<{unique}{'x' * 600}@fuzz>")],
        [("Message-ID", f"no brackets {unique}")],
    ]
    # The serial keeps every example a new mail even without a Message-ID (stored by its hash).
    return [("X-Fuzz-Serial", unique), *draw(st.sampled_from(forms))]


def body_text(draw: st.DrawFn) -> str:
    pieces = draw(st.lists(st.one_of(st.sampled_from(LINES), st.text(max_size=50)), max_size=8))
    return "\n".join(pieces)


def encoded(draw: st.DrawFn, text: str, charset: str, encoding: str) -> bytes:
    """The text in (or wrongly out of) its charset and transfer encoding, at times broken."""
    if draw(st.booleans()):
        data = text.encode(draw(st.sampled_from(["utf-8", "latin-1", "koi8-r"])), "replace")
    else:
        try:
            data = text.encode(charset or "ascii")
        except (LookupError, UnicodeError):
            data = text.encode("utf-8", "surrogatepass")
    if encoding == "base64":
        data = base64.encodebytes(data)
        data = draw(st.sampled_from([data, data[:-3], data.replace(b"=", b""), b"!!" + data]))
    elif encoding == "quoted-printable":
        data = quopri.encodestring(data)
        data = draw(st.sampled_from([data, data + b"=ZZ=", b"=\r\n=0", data.replace(b"=", b"=\n")]))
    if draw(st.booleans()):
        data += draw(st.binary(max_size=12))  # invalid bytes, stray NULs, 8bit in 7bit
    return data


@st.composite
def leaf(draw: st.DrawFn) -> bytes:
    kind = draw(
        st.sampled_from(
            ["text/plain", "text/plain", "text/html", "application/octet-stream", "image/png", ""]
        )
    )
    charset = draw(st.sampled_from(CHARSETS))
    encoding = draw(st.sampled_from(ENCODINGS))
    params = f"; charset={charset}" if charset else ""
    if kind == "text/plain" and draw(st.booleans()):
        params += "; format=flowed; delsp=yes"
    text = body_text(draw)
    if kind == "text/html":
        text = "<html><body><p>" + text.replace("\n", "<br>") + "</p><blockquote><script>x"
    head = f"Content-Type: {kind}{params}\nContent-Transfer-Encoding: {encoding}\n"
    if kind in ("application/octet-stream", "image/png") or draw(st.booleans()):
        filename = draw(st.sampled_from(["orders.txt", encoded_word(draw), "a\u202etxt.exe"]))
        head += f'Content-Disposition: attachment; filename="{filename}"\n'
        if draw(st.booleans()):
            head += "Content-Disposition: inline; filename*=utf-8''%ZZ%\n"
    if kind in ("application/octet-stream", "image/png"):
        body = base64.encodebytes(draw(st.binary(max_size=300)))
    else:
        body = encoded(draw, text, charset, encoding)
    return head.encode("utf-8", "surrogatepass") + b"\n" + body


@st.composite
def part(draw: st.DrawFn, depth: int = 0) -> bytes:
    """A MIME part: a leaf, a multipart of parts, or an attached message."""
    choice = draw(st.integers(0, 5)) if depth < 4 else 5
    if choice == 0:
        inner = draw(part(depth + 1))
        return b"Content-Type: message/rfc822\n\nFrom: someone@example.com\n" + inner
    if choice in (1, 2):
        subtype = draw(st.sampled_from(["mixed", "alternative", "related", "signed", "report"]))
        boundary = f"b{depth}{draw(st.sampled_from(['', '=_x', ' y', '--']))}"
        declared = draw(st.sampled_from([boundary, boundary, "", "other"]))
        children = draw(st.lists(part(depth + 1), max_size=3))
        body = b"".join(b"--" + boundary.encode() + b"\n" + child + b"\n" for child in children)
        if draw(st.booleans()):
            body += b"--" + boundary.encode() + b"--\n"  # else never closed
        head = f'Content-Type: multipart/{subtype}; boundary="{declared}"\n'
        return head.encode() + b"\n" + body
    return draw(leaf())


def deep(levels: int, inner: bytes) -> bytes:
    """``inner`` inside ``levels`` multiparts, each inside the one before."""
    for level in range(levels):
        boundary = f"deep{level}".encode()
        inner = (
            b'Content-Type: multipart/mixed; boundary="' + boundary + b'"\n\n--' + boundary
            + b"\n" + inner + b"\n--" + boundary + b"--\n"
        )  # fmt: skip
    return inner


def padded(raw: bytes, size: int) -> bytes:
    """``raw`` grown with lines of text to exactly ``size`` bytes (as it is when shorter), still
    ending with a line break."""
    need = size - len(raw)
    if need < 3:
        return raw
    lines, rest = divmod(need, 78)
    filler = [b"p" * 76] * lines
    if rest >= 3 or not filler:
        filler.append(b"q" * (rest - 2))
    elif rest:
        filler[-1] += b"p" * rest
    return raw + b"".join(line + b"\r\n" for line in filler)


@st.composite
def hostile(draw: st.DrawFn, seat: str, limit: int) -> Hostile:
    senders = sender(draw)
    headers: list[tuple[str, str]] = []
    to = draw(
        st.sampled_from([seat, f"new@{DOMAIN}", f"help@{DOMAIN}", f"pbem@{DOMAIN}", "", seat])
    )
    headers += [("To", to)] if to else []
    headers += [("Subject", header_text(draw))] * draw(st.integers(0, 2))
    headers += message_ids(draw)
    if draw(st.booleans()):
        headers.append(("MIME-Version", draw(st.sampled_from(["1.0", "2.0", ""]))))
    # From and the signs of a machine come first, so no broken header before them (one whose
    # value ends the header block) hides them in the body; a person's "Auto-Submitted: no" may
    # come before a machine's own.
    signs = draw(st.lists(st.sampled_from(AUTOMATIC + PERSON), max_size=2))
    machine = next((why for _, _, why in signs if why), "")
    order = senders + [(field, value) for field, value, _ in signs]
    order += draw(st.permutations(headers))
    head = "\n".join(f"{field}: {value}" for field, value in order).encode("utf-8", "surrogatepass")
    body = draw(part())
    if draw(st.integers(0, 9)) == 0:
        body = deep(draw(st.integers(20, 120)), body)
    raw = crlf(head + b"\n" + body)
    size = draw(st.sampled_from(["as is", "as is", "limit", "past"]))
    if size == "limit":
        raw = padded(raw, limit - draw(st.integers(0, 40)))
    elif size == "past":
        raw = padded(raw, limit + draw(st.integers(1, 40)))
    null = draw(st.booleans()) and draw(st.booleans())
    rcpt = draw(st.sampled_from([(to or seat,), (f"new@{DOMAIN}",), (seat, f"help@{DOMAIN}")]))
    envelope = "<>" if null else draw(st.sampled_from([SPARTAN, STRANGER]))
    return Hostile(raw, envelope, rcpt, machine, null)
