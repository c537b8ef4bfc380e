"""The stateless adjudication API and CLI: answers for every kind of input, nothing stored."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import func, select

from adjudicator import cli
from adjudicator.models import Game
from adjudicator.services.runtime import Runtime
from adjudicator.web import create_app


def test_refusals_are_clear(runtime: Runtime) -> None:
    client = create_app(runtime).test_client()
    unknown = client.post("/api/adjudicate/chess", json={})
    assert unknown.status_code == 404
    assert "no game called 'chess'" in unknown.get_json()["errors"][0]
    unsupported = client.post("/api/adjudicate/thermopyles", json={"position": {}})
    assert unsupported.status_code == 404
    assert "offers no stateless adjudication" in unsupported.get_json()["errors"][0]
    not_json = client.post("/api/adjudicate/thermopyles", data=b"FIGHT 17")
    assert not_json.status_code == 400 and "JSON object" in not_json.get_json()["errors"][0]
    with runtime.db.session() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 0


def test_cli_refusals(tmp_path: Path) -> None:
    runner = CliRunner()
    case = tmp_path / "case.json"
    case.write_text("{not json")
    assert "is not JSON" in runner.invoke(cli.main, ["adjudicate", "thermopyles", str(case)]).output
    case.write_text("{}")
    result = runner.invoke(cli.main, ["adjudicate", "thermopyles", str(case)])
    assert result.exit_code != 0 and "offers no stateless adjudication" in result.output
    assert "no game called" in runner.invoke(cli.main, ["adjudicate", "chess", str(case)]).output
