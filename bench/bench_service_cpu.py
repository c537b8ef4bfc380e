"""CPU time of the service's work for 2 de Mayo, task by task, against the rules and one map.

In one process on the machine's real PostgreSQL (a fresh database, dropped at the end), N two-
player 2 de Mayo games are started; in each, France's and then Spain's orders are mailed. Timed
with ``time.process_time`` (this process only: the database server's own work is not counted):

  (a) ``process_inbound``'s body (``pipeline.process``) for an order mail,
  (b) ``adjudicate``'s body (``deadlines.adjudicate``) for the turn Spain's orders made due,
  (c) the ``send_outbox`` tasks (``delivery.deliver``) each of them queued, to the Maildir outbox,
  (d) one 2 de Mayo turn resolved by the pure rules, and
  (e) one 2 de Mayo map drawn (the public view with the turn's moves),

and the ratios the service is held to: turn / (resolve + one map), and order mail / one map. The
queue is in-process (the tests' ``Queue``): each task is run by hand, as a worker would. Also the
zlib levels 1-9 (and Pillow's ``optimize``) for the same map: encode time and bytes.

``--against DIR`` runs the same rounds with the tree at DIR (a checkout, e.g. ``git archive
b17dba8 | tar -x -C /tmp/pbem-before``) first on sys.path, in a subprocess, interleaved round by
round with this tree's own subprocess, and prints now / before.

    .venv/bin/python bench/bench_service_cpu.py --games 6 --repeat 5
    .venv/bin/python bench/bench_service_cpu.py --against /tmp/pbem-before
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def _tree() -> Path:
    """The tree whose ``adjudicator`` is measured: ``--tree DIR``, else this one."""
    if "--tree" in sys.argv:
        return Path(sys.argv[sys.argv.index("--tree") + 1]).resolve()
    return HERE


TREE = _tree()
sys.path.insert(0, str(TREE))

import psycopg  # noqa: E402

from adjudicator import config as configuration  # noqa: E402
from adjudicator import migrate  # noqa: E402
from adjudicator.core.chance import Chance  # noqa: E402
from adjudicator.db import Database  # noqa: E402
from adjudicator.games import registry  # noqa: E402
from adjudicator.models import Game  # noqa: E402
from adjudicator.services.inbound import inbox, pipeline  # noqa: E402
from adjudicator.services.outbound import delivery  # noqa: E402
from adjudicator.services.record import play  # noqa: E402
from adjudicator.services.record.runtime import Runtime  # noqa: E402
from adjudicator.services.turns import deadlines, lifecycle  # noqa: E402
from adjudicator.services.turns.lifecycle import GameSettings  # noqa: E402

PG_ADMIN = os.environ.get("PBEM_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/test")
PG_HOST = PG_ADMIN.rsplit("/", 1)[0].split("://", 1)[1]
FRANCE, SPAIN = "murat@example.com", "daoiz@example.com"
# Turn 1 as the service tests play it (tests/dos_de_mayo_by_mail.py).
ORDERS = {"france": "TAKE MURAT\n16-14 x1\nDRAW", "spain": "9-14\nNODRAW"}
SEED = bytes(range(32))
METRICS = ("order", "order_send", "turn", "turn_send", "resolve", "map")
NAMES = {
    "order": "(a) process_inbound, order mail",
    "order_send": "(c)   its send_outbox tasks",
    "turn": "(b) adjudicate, due turn",
    "turn_send": "(c)   its send_outbox tasks",
    "resolve": "(d) resolve one turn, rules",
    "map": "(e) draw one map",
}


class Queue:
    """Records what the services queue, so each task is run, and timed, by hand."""

    def __init__(self) -> None:
        self.items: list[tuple[str, int]] = []

    def __call__(self, task: str, record_id: int) -> None:
        self.items.append((task, record_id))


@contextmanager
def fresh_database(name: str) -> Iterator[str]:
    """A migrated database ``name`` on the machine's PostgreSQL, dropped afterwards."""
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    url = f"postgresql+psycopg://{PG_HOST}/{name}"
    try:
        database = Database(url)
        migrate.upgrade(database)
        database.dispose()
        yield url
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def make_runtime(url: str, folder: Path) -> Runtime:
    environ = {"PBEM_CONFIG": str(TREE / "config" / "test.toml")}
    extra = {
        "data_dir": str(folder / "var"),
        "database_url": url,
        "broker_url": "memory://localhost/",
        "smtp_url": "",  # the Maildir outbox: every delivery is written out for real
        "log_level": "ERROR",
    }
    return Runtime(configuration.load(environ=environ, extra=extra), Database(url), Queue())


def compose(sender: str, to: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, "orders"
    message["Message-ID"] = make_msgid(domain="example.com")
    message.set_content(body + "\n")
    return message.as_bytes()


def cpu(work: Callable[..., Any], *args: Any) -> float:
    """The process CPU time ``work(*args)`` takes, in ms."""
    return timed_call(work, *args)[0]


def timed_call(work: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """The process CPU time ``work(*args)`` takes, in ms, and what it returned."""
    start = time.process_time()
    result = work(*args)
    return (time.process_time() - start) * 1000, result


def run_queued(runtime: Runtime, timed: dict[str, list[float]], sends: str) -> None:
    """Every queued task in order, each timed: an adjudication under "turn", deliveries summed
    under ``sends`` (then under "turn_send" after an adjudication)."""
    items: list[tuple[str, int]] = runtime.enqueue.items  # type: ignore[attr-defined]
    total = 0.0
    while items:
        task, record_id = items.pop(0)
        if task == "send_outbox":
            total += cpu(delivery.deliver, runtime, record_id)
        elif task == "adjudicate":
            timed[sends].append(total)
            total, sends = 0.0, "turn_send"
            timed["turn"].append(cpu(deadlines.adjudicate, runtime, record_id))
        elif task == "process_inbound":
            pipeline.process(runtime, record_id)
    timed[sends].append(total)


def started_game(runtime: Runtime) -> dict[str, str]:
    """A new game, its welcomes sent (untimed); each player's reply address."""
    settings = GameSettings("2demayo", {"france": FRANCE, "spain": SPAIN}, {}, "48h", "UTC")
    with runtime.db.session() as session:
        game = lifecycle.start_game(session, runtime, settings)
        assert isinstance(game, Game), game
        addresses = {seat.seat: play.seat_address(runtime, game, seat) for seat in game.seats}
    run_queued(runtime, {"turn": [], "turn_send": [], "_": []}, "_")
    return addresses


def mail_orders(runtime: Runtime, timed: dict[str, list[float]], addresses: dict[str, str]) -> None:
    for seat, sender in (("france", FRANCE), ("spain", SPAIN)):
        raw = compose(sender, addresses[seat], ORDERS[seat])
        stored = inbox.store(runtime, raw, source="bench", envelope_to=[addresses[seat]])
        assert isinstance(stored, inbox.Stored), stored
        items: list[tuple[str, int]] = runtime.enqueue.items  # type: ignore[attr-defined]
        assert items == [("process_inbound", stored.id)], items
        items.clear()
        timed["order"].append(cpu(pipeline.process, runtime, stored.id))
        run_queued(runtime, timed, "order_send")


def rules_and_map(timed: dict[str, list[float]], repeat: int) -> None:
    rules = registry.games()["2demayo"]
    state = rules.new_game({}, Chance(SEED, "bench", 0))
    orders = {seat: rules.parse_orders(state, seat, text).orders for seat, text in ORDERS.items()}
    for _ in range(repeat):
        took, resolution = timed_call(rules.resolve, state, orders, Chance(SEED, "bench", 1))
        timed["resolve"].append(took)
        view = rules.view(resolution.state, None)
        timed["map"].append(cpu(rules.render, view, resolution.facts))


def one_round(runtime: Runtime, games: int) -> dict[str, list[float]]:
    timed: dict[str, list[float]] = {metric: [] for metric in METRICS}
    for _ in range(games):
        mail_orders(runtime, timed, started_game(runtime))
    rules_and_map(timed, games)
    return timed


def png_levels(repeat: int) -> list[tuple[str, float, int]]:
    """Each zlib level's encode time (best of ``repeat``, ms) and bytes for the map of turn 1."""
    from PIL import Image

    from adjudicator.core import picture as kit
    from adjudicator.games.dos_de_mayo import render

    rules = registry.games()["2demayo"]
    state = rules.new_game({}, Chance(SEED, "bench", 0))
    orders = {seat: rules.parse_orders(state, seat, text).orders for seat, text in ORDERS.items()}
    after = rules.resolve(state, orders, Chance(SEED, "bench", 1)).state
    image: Image.Image = kit.on_palette(render.picture(rules.view(after, None)), render.palette())
    found = []
    choices: list[tuple[str, dict[str, Any]]] = [
        (f"level {level}", {"compress_level": level}) for level in range(1, 10)
    ]
    choices.append(("optimize", {"optimize": True}))
    for name, options in choices:
        best = min(cpu(kit.png, image, options) for _ in range(repeat))
        found.append((name, best, len(kit.png(image, options))))
    return found


def serve(games: int) -> None:
    """A child's loop: one round per "round" line on stdin, its samples as a JSON line."""
    name = f"pbem_bench_cpu_{os.getpid()}"
    with tempfile.TemporaryDirectory() as folder, fresh_database(name) as url:
        runtime = make_runtime(url, Path(folder))
        for line in sys.stdin:
            if line.strip() != "round":
                break
            print(json.dumps(one_round(runtime, games)), flush=True)
        runtime.db.dispose()


def children(trees: dict[str, Path], games: int) -> dict[str, subprocess.Popen[str]]:
    script = Path(__file__).resolve()
    return {
        name: subprocess.Popen(
            [sys.executable, str(script), "--serve", "--tree", str(tree), "--games", str(games)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for name, tree in trees.items()
    }


def interleaved(trees: dict[str, Path], games: int, repeat: int) -> dict[str, dict[str, list]]:
    """Rounds of each tree's subprocess in turn, the order swapped every round."""
    running = children(trees, games)
    samples: dict[str, dict[str, list[float]]] = {n: {m: [] for m in METRICS} for n in trees}
    names = list(trees)
    try:
        for index in range(repeat):
            for name in names if index % 2 == 0 else names[::-1]:
                child = running[name]
                assert child.stdin is not None and child.stdout is not None
                child.stdin.write("round\n")
                child.stdin.flush()
                for metric, values in json.loads(child.stdout.readline()).items():
                    samples[name][metric].extend(values)
    finally:
        for child in running.values():
            assert child.stdin is not None
            child.stdin.close()
            child.wait()
    return samples


def medians(samples: dict[str, list[float]]) -> dict[str, float]:
    return {metric: statistics.median(values) for metric, values in samples.items() if values}


def show(name: str, found: dict[str, float]) -> None:
    print(f"\n{name} (median CPU ms):")
    for metric in METRICS:
        print(f"  {NAMES[metric]:<34} {found[metric]:7.2f}")
    turn = found["turn"] / (found["resolve"] + found["map"])
    order = found["order"] / found["map"]
    print(f"  turn / (resolve + one map)         {turn:7.2f}   (target <= 2.5)")
    print(f"  order mail / one map               {order:7.2f}   (target <= 1.2)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games per round")
    parser.add_argument("--repeat", type=int, default=5, help="rounds")
    parser.add_argument("--against", type=Path, help="another tree to measure, interleaved")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.games)
        return
    print("load average: " + " ".join(f"{load:.2f}" for load in os.getloadavg()))
    print(f"{args.games} games a round, {args.repeat} rounds")
    print("\nPNG of the 2 de Mayo map by zlib setting (best of 10):")
    for name, ms, size in png_levels(10):
        print(f"  {name:<10} {ms:6.2f} ms {size:7d} bytes")
    trees = {"now": HERE}
    if args.against is not None:
        trees["before"] = args.against.resolve()
    samples = interleaved(trees, args.games, args.repeat)
    found = {name: medians(values) for name, values in samples.items()}
    for name, values in found.items():
        show(f"{name} ({trees[name]})", values)
    if "before" in found:
        print("\nnow / before:")
        for metric in METRICS:
            before = found["before"][metric]
            # An order mail's replies are sent from its own task: no send_outbox task to compare.
            shown = f"{found['now'][metric] / before:7.2f}" if before else "      -"
            print(f"  {NAMES[metric]:<34} {shown}")
    print("load average: " + " ".join(f"{load:.2f}" for load in os.getloadavg()))


if __name__ == "__main__":
    main()
