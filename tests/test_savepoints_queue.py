"""Work a transaction queues waits for the commit of the whole transaction, savepoints and all
(services/record/runtime.py): SQLAlchemy signals a savepoint's release as a commit, and a task
queued then would look for rows no other connection sees yet. A savepoint rolled back drops its
own work only."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from adjudicator.services.record.runtime import Runtime, Task, Written


def mail(outbox_id: int) -> Written:
    return Written(outbox_id, b"", "a@example.com", datetime(2026, 12, 7, tzinfo=UTC), None)


def test_work_from_savepoints_is_queued_once_the_whole_transaction_commits(
    runtime: Runtime,
) -> None:
    queue: list[tuple[str, object]] = runtime.enqueue.items  # type: ignore[attr-defined]
    queue.clear()
    with runtime.db.session() as session:
        with session.begin_nested():
            runtime.later(session, Task.SEND_OUTBOX, 1)
        assert queue == []  # the savepoint is released, the transaction not yet committed
        try:
            with session.begin_nested():
                runtime.later(session, Task.SEND_OUTBOX, 2)
                raise ValueError("this game's reminders failed")
        except ValueError:
            pass
        with session.begin_nested():
            runtime.later(session, Task.PROCESS_INBOUND, 3)
        assert queue == []
    assert sorted(queue) == [("process_inbound", 3), ("send_outbox", 1)]


def test_a_savepoint_rolled_back_drops_only_its_own_mails_to_send(runtime: Runtime) -> None:
    with runtime.db.session() as session:
        written = runtime.sent_here(session)
        written.append(mail(1))
        try:
            with session.begin_nested():
                written.append(mail(2))
                raise ValueError("rolled back")
        except ValueError:
            pass
        with session.begin_nested():
            written.append(mail(3))
    assert [sent.id for sent in written] == [1, 3]
    try:
        with runtime.db.session() as session:
            written = runtime.sent_here(session)
            session.execute(select(1))  # begun, as every transaction that writes a mail is
            written.append(mail(4))
            raise ValueError("the whole transaction rolled back")
    except ValueError:
        pass
    assert written == []
