"""The tick: shared deals revealed at their deadline, idle games warned then closed."""

from __future__ import annotations

from datetime import datetime, timedelta

from conftest import REDIS_URL
from dos_de_mayo_by_mail import dos_de_mayo_game
from playbymail import compose, deliver_mail, drain, html_of, sent, text_of, unsent_welcome
from sqlalchemy import select, update

from adjudicator.models import Challenge, Game, InboundMessage, OutboxMessage, utcnow
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import ticks
from adjudicator.web import create_app


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


def test_a_shared_deal_names_its_entrants_by_display_name_never_by_address(
    runtime: Runtime,
) -> None:
    # One entrant gave a name in their From line, the other did not; the ranking every entrant
    # receives, and the public page, show the name or nothing: no part of either address.
    entrants = ("Leonidas <qzleo@example.com>", "xydien@example.com")
    for sender in entrants:
        body = "NEW THERMOPYLES SHARED hot-gates"
        deliver_mail(runtime, compose(sender, "new@pbem.localhost", body))
    with runtime.db.session() as session:
        challenge = session.scalars(select(Challenge)).one()
        challenge.deadline = utcnow() - timedelta(minutes=1)
    before = len(sent(runtime))
    assert ticks.tick(runtime).challenges_revealed == ["hot-gates"]
    drain(runtime)
    results = sent(runtime)[before:]
    assert len(results) == 2
    page = create_app(runtime).test_client().get("/challenges/hot-gates").get_data(as_text=True)
    for shown in [*(text_of(mail) for mail in results), *(html_of(mail) for mail in results), page]:
        assert "Leonidas" in shown
        for leaked in ("qzleo", "xydien", "qz…", "xy…", "game 2 ()", "game 1 ()"):
            assert leaked not in shown


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
    from adjudicator.services.inbound import inbox

    stored = inbox.store(runtime, raw, "test")
    assert isinstance(stored, inbox.Stored)
    runtime.enqueue.items.clear()  # type: ignore[attr-defined]  # the broker lost it
    with runtime.db.session() as session:
        lost = utcnow() - ticks.waiting_lease(runtime) - timedelta(minutes=1)
        session.get_one(InboundMessage, stored.id).received_at = lost
        outbox = session.scalars(select(OutboxMessage)).one()
        outbox.status, outbox.claimed_at = "sending", utcnow() - timedelta(hours=1)  # a dead worker
    report = ticks.tick(runtime)
    assert report.requeued_inbound == [stored.id]
    assert report.requeued_outbox == [outbox.id]
    drain(runtime)
    assert len(sent(runtime)) == 2


def test_work_still_waiting_is_queued_again_once_per_lease_not_at_every_tick(
    runtime: Runtime,
) -> None:
    """A backlog must not fill the queue with copies: a row whose task is presumably still waiting
    is left alone, and queued again only once its last queueing is older than the lease for a
    queue that is not empty (or of unknown depth, as here)."""
    from adjudicator.services.inbound import inbox

    queue: list[tuple[str, int]] = runtime.enqueue.items  # type: ignore[attr-defined]
    stored = inbox.store(
        runtime, compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES"), "test"
    )
    assert isinstance(stored, inbox.Stored)
    queue.clear()
    with runtime.db.session() as session:
        received = session.get_one(InboundMessage, stored.id).received_at
    lease = ticks.waiting_lease(runtime)
    assert ticks.tick(runtime, now=received + lease / 2).requeued_inbound == []  # in flight
    first = received + lease + timedelta(seconds=1)
    assert ticks.tick(runtime, now=first).requeued_inbound == [stored.id]
    assert ticks.tick(runtime, now=first + timedelta(seconds=1)).requeued_inbound == []
    assert ticks.tick(runtime, now=first + lease / 2).requeued_inbound == []
    again = first + lease + timedelta(seconds=1)  # that task too is presumed lost
    assert ticks.tick(runtime, now=again).requeued_inbound == [stored.id]
    assert [item for item in queue if item[0] == "process_inbound"] == [
        ("process_inbound", stored.id)
    ] * 2


def due_game(runtime: Runtime) -> tuple[int, datetime]:
    """A 2 de Mayo game, its id and deadline, and the queue of tasks emptied."""
    game_id = dos_de_mayo_game(runtime, "a@example.com", "b@example.com")
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None
    runtime.enqueue.items.clear()  # type: ignore[attr-defined]
    return game_id, deadline


def test_a_due_turn_is_queued_once_per_lease_not_at_every_tick(runtime: Runtime) -> None:
    game_id, deadline = due_game(runtime)
    queue: list[tuple[str, int]] = runtime.enqueue.items  # type: ignore[attr-defined]
    lease = ticks.waiting_lease(runtime)
    late = deadline + timedelta(seconds=1)
    assert ticks.tick(runtime, now=late).turns_due == [game_id]
    # The workers are behind: the task waits in the queue, and the next ticks add no copies.
    for seconds in (1, 2, 30):
        assert ticks.tick(runtime, now=late + timedelta(seconds=seconds)).turns_due == []
    # Lost with the broker, presumably: queued again once the lease is over.
    assert ticks.tick(runtime, now=late + lease + timedelta(seconds=1)).turns_due == [game_id]
    assert [item for item in queue if item[0] == "adjudicate"] == [("adjudicate", game_id)] * 2


def test_outbox_mail_is_queued_again_once_per_lease_and_at_once_when_a_retry_is_due(
    runtime: Runtime,
) -> None:
    """A deep outbox (a deadline storm) must not be queued again in full at every tick: a mail
    never tried is left to the task queued when it was stored, until the lease says that task is
    lost; a mail whose retry is due after a failed try is queued at once, and once."""
    from adjudicator.services.outbound import delivery, retries

    queue: list[tuple[str, int]] = runtime.enqueue.items  # type: ignore[attr-defined]
    # A mail never tried, with the send_outbox task queued when it was stored.
    outbox_id = unsent_welcome(runtime)
    with runtime.db.session() as session:
        row = session.get_one(OutboxMessage, outbox_id)
        # Stored three leases ago: the ticks below are played at moments since then, and the
        # failed try at the end happens now, after them all.
        lease = ticks.waiting_lease(runtime)
        row.created_at = utcnow() - 3 * lease
        created = row.created_at
    queue.clear()

    def queued(seconds: float) -> list[int]:
        return ticks.tick(runtime, now=created + timedelta(seconds=seconds)).requeued_outbox

    # Waiting behind a backlog: the ticks within the lease add no copies.
    assert [queued(s) for s in (1, 30, 60, 90, 300)] == [[], [], [], [], []]
    late = lease.total_seconds() + 1
    assert queued(late) == [outbox_id]  # presumed lost: queued again, once
    assert queued(late + 30) == [] and queued(late + 60) == []
    assert queued(late + lease.total_seconds() + 1) == [outbox_id]  # that one lost too
    # A failed try: no task waits for the mail, so its due retry is queued at once, then left.
    runtime.config = runtime.config.with_overrides(smtp_url="smtp://127.0.0.1:9")
    assert delivery.deliver(runtime, outbox_id) == "pending"
    with runtime.db.session() as session:
        row = session.get_one(OutboxMessage, outbox_id)
        assert row.claimed_at is not None
        due = retries.next_attempt_at(runtime, row.attempts, row.claimed_at)
    assert ticks.tick(runtime, now=due - timedelta(seconds=1)).requeued_outbox == []
    assert ticks.tick(runtime, now=due).requeued_outbox == [outbox_id]
    assert ticks.tick(runtime, now=due + timedelta(seconds=30)).requeued_outbox == []
    assert [item for item in queue if item[0] == "send_outbox"] == [("send_outbox", outbox_id)] * 3


def test_an_empty_queue_holds_no_task_so_the_claim_lease_is_the_wait(runtime: Runtime) -> None:
    """Where the broker says the queue is empty, no task for the row waits there: it is queued
    again once a worker would have claimed it (the claim lease), not after the long wait."""
    from adjudicator.services.turns import deadlines

    runtime.measure = lambda queue: 0
    game_id, deadline = due_game(runtime)
    late = deadline + timedelta(seconds=1)
    assert ticks.tick(runtime, now=late).turns_due == [game_id]
    lease = deadlines.lease(runtime)
    assert lease < ticks.waiting_lease(runtime)
    assert ticks.tick(runtime, now=late + lease / 2).turns_due == []
    assert ticks.tick(runtime, now=late + lease + timedelta(seconds=1)).turns_due == [game_id]


def test_a_turn_claimed_by_a_worker_that_died_is_queued_once_its_claim_runs_out(
    runtime: Runtime,
) -> None:
    """The claim spends the tick's queueing (games.queued_at), so a deep queue does not make a
    turn whose adjudication died wait for the long lease."""
    from adjudicator.services.turns import deadlines

    runtime.measure = lambda queue: 5000  # a burst: the queue is deep
    game_id, deadline = due_game(runtime)
    late = deadline + timedelta(seconds=1)
    assert ticks.tick(runtime, now=late).turns_due == [game_id]
    with runtime.db.session() as session:  # the task ran, claimed the turn, and its worker died
        session.execute(
            update(Game).where(Game.id == game_id).values(claimed_at=late, queued_at=None)
        )
    lease = deadlines.lease(runtime)
    assert ticks.tick(runtime, now=late + lease / 2).turns_due == []  # the claim holds
    assert ticks.tick(runtime, now=late + lease + timedelta(seconds=1)).turns_due == [game_id]


def test_a_queueing_for_an_earlier_deadline_does_not_hold_back_the_next(runtime: Runtime) -> None:
    """A copy that found the turn already played leaves games.queued_at behind; the next deadline
    is queued at once all the same, however deep the queue."""
    runtime.measure = lambda queue: 5000
    game_id, deadline = due_game(runtime)
    with runtime.db.session() as session:
        session.execute(
            update(Game)
            .where(Game.id == game_id)
            .values(queued_at=deadline - timedelta(seconds=30))
        )
    assert ticks.tick(runtime, now=deadline + timedelta(seconds=1)).turns_due == [game_id]


def test_the_tick_asks_redis_how_deep_each_queue_is(runtime: Runtime) -> None:
    """Runtime.depth is LLEN of the queue and its priority lists in the broker's Redis; the tick
    leaves a row whose task may wait in a deep queue alone, and queues it again after the claim
    lease once that queue is empty."""

    import redis as redis_client

    from adjudicator.services.record.runtime import PRIORITY_SEPARATOR
    from adjudicator.services.turns import deadlines

    url = REDIS_URL
    runtime.config = runtime.config.with_overrides(broker_url=url)
    broker = redis_client.Redis.from_url(url)
    broker.delete("adjudicate", f"adjudicate{PRIORITY_SEPARATOR}3")
    try:
        game_id, deadline = due_game(runtime)
        late = deadline + timedelta(seconds=1)
        assert runtime.depth("adjudicate") == 0
        broker.rpush("adjudicate", b"a task", b"another")
        broker.rpush(f"adjudicate{PRIORITY_SEPARATOR}3", b"one more")
        assert runtime.depth("adjudicate") == 3
        assert ticks.tick(runtime, now=late).turns_due == [game_id]
        after_lease = late + deadlines.lease(runtime) + timedelta(seconds=1)
        assert ticks.tick(runtime, now=after_lease).turns_due == []  # the queue is deep
        broker.delete("adjudicate", f"adjudicate{PRIORITY_SEPARATOR}3")
        assert ticks.tick(runtime, now=after_lease).turns_due == [game_id]  # empty: lost
    finally:
        broker.delete("adjudicate", f"adjudicate{PRIORITY_SEPARATOR}3")
        broker.close()


def test_of_rows_queued_those_older_than_the_queue_is_deep_were_taken(runtime: Runtime) -> None:
    """The queue is first in, first out: with one task left in it, only the newest row queued
    can still be waiting; an older one was taken by a worker, and unclaimed after the claim
    lease it is lost with that worker (killed before it began), queued again at once."""
    from adjudicator.services.turns import deadlines

    runtime.measure = lambda queue: 1
    first, deadline = due_game(runtime)
    second, _ = due_game(runtime)
    with runtime.db.session() as session:
        session.execute(update(Game).values(deadline=deadline))
    late = deadline + timedelta(seconds=1)
    assert ticks.tick(runtime, now=late).turns_due == [first, second]  # queued in id order
    after_lease = late + deadlines.lease(runtime) + timedelta(seconds=1)
    assert ticks.tick(runtime, now=after_lease).turns_due == [first]
    runtime.measure = lambda queue: 2  # the copy joined the queue behind the second's task
    assert ticks.tick(runtime, now=after_lease + timedelta(seconds=1)).turns_due == []


def test_inbound_mail_taken_from_the_queue_and_never_processed_is_queued_again(
    runtime: Runtime,
) -> None:
    from adjudicator.services.inbound import inbox
    from adjudicator.services.turns import deadlines

    runtime.measure = lambda queue: 1
    stored = [
        inbox.store(runtime, compose(f"{n}@example.com", "new@pbem.localhost", "HELP"), "test")
        for n in ("a", "b")
    ]
    assert all(isinstance(row, inbox.Stored) for row in stored)
    ids = [row.id for row in stored if isinstance(row, inbox.Stored)]
    with runtime.db.session() as session:
        received = session.get_one(InboundMessage, ids[1]).received_at
    after_lease = received + deadlines.lease(runtime) + timedelta(seconds=1)
    assert ticks.tick(runtime, now=after_lease).requeued_inbound == [ids[0]]
    runtime.measure = lambda queue: 2
    assert ticks.tick(runtime, now=after_lease + timedelta(seconds=1)).requeued_inbound == []
