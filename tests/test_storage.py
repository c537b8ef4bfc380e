"""Storage on SQLite and PostgreSQL: migrations match models, raw mail kept, turns append-only."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from conftest import PG_ADMIN
from sqlalchemy import func, select, text, update
from sqlalchemy.exc import IntegrityError, StatementError

from adjudicator.core.refusal import Refusal
from adjudicator.models import Base, Game, InboundMessage, OutboxMessage, Turn
from adjudicator.services.inbound import inbox
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import GameStatus, InboundStatus, OutboxStatus


def test_migrations_match_the_models(runtime: Runtime) -> None:
    with runtime.db.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        differences = compare_metadata(context, Base.metadata)
    assert differences == []


def test_raw_bytes_are_kept_exactly_and_duplicates_collapse(runtime: Runtime) -> None:
    raw = b"From: a@example.com\r\nMessage-ID: <one@example.com>\r\n\r\nFIGHT 17\r\n\xff\xfe"
    first = inbox.store(runtime, raw, source="test", envelope_to=["New@Pbem.Localhost"])
    again = inbox.store(runtime, raw + b"resent copy", source="test")
    assert isinstance(first, inbox.Stored) and isinstance(again, inbox.Stored)
    assert not first.duplicate and again.duplicate and again.id == first.id
    with runtime.db.session() as session:
        row = session.get_one(InboundMessage, first.id)
        assert row.raw == raw
        assert row.status == "received"
        assert row.envelope_to == ["new@pbem.localhost"]
        assert (
            session.scalar(select(InboundMessage.id).where(InboundMessage.id != first.id)) is None
        )
    assert runtime.enqueue.items == [("process_inbound", first.id)]  # type: ignore[attr-defined]


def test_messages_without_message_id_dedupe_on_content(runtime: Runtime) -> None:
    one = inbox.store(runtime, b"not a mail at all", source="test")
    two = inbox.store(runtime, b"not a mail at all", source="test")
    three = inbox.store(runtime, b"another blob", source="test")
    assert isinstance(one, inbox.Stored) and isinstance(two, inbox.Stored)
    assert isinstance(three, inbox.Stored)
    assert two.id == one.id and two.duplicate and three.id != one.id


def test_oversized_mail_is_refused_before_storage(runtime: Runtime) -> None:
    limit = runtime.config.max_message_bytes
    refused = inbox.store(runtime, b"x" * (limit + 1), source="test")
    assert isinstance(refused, Refusal)
    with runtime.db.session() as session:
        assert session.scalar(select(InboundMessage.id)) is None


def test_statuses_are_stored_as_their_text_and_read_back_as_members(runtime: Runtime) -> None:
    with runtime.db.session() as session:
        game = Game(game_key="thermopyles", seed=b"s" * 32, commitment="c", stream="g")
        session.add(game)
        session.add(InboundMessage(dedupe_key="k", source="test", raw=b"", size=0))
        session.add(
            OutboxMessage(
                key="k",
                kind="test",
                to_address="a@example.com",
                subject="",
                message_id="<m>",
                raw=b"",
            )
        )
        session.flush()
        assert game.status is GameStatus.ACTIVE  # the column's default
        game.status = GameStatus.FORMING
    with runtime.db.session() as session:
        session.execute(update(InboundMessage).values(status=InboundStatus.REJECTED))
        session.execute(update(OutboxMessage).values(status=OutboxStatus.BOUNCED))
    with runtime.db.engine.connect() as connection:  # the text, not the member's name
        stored = connection.execute(
            text(
                "SELECT games.status, inbound_messages.status, outbox.status"
                " FROM games, inbound_messages, outbox"
            )
        ).one()
    assert tuple(stored) == ("forming", "rejected", "bounced")
    with runtime.db.session() as session:
        assert session.scalars(select(Game)).one().status is GameStatus.FORMING
        assert session.scalars(select(InboundMessage.status)).one() is InboundStatus.REJECTED
        assert session.scalars(select(OutboxMessage)).one().status is OutboxStatus.BOUNCED
        counted = session.execute(select(Game.status, func.count()).group_by(Game.status)).one()
        assert counted[0] is GameStatus.FORMING
        ended_or_forming = Game.status.in_((GameStatus.FORMING, GameStatus.CLOSED))
        assert session.scalar(select(func.count()).where(ended_or_forming)) == 1


@pytest.mark.parametrize("wrong", ["bogus", InboundStatus.FAILED])
def test_a_status_not_of_its_column_is_refused(runtime: Runtime, wrong: str) -> None:
    """Not stored, nor silently matching nothing in a filter; "failed" is an outbox status too,
    but an inbound message's one is not a mail's."""
    refused = pytest.raises(StatementError, match="is not a valid OutboxStatus")
    with refused, runtime.db.session() as session:
        session.scalar(select(OutboxMessage.id).where(OutboxMessage.status == wrong))
    with pytest.raises(StatementError, match="is not a valid"), runtime.db.session() as session:
        session.execute(update(OutboxMessage).values(status=wrong))


def test_a_turn_number_is_written_once(runtime: Runtime) -> None:
    with runtime.db.session() as session:
        game = Game(game_key="thermopyles", seed=b"s" * 32, commitment="c", stream="g")
        session.add(game)
        session.flush()
        session.add(Turn(game_id=game.id, number=0, state={}, reason="start", public_png=b""))
        game_id = game.id
    with pytest.raises(IntegrityError), runtime.db.session() as session:
        session.add(
            Turn(game_id=game_id, number=0, state={"x": 1}, reason="orders", public_png=b"")
        )


def test_upgrading_a_database_with_games_in_it(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Every migration after the first runs over existing rows, on both databases."""
    from alembic import command

    from adjudicator import migrate
    from adjudicator.db import Database

    urls = [f"sqlite:///{tmp_path / 'old.sqlite'}"]
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute('DROP DATABASE IF EXISTS "pbem_upgrade" WITH (FORCE)')
        admin.execute('CREATE DATABASE "pbem_upgrade"')
    urls.append(
        "postgresql+psycopg://" + PG_ADMIN.rsplit("/", 1)[0].split("://", 1)[1] + "/pbem_upgrade"
    )
    for url in urls:
        database = Database(url)
        config = migrate.alembic_config(url)
        with database.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0001")
        with database.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO games (game_key, status, options, seed, commitment, stream,"
                    " result, score, thread_id, created_at, last_activity) VALUES ('thermopyles',"
                    " 'active', '{}', :seed, 'c', 'game-1', '', '[]', '', :now, :now)"
                ),
                {"seed": b"s" * 32, "now": datetime.now(UTC)},
            )
        migrate.upgrade(database)
        with database.session() as session:
            game = session.scalars(select(Game)).one()
            assert (game.schedule, game.timezone, game.deadline) == ("", "UTC", None)
            assert (game.deadline_sequence, game.early, game.paused) == (0, True, False)
            # A game stored before players added words keeps its dice: the seed alone.
            assert (game.chance_scheme, game.contributions, game.sides_by_lot) == ("v1", [], False)
        database.dispose()
