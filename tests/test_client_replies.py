"""A Thermopyles game played from the mail clients players really use.

Every turn is a reply to the service's previous mail, written the way one client writes it
(templates in tests/mail/corpus/templates): Gmail's top-posted multipart with its HTML quote,
Outlook's header block over the unmarked original, the iPhone's format=flowed text with "Sent from
my iPhone" over a ">" quote, Thunderbird's bottom-posted reply under a signature. The previous
mail's real text is what gets quoted. Each turn's orders must be taken exactly as written, and
nothing from the quote, the footer or the signature may reach the order parser.
"""

from __future__ import annotations

import html
import quopri
import re
from collections.abc import Callable
from pathlib import Path

from playbymail import compose, deliver_mail, html_of, sent, text_of
from sqlalchemy import func, select

from adjudicator.games import registry
from adjudicator.models import Game, Submission
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime

TEMPLATES = Path(__file__).parent / "mail" / "corpus" / "templates"
PLAYER = "dienekes@lakedaimon.example"
JUDGE = "PBEM Judge"


def flowed(text: str, *, delsp: bool, width: int = 76) -> str:
    """RFC 3676 as iOS Mail writes it: long lines soft-broken at spaces, quote depth repeated."""
    out: list[str] = []
    for line in text.split("\n"):
        prefix = re.match(r">*", line)
        assert prefix is not None
        marks = prefix.group(0)
        content = line[len(marks) :].removeprefix(" ") if marks else line
        lead = f"{marks} " if marks else (" " if content.startswith((" ", ">", "From ")) else "")
        while len(lead) + len(content) > width and " " in content[: width - len(lead)].rstrip():
            cut = content[: width - len(lead)].rstrip().rfind(" ") + 1
            out.append(lead + content[:cut] + (" " if delsp else ""))
            content = content[cut:]
        out.append((lead + content).rstrip() if content.strip() else marks)
    return "\n".join(out)


def quote(text: str) -> str:
    return "\n".join(f"> {line}".rstrip() for line in text.split("\n"))


def body_of_html(document: str) -> str:
    found = re.search(r"<body[^>]*>(.*)</body>", document, re.DOTALL | re.IGNORECASE)
    return found.group(1) if found else document


def render(template: str, fields: dict[str, str], bodies: dict[str, str]) -> bytes:
    """Fill a corpus template; {{name|qp}} and {{name|8bit}} say how a body travels."""

    def fill(match: re.Match[str]) -> str:
        name, _, encoding = match.group(1).partition("|")
        if not encoding:
            return fields[name]
        value = bodies[name]
        if encoding == "qp":
            return quopri.encodestring(value.encode("utf-8")).decode("ascii")
        return value

    text = (TEMPLATES / template).read_text("utf-8")
    return re.sub(r"\{\{([a-z_|0-9]+)\}\}", fill, text).encode("utf-8")


Client = Callable[[str, str, str, str], tuple[str, dict[str, str]]]


def gmail(
    orders: str, previous: str, previous_html: str, address: str
) -> tuple[str, dict[str, str]]:
    attribution = f"On Mon, 4 Mar 2024 at 10:12, {JUDGE} <\n{address}> wrote:"
    text = f"{orders}\n\n{attribution}\n\n{quote(previous)}\n"
    own = "".join(f"<div>{html.escape(line)}</div>" for line in orders.split("\n"))
    markup = (
        f'<div dir="ltr">{own}</div><br><div class="gmail_quote"><div dir="ltr" '
        f'class="gmail_attr">On Mon, 4 Mar 2024 at 10:12, {JUDGE} &lt;<a href="mailto:{address}">'
        f'{address}</a>&gt; wrote:<br></div><blockquote class="gmail_quote" style="margin:0px 0px '
        '0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex">'
        f"{body_of_html(previous_html)}</blockquote></div>\n"
    )
    return "gmail_web.eml.tmpl", {"text": text, "html": markup}


def outlook(
    orders: str, previous: str, previous_html: str, address: str
) -> tuple[str, dict[str, str]]:
    header = (
        f"From: {JUDGE} <{address}>\nSent: Monday, March 4, 2024 10:12 AM\n"
        f"To: Dienekes <{PLAYER}>\nSubject: [pbem] Thermopyles"
    )
    text = f"{orders}\n\nRegards,\nDienekes\n\n{header}\n\n{previous}\n\n"
    paragraphs = "".join(
        f'<p class="MsoNormal">{html.escape(line)}<o:p></o:p></p>\n'
        for line in [*orders.split("\n"), "", "Regards,", "Dienekes"]
    )
    rows = "<br>\n".join(f"<b>{html.escape(row)}" for row in header.split("\n"))
    markup = (
        '<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta name="Generator" '
        'content="Microsoft Word 15 (filtered medium)"><style><!-- p.MsoNormal {margin:0cm;} '
        '--></style></head><body lang="EN-GB"><div class="WordSection1">'
        f'{paragraphs}<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm '
        f'0cm"><p class="MsoNormal">{rows}<o:p></o:p></p></div>'
        f"{body_of_html(previous_html)}</div></body></html>\n"
    )
    return "outlook_desktop.eml.tmpl", {"text": text, "html": markup}


def iphone(
    orders: str, previous: str, previous_html: str, address: str
) -> tuple[str, dict[str, str]]:
    attribution = f"On 4 Mar 2024, at 10:12, {JUDGE} <{address}> wrote:"
    quoted = quote(f"{attribution}\n\n\ufeff{previous}")
    text = flowed(f"{orders}\n\nSent from my iPhone\n\n{quoted}\n", delsp=True)
    return "apple_iphone.eml.tmpl", {"text": text}


def thunderbird(
    orders: str, previous: str, previous_html: str, address: str
) -> tuple[str, dict[str, str]]:
    text = f"On 04/03/2024 10:12, {JUDGE} wrote:\n{quote(previous)}\n\n{orders}\n\n-- \nDienekes\n"
    return "thunderbird.eml.tmpl", {"text": flowed(text, delsp=False)}


CLIENTS: list[Client] = [gmail, outlook, iphone, thunderbird]
# Outlook's signature sits above the header block, in the player's own text.
SIGNATURES = {"outlook_desktop.eml.tmpl": ["Regards,", "Dienekes"]}


def next_orders(runtime: Runtime, game_id: int, turn: int) -> str:
    """A legal action for the position, written as a player would (varying the wording)."""
    rules = registry.get("thermopyles")
    assert rules is not None
    with runtime.db.session() as session:
        state = rules.load(play.latest_turn(session, game_id).state)
    legal = list(rules.legal_orders(state, "spartans"))
    fights = [action for action in legal if action["action"] == "fight"]
    if not fights:
        return "RETREAT"
    choice = max(fights, key=lambda action: (action["support"] == 0, action["value"]))
    if turn % 2:
        return f"FIGHT {choice['value']}"
    return f"Fight {choice['value']} support {choice['support']}"


def test_a_game_played_from_four_mail_clients(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(PLAYER, "new@pbem.localhost", "NEW THERMOPYLES"))
    with runtime.db.session() as session:
        game_id = session.scalar(select(func.max(Game.id)))
    assert game_id is not None
    played = 0
    for turn in range(12):
        with runtime.db.session() as session:
            if session.get_one(Game, game_id).status != "active":
                break
        previous_mail = [mail for mail in sent(runtime) if str(mail["To"]) == PLAYER][-1]
        previous, previous_html = text_of(previous_mail), html_of(previous_mail)
        previous = previous.replace("\r\n", "\n").strip("\n")
        address = str(previous_mail["Reply-To"])
        orders = next_orders(runtime, game_id, turn)
        template, bodies = CLIENTS[turn % len(CLIENTS)](orders, previous, previous_html, address)
        fields = {
            "from": f"Dienekes <{PLAYER}>",
            "to": address,
            "subject": str(previous_mail["Subject"]),
            "in_reply_to": str(previous_mail["Message-ID"]),
            "token": f"turn{turn}.{game_id}",
        }
        inbound = deliver_mail(runtime, render(template, fields, bodies))

        with runtime.db.session() as session:
            submission = session.scalars(
                select(Submission).where(Submission.inbound_id == inbound)
            ).one()
            # Exactly the player's own lines: the orders, then any signature their client keeps
            # above the quote (which the parser ignores as "not an order").
            extra = SIGNATURES.get(template, [])
            assert submission.text == "\n".join([orders, *extra]), (template, submission.text)
            assert submission.accepted, submission.report
            statuses = [(line["text"], line["status"]) for line in submission.report]
            assert statuses == [(orders, "accepted")] + [(line, "ignored") for line in extra]
        # The next mail answers this one: the turn was resolved from exactly these orders.
        answer = [mail for mail in sent(runtime) if str(mail["To"]) == PLAYER][-1]
        assert answer["Message-ID"] != previous_mail["Message-ID"]
        assert orders.split()[0].upper() in text_of(answer).upper()
        played += 1
    assert played >= len(CLIENTS), f"only {played} turns were played"


def test_a_quote_parsed_as_orders_would_be_caught(runtime: Runtime) -> None:
    # The same reply with the quote's markers removed must not pass as "accepted as written":
    # the check above can fail.
    deliver_mail(runtime, compose(PLAYER, "new@pbem.localhost", "NEW THERMOPYLES"))
    welcome = [mail for mail in sent(runtime) if str(mail["To"]) == PLAYER][-1]
    previous = text_of(welcome).replace("\r\n", "\n")
    address = str(welcome["Reply-To"])
    text = f"RETREAT\n\nSome notes.\n{previous}\n"
    raw = render(
        "thunderbird.eml.tmpl",
        {
            "from": f"Dienekes <{PLAYER}>",
            "to": address,
            "subject": "x",
            "in_reply_to": str(welcome["Message-ID"]),
            "token": "control",
        },
        {"text": text},
    )
    inbound = deliver_mail(runtime, raw)
    with runtime.db.session() as session:
        submission = session.scalars(
            select(Submission).where(Submission.inbound_id == inbound)
        ).one()
        assert submission.text != "RETREAT"
