"""POST /inbound/mime throughput divided by a bare insert-one-row Flask endpoint's, same run.

Both apps run under identical gunicorn settings against the same kind of database; the load comes
from a separate process over loopback. Rounds alternate (ours, bare, ours, bare) so machine noise
hits both alike. Prints requests/s for each and the ratio (aim ≥ 0.5), and each's time a
request as a multiple of the fixed calibration workload timed in the same run
(``bench/calibration.py``), which compares across runs and machines.
"""

from __future__ import annotations

import http.client
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from email.message import EmailMessage
from pathlib import Path

from calibration import Yardstick

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
SECONDS = float(os.environ.get("BENCH_SECONDS", "5"))
THREADS = 8
TOKEN = "bench-token"


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def message(n: int) -> bytes:
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = "p@example.com", "new@pbem.localhost", "orders"
    mail["Message-ID"] = f"<bench-{n}-{time.monotonic_ns()}@example.com>"
    mail.set_content("FIGHT 17 SUPPORT 1\n" + "Some chatter to make it a realistic size.\n" * 20)
    return mail.as_bytes()


def load(port: int, seconds: float) -> float:
    """Requests per second from THREADS keep-alive clients for ``seconds``."""
    done = [0] * THREADS
    failures = [0]
    stop = time.monotonic() + seconds

    def client(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        n = 0
        while time.monotonic() < stop:
            body = message(index * 10_000_000 + n)
            connection.request(
                "POST",
                "/inbound/mime",
                body=body,
                headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "message/rfc822"},
            )
            response = connection.getresponse()
            response.read()
            if response.status != 202:
                failures[0] += 1
            n += 1
            done[index] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(THREADS)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures[0]:
        raise SystemExit(f"{failures[0]} requests failed")
    return sum(done) / (time.monotonic() - started)


def serve(app: str, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    process = subprocess.Popen(
        [
            str(VENV_BIN / "gunicorn"),
            "--workers",
            "2",
            "--worker-class",
            "gthread",
            "--threads",
            "4",
            "--bind",
            f"127.0.0.1:{port}",
            "--chdir",
            str(ROOT / "bench"),
            "--log-level",
            "warning",
            f"inbound_apps:{app}()",
        ],
        env=env,
        cwd=ROOT,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/")
            return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"gunicorn for {app} did not start")


def measure(label: str, env: dict[str, str], yard: Yardstick) -> None:
    rates: dict[str, list[float]] = {"ours": [], "bare": []}
    for _ in range(2):
        for app in ("ours", "bare"):
            process, port = serve(app, env)
            try:
                load(port, 0.5)  # warm-up: imports, connections
                rates[app].append(load(port, SECONDS))
            finally:
                process.terminate()
                process.wait(10)
    ours, bare = statistics.median(rates["ours"]), statistics.median(rates["bare"])
    print(
        f"{label:<28} ours {ours:8.0f} req/s   bare insert {bare:8.0f} req/s   "
        f"ratio {ours / bare:5.2f}  (aim ≥ 0.5)"
    )
    yard.again()
    print(yard.against(f"{label}: ours, one request", 1 / ours))
    print(yard.against(f"{label}: bare insert, one request", 1 / bare))


def main() -> None:
    from adjudicator import migrate
    from adjudicator.db import Database

    yard = Yardstick()
    with tempfile.TemporaryDirectory() as folder:
        base = {
            **os.environ,
            "PBEM_DATA_DIR": folder,
            "PBEM_INBOUND_TOKEN": TOKEN,
            "PBEM_SECRET_KEY": "bench",
            "PBEM_LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT),
        }
        base.pop("PBEM_CONFIG", None)
        sqlite = {
            **base,
            "PBEM_DATABASE_URL": f"sqlite:///{folder}/bench.sqlite",
            "PBEM_BROKER_URL": "memory://localhost/",
        }
        migrate.upgrade(Database(sqlite["PBEM_DATABASE_URL"]))
        measure("SQLite + in-process broker", sqlite, yard)
        import psycopg

        with psycopg.connect("postgresql://postgres@127.0.0.1/test", autocommit=True) as admin:
            admin.execute("DROP DATABASE IF EXISTS pbem_bench WITH (FORCE)")
            admin.execute("CREATE DATABASE pbem_bench")
        pg_url = "postgresql+psycopg://postgres@127.0.0.1/pbem_bench"
        migrate.upgrade(Database(pg_url))
        measure(
            "PostgreSQL + Redis broker",
            {**base, "PBEM_DATABASE_URL": pg_url, "PBEM_BROKER_URL": "redis://127.0.0.1:6379/14"},
            yard,
        )
        import redis

        redis.Redis.from_url("redis://127.0.0.1:6379/14").flushdb()
    print(yard.describe())


if __name__ == "__main__":
    main()
