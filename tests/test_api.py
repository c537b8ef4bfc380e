"""The stateless adjudication API and CLI: answers for every kind of input, nothing stored."""

from __future__ import annotations

from pathlib import Path

import golden
from click.testing import CliRunner
from sqlalchemy import func, select

from adjudicator import cli
from adjudicator.models import Game
from adjudicator.services.record.runtime import Runtime
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


def a_case() -> dict[str, object]:
    case = golden.case("dos_de_mayo", "movement")
    return {"position": case["position"], "orders": case["orders"]}


def test_api_adjudicates_a_2_de_mayo_position_without_storing(runtime: Runtime) -> None:
    from adjudicator.games import registry

    client = create_app(runtime).test_client()
    request = a_case()
    response = client.post("/api/adjudicate/2demayo", json=request)
    assert response.status_code == 200, response.get_json()
    result = response.get_json()
    assert result == registry.games()["2demayo"].adjudicate_case(request)
    assert result["ok"] is True
    after = result["position"]["areas"]
    assert after["14"]["france"] == 2 and after["4"]["spain"] == 1
    assert after["16"]["france"] == 0 and after["9"]["spain"] == 0
    refused = client.post("/api/adjudicate/2demayo", json={"position": {"turn": 4}, "seed": "xyz"})
    assert refused.status_code == 400 and refused.get_json()["errors"] == [
        "seed must be hex, not 'xyz'"
    ]
    with runtime.db.session() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 0


def test_cli_adjudicates_a_case_file(tmp_path: Path) -> None:
    import json

    case = tmp_path / "case.json"
    case.write_text(json.dumps(a_case()))
    result = CliRunner().invoke(cli.main, ["adjudicate", "2demayo", str(case)])
    assert result.exit_code == 0, result.output
    printed = json.loads(result.output)
    assert printed["ok"] is True and printed["position"]["areas"]["14"]["france"] == 2
    case.write_text(json.dumps({"position": {"turn": 4}, "seed": "xyz"}))
    refused = CliRunner().invoke(cli.main, ["adjudicate", "2demayo", str(case)])
    assert refused.exit_code == 1 and "seed must be hex" in refused.output
