"""Whatever is posted to whichever page, the site answers below 500, and every message it takes in
goes through the worker's own tasks to a stored verdict.

Every rule of the Flask app's url_map is tried with each method it allows, its path parameters
filled from a small real site (games running and finished, a shared-deal challenge, a seat's
order-checker link, a game master's panel session) or arbitrary, with arbitrary bytes, JSON, form
and multipart bodies, and with the credentials the provider webhooks and /inbound/mime want, so
that bodies get past the door. Mail (arbitrary bytes, and the structured but broken mail of
test_pipeline_fuzz) is posted through every inbound endpoint; whatever is stored is then run
through workers.tasks, as a Celery worker runs it, and must end in a final state with a reason.
"""

from __future__ import annotations

import base64
import collections
import contextlib
import hashlib
import hmac
import json
import re
import time
import urllib.parse
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playbymail import compose, deliver_mail, sent
from sqlalchemy import select
from test_panel import started
from test_pipeline_fuzz import World, broken_mail
from test_providers import Keys, multipart
from werkzeug.routing import Rule

import workers.app
from adjudicator.games import registry
from adjudicator.mail import sns
from adjudicator.models import Game, InboundMessage, utcnow
from adjudicator.services.access import panel_links, private_links
from adjudicator.services.game_master import panel
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app
from workers import tasks

DOMAIN = "pbem.localhost"
FINAL = {"done", "ignored", "rejected", "failed"}
MAILGUN_KEY = "key-fuzz"
USER, PASSWORD = "pbem", "s3cret"
OPS_TOKEN = "ops-fuzz-token"
TOPIC = "arn:aws:sns:us-east-1:012345678912:fuzz-topic"
CERT_URL = "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-fuzz.pem"
LEONIDAS, FRANCE, SPAIN, GM = (
    "leonidas@example.com",
    "murat@example.com",
    "daoiz@example.com",
    "gm@example.com",
)
CHALLENGE = "fuzz-cup"


@dataclass(frozen=True)
class Site:
    """The real site the requests aim at, and what a request may need to get past a door."""

    runtime: Runtime
    app: Flask
    keys: Keys
    game_ids: tuple[int, ...]
    gm_game: int
    words: tuple[str, ...]
    # (game id, seat, signature) of each seat's private order-checker page.
    checks: tuple[tuple[int, str, str], ...]
    world: World


def work(runtime: Runtime) -> None:
    """Run what the services queued through the worker's own tasks, as a Celery worker would.

    An exception here is one a worker would not survive (the pipeline turns its own into a
    "failed: internal error" record, checked by ``verdicts``)."""
    items: list[tuple[str, int]] = runtime.enqueue.items  # type: ignore[attr-defined]
    while items:
        task, record_id = items.pop(0)
        getattr(tasks, task)(record_id)


def verdicts(runtime: Runtime) -> None:
    """Every message stored has ended in a final state, with a reason that is not a crash."""
    with runtime.db.session() as session:
        for record in session.scalars(select(InboundMessage)):
            reason = record.reason or ""
            assert record.status in FINAL, (record.id, record.status, reason)
            assert reason, (record.id, record.status)
            assert not reason.startswith("internal error"), (record.id, reason)


@pytest.fixture
def site(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    # Every door open, with credentials the requests may or may not carry; limits that would
    # turn most of the examples away early are raised (they are tested on their own elsewhere).
    runtime = Runtime(
        runtime.config.with_overrides(
            mailgun_signing_key=MAILGUN_KEY,
            sendgrid_user=USER,
            sendgrid_password=PASSWORD,
            postmark_user=USER,
            postmark_password=PASSWORD,
            ses_topic_arns=TOPIC,
            ops_token=OPS_TOKEN,
            panel_links_per_hour=1_000_000,
            panel_posts_per_minute=1_000_000,
            sender_limit_per_hour=1_000_000,
        ),
        runtime.db,
        runtime.enqueue,
    )
    # The worker's tasks ask workers.app for their runtime: this one.
    monkeypatch.setattr(workers.app, "_runtime", runtime)
    # A game-master game under way, a shared-deal Thermopyles game a turn in, and another one.
    gm_game, _, link = started(runtime)
    deliver_mail(runtime, compose(LEONIDAS, f"new@{DOMAIN}", f"NEW THERMOPYLES SHARED {CHALLENGE}"))
    deliver_mail(runtime, compose("xerxes@example.com", f"new@{DOMAIN}", "NEW THERMOPYLES"))
    seat_mail = [m for m in sent(runtime) if str(m["To"]) == LEONIDAS][-1]
    deliver_mail(runtime, compose(LEONIDAS, str(seat_mail["Reply-To"]), "FIGHT"))
    with runtime.db.session() as session:
        games = list(session.scalars(select(Game).order_by(Game.id)))
        checks = tuple(
            (g.id, seat.seat, private_links.check_url(runtime, g, seat).rsplit("/", 1)[1])
            for g in games
            for seat in g.seats
        )
        seats = tuple(
            (seat.player.address, play.seat_address(runtime, g, seat))
            for g in games
            for seat in g.seats
        )
        game_ids = tuple(g.id for g in games)
    words = {*registry.games(), CHALLENGE, *panel.ACTIONS, "confirm", "logout"}
    words |= {part for _, seat, signature in checks for part in (seat, signature)}
    words.add(link.rsplit("/", 1)[1])  # the panel link's token (/gm/<token>)
    app = create_app(runtime)
    # An exception in a view is raised here, with its traceback, instead of becoming a 500 page.
    app.testing = True
    keys = Keys()
    # SNS certificates come from here, not the internet; any SNS-looking .pem address gets one.
    app.extensions["pbem.sns"] = sns.Verifier(fetch=keys.fetch)
    yield Site(runtime, app, keys, game_ids, gm_game, tuple(sorted(words)), checks, World(seats))


# --- requests ---------------------------------------------------------------------------------

# Printable Latin-1: what a header value can carry through the test client.
HEADER_TEXT = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF), max_size=30)
# Lone surrogates survive JSON's \u escapes into Python strings, and break any later encode().
# Past every bound too: a number int() refuses to read (4,300 digits) and brackets deeper than a
# recursive JSON parser goes.
HUGE, DEEP = "9" * 5000, "[" * 5000 + "]" * 5000
NASTY = st.sampled_from(
    ["\ud800", "a\udfff", "\x00", "\u2028", "\ufeff", "\U0001f600", "²", HUGE, DEEP]
)
TEXT = st.one_of(st.text(max_size=40), NASTY)
QUERY_NAMES = ["game", "status", "token", "orders", "seat", "rcpt", "from"]
FORM_NAMES = [
    "orders", "seat", "csrf_token", "date", "time", "zone", "hours", "address", "reason",
    "email", "envelope", "body-mime", "timestamp", "token", "signature", "recipient", "sender",
    "confirmed",
]  # fmt: skip
CONTENT_TYPES = [
    "application/json", "text/plain; charset=UTF-8", "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=xYz", "multipart/form-data", "message/rfc822", "",
]  # fmt: skip
FORM_VALUES = {
    "orders": ["9-14", "FIGHT", "RETREAT", "16-14 x2\nDRAW", "PLAY MAMELUKES 16-14-9 x2", HUGE],
    "seat": ["france", "spain", "spartans", "persians"],
    "date": ["2030-01-31", "2026-12-02", "1999-01-01", "2030-02-30"],
    "time": ["12:00", "23:59", "00:00", "25:61"],
    "zone": ["UTC", "Europe/Madrid", "Mars/Olympus"],
    "hours": ["24", "1", "0", "-5", "1.5", "²", HUGE],
    "address": ["palafox@example.com", "not an address", "a@b, c@d"],
    "reason": ["a mistake", ""],
}
SNS_TYPES = ["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation", "Other"]

CSRF = "fuzz-csrf-token"
PARAMETER = re.compile(r"<(?:(\w+)(?:\([^)]*\))?:)?(\w+)>")

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
# A JSON value of any shape, most often a plain one: what a field of another type gets.
WRONG = st.one_of(st.integers(), st.booleans(), st.none(), NASTY, JSON)


@dataclass(frozen=True)
class Request:
    rule: str
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    content_type: str
    game_master: bool


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


@st.composite
def paths(draw: st.DrawFn, site: Site, rule: Rule) -> str:
    # Half the paths name real things throughout (a seat's own checker page, a game's turn, the
    # game master's panel): only those get past the lookups to the code behind them.
    game_id, seat, signature = draw(st.sampled_from(site.checks))
    real = {
        "game_id": site.gm_game if "manage" in rule.rule else game_id,
        "seat": seat,
        "signature": signature,
        "number": draw(st.integers(0, 2)),
        "key": draw(st.sampled_from(sorted(registry.games()))),
        "name": CHALLENGE,
        "action": draw(st.sampled_from(panel.ACTIONS)),
    }
    use_real = draw(st.booleans())

    def fill(match: re.Match[str]) -> str:
        converter = match.group(1) or "default"
        if use_real and match.group(2) in real:
            return str(real[match.group(2)])
        if converter in ("int", "count"):
            known = st.sampled_from((*site.game_ids, 0, 1, 2, 3))
            # Far past any id too: 64-bit database integers end at 19 digits.
            return str(draw(st.one_of(known, known, known, st.integers(0, 10**40))))
        value = draw(st.one_of(st.sampled_from(site.words), st.sampled_from(site.words), TEXT))
        return urllib.parse.quote(value.encode("utf-8", "surrogatepass"), safe="")

    path = PARAMETER.sub(fill, rule.rule)
    query = draw(
        st.lists(
            st.tuples(
                st.sampled_from(QUERY_NAMES) | st.text(max_size=6),
                st.sampled_from((OPS_TOKEN, *site.words)) | TEXT,
            ),
            max_size=3,
        )
    )
    if query:
        pairs = [(k, v.encode("utf-8", "surrogatepass")) for k, v in query]
        path += "?" + urllib.parse.urlencode(pairs)
    return path


def mailgun_signed(fields: dict[str, bytes | str], timestamp: str = "") -> dict[str, bytes | str]:
    """The fields signed with our key, as Mailgun signs: timestamp and token, not the message."""
    timestamp, token = timestamp or str(int(time.time())), uuid.uuid4().hex
    signature = hmac.new(
        MAILGUN_KEY.encode(), (timestamp + token).encode("utf-8", "surrogatepass"), hashlib.sha256
    )
    signed = {"timestamp": encoded(timestamp), "token": token, "signature": signature.hexdigest()}
    return {**signed, **fields}


def mail(draw: st.DrawFn, site: Site) -> tuple[bytes, list[str]]:
    """A message and its envelope recipients: broken but structured mail, or any bytes."""
    if draw(st.booleans()):
        return draw(broken_mail(site.world))
    seats = [seat for _, seat in site.world.seats]
    to = draw(st.lists(st.sampled_from([*seats, f"new@{DOMAIN}", "x@elsewhere"]), max_size=2))
    return draw(st.binary(min_size=1, max_size=2000)), to


def usually(draw: st.DrawFn, good: Any, other: st.SearchStrategy[Any]) -> Any:
    """``good`` three times in four, else something from ``other``."""
    return good if draw(st.integers(0, 3)) else draw(other)


def as_text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def sns_message(draw: st.DrawFn, site: Site) -> dict[str, Any]:
    """An SNS post for our topic and a trusted certificate address, its fields arbitrary."""
    # Mostly mail notifications: only those carry mail on to the pipeline.
    kind = usually(draw, "Notification", st.sampled_from(SNS_TYPES))
    raw, to = mail(draw, site)
    encoding = usually(draw, draw(st.sampled_from(["UTF8", "BASE64"])), st.just("base64") | TEXT)
    content = base64.b64encode(raw).decode() if encoding.upper() == "BASE64" else as_text(raw)
    inner: Any = {
        "notificationType": usually(draw, "Received", st.just("Bounce") | TEXT),
        "receipt": usually(
            draw,
            {
                "recipients": usually(draw, to, st.lists(TEXT, max_size=2) | JSON),
                "action": usually(draw, {"encoding": encoding}, JSON),
            },
            JSON,
        ),
        "mail": usually(draw, {"source": usually(draw, LEONIDAS, TEXT)}, JSON),
        "content": usually(draw, content, TEXT | JSON),
    }
    message: dict[str, Any] = {
        "Type": kind,
        "MessageId": usually(draw, str(uuid.uuid4()), TEXT),
        "TopicArn": usually(draw, TOPIC, TEXT),
        "Message": usually(draw, json.dumps(inner), TEXT | JSON.map(json.dumps)),
        "Timestamp": usually(draw, "2026-12-01T12:00:00.000Z", TEXT),
        "SignatureVersion": usually(draw, draw(st.sampled_from(["1", "2"])), TEXT),
        "Signature": draw(TEXT),
        "SigningCertURL": usually(draw, CERT_URL, st.just("http://evil/x.pem") | TEXT),
    }
    if kind != "Notification":
        message["Token"] = draw(TEXT)
        message["SubscribeURL"] = "https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription"
    if draw(st.integers(0, 3)):
        # Not signable as SNS would sign it (a lone surrogate): posted unsigned.
        with contextlib.suppress(UnicodeError, KeyError):
            message = site.keys.sign(message, str(message["SignatureVersion"])[:1] or "1")
    return message


def postmark_payload(draw: st.DrawFn, site: Site) -> dict[str, Any]:
    """Postmark's inbound JSON, each field usually as Postmark sends it."""
    raw, to = mail(draw, site)
    payload = {
        "RawEmail": usually(draw, as_text(raw), WRONG),
        "OriginalRecipient": usually(draw, to[0] if to else "", WRONG),
        "ToFull": usually(draw, [{"Email": r} for r in to], WRONG),
        "Headers": usually(draw, [{"Name": "Return-Path", "Value": LEONIDAS}], WRONG),
    }
    return {name: value for name, value in payload.items() if draw(st.integers(0, 5))}


def multipart_fields(draw: st.DrawFn, site: Site) -> dict[str, bytes | str]:
    """Provider form fields (Mailgun's, SendGrid's), each one usually as the provider sends it,
    else missing or arbitrary."""
    raw, to = mail(draw, site)
    envelope = {"to": usually(draw, to, WRONG), "from": usually(draw, LEONIDAS, WRONG)}
    fields: dict[str, bytes | str] = {}
    for name, good in [
        ("body-mime", raw),
        ("email", raw),
        ("recipient", ",".join(to)),
        ("sender", LEONIDAS),
        ("envelope", json.dumps(usually(draw, envelope, WRONG))),
    ]:
        choice = draw(st.integers(0, 5))
        if choice < 4:
            fields[name] = good
        elif choice == 4:
            fields[name] = encoded(draw(TEXT | st.binary(max_size=100) | JSON.map(json.dumps)))
    if draw(st.integers(0, 3)):
        # Signed, with a time Mailgun would send or another string.
        fields = mailgun_signed(fields, usually(draw, "", TEXT | st.sampled_from(["²", "-1", "0"])))
    return fields


def encoded(value: bytes | str) -> bytes:
    return value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass")


# What each door wants, so that most bodies get past it: its credentials and its kind of body.
DOORS = {
    "/inbound/mime": ("bearer", "mail"),
    "/inbound/mailgun/mime": (None, "multipart"),
    "/inbound/sendgrid": ("basic", "multipart"),
    "/inbound/postmark": ("basic", "postmark"),
    "/inbound/ses": (None, "sns"),
    "/api/adjudicate/<key>": (None, "json"),
    "/ops": ("ops", None),
}
INBOUND = sorted(door for door in DOORS if door.startswith("/inbound/"))
KINDS = ["none", "bytes", "json", "form", "multipart", "postmark", "sns", "mail"]


@st.composite
def bodies(draw: st.DrawFn, site: Site, wanted: str) -> tuple[bytes, str]:
    """A body and its content type: anything, or shaped like what one of the doors expects."""
    kind = draw(st.sampled_from([wanted] * len(KINDS) + KINDS))
    content_type = draw(st.sampled_from(CONTENT_TYPES) | HEADER_TEXT)
    if kind == "none":
        return b"", content_type
    if kind == "bytes":
        return draw(st.binary(max_size=2000)), content_type
    if kind == "mail":
        return mail(draw, site)[0], draw(st.sampled_from(["message/rfc822", content_type]))
    if kind == "json":
        shape = draw(st.sampled_from(["value", "value", "value", "deep"]))
        body = DEEP if shape == "deep" else json.dumps(draw(JSON))
        return body.encode(), "application/json"
    if kind == "postmark":
        return json.dumps(postmark_payload(draw, site)).encode(), "application/json"
    if kind == "sns":
        return json.dumps(sns_message(draw, site)).encode(), "text/plain; charset=UTF-8"
    if kind == "multipart":
        return multipart(multipart_fields(draw, site))
    # The panel's and the checker's own fields with values they take, and anything else.
    fields: dict[str, str | bytes] = {"csrf_token": usually(draw, CSRF, TEXT)}
    for name, good in FORM_VALUES.items():
        if draw(st.booleans()):
            fields[name] = usually(draw, draw(st.sampled_from(good)), TEXT)
    others = st.dictionaries(
        st.sampled_from(FORM_NAMES) | st.text(max_size=8),
        st.sampled_from(site.words) | TEXT | st.binary(max_size=200),
        max_size=4,
    )
    fields.update(draw(others))
    pairs = [(name, encoded(value)) for name, value in fields.items()]
    return urllib.parse.urlencode(pairs).encode(), "application/x-www-form-urlencoded"


@st.composite
def requests(draw: st.DrawFn, site: Site) -> Request:
    rule = draw(st.sampled_from(sorted(site.app.url_map.iter_rules(), key=lambda r: r.rule)))
    methods = sorted(rule.methods or ())
    # Mostly what a page is for; HEAD and OPTIONS now and then.
    method = draw(st.sampled_from([m for m in methods if m in ("GET", "POST")] * 4 + methods))
    door, wanted = DOORS.get(rule.rule, (None, "form"))
    body, content_type = draw(bodies(site, wanted)) if method == "POST" else (b"", "")
    right = {
        "bearer": f"Bearer {site.runtime.config.inbound_token}",
        "basic": basic(USER, PASSWORD),
        "ops": f"Bearer {OPS_TOKEN}",
        None: None,
    }[door]
    authorization = draw(
        st.sampled_from([right, right, right, None, basic(USER, "guess"), "Bearer nope"])
        | HEADER_TEXT
    )
    headers: dict[str, str] = {}
    if authorization is not None:
        headers["Authorization"] = authorization
    if rule.rule == "/inbound/ses" and body.startswith(b'{"Type": '):
        # SNS repeats the message's type in a header: the shaped posts do too.
        headers["x-amz-sns-message-type"] = str(json.loads(body)["Type"])
    if draw(st.integers(0, 4)) == 0:
        headers["x-amz-sns-message-type"] = draw(st.sampled_from(SNS_TYPES) | HEADER_TEXT)
    return Request(
        rule.rule, method, draw(paths(site, rule)), headers, body, content_type, draw(st.booleans())
    )


# --- the others' bounds -------------------------------------------------------------------------

# --- the properties -----------------------------------------------------------------------------


def browser(site: Site, game_master: bool) -> FlaskClient:
    """A browser that has loaded a form (so it holds a known CSRF token), and when asked a fresh
    panel session for the game-master game."""
    client = site.app.test_client()
    if game_master:
        log_in(site, client)
    with client.session_transaction() as cookie:
        cookie["csrf"] = CSRF
    return client


def log_in(site: Site, client: FlaskClient) -> None:
    with site.runtime.db.session() as session:
        issued = panel_links.issue(
            session, site.runtime, session.get_one(Game, site.gm_game), utcnow()
        )
    assert isinstance(issued, panel_links.Issued), issued
    # As the link's page would: its button's form carries this browser's CSRF token.
    with client.session_transaction() as cookie:
        cookie["csrf"] = CSRF
    opened = client.post(urllib.parse.urlsplit(issued.url).path, data={"csrf_token": CSRF})
    assert opened.status_code == 302, opened.status_code


def send(site: Site, request: Request) -> int:
    client = browser(site, request.game_master)
    response = client.open(
        request.path,
        method=request.method,
        headers=request.headers,
        data=request.body,
        content_type=request.content_type or None,
    )
    response.get_data()
    response.close()
    return response.status_code


def examples(site: Site, sqlite: int, postgresql: int) -> settings:
    return settings(
        max_examples=postgresql if site.runtime.db.is_postgres else sqlite,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


def answered(site: Site, request: Request) -> None:
    """The request gets an answer below 500, and what it queued ends in a stored verdict."""
    status = send(site, request)
    assert status < 500, (status, request)
    work(site.runtime)
    verdicts(site.runtime)


def test_every_page_takes_any_request_without_a_500(site: Site) -> None:
    @examples(site, sqlite=300, postgresql=50)
    @given(request=requests(site))
    def check(request: Request) -> None:
        answered(site, request)

    check()


@st.composite
def mail_posts(draw: st.DrawFn, site: Site, door: str) -> Request:
    """Mail posted as the inbound door wants it, credentials and all; the wrapper's fields are
    usually the provider's own, else arbitrary."""
    headers: dict[str, str] = {}
    if door == "/inbound/mime":
        raw, to = mail(draw, site)
        headers["Authorization"] = f"Bearer {site.runtime.config.inbound_token}"
        query = urllib.parse.urlencode([("rcpt", address) for address in to])
        return Request(door, "POST", f"{door}?{query}", headers, raw, "message/rfc822", False)
    if door in ("/inbound/mailgun/mime", "/inbound/sendgrid"):
        body, content_type = multipart(multipart_fields(draw, site))
    elif door == "/inbound/postmark":
        body, content_type = json.dumps(postmark_payload(draw, site)).encode(), "application/json"
    else:
        message = sns_message(draw, site)
        body, content_type = json.dumps(message).encode(), "text/plain; charset=UTF-8"
        headers["x-amz-sns-message-type"] = str(message["Type"])
    if door in ("/inbound/sendgrid", "/inbound/postmark"):
        headers["Authorization"] = basic(USER, PASSWORD)
    return Request(door, "POST", door, headers, body, content_type, False)


def test_mail_through_every_inbound_door_ends_in_a_verdict(site: Site) -> None:
    stored: collections.Counter[str] = collections.Counter()

    def door_by_door(door: str) -> None:
        # A run of examples for each door, so that each one gets its share. Derandomized: a
        # genuine post is a few chances in four multiplied, and the check below that every door
        # stored mail must not hang on this run's luck.
        @settings(examples(site, sqlite=40, postgresql=8), derandomize=True, database=None)
        @given(request=mail_posts(site, door))
        def check(request: Request) -> None:
            status = send(site, request)
            assert status < 500, (status, request)
            if status in (200, 202):
                stored[door] += 1
            work(site.runtime)
            verdicts(site.runtime)

        check()

    for door in INBOUND:
        door_by_door(door)
    # Each door took mail in, and so handed it to the pipeline: the examples did reach it.
    assert set(stored) == set(INBOUND), stored


@st.composite
def form_posts(draw: st.DrawFn, site: Site) -> Request:
    """A form the site's pages carry (panel actions, order checkers), posted by a browser that
    holds the page's CSRF token, its fields the page's own and anything else."""
    game_id, seat, signature = draw(st.sampled_from(site.checks))
    path = draw(
        st.sampled_from(
            [
                *(f"/games/{site.gm_game}/manage/{action}" for action in panel.ACTIONS),
                f"/games/{game_id}/check/{seat}/{signature}",
                *(f"/help/{key}/check" for key in sorted(registry.games())),
            ]
        )
    )
    body, content_type = draw(bodies(site, "form"))
    return Request(path, "POST", path, {}, body, content_type, game_master=True)


def test_every_form_takes_any_fields_without_a_500(site: Site) -> None:
    @examples(site, sqlite=150, postgresql=25)
    @given(request=form_posts(site))
    def check(request: Request) -> None:
        answered(site, request)

    check()
