"""Requests the web fuzz (test_web_fuzz) found answered with a 500, each now answered properly."""

from __future__ import annotations

import pytest
from playbymail import compose, deliver_mail

from adjudicator.services.runtime import Runtime
from adjudicator.web import create_app

BEYOND_ID = 2**63  # one past the largest 64-bit record id
BEYOND_COUNT = 2**31  # one past the largest turn number a 32-bit column holds


@pytest.fixture
def game_id(runtime: Runtime) -> int:
    deliver_mail(runtime, compose("leonidas@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    return 1


@pytest.mark.parametrize(
    "path",
    [
        f"/games/{BEYOND_ID}",
        f"/games/{BEYOND_ID}/turns/0",
        f"/games/{BEYOND_ID}/feed.atom",
        f"/games/{BEYOND_ID}/strength.png",
        f"/games/{BEYOND_ID}/fairness",
        f"/api/games/{BEYOND_ID}",
        f"/api/games/{BEYOND_ID}/turns/0",
        "/games/{game}/turns/" + str(BEYOND_COUNT),
        "/games/{game}/turns/" + f"{BEYOND_COUNT}.png",
        "/api/games/{game}/turns/" + str(BEYOND_COUNT),
        f"/games/{BEYOND_ID}/check/spartans/x",
    ],
)
def test_a_number_no_column_can_hold_is_no_page(runtime: Runtime, game_id: int, path: str) -> None:
    client = create_app(runtime).test_client()
    assert client.get(path.format(game=game_id)).status_code == 404
    # The largest numbers that fit are looked up like any other, and found missing.
    fits = path.replace(str(BEYOND_ID), str(BEYOND_ID - 1)).replace(
        str(BEYOND_COUNT), str(BEYOND_COUNT - 1)
    )
    assert client.get(fits.format(game=game_id)).status_code == 404
    assert client.get(f"/games/{game_id}/turns/0").status_code == 200
