"""Reading raw mail: the hand-written fixtures end to end, charsets, headers, automatic mail."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from adjudicator.mail import header_bounds, header_classes, reading
from adjudicator.mail.extract import order_lines
from adjudicator.mail.flowed import unflow
from adjudicator.mail.html_text import html_to_text
from adjudicator.mail.reading import MailIn, Unreadable, read

FIXTURES = Path(__file__).parent / "fixtures"


@dataclass(frozen=True)
class Expected:
    sender: str
    sender_name: str
    subject: str
    lines: tuple[str, ...]
    automatic: str | None = None  # the start of the reason, or None for a person's mail


SPARTA_ORDERS = ("A Sparta - Argos", "F Gytheio S A Sparta - Argos")
TURN_SUBJECT = "Re: [pbem] Game 12: turn 3 (Spring 480 BC)"

EXPECTED: dict[str, Expected] = {
    "gmail_reply": Expected(
        "leonidas.agiad@gmail.com",
        "Leonidas Agiad",
        TURN_SUBJECT,
        (*SPARTA_ORDERS, "", "Thanks, good game so far!"),
    ),
    "outlook_html_reply": Expected(
        "t.neocleous@athens-navy.example",
        "Themistocles Neocleous",
        "RE: [pbem] Game 12: turn 3 (Spring 480 BC)",
        (
            "F Piraeus - Salamis",
            "F Athens S F Piraeus - Salamis",
            "",
            "Kind regards,",
            "Themistocles",
        ),
    ),
    "outlook_text_reply": Expected(
        "xerxes@persia.example",
        "Xerxes I",
        "RE: [pbem] Game 12: turn 3 (Spring 480 BC)",
        (
            "Here are mine for this turn:",
            "",
            "A Thermopylae - Phocis",
            "A Thessaly S A Thermopylae - Phocis",
            "",
            "Regards,",
            "Xerxes",
        ),
    ),
    "outlook_ios": Expected(
        "aristeides@outlook.example",
        "Aristeides",
        TURN_SUBJECT,
        ("F Athens - Salamis", "F Aegina S F Athens - Salamis"),
    ),
    "apple_iphone": Expected(
        "gorgo@icloud.example",
        "Gorgo",
        TURN_SUBJECT,
        (
            "A Sparta hold",
            "F Gytheio - Laconian Gulf",
            "",
            "Leonidas is at the pass, so I’m playing for him today.",
        ),
    ),
    "thunderbird_flowed": Expected(
        "aristodemos@mailbox.example",
        "Aristodemos",
        TURN_SUBJECT,
        (
            *SPARTA_ORDERS,
            "",
            "I would like to note that the deadline is a bit tight for me this week, could we "
            "have an extra day next turn? Kalimera from Thessaloniki — the weather is fine.",
        ),
    ),
    "html_only": Expected(
        "demaratus@webmail.example",
        "Demaratus",
        "turn 3",
        (*SPARTA_ORDERS, "", "Cheers & good luck,"),
    ),
    "latin1_qp": Expected(
        "jose.garcia@correo.example",
        "José García",
        "Re: [pbem] Partie 12 : tour 3",
        (
            "Mes ordres pour ce tour, après réflexion :",
            "",
            "A Thèbes - Platées",
            "A Béotie S A Thèbes - Platées",
        ),
    ),
    "russian_base64": Expected(
        "a.smirnov@yandex.example",
        "Алексей Смирнов",
        "Re: [pbem] Партия 12: ход 3",
        (
            "Приказы на этот ход:",
            "",
            "А Фивы - Платеи",
            "Ф Коринф П А Фивы - Платеи",
            "",
            "Надеюсь, всё понятно.",
        ),
    ),
    "explicit_block": Expected(
        "ephialtes@trachis.example",
        "Ephialtes",
        TURN_SUBJECT,
        # Verbatim: the "--" inside the block would end the text anywhere else.
        ("A Trachis - Anopaea path", "", "A Thessaly S A Trachis - Anopaea path", "--"),
    ),
    "rfc2047_subject": Expected(
        "gelon@syracuse.example",
        "Gélon of Syracuse",
        "Re: [pbem] Partie 12 — ordres d'été (tour 3)",
        ("A Béotie hold", "F Syracuse - Mer Ionienne"),
    ),
    "gmail_forward": Expected(
        "leontiades.thebes@gmail.com",
        "Leontiades",
        "Fwd: [pbem] Game 12: turn 3 (Spring 480 BC)",
        ("Resending from my other account, sorry:", "", "A Thebes - Thermopylae"),
    ),
    "gmail_german": Expected(
        "juergen.mueller@gmail.com",
        "Jürgen Müller",
        "AW: [pbem] Spiel 12: Zug 3",
        ("F Kreta - Ägäis", "F Rhodos S F Kreta - Ägäis"),
    ),
    "gmail_spanish": Expected(
        "ines.ibanez@gmail.com",
        "Inés Ibáñez",
        "RE: Re: [pbem] Partida 12: turno 3",
        ("A Tebas - Plateas", "A Beocia S A Tebas - Plateas", "", "¡Suerte a todos!"),
    ),
    "mbox_from_line": Expected(
        "kleombrotos@oldhost.example",
        "Kleombrotos",
        TURN_SUBJECT,
        ("A Isthmos hold", "A Korinthos - Megara", "", "", "No."),
    ),
    "bogus_charset": Expected(
        "kleombrotos@oldhost.example",
        "Kleombrotos",
        "orders",
        ("A Isthmos hold", "A Korinthos - Megára"),
    ),
    "vacation_auto_reply": Expected(
        "leonidas.agiad@gmail.com",
        "Leonidas Agiad",
        "Away at Thermopylae",
        (
            "I am away until 18 March with limited access to email.",
            "For urgent matters contact Gorgo.",
        ),
        automatic="Auto-Submitted: auto-replied",
    ),
    "exchange_automatic_reply": Expected(
        "t.neocleous@athens-navy.example",
        "Themistocles Neocleous",
        "Automatic reply: [pbem] Game 12: reminder, orders due in 24 hours",
        (
            "Thank you for your message. I am out of the office at the Salamis strait until "
            "Friday and will reply on my return.",
        ),
        automatic="Subject: Automatic reply:",
    ),
    "bounce_dsn": Expected(
        "mailer-daemon@mx.pbem.example",
        "",
        "Undelivered Mail Returned to Sender",
        (
            "This is the mail system at host mx.pbem.example.",
            "",
            "I'm sorry to have to inform you that your message could not",
            "be delivered to one or more recipients. It's attached below.",
            "",
            "                   The mail system",
            "",
            "<demaratus@gone.example>: host mx.gone.example[192.0.2.77] said: 550 5.1.1",
            "    <demaratus@gone.example>: Recipient address rejected: User unknown (in",
            "    reply to RCPT TO command)",
        ),
        automatic="Auto-Submitted: auto-replied",
    ),
    "list_mail": Expected(
        "pausanias@regent.example",
        "Pausanias",
        "[pbem-players] House rule for the Anopaea path?",
        (
            "Does anyone use a house rule for the mountain path?",
            "",
            "_______________________________________________",
            "pbem-players mailing list -- pbem-players@lists.wargames.example",
            "To unsubscribe send an email to pbem-players-leave@lists.wargames.example",
        ),
        automatic="List-Id header present",
    ),
}

# The same out-of-office as Exchange sends it, with the null sender: named by its subject, not as
# the bounce its Return-Path alone would suggest.
EXPECTED["exchange_automatic_reply_null_sender"] = EXPECTED["exchange_automatic_reply"]

NOT_MAIL: dict[str, str] = {
    "binary": "binary data, not a mail message",
    "empty": "empty message",
    "no_headers": "no header block: not a mail message",
    "no_from": "no From address",
    "from_without_address": "no From address",
}


def _variants(name: str) -> list[tuple[str, bytes]]:
    """The fixture as stored (LF) and as it travels over SMTP (CRLF): both must read the same."""
    raw = (FIXTURES / f"{name}.eml").read_bytes()
    crlf = raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    return [("lf", raw), ("crlf", crlf)]


def test_every_fixture_has_an_expectation() -> None:
    # The dsn_ fixtures are delivery reports; tests/test_bounces.py reads every one of them.
    stored = {path.stem for path in FIXTURES.glob("*.eml") if not path.stem.startswith("dsn_")}
    assert stored == set(EXPECTED) | set(NOT_MAIL)
    assert len(stored) >= 15


@pytest.mark.parametrize("line_ending", ["lf", "crlf"])
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_reads_as_expected(name: str, line_ending: str) -> None:
    raw = dict(_variants(name))[line_ending]
    expected = EXPECTED[name]

    mail = read(raw)

    assert isinstance(mail, MailIn), mail
    assert mail.sender == expected.sender
    assert mail.sender_name == expected.sender_name
    assert mail.subject == expected.subject
    assert order_lines(mail.text) == list(expected.lines)
    if expected.automatic is None:
        assert mail.automatic is None
    else:
        assert mail.automatic is not None
        assert mail.automatic.startswith(expected.automatic)


@pytest.mark.parametrize("line_ending", ["lf", "crlf"])
@pytest.mark.parametrize("name", sorted(NOT_MAIL))
def test_non_mail_is_unreadable_with_a_reason(name: str, line_ending: str) -> None:
    raw = dict(_variants(name))[line_ending]
    assert read(raw) == Unreadable(NOT_MAIL[name])


def test_threading_headers_and_recipients() -> None:
    mail = read((FIXTURES / "thunderbird_flowed.eml").read_bytes())
    assert isinstance(mail, MailIn)
    assert mail.message_id == "<8e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b@mailbox.example>"
    assert mail.in_reply_to == "<pbem.12.3.spartans.turn@pbem.example>"
    assert mail.references == (
        "<pbem.12.2.spartans.turn@pbem.example>",
        "<pbem.12.3.spartans.turn@pbem.example>",
    )


def test_recipients_are_bare_lower_case_and_unique() -> None:
    # Delivered-To, To and Cc name the same seat address, the Cc in upper case.
    mail = read((FIXTURES / "gmail_spanish.eml").read_bytes())
    assert isinstance(mail, MailIn)
    assert mail.recipients == ("orders+12-thebans-1-933d7912b0aa14e8@pbem.example",)


def test_recipients_come_from_to_cc_delivered_to_and_x_original_to() -> None:
    raw = (
        b"From: a@example.com\n"
        b"To: Seat <Orders+1-x-1-aa@PBEM.example>, other@example.com\n"
        b"Cc: c@example.com\n"
        b"Delivered-To: d@example.com\n"
        b"X-Original-To: e@example.com\n"
        b"Bcc: never-seen@example.com\n"
        b"\nhello\n"
    )
    mail = read(raw)
    assert isinstance(mail, MailIn)
    assert mail.recipients == (
        "orders+1-x-1-aa@pbem.example",
        "other@example.com",
        "c@example.com",
        "d@example.com",
        "e@example.com",
    )


PLAIN = b"Content-Type: text/plain; charset=utf-8\n"
HTML = b"Content-Type: text/html; charset=utf-8\n"


def multipart_text(kind: str, *parts: bytes) -> str:
    """The text read from a multipart mail of ``kind`` (alternative, mixed) made of ``parts``,
    each its headers, a blank line and its body."""
    head = f'From: a@example.com\nMIME-Version: 1.0\nContent-Type: multipart/{kind}; boundary="b"\n'
    raw = head.encode() + b"\n" + b"".join(b"--b\n" + part for part in parts) + b"--b--\n"
    mail = read(raw)
    assert isinstance(mail, MailIn)
    return mail.text


def test_plain_text_is_preferred_over_html() -> None:
    text = multipart_text(
        "alternative",
        PLAIN + b"\nfrom the plain part\n",
        HTML + b"\n<p>from the html part</p>\n",
    )
    assert text.strip() == "from the plain part"


def test_empty_plain_part_falls_back_to_html() -> None:
    text = multipart_text("alternative", PLAIN + b"\n\n", HTML + b"\n<p>A Sparta hold</p>\n")
    assert text == "A Sparta hold"


def test_attachments_are_not_the_body() -> None:
    text = multipart_text(
        "mixed",
        PLAIN + b'Content-Disposition: attachment; filename="notes.txt"\n\nnot the orders\n',
        PLAIN + b"\nA Sparta hold\n",
    )
    assert text.strip() == "A Sparta hold"


@pytest.mark.parametrize(
    ("content_type", "body", "text"),
    [
        # Outlook's curly quotes arrive labelled ISO-8859-1 but are Windows-1252.
        ("text/plain; charset=iso-8859-1", b"I\x92m in\n", "I’m in\n"),
        ("text/plain; charset=us-ascii", b"Meg\xc3\xa1ra\n", "Megára\n"),
        ("text/plain; charset=x-unknown", b"Meg\xe1ra\n", "Megára\n"),
        ("text/plain; charset=base64", b"Meg\xe1ra\n", "Megára\n"),  # a codec, not a charset
        ("text/plain", b"Meg\xc3\xa1ra\n", "Megára\n"),
        ("text/plain; charset=utf-8", b"\xef\xbb\xbfA Sparta hold\r\n", "A Sparta hold\n"),
        ("text/plain; charset=koi8-r", "Фивы\n".encode("koi8-r"), "Фивы\n"),
    ],
)
def test_charsets_fall_back_instead_of_failing(content_type: str, body: bytes, text: str) -> None:
    raw = b"From: a@example.com\nContent-Type: " + content_type.encode() + b"\n\n" + body
    mail = read(raw)
    assert isinstance(mail, MailIn)
    assert mail.text == text


def test_headers_with_raw_8bit_and_unknown_encoded_words() -> None:
    raw = (
        b"From: =?x-unknown?q?Jos=E9?= <Jose@Example.com>\n"
        b"Subject: caf\xc3\xa9 =?utf-8?q?=C3=A9t=C3=A9?=\n"
        b"\nbody\n"
    )
    mail = read(raw)
    assert isinstance(mail, MailIn)
    assert mail.sender == "jose@example.com"
    assert mail.sender_name == "José"
    assert mail.subject == "café été"


def test_message_id_without_brackets_gets_them() -> None:
    mail = read(b"From: a@example.com\nMessage-ID: abc@example.com\nIn-Reply-To: x@y\n\nhi\n")
    assert isinstance(mail, MailIn)
    assert mail.message_id == "<abc@example.com>"
    assert mail.in_reply_to == "<x@y>"
    assert mail.references == ()


def test_missing_threading_headers_are_none() -> None:
    mail = read(b"From: a@example.com\n\nhi\n")
    assert isinstance(mail, MailIn)
    assert (mail.message_id, mail.in_reply_to, mail.references) == (None, None, ())


def test_read_never_raises_on_mangled_input() -> None:
    # Truncations and random byte flips of every fixture, plus random noise: only values come back.
    rng = random.Random(1234)
    samples: list[bytes] = []
    for path in sorted(FIXTURES.glob("*.eml")):
        raw = path.read_bytes()
        samples += [raw[:cut] for cut in range(0, len(raw), max(1, len(raw) // 17))]
        for _ in range(10):
            mutated = bytearray(raw)
            for _ in range(8):
                if mutated:
                    mutated[rng.randrange(len(mutated))] = rng.randrange(256)
            samples.append(bytes(mutated))
    samples += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))) for _ in range(50)]
    samples += [b"From: <>\n\n", b"From: \xff\xfe\n\n", b"From: a@b\nContent-Type: multipart/x\n\n"]
    for sample in samples:
        assert isinstance(read(sample), MailIn | Unreadable)


def test_read_refuses_text_instead_of_bytes() -> None:
    assert read("From: a@example.com\n\nhi\n") == Unreadable("not bytes")  # type: ignore[arg-type]


# --- automatic mail ---------------------------------------------------------------------------

PERSON = b"From: Gorgo <gorgo@example.com>\nTo: orders@pbem.example\nSubject: orders\n"


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        (b"Auto-Submitted: auto-replied\n", "Auto-Submitted: auto-replied"),
        (b"Auto-Submitted: auto-generated; owner-email=x@y\n", "Auto-Submitted: auto-generated"),
        (b"Precedence: bulk\n", "Precedence: bulk"),
        (b"Precedence: junk\n", "Precedence: junk"),
        (b"Precedence: list\n", "Precedence: list"),
        (b"Precedence: auto_reply\n", "Precedence: auto_reply"),
        (b"X-Autoreply: yes\n", "X-Autoreply"),
        (b"X-Autorespond: vacation\n", "X-Autorespond"),
        (b"X-Loop: pbem@pbem.example\n", "X-Loop"),
        (b"X-MS-Exchange-Inbox-Rules-Loop: gorgo@example.com\n", "X-MS-Exchange-Inbox-Rules-Loop"),
        (b"List-Id: <players.lists.example>\n", "List-Id"),
        (b"List-Unsubscribe: <mailto:leave@lists.example>\n", "List-Unsubscribe"),
        (b"Return-Path: <>\n", "Return-Path: <>"),
        (
            b'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\n',
            "Content-Type: multipart/report (delivery-status)",
        ),
    ],
)
def test_automatic_headers_are_recognised(headers: bytes, reason: str) -> None:
    mail = read(headers + PERSON + b"\nbody\n")
    assert isinstance(mail, MailIn)
    assert mail.automatic is not None
    assert mail.automatic.startswith(reason)


@pytest.mark.parametrize(
    "sender",
    [
        b"MAILER-DAEMON@mx.example.com",
        b"postmaster@example.com",
        b"noreply@example.com",
        b"No-Reply <no-reply@example.com>",
    ],
)
def test_robot_senders_are_automatic(sender: bytes) -> None:
    mail = read(b"From: " + sender + b"\nSubject: hello\n\nbody\n")
    assert isinstance(mail, MailIn)
    assert mail.automatic is not None
    assert mail.automatic.startswith("From:")


@pytest.mark.parametrize(
    "subject",
    [
        "Out of Office: turn 3",
        "Automatic reply: [pbem] Game 12",
        "Auto: [pbem] Game 12",
        "Undeliverable: [pbem] Game 12",
        "Delivery Status Notification (Failure)",
        "Abwesenheitsnotiz: [pbem] Spiel 12",
        "Réponse automatique : [pbem] Partie 12",
    ],
)
def test_automatic_subjects_are_recognised(subject: str) -> None:
    mail = read(b"From: a@example.com\nSubject: " + subject.encode() + b"\n\nbody\n")
    assert isinstance(mail, MailIn)
    assert mail.automatic is not None
    assert mail.automatic.startswith("Subject:")


@pytest.mark.parametrize(
    "headers",
    [
        b"",
        b"Auto-Submitted: no\n",
        b"X-Auto-Response-Suppress: All\n",  # a request to others, not a sign of a robot
        b"Precedence: first-class\n",
        b"Return-Path: <gorgo@example.com>\n",
    ],
)
def test_a_person_is_not_automatic(headers: bytes) -> None:
    mail = read(headers + PERSON + b"\nA Sparta hold\n")
    assert isinstance(mail, MailIn)
    assert mail.automatic is None


@pytest.mark.parametrize(
    "subject", ["Re: out of office hours, my orders", "Auto units", "Undeliverable orders?"]
)
def test_subjects_that_only_resemble_robots_are_people(subject: str) -> None:
    mail = read(b"From: a@example.com\nSubject: " + subject.encode() + b"\n\nbody\n")
    assert isinstance(mail, MailIn)
    assert mail.automatic is None


# --- text helpers -----------------------------------------------------------------------------


def test_unflow_joins_soft_breaks_and_keeps_hard_ones() -> None:
    # " From" is space-stuffed (the leading space goes); "-- " is the signature, never flowed.
    text = "A Sparta - \nArgos\nF Gytheio hold\n> quoted \n> more\n From here\n-- \nsig"
    assert unflow(text, delsp=False) == (
        "A Sparta - Argos\nF Gytheio hold\n> quoted more\nFrom here\n-- \nsig"
    )


def test_unflow_with_delsp_removes_the_soft_break_space() -> None:
    assert unflow("Thessalo \nniki\n", delsp=True) == "Thessaloniki\n"


def test_html_to_text_structure() -> None:
    html = (
        "<html><head><title>t</title><style>p {color: red}</style></head><body>"
        "<script>var x = 1;</script>"
        "<p>A&nbsp;Sparta &amp; <b>Argos</b>\n  hold</p>"
        "<ul><li>one</li><li>two</li></ul>"
        "<table><tr><td>F</td><td>Gytheio</td></tr></table>"
        "<pre>  keep   spacing\nsecond</pre>"
        "<blockquote>outer<blockquote>inner</blockquote></blockquote>"
        "<div>after</div></body></html>"
    )
    assert html_to_text(html).split("\n") == [
        "A Sparta & Argos hold",
        "one",
        "two",
        "F Gytheio",
        "  keep   spacing",
        "second",
        "> outer",
        ">> inner",
        "after",
    ]


def test_control_characters_never_reach_the_text_subject_or_names() -> None:
    # PostgreSQL refuses NUL in text columns; no person types C0 controls but tab and newline.
    raw = (
        b'From: "Jos\x01e" <jose@example.com>\r\nTo: new@pbem.localhost\r\n'
        b"Subject: orders\x1b now\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        b"9-14\x00\x0f\r\n\tHOLD 3\r\n"
    )
    mail = read(raw)
    assert isinstance(mail, MailIn), mail
    assert mail.text == "9-14\n\tHOLD 3\n"
    assert mail.subject == "orders now"
    assert mail.sender_name == "Jose"


def test_content_language_is_read_from_the_headers_or_the_text_part() -> None:
    def language_of(raw: str) -> str:
        mail = read(raw.replace("\n", "\r\n").encode())
        assert isinstance(mail, MailIn)
        return mail.language

    head = "From: a@example.com\nTo: b@example.com\nSubject: x\n"
    assert language_of(head + "Content-Language: ru-RU, en\n\nJOIN\n") == "ru-ru"
    assert language_of(head + "\nJOIN\n") == ""
    assert language_of(head + "Content-Language: <script>\n\nJOIN\n") == ""
    # Outlook writes it on the text part of a multipart mail.
    multipart = (
        head + 'MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary="b"\n\n'
        "--b\nContent-Type: text/plain\nContent-Language: es-ES\n\nJOIN\n"
        "--b\nContent-Type: text/html\n\n<p>JOIN</p>\n--b--\n"
    )
    assert language_of(multipart) == "es-es"


def test_a_huge_header_field_is_read_up_to_its_first_4000_bytes() -> None:
    # The standard library parses a field in time growing with the square of its length.
    subject = b"orders " * 30_000
    raw = (
        b"From: a@example.com\r\nSubject: "
        + subject
        + b"\r\nTo: new@pbem.localhost\r\n\r\nHELP\r\n"
    )
    mail = read(raw)
    assert isinstance(mail, MailIn)
    assert (
        mail.subject.startswith("orders orders") and len(mail.subject) < header_bounds.FIELD_LENGTH
    )
    assert (mail.sender, mail.recipients, mail.text) == (
        "a@example.com",
        ("new@pbem.localhost",),
        "HELP\n",
    )
    assert header_bounds.short_headers(b"From: a@b\r\n\r\nbody") == b"From: a@b\r\n\r\nbody"


def test_headers_are_parsed_once_per_value_and_the_memo_stays_bounded() -> None:
    factory = reading.POLICY.header_factory
    raw = b"From: Murat <murat@example.com>\r\nTo: g@pbem.example\r\nSubject: hi\r\n\r\nSTATUS\r\n"
    first, again = reading.read(raw), reading.read(raw)
    assert isinstance(first, reading.MailIn) and first == again
    assert first.sender == "murat@example.com"
    parsed = factory("From", "Murat <murat@example.com>")
    assert factory("From", "Murat <murat@example.com>") is parsed
    assert factory("From", "Daoiz <daoiz@example.com>") is not parsed
    for n in range(3 * header_classes.HEADERS_KEPT):  # a flood of distinct values
        reading.read(raw.replace(b"Subject: hi", f"Subject: hi {n}".encode()))
    assert len(factory._parsed) <= header_classes.HEADERS_KEPT
