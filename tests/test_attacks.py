"""Attacks on the service, each a test that shows it failing: nothing is stored wrongly, no seat
is taken over, nothing hidden is revealed, and a person who wrote gets a polite answer (an
auto-responder never does).

1. forged, truncated, re-aimed and foreign-keyed reply tokens;
2. spoofed From lines, with and without a game that requires DKIM;
3. replayed provider webhooks (Mailgun, SendGrid, Postmark, SES through SNS);
4. oversized and pathological mail over HTTP and the real SMTP listener;
5. header injection through subjects, names and the addresses a game master writes;
6. script payloads in orders, names and subjects, in the HTML parts of the mail sent back;
7. a leak scan over every mail and public page of whole games played to their ends.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import html
import random
import re
import smtplib
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from html.parser import HTMLParser
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import free_port
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from dkimkeys import Signers
from dos_de_mayo_by_mail import FRANCE, GM, SPAIN, start_dos_de_mayo
from markupsafe import escape
from playbymail import compose, deliver_mail, drain, html_of, reply_to, sent, sent_count, text_of
from sqlalchemy import func, select
from test_leak_crawl import crawl, opening, position, private_lines
from test_providers import (
    MAILGUN_KEY,
    RAW,
    Keys,
    fixture,
    mailgun_fields,
    multipart,
    post_mailgun,
    post_postmark,
    post_sns,
    sendgrid_key,
    ses_notification,
)

from adjudicator import smtp
from adjudicator.games import registry
from adjudicator.games.thermopyles import strategy
from adjudicator.mail import addresses, sns
from adjudicator.models import Game, InboundMessage, OutboxMessage, Player, Submission, Turn
from adjudicator.services.inbound import inbox
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app
from adjudicator.web import providers as provider_views

DOMAIN = "pbem.localhost"
NEW, HELP = f"new@{DOMAIN}", f"help@{DOMAIN}"
OTHER = "palafox@example.com"  # France's opponent in a second game
LEONIDAS = "leonidas@example.com"
STRANGER = "mallory@evil.example"
DOS = registry.games()["2demayo"]
THERMOPYLES = registry.games()["thermopyles"]
SPARTANS = THERMOPYLES.seats[0]
BAD_MAC = "reply address: token does not check out (truncated or forged?)"


# --- helpers ------------------------------------------------------------------------------------


def with_config(runtime: Runtime, **values: Any) -> Runtime:
    return Runtime(runtime.config.with_overrides(**values), runtime.db, runtime.enqueue)


def row(runtime: Runtime, inbound_id: int) -> InboundMessage:
    with runtime.db.session() as session:
        found = session.get_one(InboundMessage, inbound_id)
        session.expunge(found)
        return found


def inbound_count(runtime: Runtime) -> int:
    with runtime.db.session() as session:
        return session.scalar(select(func.count(InboundMessage.id))) or 0


def submissions(runtime: Runtime) -> list[tuple[int, str, bool]]:
    with runtime.db.session() as session:
        found = session.execute(
            select(Submission.game_id, Submission.seat, Submission.accepted).order_by(Submission.id)
        )
        return [(game_id, seat, accepted) for game_id, seat, accepted in found]


def turns(runtime: Runtime, game_id: int) -> int:
    with runtime.db.session() as session:
        return session.scalar(select(func.count(Turn.id)).where(Turn.game_id == game_id)) or 0


def dos_game(
    runtime: Runtime, france: str = FRANCE, spain: str = SPAIN, **extra: Any
) -> tuple[int, dict[str, str]]:
    """A 2 de Mayo game started by the game-master service; each player's reply address."""
    return start_dos_de_mayo(runtime, france, spain, gm_address=GM, **extra)


def parse(raw: bytes) -> EmailMessage:
    parsed: EmailMessage = BytesParser(policy=policy.default).parsebytes(raw)  # type: ignore[assignment]
    return parsed


def assert_one_polite_reply(mails: list[EmailMessage], to: str, says: str) -> EmailMessage:
    """Exactly one mail went out, to ``to`` alone, a problem reply saying ``says``."""
    assert [str(m["To"]) for m in mails] == [to], [str(m["To"]) for m in mails]
    [mail] = mails
    assert mail["X-Pbem-Kind"] == "problem"
    assert mail["Auto-Submitted"] == "auto-generated"
    assert says in text_of(mail), text_of(mail)
    return mail


# --- 1. reply tokens ------------------------------------------------------------------------------


def test_forged_truncated_and_reaimed_tokens_file_no_orders(runtime: Runtime) -> None:
    game_a, seats_a = dos_game(runtime)
    game_b, _ = dos_game(runtime, spain=OTHER)
    france_a = addresses.route(seats_a[FRANCE], DOMAIN, runtime.config.secret_key)
    assert isinstance(france_a, addresses.SeatRoute) and france_a.game_id == game_a
    mac = seats_a[FRANCE].split("@")[0].rsplit("-", 1)[1]
    assert len(mac) == addresses.MAC_LENGTH
    flipped = mac[:-1] + ("0" if mac[-1] != "0" else "1")
    foreign = addresses.seat_token("some-other-secret", game_a, "france")
    attacks = [
        # (who sends it, the address, what it tries)
        (FRANCE, f"orders+{game_a}-france-1-{flipped}@{DOMAIN}", "forged mac"),
        (FRANCE, f"orders+{game_a}-france-1-{mac[:10]}@{DOMAIN}", "truncated mac"),
        # Game A's France token re-aimed at game B, sent by B's real France player.
        (FRANCE, f"orders+{game_b}-france-1-{mac}@{DOMAIN}", "game A's token for game B"),
        # France's mac on Spain's seat, sent in Spain's own name: only the token stops it.
        (SPAIN, f"orders+{game_a}-spain-1-{mac}@{DOMAIN}", "seat X's token for seat Y"),
        (SPAIN, f"orders+{game_a}-spain-2-{mac}@{DOMAIN}", "another key version"),
        (FRANCE, addresses.reply_address(foreign, DOMAIN), "a token under another secret"),
    ]
    for sender, address, what in attacks:
        before = sent_count(runtime)
        orders = "TAKE MURAT\n16-14 x1\nDRAW" if "france" in address else "9-14\nNODRAW"
        inbound_id = deliver_mail(runtime, compose(sender, address, orders), [address])
        record = row(runtime, inbound_id)
        assert (record.status, record.reason) == ("rejected", BAD_MAC), what
        assert record.game_id is None, what  # attributed to no game
        assert_one_polite_reply(sent(runtime, before), sender, "is not one this service handed out")
    # A mac cut off, or one character too long, is no address the service hands out: the SMTP
    # listener refuses it at RCPT, and what a webhook delivers to it is kept, not answered.
    before = sent_count(runtime)
    for shapeless in (
        f"orders+{game_a}-france-1-@{DOMAIN}",
        f"orders+{game_a}-france-1-{mac}0@{DOMAIN}",
    ):
        record = row(
            runtime, deliver_mail(runtime, compose(FRANCE, shapeless, "16-14 x1"), [shapeless])
        )
        assert (record.status, record.reason) == (
            "ignored",
            f"unknown address {shapeless}: stored, not answered",
        )
    assert sent_count(runtime) == before
    assert submissions(runtime) == []
    assert turns(runtime, game_a) == turns(runtime, game_b) == 1
    # The genuine addresses still work: the refusals above were the token check, nothing else.
    deliver_mail(runtime, compose(FRANCE, seats_a[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW"))
    assert submissions(runtime) == [(game_a, "france", True)]


def test_a_token_in_the_to_header_does_not_beat_the_envelope(runtime: Runtime) -> None:
    # The envelope says help@; a genuine seat token written only into To: is not acted on.
    _, seats = dos_game(runtime)
    inbound_id = deliver_mail(runtime, compose(SPAIN, seats[FRANCE], "16-14 x1"), [HELP])
    assert row(runtime, inbound_id).status == "done"
    assert submissions(runtime) == []


# --- 2. spoofed From --------------------------------------------------------------------------


def test_mail_to_a_seat_from_anyone_but_its_player_is_refused(runtime: Runtime) -> None:
    game_id, seats = dos_game(runtime)
    cases = [
        (STRANGER, STRANGER, "a stranger"),
        (SPAIN, SPAIN, "the other player"),
        # An address in the display name is a name: the mail is Mallory's.
        (f'"{FRANCE}" <{STRANGER}>', STRANGER, "the player's address as a display name"),
        (f"=?utf-8?q?{FRANCE.replace('@', '=40')}?= <{STRANGER}>", STRANGER, "encoded word"),
        # Not valid, and read by mail programs (and the provider that signs) as Mallory's.
        (f"{FRANCE} <{STRANGER}>", STRANGER, "an unquoted address before the real one"),
    ]
    for number, (sender, answered, what) in enumerate(cases):
        before = sent_count(runtime)
        raw = compose(sender, seats[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW\nRESIGN")
        record = row(runtime, deliver_mail(runtime, raw))
        reason = f"{answered} does not hold seat france"
        mails = sent(runtime, before)
        if answered == STRANGER and number > 0:
            # A stranger is answered once a day at most: forged mail makes no backscatter.
            reason += (
                f"; reply suppressed: {STRANGER} is no player and was already answered within 24h"
            )
            assert mails == [], what
        else:
            assert_one_polite_reply(mails, answered, "does not hold the France seat")
        assert (record.status, record.reason) == ("rejected", reason), what
    assert submissions(runtime) == []
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.status == "active"  # RESIGN in someone else's name did nothing


def test_a_reply_to_or_sender_header_never_receives_the_seat_mail(runtime: Runtime) -> None:
    # Without DKIM the From line is the proof the service asks for (docs/mail.md); what it
    # promises is that everything about a seat goes to the seat's own address, so a spoofer
    # pointing Reply-To, Sender or the envelope at himself learns nothing.
    game_id, seats = dos_game(runtime)
    before = sent_count(runtime)
    raw = compose(
        FRANCE,
        seats[FRANCE],
        "TAKE MURAT\n16-14 x1\nDRAW\nSTATUS",
        headers={"Reply-To": STRANGER, "Sender": STRANGER, "Cc": STRANGER},
    )
    stored = inbox.store(runtime, raw, "test", envelope_from=STRANGER, envelope_to=[seats[FRANCE]])
    assert isinstance(stored, inbox.Stored)
    drain(runtime)
    mails = sent(runtime, before)
    assert [str(m["To"]) for m in mails] == [FRANCE]
    assert all(STRANGER not in m.as_string() for m in mails)
    assert submissions(runtime) == [(game_id, "france", True)]


def test_the_same_attacks_from_an_auto_responder_are_never_answered(runtime: Runtime) -> None:
    # Spain is a player, so every mail of Spain's would be answered; these look automatic.
    _, seats = dos_game(runtime)
    before = sent_count(runtime)
    automatic = [
        {"Auto-Submitted": "auto-replied"},
        {"Precedence": "bulk"},
        {"X-Autoreply": "yes"},
        {"List-Id": "<players.lists.example.com>"},
    ]
    targets = [
        f"orders+1-france-1-0000000000000000@{DOMAIN}",  # a forged token
        seats[FRANCE],  # the other player's seat
        f"info@{DOMAIN}",  # no such address
    ]
    for headers in automatic:
        for to in targets:
            raw = compose(SPAIN, to, "16-14 x1\nRESIGN", subject="Out of office", headers=headers)
            record = row(runtime, deliver_mail(runtime, raw, [to]))
            assert record.status == "ignored", (headers, to, record.reason)
            assert record.reason.startswith("automatic mail, never answered"), record.reason
    assert sent(runtime, before) == []
    assert submissions(runtime) == []


def test_a_dkim_game_refuses_every_unproven_from(runtime: Runtime, dns: Signers) -> None:
    game_id, seats = dos_game(runtime, require_dkim=True)
    france = seats[FRANCE]
    orders = "TAKE MURAT\n16-14 x1\nDRAW"
    # Gmail-like: From, To, Subject and Message-ID signed once each (no over-signing).
    once = {"include_headers": [b"from", b"to", b"subject", b"message-id"]}
    mallory_at_example = dns.sign(compose("mallory@example.com", france, orders), **once)
    cases = [
        (compose(FRANCE, france, orders), "DKIM required, verdict none"),
        # Mallory's own domain signs it, validly: a signature, but not France's domain's.
        (
            dns.sign(compose(FRANCE, france, orders), "evil.example"),
            "DKIM required, verdict fail: signed by d=evil.example, not by example.com",
        ),
        # Mallory has an account at France's provider; a second From is put above the signed one.
        # A mail has one From line: two are refused before any game is looked at.
        (
            b"From: " + FRANCE.encode() + b"\n" + mallory_at_example,
            "not from one address: the mail has 2 From lines",
        ),
        # France's genuine signature on other orders, the body rewritten on the way.
        (
            dns.sign(compose(FRANCE, france, "9-14")).replace(b"9-14", b"16-14 x1"),
            "DKIM required, verdict fail: d=example.com: body hash mismatch: the body was "
            "changed after it was signed",
        ),
    ]
    for raw, reason in cases:
        before = sent_count(runtime)
        record = row(runtime, deliver_mail(runtime, raw, [france]))
        assert (record.status, record.reason) == ("rejected", reason)
        # The real player is told (someone may be writing in their name); nobody else is.
        says = "did not verify" if reason.startswith("DKIM") else "does not say who sent it"
        assert_one_polite_reply(sent(runtime, before), FRANCE, says)
    # "murat@… <mallory@…>" is Mallory's mailbox to her provider, which signs it as hers; read
    # as Murat's, the signature would pass for example.com. It is read as Mallory's.
    before = sent_count(runtime)
    raw = dns.sign(compose(f"{FRANCE} <mallory@example.com>", france, orders))
    record = row(runtime, deliver_mail(runtime, raw, [france]))
    assert record.dkim == "pass d=example.com"
    assert (record.status, record.reason) == (
        "rejected",
        "mallory@example.com does not hold seat france",
    )
    assert_one_polite_reply(sent(runtime, before), "mallory@example.com", "does not hold")
    assert submissions(runtime) == []
    # The same orders, properly signed, are taken: the refusals were the DKIM check.
    signed = dns.sign(compose(FRANCE, france, orders))
    first = deliver_mail(runtime, signed, [france])
    assert row(runtime, first).dkim == "pass d=example.com"
    assert submissions(runtime) == [(game_id, "france", True)]
    # Replaying that signed mail later changes nothing: it is the same message, stored once.
    replay = inbox.store(runtime, signed, "test", envelope_to=[france])
    assert replay == inbox.Stored(first, duplicate=True)
    drain(runtime)
    assert submissions(runtime) == [(game_id, "france", True)]


# --- 3. replayed webhooks ---------------------------------------------------------------------


def replies_once_to_leonidas(runtime: Runtime) -> None:
    drain(runtime)
    assert [str(m["To"]) for m in sent(runtime)] == [LEONIDAS]
    with runtime.db.session() as session:
        assert session.scalar(select(func.count(Game.id))) == 1  # one game, not three


def test_a_replayed_mailgun_post_is_stored_once_answered_once(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    web = create_app(with_config(runtime, mailgun_signing_key=MAILGUN_KEY)).test_client()
    captured = mailgun_fields()
    answers = [post_mailgun(web, captured) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 406, 406]
    assert all("already used" in a.get_json()["error"] for a in answers[1:])
    assert inbound_count(runtime) == 1
    replies_once_to_leonidas(runtime)
    # Later, with a fresh token but the old timestamp (or the captured post as it was), the
    # age check refuses it before anything is looked up or stored.
    later = time.time() + runtime.config.webhook_max_age_seconds + 60
    monkeypatch.setattr(provider_views, "time", SimpleNamespace(time=lambda: later))
    token = uuid.uuid4().hex + "0123456789abcdef01"
    stale = dict(captured, token=token)
    stale["body-mime"] = compose(LEONIDAS, NEW, "NEW THERMOPYLES")
    stale["signature"] = hmac.new(
        MAILGUN_KEY.encode(), (str(captured["timestamp"]) + token).encode(), hashlib.sha256
    ).hexdigest()
    for attempt in (stale, captured):
        answer = post_mailgun(web, attempt)
        assert answer.status_code == 406
        assert "timestamp" in answer.get_json()["error"]
    assert inbound_count(runtime) == 1


def test_replayed_sendgrid_postmark_and_ses_posts_are_stored_once(runtime: Runtime) -> None:
    private, public = sendgrid_key()
    keys = Keys()
    app = create_app(
        with_config(
            runtime,
            sendgrid_user="pbem",
            sendgrid_password="s3cret",
            sendgrid_public_key=public,
            postmark_user="pbem",
            postmark_password="s3cret",
            ses_topic_arns="arn:aws:sns:us-east-1:012345678912:example-topic",
        )
    )
    app.extensions["pbem.sns"] = sns.Verifier(fetch=keys.fetch)
    web = app.test_client()
    # Each provider's signed post, captured once and sent three times as it was. SendGrid's
    # signature covers the whole body and SNS's the whole notification, so a replay can only
    # bring back the same message: it collapses onto the stored one (Message-ID, else SHA-256).
    body, content_type = multipart({**fixture("sendgrid-fields.json"), "email": RAW})
    stamp = str(int(time.time()))
    signed = {
        "X-Twilio-Email-Event-Webhook-Signature": base64.b64encode(
            private.sign(stamp.encode() + body, ec.ECDSA(hashes.SHA256()))
        ).decode(),
        "X-Twilio-Email-Event-Webhook-Timestamp": stamp,
    }
    notification = keys.sign(ses_notification(RAW))
    for name, post in (
        (
            "sendgrid",
            lambda: web.post(
                "/inbound/sendgrid",
                data=body,
                content_type=content_type,
                headers=signed,
                auth=("pbem", "s3cret"),
            ),
        ),
        ("postmark", lambda: post_postmark(web)),
        ("ses", lambda: post_sns(web, notification)),
    ):
        answers = [post() for _ in range(3)]
        assert [a.status_code for a in answers] == [200] * 3, name
        assert len({a.get_json()["id"] for a in answers}) == 1, name
        assert [a.get_json()["duplicate"] for a in answers][1:] == [True, True], name
    assert inbound_count(runtime) == 1
    replies_once_to_leonidas(runtime)


def test_a_message_without_message_id_replayed_is_stored_once(runtime: Runtime) -> None:
    raw = b"From: leonidas@example.com\r\nTo: new@pbem.localhost\r\n\r\nNEW THERMOPYLES\r\n"
    web = create_app(runtime).test_client()
    token = {"Authorization": f"Bearer {runtime.config.inbound_token}"}
    answers = [web.post(f"/inbound/mime?rcpt={NEW}", data=raw, headers=token) for _ in range(3)]
    assert [a.status_code for a in answers] == [202] * 3
    assert [a.get_json()["duplicate"] for a in answers] == [False, True, True]
    replies_once_to_leonidas(runtime)


# --- 4. oversized and pathological mail -------------------------------------------------------


def big_mail(sender: str, to: str, body: str, attachment: int) -> bytes:
    """A text part and one binary attachment of ``attachment`` bytes, in base64 lines of 76."""
    data = base64.encodebytes(random.Random(attachment).randbytes(attachment))
    return (
        (
            f"From: {sender}\r\nTo: {to}\r\nSubject: with an attachment\r\n"
            f"Message-ID: <{uuid.uuid4().hex}@example.com>\r\nMIME-Version: 1.0\r\n"
            'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
            f"--b\r\nContent-Type: text/plain\r\n\r\n{body}\r\n"
            "--b\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n"
            'Content-Disposition: attachment; filename="big.bin"\r\n\r\n'
        ).encode()
        + data.replace(b"\n", b"\r\n")
        + b"--b--\r\n"
    )


def timed_delivery(runtime: Runtime, raw: bytes, to: list[str]) -> tuple[InboundMessage, float]:
    """Store and process ``raw``; the CPU seconds processing took (the machine is shared, so
    wall-clock time says more about the neighbours than about the service)."""
    stored = inbox.store(runtime, raw, "test", envelope_to=to)
    assert isinstance(stored, inbox.Stored)
    start = time.process_time()
    drain(runtime)
    return row(runtime, stored.id), time.process_time() - start


def test_oversized_mail_over_http_is_refused_at_the_door(runtime: Runtime) -> None:
    runtime = with_config(runtime, max_message_bytes=200_000)
    web = create_app(runtime).test_client()
    token = {"Authorization": f"Bearer {runtime.config.inbound_token}"}
    over = big_mail(LEONIDAS, NEW, "NEW THERMOPYLES", 250_000)
    answer = web.post(f"/inbound/mime?rcpt={NEW}", data=over, headers=token)
    assert answer.status_code == 413
    assert inbound_count(runtime) == 0 and sent(runtime) == []
    under = big_mail(LEONIDAS, NEW, "NEW THERMOPYLES", 100_000)
    assert web.post(f"/inbound/mime?rcpt={NEW}", data=under, headers=token).status_code == 202
    drain(runtime)
    [welcome] = sent(runtime)
    assert welcome["To"] == LEONIDAS and "has begun" in text_of(welcome)


@pytest.fixture
def listeners(runtime: Runtime) -> Iterator[tuple[int, int]]:
    """The service's SMTP listener as `pbem serve` starts it, twice on free ports: one with the
    default limit (10 MB) and one whose limit was raised to 24 MB."""
    ports = (free_port(), free_port())
    started = []
    for port, limit in zip(ports, (runtime.config.max_message_bytes, 24_000_000), strict=True):
        config = runtime.config.with_overrides(
            smtp_host="127.0.0.1", smtp_port=port, max_message_bytes=limit
        )
        [server] = smtp.listeners(Runtime(config, runtime.db, runtime.enqueue))
        server.start()
        started.append(server)
    yield ports
    for server in started:
        server.stop()


def test_smtp_takes_a_large_mail_under_the_limit_and_refuses_one_over(
    runtime: Runtime, listeners: tuple[int, int]
) -> None:
    default, raised = listeners
    assert runtime.config.max_message_bytes == 10 * 1024 * 1024
    # A 15 MB file is 20 MB of base64.
    twenty = big_mail(LEONIDAS, NEW, "NEW THERMOPYLES", 15_000_000)
    assert 20_000_000 < len(twenty) < 24_000_000
    with smtplib.SMTP("127.0.0.1", default, timeout=60) as client:
        # A client that announces the size is refused at MAIL FROM, before any data.
        with pytest.raises(smtplib.SMTPSenderRefused) as announced:
            client.sendmail(LEONIDAS, [NEW], twenty)
        assert announced.value.smtp_code == 552
        client.rset()
        # One that does not is cut off at the end of DATA, with the same permanent code.
        eleven = big_mail(LEONIDAS, NEW, "NEW THERMOPYLES", 8_000_000)
        assert len(eleven) > runtime.config.max_message_bytes
        assert client.mail(LEONIDAS)[0] == 250 and client.rcpt(NEW)[0] == 250
        assert client.data(eleven)[0] == 552
        client.rset()
        assert client.noop()[0] == 250  # the listener is still up, on the same connection
    assert inbound_count(runtime) == 0
    # Under a raised limit the same 20 MB mail is stored whole and answered.
    with smtplib.SMTP("127.0.0.1", raised, timeout=60) as client:
        assert client.sendmail(LEONIDAS, [NEW], twenty) == {}
    [record] = _all_rows(runtime)
    assert record.size == len(twenty)
    start = time.process_time()
    drain(runtime)
    assert time.process_time() - start < 10  # CPU seconds: about 3 on an idle machine
    final = row(runtime, record.id)
    assert (final.status, final.reason) == ("done", f"started game {final.game_id}")
    [welcome] = sent(runtime)
    assert welcome["To"] == LEONIDAS and "has begun" in text_of(welcome)


def _all_rows(runtime: Runtime) -> list[InboundMessage]:
    with runtime.db.session() as session:
        found = list(session.scalars(select(InboundMessage).order_by(InboundMessage.id)))
        for record in found:
            session.expunge(record)
        return found


def nested_rfc822(levels: int, innermost: bytes) -> bytes:
    raw = innermost
    for level in range(levels):
        raw = (
            f"From: {LEONIDAS}\r\nTo: {HELP}\r\nSubject: level {level}\r\n"
            "Content-Type: message/rfc822\r\n\r\n"
        ).encode() + raw
    return raw


def nested_multipart(levels: int, body: str) -> bytes:
    inner = f"Content-Type: text/plain\r\n\r\n{body}\r\n".encode()
    for level in range(levels):
        boundary = f"b{level}"
        inner = (
            (
                f'Content-Type: multipart/mixed; boundary="{boundary}"\r\n\r\n--{boundary}\r\n'
            ).encode()
            + inner
            + f"\r\n--{boundary}--\r\n".encode()
        )
    head = f"From: {LEONIDAS}\r\nTo: {HELP}\r\nSubject: deep\r\nMessage-ID: <{uuid.uuid4()}@x>\r\n"
    return head.encode() + inner


def many_parts(count: int) -> bytes:
    lines = [
        f"From: {LEONIDAS}",
        f"To: {HELP}",
        "Subject: HELP",
        f"Message-ID: <{uuid.uuid4()}@x>",
        'Content-Type: multipart/mixed; boundary="p"',
        "",
    ]
    for number in range(count):
        lines += ["--p", "Content-Type: application/octet-stream", "", f"part {number}"]
    lines += ["--p--", ""]
    return "\r\n".join(lines).encode()


@pytest.mark.parametrize(
    "shape",
    ["50 levels of message/rfc822", "1000 levels of multipart", "5000 small parts", "10 MB base64"],
)
def test_pathological_mail_is_stored_answered_and_bounded_in_time(
    runtime: Runtime, shape: str
) -> None:
    if shape.startswith("50 levels"):
        innermost = compose(LEONIDAS, HELP, "HELP").replace(b"\n", b"\r\n")
        raw = nested_rfc822(50, innermost)
        raw = f"Message-ID: <{uuid.uuid4()}@x>\r\n".encode() + raw
    elif shape.startswith("1000 levels"):
        raw = nested_multipart(1000, "HELP")
    elif shape.startswith("5000"):
        raw = many_parts(5000)
    else:
        raw = big_mail(LEONIDAS, HELP, "HELP", 7_000_000)
    assert len(raw) <= runtime.config.max_message_bytes
    record, seconds = timed_delivery(runtime, raw, [HELP])
    assert seconds < 5, seconds  # CPU seconds; before the parts were bounded, 5000 took 15
    assert record.raw == raw  # kept exactly
    assert (record.status, record.reason) == ("done", "help sent")
    mails = sent(runtime)
    assert [str(m["To"]) for m in mails] == [LEONIDAS]
    assert "HELP" in text_of(mails[0])


# --- 5. header injection ----------------------------------------------------------------------


INJECTED = "Bcc: victim@evil.example"


def b64_word(text: str) -> str:
    return f"=?utf-8?b?{base64.b64encode(text.encode()).decode()}?="


def raw_mail(sender: str, to: str, subject: str, body: str) -> bytes:
    return (
        f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\n"
        f"Message-ID: <{uuid.uuid4().hex}@example.com>\r\nContent-Type: text/plain\r\n\r\n"
        f"{body}\r\n"
    ).encode()


def assert_clean(mail: EmailMessage, to: str) -> None:
    """One recipient, the intended one, and no header the service did not write itself."""
    names = [name.lower() for name in mail]
    assert "bcc" not in names and "cc" not in names, mail.keys()
    assert names.count("to") == 1 and names.count("subject") == 1
    recipients = mail["To"].addresses
    assert [a.addr_spec for a in recipients] == [to], recipients
    assert "\r" not in str(mail["Subject"]) and "\n" not in str(mail["Subject"])
    # What was injected is at most quoted inside the Subject's one line, never a field.
    for part in mail.walk():
        for name, value in part.items():
            if "victim@evil.example" in str(value):
                assert name == "Subject", (name, value)


def test_crlf_in_subjects_and_names_injects_no_header(runtime: Runtime) -> None:
    _, seats = dos_game(runtime)
    deliver_mail(runtime, compose(LEONIDAS, NEW, "NEW THERMOPYLES"))  # a player: always answered
    payloads = [
        # (From, envelope recipient, Subject as written on the wire)
        (LEONIDAS, HELP, b64_word(f"hi\r\n{INJECTED}\r\nTo: victim@evil.example")),
        (LEONIDAS, HELP, b64_word(f"HELP\n{INJECTED}")),
        (LEONIDAS, f"pbem@{DOMAIN}", f"=?utf-8?q?x=0D=0A{INJECTED.replace(' ', '_')}?="),
        (LEONIDAS, f"orders+1-france-1-00@{DOMAIN}", b64_word(f"a\r\n\r\n{INJECTED}")),
        (FRANCE, seats[FRANCE], b64_word(f"STATUS\r\n{INJECTED}")),
        # A lone CR: the parser ends the Subject there, and the rest is a header of its own.
        (SPAIN, HELP, f"hi\r{INJECTED}"),
        # Names: a display name that decodes to a header block.
        (f"{b64_word(f'Leo{chr(13)}{chr(10)}{INJECTED}')} <{LEONIDAS}>", NEW, "NEW THERMOPYLES"),
    ]
    for sender, to, subject in payloads:
        before = sent_count(runtime)
        body = "NEW THERMOPYLES" if to == NEW else "STATUS" if "orders+" in to else "HELP"
        record = row(runtime, deliver_mail(runtime, raw_mail(sender, to, subject, body), [to]))
        assert record.status in ("done", "rejected"), (subject, record.status, record.reason)
        assert not record.reason.startswith("internal error"), record.reason
        address = addresses.bare(sender)
        mails = sent(runtime, before)
        assert mails, f"no answer to {subject!r}"
        for mail in mails:
            assert_clean(mail, str(mail["To"]))
        assert [str(m["To"]) for m in mails] == [address], subject
    # Every mail the service ever built parses to exactly its one recipient.
    with runtime.db.session() as session:
        for record in session.scalars(select(OutboxMessage)):
            assert_clean(parse(record.raw), record.to_address)
        names = set(session.scalars(select(Player.name)))
    assert not any("\n" in name or "\r" in name for name in names), names


def test_a_game_master_cannot_add_recipients_through_seat_addresses(runtime: Runtime) -> None:
    # The game master plays a game already, so every problem reply goes out (a stranger would
    # get one a day).
    deliver_mail(runtime, compose(GM, NEW, "NEW THERMOPYLES"))
    block = "NEW 2DEMAYO\nFRANCE {france}\nSPAIN {spain}\nSCHEDULE 48h\n"
    tricks = [
        ("victim1@example.com, victim2@example.org", SPAIN),
        (SPAIN, "bcc: victim3@example.net"),
        ("victim4@example.com;victim5@example.com", SPAIN),
        ("Victim <victim6@example.com>", SPAIN),
        ('"victim7@example.com"@example.com', SPAIN),
    ]
    for france, spain in tricks:
        before = sent_count(runtime)
        body = block.format(france=france, spain=spain)
        record = row(runtime, deliver_mail(runtime, compose(GM, NEW, body)))
        assert record.status == "rejected", (france, spain, record.reason)
        assert "is not one mail address" in record.reason, record.reason
        assert_clean(assert_one_polite_reply(sent(runtime, before), GM, "one mail address"), GM)
    # REPLACE, by mail or from the panel, is held to the same rule.
    game_id, _ = dos_game(runtime)
    gm_address = addresses.reply_address(
        addresses.seat_token(runtime.config.secret_key, game_id, "gm"), DOMAIN
    )
    before = sent_count(runtime)
    deliver_mail(
        runtime, compose(GM, gm_address, "REPLACE spain victim8@example.com,x@example.org")
    )
    [answer] = sent(runtime, before)
    assert str(answer["To"]) == GM and "write REPLACE <seat> <address>" in text_of(answer)
    with runtime.db.session() as session:
        assert session.scalar(select(func.count(Game.id))) == 2  # the solo game and this one
        held = set(session.scalars(select(Player.address)))
    assert held == {GM, FRANCE, SPAIN}, held


# --- 6. script payloads in the HTML parts -----------------------------------------------------

SCRIPT = "<script>window.__pwned=1</script>"
SVG = '"><svg onload=alert(2)>'
IMG = "<img src=x onerror=alert(1)>"
LINK = '<a href="javascript:alert(3)">click me</a>'
PAYLOADS = (SCRIPT, SVG, IMG, LINK)


class Markup(HTMLParser):
    """Every tag and attribute an HTML part really has, as a browser would build them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += [(name, value or "") for name, value in attrs]


def assert_inert(document: str) -> None:
    markup = Markup()
    markup.feed(document)
    assert "script" not in markup.tags and "svg" not in markup.tags, markup.tags
    assert not [name for name, _ in markup.attributes if name.startswith("on")]
    for name, value in markup.attributes:
        assert not value.strip().lower().startswith("javascript:"), (name, value)
        assert "pwned" not in value and "alert(" not in value, (name, value)


def test_script_payloads_come_back_escaped_in_html_mail(runtime: Runtime) -> None:
    named = f"{b64_word(SCRIPT)} <{FRANCE}>"
    game_id, seats = dos_game(runtime)
    gm_token = addresses.seat_token(runtime.config.secret_key, game_id, "gm")
    before = sent_count(runtime)
    mails_in = [
        # Orders with payload lines: refused lines are quoted back in the receipt.
        (named, seats[FRANCE], f"TAKE MURAT\n16-14 x1\nDRAW\n{SCRIPT}\n{SVG}\n{LINK}", IMG),
        (SPAIN, seats[SPAIN], f"{IMG}\n9-14\nNODRAW", SVG),
        # Problem replies quote the subject, the address and the lines.
        (LEONIDAS, HELP, f"HELP {SCRIPT}\n{IMG}", SCRIPT),
        (LEONIDAS, f"x{SVG.replace(' ', '')}@{DOMAIN}".replace('"', ""), LINK, LINK),
        (LEONIDAS, NEW, f"NEW {SCRIPT}", IMG),
        (STRANGER, seats[SPAIN], SVG, SCRIPT),
        (GM, addresses.reply_address(gm_token, DOMAIN), f"ROLLBACK {SCRIPT}\nEXTEND {IMG}", SVG),
    ]
    for sender, to, body, subject in mails_in:
        deliver_mail(runtime, compose(sender, to, body, subject=subject), [to.lower()])
    mails = sent(runtime, before)
    assert len(mails) >= len(mails_in)
    echoed: set[str] = set()
    for mail in mails:
        document = html_of(mail)
        assert_inert(document)
        for payload in PAYLOADS:
            assert payload not in document, (mail["X-Pbem-Kind"], payload)
            # Where it shows, it shows as the text the player wrote (escaped, never dropped
            # into markup); the text part carries it verbatim.
            if str(escape(payload)) in document:
                echoed.add(payload)
                assert payload in text_of(mail)
    # Every payload really came back in some mail, so the checks above looked at each.
    assert echoed == set(PAYLOADS), echoed


# --- 7. the leak scan over whole games --------------------------------------------------------


def readable(mail: EmailMessage) -> str:
    """Everything a reader of the mail can see: the headers and every text part, decoded."""
    pieces = [f"{name}: {value}" for name, value in mail.items()]
    for part in mail.walk():
        if part.get_content_maintype() == "text":
            content = str(part.get_content())  # type: ignore[attr-defined]
            pieces.append(
                html.unescape(content) if part.get_content_subtype() == "html" else content
            )
        for name, value in part.items():
            pieces.append(f"{name}: {value}")
    return "\n".join(pieces)


MOVE = re.compile(r"^\d+-\d+(?:-\d+)* x\d+$")


@dataclass
class Scan:
    """What the leak scan knows while the games run, and what it has looked at."""

    runtime: Runtime
    dos: int
    solo: int
    seats: dict[str, str]  # seat -> player address in the 2 de Mayo game
    seeds: dict[int, str]
    everyone: list[str]  # every address the service knows
    seen: int = 0  # mails already scanned
    mails: int = 0
    pages: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)

    def new_mail(self) -> list[EmailMessage]:
        mails = sent(self.runtime, self.seen)
        self.seen += len(mails)
        self.mails += len(mails)
        return mails

    def finished(self, game_id: int) -> bool:
        with self.runtime.db.session() as session:
            return session.get_one(Game, game_id).status == "finished"

    def secret_seeds(self) -> list[str]:
        """The seeds of the games still running: secret until each game ends."""
        return [seed for game_id, seed in self.seeds.items() if not self.finished(game_id)]


def hidden_lines(rules: Any, state: Any, start: Any, owner: str, reader: str | None) -> list[str]:
    """Lines of ``owner``'s private view that ``reader`` (a seat, or None: the public) may not
    see: not in the public view, not in the reader's own view, not known from the opening."""
    lines = private_lines(rules, state, start, owner)
    if reader is not None:
        own = set(rules.describe(rules.view(state, reader)).splitlines())
        lines = [line for line in lines if line not in {o.strip() for o in own}]
    return lines


def check_mail(
    scan: Scan,
    mails: list[EmailMessage],
    secrets: dict[str, list[str]],
) -> None:
    """Every mail goes to one player; what it shows is no one else's: their address, their
    hidden lines (``secrets`` by the address they must not reach), a running game's seed."""
    seeds = scan.secret_seeds()
    for mail in mails:
        to = str(mail["To"])
        assert [a.addr_spec for a in mail["To"].addresses] == [to]
        assert mail["Cc"] is None and mail["Bcc"] is None
        kind = str(mail["X-Pbem-Kind"])
        scan.by_kind[kind] = scan.by_kind.get(kind, 0) + 1
        seen = readable(mail)
        for address in scan.everyone:
            if address != to and not (kind == "gm" and to == GM):
                assert address not in seen, (to, kind, address)
        for seed in seeds:
            assert seed not in seen, (to, kind, seed)
        for line in secrets.get(to, []):
            assert line not in seen, (to, kind, line)


class Archive:
    """The site as a test client sees it, remembering the pages of turns that have a successor:
    those never change again, so a crawl after every turn need not render them each time. The
    last crawl of the game turns the memory off and checks that it held exactly what is served."""

    TURN = re.compile(r"/games/(\d+)/turns/(\d+)")

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.client = create_app(runtime).test_client()
        self.kept: dict[tuple[str, str], Any] = {}
        self.games: dict[int, tuple[int, str]] = {}  # game -> its latest turn and status
        self.remember = True

    def crawl(self) -> dict[str, str]:
        with self.runtime.db.session() as session:
            found = session.execute(
                select(Turn.game_id, func.max(Turn.number), Game.status)
                .join(Game, Game.id == Turn.game_id)
                .group_by(Turn.game_id, Game.status)
            )
            self.games = {game_id: (number, status) for game_id, number, status in found}
        return crawl(self, self.runtime.config.base_url).pages  # type: ignore[arg-type]

    def get(self, path: str) -> Any:
        found = self.TURN.search(path)
        latest, status = self.games.get(int(found.group(1)), (0, "")) if found else (0, "")
        key = (path, status)  # a page shows its game's status: kept per status
        if self.remember and key in self.kept:
            return self.kept[key]
        response = self.client.get(path)
        if found and int(found.group(2)) < latest:
            if not self.remember and key in self.kept:
                assert self.kept[key].get_data() == response.get_data(), path
            self.kept[key] = response
        return response


def check_pages(scan: Scan, archive: Archive, secrets: list[str]) -> dict[str, str]:
    found = archive.crawl()
    scan.pages += len(found)
    seeds = scan.secret_seeds()
    for path, body in found.items():
        for address in scan.everyone:
            assert address not in body, (path, address)
            assert address.split("@")[0] + "@" not in body, (path, address)
        for seed in seeds:
            assert seed not in body, (path, seed)
        if not path.startswith("/help"):  # the rules pages show every order form by design
            for line in secrets:
                assert line not in body, (path, line)
            assert '"hand":' not in body and "Your hand" not in body, path
    return found


# What is rendered does not depend on the database, and two whole games with a crawl of the site
# after every turn take a minute on this machine: this one runs on SQLite only.
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.usefixtures("fixed_seeds")
def test_no_mail_or_page_of_two_whole_games_leaks_a_secret(runtime: Runtime) -> None:
    dos, reply = dos_game(runtime)
    deliver_mail(runtime, compose(LEONIDAS, NEW, "NEW THERMOPYLES molon labe"))
    with runtime.db.session() as session:
        solo = session.scalars(select(Game.id).where(Game.game_key == "thermopyles")).one()
        seeds = {game.id: game.seed.hex() for game in session.scalars(select(Game))}
        everyone = sorted(session.scalars(select(Player.address)))
    assert everyone == sorted([FRANCE, SPAIN, GM, LEONIDAS])
    solo_reply = reply_to(runtime, LEONIDAS)
    scan = Scan(runtime, dos, solo, {"france": FRANCE, "spain": SPAIN}, seeds, everyone)
    check_mail(scan, scan.new_mail(), {})
    archive = Archive(runtime)
    dos_start, solo_start = opening(runtime, dos), opening(runtime, solo)
    choose = random.Random(2)
    order = ["france", "spain"]
    secret_checked = 0
    hidden_seen = {"france": 0, "spain": 0, "solo": 0}  # hands among the lines checked
    own_shown = 0  # mails showing their reader's own hidden lines: the checks can fail
    revealed: set[str] = set()  # order lines written in turns already resolved
    public = archive.client.get(f"/games/{dos}").get_data(as_text=True)  # what the site shows
    while not scan.finished(dos):
        state = position(runtime, dos)
        # What each seat holds that the other may not see, before and after the turn.
        private = {
            seat: hidden_lines(DOS, state, dos_start, seat, other)
            for seat, other in (("france", "spain"), ("spain", "france"))
        }
        written = {}
        for seat in order:
            orders = choose.choice(list(DOS.legal_orders(state, seat)))
            text = DOS.orders_text(orders)
            assert text is not None
            written[seat] = text
        first, second = order
        # The first side's orders go in; until the turn is resolved they are its secret.
        deliver_mail(runtime, compose(scan.seats[first], reply[scan.seats[first]], written[first]))
        pending = [
            line
            for line in written[first].splitlines()
            if (MOVE.match(line) or line.startswith("TAKE "))
            and line not in written[second]
            and line not in revealed
            and line not in public
        ]
        revealed.update(written[first].splitlines() + written[second].splitlines())
        secret_checked += len(pending)
        solo_state = position(runtime, solo)
        solo_hidden = hidden_lines(THERMOPYLES, solo_state, solo_start, SPARTANS, None)
        for name, lines in (*private.items(), ("solo", solo_hidden)):
            hidden_seen[name] += sum(line.startswith("Your hand") for line in lines)
        check_mail(
            scan,
            scan.new_mail(),
            {
                scan.seats[second]: pending + private[first] + solo_hidden,
                scan.seats[first]: private[second] + solo_hidden,
                LEONIDAS: private["france"] + private["spain"],
            },
        )
        if state.turn == 10:
            archive.remember = False  # the last mid-turn crawl renders everything afresh
        check_pages(scan, archive, pending + private["france"] + private["spain"] + solo_hidden)
        # The second side's receipt is written with the first side's orders on file.
        deliver_mail(
            runtime, compose(scan.seats[second], reply[scan.seats[second]], written[second])
        )
        after = position(runtime, dos)
        public += archive.client.get(f"/games/{dos}/turns/{state.turn}").get_data(as_text=True)
        if not after.over:
            private_after = {
                seat: hidden_lines(DOS, after, dos_start, seat, other)
                for seat, other in (("france", "spain"), ("spain", "france"))
            }
        else:
            private_after = {"france": [], "spain": []}
        receipt_and_report = scan.new_mail()
        # The receipt (before the turn is resolved) must not show the first side's orders.
        receipts = [m for m in receipt_and_report if m["X-Pbem-Kind"] == "receipt"]
        assert [str(m["To"]) for m in receipts] == [scan.seats[second]]
        check_mail(scan, receipts, {scan.seats[second]: pending + private[first]})
        check_mail(
            scan,
            receipt_and_report,
            {
                scan.seats[second]: private_after[first],
                scan.seats[first]: private_after[second],
            },
        )
        for mail in receipt_and_report:
            reader, seen = "france" if str(mail["To"]) == FRANCE else "spain", readable(mail)
            if any(line in seen for line in private[reader] + private_after[reader]):
                own_shown += 1
        # France's choice of start card is never shown to Spain.
        if state.start_choice:
            take = next(line for line in written["france"].splitlines() if line.startswith("TAKE"))
            for mail in receipt_and_report:
                if str(mail["To"]) == SPAIN:
                    assert take not in readable(mail)
        # The solo game moves one action alongside.
        if not position(runtime, solo).over:
            action = strategy.choose(position(runtime, solo)).text()
            deliver_mail(runtime, compose(LEONIDAS, solo_reply, action))
            check_mail(scan, scan.new_mail(), {FRANCE: solo_hidden, SPAIN: solo_hidden})
        order.reverse()  # the other side goes first next turn
    # The solo game played to its end too.
    while not scan.finished(solo):
        solo_state = position(runtime, solo)
        action = strategy.choose(solo_state).text()
        deliver_mail(runtime, compose(LEONIDAS, solo_reply, action))
        check_mail(scan, scan.new_mail(), {})
    assert turns(runtime, dos) == 11  # ten turns and the opening
    assert secret_checked >= 10
    # Each hand was among the secrets checked, and mails do show a reader their own.
    assert min(hidden_seen.values()) > 0, hidden_seen
    assert own_shown >= 10, own_shown
    # Both seeds are revealed now, to the players and on the fairness pages.
    over = [m for m in sent(runtime) if m["X-Pbem-Kind"] == "game-over" or "seed" in readable(m)]
    for game_id, player in ((dos, FRANCE), (dos, SPAIN), (solo, LEONIDAS)):
        assert any(seeds[game_id] in readable(m) for m in over if str(m["To"]) == player), (
            game_id,
            player,
        )
    assert not archive.remember and len(archive.kept) > 20
    final = check_pages(scan, archive, [])
    assert seeds[dos] in final[f"/games/{dos}/fairness"]
    assert seeds[solo] in final[f"/games/{solo}/fairness"]
    assert scan.mails > 40 and scan.pages > 100, (scan.mails, scan.pages)
