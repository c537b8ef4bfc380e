"""A private Postfix for tests: its own configuration and queue in a temporary folder, on loopback.

It relays the service's mail domain to the LMTP listener, the way an operator's Postfix would, and
can be told to bounce whole domains (the error transport), so real Postfix DSNs come back.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

# chroot is off ("n") everywhere: a chroot would need copies of /etc files in the queue folder.
MASTER_CF = """\
127.0.0.1:{port} inet n - n - - smtpd
pickup    unix  n - n 60 1 pickup
cleanup   unix  n - n -  0 cleanup
qmgr      unix  n - n 300 1 qmgr
rewrite   unix  - - n -  - trivial-rewrite
bounce    unix  - - n -  0 bounce
defer     unix  - - n -  0 bounce
trace     unix  - - n -  0 bounce
verify    unix  - - n -  1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n -  - proxymap
smtp      unix  - - n -  - smtp
relay     unix  - - n -  - smtp
showq     unix  n - n -  - showq
error     unix  - - n -  - error
retry     unix  - - n -  - error
discard   unix  - - n -  - discard
lmtp      unix  - - n -  - lmtp
anvil     unix  - - n -  1 anvil
scache    unix  - - n -  1 scache
postlog   unix-dgram n - n - 1 postlogd
"""

MAIN_CF = """\
compatibility_level = 3.6
queue_directory = {base}/queue
data_directory = {base}/data
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.pbem.test
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
relay_domains = {relay_domains}
transport_maps = texthash:{base}/etc/transport
alias_maps =
alias_database =
smtp_dns_support_level = disabled
maillog_file = {base}/maillog
maillog_file_prefixes = {base}
"""


@dataclass(frozen=True)
class Postfix:
    port: int  # its SMTP listener on 127.0.0.1
    base: Path
    version: str

    def log(self) -> str:
        path = self.base / "maillog"
        return path.read_text() if path.exists() else ""


def binary() -> str:
    # /usr/sbin is not on every PATH (CI's may lack it); Debian's package installs it there.
    found = shutil.which("postfix") or shutil.which("postfix", path="/usr/sbin:/usr/local/sbin")
    if found is None:
        # Never skipped: the LMTP and bounce tests need the real thing (./run test installs it).
        pytest.fail("postfix is not installed: apt-get install postfix (./run test does)")
    return found


@contextmanager
def private_postfix(
    port: int,
    lmtp_port: int,
    domain: str,
    transports: Mapping[str, str] = {},
    verify_recipients: bool = False,
) -> Iterator[Postfix]:
    """Postfix relaying `domain` to LMTP on 127.0.0.1:lmtp_port; stopped and removed afterwards.

    transports adds transport_maps lines, e.g. {"gone.example": "error:5.1.1 user unknown"}.
    verify_recipients makes Postfix ask the LMTP listener about each recipient (address
    verification) and refuse at its own RCPT the ones the listener refuses, as docs/operations.md
    advises: otherwise Postfix accepts them and sends the bounce itself.
    """
    command = binary()
    # Not under pytest's tmp_path: that is private to root (0700), and Postfix's daemons run as
    # the postfix user, which must reach the queue.
    base = Path(tempfile.mkdtemp(prefix="pbem-postfix-"))
    base.chmod(0o755)
    etc = base / "etc"
    etc.mkdir()
    (base / "queue").mkdir(mode=0o755)
    table = {domain: f"lmtp:inet:127.0.0.1:{lmtp_port}", **transports}
    (etc / "transport").write_text("".join(f"{k} {v}\n" for k, v in table.items()))
    main_cf = MAIN_CF.format(base=base, relay_domains=", ".join(table))
    if verify_recipients:
        main_cf += (
            "smtpd_recipient_restrictions = reject_unauth_destination, "
            "reject_unverified_recipient\nunverified_recipient_reject_code = 550\n"
        )
    (etc / "main.cf").write_text(main_cf)
    (etc / "master.cf").write_text(MASTER_CF.format(port=port))
    postconf = Path(command).with_name("postconf")
    asked = [str(postconf), "-c", str(etc), "-h", "mail_version"]
    version = subprocess.run(asked, capture_output=True, text=True).stdout.strip()
    started = subprocess.run([command, "-c", str(etc), "start"], capture_output=True, text=True)
    try:
        assert started.returncode == 0, started.stderr + (base / "maillog").read_text()
        wait_for_port(port)
        yield Postfix(port=port, base=base, version=version)
    finally:
        subprocess.run([command, "-c", str(etc), "stop"], capture_output=True, text=True)
        shutil.rmtree(base, ignore_errors=True)


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
