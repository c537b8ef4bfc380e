"""Requests the web fuzz (test_web_fuzz) found answered with a 500, each now answered properly."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from flask.testing import FlaskClient
from playbymail import compose, deliver_mail
from sqlalchemy import func, select
from test_providers import (
    MAILGUN_KEY,
    RAW,
    Keys,
    fixture,
    mailgun_fields,
    multipart,
    post_mailgun,
    post_sns,
    ses_client,
)

from adjudicator.models import InboundMessage
from adjudicator.services.record.runtime import Runtime
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


def provider_client(runtime: Runtime) -> FlaskClient:
    config = runtime.config.with_overrides(
        mailgun_signing_key=MAILGUN_KEY,
        sendgrid_user="pbem",
        sendgrid_password="s3cret",
        postmark_user="pbem",
        postmark_password="s3cret",
    )
    return create_app(Runtime(config, runtime.db, runtime.enqueue)).test_client()


def stored(runtime: Runtime) -> list[InboundMessage]:
    with runtime.db.session() as session:
        return list(session.scalars(select(InboundMessage).order_by(InboundMessage.id)))


@pytest.mark.parametrize("field", ["ToFull", "Headers"])
def test_postmark_lists_that_are_not_lists_are_read_as_empty(runtime: Runtime, field: str) -> None:
    web = provider_client(runtime)
    payload = fixture("postmark.json") | {"OriginalRecipient": "", field: 5}
    answer = web.post("/inbound/postmark", json=payload, auth=("pbem", "s3cret"))
    assert answer.status_code == 200, answer.get_data()
    [row] = stored(runtime)
    assert row.raw == RAW


def test_postmark_raw_email_that_is_no_text_is_refused(runtime: Runtime) -> None:
    web = provider_client(runtime)
    payload = fixture("postmark.json") | {"RawEmail": "From: a@example.com\n\n\ud800"}
    answer = web.post("/inbound/postmark", json=payload, auth=("pbem", "s3cret"))
    assert answer.status_code == 403  # Postmark's "do not retry"
    assert "RawEmail" in answer.get_json()["error"]
    assert stored(runtime) == []


@pytest.mark.parametrize(("to", "kept"), [(5, []), ({"a": 1}, []), ("new@pbem.localhost", None)])
def test_a_sendgrid_envelope_to_of_another_shape_is_no_crash(
    runtime: Runtime, to: object, kept: list[str] | None
) -> None:
    body, content_type = multipart({"email": RAW, "envelope": json.dumps({"to": to})})
    answer = provider_client(runtime).post(
        "/inbound/sendgrid", data=body, content_type=content_type, auth=("pbem", "s3cret")
    )
    assert answer.status_code == 200, answer.get_data()
    [row] = stored(runtime)
    assert row.envelope_to == (kept if kept is not None else [to])


@pytest.mark.parametrize("timestamp", ["²", "١٢٣", "9" * 5000])
def test_a_signed_mailgun_timestamp_that_is_no_time_is_refused(
    runtime: Runtime, timestamp: str
) -> None:
    # The signature is good (it covers whatever the timestamp says); the timestamp is no time.
    fields = mailgun_fields()
    token = str(fields["token"])
    signature = hmac.new(MAILGUN_KEY.encode(), (timestamp + token).encode(), hashlib.sha256)
    fields.update(timestamp=timestamp, signature=signature.hexdigest())
    answer = post_mailgun(provider_client(runtime), fields)
    assert answer.status_code == 406
    assert stored(runtime) == []


@pytest.mark.parametrize("game", ["²", "9" * 5000])
def test_the_panel_link_page_takes_any_game_number(runtime: Runtime, game: str) -> None:
    answer = create_app(runtime).test_client().get("/gm", query_string={"game": game})
    assert answer.status_code == 200


def test_an_envelope_that_is_no_text_is_kept_readable(runtime: Runtime) -> None:
    # A JSON payload can carry a lone surrogate; the database keeps only real text. Refusing to
    # store would answer "try again later", and the provider would retry for days.
    envelope = json.dumps({"from": "\ud800@x", "to": ["new\udc80@pbem.localhost"]})
    body, content_type = multipart({"email": RAW, "envelope": envelope})
    answer = provider_client(runtime).post(
        "/inbound/sendgrid", data=body, content_type=content_type, auth=("pbem", "s3cret")
    )
    assert answer.status_code == 200, answer.get_data()
    [row] = stored(runtime)
    assert (row.envelope_from, row.envelope_to) == ("?@x", ["new?@pbem.localhost"])


def test_an_envelope_with_a_nul_is_stored_on_every_database(runtime: Runtime) -> None:
    # PostgreSQL's text and JSON hold no NUL character; SQLite's do. Either way it is kept as "?".
    web = create_app(runtime).test_client()
    token = {"Authorization": f"Bearer {runtime.config.inbound_token}"}
    answer = web.post(
        "/inbound/mime?from=a%00b&rcpt=new%00@pbem.localhost", data=RAW, headers=token
    )
    assert answer.status_code == 202, answer.get_data()
    [row] = stored(runtime)
    assert (row.envelope_from, row.envelope_to) == ("a?b", ["new?@pbem.localhost"])
