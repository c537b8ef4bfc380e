"""Mail safety through the whole pipeline: DKIM-required games, the per-sender rate limit, and
at most one problem reply a day to addresses that are no player (no backscatter)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from dkimkeys import Signers
from dos_de_mayo_by_mail import FRANCE, GM, SPAIN, start_dos_de_mayo
from playbymail import compose, deliver_mail, reply_to, sent, text_of
from sqlalchemy import func, select

from adjudicator.models import Game, InboundMessage, OutboxMessage, Submission
from adjudicator.services.record.runtime import Runtime

STRANGER = "spammer@elsewhere.example"
HELP = "help@pbem.localhost"


def with_config(runtime: Runtime, **values: int) -> Runtime:
    return Runtime(replace(runtime.config, **values), runtime.db, enqueue=runtime.enqueue)


def row(runtime: Runtime, inbound_id: int) -> InboundMessage:
    with runtime.db.session() as session:
        found = session.get_one(InboundMessage, inbound_id)
        session.expunge(found)
        return found


def outbox_to(runtime: Runtime, address: str, kind: str | None = None) -> int:
    with runtime.db.session() as session:
        query = select(func.count(OutboxMessage.id)).where(OutboxMessage.to_address == address)
        if kind is not None:
            query = query.where(OutboxMessage.kind == kind)
        return session.scalar(query) or 0


def age_outbox(runtime: Runtime, delta: timedelta) -> None:
    """Move every queued mail back in time, as if it had been sent ``delta`` ago."""
    with runtime.db.session() as session:
        for record in session.scalars(select(OutboxMessage)):
            record.created_at = record.created_at - delta


def age_inbound(runtime: Runtime, delta: timedelta) -> None:
    with runtime.db.session() as session:
        for record in session.scalars(select(InboundMessage)):
            record.received_at = record.received_at - delta


def dkim_game(runtime: Runtime) -> int:
    return start_dos_de_mayo(runtime, require_dkim=True)[0]


def submissions(runtime: Runtime, game_id: int) -> list[tuple[str, bool]]:
    with runtime.db.session() as session:
        found = session.execute(
            select(Submission.seat, Submission.accepted)
            .where(Submission.game_id == game_id)
            .order_by(Submission.id)
        )
        return [(seat, accepted) for seat, accepted in found]


# --- DKIM -------------------------------------------------------------------------------------


def test_a_dkim_game_takes_signed_orders_and_refuses_unsigned_ones(
    runtime: Runtime, dns: Signers
) -> None:
    game_id = dkim_game(runtime)
    france = reply_to(runtime, FRANCE)

    unsigned = deliver_mail(runtime, compose(FRANCE, france, "16-14 x1"))
    refused = row(runtime, unsigned)
    assert (refused.dkim, refused.status) == ("none", "rejected")
    assert refused.reason == "DKIM required, verdict none"
    reply = sent(runtime)[-1]
    assert reply["To"] == FRANCE and reply["X-Pbem-Kind"] == "problem"
    assert "signature your mail provider put on this mail did not verify" in text_of(reply)
    assert "the check said: none" in text_of(reply)
    assert submissions(runtime, game_id) == []

    # Signed by the right domain, but changed on the way: a failed verdict, also refused.
    tampered = dns.sign(compose(FRANCE, france, "16-14 x1")).replace(b"16-14 x1", b"16-10 x1")
    failed = row(runtime, deliver_mail(runtime, tampered))
    assert failed.dkim.startswith("fail: ") and failed.status == "rejected"
    assert "body was changed" in text_of(sent(runtime)[-1])
    assert submissions(runtime, game_id) == []

    signed = row(runtime, deliver_mail(runtime, dns.sign(compose(FRANCE, france, "16-14 x1"))))
    assert (signed.dkim, signed.status) == ("pass d=example.com", "done")
    assert submissions(runtime, game_id) == [("france", True)]


def test_other_games_record_the_verdict_but_do_not_require_it(
    runtime: Runtime, dns: Signers
) -> None:
    game_id, addresses = start_dos_de_mayo(runtime)
    with runtime.db.session() as session:
        assert not session.get_one(Game, game_id).require_dkim
    france = addresses[FRANCE]
    unsigned = row(runtime, deliver_mail(runtime, compose(FRANCE, france, "16-14 x1")))
    assert (unsigned.dkim, unsigned.status) == ("none", "done")
    assert submissions(runtime, game_id) == [("france", True)]


def test_the_game_master_sets_dkim_in_the_new_block(runtime: Runtime, dns: Signers) -> None:
    body = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\nDKIM required\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        assert game.require_dkim and game.status == "forming"
        game_id = game.id
    gm_address = reply_to(runtime, GM)
    # The game master's commands too: an unsigned END must not end the game in their name.
    deliver_mail(runtime, compose(GM, gm_address, "END"))
    assert "did not verify" in text_of(sent(runtime)[-1])
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).status == "forming"
    deliver_mail(runtime, dns.sign(compose(GM, gm_address, "STATUS")))
    assert "orders only from mail with a valid DKIM signature" in text_of(sent(runtime)[-1])
    # Even JOIN: an unsigned mail cannot take a seat in the player's name.
    spain = reply_to(runtime, SPAIN)
    deliver_mail(runtime, compose(SPAIN, spain, "JOIN"))
    assert "did not verify" in text_of(sent(runtime)[-1])
    deliver_mail(runtime, dns.sign(compose(SPAIN, spain, "JOIN")))
    with runtime.db.session() as session:
        seats = session.get_one(Game, game_id).seats
        assert [seat.joined_at is not None for seat in seats] == [False, True]

    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body.replace("required", "maybe")))
    assert "DKIM takes required" in text_of(sent(runtime)[-1])


# --- rate limit -------------------------------------------------------------------------------


def test_a_flood_to_help_is_stored_not_read_and_told_once_an_hour(runtime: Runtime) -> None:
    runtime = with_config(runtime, sender_limit_per_hour=3)
    france = start_dos_de_mayo(runtime)[1][FRANCE]
    before = outbox_to(runtime, FRANCE)
    ids = [deliver_mail(runtime, compose(FRANCE, HELP, "HELP")) for _ in range(6)]
    rows = [row(runtime, inbound_id) for inbound_id in ids]
    assert [r.status for r in rows] == ["done"] * 3 + ["ignored"] * 3
    assert rows[3].reason.startswith(
        f"rate limit: 3 unauthenticated mails from {FRANCE} read within an hour"
    )
    assert all(r.raw for r in rows)  # kept whatever happens
    # Three answers, then exactly one notice for the three over the limit.
    assert outbox_to(runtime, FRANCE) == before + 4
    assert outbox_to(runtime, FRANCE, "rate-limit") == 1
    notice = sent(runtime)[-1]
    assert notice["X-Pbem-Kind"] == "rate-limit"
    assert "3 mails from your address to new@, help@" in text_of(notice)
    # Meanwhile France's mail to France's own seat is read as ever.
    assert row(runtime, deliver_mail(runtime, compose(FRANCE, france, "STATUS"))).status == "done"

    # Still flooding an hour after the notice: one more notice, not one per mail.
    age_outbox(runtime, timedelta(minutes=61))
    for _ in range(3):
        deliver_mail(runtime, compose(FRANCE, HELP, "HELP"))
    assert outbox_to(runtime, FRANCE, "rate-limit") == 2

    # Once the hour has passed, mail is read again.
    age_inbound(runtime, timedelta(minutes=61))
    quiet = row(runtime, deliver_mail(runtime, compose(FRANCE, HELP, "HELP")))
    assert quiet.status == "done"


def test_automatic_mail_is_never_answered_nor_counted(runtime: Runtime) -> None:
    runtime = with_config(runtime, sender_limit_per_hour=2)
    auto = {"Auto-Submitted": "auto-replied"}
    for _ in range(5):
        deliver_mail(runtime, compose(FRANCE, HELP, "Away", headers=auto))
    with runtime.db.session() as session:
        reasons = session.scalars(select(InboundMessage.reason).order_by(InboundMessage.id)).all()
    assert [reason.split(" ")[0] for reason in reasons] == ["automatic"] * 5
    assert sent(runtime) == []
    # It was not read, so it leaves the sender's hour untouched.
    assert row(runtime, deliver_mail(runtime, compose(FRANCE, HELP, "HELP"))).status == "done"


# --- unknown senders --------------------------------------------------------------------------


def test_an_unknown_sender_gets_one_problem_reply_a_day(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(FRANCE, "new@pbem.localhost", "NEW THERMOPYLES"))
    seat = reply_to(runtime, FRANCE)
    mails = [
        compose(STRANGER, "pbem@pbem.localhost", "hello"),  # reads no mail
        compose(STRANGER, "orders+1-spartans-1-0000000000000000@pbem.localhost", "x"),  # token
        compose(STRANGER, seat, "RETREAT"),  # wrong sender
        compose(STRANGER, "new@pbem.localhost", "NEW NOSUCHGAME"),  # bad NEW
    ]
    rows = [row(runtime, deliver_mail(runtime, raw)) for raw in mails]
    assert [r.status for r in rows] == ["rejected"] * 4
    assert "suppressed" not in rows[0].reason
    for later in rows[1:]:
        assert later.reason.endswith(
            f"; reply suppressed: {STRANGER} is no player and was already answered within 24h"
        )
    assert outbox_to(runtime, STRANGER) == 1
    assert "reads none sent to it" in text_of(sent(runtime)[-1])

    # A day later the address may be answered again, once.
    age_outbox(runtime, timedelta(hours=25))
    for _ in range(2):
        deliver_mail(runtime, compose(STRANGER, "pbem@pbem.localhost", "hello again"))
    assert outbox_to(runtime, STRANGER) == 2


def test_players_get_every_problem_reply(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(FRANCE, "new@pbem.localhost", "NEW THERMOPYLES"))
    for _ in range(3):
        deliver_mail(runtime, compose(FRANCE, "pbem@pbem.localhost", "hello"))
    assert outbox_to(runtime, FRANCE, "problem") == 3


def test_a_flooding_stranger_gets_one_reply_in_all(runtime: Runtime) -> None:
    runtime = with_config(runtime, sender_limit_per_hour=3)
    for number in range(8):
        deliver_mail(runtime, compose(STRANGER, "pbem@pbem.localhost", f"buy now {number}"))
    with runtime.db.session() as session:
        statuses = session.scalars(select(InboundMessage.status).order_by(InboundMessage.id)).all()
        over = session.scalars(
            select(InboundMessage.reason).where(InboundMessage.status == "ignored")
        ).all()
    assert statuses == ["rejected"] * 3 + ["ignored"] * 5
    # The rate-limit notice is a problem reply too, so the daily rule holds it back as well.
    assert "reply suppressed" in over[0]
    assert outbox_to(runtime, STRANGER) == 1


def test_suppression_can_be_turned_off(runtime: Runtime) -> None:
    runtime = with_config(runtime, unknown_sender_reply_hours=0)
    for _ in range(2):
        deliver_mail(runtime, compose(STRANGER, "pbem@pbem.localhost", "hello"))
    assert outbox_to(runtime, STRANGER) == 2
