"""A real Celery worker processes mail posted to the webhook: in-process broker and real Redis."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from conftest import REDIS_URL, make_config
from playbymail import compose, sent, text_of
from sqlalchemy import update

from adjudicator import migrate
from adjudicator.db import Database
from adjudicator.models import Game, InboundMessage, utcnow
from adjudicator.services.record.runtime import QUEUES, Runtime
from adjudicator.services.turns import lifecycle
from adjudicator.services.turns.lifecycle import GameSettings
from adjudicator.web import create_app
from workers import app as celery_app
from workers.embedded import worker_thread


def wait_until(condition: object, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting for the worker")


@pytest.fixture(params=["memory", "redis"])
def worker_runtime(
    request: pytest.FixtureRequest, tmp_path: Path, database_url: str
) -> Iterator[Runtime]:
    broker = "memory://localhost/" if request.param == "memory" else REDIS_URL
    if request.param == "redis":
        redis.Redis.from_url(REDIS_URL).flushdb()
    config = make_config(tmp_path, database_url, broker_url=broker)
    database = Database(config.database_url)
    migrate.upgrade(database)
    runtime = Runtime(config, database)
    celery_app.configure(runtime)
    with worker_thread():
        yield runtime
    database.dispose()


def test_webhook_mail_is_processed_by_the_worker(worker_runtime: Runtime) -> None:
    client = create_app(worker_runtime).test_client()
    raw = compose("leonidas@example.com", "new@pbem.localhost", "NEW THERMOPYLES")
    token = worker_runtime.config.inbound_token
    response = client.post("/inbound/mime", data=raw, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 202
    inbound_id = response.get_json()["id"]
    wait_until(lambda: len(sent(worker_runtime)) == 1)
    welcome = sent(worker_runtime)[0]
    assert "Your game of Thermopyles has begun" in text_of(welcome)
    with worker_runtime.db.session() as session:
        assert session.get_one(InboundMessage, inbound_id).status == "done"
    if not worker_runtime.config.embedded_broker:
        # The task really went through Redis: the queue's binding exists there, and it is drained.
        broker = redis.Redis.from_url(REDIS_URL)
        assert broker.exists("_kombu.binding.celery") and broker.llen("celery") == 0


def test_tick_task_requeues_work_left_behind(worker_runtime: Runtime) -> None:
    from adjudicator.services.inbound import inbox

    # Stored while no queue is attached (as if the broker had lost it): the tick finds it.
    enqueue, worker_runtime.enqueue = worker_runtime.enqueue, lambda task, record_id: None
    stored = inbox.store(
        worker_runtime, compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES"), "test"
    )
    worker_runtime.enqueue = enqueue
    assert isinstance(stored, inbox.Stored)
    with worker_runtime.db.session() as session:
        row = session.get_one(InboundMessage, stored.id)
        row.received_at = row.received_at.replace(year=2020)
    celery_app.celery.send_task("pbem.tick")
    wait_until(lambda: len(sent(worker_runtime)) == 1)
    if not worker_runtime.config.embedded_broker:
        # The tick went through its own queue, which the worker declared without a -Q flag.
        bound = redis.Redis.from_url(REDIS_URL).smembers("_kombu.binding.celery")
        assert any(member.endswith(b"\x06\x16tick") for member in bound), bound


def test_the_tick_has_a_queue_of_its_own_that_every_worker_consumes(
    worker_runtime: Runtime,
) -> None:
    """A burst of inbound mail in the default queue must not hold back the tick."""
    router = celery_app.celery.amqp.router
    assert router.route({}, "pbem.tick")["queue"].name == "tick"
    assert router.route({}, "pbem.process_inbound")["queue"].name == "celery"
    assert router.route({}, "pbem.send_outbox")["queue"].name == "outbox"
    consumed = {queue.name for queue in celery_app.celery.amqp.queues.values()}
    assert {"celery", "adjudicate", "outbox", "tick"} <= consumed


def test_turns_and_a_turns_mails_have_queues_of_their_own(worker_runtime: Runtime) -> None:
    """A burst of inbound mail must not hold back a deadline: adjudication has its own queue,
    which the worker (started without -Q) consumes; a turn's mails go in one task."""
    router = celery_app.celery.amqp.router
    for task in ("pbem.adjudicate", "pbem.force"):
        assert router.route({}, task)["queue"].name == "adjudicate"
    assert router.route({}, "pbem.send_outboxes")["queue"].name == "outbox"
    assert worker_runtime.enqueue_many is celery_app.enqueue_many
    with worker_runtime.db.session() as session:
        game = lifecycle.start_game(
            session,
            worker_runtime,
            GameSettings(
                "2demayo", {"france": "a@example.com", "spain": "b@example.com"}, {}, "48h"
            ),
        )
        assert isinstance(game, Game), game
        game_id = game.id
    wait_until(lambda: len(sent(worker_runtime)) == 2)  # the welcomes, in one send_outboxes
    with worker_runtime.db.session() as session:
        session.execute(update(Game).where(Game.id == game_id).values(forced_at=utcnow()))
    celery_app.celery.send_task("pbem.adjudicate", args=[game_id])
    wait_until(lambda: len(sent(worker_runtime)) == 4)  # the two reports of turn 1
    assert sorted(str(mail["To"]) for mail in sent(worker_runtime)[2:]) == [
        "a@example.com",
        "b@example.com",
    ]
    # The depth the tick reads: nothing waits in any queue now.
    assert all(worker_runtime.depth(queue) == 0 for queue in QUEUES)
    if not worker_runtime.config.embedded_broker:
        bound = redis.Redis.from_url(REDIS_URL).smembers("_kombu.binding.celery")
        assert any(member.endswith(b"\x06\x16adjudicate") for member in bound), bound


def test_the_sample_game_is_played_through_the_worker(worker_runtime: Runtime) -> None:
    from adjudicator.server import SAMPLE_PLAYER, start_sample

    line = start_sample(worker_runtime)
    assert "sample game  #1" in line and "orders+1-spartans-1-" in line
    wait_until(lambda: len(sent(worker_runtime)) == 3)  # welcome, the RETREAT's report, STATUS
    mails = sent(worker_runtime)
    assert [str(mail["To"]) for mail in mails] == [SAMPLE_PLAYER] * 3
    assert "turn 1 resolved" in text_of(mails[1])
    assert "games already exist" in start_sample(worker_runtime)  # started only once
