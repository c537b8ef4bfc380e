"""Sender limits fall on mail that only claims its sender, never on a seat's own player: a forged
From cannot silence a player, a flood from many forged senders gets few replies in all, and live
play of many quick answers is never held back. On SQLite and PostgreSQL, through the pipeline."""

from __future__ import annotations

import random
from collections import Counter

from dos_de_mayo_by_mail import FRANCE, SPAIN, start_dos_de_mayo
from playbymail import compose, deliver_mail, reply_to, sent, text_of
from sqlalchemy import func, select
from test_musket_and_pike_by_mail import PLAYERS, ROYALIST, RULES, owed, start
from test_safety import row, with_config

from adjudicator.models import Game, InboundMessage, OutboxMessage, Submission
from adjudicator.services.record.runtime import Runtime

HELP = "help@pbem.localhost"
OLD_LIMIT = 60  # what one address could send an hour, seat mail included, before


def kinds_to(runtime: Runtime, address: str) -> Counter[str]:
    with runtime.db.session() as session:
        found = session.scalars(
            select(OutboxMessage.kind).where(OutboxMessage.to_address == address)
        )
        return Counter(found)


def two_de_mayo(runtime: Runtime) -> int:
    return start_dos_de_mayo(runtime)[0]


def test_a_forged_from_never_silences_the_seats_own_player(runtime: Runtime) -> None:
    game_id = two_de_mayo(runtime)
    france = reply_to(runtime, FRANCE)
    before = kinds_to(runtime, FRANCE)
    # A stranger writes France's address in the From line of 61 mails to help@.
    forged = [deliver_mail(runtime, compose(FRANCE, HELP, "HELP")) for _ in range(OLD_LIMIT + 1)]

    # France's own orders, from France to France's seat with its token, are read and filed.
    orders = row(runtime, deliver_mail(runtime, compose(FRANCE, france, "16-14 x1")))
    assert (orders.status, orders.reason) == ("done", "orders stored")
    assert orders.authenticated
    with runtime.db.session() as session:
        filed = session.scalars(select(Submission.accepted).where(Submission.game_id == game_id))
        assert list(filed) == [True]
    assert str(sent(runtime)[-1]["To"]) == FRANCE and sent(runtime)[-1]["X-Pbem-Kind"] == "receipt"

    # The forgeries: a few read, the rest kept (to be looked at) but neither read nor answered.
    limit = runtime.config.sender_limit_per_hour
    assert 0 < limit < OLD_LIMIT
    statuses = Counter(row(runtime, inbound_id).status for inbound_id in forged)
    assert statuses == {"done": limit, "ignored": OLD_LIMIT + 1 - limit}
    held = row(runtime, forged[-1])
    assert held.raw and not held.authenticated
    assert held.reason == (
        f"rate limit: {limit} unauthenticated mails from {FRANCE} read within an hour "
        f"(limit {limit}); stored, not read or answered"
    )
    # France got a few help mails, one notice and the receipt; not one mail per forgery.
    got = kinds_to(runtime, FRANCE) - before
    assert got == {"help": limit, "rate-limit": 1, "receipt": 1}
    notice = next(m for m in reversed(sent(runtime)) if m["X-Pbem-Kind"] == "rate-limit")
    assert "Mail you send to your own games' reply addresses is read as always" in text_of(notice)
    # A forged From with France's seat address but not its token proves nothing either.
    forged_seat = france.replace(france.split("-")[-1].split("@")[0], "0" * 16)
    refused = row(runtime, deliver_mail(runtime, compose(FRANCE, forged_seat, "16-10 x1")))
    assert refused.status == "ignored" and refused.reason.startswith("rate limit: ")


def test_a_flood_from_many_forged_senders_gets_few_replies_in_all(runtime: Runtime) -> None:
    runtime = with_config(runtime, unauthenticated_replies_per_hour=5)
    two_de_mayo(runtime)
    spain = reply_to(runtime, SPAIN)
    before = len(sent(runtime))
    victims = [f"victim{number}@example.org" for number in range(20)]
    ids = [deliver_mail(runtime, compose(victim, HELP, "HELP")) for victim in victims]
    rows = [row(runtime, inbound_id) for inbound_id in ids]
    assert [r.status for r in rows] == ["done"] * 5 + ["ignored"] * 15
    assert rows[5].reason == (
        "rate limit: 5 unauthenticated mails read service-wide within an hour (limit 5); "
        "stored, not read or answered"
    )
    # Five help mails went out, and no notice to anyone over the total.
    assert sorted(str(m["To"]) for m in sent(runtime)[before:]) == sorted(victims[:5])
    # A seat's player is not held back by the total either.
    orders = row(runtime, deliver_mail(runtime, compose(SPAIN, spain, "16-14 x1")))
    assert (orders.status, orders.authenticated) == ("done", True)
    # New mail is read again once the hour has passed.
    with runtime.db.session() as session:
        for record in session.scalars(select(InboundMessage)):
            record.received_at = record.received_at.replace(year=record.received_at.year - 1)
    later = row(runtime, deliver_mail(runtime, compose(victims[-1], HELP, "HELP")))
    assert later.status == "done"


def test_live_play_of_many_quick_answers_is_never_held_back(runtime: Runtime) -> None:
    """A Musket & Pike skirmish where each answer is one mail: one side sends more mails in the
    hour than any sender limit ever allowed, and every one is read."""
    assert RULES is not None
    game_id = start(runtime)
    seats = {seat: reply_to(runtime, address) for seat, address in PLAYERS.items()}
    choose = random.Random(7)
    mails: Counter[str] = Counter()
    for _ in range(400):
        owing, state = owed(runtime, game_id)
        if not owing:
            break
        for seat in owing:
            text = RULES.orders_text(choose.choice(list(RULES.legal_orders(state, seat))))
            # The royalist player checks the position before each answer: one more mail each.
            for body in ("STATUS", text) if seat == "royalist" else (text,):
                record = row(
                    runtime, deliver_mail(runtime, compose(PLAYERS[seat], seats[seat], body))
                )
                assert record.status == "done", record.reason
                mails[seat] += 1
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).status == "finished"
    # How long a battle lasts depends on its dice: a short one is followed by a few more looks
    # at the final position, so the side's mail in the hour is always beyond the old limit.
    while mails["royalist"] <= OLD_LIMIT:
        record = row(runtime, deliver_mail(runtime, compose(ROYALIST, seats["royalist"], "STATUS")))
        assert record.status == "done", record.reason
        mails["royalist"] += 1
    with runtime.db.session() as session:
        held = session.scalar(
            select(func.count(InboundMessage.id)).where(InboundMessage.status == "ignored")
        )
    assert held == 0
    assert mails["royalist"] > OLD_LIMIT, mails
