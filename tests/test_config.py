"""Configuration layers: defaults, overlay file, PBEM_ environment, derived values."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator import config as configuration


def test_defaults_are_the_embedded_service(tmp_path: Path) -> None:
    config = configuration.load(environ={}, extra={"data_dir": str(tmp_path)})
    assert config.database_url == f"sqlite:///{(tmp_path / 'pbem.sqlite').resolve()}"
    assert config.broker_url == "memory://localhost/"
    assert config.embedded_broker
    assert config.smtp_url == ""
    assert config.outbox_dir == tmp_path / "outbox"
    assert config.mail_domain == "pbem.localhost"
    assert config.from_address == "pbem@pbem.localhost"
    assert (config.smtp_host, config.smtp_port) == ("127.0.0.1", 2525)


def test_links_follow_the_web_port_unless_a_base_url_is_set(tmp_path: Path) -> None:
    """A second instance on another port must not link its players to the first one's games."""
    extra = {"data_dir": str(tmp_path)}
    assert configuration.load(environ={}, extra=extra).base_url == "http://127.0.0.1:8000"
    moved = configuration.load(environ={"PBEM_WEB_PORT": "8081"}, extra=extra)
    assert moved.base_url == "http://127.0.0.1:8081"
    everywhere = {"PBEM_WEB_HOST": "0.0.0.0", "PBEM_WEB_PORT": "8082"}
    assert configuration.load(environ=everywhere, extra=extra).base_url == "http://127.0.0.1:8082"
    named = {"PBEM_WEB_PORT": "8081", "PBEM_BASE_URL": "https://games.example.org/"}
    assert configuration.load(environ=named, extra=extra).base_url == "https://games.example.org"


def test_environment_overrides_with_prefix(tmp_path: Path) -> None:
    environ = {
        "PBEM_DATA_DIR": str(tmp_path),
        "PBEM_DATABASE_URL": "postgresql+psycopg://db/pbem",
        "PBEM_BROKER_URL": "redis://127.0.0.1:6379/0",
        "PBEM_SMTP_URL": "smtp://relay:25",
        "PBEM_MAIL_DOMAIN": "games.example.org",
        "PBEM_SECRET_KEY": "k",
        "PBEM_SMTP_PORT": "2626",
    }
    config = configuration.load(environ=environ)
    assert config.database_url == "postgresql+psycopg://db/pbem"
    assert not config.embedded_broker
    assert config.smtp_url == "smtp://relay:25"
    assert config.from_address == "pbem@games.example.org"
    assert config.secret_key == "k"
    assert config.smtp_port == 2626


def test_overlay_file_then_environment(tmp_path: Path) -> None:
    overlay = tmp_path / "site.toml"
    overlay.write_text('mail_domain = "overlay.example"\nweb_port = 9000\n')
    environ = {"PBEM_CONFIG": str(overlay), "PBEM_WEB_PORT": "9100", "PBEM_DATA_DIR": str(tmp_path)}
    config = configuration.load(environ=environ)
    assert config.mail_domain == "overlay.example"
    assert config.web_port == 9100


def test_unknown_key_is_refused(tmp_path: Path) -> None:
    overlay = tmp_path / "site.toml"
    overlay.write_text('mail_domian = "typo.example"\n')
    with pytest.raises(ValueError, match="mail_domian"):
        configuration.load(environ={"PBEM_CONFIG": str(overlay)})


def test_generated_secret_is_kept_across_restarts(tmp_path: Path) -> None:
    first = configuration.load(environ={"PBEM_DATA_DIR": str(tmp_path)})
    second = configuration.load(environ={"PBEM_DATA_DIR": str(tmp_path)})
    assert len(first.secret_key) == 64
    assert first.secret_key == second.secret_key
    assert first.inbound_token == second.inbound_token != ""
    other = configuration.load(environ={"PBEM_DATA_DIR": str(tmp_path / "other")})
    assert other.secret_key != first.secret_key


def test_every_default_key_is_commented() -> None:
    lines = configuration.DEFAULT_FILE.read_text().splitlines()
    for index, line in enumerate(lines):
        if line and not line.startswith("#") and "=" in line:
            above = lines[index - 1]
            assert above.startswith("#") or "=" in above, f"key without a comment: {line}"
