"""A mail's text as a mail program would show it: its text/plain part (format=flowed undone),
else its HTML made text; whatever the charsets and structure say, never an exception."""

from __future__ import annotations

from email.message import EmailMessage, Message

from adjudicator.mail import extract
from adjudicator.mail.charsets import decode, no_controls
from adjudicator.mail.flowed import unflow
from adjudicator.mail.html_text import html_to_text


def body_text(msg: EmailMessage) -> str:
    plain = _body(msg, "plain")
    text = _part_text(plain) if plain is not None else ""
    if not text.strip():
        # Some clients send an empty text/plain beside the real HTML; the HTML is then the mail.
        html = _body(msg, "html")
        if html is not None:
            text = html_to_text(_part_text(html), extract.MAX_LINES)
    return text


def body_texts(msg: EmailMessage) -> list[str]:
    """The mail's text/plain part and its HTML made text, those it has: what a mail program may
    show of it, and quote in a reply."""
    plain, html = _body(msg, "plain"), _body(msg, "html")
    texts = [_part_text(plain)] if plain is not None else []
    if html is not None:
        texts.append(html_to_text(_part_text(html), extract.MAX_LINES))
    return texts


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
    text = no_controls(decode(payload, part.get_content_charset()))
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if part.get_content_type() == "text/plain":
        params = {k.lower(): str(v).lower() for k, v in part.get_params() or []}
        if params.get("format") == "flowed":
            text = unflow(text, delsp=params.get("delsp") == "yes")
    return text
