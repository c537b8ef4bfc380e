"""The tick: shared deals revealed at their deadline, idle games warned then closed."""

from __future__ import annotations

from datetime import timedelta

from playbymail import compose, deliver_mail, drain, sent, text_of
from sqlalchemy import select

from adjudicator.models import Challenge, Game, InboundMessage, OutboxMessage, utcnow
from adjudicator.services import ticks
from adjudicator.services.runtime import Runtime


def test_a_shared_deal_is_revealed_once_its_deadline_passes(runtime: Runtime) -> None:
    for player in ("a@example.com", "b@example.com"):
        body = "NEW THERMOPYLES SHARED spring-cup"
        deliver_mail(runtime, compose(player, "new@pbem.localhost", body))
    reply_a = sent(runtime)[0]["Reply-To"]
    deliver_mail(runtime, compose("a@example.com", str(reply_a), "RESIGN"))
    assert ticks.tick(runtime).challenges_revealed == []  # not due yet
    with runtime.db.session() as session:
        challenge = session.scalars(select(Challenge)).one()
        challenge.deadline = utcnow() - timedelta(minutes=1)
        seed = challenge.seed.hex()
    before = len(sent(runtime))
    report = ticks.tick(runtime)
    drain(runtime)
    assert report.challenges_revealed == ["spring-cup"]
    results = sent(runtime)[before:]
    assert sorted(str(mail["To"]) for mail in results) == ["a@example.com", "b@example.com"]
    for mail in results:
        text = text_of(mail)
        assert "RANKING" in text and seed in text
    with runtime.db.session() as session:
        statuses = session.scalars(select(Game.status).order_by(Game.id)).all()
        assert statuses == ["finished", "closed"]
    # A second tick (or a second worker's) reveals nothing again and sends nothing more.
    assert ticks.tick(runtime).challenges_revealed == []
    drain(runtime)
    assert len(sent(runtime)) == before + 2


def test_idle_games_are_warned_then_closed(runtime: Runtime) -> None:
    deliver_mail(runtime, compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    config = runtime.config
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        game.last_activity = utcnow() - timedelta(days=config.idle_close_days - 1)
    first = ticks.tick(runtime)
    second = ticks.tick(runtime)
    drain(runtime)
    assert first.games_warned == [1] and second.games_warned == []  # warned once
    assert "will be closed" in text_of(sent(runtime)[-1])
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        game.last_activity = utcnow() - timedelta(days=config.idle_close_days + 1)
    assert ticks.tick(runtime).games_closed == [1]
    drain(runtime)
    closing = text_of(sent(runtime)[-1])
    assert "is over" in closing and "The seed is now revealed" in closing
    with runtime.db.session() as session:
        assert session.scalars(select(Game.status)).one() == "closed"


def test_work_left_behind_is_queued_again(runtime: Runtime) -> None:
    deliver_mail(runtime, compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    raw = compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES")
    from adjudicator.services import inbox

    stored = inbox.store(runtime, raw, "test")
    assert isinstance(stored, inbox.Stored)
    runtime.enqueue.items.clear()  # type: ignore[attr-defined]  # the broker lost it
    with runtime.db.session() as session:
        session.get_one(InboundMessage, stored.id).received_at = utcnow() - timedelta(minutes=5)
        outbox = session.scalars(select(OutboxMessage)).one()
        outbox.status, outbox.claimed_at = "sending", utcnow() - timedelta(hours=1)  # a dead worker
    report = ticks.tick(runtime)
    assert report.requeued_inbound == [stored.id]
    assert report.requeued_outbox == [outbox.id]
    drain(runtime)
    assert len(sent(runtime)) == 2
