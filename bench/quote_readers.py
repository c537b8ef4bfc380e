"""How many real-shape replies each quote reader reads exactly right, side by side: the project's
reader (``adjudicator.mail.extract``), quotequail and mail-parser-reply.

Every person's mail of the corpus (tests/mail/corpus/*.eml, and tests/mail/replies/*.eml when
that directory holds built replies) is read as the service reads it (``mail.reading``: the
text/plain part, or the HTML made text); each reader is given that same text, and its answer is
right when its non-blank lines are exactly the player's lines the fixture's expectation lists:
all of them, nothing from the quote, no more. The libraries' output has ">" lines taken out, as
the product would. A mail whose expected lines come from its subject alone is left out (no
reader of a body can find them).

The libraries leave a client's footer ("Sent from my iPhone"), a signature after "-- " and a
disclaimer in the reply, where the project's reader takes them off; so a second figure ("quote
only") takes them off every reader's answer the project's way (``quote_marks``), which leaves
the reading of the quote alone. "took old": mails where a reader kept a line that is not the
player's (boilerplate off); "lost": mails where it lost one of the player's lines.

A second table reads the HTML part of every such mail that has one, alone: the project's reader
on ``html_text``'s text of it, quotequail's ``quote_html`` (its new part made text the same way).

    .venv/bin/python bench/quote_readers.py [--list]

quotequail and mail-parser-reply must be installed for their columns (pip install quotequail
mail-parser-reply); a reader that is missing is reported as such.
"""

from __future__ import annotations

import argparse
import email
import json
import sys
from collections.abc import Callable
from email import policy
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.mail import extract, quote_marks  # noqa: E402
from adjudicator.mail.charsets import decode  # noqa: E402
from adjudicator.mail.html_text import html_to_text  # noqa: E402
from adjudicator.mail.reading import MailIn, read  # noqa: E402

DIRECTORIES = (ROOT / "tests" / "mail" / "corpus", ROOT / "tests" / "mail" / "replies")

Reader = Callable[[str], list[str]]


def project(text: str) -> list[str]:
    return extract.order_lines(text)


def project_html(html: str) -> list[str]:
    return extract.order_lines(html_to_text(html))


def html_readers() -> dict[str, Reader | str]:
    found: dict[str, Reader | str] = {"project": project_html}
    try:
        import quotequail

        def quotequail_html(html: str) -> list[str]:
            parts = quotequail.quote_html(html, quote_intro_line=True)
            return html_to_text("".join(part for new, part in parts if new)).split("\n")

        found["quotequail"] = quotequail_html
    except ImportError:
        found["quotequail"] = "not installed"
    return found


def readers() -> dict[str, Reader | str]:
    """Each reader by name, or why it cannot run."""
    found: dict[str, Reader | str] = {"project": project}
    try:
        import quotequail

        def quotequail_reader(text: str) -> list[str]:
            parts = quotequail.quote(text, quote_intro_line=True)
            return "\n".join(part for new, part in parts if new).split("\n")

        found["quotequail"] = quotequail_reader
    except ImportError:
        found["quotequail"] = "not installed"
    try:
        from mailparser_reply import EmailReplyParser
        from mailparser_reply.constants import MAIL_LANGUAGES

        parser = EmailReplyParser(languages=sorted(MAIL_LANGUAGES))

        def mail_parser_reply(text: str) -> list[str]:
            return (parser.parse_reply(text) or "").split("\n")

        found["mail-parser-reply"] = mail_parser_reply
    except ImportError:
        found["mail-parser-reply"] = "not installed"
    return found


Case = tuple[str, str, str | None, list[str]]


def cases() -> list[Case]:
    """(name, body text, HTML part, the player's lines) for every person's mail with lines in
    its body."""
    found = []
    for directory in DIRECTORIES:
        for path in sorted(directory.glob("*.eml")):
            answer = path.with_name(path.name.removesuffix(".eml") + ".expected.json")
            if not answer.exists():
                continue
            want = json.loads(answer.read_text("utf-8"))
            if want.get("kind", "orders/commands") != "orders/commands":
                continue
            mail = read(path.read_bytes())
            if not isinstance(mail, MailIn):
                continue
            lines = [line.strip() for line in want["lines"]]
            body = {line.strip() for line in mail.text.splitlines()}
            if not all(line in body for line in lines):
                continue  # read from the subject
            name = f"{directory.name}/{path.name}"
            found.append((name, mail.text, _html(path.read_bytes()), lines))
    return found


def _html(raw: bytes) -> str | None:
    message = email.message_from_bytes(raw, policy=policy.default)
    assert isinstance(message, EmailMessage)
    part = message.get_body(preferencelist=("html",))
    if part is None or part.get_content_type() != "text/html":
        return None
    payload = part.get_payload(decode=True)
    return decode(payload, part.get_content_charset()) if isinstance(payload, bytes) else None


def score(reader: Reader, text: str, wanted: list[str]) -> tuple[bool, bool, int, int]:
    """Right or not, right once boilerplate is off, lines taken that are not the player's (with
    boilerplate off), the player's lines not taken."""
    got = [line.strip() for line in reader(text) if line.strip()]
    got = [line for line in got if not line.startswith(">")]
    bare = _without_boilerplate(got)
    extra = sum(1 for line in bare if line not in wanted)
    lost = sum(1 for line in wanted if line not in got)
    return got == wanted, bare == wanted, extra, lost


def _without_boilerplate(lines: list[str]) -> list[str]:
    kept = []
    for line in lines:
        if line == "--" or quote_marks.is_disclaimer(line):
            break
        if not quote_marks.is_client_footer(line):
            kept.append(line)
    while kept and set(kept[-1]) <= set("-_=*~"):
        kept.pop()  # the rule above a disclaimer
    return kept


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--list", action="store_true", help="the mails each reader misreads")
    listing = options.parse_args().list
    samples = cases()
    print(f"{len(samples)} replies with the player's lines in the body")
    table(readers(), [(name, text, lines) for name, text, _, lines in samples], listing)
    html = [(name, part, lines) for name, _, part, lines in samples if part is not None]
    print(f"\nthe HTML part alone, of the {len(html)} of them that have one")
    table(html_readers(), html, listing)


def table(
    reading: dict[str, Reader | str], samples: list[tuple[str, str, list[str]]], listing: bool
) -> None:
    print(f"\n{'reader':<20} {'exact':>8} {'quote only':>11} {'took old':>9} {'lost':>5}")
    for name, reader in reading.items():
        if isinstance(reader, str):
            print(f"{name:<20} {reader}")
            continue
        right = bare = took = lost = 0
        wrong: list[str] = []
        for case, text, wanted in samples:
            exact, quote_only, extra, missing = score(reader, text, wanted)
            right += exact
            bare += quote_only
            took += extra > 0
            lost += missing > 0
            if not quote_only:
                wrong.append(case)
        total = len(samples)
        print(f"{name:<20} {right:>4}/{total:<3} {bare:>7}/{total:<3} {took:>9} {lost:>5}")
        if listing:
            for case in wrong:
                print(f"    {case}")


if __name__ == "__main__":
    main()
