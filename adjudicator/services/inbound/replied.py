"""The service's own mails a player's mail may quote: their lines, for the reader to know as old.

A reply quotes the mail it answers, and Outlook and many webmails quote it without ">" marks; the
reader (``extract.own_text``) takes no line the service wrote there for a new one. The mail
answered is found by In-Reply-To and References among the mails sent to the sender; when the
client kept neither, the last mails the sender had from the game stand in for it.
"""

from __future__ import annotations

from email.message import EmailMessage
from email.parser import BytesParser

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator.mail import extract
from adjudicator.mail.body import body_texts
from adjudicator.mail.reading import POLICY, MailIn
from adjudicator.models import OutboxMessage

# A reply without In-Reply-To or References quotes one of the sender's last mails from the game:
# a receipt, the turn report before it, a reminder.
RECENT = 3


def known_lines(session: Session, mail: MailIn, game_id: int | None) -> list[str]:
    """The lines of the service's mails to ``mail.sender`` that ``mail`` may quote: the mails
    it names as answered, else the last ``RECENT`` ones of the game (of any, for ``game_id``
    None). Both the text and the HTML
    made text of each, since a client quotes whichever it showed. None are looked for when the
    mail quotes nothing without ">" marks (``extract.quotes_unmarked``): most mails do not."""
    if not extract.quotes_unmarked(mail.text):
        return []
    named = [found for found in (mail.in_reply_to, *mail.references) if found]
    sent_to = OutboxMessage.to_address == mail.sender
    raws: list[bytes] = []
    if named:
        raws = list(
            session.scalars(
                select(OutboxMessage.raw).where(sent_to, OutboxMessage.message_id.in_(named))
            )
        )
    if not raws:
        # Mail about no game (help, a refused NEW) is answered from the same addresses.
        about = OutboxMessage.game_id == game_id if game_id is not None else sent_to
        raws = list(
            session.scalars(
                select(OutboxMessage.raw)
                .where(sent_to, about)
                .order_by(OutboxMessage.id.desc())
                .limit(RECENT)
            )
        )
    lines: list[str] = []
    for raw in raws:
        message = BytesParser(policy=POLICY).parsebytes(raw)
        assert isinstance(message, EmailMessage)
        for text in body_texts(message):
            lines.extend(text.splitlines())
    return lines
