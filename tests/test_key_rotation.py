"""Rotating the secret key, on SQLite and PostgreSQL: with the old key listed in
previous_secret_keys, everything signed before the rotation still works (reply addresses in
players' mailboxes, return paths of mail in flight, checker links, panel links and sessions),
while new mail is signed with the new key; once the old key is dropped from the list, what it
signed is refused like any forgery."""

from __future__ import annotations

from dataclasses import replace

from playbymail import compose, deliver_mail, drain, sent
from test_bounces import fixture, inbound_row, outbox_row, sent_welcome
from test_help_pages import CHECK_LINK, plain
from test_panel import FRANCE, SPAIN, last_to, logged_in, page, reply_to, started

from adjudicator.core.refusal import Refusal
from adjudicator.models import Game, InboundMessage, utcnow
from adjudicator.services.access import panel_links
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

NEW_KEY = "the-new-secret-key-after-rotation"


def rotated(runtime: Runtime, keep_old: bool = True) -> Runtime:
    """The same service after a rotation: a new secret key, the old one listed or dropped."""
    previous = runtime.config.secret_key if keep_old else ""
    config = replace(runtime.config, secret_key=NEW_KEY, previous_secret_keys=previous)
    return Runtime(config, runtime.db, enqueue=runtime.enqueue)


def routed(runtime: Runtime, sender: str, address: str) -> InboundMessage:
    """The stored record of a mail to ``address``, once processed."""
    inbound_id = deliver_mail(runtime, compose(sender, address, "HELP"))
    with runtime.db.session() as session:
        return session.get_one(InboundMessage, inbound_id)


def test_addresses_links_and_sessions_made_before_a_rotation_keep_working(
    runtime: Runtime,
) -> None:
    game_id, _, link = started(runtime)
    old_france, old_spain = reply_to(runtime, FRANCE), reply_to(runtime, SPAIN)
    checker = CHECK_LINK.search(last_to(runtime, FRANCE))
    assert checker is not None
    session_client = logged_in(runtime, link)  # a panel session opened before the rotation
    page(session_client, game_id)
    with runtime.db.session() as session:
        issued = panel_links.issue(session, runtime, session.get_one(Game, game_id), utcnow())
    assert isinstance(issued, panel_links.Issued)
    unopened = issued.url.rsplit("/", 1)[1]  # a panel link mailed but not yet opened
    after = rotated(runtime)
    # A reply to an address minted with the old key still reaches its seat.
    record = routed(after, FRANCE, old_france)
    assert record.status == "done" and not record.reason.startswith("reply address"), record.reason
    # The answer carries the address signed with the new key: both the old and the new one route.
    assert routed(after, SPAIN, old_spain).status == "done"
    new_spain = reply_to(after, SPAIN)
    assert new_spain != old_spain
    assert routed(after, SPAIN, new_spain).status == "done"
    # The old checker link opens; the old panel session and the unopened panel link work.
    web = create_app(after)
    assert web.test_client().get(checker.group(1)).status_code == 200
    session_client.application = web
    assert session_client.get(f"/games/{game_id}/manage").status_code == 200
    opened = panel_links.open_link(after, unopened, spend=False)
    assert isinstance(opened, panel_links.Opened), opened
    # Once the old key is dropped, what it signed is refused like a forgery.
    dropped = rotated(runtime, keep_old=False)
    record = routed(dropped, FRANCE, old_france)
    assert record.status == "rejected" and "does not check out" in record.reason, record.reason
    refusal = plain(sent(dropped)[-1])
    assert str(sent(dropped)[-1]["To"]) == FRANCE and "does not check out" in refusal, refusal
    assert create_app(dropped).test_client().get(checker.group(1)).status_code == 404
    assert isinstance(panel_links.open_link(dropped, unopened, spend=False), Refusal)
    stale = create_app(dropped).test_client()
    cookie = session_client.get_cookie("session")
    assert cookie is not None
    stale.set_cookie("session", cookie.value)
    assert stale.get(f"/games/{game_id}/manage").status_code == 302
    # The new key's own address needs no list.
    assert routed(dropped, SPAIN, new_spain).status == "done"


def test_a_bounce_of_mail_sent_before_the_rotation_is_still_matched(runtime: Runtime) -> None:
    outbox_id, address = sent_welcome(runtime)
    after = rotated(runtime)
    inbound_id = deliver_mail(after, fixture("dsn_postfix_failed.eml", address), [address])
    assert f"bounce for outbox {outbox_id}:" in inbound_row(after, inbound_id).reason
    assert outbox_row(after, outbox_id).status == "bounced"


def test_without_the_old_key_a_bounce_of_earlier_mail_is_ignored(runtime: Runtime) -> None:
    outbox_id, address = sent_welcome(runtime)
    dropped = rotated(runtime, keep_old=False)
    inbound_id = deliver_mail(dropped, fixture("dsn_postfix_failed.eml", address), [address])
    assert inbound_row(dropped, inbound_id).reason.startswith("bounce address: ")
    assert outbox_row(dropped, outbox_id).status == "sent"
    drain(dropped)
