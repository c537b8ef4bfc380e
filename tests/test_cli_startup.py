"""The commands that need no database start without loading one: `pbem mail parse` and
`pbem adjudicate` import neither the database layer, nor the migrations, nor the web framework,
nor Celery; together those made each run cost over a second before its own work began.

Each command runs as a fresh process, as `pbem` runs it, from an empty folder; what it loaded is
read from its own `sys.modules` as it exits, and what it printed is checked against the same
function called here.
"""

from __future__ import annotations

import json
from pathlib import Path

import golden
from fresh_process import run_python

from adjudicator.games import registry
from adjudicator.mail.addresses import reply_address, seat_token
from adjudicator.mail.inspect import inspect

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "mail" / "fixtures"
DOMAIN, SECRET = "pbem.localhost", "startup-secret"
# Top-level packages (and the service's own layers) that only database, web or queue work needs.
HEAVY = {"alembic", "sqlalchemy", "flask", "werkzeug", "celery", "kombu", "redis", "mako"}
HEAVY_OWN = ("adjudicator.db", "adjudicator.models", "adjudicator.migrate", "adjudicator.services")
# The console script's own two lines (``run_python`` puts its own, which import sys, first).
LAUNCH = "from adjudicator.cli import main\nsys.exit(main())\n"


def run_pbem(args: list[str], cwd: Path) -> tuple[int, str, set[str]]:
    env = {"PYTHONPATH": str(ROOT), "PBEM_SECRET_KEY": SECRET, "PBEM_MAIL_DOMAIN": DOMAIN}
    ran = run_python(LAUNCH, args, cwd, env)
    return ran.code, ran.out, ran.loaded


def heavy(loaded: set[str]) -> list[str]:
    return sorted(
        name for name in loaded if name.split(".")[0] in HEAVY or name.startswith(HEAVY_OWN)
    )


def test_mail_parse_loads_no_database_web_or_queue(tmp_path: Path) -> None:
    raw = (FIXTURES / "gmail_reply.eml").read_bytes()
    address = reply_address(seat_token(SECRET, 12, "spartans"), DOMAIN)
    code, out, loaded = run_pbem(
        ["mail", "parse", str(FIXTURES / "gmail_reply.eml"), "--to", address], tmp_path
    )
    assert code == 0, out
    printed = json.loads(out)
    assert printed == json.loads(json.dumps(inspect(raw, DOMAIN, SECRET, [address])))
    assert printed["route"]["game"] == 12 and printed["lines"]
    assert heavy(loaded) == []
    assert not [name for name in loaded if name.startswith(("adjudicator.games.", "PIL"))]
    assert list(tmp_path.iterdir()) == []  # and it wrote nothing


def test_an_unsigned_mail_loads_no_dkim_library(tmp_path: Path) -> None:
    # The DKIM library and its DNS resolver were a third of the command's start-up; a mail that
    # carries no signature has nothing for them to check.
    address = reply_address(seat_token(SECRET, 12, "spartans"), DOMAIN)
    unsigned = FIXTURES / "apple_iphone.eml"
    assert b"dkim-signature" not in unsigned.read_bytes().lower()
    code, out, loaded = run_pbem(["mail", "parse", str(unsigned), "--to", address], tmp_path)
    assert code == 0, out
    assert json.loads(out)["dkim"] == "none"
    assert not [name for name in loaded if name.split(".")[0] in {"dkim", "dns"}]


def test_adjudicate_loads_no_database_web_or_queue(tmp_path: Path) -> None:
    found = golden.case("dos_de_mayo", "movement")
    case = {"position": found["position"], "orders": found["orders"]}
    (tmp_path / "case.json").write_text(json.dumps(case))
    code, out, loaded = run_pbem(["adjudicate", "2demayo", "case.json"], tmp_path)
    assert code == 0, out
    rules = registry.get("2demayo")
    assert rules is not None
    assert json.loads(out) == json.loads(json.dumps(rules.adjudicate_case(case)))
    assert heavy(loaded) == []
    # Only the game asked for is loaded, not every game the service plays.
    others = ("adjudicator.games.thermopyles", "adjudicator.games.musket_and_pike")
    assert not [name for name in loaded if name.startswith(others)]


def test_the_command_list_loads_no_database_web_or_queue(tmp_path: Path) -> None:
    code, out, loaded = run_pbem(["--help"], tmp_path)
    assert code == 0 and "adjudicate" in out and "mail" in out
    assert heavy(loaded) == []
