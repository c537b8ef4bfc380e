"""Provider webhooks: Mailgun, SendGrid, Postmark and SES through SNS, as each really posts.

Payloads are the providers' documented shapes (tests/providers/) around a real message; each
is signed here the way the provider signs it, and each refusal is checked against the status
code that provider documents as "do not retry".
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import json
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import Queue, make_config
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from cryptography.x509.oid import NameOID
from flask.testing import FlaskClient
from playbymail import drain, sent
from sqlalchemy import select

from adjudicator.db import Database
from adjudicator.mail import sns
from adjudicator.models import Base, InboundMessage, WebhookToken
from adjudicator.services.access import webhook_tokens
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app, ses

FIXTURES = Path(__file__).resolve().parent / "providers"
RAW = (FIXTURES / "message.eml").read_bytes()
MAILGUN_KEY = "key-7e55ab0ff0b1c8e9b1a5cd3f4e6a6b22"
TOPIC = "arn:aws:sns:us-east-1:012345678912:example-topic"


def fixture(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / name).read_text())
    return loaded


def with_config(runtime: Runtime, **values: Any) -> Runtime:
    return Runtime(runtime.config.with_overrides(**values), runtime.db, runtime.enqueue)


def client(runtime: Runtime, **values: Any) -> FlaskClient:
    return create_app(with_config(runtime, **values)).test_client()


def rows(runtime: Runtime) -> list[InboundMessage]:
    with runtime.db.session() as session:
        return list(session.scalars(select(InboundMessage).order_by(InboundMessage.id)))


def another_message(body: str = "NEW THERMOPYLES") -> bytes:
    """The fixture message with a new Message-ID (so it is not a duplicate) and ``body``."""
    head, _ = RAW.split(b"\r\n\r\n", 1)
    old_id = b"<d6iitobk75ur44p8kdnnp7g2n800@example.com>"
    new_id = f"<{uuid.uuid4().hex}@example.com>".encode()
    return head.replace(old_id, new_id) + b"\r\n\r\n" + body.encode() + b"\r\n"


def assert_answered(runtime: Runtime) -> None:
    """The stored message went through the pipeline: the new-game reply was sent."""
    drain(runtime)
    replies = sent(runtime)
    assert len(replies) == 1
    assert replies[0]["To"] == "leonidas@example.com"


def multipart(fields: dict[str, bytes | str]) -> tuple[bytes, str]:
    """A multipart/form-data body as the providers send it: every value a plain field."""
    boundary = "xYzZY" + uuid.uuid4().hex
    body = b""
    for name, value in fields.items():
        data = value.encode() if isinstance(value, str) else value
        body += f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
        body += data + b"\r\n"
    body += f"--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


# --- Mailgun --------------------------------------------------------------------------------


def mailgun_fields(
    raw: bytes = RAW, key: str = MAILGUN_KEY, age: int = 0, token: str | None = None
) -> dict[str, bytes | str]:
    fields: dict[str, bytes | str] = dict(fixture("mailgun-fields.json"))
    timestamp = str(int(time.time()) - age)
    token = token or uuid.uuid4().hex + "0123456789abcdef01"  # 50 characters, as Mailgun's
    signature = hmac.new(key.encode(), (timestamp + token).encode(), hashlib.sha256).hexdigest()
    fields.update(timestamp=timestamp, token=token, signature=signature)
    fields["body-mime"] = raw
    return fields


def post_mailgun(web: FlaskClient, fields: dict[str, bytes | str]) -> Any:
    body, content_type = multipart(fields)
    return web.post("/inbound/mailgun/mime", data=body, content_type=content_type)


def test_mailgun_genuine_post_is_stored_with_its_envelope_and_answered(runtime: Runtime) -> None:
    web = client(runtime, mailgun_signing_key=MAILGUN_KEY)
    answer = post_mailgun(web, mailgun_fields())
    assert answer.status_code == 200, answer.get_json()
    [row] = rows(runtime)
    assert (row.raw, row.source) == (RAW, "mailgun")
    assert (row.envelope_to, row.envelope_from) == (["new@pbem.localhost"], "leonidas@example.com")
    assert_answered(runtime)


def test_mailgun_refuses_forgeries_with_406_and_stores_nothing(runtime: Runtime) -> None:
    web = client(runtime, mailgun_signing_key=MAILGUN_KEY)
    forged = mailgun_fields(key="key-someone-else")
    assert post_mailgun(web, forged).status_code == 406
    unsigned = mailgun_fields()
    unsigned["signature"] = ""
    assert post_mailgun(web, unsigned).status_code == 406
    swapped = mailgun_fields()
    swapped["timestamp"] = str(int(str(swapped["timestamp"])) - 1)  # signature was for another
    assert post_mailgun(web, swapped).status_code == 406
    not_a_form = web.post("/inbound/mailgun/mime", data=RAW, content_type="message/rfc822")
    assert not_a_form.status_code == 406
    assert rows(runtime) == []


def test_mailgun_refuses_stale_and_future_timestamps(runtime: Runtime) -> None:
    web = client(runtime, mailgun_signing_key=MAILGUN_KEY)
    max_age = runtime.config.webhook_max_age_seconds
    stale = post_mailgun(web, mailgun_fields(age=max_age + 30))
    future = post_mailgun(web, mailgun_fields(age=-(max_age + 30)))
    assert stale.status_code == future.status_code == 406
    assert "timestamp" in stale.get_json()["error"]
    assert rows(runtime) == []
    assert post_mailgun(web, mailgun_fields(age=max_age - 30)).status_code == 200


def test_mailgun_token_is_good_once_even_for_another_message(runtime: Runtime) -> None:
    web = client(runtime, mailgun_signing_key=MAILGUN_KEY)
    genuine = mailgun_fields()
    assert post_mailgun(web, genuine).status_code == 200
    # The signature does not cover body-mime: a captured request replayed with another body.
    replay = dict(genuine)
    replay["body-mime"] = another_message("RESIGN")
    answer = post_mailgun(web, replay)
    assert answer.status_code == 406 and "already used" in answer.get_json()["error"]
    assert [row.raw for row in rows(runtime)] == [RAW]


def test_mailgun_tokens_are_remembered_and_pruned_after_twice_the_age(runtime: Runtime) -> None:
    max_age = runtime.config.webhook_max_age_seconds
    long_ago = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=2 * max_age + 5)
    assert webhook_tokens.claim(runtime, "mailgun", "old-token", now=long_ago)
    assert not webhook_tokens.claim(runtime, "mailgun", "old-token", now=long_ago)
    assert webhook_tokens.claim(runtime, "mailgun", "new-token")
    assert webhook_tokens.claim(runtime, "sendgrid", "new-token")  # per provider
    with runtime.db.session() as session:
        kept = set(session.execute(select(WebhookToken.provider, WebhookToken.token)).all())
    assert kept == {("mailgun", "new-token"), ("sendgrid", "new-token")}


def test_mailgun_oversize_and_duplicates(runtime: Runtime) -> None:
    web = client(runtime, mailgun_signing_key=MAILGUN_KEY, max_message_bytes=2048)
    big = another_message("FIGHT 1\r\n" * 300)
    answer = post_mailgun(web, mailgun_fields(raw=big))
    assert answer.status_code == 406 and "limit" in answer.get_json()["error"]
    # Far beyond any wrapped message: refused on its Content-Length before being read.
    huge = post_mailgun(web, mailgun_fields(raw=b"x" * (2048 * 4 + 70000)))
    assert huge.status_code == 406 and "request too large" in huge.get_json()["error"]
    assert rows(runtime) == []
    first = post_mailgun(web, mailgun_fields())
    again = post_mailgun(web, mailgun_fields())  # Mailgun's retry: new token, same message
    assert first.status_code == again.status_code == 200
    assert again.get_json() == {"id": first.get_json()["id"], "duplicate": True}
    assert len(rows(runtime)) == 1


def test_an_unconfigured_provider_is_not_there(runtime: Runtime) -> None:
    web = client(runtime)
    assert post_mailgun(web, mailgun_fields()).status_code == 404
    assert web.post("/inbound/sendgrid").status_code == 404
    assert web.post("/inbound/postmark", json=fixture("postmark.json")).status_code == 404
    assert web.post("/inbound/ses", json=fixture("ses-notification.json")).status_code == 404
    assert rows(runtime) == []


# --- Storage failing: every provider is asked to retry ----------------------------------------


def test_a_message_that_cannot_be_stored_is_retried_not_lost(tmp_path: Path) -> None:
    # A real database in which the inbound table is missing: the insert genuinely fails.
    url = f"sqlite:///{tmp_path / 'broken.sqlite'}"
    database = Database(url)
    Base.metadata.tables["webhook_tokens"].create(database.engine)
    keys = Keys()
    config = make_config(
        tmp_path,
        url,
        mailgun_signing_key=MAILGUN_KEY,
        postmark_user="pbem",
        postmark_password="s3cret",
        sendgrid_user="pbem",
        sendgrid_password="s3cret",
        ses_topic_arns=TOPIC,
    )
    runtime = Runtime(config, database, enqueue=Queue())
    app = create_app(runtime)
    app.extensions["pbem.sns"] = sns.Verifier(fetch=keys.fetch)
    web = app.test_client()
    mailgun = post_mailgun(web, mailgun_fields())
    assert mailgun.status_code == 503
    with database.session() as session:  # the token was given back for the retry
        assert session.scalar(select(WebhookToken.id)) is None
    postmark = web.post("/inbound/postmark", json=fixture("postmark.json"), auth=("pbem", "s3cret"))
    assert postmark.status_code == 503
    body, content_type = multipart({**fixture("sendgrid-fields.json"), "email": RAW})
    sendgrid = web.post(
        "/inbound/sendgrid", data=body, content_type=content_type, auth=("pbem", "s3cret")
    )
    assert sendgrid.status_code == 503
    assert post_sns(web, keys.sign(fixture("ses-notification.json"))).status_code == 503
    database.dispose()


# --- SendGrid -------------------------------------------------------------------------------


def sendgrid_key() -> tuple[ec.EllipticCurvePrivateKey, str]:
    """A signing key pair; the public half as SendGrid shows it: base64 DER, no PEM armour."""
    private = ec.generate_private_key(ec.SECP256R1())
    der = private.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return private, base64.b64encode(der).decode()


def post_sendgrid(
    web: FlaskClient,
    raw: bytes = RAW,
    auth: tuple[str, str] | None = ("pbem", "s3cret"),
    key: ec.EllipticCurvePrivateKey | None = None,
    tamper: Callable[[bytes], bytes] = lambda body: body,
) -> Any:
    body, content_type = multipart({**fixture("sendgrid-fields.json"), "email": raw})
    headers = {}
    if key is not None:
        timestamp = str(int(time.time()))
        signature = key.sign(timestamp.encode() + body, ec.ECDSA(hashes.SHA256()))
        headers = {
            "X-Twilio-Email-Event-Webhook-Signature": base64.b64encode(signature).decode(),
            "X-Twilio-Email-Event-Webhook-Timestamp": timestamp,
        }
    return web.post(
        "/inbound/sendgrid",
        data=tamper(body),
        content_type=content_type,
        headers=headers,
        auth=auth,
    )


def test_sendgrid_genuine_post_is_stored_with_its_envelope_and_answered(runtime: Runtime) -> None:
    private, public = sendgrid_key()
    web = client(
        runtime, sendgrid_user="pbem", sendgrid_password="s3cret", sendgrid_public_key=public
    )
    answer = post_sendgrid(web, key=private)
    assert answer.status_code == 200, answer.get_json()
    [row] = rows(runtime)
    assert (row.raw, row.source) == (RAW, "sendgrid")
    assert (row.envelope_to, row.envelope_from) == (["new@pbem.localhost"], "leonidas@example.com")
    assert_answered(runtime)


def test_sendgrid_keeps_8bit_mail_byte_exact(runtime: Runtime) -> None:
    web = client(runtime, sendgrid_user="pbem", sendgrid_password="s3cret")
    latin1 = another_message("NEW THERMOPYLES").replace(b"UTF-8", b"ISO-8859-1") + b"\xe9t\xe9\r\n"
    assert post_sendgrid(web, raw=latin1).status_code == 200
    assert rows(runtime)[0].raw == latin1


def test_sendgrid_refuses_bad_credentials_and_forged_signatures(runtime: Runtime) -> None:
    private, public = sendgrid_key()
    stranger, _ = sendgrid_key()
    web = client(
        runtime, sendgrid_user="pbem", sendgrid_password="s3cret", sendgrid_public_key=public
    )
    none = post_sendgrid(web, auth=None, key=private)
    assert none.status_code == 401 and none.headers["WWW-Authenticate"].startswith("Basic")
    assert post_sendgrid(web, auth=("pbem", "guess"), key=private).status_code == 401
    assert post_sendgrid(web, key=stranger).status_code == 403
    assert post_sendgrid(web, key=None).status_code == 403  # signature headers missing
    altered = post_sendgrid(web, key=private, tamper=lambda b: b.replace(b"NEW", b"OLD"))
    assert altered.status_code == 403
    assert rows(runtime) == []


def test_sendgrid_oversize_parsed_mode_and_duplicates(runtime: Runtime) -> None:
    web = client(runtime, sendgrid_user="pbem", sendgrid_password="s3cret", max_message_bytes=2048)
    assert post_sendgrid(web, raw=another_message("FIGHT 1\r\n" * 300)).status_code == 413
    body, content_type = multipart(fixture("sendgrid-fields.json") | {"text": "NEW THERMOPYLES"})
    parsed = web.post(
        "/inbound/sendgrid", data=body, content_type=content_type, auth=("pbem", "s3cret")
    )
    assert parsed.status_code == 400 and "raw, full MIME" in parsed.get_json()["error"]
    assert rows(runtime) == []
    first, again = post_sendgrid(web), post_sendgrid(web)
    assert first.status_code == again.status_code == 200 and again.get_json()["duplicate"]
    assert len(rows(runtime)) == 1


# --- Postmark -------------------------------------------------------------------------------


def post_postmark(
    web: FlaskClient, payload: dict[str, Any] | None = None, auth: Any = ("pbem", "s3cret")
) -> Any:
    return web.post("/inbound/postmark", json=payload or fixture("postmark.json"), auth=auth)


def test_postmark_genuine_post_is_stored_and_answered(runtime: Runtime) -> None:
    web = client(runtime, postmark_user="pbem", postmark_password="s3cret")
    answer = post_postmark(web)
    assert answer.status_code == 200, answer.get_json()
    [row] = rows(runtime)
    assert row.raw == fixture("postmark.json")["RawEmail"].encode() == RAW
    assert (row.source, row.envelope_to) == ("postmark", ["new@pbem.localhost"])
    assert row.envelope_from == "leonidas@example.com"
    assert_answered(runtime)


def test_postmark_refusals_use_403_which_stops_its_retries(runtime: Runtime) -> None:
    web = client(runtime, postmark_user="pbem", postmark_password="s3cret", max_message_bytes=2048)
    unasked = post_postmark(web, auth=None)
    assert unasked.status_code == 401 and "WWW-Authenticate" in unasked.headers
    assert post_postmark(web, auth=("pbem", "guess")).status_code == 403
    assert post_postmark(web, auth=("someone", "s3cret")).status_code == 403
    without_raw = fixture("postmark.json")
    del without_raw["RawEmail"]
    answer = post_postmark(web, without_raw)
    assert answer.status_code == 403 and "Include raw email content" in answer.get_json()["error"]
    oversize = fixture("postmark.json") | {"RawEmail": another_message("FIGHT\r\n" * 400).decode()}
    assert post_postmark(web, oversize).status_code == 403
    assert rows(runtime) == []


def test_postmark_recipients_fall_back_to_to_full_and_duplicates_collapse(
    runtime: Runtime,
) -> None:
    web = client(runtime, postmark_user="pbem", postmark_password="s3cret")
    payload = fixture("postmark.json") | {"OriginalRecipient": ""}
    first, again = post_postmark(web, payload), post_postmark(web, payload)
    assert first.status_code == again.status_code == 200 and again.get_json()["duplicate"]
    [row] = rows(runtime)
    assert row.envelope_to == ["new@pbem.localhost"]


# --- Amazon SES through SNS -----------------------------------------------------------------


class Keys:
    """A signing certificate standing in for SNS's, served by an injected fetch that records
    every URL asked for (the real fetch would go to the internet)."""

    def __init__(self) -> None:
        self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "sns.amazonaws.com")])
        now = dt.datetime.now(dt.UTC)
        self.pem = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(self.private.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=30))
            .sign(self.private, hashes.SHA256())
            .public_bytes(serialization.Encoding.PEM)
        )
        self.fetched: list[str] = []

    def fetch(self, url: str) -> bytes:
        self.fetched.append(url)
        return self.pem if url.endswith(".pem") else b"<ConfirmSubscriptionResponse/>"

    def sign(self, message: dict[str, Any], version: str = "1") -> dict[str, Any]:
        # The documented string to sign, written out here independently of the code under test.
        if message["Type"] == "Notification":
            names = ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"]
        else:
            names = ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn"]
            names.append("Type")
        text = "".join(f"{n}\n{message[n]}\n" for n in names if n in message)
        algorithm = hashes.SHA1() if version == "1" else hashes.SHA256()
        signature = self.private.sign(text.encode(), padding.PKCS1v15(), algorithm)
        signed = dict(message, SignatureVersion=version)
        signed["Signature"] = base64.b64encode(signature).decode()
        return signed


@pytest.fixture(scope="module")
def keys() -> Keys:
    return Keys()  # an RSA key takes a moment to make: one for the module


def ses_client(runtime: Runtime, keys: Keys, **values: Any) -> FlaskClient:
    keys.fetched.clear()
    # Several topics may be accepted, comma-separated.
    topics = f"arn:aws:sns:eu-west-1:111122223333:other, {TOPIC}"
    app = create_app(with_config(runtime, ses_topic_arns=topics, **values))
    app.extensions["pbem.sns"] = sns.Verifier(fetch=keys.fetch)
    return app.test_client()


def post_sns(web: FlaskClient, message: dict[str, Any]) -> Any:
    # SNS posts JSON as text/plain, with the type repeated in a header.
    return web.post(
        "/inbound/ses",
        data=json.dumps(message),
        content_type="text/plain; charset=UTF-8",
        headers={"x-amz-sns-message-type": message["Type"]},
    )


def ses_notification(raw: bytes, encoding: str = "UTF8") -> dict[str, Any]:
    notification = fixture("ses-notification.json")
    inner = json.loads(notification["Message"])
    inner["receipt"]["action"]["encoding"] = encoding
    inner["content"] = base64.b64encode(raw).decode() if encoding == "BASE64" else raw.decode()
    notification["Message"] = json.dumps(inner)
    notification["MessageId"] = str(uuid.uuid4())
    return notification


@pytest.mark.parametrize(("version", "encoding"), [("1", "UTF8"), ("2", "BASE64")])
def test_ses_genuine_notification_is_stored_and_answered(
    runtime: Runtime, keys: Keys, version: str, encoding: str
) -> None:
    web = ses_client(runtime, keys)
    message = keys.sign(ses_notification(RAW, encoding), version)
    answer = post_sns(web, message)
    assert answer.status_code == 200, answer.get_json()
    [row] = rows(runtime)
    assert (row.raw, row.source) == (RAW, "ses")
    assert (row.envelope_to, row.envelope_from) == (["new@pbem.localhost"], "leonidas@example.com")
    assert keys.fetched == [message["SigningCertURL"]]
    assert_answered(runtime)


def test_ses_fixture_as_delivered_is_stored_and_the_certificate_fetched_once(
    runtime: Runtime, keys: Keys
) -> None:
    web = ses_client(runtime, keys)
    first = post_sns(web, keys.sign(fixture("ses-notification.json")))
    again = post_sns(web, keys.sign(fixture("ses-notification.json")))  # SNS's retry
    assert first.status_code == again.status_code == 200 and again.get_json()["duplicate"]
    assert [row.raw for row in rows(runtime)] == [RAW]
    assert len(keys.fetched) == 1  # cached in the process


@pytest.mark.parametrize("listed", [True, 7, "player@example.org", {"a": 1}])
def test_ses_recipients_that_are_not_a_list_name_no_one(listed: object) -> None:
    """A receipt whose recipients are not a list of addresses is read with no recipient (the
    mail's own headers then route it), never a crash of the webhook."""
    notification = {
        "notificationType": "Received",
        "receipt": {"recipients": listed, "action": {"type": "SNS", "encoding": "UTF8"}},
        "mail": {"source": "player@example.org"},
        "content": "Subject: hi\r\n\r\nhello\r\n",
    }
    found = ses.received_mail(json.dumps(notification))
    assert isinstance(found, ses.ReceivedMail)
    assert found.recipients == [] and found.raw.startswith(b"Subject: hi")


def test_ses_refuses_forged_and_altered_notifications(runtime: Runtime, keys: Keys) -> None:
    web = ses_client(runtime, keys)
    impostor = Keys()
    forged = impostor.sign(ses_notification(RAW))
    assert post_sns(web, forged).status_code == 403
    altered = keys.sign(ses_notification(RAW))
    altered["Message"] = altered["Message"].replace("NEW THERMOPYLES", "RESIGN")
    assert post_sns(web, altered).status_code == 403
    wrong_topic = keys.sign(ses_notification(RAW) | {"TopicArn": TOPIC + "-other"})
    assert post_sns(web, wrong_topic).status_code == 403
    unknown_version = keys.sign(ses_notification(RAW)) | {"SignatureVersion": "3"}
    assert post_sns(web, unknown_version).status_code == 403
    header_lies = web.post(
        "/inbound/ses",
        data=json.dumps(keys.sign(ses_notification(RAW))),
        headers={"x-amz-sns-message-type": "SubscriptionConfirmation"},
    )
    assert header_lies.status_code == 400
    assert rows(runtime) == []


@pytest.mark.parametrize(
    "url",
    [
        "https://sns.us-east-1.amazonaws.com.evil.example/cert.pem",
        "http://sns.us-east-1.amazonaws.com/SimpleNotificationService-1.pem",
        "https://evil.example/sns.us-east-1.amazonaws.com/cert.pem",
        "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-1.txt",
        "https://sqs.us-east-1.amazonaws.com/SimpleNotificationService-1.pem",
    ],
)
def test_ses_certificate_off_the_sns_host_is_never_fetched(
    runtime: Runtime, keys: Keys, url: str
) -> None:
    web = ses_client(runtime, keys)
    message = keys.sign(ses_notification(RAW) | {"SigningCertURL": url})
    answer = post_sns(web, message)
    assert answer.status_code == 403 and "SigningCertURL" in answer.get_json()["error"]
    assert keys.fetched == []
    assert rows(runtime) == []


def test_ses_china_region_certificate_host_is_accepted(runtime: Runtime, keys: Keys) -> None:
    web = ses_client(runtime, keys)
    url = "https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-1.pem"
    assert (
        post_sns(web, keys.sign(ses_notification(RAW) | {"SigningCertURL": url})).status_code == 200
    )
    assert keys.fetched == [url]


def test_ses_subscription_is_confirmed_only_when_genuine(runtime: Runtime, keys: Keys) -> None:
    web = ses_client(runtime, keys)
    subscription = fixture("sns-subscription.json")
    assert post_sns(web, Keys().sign(subscription)).status_code == 403
    off_host = keys.sign(subscription | {"SubscribeURL": "https://evil.example/?Action=x"})
    assert post_sns(web, off_host).status_code == 403
    assert subscription["SubscribeURL"] not in keys.fetched
    assert all(url.endswith(".pem") for url in keys.fetched)
    answer = post_sns(web, keys.sign(subscription, "2"))
    assert answer.status_code == 200
    assert keys.fetched[-1] == subscription["SubscribeURL"]
    assert rows(runtime) == []


def test_ses_oversize_unreachable_certificate_and_other_notifications(
    runtime: Runtime, keys: Keys
) -> None:
    web = ses_client(runtime, keys, max_message_bytes=2048)
    big = keys.sign(ses_notification(another_message("FIGHT\r\n" * 400), "BASE64"))
    assert post_sns(web, big).status_code == 413
    bounce = ses_notification(RAW)
    bounce["Message"] = json.dumps({"notificationType": "Bounce", "bounce": {}, "mail": {}})
    assert post_sns(web, keys.sign(bounce)).status_code == 200  # genuine, just not mail
    no_content = ses_notification(RAW)
    inner = json.loads(no_content["Message"])
    del inner["content"]
    no_content["Message"] = json.dumps(inner)
    refused = post_sns(web, keys.sign(no_content))
    assert refused.status_code == 400 and "SNS action" in refused.get_json()["error"]
    assert rows(runtime) == []

    def unreachable(url: str) -> bytes:
        raise OSError("network is unreachable")

    app = create_app(with_config(runtime, ses_topic_arns=TOPIC))
    app.extensions["pbem.sns"] = sns.Verifier(fetch=unreachable)
    answer = post_sns(app.test_client(), keys.sign(ses_notification(RAW)))
    assert answer.status_code == 503  # SNS retries a 5xx: the message is not lost
    assert rows(runtime) == []
