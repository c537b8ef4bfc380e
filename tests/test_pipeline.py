"""Mail in to mail out through the services on SQLite and PostgreSQL: play by mail, bad input."""

from __future__ import annotations

import re
from typing import Any

from playbymail import compose, deliver_mail, html_of, sent, text_of
from sqlalchemy import func, select

from adjudicator.core.chance import commitment
from adjudicator.games import registry
from adjudicator.models import Game, InboundMessage, OutboxMessage, Submission, Turn
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime, Task

PLAYER = "leonidas@example.com"
THERMOPYLES = registry.games()["thermopyles"]


def start(runtime: Runtime, sender: str = PLAYER, body: str = "NEW THERMOPYLES") -> tuple[int, str]:
    before = len(sent(runtime))
    deliver_mail(runtime, compose(sender, "new@pbem.localhost", body, subject="new game"))
    welcome = sent(runtime)[before]
    with runtime.db.session() as session:
        game_id = session.scalar(select(func.max(Game.id)))
    assert game_id is not None
    return game_id, str(welcome["Reply-To"])


def position(runtime: Runtime, game_id: int) -> tuple[int, dict[str, Any]]:
    with runtime.db.session() as session:
        turn = play.latest_turn(session, game_id)
        state = THERMOPYLES.load(turn.state)
        return turn.number, THERMOPYLES.view(state, "spartans")


def test_new_game_mail_starts_a_game_with_a_welcome(runtime: Runtime) -> None:
    game_id, reply_to = start(runtime)
    [welcome] = sent(runtime)
    assert welcome["To"] == PLAYER
    assert welcome["Auto-Submitted"] == "auto-generated"
    assert re.fullmatch(rf"orders\+{game_id}-spartans-1-[0-9a-f]{{16}}@pbem\.localhost", reply_to)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.commitment == commitment(game.seed)
        assert welcome["Message-ID"] == game.thread_id
        body = text_of(welcome)
        assert game.commitment in body
        assert game.seed.hex() not in body and game.seed.hex() not in html_of(welcome)
    _, view = position(runtime, game_id)
    assert len(view["hand"]) == 4
    for value in view["hand"]:
        assert f"FIGHT {value}" in body
    # The picture is inline, referenced from the HTML part by its Content-ID.
    images = [part for part in welcome.walk() if part.get_content_type() == "image/png"]
    assert len(images) == 1
    cid = str(images[0]["Content-ID"]).strip("<>")
    assert f"cid:{cid}" in html_of(welcome)


def test_an_action_is_resolved_on_receipt_and_reported_in_the_thread(runtime: Runtime) -> None:
    game_id, reply_to = start(runtime)
    number, view = position(runtime, game_id)
    card = max(view["hand"])
    order = compose(PLAYER, reply_to, f"Hello!\n\nfight {card} support 1\n\nCheers,\nLeo")
    deliver_mail(runtime, order)
    report = sent(runtime)[-1]
    text = text_of(report)
    assert f"FIGHT {card} SUPPORT 1" in text  # the order as understood, in canonical form
    assert "your orders arrived" in text
    assert report["In-Reply-To"] is not None
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.thread_id in str(report["References"])
        # One thread by its headers; the subject says what each mail is.
        assert report["Subject"] == f"[pbem #{game_id}] Thermopyles · turn 1 results"
    new_number, new_view = position(runtime, game_id)
    assert new_number == number + 1
    assert new_view["supports"]["left"] == view["supports"]["left"] - 1
    with runtime.db.session() as session:
        turn = play.latest_turn(session, game_id)
        assert turn.orders == {
            "spartans": {"discard": None, "action": "fight", "value": card, "support": 1}
        }
        assert card in turn.state["spartan_discard"]  # the card played is spent


def test_illegal_actions_are_explained_and_change_nothing(runtime: Runtime) -> None:
    game_id, reply_to = start(runtime)
    number, view = position(runtime, game_id)
    missing = next(value for value in range(10, 21) if value not in view["hand"])
    cases = {
        f"FIGHT {missing}": "card-not-in-hand",
        f"FIGHT {view['hand'][0]} SUPPORT 5": "support",
        "CHARGE THE PERSIANS": "",
    }
    for body, expected in cases.items():
        deliver_mail(runtime, compose(PLAYER, reply_to, body))
        reply = text_of(sent(runtime)[-1])
        assert "Nothing was changed" in reply
        assert body.split()[0] in reply
        if expected == "card-not-in-hand":
            assert f"you hold no {missing}" in reply
            assert re.search(r"did you mean FIGHT \d+\?", reply)
        if expected == "support":
            assert "have 4 left" in reply
        assert "WHAT YOU CAN DO NOW" in reply
        assert position(runtime, game_id) == (number, view)
    with runtime.db.session() as session:
        kept = session.scalars(
            select(Submission.accepted).where(Submission.game_id == game_id)
        ).all()
        assert kept == [False, False, False]


def test_fight_with_an_empty_hand_is_refused(runtime: Runtime) -> None:
    game_id, reply_to = start(runtime)
    # A position whose hand is empty (its cards moved to the deck), stored as the next snapshot.
    with runtime.db.session() as session:
        latest = play.latest_turn(session, game_id)
        state = dict(latest.state)
        state["spartan_deck"] = state["hand"] + state["spartan_deck"]
        state["hand"] = []
        session.add(Turn(game_id=game_id, number=1, state=state, reason="forced", public_png=b""))
    deliver_mail(runtime, compose(PLAYER, reply_to, "FIGHT 15"))
    reply = text_of(sent(runtime)[-1])
    assert "Nothing was changed" in reply
    assert "empty" in reply.lower()
    assert "RETREAT" in reply and "FIGHT 1" not in reply.split("WHAT YOU CAN DO NOW")[1]
    assert position(runtime, game_id)[0] == 1


def test_unknown_address_forged_and_truncated_tokens(runtime: Runtime) -> None:
    game_id, reply_to = start(runtime)
    local, domain = reply_to.split("@")
    forged = local[:-1] + ("0" if local[-1] != "0" else "1")
    cases = [
        ("pbem@pbem.localhost", "sends mail from but reads none sent to it"),
        (f"{forged}@{domain}", "not one this service handed out"),
        (f"{local[:-6]}@{domain}", "not one this service handed out"),
        (
            f"orders+{game_id + 1}-spartans-1-0123456789abcdef@{domain}",
            "not one this service handed out",
        ),
    ]
    number, view = position(runtime, game_id)
    for address, explanation in cases:
        deliver_mail(runtime, compose(PLAYER, address, "RETREAT"))
        reply = sent(runtime)[-1]
        assert reply["To"] == PLAYER
        assert explanation in text_of(reply)
        assert position(runtime, game_id) == (number, view)
    with runtime.db.session() as session:
        statuses = session.scalars(select(InboundMessage.status).order_by(InboundMessage.id)).all()
    assert statuses == ["done", "rejected", "rejected", "rejected", "rejected"]


def test_a_stranger_cannot_play_a_seat(runtime: Runtime) -> None:
    game_id, reply_to = start(runtime)
    number, view = position(runtime, game_id)
    deliver_mail(runtime, compose("xerxes@example.com", reply_to, "RETREAT"))
    reply = sent(runtime)[-1]
    assert reply["To"] == "xerxes@example.com"
    assert "does not hold the Spartans seat" in text_of(reply)
    assert position(runtime, game_id) == (number, view)


def test_automatic_mail_and_bounces_are_never_answered(runtime: Runtime) -> None:
    _, reply_to = start(runtime)
    count = len(sent(runtime))
    vacation = compose(
        PLAYER,
        reply_to,
        "I am away until Monday.",
        subject="Out of office",
        headers={"Auto-Submitted": "auto-replied"},
    )
    bounce = compose(
        "MAILER-DAEMON@example.com",
        reply_to,
        "Delivery failed",
        subject="Undelivered Mail Returned to Sender",
        headers={"Return-Path": "<>"},
    )
    for raw in (vacation, bounce):
        inbound_id = deliver_mail(runtime, raw)
        with runtime.db.session() as session:
            row = session.get_one(InboundMessage, inbound_id)
            assert row.status == "ignored"
            assert "automatic" in row.reason
    assert len(sent(runtime)) == count


def test_bytes_that_are_not_mail_are_kept_and_refused(runtime: Runtime) -> None:
    blob = bytes(range(256)) * 4
    inbound_id = deliver_mail(runtime, blob)
    with runtime.db.session() as session:
        row = session.get_one(InboundMessage, inbound_id)
        # Refused for good: reading them again would not help, and no one can be answered.
        assert row.status == "rejected"
        assert row.reason.startswith("unreadable")
        assert row.raw == blob
    assert sent(runtime) == []


def test_a_duplicate_task_processes_nothing_twice(runtime: Runtime) -> None:
    game_id, reply_to = start(runtime)
    raw = compose(PLAYER, reply_to, "RETREAT")
    inbound_id = deliver_mail(runtime, raw)
    from adjudicator.services.inbound import pipeline

    again = pipeline.process(runtime, inbound_id)
    assert again.reason == "already processed"
    deliver_mail(runtime, raw)  # the same message delivered twice (same Message-ID)
    with runtime.db.session() as session:
        assert (
            session.scalar(select(func.count()).select_from(Turn).where(Turn.game_id == game_id))
            == 2
        )
        assert session.scalar(select(func.count()).select_from(OutboxMessage)) == 2


def test_help_status_and_new_game_mistakes(runtime: Runtime) -> None:
    _, reply_to = start(runtime)
    deliver_mail(runtime, compose(PLAYER, reply_to, "STATUS"))
    assert "WHAT YOU CAN DO NOW" in text_of(sent(runtime)[-1])
    deliver_mail(runtime, compose(PLAYER, reply_to, "HELP"))
    assert "HOW TO WRITE ORDERS" in text_of(sent(runtime)[-1])
    deliver_mail(runtime, compose(PLAYER, "new@pbem.localhost", "NEW CHESS"))
    assert "there is no game called 'chess'" in text_of(sent(runtime)[-1])
    deliver_mail(runtime, compose(PLAYER, "new@pbem.localhost", "NEW THERMOPYLES win_when=never"))
    assert "win_when" in text_of(sent(runtime)[-1])
    deliver_mail(runtime, compose(PLAYER, "help@pbem.localhost", "help"))
    assert "NEW THERMOPYLES" in text_of(sent(runtime)[-1])


def test_shared_deal_gives_everyone_the_same_cards_and_dice(runtime: Runtime) -> None:
    first, first_reply = start(runtime, "a@example.com", "NEW THERMOPYLES SHARED spring-cup")
    second, second_reply = start(runtime, "b@example.com", "new thermopyles shared Spring-Cup")
    assert position(runtime, first)[1] == position(runtime, second)[1] | {"seat": "spartans"}
    card = max(position(runtime, first)[1]["hand"])
    deliver_mail(runtime, compose("a@example.com", first_reply, f"FIGHT {card} SUPPORT 2"))
    deliver_mail(runtime, compose("b@example.com", second_reply, f"FIGHT {card} SUPPORT 2"))
    assert position(runtime, first) == position(runtime, second)
    with runtime.db.session() as session:
        events = session.scalars(
            select(Turn.events).where(Turn.number == 1).order_by(Turn.game_id)
        ).all()
        assert events[0] == events[1] and len(events[0]) >= 2
        games = session.scalars(select(Game).order_by(Game.id)).all()
        assert games[0].challenge_id == games[1].challenge_id is not None
        assert games[0].commitment == games[1].commitment


def test_queued_work_is_only_dispatched_after_commit(runtime: Runtime) -> None:
    queued = runtime.enqueue.items  # type: ignore[attr-defined]
    with runtime.db.session() as session:
        runtime.later(session, Task.SEND_OUTBOX, 7)
        assert queued == []  # not before the commit
    assert queued == [("send_outbox", 7)]
    try:
        with runtime.db.session() as session:
            runtime.later(session, Task.SEND_OUTBOX, 8)
            raise RuntimeError("the unit of work fails")
    except RuntimeError:
        pass
    assert queued == [("send_outbox", 7)]  # rolled-back work is never queued


def test_mails_for_one_game_processed_at_once_make_consecutive_turns(runtime: Runtime) -> None:
    import threading

    from adjudicator.services.inbound import inbox, pipeline

    game_id, reply_to = start(runtime)
    ids = []
    for _ in range(5):
        stored = inbox.store(runtime, compose(PLAYER, reply_to, "RETREAT NODRAW"), "test")
        assert isinstance(stored, inbox.Stored)
        ids.append(stored.id)
    runtime.enqueue.items.clear()  # type: ignore[attr-defined]
    verdicts: list[str] = []
    threads = [
        threading.Thread(target=lambda i=i: verdicts.append(pipeline.process(runtime, i).reason))
        for i in ids
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Serialised per game: five consecutive turns, and five retreats take the marker from 1 to 6.
    assert sorted(verdicts) == [f"turn {n} resolved" for n in range(1, 6)]
    number, view = position(runtime, game_id)
    assert (number, view["marker"]) == (5, 6)


def test_stored_mail_knows_its_game_before_it_is_read(runtime: Runtime) -> None:
    from adjudicator.services.inbound import inbox

    game_id, reply_to = start(runtime)
    local, domain = reply_to.split("@")
    cases = {
        reply_to: game_id,  # from the To header (no envelope given)
        f"{local[:-1]}{'1' if local[-1] == '0' else '0'}@{domain}": None,  # forged
        "new@pbem.localhost": None,
    }
    for address, expected in cases.items():
        stored = inbox.store(runtime, compose(PLAYER, address, "RETREAT"), "test")
        assert isinstance(stored, inbox.Stored)
        with runtime.db.session() as session:
            assert session.get_one(InboundMessage, stored.id).game_id == expected, address
    enveloped = inbox.store(
        runtime, compose(PLAYER, "someone@example.com", "RETREAT"), "test", envelope_to=[reply_to]
    )
    assert isinstance(enveloped, inbox.Stored)
    with runtime.db.session() as session:
        assert session.get_one(InboundMessage, enveloped.id).game_id == game_id
