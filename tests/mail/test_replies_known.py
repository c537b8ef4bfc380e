"""The reply corpus read as the service reads a seat's mail: with the lines of the mail it
answers known (``services/inbound/replied.py`` gives the reader the text part of the mail and
its HTML made text). Knowing them must change nothing of what is read from a reply above the
quote, and must let a reply below it, or around it, be found exactly as the corpus says."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from replies import build
from replies.model import service

from adjudicator.mail import extract
from adjudicator.mail.html_text import html_to_text
from adjudicator.mail.reading import MailIn, read

REPLIES = Path(__file__).parent / "replies"
CASES = {case["name"]: case for case in build.cases()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_reply_read_with_the_answered_mail_known(name: str) -> None:
    answered = service(CASES[name].get("service", "turn_en"))
    known = [*answered.text.splitlines(), *html_to_text(answered.html, 500).splitlines()]
    want = json.loads((REPLIES / f"{name}.expected.json").read_text("utf-8"))
    mail = read((REPLIES / f"{name}.eml").read_bytes())
    assert isinstance(mail, MailIn)

    own = extract.own_text(mail.text, known)

    # As the pipeline reads it: the subject stands in for an empty body.
    lines = [line for line in own.lines if line.strip()]
    subject = extract.subject_line(mail.subject)
    assert (lines or ([subject] if subject else [])) == want["lines"]
    assert (own.doubt.value if own.doubt else None) == want["doubt"]
