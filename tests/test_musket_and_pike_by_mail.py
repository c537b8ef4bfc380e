"""Two players play the Musket & Pike skirmish to its end by mail, one decision at a time: each
answer resolves on receipt and both players get the step's report; a decision left unanswered
past its deadline is taken by its default. On SQLite and PostgreSQL, through the real pipeline."""

from __future__ import annotations

import random
from datetime import timedelta

from playbymail import compose, deliver_mail, drain, sent, sent_count, text_of
from sqlalchemy import select

from adjudicator.core.registry import get
from adjudicator.models import Game, Submission, utcnow
from adjudicator.services import deadlines, play
from adjudicator.services.runtime import Runtime

GM, ROYALIST, PARLIAMENT = "gm@example.com", "hopton@example.com", "ruthin@example.com"
PLAYERS = {"royalist": ROYALIST, "parliament": PARLIAMENT}
RULES = get("musketpike")


def start(runtime: Runtime) -> int:
    # No SCHEDULE: each decision gets the hours of the game's decision_hours option.
    body = (
        f"NEW MUSKETPIKE scenario=skirmish decision_hours=12\nROYALIST {ROYALIST}\n"
        f"PARLIAMENT {PARLIAMENT}\n"
    )
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    for address in PLAYERS.values():
        invite = next(m for m in reversed(sent(runtime)) if str(m["To"]) == address)
        deliver_mail(runtime, compose(address, str(invite["Reply-To"]), "JOIN"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        assert game.status == "active" and game.deadline is not None
        assert game.schedule == "12h"
        left = game.deadline - utcnow()
        assert timedelta(hours=11, minutes=59) < left <= timedelta(hours=12), left
        return game.id


def owed(runtime: Runtime, game_id: int) -> tuple[list[str], object]:
    assert RULES is not None
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        if game.status != "active":
            return [], None
        state = RULES.load(play.latest_turn(session, game_id).state)
    return sorted(RULES.pending(state)), state


def reply_address(runtime: Runtime, address: str) -> str:
    return next(str(m["Reply-To"]) for m in reversed(sent(runtime)) if str(m["To"]) == address)


def test_a_skirmish_played_to_its_end_by_mail(runtime: Runtime) -> None:
    assert RULES is not None
    game_id = start(runtime)
    # Each seat's reply address stays the same for the whole game.
    addresses = {seat: reply_address(runtime, address) for seat, address in PLAYERS.items()}
    choose = random.Random(7)
    answered = 0
    defaulted = False
    for _ in range(400):
        seats, state = owed(runtime, game_id)
        if not seats:
            break
        if answered == 6 and not defaulted:
            # One decision is left to its deadline: the default is taken and both are told.
            with runtime.db.session() as session:
                deadline = session.get_one(Game, game_id).deadline
            assert deadline is not None
            before = sent_count(runtime)
            done = deadlines.adjudicate(runtime, game_id, now=deadline + timedelta(seconds=1))
            assert isinstance(done, deadlines.Adjudicated) and done.defaulted == tuple(seats)
            drain(runtime)
            told = {str(m["To"]) for m in sent(runtime, before)}
            assert told == set(PLAYERS.values())
            defaulted = True
            continue
        for seat in seats:
            orders = choose.choice(list(RULES.legal_orders(state, seat)))
            text = RULES.orders_text(orders)
            assert text, orders
            address = PLAYERS[seat]
            before = sent_count(runtime)
            deliver_mail(runtime, compose(address, addresses[seat], text))
            mails = sent(runtime, before)
            # The sender gets the receipt with the step's result first; the other player is told
            # of every step too (of secret set-up orders only that they were handed in).
            assert str(mails[0]["To"]) == address, [m["To"] for m in mails]
            assert {str(m["To"]) for m in mails} == set(PLAYERS.values())
            if len(seats) == 2 and seat == seats[0]:
                # Secret set-up orders: the other side learns nothing of them before the reveal.
                other = next(text_of(m) for m in mails if str(m["To"]) != address)
                assert "(secret until both are in)" in other, other
                assert text not in other
            assert "not accepted" not in text_of(mails[0]).lower(), text_of(mails[0])
            answered += 1
    else:
        raise AssertionError("the skirmish did not end by mail")
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.status == "finished", game.status
        refused = session.scalars(
            select(Submission).where(Submission.game_id == game_id, Submission.accepted.is_(False))
        ).all()
        assert refused == []
    assert defaulted and answered > 10
    # Both players were mailed every step: each got the final report.
    last = {str(m["To"]): text_of(m) for m in sent(runtime, sent_count(runtime) - 2)}
    assert set(last) == set(PLAYERS.values())
