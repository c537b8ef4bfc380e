"""Every file the service writes goes under the configured data directory; looking writes nothing.

Each check runs the real code in a fresh process (Celery's configuration and the generated secret
are per process) from an empty working directory, with the data directory named elsewhere.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from playbymail import compose

ROOT = Path(__file__).resolve().parent.parent


def files_under(folder: Path) -> list[str]:
    if not folder.exists():
        return []
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """An empty working directory, a data directory elsewhere, and an environment naming it."""
    cwd, data = tmp_path / "cwd", tmp_path / "data"
    cwd.mkdir()
    overlay = tmp_path / "site.toml"
    overlay.write_text(f'data_dir = "{data}"\n')
    env = {key: value for key, value in os.environ.items() if not key.startswith("PBEM_")}
    env.update(PYTHONPATH=str(ROOT), PBEM_CONFIG=str(overlay), PBEM_LOG_LEVEL="WARNING")
    return cwd, data, env


def python(code: str, cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def pbem(args: list[str], cwd: Path, env: dict[str, str], stdin: bytes = b"") -> str:
    done = subprocess.run(
        [sys.executable, "-m", "adjudicator.cli", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def test_a_runtime_built_from_a_given_configuration_writes_only_in_its_data_dir(
    places: tuple[Path, Path, dict[str, str]], tmp_path: Path
) -> None:
    cwd, _, env = places
    # The configuration handed over names another directory than the environment, which here
    # names none (the default, var/ in the current directory): nothing may be read again from the
    # environment and written where that one points.
    del env["PBEM_CONFIG"]
    given = tmp_path / "given"
    python(
        "from adjudicator import bootstrap, config\n"
        f"bootstrap.runtime(config.load(extra={{'data_dir': {str(given)!r}}}))\n"
        "from workers.app import celery\n"
        "assert celery.conf.beat_schedule_filename.startswith(" + repr(str(given)) + ")\n",
        cwd,
        env,
    )
    assert files_under(cwd) == []
    assert files_under(given) == ["pbem.sqlite", "secret.key"]


def test_a_worker_configured_from_the_environment_writes_only_in_its_data_dir(
    places: tuple[Path, Path, dict[str, str]],
) -> None:
    cwd, data, env = places
    # What `celery -A workers.app worker` does when its first task asks for the runtime.
    python("from workers.app import celery, runtime\nruntime()\ncelery.conf.broker_url\n", cwd, env)
    assert files_under(cwd) == []
    assert files_under(data) == ["secret.key"]


def test_mail_parse_and_mail_read_write_nothing(places: tuple[Path, Path, dict[str, str]]) -> None:
    cwd, data, env = places
    raw = compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES")
    found = json.loads(pbem(["mail", "parse", "-"], cwd, env, stdin=raw))
    assert found["sender"] == "a@example.com" and found["route"]["service"] == "new"
    pbem(["mail", "read"], cwd, env)
    assert files_under(cwd) == []
    assert not data.exists()
    # With a data directory in use, parsing still reads the key kept there and adds nothing.
    data.mkdir()
    (data / "secret.key").write_text("k" * 64 + "\n")
    pbem(["mail", "parse", "-"], cwd, env, stdin=raw)
    assert files_under(data) == ["secret.key"]
    assert (data / "secret.key").read_text() == "k" * 64 + "\n"
    assert files_under(cwd) == []
