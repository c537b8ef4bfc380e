"""Turn the raw bytes of an inbound mail into a MailIn value, or say why they are not a mail.

Whatever arrives was already stored raw, so reading must never raise: a message we cannot read
becomes an Unreadable with a reason a person can act on. Mail clients lie about charsets and
mangle structure; everything here falls back rather than fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import errors
from email.header import decode_header, make_header
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.policy import default as default_policy
from email.utils import getaddresses
from html.parser import HTMLParser

from adjudicator import limits
from adjudicator.core import said
from adjudicator.mail import extract
from adjudicator.mail.automatic import automatic_reason
from adjudicator.mail.header_bounds import short_headers


@dataclass(frozen=True)
class MailIn:
    """An inbound mail reduced to what the pipeline needs; the raw bytes stay in storage."""

    message_id: str | None  # as in the header, with angle brackets
    sender: str  # bare address from From, lower-cased
    sender_name: str
    recipients: tuple[str, ...]  # To, Cc, Delivered-To, X-Original-To: bare, lower-cased, unique
    subject: str  # RFC 2047 decoded
    text: str  # text/plain preferred; HTML converted to text when it is all there is
    in_reply_to: str | None
    references: tuple[str, ...]
    automatic: str | None  # why no person wrote it (auto-reply, bounce, list, loop); None: one did
    # Why From does not name exactly one mailbox in exactly one field (two fields, a list, a
    # group); None when it does. ``sender`` is then only the first mailbox named: the pipeline
    # acts on nothing in such a mail and only tells that address why.
    several_senders: str | None = None
    # The first language the Content-Language header names ("ru" of "ru-RU, en"), lower-cased;
    # "" when it names none. A guess at the reader's language, never a choice they made.
    language: str = ""


@dataclass(frozen=True)
class Unreadable:
    """Bytes that are not a mail we can act on, and why; ``bug`` when it is the parser that
    failed (a fix may read them later), not the bytes that are no mail (nothing ever will)."""

    reason: str
    bug: bool = False


_RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To")
# Lines that may open a MIME boundary. The standard library's parser spends about a millisecond
# on each part and time growing with the square of the nesting depth, so a 300 KB mail of
# 5000 empty parts (or 800 nested ones) would hold a worker for seconds; past this many such
# lines the rest of the message is not read (the raw bytes stay stored whole).
MAX_BOUNDARY_LINES = 200
_BOUNDARY_LINE = re.compile(rb"^--", re.MULTILINE)
# A Content-Type header, in the message's head or a part's: every container the parser goes
# into (multipart/*, message/*) has one, so counting them bounds how deep it goes
# (``limits.MAIL_PARTS``), whatever the value says or however it is folded.
_CONTENT_TYPE = re.compile(rb"^content-type:", re.MULTILINE | re.IGNORECASE)
# An angle-addr, the mailbox a mail program shows and replies to in "Name <a@b>".
_ANGLE_ADDR = re.compile(r"<\s*([^<>\s@]+@[^<>\s@]+)\s*>")
_MESSAGE_ID = re.compile(r"<[^<>\s]+>")
# Control characters are never part of an address; a "bare address" here is also one that can be
# written back into a reply, so raw 8-bit bytes are decoded first (see _clean), never passed on.
_ADDRESS = re.compile(r"[^@\s\x00-\x1f\x7f]+@[^@\s\x00-\x1f\x7f]+")


def read(raw: bytes) -> MailIn | Unreadable:
    """Parse raw message bytes; never raises, whatever the input."""
    try:
        return _read(raw)
    except Exception as exc:  # the promise is "never raise": any parser bug becomes a reason
        return Unreadable(f"could not parse the message ({type(exc).__name__})", bug=True)


def _read(raw: bytes) -> MailIn | Unreadable:
    if not isinstance(raw, bytes | bytearray):
        return Unreadable("not bytes")
    if not raw.strip():
        return Unreadable("empty message")
    header_block = re.split(rb"\r?\n\r?\n", bytes(raw), maxsplit=1)[0]
    if b"\x00" in header_block:
        return Unreadable("binary data, not a mail message")
    msg = BytesParser(policy=default_policy).parsebytes(bounded(short_headers(bytes(raw))))
    if not msg.keys():
        return Unreadable("no header block: not a mail message")
    senders = _sender(msg)
    if isinstance(senders, Unreadable):
        return senders
    sender_name, sender = senders
    recipients: dict[str, None] = {}
    for name in _RECIPIENT_HEADERS:
        for _, address in _addresses(msg, name):
            recipients.setdefault(address)
    references = _header(msg, "References") or ""
    return MailIn(
        message_id=_first_id(_header(msg, "Message-ID")),
        sender=sender,
        sender_name=sender_name,
        recipients=tuple(recipients),
        subject=limits.bounded(_header(msg, "Subject") or "", limits.SUBJECT_LENGTH),
        text=_body_text(msg),
        in_reply_to=_first_id(_header(msg, "In-Reply-To")),
        references=tuple(_usable_ids(_MESSAGE_ID.findall(references))),
        automatic=automatic_reason(msg),
        several_senders=_several_senders(msg),
        language=_language(msg),
    )


def bounded(raw: bytes) -> bytes:
    """The message as far as the parser reads it: cut before its MAX_BOUNDARY_LINES+1-th line
    opening with "--" and before its ``limits.MAIL_PARTS``+1-th Content-Type header, if any.
    The standard library's parser recurses once for each part nested in another: a thousand
    nested message/rfc822 parts (30 KB, no boundary at all) reach Python's recursion limit."""
    for pattern, most in ((_BOUNDARY_LINE, MAX_BOUNDARY_LINES), (_CONTENT_TYPE, limits.MAIL_PARTS)):
        for count, found in enumerate(pattern.finditer(raw), start=1):
            if count > most:
                raw = raw[: found.start()]
                break
    return raw


# --- headers ---------------------------------------------------------------------------------


def _language(msg: Message) -> str:
    """The mail's Content-Language, from its headers or else its first text part's."""
    found = _header(msg, "Content-Language") or ""
    if not found and msg.is_multipart():
        part = next((p for p in msg.walk() if p.get_content_type() == "text/plain"), None)
        found = str(part.get("Content-Language") or "") if part is not None else ""
    first = _one_line(found).split(",")[0].strip().lower()
    return first if re.fullmatch(r"[a-z]{1,8}(-[a-z0-9]{1,8})*", first) else ""


def _one_line(text: str) -> str:
    """A header value as one line: a CR or LF that decoding brought in (an encoded word can
    hold any byte) must never reach a header the service writes, such as "Re: <subject>"."""
    return " ".join(text.split())


def _sender(msg: Message) -> tuple[str, str] | Unreadable:
    """(display name, address) of the From line; it must name one mailbox unambiguously.

    "a@b <c@d>" is not valid, and the standard library reads a@b where mail programs, and
    the provider that signed the mail, take c@d: the angle-addr, when there is exactly one, is
    the sender, so the From a provider vouched for is the one the service acts on."""
    senders = _addresses(msg, "From")
    raw = next((str(v) for k, v in msg.raw_items() if k.lower() == "from"), "")
    try:
        defects = list(getattr(msg.get("From"), "defects", ()))
    except Exception:  # a From the parser cannot even build: read as the raw text below
        defects = [errors.InvalidHeaderDefect("unparsable")]
    if raw and any(isinstance(defect, errors.InvalidHeaderDefect) for defect in defects):
        angles = {a.lower() for a in _ANGLE_ADDR.findall(_decode_words(raw))}
        if len(angles) == 1:
            address = angles.pop()
            if _ADDRESS.fullmatch(address):
                return "", address
        if senders and (len(senders) != 1 or len(getaddresses([raw])) != 1):
            return Unreadable("the From line does not name one clear address")
    if not senders:
        return Unreadable("no From address")
    name, address = senders[0]
    return limits.name(name), address


def _several_senders(msg: Message) -> str | None:
    """Why the From field does not name one mailbox, or None when it does (RFC 5322 allows one
    From field; a list of several authors, or a group, names no single person to act for).
    The reason is a sentence of core.said, made in English: the answer to the sender writes it
    anew in theirs."""
    fields = sum(1 for key, _ in msg.raw_items() if key.lower() == "from")
    with said.spoken(said.SOURCE):
        if fields > 1:
            return said.ngettext(
                "the mail has %(num)s From line", "the mail has %(num)s From lines", fields
            )
        try:
            header = msg.get("From")
            groups = [group for group in getattr(header, "groups", ()) if group.display_name]
            mailboxes = len(getattr(header, "addresses", ()))
        except Exception:  # a From the parser cannot build was judged by _sender already
            return None
        if groups:
            return said._("its From line names a group of addresses")
        if mailboxes > 1:
            return said.ngettext(
                "its From line names %(num)s address",
                "its From line names %(num)s addresses",
                mailboxes,
            )
    return None


def _header(msg: Message, name: str) -> str | None:
    """The decoded header value; falls back to the raw text when the parser chokes on it."""
    try:
        value = msg.get(name)
        return None if value is None else _clean(str(value))
    except Exception:
        raw = next((v for k, v in msg.raw_items() if k.lower() == name.lower()), None)
        return None if raw is None else _decode_words(raw)


def _addresses(msg: Message, name: str) -> list[tuple[str, str]]:
    """(display name, bare lower-cased address) for each real address in every `name` header."""
    pairs: list[tuple[str, str]] = []
    try:
        for value in msg.get_all(name) or []:
            parsed = getattr(value, "addresses", None)
            if parsed is not None:
                pairs.extend((a.display_name, a.addr_spec) for a in parsed)
            else:  # Delivered-To and X-Original-To are unstructured to the stdlib
                pairs.extend(getaddresses([str(value)]))
    except Exception:
        raws = [v for k, v in msg.raw_items() if k.lower() == name.lower()]
        pairs = [(_decode_words(n), a) for n, a in getaddresses(raws)]
    cleaned = [
        (_clean(display).strip(), _clean(address).strip().lower()) for display, address in pairs
    ]
    return [(display, address) for display, address in cleaned if _ADDRESS.fullmatch(address)]


def _first_id(value: str | None) -> str | None:
    if value is None:
        return None
    found = _MESSAGE_ID.search(value)
    if found:
        return next(iter(_usable_ids([found.group(0)])), None)
    bare = value.strip()
    # Some clients drop the angle brackets; an id is still an id.
    if bare and not any(c.isspace() for c in bare):
        return next(iter(_usable_ids([f"<{bare}>"])), None)
    return None


def _usable_ids(ids: list[str]) -> list[str]:
    """The ids short enough to keep and write back (limits.MESSAGE_ID_LENGTH), at most the
    last 20 of them: a 50 KB id is no one's words for the dice, nor a header of the answer."""
    return [found for found in ids if len(found) <= limits.MESSAGE_ID_LENGTH][-20:]


def _decode_words(value: str) -> str:
    try:
        return _clean(str(make_header(decode_header(value))))
    except Exception:
        return _clean(value)


def _clean(text: str) -> str:
    """Undo the parser's surrogate escapes (raw 8-bit or unknown charsets): utf-8, else cp1252."""
    if not any("\udc80" <= char <= "\udcff" for char in text):
        return _no_controls(text)
    try:
        data = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return _no_controls(text.encode("utf-8", "replace").decode("utf-8"))
    return _no_controls(_decode(data, None))


# C0 controls but tab, newline and carriage return: no person types them, they mean nothing to
# a parser, and PostgreSQL refuses NUL in text columns, which would park the mail as an error.
_CONTROLS = dict.fromkeys(i for i in range(32) if chr(i) not in "\t\n\r")


def _no_controls(text: str) -> str:
    return text.translate(_CONTROLS)


# --- body ------------------------------------------------------------------------------------


def _body_text(msg: EmailMessage) -> str:
    plain = _body(msg, "plain")
    text = _part_text(plain) if plain is not None else ""
    if not text.strip():
        # Some clients send an empty text/plain beside the real HTML; the HTML is then the mail.
        html = _body(msg, "html")
        if html is not None:
            text = html_to_text(_part_text(html), extract.MAX_LINES)
    return text


def _body(msg: EmailMessage, subtype: str) -> Message | None:
    """The text/<subtype> part a mail program would show. The standard library's search raises
    on a multipart/related whose boundary is never found (its text is taken for a list of
    parts: AttributeError); the first such part that is no attachment is then the body."""
    try:
        return msg.get_body(preferencelist=(subtype,))
    except Exception:
        wanted = f"text/{subtype}"
        return next(
            (p for p in msg.walk() if p.get_content_type() == wanted and not _attached(p)), None
        )


def _attached(part: Message) -> bool:
    return str(part.get("Content-Disposition", "")).split(";")[0].strip().lower() == "attachment"


def _part_text(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    text = _no_controls(_decode(payload, part.get_content_charset()))
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if part.get_content_type() == "text/plain":
        params = {k.lower(): str(v).lower() for k, v in part.get_params() or []}
        if params.get("format") == "flowed":
            text = unflow(text, delsp=params.get("delsp") == "yes")
    return text


# Labels that mean Windows-1252 in practice (as browsers treat them): Outlook's "smart quotes"
# arrive declared as ISO-8859-1 and would otherwise become control characters.
_CP1252_LABELS = frozenset({"iso-8859-1", "iso8859-1", "latin-1", "latin1", "l1", "cp819"})


def _decode(data: bytes, declared: str | None) -> str:
    """Bytes to text: the declared charset, then utf-8, then cp1252 with replacement."""
    candidates = []
    if declared:
        candidates.append("cp1252" if declared.strip().lower() in _CP1252_LABELS else declared)
    candidates.append("utf-8")
    for charset in candidates:
        try:
            return data.decode(charset)
        except Exception:  # unknown, misspelt or non-text codecs: try the next guess
            continue
    return data.decode("cp1252", errors="replace")


def unflow(text: str, *, delsp: bool) -> str:
    """Undo RFC 3676 format=flowed: join soft-broken lines (trailing space), keep quote depth."""
    out: list[str] = []
    pending: str | None = None
    pending_depth = 0
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        content = content.removeprefix(" ")  # space-stuffing
        flowed = content.endswith(" ") and content != "-- "
        if flowed and delsp:
            content = content[:-1]
        if pending is not None and depth != pending_depth:
            out.append(_quote_prefix(pending_depth) + pending)  # broken flow: keep, don't merge
            pending = None
        pending = content if pending is None else pending + content
        pending_depth = depth
        if not flowed:
            out.append(_quote_prefix(depth) + pending)
            pending = None
    if pending is not None:
        out.append(_quote_prefix(pending_depth) + pending)
    return "\n".join(out)


def _quote_prefix(depth: int) -> str:
    return ">" * depth + " " if depth else ""


# --- HTML ------------------------------------------------------------------------------------

_BLOCK_TAGS = frozenset(
    {
        *("address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset"),
        *("figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6"),
        *("header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table"),
        *("tbody", "tfoot", "thead", "tr", "ul"),
    }
)
_SKIPPED_TAGS = frozenset({"head", "script", "style", "title", "template"})
_HTML_SPACE = re.compile(r"[ \t\n\r\f]+")
_SPACES = re.compile(r" {2,}")


# HTML is converted a piece at a time, and no further once it has given more lines than are read
# for orders (extract.MAX_LINES): converting costs about half a second a megabyte.
_HTML_PIECE = 64 * 1024


def html_to_text(html: str, max_lines: int | None = None) -> str:
    """Readable text from an HTML body: a line per block, blockquotes marked with ">" as in text;
    with ``max_lines``, the conversion stops soon after that many lines."""
    converter = _HtmlText()
    for start in range(0, len(html), _HTML_PIECE):
        converter.feed(html[start : start + _HTML_PIECE])
        if max_lines is not None and len(converter.lines) > max_lines:
            break
    converter.close()
    converter.end_line()
    return "\n".join(converter.lines)


class _HtmlText(HTMLParser):
    """Collects lines of text; quoting becomes ">" so the quote stripper sees it as in text mail."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._current: list[str] = []
        self._quote_depth = 0
        self._skip_depth = 0
        self._pre_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED_TAGS:
            self._skip_depth += 1
        elif tag == "br":
            self.end_line(force=True)
        elif tag in _BLOCK_TAGS:
            self.end_line()
            self._quote_depth += tag == "blockquote"
            self._pre_depth += tag == "pre"
        elif tag in ("td", "th"):
            self._current.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS:
            self._skip_depth = max(0, self._skip_depth - 1)
        elif tag in _BLOCK_TAGS:
            self.end_line()
            if tag == "blockquote":
                self._quote_depth = max(0, self._quote_depth - 1)
            if tag == "pre":
                self._pre_depth = max(0, self._pre_depth - 1)

    def handle_data(self, data: str) -> None:
        if self._skip_depth:
            return
        if not self._pre_depth:
            self._current.append(_HTML_SPACE.sub(" ", data))
            return
        for number, piece in enumerate(data.split("\n")):
            if number:
                self.end_line(force=True)
            self._current.append(piece)

    def end_line(self, *, force: bool = False) -> None:
        """Finish the line being collected; empty lines only count when forced (a <br>)."""
        raw = "".join(self._current)
        self._current = []
        line = raw.replace("\xa0", " ")
        line = line.rstrip() if self._pre_depth else _SPACES.sub(" ", line).strip()
        # A block holding only &nbsp; is how Outlook and others write an empty line on purpose.
        if line or force or "\xa0" in raw:
            self.lines.append((_quote_prefix(self._quote_depth) + line).rstrip())
