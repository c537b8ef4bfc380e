"""What a stranger cannot make the service choke on, each through the real entry points on SQLite
and PostgreSQL: numbers too long for int(), JSON nested past the parser's recursion, a From that
names several mailboxes, and a body far longer than any order set."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from playbymail import compose, deliver_mail, drain, sent, sent_count, text_of
from sqlalchemy import select
from test_api import a_case
from test_attacks import (
    FRANCE,
    HELP,
    LEONIDAS,
    NEW,
    STRANGER,
    assert_one_polite_reply,
    dos_game,
    row,
    submissions,
    timed_delivery,
)
from test_game_master import GM, last_to, started
from test_help_pages import check, receipt
from test_pipeline import PLAYER, position, start

from adjudicator import cli
from adjudicator.core import numbers
from adjudicator.games import registry
from adjudicator.mail import extract
from adjudicator.mail.reading import MailIn, read
from adjudicator.models import Game, InboundMessage, Player
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

HUGE = "9" * 5000  # past int()'s 4,300 digits
# Far past any number a game reads, on a line short enough to be read at all: a line holding
# HUGE is longer than limits.LINE_CHARACTERS, and answered as too long to read before its number.
LONG = "9" * 900
TOO_LONG = "is too long to read"


def status(runtime: Runtime, inbound_id: int) -> tuple[str, str]:
    with runtime.db.session() as session:
        found = session.get_one(InboundMessage, inbound_id)
        return found.status, found.reason


# --- numbers ------------------------------------------------------------------------------------


def test_a_number_too_long_for_int_is_a_refused_line_in_every_game_checker(
    runtime: Runtime,
) -> None:
    client = create_app(runtime).test_client()
    lines = {
        "thermopyles": [f"FIGHT {LONG}", f"FIGHT 17 SUPPORT {LONG}", LONG],
        "2demayo": [f"{LONG}-14", f"16-{LONG}", f"16-14 x{LONG}", f"ENTER OFF{LONG}", LONG],
        "musketpike": [f"R-LEFT MOVE {LONG}.3", f"STANDING CONTINUE {LONG}", LONG],
    }
    assert set(lines) == set(registry.games())
    for key, bad in lines.items():
        for line in bad:
            shown = receipt(check(client, f"/help/{key}/check", f"{line}\nthanks"))
            assert "-> rejected (a number of 900 digits is too long to read" in shown, (key, line)
    # One digit past the limit is refused the same way; the limit itself is still a number.
    over = "1" * (numbers.MAX_DIGITS + 1)
    assert TOO_LONG in receipt(check(client, "/help/thermopyles/check", f"FIGHT {over}"))
    at_limit = receipt(check(client, "/help/thermopyles/check", "FIGHT " + "1" * 20))
    assert TOO_LONG not in at_limit and "-> rejected" in at_limit  # no such card, as ever
    # A number past int()'s digits makes a line too long to read, and is answered so.
    huge = receipt(check(client, "/help/thermopyles/check", f"FIGHT {HUGE}"))
    assert "-> too long to read: a line holds at most 1000 characters" in huge


def test_the_adjudication_api_refuses_the_line_not_the_request(runtime: Runtime) -> None:
    client = create_app(runtime).test_client()
    request = a_case()
    orders = dict(request["orders"])  # type: ignore[call-overload]
    request["orders"] = {**orders, "france": f"{orders['france']}\n{LONG}-14"}
    answer = client.post("/api/adjudicate/2demayo", json=request)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    *others, move = answer.get_json()["receipts"]["france"]
    assert others and all(line["status"] == "accepted" for line in others)
    assert move["status"] == "rejected" and TOO_LONG in move["reason"]
    # A turn that no int can hold in the position itself (JSON to Python has Infinity) is an
    # error in the answer, not a 500.
    refused = client.post(
        "/api/adjudicate/2demayo",
        data='{"position": {"last": {"turn": Infinity}, "turn": 2}, "orders": {}}',
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert "last is damaged" in refused.get_json()["errors"][0]


def test_a_long_number_by_mail_is_answered_with_a_receipt(runtime: Runtime) -> None:
    _, reply_to = start(runtime)
    web = create_app(runtime).test_client()
    token = {"Authorization": f"Bearer {runtime.config.inbound_token}"}
    raw = compose(PLAYER, reply_to, f"FIGHT {LONG}")
    answer = web.post("/inbound/mime", query_string={"rcpt": reply_to}, data=raw, headers=token)
    assert answer.status_code == 202
    before = len(sent(runtime))
    drain(runtime)
    assert status(runtime, answer.get_json()["id"]) == ("done", "orders not accepted; receipt sent")
    [receipt_mail] = sent(runtime, before)
    assert receipt_mail["To"] == PLAYER
    assert "a number of 900 digits is too long to read" in text_of(receipt_mail)


def test_long_numbers_in_commands_settings_and_addresses_are_refused(runtime: Runtime) -> None:
    _, reply_to = start(runtime)
    inbound = deliver_mail(runtime, compose(PLAYER, reply_to, f"PREFERENCES REMIND {LONG}"))
    assert status(runtime, inbound)[0] == "done"
    assert "REMIND takes hours before the deadline" in text_of(sent(runtime)[-1])
    with runtime.db.session() as session:
        player = session.scalars(select(Player).where(Player.address == PLAYER)).one()
        assert player.reminder_hours is None  # unchanged: the game's own
    # A reply address whose game id is 5000 digits long is no token at all.
    local, domain = reply_to.split("@")
    forged = f"orders+{HUGE}-{local.split('-', 1)[1]}@{domain}"
    inbound = deliver_mail(runtime, compose(PLAYER, forged, "RETREAT"), [forged])
    assert status(runtime, inbound) == (
        "ignored",
        f"unknown address {forged}: stored, not answered",
    )


def test_long_numbers_in_a_game_masters_settings_and_lengths_are_refused(
    runtime: Runtime,
) -> None:
    new = f"NEW 2DEMAYO\nFRANCE me\nSPAIN b@example.com\nGRACE {LONG}"
    inbound = deliver_mail(runtime, compose(GM, "new@pbem.localhost", new))
    assert status(runtime, inbound)[0] == "rejected"
    assert "GRACE takes minutes of grace after a deadline" in last_to(runtime, GM)
    _, gm_address, _ = started(runtime)
    for length in ("99999999999d", f"{LONG}h"):
        inbound = deliver_mail(runtime, compose(GM, gm_address, f"EXTEND {length}"))
        assert status(runtime, inbound)[0] == "done"
        assert "is too long: at most 365 days" in last_to(runtime, GM)


# --- nested JSON --------------------------------------------------------------------------------

DEEP = "[" * 200_000 + "]" * 200_000  # past the parser's recursion, far under any size limit


def test_deeply_nested_json_is_a_400_with_a_reason_at_every_json_door(runtime: Runtime) -> None:
    config = runtime.config.with_overrides(
        postmark_user="pbem",
        postmark_password="s3cret",
        ses_topic_arns="arn:aws:sns:us-east-1:012345678912:example-topic",
    )
    app = create_app(Runtime(config, runtime.db, runtime.enqueue))
    web = app.test_client()
    deep_object = '{"a":' * 100_000 + "1" + "}" * 100_000
    for body in (DEEP, deep_object, '{"position": ' + DEEP + "}"):
        answer = web.post("/api/adjudicate/2demayo", data=body, content_type="application/json")
        assert answer.status_code == 400, answer.status_code
        [error] = answer.get_json()["errors"]
        assert "nested more than 64 levels deep" in error and "send a JSON object" in error
    # Brackets inside strings are text, and an honest position still nests a few levels.
    honest = dict(a_case(), note="[" * 1000)
    assert web.post("/api/adjudicate/2demayo", json=honest).status_code == 200
    answer = web.post("/api/adjudicate/2demayo", data="[1,", content_type="application/json")
    assert answer.status_code == 400 and "not JSON" in answer.get_json()["errors"][0]
    # The webhooks that read JSON: SES (before any signature is checked) and Postmark.
    ses = web.post(
        "/inbound/ses",
        data=DEEP,
        content_type="text/plain; charset=UTF-8",
        headers={"x-amz-sns-message-type": "Notification"},
    )
    assert ses.status_code == 400 and ses.get_json()["error"] == "not an SNS message"
    postmark = web.post(
        "/inbound/postmark", data=DEEP, content_type="application/json", auth=("pbem", "s3cret")
    )
    assert postmark.status_code == 403
    assert postmark.get_json()["error"] == "expected Postmark's inbound JSON"
    with runtime.db.session() as session:
        assert session.scalars(select(InboundMessage)).first() is None


def test_the_cli_refuses_a_deeply_nested_case_file(tmp_path: Path) -> None:
    case = tmp_path / "case.json"
    case.write_text(DEEP)
    result = CliRunner().invoke(cli.main, ["adjudicate", "2demayo", str(case)])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert "is JSON nested more than 64 levels deep, which is not read" in result.output


# --- a From with several mailboxes --------------------------------------------------------------


def test_a_from_that_names_several_mailboxes_is_refused_with_a_reply_to_the_first(
    runtime: Runtime,
) -> None:
    game_id, seats = dos_game(runtime)
    france = seats[FRANCE]
    orders = "TAKE MURAT\n16-14 x1\nDRAW\nRESIGN"
    plain = compose(FRANCE, france, "TAKE MURAT\n16-14 x1\nDRAW")
    cases = [
        (compose(f"{FRANCE}, {STRANGER}", france, orders), "its From line names 2 addresses"),
        (compose(f"Murat <{FRANCE}>, <{STRANGER}>", france, orders), "names 2 addresses"),
        (b"From: " + FRANCE.encode() + b"\n" + compose(STRANGER, france, orders), "2 From lines"),
        (compose(f"team: {FRANCE}, {STRANGER};", france, orders), "names a group of addresses"),
        (compose(f"team: {FRANCE};", france, orders), "names a group of addresses"),
    ]
    for raw, why in cases:
        before = sent_count(runtime)
        inbound = deliver_mail(runtime, raw, [france])
        found = row(runtime, inbound)
        assert found.status == "rejected" and found.reason.startswith("not from one address: ")
        assert why in found.reason, found.reason
        assert found.raw == raw  # kept as it came, for `pbem mail inspect`
        reply = assert_one_polite_reply(sent(runtime, before), FRANCE, "does not say who sent it")
        assert STRANGER not in reply.as_string()
    # Nothing was filed and the RESIGN in every one of them did nothing.
    assert submissions(runtime) == []
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).status == "active"
    # The same to new@ starts no game; to help@ it sends no help, and since Leonidas is no
    # player and was just answered, not even the refusal (forged From lines make no backscatter).
    before = sent_count(runtime)
    inbound = deliver_mail(runtime, compose(f"{LEONIDAS}, {STRANGER}", NEW, "NEW THERMOPYLES"))
    assert row(runtime, inbound).status == "rejected"
    assert_one_polite_reply(sent(runtime, before), LEONIDAS, "does not say who sent it")
    inbound = deliver_mail(runtime, compose(f"{LEONIDAS}, {STRANGER}", HELP, "HELP"), [HELP])
    found = row(runtime, inbound)
    assert found.status == "rejected" and "; reply suppressed: " in found.reason
    assert sent_count(runtime) == before + 1
    before = sent_count(runtime)
    auto = compose(
        f"{FRANCE}, {STRANGER}", france, orders, headers={"Auto-Submitted": "auto-replied"}
    )
    assert row(runtime, deliver_mail(runtime, auto, [france])).status == "ignored"
    assert sent(runtime, before) == []
    with runtime.db.session() as session:
        assert session.scalars(select(Game).where(Game.game_key == "thermopyles")).first() is None
    # One mailbox, as ever, is read.
    deliver_mail(runtime, plain, [france])
    assert submissions(runtime) == [(game_id, "france", True)]


# --- a body far longer than any order set -------------------------------------------------------

LONG_BODY = "hi, me again\n" * 140_000  # 1.8 MB of chatter, 140,000 lines
UNREAD = f"lines after line {extract.MAX_LINES}\n     -> not read: only the first 500 lines"


def test_only_the_head_of_a_long_body_is_read_and_the_reply_says_where_reading_stopped(
    runtime: Runtime,
) -> None:
    game_id, reply_to = start(runtime)
    _, view = position(runtime, game_id)
    card = max(view["hand"])
    before = len(sent(runtime))
    raw = compose(PLAYER, reply_to, f"FIGHT {card}\n{LONG_BODY}")
    assert len(raw) > 1_700_000
    found, seconds = timed_delivery(runtime, raw, [reply_to])
    assert (found.status, found.reason) == ("done", "turn 1 resolved")
    [report] = sent(runtime, before)
    text = text_of(report).replace("\r\n", "\n")
    assert f"FIGHT {card}" in text and UNREAD in text
    assert len(report.as_bytes()) < 1_000_000  # a receipt for 500 lines, not for 140,000
    # CPU seconds of this process (the machine is shared): 17 s before the bound, 0.2 s after.
    assert seconds < 5, seconds
    # To help@ a stranger's long mail costs as little.
    found, seconds = timed_delivery(runtime, compose(STRANGER, HELP, LONG_BODY), [HELP])
    assert found.status == "done" and seconds < 5, (found.reason, seconds)


def test_the_checker_reads_the_same_head_and_quoted_history_is_no_unread_text(
    runtime: Runtime,
) -> None:
    client = create_app(runtime).test_client()
    url = "/help/thermopyles/check"
    shown = receipt(check(client, url, "hi\n" * extract.MAX_LINES + "FIGHT 17"))
    assert UNREAD in shown and "FIGHT 17" not in shown
    # A reply above a long quoted thread, or above a long signature, has lost nothing.
    quoted = "FIGHT 17\nOn Mon, 4 Mar 2024 at 10:12, Judge <judge@example.com> wrote:\n"
    for text in (quoted + "> old turn\n" * 3000, "FIGHT 17\n-- \nLeo\n" + "Sparta\n" * 3000):
        shown = receipt(check(client, url, text[:20_000]))
        assert "not read" not in shown and "FIGHT 17" in shown


def test_an_html_only_body_is_converted_only_as_far_as_it_is_read() -> None:
    # A client that sends HTML alone: its text comes from converting the HTML, which is stopped
    # soon after the lines that are read, and what was read still ends on the note.
    body = "<p>FIGHT 17</p>\n" + "<p>hi, me again</p>\n" * 90_000
    raw = (
        "From: leonidas@example.com\nTo: help@pbem.localhost\nSubject: orders\n"
        "Content-Type: text/html; charset=utf-8\n\n<html><body>" + body + "</body></html>"
    ).encode()
    mail = read(raw)
    assert isinstance(mail, MailIn)
    assert extract.MAX_LINES < mail.text.count("\n") < 10 * extract.MAX_LINES
    own = extract.own_text(mail.text)
    assert own.lines[0] == "FIGHT 17" and own.unread_after == extract.MAX_LINES
    # A short HTML reply above a long quoted thread loses nothing.
    quoted = "<div>FIGHT 17</div><blockquote>" + "<p>old turn</p>" * 3000 + "</blockquote>"
    mail = read(raw.replace(body.encode(), quoted.encode()))
    assert isinstance(mail, MailIn)
    assert extract.own_text(mail.text) == extract.OwnText(["FIGHT 17"])
