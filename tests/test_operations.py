"""Operations: JSON log lines with ids, /healthz, `pbem ops status` and the /ops page.

Real SQLite and PostgreSQL (the conftest fixtures) and the machine's real Redis, on a database
number of its own so that nothing here touches another test's queue.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from click.testing import CliRunner
from conftest import Queue, free_port, make_config, redis_url
from dos_de_mayo_by_mail import dos_de_mayo_game
from playbymail import compose
from sqlalchemy import select

from adjudicator import bootstrap, cli, logs, migrate
from adjudicator import config as configuration
from adjudicator.db import Database
from adjudicator.models import Game, InboundMessage, OutboxMessage, utcnow
from adjudicator.services.inbound import inbox, pipeline
from adjudicator.services.outbound import delivery
from adjudicator.services.reading import operations
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime, Task
from adjudicator.services.turns import deadlines
from adjudicator.web import create_app

OPS_REDIS = redis_url("operations")
FRANCE, SPAIN = "murat@example.com", "palafox@example.com"
TOKEN = "ops-token-for-the-test"


@pytest.fixture
def broker() -> Iterator[redis.Redis]:
    """The Redis database these tests use as the Celery broker, its queue keys emptied."""
    client = redis.Redis.from_url(OPS_REDIS)
    keys = [*operations.QUEUES, operations.UNACKED]
    client.delete(*keys)
    yield client
    client.delete(*keys)
    client.close()


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """bootstrap configures the root logger; give the next test the logging it had."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)


def start_2demayo(runtime: Runtime) -> int:
    """A 2 de Mayo game against Palafox, its welcomes still queued."""
    return dos_de_mayo_game(runtime, FRANCE, SPAIN)


def seat_address(runtime: Runtime, game_id: int, seat_name: str) -> str:
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        seat = next(seat for seat in game.seats if seat.seat == seat_name)
        return play.seat_address(runtime, game, seat)


def json_lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_json_log_lines_carry_the_ids(
    tmp_path: Path,
    database_url: str,
    capsys: pytest.CaptureFixture[str],
    restore_logging: None,
) -> None:
    config = make_config(tmp_path, database_url, log_format="json", log_level="INFO")
    runtime = bootstrap.runtime(config)
    runtime.enqueue = Queue()  # run the work by hand below, not through the broker
    try:
        game_id = start_2demayo(runtime)
        outbox_ids = delivery.pending_ids(runtime)  # the welcomes
        assert outbox_ids
        for outbox_id in outbox_ids:
            assert delivery.deliver(runtime, outbox_id) == "sent"
        raw = compose(FRANCE, seat_address(runtime, game_id, "france"), "STATUS")
        stored = inbox.store(runtime, raw, source="test")
        assert isinstance(stored, inbox.Stored)
        assert pipeline.process(runtime, stored.id).status == "done"  # its reply sent with it
        with runtime.db.session() as session:
            outbox_ids += session.scalars(
                select(OutboxMessage.id).where(OutboxMessage.key == f"inbound:{stored.id}:reply")
            ).all()
        assert delivery.pending_ids(runtime) == []
        done = deadlines.adjudicate(runtime, game_id, force=True)
        assert isinstance(done, deadlines.Adjudicated)
    finally:
        runtime.db.dispose()
    lines = json_lines(capsys.readouterr().err)
    assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    stored_line = [
        line for line in lines if line.get("message") == f"inbound {stored.id} stored from test"
    ]
    assert stored_line and stored_line[0]["game_id"] == game_id
    processed = [
        line
        for line in lines
        if line.get("inbound_id") == stored.id and line.get("status") == "done"
    ]
    assert len(processed) == 1, lines
    assert processed[0]["game_id"] == game_id and processed[0]["level"] == "INFO"
    assert processed[0]["logger"] == "adjudicator.services.inbound.pipeline"
    sent = {line["outbox_id"]: line for line in lines if line.get("status") == "sent"}
    assert set(sent) == set(outbox_ids)
    assert all(line["game_id"] == game_id for line in sent.values())
    adjudicated = [line for line in lines if line.get("turn") == done.turn]
    assert adjudicated and adjudicated[0]["game_id"] == game_id
    assert adjudicated[0]["status"] == "forced"


def test_text_is_the_default_and_a_wrong_format_is_refused(
    tmp_path: Path, restore_logging: None
) -> None:
    config = configuration.load(environ={}, extra={"data_dir": str(tmp_path)})
    assert config.log_format == "text" and config.ops_token == ""
    buffer = io.StringIO()
    logs.configure("INFO", config.log_format, buffer)
    logging.getLogger("adjudicator.test").info("inbound 7 done", extra={"inbound_id": 7})
    line = buffer.getvalue().strip()
    assert line.endswith("INFO adjudicator.test: inbound 7 done") and not line.startswith("{")
    # Configuring again replaces the handler: one line per record, never two.
    logs.configure("INFO", "json", buffer)
    logging.getLogger("adjudicator.test").info("again", extra={"inbound_id": 8, "other": "x"})
    last = buffer.getvalue().strip().splitlines()
    assert len(last) == 2 and json.loads(last[1])["inbound_id"] == 8
    assert "other" not in json.loads(last[1])
    with pytest.raises(ValueError, match="log_format"):
        configuration.load(environ={}, extra={"data_dir": str(tmp_path), "log_format": "xml"})


def add_rows(runtime: Runtime, statuses: dict[str, list[str]], age: timedelta) -> None:
    """Inbound and outbox rows in the given statuses, every one ``age`` old."""
    then = utcnow() - age
    with runtime.db.session() as session:
        for number, status in enumerate(statuses.get("inbound", [])):
            session.add(
                InboundMessage(
                    dedupe_key=f"test:{number}",
                    source="test",
                    raw=b"x",
                    size=1,
                    status=status,
                    received_at=then,
                )
            )
        for number, status in enumerate(statuses.get("outbox", [])):
            session.add(
                OutboxMessage(
                    key=f"test:{number}",
                    kind="notice",
                    to_address=f"player{number}@example.com",
                    subject="s",
                    message_id=f"<test{number}@pbem.localhost>",
                    raw=b"x",
                    status=status,
                    created_at=then,
                )
            )


ROWS = {
    "inbound": ["received", "received", "failed", "done", "done", "done"],
    "outbox": ["pending", "sending", "sent", "sent", "bounced", "failed"],
}


def game_mail(runtime: Runtime) -> int:
    """How many mails the games wrote (each player's welcome), all still pending."""
    with runtime.db.session() as session:
        query = select(OutboxMessage.id).where(OutboxMessage.game_id.is_not(None))
        return len(session.scalars(query).all())


def with_broker(runtime: Runtime) -> Runtime:
    return Runtime(runtime.config.with_overrides(broker_url=OPS_REDIS), runtime.db)


def test_healthz_is_200_with_the_backlog(runtime: Runtime, broker: redis.Redis) -> None:
    add_rows(runtime, ROWS, timedelta(minutes=10))
    broker.lpush("celery", "a")
    broker.lpush("outbox", "b")
    broker.hset(operations.UNACKED, "tag", "task")
    answer = create_app(with_broker(runtime)).test_client().get("/healthz")
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "no-store"
    found = answer.get_json()
    assert (found["status"], found["database"], found["redis"]) == ("ok", "ok", "ok")
    assert (found["inbound_pending"], found["outbox_pending"]) == (2, 2)
    assert found["inbound"]["failed"] == 1 and found["outbox"]["bounced"] == 1
    assert (found["queue_depth"], found["queue_unacked"]) == (2, 1)
    assert 600 <= found["oldest_pending_age_s"] < 700
    assert "example.com" not in answer.get_data(as_text=True)


def test_healthz_is_503_when_the_database_or_redis_is_down(tmp_path: Path) -> None:
    closed = free_port()
    url = f"postgresql+psycopg://postgres@127.0.0.1:{closed}/test"
    down = Runtime(make_config(tmp_path, url), Database(url))
    answer = create_app(down).test_client().get("/healthz")
    assert answer.status_code == 503
    found = answer.get_json()
    assert found["status"] == "unavailable"
    assert found["database"].startswith("unreachable")
    assert found["inbound_pending"] is None and "redis" not in found  # the embedded broker
    assert set(operations.Backlog.KEYS) <= set(found)  # a monitor's field is null, not missing
    # The error's text names the server; the answer must not.
    assert str(closed) not in answer.get_data(as_text=True)
    assert "127.0.0.1" not in answer.get_data(as_text=True)
    down.db.dispose()

    sqlite = f"sqlite:///{tmp_path / 'pbem.sqlite'}"
    broker_down = f"redis://127.0.0.1:{free_port()}/0"
    no_redis = Runtime(make_config(tmp_path, sqlite, broker_url=broker_down), Database(sqlite))
    migrate.upgrade(no_redis.db)
    answer = create_app(no_redis).test_client().get("/healthz")
    no_redis.db.dispose()
    assert answer.status_code == 503
    found = answer.get_json()
    assert (found["database"], found["status"]) == ("ok", "unavailable")
    assert found["redis"].startswith("unreachable") and found["queue_depth"] is None
    assert found["inbound_pending"] == 0  # the database still answers


def test_ops_status_json_counts_the_rows(
    tmp_path: Path,
    runtime: Runtime,
    broker: redis.Redis,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from workers import app as workers

    queued = with_broker(runtime)
    try:
        # The app's own enqueue, so the queue measured is the one the app really fills.
        workers.configure(queued)
        add_rows(queued, ROWS, timedelta(hours=1))
        due = start_2demayo(queued)
        start_2demayo(queued)  # not due: its deadline is 48 hours away
        with queued.db.session() as session:
            session.get_one(Game, due).deadline = utcnow() - timedelta(minutes=30)
        for record_id in (1, 2, 3):
            queued.enqueue(Task.PROCESS_INBOUND, record_id)
        monkeypatch.setattr(bootstrap, "runtime", lambda *a, **k: queued)
        result = CliRunner().invoke(cli.main, ["ops", "status", "--json"])
        text = CliRunner().invoke(cli.main, ["ops", "status"])
        welcomes = game_mail(queued)
    finally:
        workers.configure(runtime)  # back to the embedded broker for the tests after this one
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found["inbound"] == {"received": 2, "done": 3, "ignored": 0, "rejected": 0, "failed": 1}
    # The two games' welcome mails are pending too.
    assert welcomes == 4
    assert found["outbox"] == {
        "pending": 1 + welcomes,
        "sending": 1,
        "sent": 2,
        "bounced": 1,
        "failed": 1,
    }
    assert found["outbox_pending"] == 2 + welcomes and found["inbound_pending"] == 2
    assert 3600 <= found["oldest_inbound_pending_age_s"] < 3700
    assert found["due_games"] == 1 and 1800 <= found["oldest_due_age_s"] < 1900
    # Each game's welcome mails went through the broker too, in one send_outboxes task a game.
    assert (found["queue_depth"], found["redis"]) == (3 + 2, "ok")
    assert text.exit_code == 0
    assert "received=2" in text.output and f"queue     {3 + 2} waiting" in text.output


def test_ops_status_exits_1_when_redis_is_down(
    tmp_path: Path, runtime: Runtime, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = runtime.config.with_overrides(broker_url=f"redis://127.0.0.1:{free_port()}/0")
    down = Runtime(config, runtime.db)
    monkeypatch.setattr(bootstrap, "runtime", lambda *a, **k: down)
    result = CliRunner().invoke(cli.main, ["ops", "status", "--json"])
    assert result.exit_code == 1
    assert json.loads(result.output)["redis"].startswith("unreachable")


def test_ops_page_needs_its_token_and_shows_counts_without_addresses(runtime: Runtime) -> None:
    add_rows(runtime, ROWS, timedelta(minutes=5))
    game_id = start_2demayo(runtime)
    # No token configured: the page does not exist, whatever is sent.
    client = create_app(runtime).test_client()
    assert client.get("/ops").status_code == 404
    assert client.get("/ops?token=").status_code == 404
    assert client.get("/ops", headers={"Authorization": "Bearer "}).status_code == 404

    guarded = Runtime(runtime.config.with_overrides(ops_token=TOKEN), runtime.db)
    client = create_app(guarded).test_client()
    assert client.get("/ops").status_code == 403
    assert client.get("/ops?token=wrong").status_code == 403
    assert client.get("/ops?token=" + TOKEN[:-1]).status_code == 403
    assert client.get("/ops", headers={"Authorization": "Bearer nope"}).status_code == 403
    by_header = client.get("/ops", headers={"Authorization": f"Bearer {TOKEN}"})
    by_query = client.get(f"/ops?token={TOKEN}")
    with runtime.db.session() as session:
        addresses = {seat.player.address for seat in session.get_one(Game, game_id).seats}
        addresses |= set(session.scalars(select(OutboxMessage.to_address)))
    reply = seat_address(runtime, game_id, "france")
    welcomes = game_mail(runtime)
    assert by_header.status_code == by_query.status_code == 200
    assert by_header.headers["Cache-Control"] == "no-store"
    page = by_header.get_data(as_text=True)
    assert '<td id="waiting-inbound">2</td>' in page
    assert '<td id="inbound-failed">1</td>' in page
    assert '<td id="outbox-bounced">1</td>' in page
    # Waiting: the pending and the sending row, and the players' welcome mails.
    assert f'<td id="waiting-outbox">{2 + welcomes}</td>' in page
    assert f'<td id="outbox-pending">{1 + welcomes}</td>' in page
    assert addresses >= {FRANCE, SPAIN}
    for address in addresses | {reply}:
        assert address not in page
    assert "example.com" not in page and TOKEN not in page
