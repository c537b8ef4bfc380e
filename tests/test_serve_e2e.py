"""End to end: `pbem serve` as a real process; a whole game played by real SMTP; `pbem verify`."""

from __future__ import annotations

import os
import re
import smtplib
import subprocess
import sys
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
import requests
from conftest import ROOT, free_port
from playbymail import mail_by_smtp, outbox_file, outbox_files, parsed

PLAYER = "dienekes@example.com"


class Service:
    def __init__(self, data_dir: Path, smtp_port: int, web_port: int, env: dict[str, str]) -> None:
        self.data_dir, self.smtp_port, self.web_port, self.env = data_dir, smtp_port, web_port, env

    def mail(self, to: str, body: str, in_reply_to: str | None = None) -> None:
        signed = body + "\n\n-- \nDienekes"
        mail_by_smtp(
            self.smtp_port, PLAYER, to, signed, subject="Re: orders", in_reply_to=in_reply_to
        )

    def outbox(self) -> list[EmailMessage]:
        return [parsed(path) for path in outbox_files(self.data_dir / "outbox")]

    def wait_for_mail(self, count: int, timeout: float = 30.0) -> EmailMessage:
        return parsed(outbox_file(self.data_dir / "outbox", count, timeout))

    def pbem(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "adjudicator.cli", *args],
            env=self.env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    yield from launch(tmp_path, "--no-sample")


@pytest.fixture
def service_with_demo(tmp_path: Path) -> Iterator[Service]:
    yield from launch(tmp_path, "--sample", PBEM_DEMO_PACE_SECONDS="1")


def launch(tmp_path: Path, sample: str, **extra: str) -> Iterator[Service]:
    smtp_port, web_port = free_port(), free_port()
    env = {
        **os.environ,
        "PBEM_DATA_DIR": str(tmp_path / "var"),
        "PBEM_SMTP_PORT": str(smtp_port),
        "PBEM_WEB_PORT": str(web_port),
        "PBEM_BASE_URL": f"http://127.0.0.1:{web_port}",
        "PBEM_TICK_SECONDS": "2",
        # The output is read only up to the banner: INFO lines (one per mail in and out) would
        # fill the pipe and stall the service.
        "PBEM_LOG_LEVEL": "WARNING",
        **extra,
    }
    env.pop("PBEM_CONFIG", None)
    env.pop("PBEM_DATABASE_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "adjudicator.cli", "serve", sample],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    lines = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        lines.append(line)
        if "Stop with Ctrl-C" in line:
            break
        if process.poll() is not None:
            raise AssertionError("pbem serve exited:\n" + "".join(lines))
    else:
        process.kill()
        raise AssertionError("pbem serve did not start:\n" + "".join(lines))
    yield Service(tmp_path / "var", smtp_port, web_port, env)
    process.terminate()
    process.wait(20)


def choose(text: str) -> str:
    """A reasonable player: fight with the best card when one is offered, else retreat."""
    fights = [int(value) for value in re.findall(r"^\s+FIGHT (\d+)", text, re.MULTILINE)]
    if fights:
        return f"FIGHT {max(fights)}" + (
            " SUPPORT 1" if re.search(r"SUPPORT 0-[1-4]", text) else ""
        )
    return "RETREAT"


def test_a_whole_game_by_smtp(service: Service) -> None:
    service.mail("new@pbem.localhost", "NEW THERMOPYLES")
    welcome = service.wait_for_mail(1)
    reply_to = str(welcome["Reply-To"])
    assert reply_to.startswith("orders+")
    text = welcome.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    latency = []
    count = 1
    while "THE GAME IS OVER" not in text:
        assert count < 200, "the game did not end"
        started = time.monotonic()
        service.mail(reply_to, choose(text), in_reply_to=str(welcome["Message-ID"]))
        count += 1
        report = service.wait_for_mail(count)
        latency.append(time.monotonic() - started)
        text = report.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
        assert str(report["Reply-To"]) == reply_to
    game_id = re.search(r"game (\d+)", text)
    assert game_id is not None
    assert "The seed is now revealed" in text
    verified = service.pbem("verify", game_id.group(1))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "confirmed" in verified.stdout
    last_turn = re.search(r"turn (\d+) resolved", text)
    assert last_turn is not None
    page = requests.get(f"http://127.0.0.1:{service.web_port}/games/{game_id.group(1)}", timeout=10)
    assert page.status_code == 200 and "<strong>finished</strong>" in page.text
    # Each turn's picture at the address of what it shows (services/outbound/turn_pictures.py).
    found = re.findall(rf"/games/{game_id.group(1)}/turns/(\d+)/[0-9a-f]{{20}}\.png", page.text)
    shown = {int(n) for n in found}
    assert shown == set(range(int(last_turn.group(1)) + 1))
    picture = requests.get(
        f"http://127.0.0.1:{service.web_port}/games/{game_id.group(1)}/turns/0.png", timeout=10
    )
    assert picture.headers["Content-Type"] == "image/png" and picture.content.startswith(b"\x89PNG")
    latency.sort()
    median = latency[len(latency) // 2]
    assert median < 1.0, f"median SMTP-to-Maildir {median:.2f}s"


def test_garbage_over_smtp_is_kept_and_inspectable(service: Service) -> None:
    with smtplib.SMTP("127.0.0.1", service.smtp_port, timeout=10) as client:
        client.sendmail("x@example.com", ["new@pbem.localhost"], b"\x00\x01 not a mail \xff")
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            client.sendmail(
                "x@example.com", ["someone@elsewhere.example"], b"Subject: relay?\r\n\r\nhi"
            )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        listing = service.pbem("mail", "list", "--status", "rejected")
        if "unreadable" in listing.stdout:
            break
        time.sleep(0.2)
    assert "unreadable" in listing.stdout
    inbound_id = listing.stdout.split()[0]
    raw = subprocess.run(
        [sys.executable, "-m", "adjudicator.cli", "mail", "show", inbound_id, "--raw"],
        env=service.env,
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    assert raw.stdout.startswith(b"\x00\x01 not a mail \xff")
    assert service.outbox() == []


def test_the_demo_game_is_played_by_mail_to_its_end(service_with_demo: Service) -> None:
    """`./run serve`'s sample: scripted 2 de Mayo players mail every turn until the game ends."""
    players = ("murat@example.com", "daoiz@example.com")
    deadline = time.monotonic() + 150
    finals: dict[str, str] = {}
    while time.monotonic() < deadline and len(finals) < 2:
        for mail in service_with_demo.outbox():
            body = mail.get_body(preferencelist=("plain",))
            if str(mail["To"]) in players and body and "THE GAME IS OVER" in body.get_content():
                finals[str(mail["To"])] = body.get_content()
        time.sleep(1)
    assert set(finals) == set(players), "the demo game did not reach its end"
    for text in finals.values():
        assert "The seed is now revealed" in text
    reports = [
        m
        for m in service_with_demo.outbox()
        if m["To"] == players[0] and m["X-Pbem-Kind"] == "report"
    ]
    assert len(reports) >= 2  # one per turn played, by mail, to each player
    page = requests.get(f"http://127.0.0.1:{service_with_demo.web_port}/", timeout=10).text
    assert "2 de Mayo" in page and "Thermopyles" in page
