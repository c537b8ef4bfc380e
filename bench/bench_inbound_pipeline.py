"""Messages per second through the whole inbound pipeline, against the stdlib parser alone.

The mail is the client corpus (tests/mail/corpus: Gmail, Outlook, Apple Mail, Thunderbird, ...,
auto-replies, bounces, list mail, unreadable bytes). Each message goes through ``inbox.store``
then ``pipeline.process`` on one core: stored raw, read, extracted, routed to a running game whose
seat its sender holds, orders parsed and filed (or resolved), and the reply queued in the outbox
(an in-process queue records the tasks, as in the tests; nothing is sent). SQLite file database
in a temporary directory. In the same run, ``BytesParser(policy=default).parsebytes`` alone over
the same bytes. Rounds alternate (pipeline, parser, pipeline, ...) so machine noise hits both;
prints the median of each, and the ratio.

    .venv/bin/python bench/bench_inbound_pipeline.py        # BENCH_ROUNDS=5 by default
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import tempfile
import time
from email import policy
from email.parser import BytesParser
from pathlib import Path

from sqlalchemy import func, select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator import config as configuration  # noqa: E402
from adjudicator import migrate  # noqa: E402
from adjudicator.db import Database  # noqa: E402
from adjudicator.games import registry  # noqa: E402
from adjudicator.mail.addresses import reply_address, seat_token  # noqa: E402
from adjudicator.models import Game, OutboxMessage  # noqa: E402
from adjudicator.services.inbound import inbox, pipeline  # noqa: E402
from adjudicator.services.record import play  # noqa: E402
from adjudicator.services.record.runtime import Runtime  # noqa: E402
from adjudicator.services.turns import lifecycle  # noqa: E402
from adjudicator.services.turns.lifecycle import GameSettings  # noqa: E402

CORPUS = ROOT / "tests" / "mail" / "corpus"
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
PARSER_REPEAT = 20  # the parser alone is fast: more passes per round for a stable time
# The corpus addresses its mail to these seats; the bench points each at a game of its own.
THERMOPYLES_SEAT = b"orders+7-spartans-"
SPAIN_SEAT, FRANCE_SEAT = b"orders+12-spain-", b"orders+12-france-"


class Queue:
    """Records what the services queue; nothing runs (replies stay in the outbox table)."""

    def __init__(self) -> None:
        self.items: list[tuple[str, int]] = []

    def __call__(self, task: str, record_id: int) -> None:
        self.items.append((task, record_id))


def make_runtime(folder: Path) -> Runtime:
    environ = {"PBEM_CONFIG": str(ROOT / "config" / "test.toml")}
    extra = {
        "data_dir": str(folder / "var"),
        "database_url": f"sqlite:///{folder / 'bench.sqlite'}",
        "broker_url": "memory://localhost/",
        "smtp_url": "",
        "log_level": "ERROR",
    }
    config = configuration.load(environ=environ, extra=extra)
    database = Database(config.database_url)
    migrate.upgrade(database)
    return Runtime(config, database, enqueue=Queue())


def seat_for(runtime: Runtime, raw: bytes, sender: str) -> list[str]:
    """A game in which ``sender`` holds the seat the mail was written to; its reply address."""
    config = runtime.config
    with runtime.db.session() as session:
        if THERMOPYLES_SEAT in raw:
            rules = registry.get("thermopyles")
            assert rules is not None
            player = play.player_for(session, sender)
            game = play.create_game(session, runtime, rules, {"spartans": player}, {})
            assert isinstance(game, Game), game
            seat = "spartans"
        else:
            seat = "france" if FRANCE_SEAT in raw else "spain"
            other = "spain" if seat == "france" else "france"
            players = {seat: sender, other: f"{other}@bench.example"}
            game = lifecycle.start_game(
                session, runtime, GameSettings("2demayo", players, {}, "48h", "UTC")
            )
            assert isinstance(game, Game), game
        game_id = game.id
    return [reply_address(seat_token(config.secret_key, game_id, seat), config.mail_domain)]


def unique(raw: bytes, tag: str) -> bytes:
    """The same mail as new: an MTA's Received line on top and its own Message-ID."""
    raw = re.sub(rb"(?im)^(message-id:\s*<)", rb"\g<1>" + tag.encode() + b".", raw, count=1)
    return f"Received: by mx.bench.example; {tag}\n".encode() + raw


def pipeline_round(runtime: Runtime, mails: list[tuple[bytes, list[str]]], tag: str) -> float:
    """Messages per second: store and process every mail once."""
    started = time.perf_counter()
    for number, (raw, envelope) in enumerate(mails):
        stored = inbox.store(runtime, unique(raw, f"{tag}.{number}"), "bench", "", envelope)
        assert isinstance(stored, inbox.Stored) and not stored.duplicate
        verdict = pipeline.process(runtime, stored.id)
        assert not verdict.reason.startswith("internal error"), verdict
    elapsed = time.perf_counter() - started
    runtime.enqueue.items.clear()  # type: ignore[attr-defined]
    return len(mails) / elapsed


def parser_round(mails: list[tuple[bytes, list[str]]], tag: str) -> float:
    parser = BytesParser(policy=policy.default)
    raws = [unique(raw, f"{tag}.{n}") for n, (raw, _) in enumerate(mails)]
    started = time.perf_counter()
    for _ in range(PARSER_REPEAT):
        for raw in raws:
            parser.parsebytes(raw)
    return len(raws) * PARSER_REPEAT / (time.perf_counter() - started)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="pbem-bench-inbound-") as folder:
        runtime = make_runtime(Path(folder))
        mails: list[tuple[bytes, list[str]]] = []
        for path in sorted(CORPUS.glob("*.eml")):
            raw = path.read_bytes()
            expected = json.loads(path.with_suffix(".expected.json").read_text("utf-8"))
            person = expected["kind"] == "orders/commands"
            mails.append((raw, seat_for(runtime, raw, expected["sender"]) if person else []))
        with runtime.db.session() as session:
            before = session.scalar(select(func.count()).select_from(OutboxMessage)) or 0
        runtime.enqueue.items.clear()  # type: ignore[attr-defined]
        ours, bare = [], []
        for n in range(ROUNDS):
            ours.append(pipeline_round(runtime, mails, f"p{n}"))
            bare.append(parser_round(mails, f"s{n}"))
        with runtime.db.session() as session:
            after = session.scalar(select(func.count()).select_from(OutboxMessage)) or 0
        runtime.db.dispose()
    people = sum(1 for _, envelope in mails if envelope)
    pipeline_rate, parser_rate = statistics.median(ours), statistics.median(bare)
    print(f"corpus: {len(mails)} messages ({people} from players), {ROUNDS} rounds, one core")
    print(f"replies queued: {after - before} ({(after - before) / ROUNDS:.0f} a round)")
    print(f"inbound pipeline (store + process, SQLite): {pipeline_rate:8.1f} msg/s (median)")
    print(f"BytesParser(policy=default) alone:          {parser_rate:8.1f} msg/s (median)")
    print(f"ratio pipeline / parser: {pipeline_rate / parser_rate:.3f}")
    print("rounds (pipeline):", ", ".join(f"{rate:.0f}" for rate in ours))
    print("rounds (parser):  ", ", ".join(f"{rate:.0f}" for rate in bare))


if __name__ == "__main__":
    main()
