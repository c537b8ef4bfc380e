"""Median time from SMTP accept to the reply landing in the Maildir, on the embedded default.

Starts `pbem serve` as a real process, opens a game by mail, then sends actions one at a time and
times each from the moment the SMTP server said 250 to the moment the reply file exists; the
median also as a multiple of the fixed calibration workload timed in the same run
(``bench/calibration.py``), which compares across runs and machines.
"""

from __future__ import annotations

import os
import re
import smtplib
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from calibration import Yardstick

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "40"))


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def send(port: int, to: str, body: str) -> None:
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = "bench@example.com", to, "orders"
    mail["Message-ID"] = make_msgid(domain="example.com")
    mail.set_content(body + "\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
        client.send_message(mail)


def wait_for(folder: Path, count: int, timeout: float = 30) -> Path:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if folder.is_dir():
            files = sorted(
                folder.iterdir(), key=lambda p: int(p.name.split(".pbem")[1].split(".")[0])
            )
            if len(files) >= count:
                return files[count - 1]
        time.sleep(0.005)
    raise SystemExit(f"reply {count} did not arrive")


def main() -> None:
    yard = Yardstick()
    with tempfile.TemporaryDirectory() as folder:
        smtp_port, web_port = free_port(), free_port()
        env = {
            **os.environ,
            "PBEM_DATA_DIR": folder,
            "PBEM_SMTP_PORT": str(smtp_port),
            "PBEM_WEB_PORT": str(web_port),
            "PBEM_LOG_LEVEL": "WARNING",
        }
        for key in ("PBEM_CONFIG", "PBEM_DATABASE_URL", "PBEM_BROKER_URL"):
            env.pop(key, None)
        process = subprocess.Popen(
            [sys.executable, "-m", "adjudicator.cli", "serve", "--no-sample"],
            env=env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert process.stdout is not None
            while "Stop with Ctrl-C" not in process.stdout.readline():
                if process.poll() is not None:
                    raise SystemExit("pbem serve exited")
            outbox = Path(folder) / "outbox" / "new"
            send(smtp_port, "new@pbem.localhost", "NEW THERMOPYLES")
            welcome = wait_for(outbox, 1).read_text(errors="replace")
            reply_to = re.search(r"^Reply-To: (\S+)", welcome, re.MULTILINE)
            assert reply_to is not None
            timings = []
            for count in range(2, ROUNDS + 2):
                # Mostly STATUS (a full read-route-render-reply cycle), with a real action now and
                # then; once the marker reaches 7 the replies are game-over reports, still rendered.
                body = "RETREAT NODRAW" if count % 8 == 0 else "STATUS"
                send(smtp_port, reply_to.group(1), body)
                started = time.monotonic()  # the server has said 250: the mail is accepted
                wait_for(outbox, count)
                timings.append(time.monotonic() - started)
            timings.sort()
            median = statistics.median(timings) * 1000
            p90 = timings[int(len(timings) * 0.9) - 1] * 1000
            print(
                f"SMTP accept → reply in Maildir, {len(timings)} mails: median {median:.0f} ms, "
                f"p90 {p90:.0f} ms, max {timings[-1] * 1000:.0f} ms (aim: median < 1 s)"
            )
            yard.again()
            print(yard.against("SMTP accept -> reply, median", median / 1000))
            print(yard.describe())
        finally:
            process.terminate()
            process.wait(20)


if __name__ == "__main__":
    main()
