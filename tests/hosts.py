"""Two hosts of one deployment, each a folder of its own, as separate machines would run them.

Each host is a data folder (``PBEM_DATA_DIR``) and the processes started in it: a web process
(gunicorn) and a Celery worker on each, ``celery beat`` on the first and the SMTP listener on the
second. They share what separate machines share: one PostgreSQL database, one Redis database,
the settings (the secret key, the inbound token, the address players reach the site at) and the
outbound relay, an SMTP server this module runs (``Relay``) that keeps every mail it is handed.
Nothing here imports the services: the test sees the deployment as its operator and its players
do, through mail, HTTP and the database.
"""

from __future__ import annotations

import contextlib
import os
import signal
import smtplib
import subprocess
import sys
import threading
from collections import Counter
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any
from urllib.parse import quote

import requests
from aiosmtpd.smtp import SMTP, Envelope, Session
from conftest import free_port

BIN = Path(sys.executable).parent
TOKEN = "multi-host-inbound-token"
DOMAIN = "pbem.localhost"


@dataclass(frozen=True)
class Delivered:
    """One mail as the relay took it: the envelope recipient and the headers."""

    to: str
    headers: Any

    def header(self, name: str) -> str:
        value = self.headers[name]
        return "" if value is None else str(value)

    @property
    def kind(self) -> str:
        return self.header("X-Pbem-Kind")

    @property
    def message_id(self) -> str:
        return self.header("Message-ID")


class Relay:
    """The outbound relay: an aiosmtpd handler that answers 250 to every mail and keeps it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.mails: list[Delivered] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        assert isinstance(raw, bytes)
        headers = BytesHeaderParser(policy=policy.default).parsebytes(raw)
        with self.lock:
            self.mails.extend(Delivered(rcpt, headers) for rcpt in envelope.rcpt_tos)
        return "250 2.0.0 OK"

    def taken(self) -> list[Delivered]:
        with self.lock:
            return list(self.mails)


@dataclass
class Host:
    """One machine: its data folder, its settings and the processes it runs."""

    name: str
    folder: Path
    env: dict[str, str]
    web_port: int
    smtp_port: int = 0
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def web(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"

    def start(self, role: str, command: list[str]) -> None:
        self.processes[role] = subprocess.Popen(
            command,
            env=self.env,
            cwd=self.folder,
            stdout=(self.folder / f"{role}.log").open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: a kill takes its children too
        )

    def log(self, role: str) -> str:
        path = self.folder / f"{role}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def in_flight(self) -> Counter[str]:
        """The tasks this host's worker is running at this moment, by name, as the worker itself
        answers Celery's remote control (its log does not say: the per-task "received" line is
        off below DEBUG). Nothing when the worker is gone."""
        from celery import Celery

        control = Celery(broker=self.env["PBEM_BROKER_URL"]).control
        name = f"worker@{self.name}"
        active = control.inspect(destination=[name], timeout=2.0).active() or {}
        return Counter(task["name"].removeprefix("pbem.") for task in active.get(name, []))

    def kill(self, role: str) -> None:
        """As the machine dying would: SIGKILL to the process and its children at once."""
        process = self.processes[role]
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)

    def check_alive(self, killed: set[str]) -> None:
        for role, process in self.processes.items():
            if f"{self.name}:{role}" not in killed and process.poll() is not None:
                tail = "\n".join(self.log(role).splitlines()[-20:])
                raise AssertionError(f"{self.name} {role} exited {process.returncode}:\n{tail}")

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(15)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)  # whatever is left of the group
            process.wait(10)


def shared_settings(
    database_url: str, broker_url: str, relay_port: int, site: str
) -> dict[str, str]:
    """What every host is given alike (docs/operations.md, "Several hosts")."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    return {
        **env,
        "PATH": f"{BIN}:{os.environ['PATH']}",
        "PBEM_DATABASE_URL": database_url,
        "PBEM_BROKER_URL": broker_url,
        "PBEM_SMTP_URL": f"smtp://127.0.0.1:{relay_port}",
        "PBEM_SECRET_KEY": "multi-host-secret",
        "PBEM_INBOUND_TOKEN": TOKEN,
        "PBEM_MAIL_DOMAIN": DOMAIN,
        "PBEM_BASE_URL": site,
        "PBEM_LOG_LEVEL": "INFO",
    }


def make_host(name: str, root: Path, shared: dict[str, str], web_port: int) -> Host:
    folder = root / name
    folder.mkdir()
    env = {**shared, "PBEM_DATA_DIR": str(folder / "var"), "PBEM_WEB_PORT": str(web_port)}
    return Host(name, folder, env, web_port)


def start_web(host: Host) -> None:
    bind = f"127.0.0.1:{host.web_port}"
    command = [str(BIN / "gunicorn"), "--workers", "1", "--bind", bind, "adjudicator.wsgi:app"]
    host.start("web", command)


def start_worker(host: Host, concurrency: int) -> None:
    host.start(
        "worker",
        [
            *(str(BIN / "celery"), "-A", "workers.app", "worker", "--loglevel=INFO"),
            *("-n", f"worker@{host.name}", "--concurrency", str(concurrency)),
        ],
    )


def start_beat(host: Host) -> None:
    host.start("beat", [str(BIN / "celery"), "-A", "workers.app", "beat", "--loglevel=INFO"])


def start_listener(host: Host) -> None:
    host.smtp_port = free_port()
    host.env["PBEM_SMTP_PORT"] = str(host.smtp_port)
    host.start("smtp", [str(BIN / "pbem"), "smtp"])


def ready(host: Host) -> bool:
    """Every process of the host answers (or says it is ready, in its log)."""
    roles = host.processes
    if "worker" in roles and " ready." not in host.log("worker"):
        return False
    if "beat" in roles and "Starting" not in host.log("beat"):
        return False
    try:
        if "web" in roles:
            requests.get(host.web + "/healthz", timeout=2).raise_for_status()
        if "smtp" in roles:
            smtplib.SMTP("127.0.0.1", host.smtp_port, timeout=2).quit()
    except (OSError, requests.RequestException, smtplib.SMTPException):
        return False
    return True


def compose(sender: str, to: str, body: str, message_id: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, "orders"
    message["Message-ID"] = message_id
    message.set_content(body + "\n")
    return message.as_bytes()


def post_mail(host: Host, sender: str, to: str, raw: bytes) -> None:
    """The raw-MIME webhook of ``host``'s web process, as a mail provider calls it."""
    response = requests.post(
        f"{host.web}/inbound/mime?rcpt={quote(to)}&from={quote(sender)}",
        data=raw,
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "message/rfc822"},
        timeout=30,
    )
    assert response.status_code == 202, (response.status_code, response.text)


def smtp_mail(host: Host, sender: str, to: str, raw: bytes) -> None:
    """``host``'s SMTP listener, as the sending MTA hands mail over."""
    with smtplib.SMTP("127.0.0.1", host.smtp_port, timeout=30) as client:
        client.sendmail(sender, [to], raw)
