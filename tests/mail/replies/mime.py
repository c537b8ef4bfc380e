"""The MIME pieces clients write, byte for byte: header fields with RFC 2047 words, bodies in a
charset and a transfer encoding, and multipart containers with the client's own boundary.

Written out by hand rather than with ``email.message``, because each client orders its header
fields, folds them and names its boundaries in its own way, and that is what is being copied.
"""

from __future__ import annotations

import base64
import codecs
import hashlib
import quopri
import re
import unicodedata


def token(seed: str, size: int, alphabet: str = "0123456789abcdef") -> str:
    """A stable pseudo-random string for IDs and boundaries: the same case gives the same bytes."""
    digest = b"".join(hashlib.sha256(f"{seed}/{n}".encode()).digest() for n in range(4))
    return "".join(alphabet[byte % len(alphabet)] for byte in digest[:size])


def ident(seed: str, pattern: str) -> str:
    """A Message-ID or boundary in a client's shape: each {N} in ``pattern`` becomes N stable
    hex digits, {XN} the same in capitals."""
    count = iter(range(100))

    def fill(found: re.Match[str]) -> str:
        made = token(f"{seed}:{next(count)}", int(found.group(2)))
        return made.upper() if found.group(1) else made

    return re.sub(r"\{(X?)(\d+)\}", fill, pattern)


def word(text: str, charset: str = "UTF-8", *, q: bool = False) -> str:
    """A header value as the client encodes it: as is when ASCII, else RFC 2047 encoded words
    (B by most webmails, Q by Outlook and Thunderbird), each at most 75 characters, folded."""
    if text.isascii():
        return text
    try:
        text.encode(charset)
    except UnicodeEncodeError:  # as clients do, a charset that cannot carry the text gives way
        charset = "UTF-8"
    words: list[str] = []
    chunk = ""
    for char in text:
        if len(_encoded(chunk + char, charset, q)) > 75:
            words.append(_encoded(chunk, charset, q))
            chunk = ""
        chunk += char
    words.append(_encoded(chunk, charset, q))
    return "\n ".join(words)


def _encoded(text: str, charset: str, q: bool) -> str:
    data = text.encode(charset, "best-fit")
    if not q:
        return f"=?{charset}?B?{base64.b64encode(data).decode('ascii')}?="
    safe = "".join(
        chr(b) if chr(b).isalnum() and b < 128 else "_" if b == 32 else f"={b:02X}" for b in data
    )
    return f"=?{charset}?Q?{safe}?="


def mailbox(
    name: str, address: str, charset: str = "UTF-8", *, quote: bool = False, q: bool = False
) -> str:
    """``Name <address>``, the name quoted or encoded (B or Q words) as the client does it."""
    shown = f'"{name}"' if quote and name.isascii() else word(name, charset, q=q)
    return f"{shown} <{address}>"


def _best_fit(error: UnicodeError) -> tuple[str, int]:
    """What Windows and older clients put for a character their charset lacks: the letter
    without its accent ("ó" as "o"), else "?". A Russian or Japanese client quoting the
    service's Spanish place names in windows-1251 or ISO-2022-JP loses the accents so."""
    assert isinstance(error, UnicodeEncodeError)
    bad = error.object[error.start : error.end]
    base = "".join(c for c in unicodedata.normalize("NFKD", bad) if not unicodedata.combining(c))
    return (base if base.isascii() and base else "?"), error.end


codecs.register_error("best-fit", _best_fit)


def encode_body(text: str, charset: str, cte: str) -> bytes:
    """The body as the part carries it: base64 in 76-character lines, quoted-printable, or the
    charset's bytes as they are (7bit, 8bit)."""
    data = text.encode(charset, "best-fit")
    if cte == "base64":
        flat = base64.b64encode(data)
        return b"".join(flat[i : i + 76] + b"\n" for i in range(0, len(flat), 76))
    if cte == "quoted-printable":
        return quopri.encodestring(data)
    return data if data.endswith(b"\n") else data + b"\n"


def part(subtype: str, text: str, charset: str, cte: str, params: str = "") -> bytes:
    """One text part: its Content-Type (``params`` as the client adds them, e.g. format=flowed,
    and how it quotes the charset) and Content-Transfer-Encoding, a blank line, the body."""
    head = f"Content-Type: text/{subtype}; charset={charset}{params}\n"
    head += f"Content-Transfer-Encoding: {cte}\n\n"
    return head.encode("ascii") + encode_body(text, charset.strip('"'), cte)


def multipart(boundary: str, *parts: bytes, preamble: str = "") -> bytes:
    """A multipart body (its parts already written) closed by the boundary."""
    out = (preamble + "\n\n").encode("ascii") if preamble else b""
    for body in parts:
        out += f"--{boundary}\n".encode("ascii") + body.rstrip(b"\n") + b"\n\n"
    return out + f"--{boundary}--\n".encode("ascii")


def message(headers: list[tuple[str, str]], body: bytes) -> bytes:
    """Header fields in the client's order, a blank line, the body; LF line ends (the test also
    reads every message with CRLF, as SMTP carries it)."""
    head = "".join(f"{name}: {value}\n" for name, value in headers)
    return head.encode("utf-8") + b"\n" + body
