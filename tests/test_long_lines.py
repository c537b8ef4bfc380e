"""Order lines too long or too repetitive to read, through the real entry points on SQLite and
PostgreSQL: a Thermopyles line of 2,400 RETREATs and a JOIN line of 100 KB by mail, the public
order checker and the adjudication API; and the nesting no input can make deep (joined notes,
MIME parts)."""

from __future__ import annotations

import time

from dos_de_mayo_by_mail import GM, SPAIN
from playbymail import compose, deliver_mail, drain, sent, text_of
from test_api import a_case
from test_game_master import last_to, started
from test_help_pages import check, receipt, token
from test_pipeline import PLAYER, position, start

from adjudicator import limits
from adjudicator.core import said
from adjudicator.mail import bounces, extract
from adjudicator.mail.reading import MailIn, read
from adjudicator.models import InboundMessage
from adjudicator.services.inbound import inbox
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app, csrf

RETREATS = " ".join(["RETREAT"] * 2400)  # 19,199 characters
TOO_LONG = "too long to read: a line holds at most 1000 characters"
TOO_MANY = "too long to read: a line holds at most 50 words"
# The same reasons as a Spanish and a Russian reader get them.
IN_LANGUAGE = {
    "es": "demasiado larga para leerla: una línea tiene como mucho 1000 caracteres",
    "ru": "слишком длинная, не прочитана: в строке не больше 1000 символов",
}
SHOWN = "RETREAT RETREAT RETREAT RETREAT RETREAT RETREAT RETREAT RETR\u2026"


def delivered(runtime: Runtime, raw: bytes, to: str) -> tuple[InboundMessage, float]:
    """Store and process ``raw``: its stored row, and the CPU seconds processing took (the
    machine is shared, so wall-clock time says more about the neighbours)."""
    stored = inbox.store(runtime, raw, "test", envelope_to=[to])
    assert isinstance(stored, inbox.Stored)
    start_time = time.process_time()
    drain(runtime)
    seconds = time.process_time() - start_time
    with runtime.db.session() as session:
        found = session.get_one(InboundMessage, stored.id)
        session.expunge(found)
    return found, seconds


def reply_text(runtime: Runtime, before: int, to: str) -> str:
    [reply] = sent(runtime, before)
    assert reply["To"] == to
    return text_of(reply).replace("\r\n", "\n")


def test_a_line_of_2400_retreats_by_mail_is_answered_as_too_long_to_read(
    runtime: Runtime,
) -> None:
    game_id, reply_to = start(runtime)
    before = len(sent(runtime))
    found, seconds = delivered(runtime, compose(PLAYER, reply_to, f"hi\n{RETREATS}"), reply_to)
    # It failed with a RecursionError, unanswered; now it is done, and answered with why.
    assert (found.status, found.reason) == ("done", "orders not accepted; receipt sent")
    text = reply_text(runtime, before, PLAYER)
    assert f"IGNORED\n  {SHOWN}\n     -> {TOO_LONG}\n" in text
    assert "no order was found in your mail" in text
    assert seconds < 2, seconds  # CPU seconds: a few hundredths measured
    assert position(runtime, game_id)[0] == 0  # nothing was played
    # Under the characters but over the words: 51 RETREATs, 407 characters.
    before = len(sent(runtime))
    many = " ".join(["RETREAT"] * (limits.LINE_WORDS + 1))
    found, _ = delivered(runtime, compose(PLAYER, reply_to, many), reply_to)
    assert found.status == "done"
    assert f"     -> {TOO_MANY}\n" in reply_text(runtime, before, PLAYER)
    # At the bound the line is read as ever: the first RETREAT is the action.
    before = len(sent(runtime))
    at_bound = " ".join(["RETREAT"] * limits.LINE_WORDS)
    found, _ = delivered(runtime, compose(PLAYER, reply_to, at_bound), reply_to)
    assert (found.status, found.reason) == ("done", "turn 1 resolved")
    assert "one action per mail" in reply_text(runtime, before, PLAYER)
    # In the reader's language, however the line came.
    for lang, reason in IN_LANGUAGE.items():
        before = len(sent(runtime))
        body = f"PREFERENCES LANGUAGE {lang}\n{RETREATS}"
        found, _ = delivered(runtime, compose(PLAYER, reply_to, body), reply_to)
        assert found.status == "done"
        assert f"  {SHOWN}\n     -> {reason}\n" in reply_text(runtime, before, PLAYER)


def test_a_join_line_of_100_kb_is_answered_as_too_long_to_read(runtime: Runtime) -> None:
    body = f"NEW 2DEMAYO\nFRANCE me\nSPAIN {SPAIN}\nSCHEDULE 48h\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    [invite] = [mail for mail in sent(runtime) if mail["To"] == SPAIN]
    seat = str(invite["Reply-To"])
    join = "JOIN " + " ".join(["tiger"] * 17_000)
    assert len(join) > 100_000 > extract.MAX_BYTES  # past what is read of a mail at all
    before = len(sent(runtime))
    found, seconds = delivered(runtime, compose(SPAIN, seat, f"{join}\nthanks"), seat)
    # It was answered IGNORED for the subject alone, the JOIN not mentioned.
    assert (found.status, found.reason) == ("done", "invitation pending")
    text = reply_text(runtime, before, SPAIN)
    shown = "JOIN tiger tiger tiger tiger tiger tiger tiger tiger tiger t\u2026"
    assert f"IGNORED\n  {shown}\n     -> {TOO_LONG}\n" in text
    assert "thanks\n" in text and seconds < 2, seconds  # the line after it is read
    # A JOIN that can be read takes the seat.
    found, _ = delivered(runtime, compose(SPAIN, seat, "JOIN tiger 4417"), seat)
    assert found.reason != "invitation pending"


def test_a_new_line_too_long_to_read_starts_no_game(runtime: Runtime) -> None:
    new = "NEW THERMOPYLES " + " ".join(["tiger"] * 300)
    before = len(sent(runtime))
    found, _ = delivered(runtime, compose(PLAYER, "new@pbem.localhost", new), "new@pbem.localhost")
    assert (found.status, found.reason) == ("rejected", f"the NEW line is {TOO_LONG}")
    assert f"the NEW line is {TOO_LONG}" in reply_text(runtime, before, PLAYER)


def test_a_game_masters_line_too_long_to_read_is_answered_so(runtime: Runtime) -> None:
    _, gm_address, _ = started(runtime)
    extend = "EXTEND " + "1" * 100_000 + "h"
    found, _ = delivered(runtime, compose(GM, gm_address, f"{extend}\nEXTEND 1h"), gm_address)
    # It was dropped unmentioned, and the EXTEND 1h after it too (the subject alone was read).
    assert (found.status, found.reason) == ("done", "game-master commands: 1 of 2 done")
    text = last_to(runtime, GM)
    assert f"EXTEND {'1' * 53}\u2026\n     -> {TOO_LONG}" in text


def test_the_public_checker_answers_a_long_line_with_the_reason(runtime: Runtime) -> None:
    client = create_app(runtime).test_client()
    url = "/help/thermopyles/check"
    # It answered 500 (RecursionError); ``check`` asserts a 200.
    shown = receipt(check(client, url, RETREATS))
    assert f"{SHOWN}\n     -> {TOO_LONG}" in shown
    for lang, reason in IN_LANGUAGE.items():
        assert reason in receipt(check(client, f"{url}?lang={lang}", RETREATS))
    url = f"{url}?lang=en"  # the page remembers the last language asked for
    many = " ".join(["RETREAT"] * (limits.LINE_WORDS + 1))
    assert TOO_MANY in receipt(check(client, url, many))
    at_bound = receipt(check(client, url, " ".join(["RETREAT"] * limits.LINE_WORDS)))
    assert "-> accepted" in at_bound and "too long" not in at_bound
    # A JOIN line as long as the checker reads is too long; a longer text is refused whole.
    assert TOO_LONG in receipt(check(client, url, "JOIN " + " ".join(["tiger"] * 3_000)))
    join = "JOIN " + " ".join(["tiger"] * 17_000)
    answer = client.post(url, data={csrf.FIELD: token(client, url), "orders": join})
    assert answer.status_code == 413, answer.status_code
    assert "That is more than the checker reads (20 KB)" in answer.get_data(as_text=True)


def test_the_adjudication_api_ignores_a_long_line_and_reads_the_rest(runtime: Runtime) -> None:
    client = create_app(runtime).test_client()
    request = a_case()
    orders = dict(request["orders"])  # type: ignore[call-overload]
    moves = " ".join(["16-14"] * 2400)
    request["orders"] = {**orders, "france": f"{orders['france']}\n{moves}"}
    answer = client.post("/api/adjudicate/2demayo", json=request)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    *others, long_line = answer.get_json()["receipts"]["france"]
    assert others and all(line["status"] == "accepted" for line in others)
    assert long_line["status"] == "ignored" and long_line["reason"] == TOO_LONG


def test_joined_notes_nest_by_halves_so_no_number_of_them_is_too_deep() -> None:
    # One level per note reached the recursion limit at 900 notes.
    parts = [said._("one action per mail; the next is decided after you see this one's result")]
    sentence = said.joined(parts * 100_000)
    assert sentence == "; ".join(parts * 100_000)
    again = said.restored(said.stored(sentence))
    assert said.anew(again) == sentence
    assert said.joined(["a", "b", "c"], ", ") == "a, b, c" and said.joined([]) == ""


NESTED = b"Content-Type: message/rfc822\n\n" * 5000  # 150 KB, no boundary line at all


def test_a_mail_of_thousands_of_nested_parts_is_read_as_far_as_its_bound() -> None:
    head = b"From: leonidas@example.com\nTo: help@pbem.localhost\nSubject: help\n"
    mail = read(head + NESTED + b"From: x@example.com\n\nHELP\n")
    # It was Unreadable: "could not parse the message (RecursionError)".
    assert isinstance(mail, MailIn) and mail.sender == "leonidas@example.com"
    shallow = read(head + b"Content-Type: message/rfc822\n\n" * 3 + b"From: x@example.com\n\nHI\n")
    assert isinstance(shallow, MailIn)
    report = (
        b"From: mailer-daemon@example.com\nContent-Type: multipart/report;"
        b' report-type=delivery-status; boundary="b"\n\n--b\n'
    )
    refused = bounces.read_report(report + NESTED)
    assert "RecursionError" not in str(refused)


def test_a_mail_of_nested_parts_by_mail_is_answered(runtime: Runtime) -> None:
    help_address = "help@pbem.localhost"
    head = f"From: {PLAYER}\nTo: {help_address}\nSubject: help\nMessage-ID: <n1@example.com>\n"
    raw = head.encode() + NESTED + b"From: x@example.com\n\nHELP\n"
    before = len(sent(runtime))
    found, seconds = delivered(runtime, raw, help_address)
    # It was rejected as unreadable ("could not parse the message (RecursionError)").
    assert (found.status, found.reason) == ("done", "help sent"), found.reason
    assert sent(runtime, before) and seconds < 2, seconds
