"""Configuration: config/default.toml, then the file named by PBEM_CONFIG, then PBEM_* variables."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

DEFAULT_FILE = Path(__file__).resolve().parent.parent / "config" / "default.toml"
LOG_FORMATS = ("text", "json")


@dataclass(frozen=True)
class Config:
    data_dir: Path
    database_url: str
    broker_url: str
    smtp_url: str
    mail_domain: str
    from_address: str
    secret_key: str
    # Keys retired by a rotation, newest first, comma-separated: they still verify, never sign.
    previous_secret_keys: str
    key_version: int
    inbound_token: str
    smtp_host: str
    smtp_port: int
    web_host: str
    web_port: int
    base_url: str
    max_message_bytes: int
    tick_seconds: int
    claim_lease_seconds: int
    # How long a queued task may wait in a non-empty queue before the tick queues it again.
    queued_lease_seconds: int
    # How long a worker's claim on a mail it is handing to the relay lasts.
    sending_lease_seconds: int
    demo_pace_seconds: int
    idle_close_days: int
    idle_warning_days: int
    challenge_days: int
    log_level: str
    # "text" (a line for a person) or "json" (one object a line, for a log collector).
    log_format: str
    # The token /ops asks for (empty: the page does not exist).
    ops_token: str
    # Provider webhooks (an empty secret switches that provider's endpoint off).
    mailgun_signing_key: str
    sendgrid_user: str
    sendgrid_password: str
    sendgrid_public_key: str
    postmark_user: str
    postmark_password: str
    ses_topic_arns: str
    webhook_max_age_seconds: int
    # The LMTP listener beside the SMTP one (0: off).
    lmtp_port: int
    # Safety limits on inbound mail.
    sender_limit_per_hour: int
    unauthenticated_replies_per_hour: int
    unknown_sender_reply_hours: int
    # The game-master web panel: login links, their sessions and rate limits.
    panel_link_hours: int
    panel_session_hours: int
    panel_links_per_hour: int
    panel_posts_per_minute: int

    @property
    def outbox_dir(self) -> Path:
        return self.data_dir / "outbox"

    @property
    def previous_keys(self) -> tuple[str, ...]:
        """The retired secret keys that still verify what they signed, newest first."""
        return tuple(k.strip() for k in self.previous_secret_keys.split(",") if k.strip())

    @property
    def embedded_broker(self) -> bool:
        return self.broker_url.startswith("memory://")

    def with_overrides(self, **changes: Any) -> Config:
        return resolve_derived(replace(self, **changes))


def _coerce(name: str, value: Any, kind: Any) -> Any:
    if kind in (int, "int"):
        return int(value)
    if kind in (Path, "Path"):
        return Path(value)
    return str(value)


def load(
    environ: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
    *,
    read_only: bool = False,
) -> Config:
    """Read the layers in order; later ones win. ``extra`` is for tests and the CLI.

    ``read_only`` is for commands that only look (``pbem mail parse``): they write no file, not
    even the generated secret key.
    """
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = tomllib.loads(DEFAULT_FILE.read_text())
    overlay = environ.get("PBEM_CONFIG")
    if overlay:
        values.update(tomllib.loads(Path(overlay).read_text()))
    for field in fields(Config):
        env_value = environ.get("PBEM_" + field.name.upper())
        if env_value is not None:
            values[field.name] = env_value
    if extra:
        values.update(extra)
    unknown = set(values) - {field.name for field in fields(Config)}
    if unknown:
        raise ValueError(f"unknown configuration keys: {', '.join(sorted(unknown))}")
    typed = {
        field.name: _coerce(field.name, values[field.name], field.type) for field in fields(Config)
    }
    if typed["log_format"] not in LOG_FORMATS:
        # Refused at start: a typo would otherwise silently give the wrong kind of log.
        raise ValueError(f"log_format must be one of {', '.join(LOG_FORMATS)}")
    return resolve_derived(Config(**typed), read_only=read_only)


def resolve_derived(config: Config, read_only: bool = False) -> Config:
    """Fill the keys whose empty value means "work it out": database, sender, secrets."""
    data_dir = config.data_dir
    database_url = config.database_url or f"sqlite:///{(data_dir / 'pbem.sqlite').resolve()}"
    from_address = config.from_address or f"pbem@{config.mail_domain}"
    base_url = (config.base_url or f"http://{_host(config.web_host)}:{config.web_port}").rstrip("/")
    secret_key = config.secret_key or _stored_secret(data_dir, keep=not read_only)
    inbound_token = (
        config.inbound_token
        or hmac.new(secret_key.encode(), b"inbound-token", hashlib.sha256).hexdigest()[:32]
    )
    return replace(
        config,
        database_url=database_url,
        base_url=base_url,
        from_address=from_address,
        secret_key=secret_key,
        inbound_token=inbound_token,
    )


def _host(host: str) -> str:
    # A site listening on every address is reached on this machine at loopback; an IPv6 address
    # is bracketed in a URL.
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def _stored_secret(data_dir: Path, keep: bool = True) -> str:
    # Generated once so reply addresses handed out stay valid across restarts.
    path = data_dir / "secret.key"
    if path.exists():
        return path.read_text().strip()
    key = secrets.token_hex(32)
    if not keep:
        # Nothing was ever signed with a key that was never kept, so a one-off key verifies
        # nothing, which is the truth.
        return key
    data_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(key + "\n")
    path.chmod(0o600)
    return key
