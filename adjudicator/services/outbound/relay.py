"""Where outgoing mail is handed on, several mails at a time: one SMTP connection to the relay
for all of them, or one Maildir with a single flush to disk for all the files written."""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import smtplib
import socket
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

log = logging.getLogger(__name__)

# What says the relay dropped the connection before taking the mail: the connection closed under
# us, or a 421 ("closing the channel") to MAIL FROM or RCPT TO. The mail is then tried once more
# on a new connection; every other failure is the mail's own (retried later, or bounced).
_DROPPED = (smtplib.SMTPServerDisconnected, ConnectionError)


def dropped(error: Exception) -> bool:
    """Did the relay close the connection (rather than refuse this mail)?"""
    if isinstance(error, _DROPPED):
        return True
    if isinstance(error, smtplib.SMTPSenderRefused):
        return error.smtp_code == 421
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return bool(error.recipients) and all(code == 421 for code, _ in error.recipients.values())
    return False


def connect(url: str) -> smtplib.SMTP:
    """A connection to the relay named by ``url`` (smtp:// or smtps://, ?starttls=1, a login)."""
    parts = urlsplit(url)
    options = parse_qs(parts.query)
    host = parts.hostname or "127.0.0.1"
    if parts.scheme == "smtps":
        client: smtplib.SMTP = smtplib.SMTP_SSL(host, parts.port or 465, timeout=30)
    else:
        client = smtplib.SMTP(host, parts.port or 25, timeout=30)
    try:
        if options.get("starttls", ["0"])[0] in ("1", "true", "yes"):
            client.starttls(context=ssl.create_default_context())
        if parts.username:
            client.login(unquote(parts.username), unquote(parts.password or ""))
    except Exception:
        client.close()
        raise
    return client


@dataclass
class Relay:
    """One SMTP connection, opened at the first mail and reused for the ones after it."""

    url: str
    client: smtplib.SMTP | None = None
    reconnects: int = 0

    def send(self, sender: str, recipient: str, raw: bytes) -> None:
        """Hand one mail over; when the relay has dropped the connection, reconnect once and
        try the mail again (a fresh connection's failure is the mail's)."""
        fresh = self.client is None
        try:
            self._client().sendmail(sender, [recipient], raw)
            return
        except Exception as error:
            # A refusal of this mail leaves the connection as it was (smtplib sent RSET); a
            # dropped or broken one is closed, the next mail opens another.
            if dropped(error) or not isinstance(error, smtplib.SMTPResponseException):
                self.close()
            if fresh or not dropped(error):
                raise
            log.info("the relay dropped the connection (%s); reconnecting", error)
        self.reconnects += 1
        self._client().sendmail(sender, [recipient], raw)

    def _client(self) -> smtplib.SMTP:
        if self.client is None:
            self.client = connect(self.url)
        return self.client

    def close(self) -> None:
        client, self.client = self.client, None
        if client is None:
            return
        with contextlib.suppress(smtplib.SMTPException, OSError):
            client.quit()
        client.close()


def maildir_name(outbox_id: int, stamp: int) -> str:
    """A mail's file name, fixed by its outbox id, so that a retry never files it twice."""
    return f"{stamp}.pbem{outbox_id}.{socket.gethostname().replace('/', '_')}"


def filed_already(folder: Path, name: str) -> bool:
    return (folder / "new" / name).exists() or any((folder / "cur").glob(name + ":*"))


@dataclass
class Folder:
    """A Maildir being filled with several mails: each written into tmp/, then all flushed to
    disk at once (``_sync_data``) and moved into new/, and new/ itself flushed once, so that the
    names are on disk before the rows say "sent"."""

    path: Path
    staged: list[str] = field(default_factory=list)

    def stage(self, outbox_id: int, stamp: int, raw: bytes) -> None:
        for sub in ("tmp", "new", "cur"):
            (self.path / sub).mkdir(parents=True, exist_ok=True)
        name = maildir_name(outbox_id, stamp)
        if filed_already(self.path, name):
            return
        (self.path / "tmp" / name).write_bytes(raw)
        self.staged.append(name)

    def commit(self) -> None:
        """Make every staged file durable and visible; raises if the disk would not."""
        if not self.staged:
            return
        _sync_data(self.path / "tmp", self.staged)
        for name in self.staged:
            os.replace(self.path / "tmp" / name, self.path / "new" / name)
        _fsync_dir(self.path / "new")
        self.staged = []


# From this many files on, one syncfs(2) of the file system beats an fsync a file: it flushes
# whatever else is dirty there too, and measured 7-25 ms where an fsync took 1-5 ms.
SYNCFS_FROM = 4


def _sync_data(folder: Path, names: list[str]) -> None:
    """Flush the staged files' data: one syncfs(2) of their file system for a batch of
    SYNCFS_FROM or more where there is one (Linux), else an fsync a file."""
    libc_syncfs = _syncfs() if len(names) >= SYNCFS_FROM else None
    if libc_syncfs is not None:
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            if libc_syncfs(descriptor) != 0:
                raise OSError(ctypes.get_errno(), "syncfs failed", str(folder))
        finally:
            os.close(descriptor)
        return
    for name in names:
        with open(folder / name, "rb") as handle:
            os.fsync(handle.fileno())


def _fsync_dir(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _syncfs() -> Callable[[int], int] | None:
    try:
        found: Callable[[int], int] = ctypes.CDLL(None, use_errno=True).syncfs
        return found
    except (AttributeError, OSError):
        return None
