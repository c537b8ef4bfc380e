"""A game's fairness record, /api/games/<id>/fairness.json: everything a verifier needs and no
secret before its time; the server's own replay with the game's key (schemes v1 and v2); and the
record read and replayed by ``core.fairness_record`` alone, as ``pbem verify --file`` does."""

from __future__ import annotations

import html
import json
from typing import Any

from fairness_games import WORDS, dice_count, finished_thermopyles, tamper_one_die
from fairness_games import contributions as recorded_contributions
from flask.testing import FlaskClient
from playbymail import gm_command
from sqlalchemy import select
from test_archive import played

from adjudicator.core.chance import ChanceEvent, Contribution, chance_key, recompute
from adjudicator.core.fairness_record import SPEC, RecordCheck, read_record
from adjudicator.core.refusal import Refusal
from adjudicator.models import Game, Turn
from adjudicator.services.reading import verification
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines
from adjudicator.web import create_app


def fairness(client: FlaskClient, game_id: int) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}/fairness.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers["Cache-Control"] == "no-cache"
    found: dict[str, Any] = response.get_json()
    return found


def checked(record: dict[str, Any]) -> RecordCheck:
    # Through JSON text and back, as a file a verifier downloaded.
    result = read_record(json.loads(json.dumps(record)))
    assert not isinstance(result, Refusal), result
    return result


def test_the_v2_key_is_the_seed_mixed_with_each_contribution() -> None:
    key = chance_key(bytes(32), "v2", [Contribution("france", "tiger 4417", "words")])
    assert key.hex() == "4eb1038b4608e5cc9051a157ec43d9164c1634bcbd4909d729b12865f0698b88"


def test_a_finished_v2_game_replays_with_its_key_and_its_record_alone(runtime: Runtime) -> None:
    game_id = finished_thermopyles(runtime)
    used = recorded_contributions(runtime, game_id)
    assert [(c.seat, c.words, c.source) for c in used] == [("spartans", WORDS, "words")]
    client = create_app(runtime).test_client()
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        seed, stream, scheme, stored = (
            game.seed,
            game.stream,
            game.chance_scheme,
            game.contributions,
        )
        contributions = [Contribution.from_json(data) for data in game.contributions]
        events = [
            ChanceEvent.from_json(data)
            for turn in session.scalars(select(Turn).where(Turn.game_id == game_id))
            for data in turn.events
        ]
    assert scheme == "v2" and contributions == used
    dice = dice_count(runtime, game_id)
    assert dice >= 5 and len(events) > dice, (dice, len(events))  # battles' dice, and the deck
    # The key, not the bare seed, gives the recorded draws.
    key = chance_key(seed, "v2", contributions)
    assert any(recompute(seed, stream, event) != recompute(key, stream, event) for event in events)

    result = verification.verify_game(runtime, game_id)
    assert not isinstance(result, Refusal)
    assert result.ok and result.events_checked == len(events) and result.problems == []
    assert result.scheme == "v2" and result.contributions == used

    record = fairness(client, game_id)
    assert (
        record["spec"] == SPEC and record["game_id"] == game_id and record["game"] == "thermopyles"
    )
    assert record["seed"] == seed.hex() and record["seed_revealed"] is True
    assert record["scheme"] == "v2" and record["stream"] == stream
    # As stored, in seat order (with whatever the flows keep beside them for reading).
    assert record["contributions"] == stored
    assert [Contribution.from_json(given) for given in stored] == used
    assert record["draws"] == len(events) and record["withheld"] == 0
    assert [turn["number"] for turn in record["turns"]] == sorted(
        t["number"] for t in record["turns"]
    )
    listed = [draw for turn in record["turns"] for draw in turn["draws"]]
    assert {draw["kind"] for draw in listed} == {"die", "shuffle"}
    assert all(draw["purpose"] and draw["turn"] >= 0 for draw in listed)
    offline = checked(record)
    assert offline.ok and len(offline.checks) == len(events) and offline.scheme == "v2"
    assert client.get(f"/api/games/{game_id}").get_json()["fairness_record"] == (
        f"/api/games/{game_id}/fairness.json"
    )

    # One die changed in the database: the server, the record and the page all find it.
    changed = tamper_one_die(runtime, game_id)
    result = verification.verify_game(runtime, game_id)
    assert not isinstance(result, Refusal) and not result.ok and len(result.problems) == 1
    assert (
        f"{changed['label']} #{changed['counter']} recorded {changed['result'][0]}"
        in (result.problems[0])
    )
    offline = checked(fairness(client, game_id))
    assert not offline.ok and len(offline.problems) == 1 and offline.seed_matches_commitment
    assert f"recorded {changed['result'][0]}, the key gives" in offline.problems[0]
    page = client.get(f"/games/{game_id}/fairness").get_data(as_text=True)
    assert "✗ Not confirmed" in page and page.count('title="differs">✗') == 1
    assert f"<code>{html.escape(used[0].words, quote=False)}</code>" in page  # words, as text
    # A v1 record of the same draws does not verify: the scheme is part of what is checked.
    assert not checked({**fairness(client, game_id), "scheme": "v1"}).ok


def test_a_running_game_s_record_holds_no_seed_and_no_shuffle(runtime: Runtime) -> None:
    game_id, _ = played(runtime)
    client = create_app(runtime).test_client()
    with runtime.db.session() as session:
        seed = session.get_one(Game, game_id).seed.hex()
    running = fairness(client, game_id)
    body = json.dumps(running)
    assert running["seed"] is None and running["seed_revealed"] is False and seed not in body
    assert "secret while the game runs" in running["note"] and running["withheld"] >= 3
    assert all(draw["kind"] == "die" for turn in running["turns"] for draw in turn["draws"])
    unchecked = checked(running)
    assert not unchecked.revealed and not unchecked.ok and unchecked.checks == []
    # The page's first lines say so, and offer no check to run.
    page = client.get(f"/games/{game_id}/fairness").get_data(as_text=True)
    lede = page.split('<p class="lede">', 1)[1].split("</p>", 1)[0]
    assert lede.startswith("The seed is not revealed yet: the game is still running.")
    assert (
        "/static/fairness.js" not in page and f'href="/api/games/{game_id}/fairness.json"' in page
    )
    # A turn rolled back stays on the record, marked, beside the turn played again.
    deadlines.adjudicate(runtime, game_id, force=True)
    gm_command(runtime, game_id, "ROLLBACK France misread the map")
    deadlines.adjudicate(runtime, game_id, force=True)
    gm_command(runtime, game_id, "END")
    ended = fairness(client, game_id)
    assert ended["seed"] == seed and ended["withheld"] == 0 and ended["scheme"] == "v1"
    marks = [(turn["number"], turn["rolled_back"]) for turn in ended["turns"]]
    assert marks == [(0, False), (1, False), (2, True), (2, False)], marks
    assert ended["contributions"] == []
    offline = checked(ended)
    result = verification.verify_game(runtime, game_id)
    assert not isinstance(result, Refusal) and result.ok and result.scheme == "v1"
    assert offline.ok and len(offline.checks) == result.events_checked == ended["draws"]
    assert [check.draw.rolled_back for check in offline.checks] == [
        check.rolled_back for check in result.checks
    ]
    assert client.get("/api/games/999/fairness.json").status_code == 404


def test_a_record_not_in_the_format_is_refused_with_its_fault() -> None:
    good = {
        "spec": SPEC,
        "game_id": 1,
        "scheme": "v2",
        "stream": "1",
        "commitment": "00" * 32,
        "seed": None,
        "contributions": [],
        "turns": [],
    }
    assert isinstance(read_record(good), RecordCheck)
    faults = {
        "its spec is 'other/9'": {**good, "spec": "other/9"},
        "scheme must be one of v1, v2, not 'v3'": {**good, "scheme": "v3"},
        "seed must be hex": {**good, "seed": "not hex"},
        "bound must be from 1 to 10000, not 99999": {
            **good,
            "turns": [
                {
                    "number": 0,
                    "draws": [
                        {
                            "turn": 0,
                            "label": "deck",
                            "counter": 0,
                            "kind": "shuffle",
                            "bound": 99999,
                            "result": [],
                        }
                    ],
                }
            ],
        },
        "contributions[0]: words must be text": {
            **good,
            "contributions": [{"seat": "france", "words": 7, "source": "words"}],
        },
        "the record must be an object": [],
    }
    for fault, record in faults.items():
        refused = read_record(record)
        assert isinstance(refused, Refusal) and fault in refused.reason, (fault, refused)


def test_a_running_shared_deal_s_record_lists_no_turn(runtime: Runtime) -> None:
    """Its turns would show every entrant the cards and dice still to come."""
    from playbymail import compose, deliver_mail

    deliver_mail(
        runtime, compose("a@example.com", "new@pbem.localhost", "NEW THERMOPYLES SHARED cup")
    )
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        turns = session.scalars(select(Turn).where(Turn.game_id == game.id)).all()
        game_id, dealt = game.id, sum(len(turn.events) for turn in turns)
    assert dealt >= 2  # both decks
    record = fairness(create_app(runtime).test_client(), game_id)
    assert (
        record["scheme"] == "v1" and record["seed"] is None and record["stream"] == "challenge-cup"
    )
    assert record["turns"] == [] and record["draws"] == 0
