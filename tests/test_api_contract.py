"""The JSON API as a contract: its OpenAPI document (/api/openapi.json) names every /api/ rule of
the app and nothing else, and the real app, served over HTTP on a loopback port with games of every
kind in its database, answers whatever the document allows a client to send (and what it does not)
below 500, always as the document says: status, content type, headers and body schema."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import schemathesis
from api_games import archive
from conftest import Queue, make_config
from empty_tables import emptied
from hypothesis import HealthCheck, settings
from live_server import Live, serving
from schemathesis import Case
from schemathesis.config import SchemathesisConfig

from adjudicator import migrate
from adjudicator.db import Database
from adjudicator.games import registry
from adjudicator.services.reading.listing import STATUS_FILTERS
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import api, create_app

# A rule's parameter (<name>, <converter:name>) as OpenAPI writes it ({name}).
PARAMETER = re.compile(r"<(?:[^:>]+:)?(\w+)>")
# Methods Flask answers for every rule by itself, which the document leaves unsaid.
IMPLIED = {"HEAD", "OPTIONS"}
EXAMPLES = 30
# The archive's games, numbered from 1 in a fresh database.
GAME_IDS = range(1, 7)


def operations_in(document: dict[str, object]) -> set[tuple[str, str]]:
    paths = document["paths"]
    assert isinstance(paths, dict)
    return {(path, method.upper()) for path, item in paths.items() for method in item}


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_document_names_every_api_rule_and_nothing_else(runtime: Runtime) -> None:
    app = create_app(runtime)
    rules = {
        (PARAMETER.sub(r"{\1}", rule.rule), method)
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith(api.PREFIX + "/")
        for method in (rule.methods or set()) - IMPLIED
    }
    assert len(rules) >= 6
    assert rules == operations_in(api.DOCUMENT)
    served = app.test_client().get("/api/openapi.json")
    assert served.status_code == 200 and served.get_json() == api.DOCUMENT


def test_the_list_filters_name_every_game_and_status() -> None:
    (listed,) = api.DOCUMENT["paths"]["/api/games"].values()
    allowed = {parameter["name"]: parameter["schema"]["enum"] for parameter in listed["parameters"]}
    assert allowed == {"game": ["", *sorted(registry.games())], "status": ["", *STATUS_FILTERS]}


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_errors_under_api_are_json_and_elsewhere_pages(runtime: Runtime) -> None:
    client = create_app(runtime).test_client()
    nowhere = client.get("/api/no-such-thing")
    assert nowhere.status_code == 404 and nowhere.is_json and nowhere.get_json()["errors"]
    negative = client.get("/api/games/-1/turns/0")
    assert negative.status_code == 404 and negative.is_json
    wrong_method = client.delete("/api/games")
    assert wrong_method.status_code == 405 and wrong_method.is_json
    assert set(wrong_method.headers["Allow"].split(", ")) >= {"GET", "HEAD"}
    page = client.get("/games/no-such-page")
    assert page.status_code == 404 and page.mimetype == "text/html"


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def live(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Live]:
    """The app served over a database holding games of every kind, once for all the operations
    (each is a test of its own): SQLite, then PostgreSQL."""
    folder = tmp_path_factory.mktemp("api")
    if request.param == "sqlite":
        url = f"sqlite:///{folder / 'pbem.sqlite'}"
    else:
        url = emptied(request.getfixturevalue("postgres_url"))
    database = Database(url)
    migrate.upgrade(database)
    runtime = Runtime(make_config(folder, url), database, enqueue=Queue())
    assert sorted(archive(runtime).ids) == list(GAME_IDS)
    with serving(runtime) as served:
        yield served
    database.dispose()


# A position may be of the document's shape and still break the game's rules (too many units, a
# card in two hands): the one operation where a request the document allows may be refused.
CONFIG = SchemathesisConfig.from_dict(
    {
        "operations": [
            {
                "include-operation-id": "adjudicate",
                "checks": {"positive_data_acceptance": {"expected-statuses": [200, 400, 404]}},
            }
        ]
    }
)


def with_examples(document: dict[str, Any]) -> dict[str, Any]:
    """The document, its path numbers given the archive's games and turns as examples: random
    numbers seldom name a game, and the answers worth checking are the games'."""
    copied = copy.deepcopy(document)
    copied["components"]["parameters"]["GameId"]["schema"]["examples"] = list(GAME_IDS)
    turn = copied["paths"]["/api/games/{game_id}/turns/{number}"]["get"]["parameters"][1]
    turn["schema"]["examples"] = [0, 1, 2]
    return copied


# The document as the package holds it (the first test shows the app serves this very one).
schema = schemathesis.openapi.from_dict(with_examples(api.DOCUMENT), config=CONFIG)


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_the_running_app_keeps_to_its_document(
    case: Case, live: Live, session: requests.Session
) -> None:
    case.call_and_validate(base_url=live.url, session=session)


@pytest.fixture(scope="module")
def session() -> Iterator[requests.Session]:
    with requests.Session() as opened:
        yield opened
