"""Turns at a deadline, on SQLite and PostgreSQL: early adjudication, NMR defaults, exactly once."""

from __future__ import annotations

import html
import threading
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

from builders.clock import LATE, deadline_of, played_late
from dos_de_mayo_by_mail import FRANCE, SPAIN, start_dos_de_mayo
from icalendar import Calendar
from playbymail import compose, deliver_mail, drain, sent, text_of
from sqlalchemy import func, select

from adjudicator.models import Game, OutboxMessage, Turn, utcnow
from adjudicator.services.outbound import calendar_entries
from adjudicator.services.record import on_file
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines, ticks
from adjudicator.web import create_app


def new_game(runtime: Runtime, **extra: object) -> tuple[int, dict[str, str]]:
    return start_dos_de_mayo(runtime, timezone="Europe/Madrid", **extra)


def turns(runtime: Runtime, game_id: int) -> int:
    with runtime.db.session() as session:
        return int(session.scalar(select(func.max(Turn.number)).where(Turn.game_id == game_id)))


def test_welcome_carries_reply_address_deadline_and_calendar(runtime: Runtime) -> None:
    game_id, addresses = new_game(runtime)
    assert set(addresses) == {FRANCE, SPAIN}
    assert addresses[FRANCE] != addresses[SPAIN]
    for mail in sent(runtime):
        text = text_of(mail)
        assert "Orders for turn 1 are due" in text and "UTC (in 48\u00a0h)" in text
        assert ("CET" in text) or ("CEST" in text)
        [calendar] = [
            part for part in mail.iter_attachments() if part.get_content_type() == "text/calendar"
        ]
        ics = calendar.get_payload(decode=True).decode()
        assert f"UID:game-{game_id}-turn-1@pbem.localhost" in ics and "SEQUENCE:1" in ics
        assert mail["List-Id"] == f"2 de Mayo game {game_id} <game-{game_id}.pbem.localhost>"
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.deadline is not None
        assert abs(game.deadline - (utcnow() + timedelta(hours=48))) < timedelta(minutes=1)


def test_both_orders_in_means_early_adjudication_with_reports_to_both(runtime: Runtime) -> None:
    game_id, addresses = new_game(runtime)
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW"))
    receipt = text_of(sent(runtime)[-1])
    assert "Your orders for turn 1 are on file" in receipt and "16-14 x1" in receipt
    assert turns(runtime, game_id) == 0
    deliver_mail(runtime, compose(SPAIN, addresses[SPAIN], "9-14\nNODRAW"))
    assert turns(runtime, game_id) == 1
    reports = {str(mail["To"]): text_of(mail) for mail in sent(runtime)[-2:]}
    assert set(reports) == {FRANCE, SPAIN}
    for text in reports.values():
        assert "turn 1 resolved (everyone had sent orders)" in text.replace("\r\n", " ")
        assert "Spain: 9-14: 1 unit moved" in text
        assert "Orders for turn 2 are due" in text
    # France's secret start card: in France's own report, never in Spain's nor in the archive.
    assert "TAKE MURAT" in reports[FRANCE] and "MURAT" not in reports[SPAIN].upper().replace(
        "MARSHAL MURAT", ""
    )
    page = html.unescape(
        create_app(runtime).test_client().get(f"/games/{game_id}").get_data(as_text=True)
    )
    assert "TAKE" not in page and "16-14 x1" in page


def calendars(mail: EmailMessage) -> list[tuple[str, Calendar]]:
    """Each text/calendar part: the method its Content-Type names, and the parsed calendar."""
    found = []
    for part in mail.iter_attachments():
        if part.get_content_type() == "text/calendar":
            data = part.get_payload(decode=True)
            assert isinstance(data, bytes)
            found.append((str(part.get_param("method")), Calendar.from_ical(data)))
    return found


def test_a_turn_played_before_its_deadline_withdraws_its_calendar_entry(runtime: Runtime) -> None:
    game_id, addresses = new_game(runtime)
    with runtime.db.session() as session:
        first = session.get_one(Game, game_id)
        old_deadline, old_sequence = first.deadline, first.deadline_sequence
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "16-14 x1\nDRAW"))
    deliver_mail(runtime, compose(SPAIN, addresses[SPAIN], "9-14\nNODRAW"))
    assert turns(runtime, game_id) == 1
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        new_deadline, new_sequence = game.deadline, game.deadline_sequence
    assert old_deadline is not None and new_deadline is not None
    reports = sent(runtime)[-2:]
    assert {str(mail["To"]) for mail in reports} == {FRANCE, SPAIN}
    for mail in reports:
        # The report's text and pictures, then one calendar per METHOD (it is per VCALENDAR).
        assert mail.get_content_type() == "multipart/mixed"
        parts = list(mail.iter_parts())
        assert parts[0].get_content_type() == "multipart/alternative"
        assert [part.get_content_type() for part in parts[1:]] == ["text/calendar"] * 2
        (publish, entry), (cancel, withdrawn) = calendars(mail)
        assert (publish, entry["METHOD"]) == ("PUBLISH", "PUBLISH")
        assert (cancel, withdrawn["METHOD"]) == ("CANCEL", "CANCEL")
        [next_event] = entry.walk("VEVENT")
        assert next_event["UID"] == f"game-{game_id}-turn-2@pbem.localhost"
        assert next_event["SEQUENCE"] == new_sequence and next_event.end == new_deadline.replace(
            microsecond=0
        )
        [old_event] = withdrawn.walk("VEVENT")
        assert old_event["UID"] == f"game-{game_id}-turn-1@pbem.localhost"
        assert old_event["SEQUENCE"] > old_sequence and old_event["STATUS"] == "CANCELLED"
        assert old_event.end == old_deadline.replace(microsecond=0)
        # Both in the game's zone, as the players' calendars should show them.
        for calendar, event in ((entry, next_event), (withdrawn, old_event)):
            [zone] = calendar.walk("VTIMEZONE")
            assert zone["TZID"] == "Europe/Madrid"
            start = event.start
            assert isinstance(start, datetime) and str(start.tzinfo) == "Europe/Madrid"


def test_the_welcome_entry_is_in_the_games_zone(runtime: Runtime) -> None:
    game_id, _ = new_game(runtime)
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    for mail in sent(runtime):
        [(method, calendar)] = calendars(mail)
        [event] = calendar.walk("VEVENT")
        assert method == calendar["METHOD"] == "PUBLISH"
        assert calendar.walk("VTIMEZONE")[0]["TZID"] == "Europe/Madrid"
        assert deadline is not None and event.end == deadline.replace(microsecond=0)
        assert str(event.end.tzinfo) == "Europe/Madrid"


def test_deadline_passes_and_silent_seats_get_the_defaults(runtime: Runtime) -> None:
    game_id, addresses = new_game(runtime)
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "16-14 x2"))
    deadline = deadline_of(runtime, game_id)
    assert ticks.tick(runtime, now=deadline - timedelta(seconds=1)).turns_due == []
    report = ticks.tick(runtime, now=deadline + timedelta(seconds=1))
    assert report.turns_due == [game_id]
    result = played_late(runtime, game_id)
    assert (result.turn, result.why, result.defaulted) == (1, "deadline", ("spain",))
    queued = runtime.enqueue.items  # type: ignore[attr-defined]
    assert ("adjudicate", game_id) in queued
    queued.remove(("adjudicate", game_id))  # the tick's task, run by hand above
    drain(runtime)
    text = text_of(sent(runtime)[-1])
    assert "(the deadline passed)" in text.replace("\r\n", " ")
    # The old entry simply passed: the reports bring the next one and cancel nothing.
    for mail in sent(runtime)[-2:]:
        [(method, calendar)] = calendars(mail)
        [event] = calendar.walk("VEVENT")
        assert method == "PUBLISH" and event["UID"] == f"game-{game_id}-turn-2@pbem.localhost"
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.deadline_sequence == 2 and game.deadline is not None
        assert game.deadline > deadline
    # The same task again, or the stale tick's, does nothing.
    assert (
        deadlines.adjudicate(runtime, game_id, now=deadline + timedelta(seconds=2))
        == deadlines.NOT_DUE
    )
    assert turns(runtime, game_id) == 1


def test_two_workers_at_once_make_one_turn_and_one_report_per_seat(runtime: Runtime) -> None:
    game_id, _ = new_game(runtime)
    late = deadline_of(runtime, game_id) + LATE
    results: list[object] = []
    workers = [
        threading.Thread(
            target=lambda: results.append(deadlines.adjudicate(runtime, game_id, now=late))
        )
        for _ in range(4)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert sum(isinstance(result, deadlines.Adjudicated) for result in results) == 1
    assert turns(runtime, game_id) == 1
    with runtime.db.session() as session:
        keys = session.scalars(
            select(OutboxMessage.key).where(OutboxMessage.kind == "report")
        ).all()
        turn = session.scalars(select(Turn.id).where(Turn.game_id == game_id, Turn.number == 1))
        [turn_id] = turn.all()
    assert sorted(keys) == [
        f"game:{game_id}:turn:1:{turn_id}:france:report",
        f"game:{game_id}:turn:1:{turn_id}:spain:report",
    ]


def test_a_dead_workers_claim_expires(runtime: Runtime) -> None:
    game_id, _ = new_game(runtime)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.deadline is not None
        late = game.deadline + timedelta(seconds=5)
        game.claimed_at = late - timedelta(seconds=10)  # a worker claimed it and died
    assert ticks.tick(runtime, now=late).turns_due == []
    assert deadlines.adjudicate(runtime, game_id, now=late) == deadlines.HELD
    after_lease = late + deadlines.lease(runtime)
    assert ticks.tick(runtime, now=after_lease).turns_due == [game_id]
    assert isinstance(
        deadlines.adjudicate(runtime, game_id, now=after_lease), deadlines.Adjudicated
    )


def test_late_orders_count_for_the_next_turn(runtime: Runtime) -> None:
    game_id, addresses = new_game(runtime, early=False)
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "16-14 x1"))
    deliver_mail(runtime, compose(SPAIN, addresses[SPAIN], "9-4"))
    assert turns(runtime, game_id) == 0  # early adjudication is off for this game
    assert played_late(runtime, game_id).defaulted == ()


def test_a_new_set_replaces_and_add_merges(runtime: Runtime) -> None:
    game_id, addresses = new_game(runtime, early=False)
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "16-14 x1"))
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "6-5 x1"))
    assert "they replace the ones you sent before" in text_of(sent(runtime)[-1])
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "ADD\n1-2 x1"))
    merged = text_of(sent(runtime)[-1])
    assert "merged with the ones you sent before (ADD)" in merged
    assert "6-5 x1" in merged and "1-2 x1" in merged and "16-14" not in merged
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
        orders = on_file.current_orders(session, session.get_one(Game, game_id), 1)
    paths = [move["path"] for move in orders["france"]["moves"]]
    assert paths == [["6", "5"], ["1", "2"]]
    assert deadline is not None
    result = deadlines.adjudicate(runtime, game_id, now=deadline + timedelta(seconds=1))
    assert isinstance(result, deadlines.Adjudicated) and result.defaulted == ("spain",)


def test_orders_stored_in_time_but_not_yet_processed_are_used(runtime: Runtime) -> None:
    """A due turn as a worker runs it (``due_turn``) reads the game's waiting mail first."""
    from adjudicator.services.inbound import due_turn, inbox

    game_id, addresses = new_game(runtime, early=False)
    # Stored before the deadline, but its processing task never ran (a broker outage, say).
    stored = inbox.store(runtime, compose(SPAIN, addresses[SPAIN], "9-4"), "test")
    assert isinstance(stored, inbox.Stored)
    runtime.enqueue.items.clear()  # type: ignore[attr-defined]
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None
    result = due_turn.run(runtime, game_id, now=deadline)
    assert isinstance(result, deadlines.Adjudicated)
    assert result.defaulted == ("france",)  # Spain's orders were in time and are in the turn
    with runtime.db.session() as session:
        turn = session.scalars(select(Turn).where(Turn.game_id == game_id, Turn.number == 1)).one()
        assert turn.orders["spain"]["moves"] == [{"path": ["9", "4"], "units": None}]


def test_orders_arriving_while_their_turn_is_resolved_are_answered_too_late(
    runtime: Runtime,
) -> None:
    from adjudicator.models import InboundMessage
    from adjudicator.services.inbound import inbox, pipeline

    game_id, addresses = new_game(runtime, early=False)
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None
    assert isinstance(deadlines.adjudicate(runtime, game_id, now=deadline), deadlines.Adjudicated)
    # The mail reached the listener in the instant the turn was being resolved.
    stored = inbox.store(runtime, compose(SPAIN, addresses[SPAIN], "9-4"), "test")
    assert isinstance(stored, inbox.Stored)
    runtime.enqueue.items.clear()  # type: ignore[attr-defined]
    with runtime.db.session() as session:
        turn = session.scalars(select(Turn).where(Turn.game_id == game_id, Turn.number == 1)).one()
        session.get_one(InboundMessage, stored.id).received_at = turn.created_at
    pipeline.process(runtime, stored.id)
    drain(runtime)
    receipt = text_of(sent(runtime)[-1])
    assert "while turn 1 was being processed: too late for that turn" in receipt.replace(
        "\r\n", " "
    )
    assert "Your orders for turn 2 are on file" in receipt


def test_a_player_may_ask_the_turn_to_wait_for_its_deadline(runtime: Runtime) -> None:
    game_id, addresses = new_game(runtime)
    deliver_mail(runtime, compose(SPAIN, addresses[SPAIN], "WAIT"))
    assert "You asked to WAIT" in text_of(sent(runtime)[-1])
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "16-14 x1"))
    deliver_mail(runtime, compose(SPAIN, addresses[SPAIN], "9-4"))
    assert turns(runtime, game_id) == 0  # both have orders on file, but Spain asked to wait
    result = played_late(runtime, game_id)
    assert result.why == "deadline"
    assert result.defaulted == ()


def test_a_tick_with_no_reminder_due_costs_a_few_queries_however_many_games(
    runtime: Runtime,
) -> None:
    """The tick looks at a game's position only when one of its seats is due a reminder."""
    from sqlalchemy import event

    statements: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if not statement.startswith("BEGIN"):
            statements.append(statement)

    def queries_of_a_tick() -> list[str]:
        statements.clear()
        event.listen(runtime.db.engine, "before_cursor_execute", record)
        try:
            report = ticks.tick(runtime)  # every deadline 48 h away, reminders 12 h before
        finally:
            event.remove(runtime.db.engine, "before_cursor_execute", record)
        assert report.reminded == [] and report.turns_due == []
        return list(statements)

    new_game(runtime)
    few = queries_of_a_tick()
    for _ in range(6):
        new_game(runtime)
    many = queries_of_a_tick()
    assert len(many) == len(few) <= 12, many
    assert not [query for query in many if "turns" in query or "submissions" in query], many
    # Deadlines an hour away, every seat already reminded for them: still nothing loaded.
    with runtime.db.session() as session:
        for game in session.scalars(select(Game)):
            game.deadline = utcnow() + timedelta(hours=1)
            for seat in game.seats:
                seat.reminded_sequence = game.deadline_sequence
    reminded = queries_of_a_tick()
    assert len(reminded) == len(few), reminded
    assert not [query for query in reminded if "turns" in query], reminded


def test_a_deadline_entry_is_made_once_for_every_mail_that_carries_it(runtime: Runtime) -> None:
    game = Game(
        id=7,
        game_key="2demayo",
        status="active",
        deadline=datetime(2026, 12, 9, 18, 0, tzinfo=UTC),
        deadline_sequence=2,
        timezone="Europe/Madrid",
    )
    first_made = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
    [first] = calendar_entries.deadline_calendar(runtime, game, 3, first_made, lang="es")
    [again] = calendar_entries.deadline_calendar(runtime, game, 3, first_made.replace(hour=11))
    [english] = calendar_entries.deadline_calendar(runtime, game, 3, first_made.replace(hour=11))
    [same_es] = calendar_entries.deadline_calendar(
        runtime, game, 3, first_made.replace(hour=12), lang="es"
    )
    assert same_es.data == first.data and b"DTSTAMP:20261207T090000Z" in first.data
    assert english.data == again.data != first.data  # another language: its own entry
    game.deadline_sequence = 3  # the deadline moved: a new entry, stamped when made
    [moved] = calendar_entries.deadline_calendar(
        runtime, game, 3, first_made.replace(hour=13), lang="es"
    )
    assert b"SEQUENCE:3" in moved.data and b"DTSTAMP:20261207T130000Z" in moved.data
