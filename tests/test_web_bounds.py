"""Requests the web fuzz (test_web_fuzz) found answered with a 500, each now answered properly."""

from __future__ import annotations

import pytest
from playbymail import compose, deliver_mail
from sqlalchemy import func, select
from test_providers import Keys, fixture, post_sns, ses_client

from adjudicator.models import InboundMessage
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


def test_an_sns_post_with_a_lone_surrogate_is_refused_not_a_crash(runtime: Runtime) -> None:
    # JSON may spell a lone surrogate (\ud800), which no UTF-8 text holds: SNS never signed it.
    web = ses_client(runtime, Keys())
    message = dict(fixture("ses-notification.json"), SignatureVersion="1", Signature="AAAA")
    message["Subject"] = "\ud800"
    answer = post_sns(web, message)
    assert answer.status_code == 403
    assert answer.get_json()["error"] == "the SNS signature does not match"
    with runtime.db.session() as session:
        assert session.scalar(select(func.count()).select_from(InboundMessage)) == 0
