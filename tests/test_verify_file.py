"""`pbem verify --file fairness.json`: the real command, run as a process from an empty folder
with no configuration and no database, replays a record the service exported. Its exit code
says what came of it: 0 confirmed, 1 a draw differs, 2 nothing could be checked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from fairness_games import contributions, finished_thermopyles, tamper_one_die

from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

PBEM = Path(sys.executable).with_name("pbem")  # the console script pip installed beside Python
# What only the database, the web or the queue needs: a check of a file loads none of it.
HEAVY = ("sqlalchemy", "flask", "celery", "redis", "alembic", "adjudicator.services")
LAUNCH = (
    "import atexit, runpy, sys\n"
    "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules))))\n"
    "sys.argv[0] = sys.argv[1]; del sys.argv[1]\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)


def run(folder: Path, *args: str) -> tuple[int, str, str]:
    """The pbem script as a player runs it, with no PBEM_ setting at all; its exit code, its
    output and its errors."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PBEM_")}
    done = subprocess.run(
        [sys.executable, "-c", LAUNCH, str(PBEM), "verify", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    errors, _, loaded = done.stderr.rpartition("\nMODULES ")
    heavy = [name for name in loaded.split() if name.startswith(HEAVY)]
    assert heavy == [], heavy
    return done.returncode, done.stdout, errors


def export(runtime: Runtime, game_id: int, folder: Path, name: str) -> Path:
    """The game's record as a verifier downloads it."""
    response = create_app(runtime).test_client().get(f"/api/games/{game_id}/fairness.json")
    assert response.status_code == 200
    path = folder / name
    path.write_bytes(response.data)
    return path


def test_verify_file_replays_an_exported_record_offline(runtime: Runtime, tmp_path: Path) -> None:
    assert PBEM.is_file(), PBEM
    game_id = finished_thermopyles(runtime)
    [given] = contributions(runtime, game_id)
    good = export(runtime, game_id, tmp_path, "fairness.json")
    record: dict[str, Any] = json.loads(good.read_text())
    draws = record["draws"]
    code, out, errors = run(tmp_path, "--file", "fairness.json")
    assert code == 0, (out, errors)
    assert out.splitlines() == [
        "key: the seed with 1 contribution (scheme v2)",
        f"  spartans: {given.words!r} ({given.source})",
        f"confirmed: game {game_id}'s seed matches its commitment and reproduces all {draws}"
        " recorded draws",
    ]
    # From stdin too.
    piped = subprocess.run(
        [str(PBEM), "verify", "--file", "-"],
        input=good.read_bytes(),
        capture_output=True,
        cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if not k.startswith("PBEM_")},
        timeout=60,
    )
    assert piped.returncode == 0 and b"confirmed:" in piped.stdout, piped

    changed = tamper_one_die(runtime, game_id)
    export(runtime, game_id, tmp_path, "tampered.json")
    code, out, errors = run(tmp_path, "--file", "tampered.json")
    assert code == 1, (out, errors)
    [differs] = [line for line in out.splitlines() if line.startswith("DIFFERS: ")]
    assert f"{changed['label']} #{changed['counter']} recorded {changed['result'][0]}," in differs
    assert "confirmed" not in out and f"game {game_id} does not verify" in errors
    # A seed that is not the committed one is caught before any draw.
    (tmp_path / "other-seed.json").write_text(json.dumps({**record, "seed": "00" * 32}))
    code, out, errors = run(tmp_path, "--file", "other-seed.json")
    assert code == 1 and "DIFFERS: the seed does not hash to the commitment" in out


def test_verify_file_says_when_nothing_can_be_checked(runtime: Runtime, tmp_path: Path) -> None:
    from playbymail import compose, deliver_mail

    deliver_mail(runtime, compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    export(runtime, 1, tmp_path, "running.json")
    code, out, errors = run(tmp_path, "--file", "running.json")
    assert (code, out) == (2, "")
    assert "cannot check game 1 yet: its seed is revealed when it ends" in errors
    (tmp_path / "garbage.json").write_text("{not json")
    code, out, errors = run(tmp_path, "--file", "garbage.json")
    assert code == 2 and "cannot check garbage.json: " in errors, errors
    (tmp_path / "other.json").write_text(json.dumps({"spec": "else/1"}))
    code, out, errors = run(tmp_path, "--file", "other.json")
    assert code == 2 and "not a fairness record: its spec is 'else/1'" in errors, errors
    code, out, errors = run(tmp_path)
    assert code == 2 and "name a GAME, or give its fairness record with --file" in errors
    code, out, errors = run(tmp_path, "1", "--file", "running.json")
    assert code == 2 and "--file checks the record alone" in errors
