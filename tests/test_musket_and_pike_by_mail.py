"""Two players play the Musket & Pike skirmish to its end by mail, one decision at a time: each
answer resolves on receipt and both players get the step's report; a decision left unanswered
past its deadline is taken by its default. On SQLite and PostgreSQL, through the real pipeline."""

from __future__ import annotations

import hashlib
import html
import random
from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

import pytest
from icalendar import Calendar
from playbymail import compose, deliver_mail, drain, gm_command, reply_to, sent, sent_count, text_of
from sqlalchemy import select

from adjudicator.core.chance import Chance, Contribution
from adjudicator.games.musket_and_pike.state import Position
from adjudicator.games.registry import get
from adjudicator.models import Game, Submission, Turn, utcnow
from adjudicator.services.record import dice, play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines
from adjudicator.web import create_app

GM, ROYALIST, PARLIAMENT = "gm@example.com", "hopton@example.com", "ruthin@example.com"
PLAYERS = {"royalist": ROYALIST, "parliament": PARLIAMENT}
RULES = get("musketpike")


def start(runtime: Runtime, battle: str = "skirmish") -> int:
    # No SCHEDULE: each decision gets the hours of the game's decision_hours option.
    body = (
        f"NEW MUSKETPIKE scenario={battle} decision_hours=12\nROYALIST {ROYALIST}\n"
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


def test_a_skirmish_played_to_its_end_by_mail(runtime: Runtime) -> None:
    assert RULES is not None
    game_id = start(runtime)
    # Each seat's reply address stays the same for the whole game.
    addresses = {seat: reply_to(runtime, address) for seat, address in PLAYERS.items()}
    choose = random.Random(7)
    answered = 0
    defaulted = False
    choosing = False
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
            assert told == {*PLAYERS.values(), GM}  # the game master is mailed every step
            defaulted = True
            continue
        for seat in seats:
            orders = choose.choice(list(RULES.legal_orders(state, seat)))
            text = RULES.orders_text(orders)
            assert text, orders
            if seat == "royalist" and not choosing:
                # The royalist player chooses its routers' paths by mail: the rout phase asks.
                text = "STANDING RETREAT ASK ME\n" + text
                choosing = True
            address = PLAYERS[seat]
            before = sent_count(runtime)
            deliver_mail(runtime, compose(address, addresses[seat], text))
            mails = sent(runtime, before)
            # The sender gets the receipt with the step's result first; the other player is told
            # of every step too (of secret set-up orders only that they were handed in).
            assert str(mails[0]["To"]) == address, [m["To"] for m in mails]
            # The game master is mailed each step played (secret set-up orders play none until
            # both are in), and the end.
            told = {str(m["To"]) for m in mails}
            assert told - {GM} == set(PLAYERS.values())
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
    # Both players were mailed every step: each got the final report; the game master got the
    # last step's result and was told the game is over.
    last = [(str(m["To"]), str(m["Subject"])) for m in sent(runtime, sent_count(runtime) - 4)]
    assert {to for to, _ in last} == {*PLAYERS.values(), GM}
    assert any(to == GM and "game over: " in subject for to, subject in last), last
    # Every step's dice reached both players with their purpose and modifiers, and the archive
    # numbers the stored rows as steps, each with the same report.
    mails = [(str(m["To"]), text_of(m).replace("\r\n", "\n")) for m in sent(runtime)]
    with runtime.db.session() as session:
        turns = session.scalars(
            select(Turn).where(Turn.game_id == game_id, Turn.number > 0).order_by(Turn.number)
        ).all()
        rolled = [(turn.number, turn.facts) for turn in turns if turn.facts.get("dice")]
        rout_paths = [turn.orders for turn in turns if turn.facts.get("step") == "rout_paths"]
    assert len(rolled) > 5
    # Whenever the dice routed a royalist unit, the royalist player was asked for its path and
    # answered by mail (whether they do is up to the dice: the next test makes sure of it).
    assert all(list(orders) == ["royalist"] for orders in rout_paths), rout_paths
    web = create_app(runtime).test_client()
    for number, facts in rolled:
        report = RULES.step_report(facts)
        assert report.count("d10 for ") == len(facts["dice"]), report
        for address in PLAYERS.values():
            told = [
                text for to, text in mails if to == address and f"step {number} resolved" in text
            ]
            assert told and all(report in text for text in told), (report, told)
        page = web.get(f"/games/{game_id}/turns/{number}").get_data(as_text=True)
        assert f"After step {number}" in page and "Step by step" in page
        assert html.escape(report.splitlines()[1].strip()) in page


def late_in_turn_one(opening: Position) -> Position:
    """R-HI-1 routed at 2.3 and P-HI-1 at 0.3 alone on the field, late in turn 1: parliament has
    passed and royalist is to activate or pass (the game's options kept)."""
    field = {"R-HI-1": (2, 3), "P-HI-1": (0, 3)}
    units = tuple(replace(u, hex=field.get(u.id)) for u in opening.units)
    position = replace(
        opening,
        units=units,
        phase="activation",
        turn=1,
        step="activate",
        active="royalist",
        passes=1,
        initiative="royalist",
    )
    routed = next(u for u in units if u.id == "R-HI-1")
    return position.with_unit(replace(routed, morale_state="routed", formation="broken"))


def test_a_routed_units_path_is_asked_for_and_answered_by_mail(runtime: Runtime) -> None:
    """A player with STANDING RETREAT ASK ME is asked at the rout phase for the path of each
    routed unit, in the step's mail, and the path mailed back is checked and run."""
    assert RULES is not None
    game_id = start(runtime)
    addresses = {seat: reply_to(runtime, address) for seat, address in PLAYERS.items()}
    # The battle as it stands late in turn 1: R-HI-1 routed at 2.3, P-HI-1 at 0.3 alone on the
    # field, parliament has passed and royalist is to activate or pass.
    with runtime.db.session() as session:
        latest = play.latest_turn(session, game_id)
        latest.state = RULES.dump(late_in_turn_one(RULES.load(latest.state)))
    before = sent_count(runtime)
    text = "STANDING RETREAT ASK ME\nPASS"
    deliver_mail(runtime, compose(ROYALIST, addresses["royalist"], text))
    asked = {str(m["To"]): text_of(m).replace("\r\n", "\n") for m in sent(runtime, before)}
    assert set(asked) == {*PLAYERS.values(), GM}  # the game master is mailed every step
    assert "rout phase: the path of each routed unit (R-HI-1)" in asked[ROYALIST]
    assert "<unit> ROUT <hex> <hex> ..." in asked[ROYALIST]
    assert "is owed by Royalists" in asked[PARLIAMENT]
    seats, state = owed(runtime, game_id)
    assert seats == ["royalist"] and getattr(state, "step", None) == "rout_paths"
    # A path into the enemy is refused on its line, and nothing moves.
    before = sent_count(runtime)
    deliver_mail(runtime, compose(ROYALIST, addresses["royalist"], "R-HI-1 ROUT 1.3"))
    receipt = text_of(sent(runtime, before)[0])
    assert "nearer the enemy" in receipt
    assert owed(runtime, game_id)[0] == ["royalist"]
    # The player's own path, toward home: run, and both players are told.
    before = sent_count(runtime)
    deliver_mail(runtime, compose(ROYALIST, addresses["royalist"], "R-HI-1 ROUT 2.4 3.4 4.4"))
    told = {str(m["To"]): text_of(m).replace("\r\n", "\n") for m in sent(runtime, before)}
    assert set(told) == {*PLAYERS.values(), GM}  # the game master reads the step as they do
    for text in told.values():
        assert "R-HI-1 routs to 2.4 3.4 4.4" in text and "R-HI-1: 2.3 → 4.4" in text, text
    _, after = owed(runtime, game_id)
    assert after is not None and [u.hex for u in after.units if u.id == "R-HI-1"] == [(4, 4)]


@pytest.mark.slow
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_braddock_down_played_to_its_end_by_mail(runtime: Runtime) -> None:
    """The full scenario, 20x14 hexes and ten turns, every decision answered by mail with a
    random legal answer, to the end; every answer accepted and every step mailed to both."""
    assert RULES is not None
    # A battle of some 270 decisions spans days by mail; here every answer comes at once, so the
    # per-sender hourly limit (a flood guard) is lifted for the test.
    runtime = Runtime(
        replace(runtime.config, sender_limit_per_hour=0), runtime.db, enqueue=runtime.enqueue
    )
    game_id = start(runtime, "braddock-down")
    addresses = {seat: reply_to(runtime, address) for seat, address in PLAYERS.items()}
    choose = random.Random(11)
    steps = 0
    asking: set[str] = set()
    for _ in range(2_000):
        seats, state = owed(runtime, game_id)
        if not seats:
            break
        for seat in seats:
            text = RULES.orders_text(choose.choice(list(RULES.legal_orders(state, seat))))
            assert text
            if seat not in asking:
                # Both sides choose their retreat and rout paths: whenever the dice send a unit
                # back, its player is asked, and answers with the default or its path written out.
                text = "STANDING RETREAT ASK ME\n" + text
                asking.add(seat)
            before = sent_count(runtime)
            deliver_mail(runtime, compose(PLAYERS[seat], addresses[seat], text))
            got = sent(runtime, before)
            told = {str(m["To"]) for m in got}  # the game master is mailed every step too
            assert told == {*PLAYERS.values(), GM}, (text, text_of(got[0]))
            steps += 1
    else:
        raise AssertionError("Braddock Down did not end by mail")
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.status == "finished" and game.result, game.status
        refused = session.scalars(
            select(Submission).where(Submission.game_id == game_id, Submission.accepted.is_(False))
        ).all()
        assert refused == []
        last = play.latest_turn(session, game_id)
        assert RULES.load(last.state).phase == "over"
    assert steps > 100, steps


def at_the_charge(opening: Position) -> Position:
    """Turn 1, R-A activated and at its unit actions; P-LI-1 at 1.3 in front of R-CAV-1 at 1.4."""
    units = tuple(replace(u, hex=(1, 3)) if u.id == "P-LI-1" else u for u in opening.units)
    return replace(
        opening,
        units=units,
        phase="activation",
        turn=1,
        step="actions",
        active="royalist",
        current="R-A",
        initiative="royalist",
    )


def fix_dice(
    game: Game, number: int, wanted: Callable[[Chance], bool], label: bytes, tries: int
) -> None:
    """Gives ``game`` fixed dice for its turn ``number``: fixed words for the players'
    contributions (their JOINs put their mails' Message-IDs into the dice, which differ from run
    to run) and the first of ``tries`` fixed seeds whose chance gives what is ``wanted``, so a
    test of what the dice decide plays the real dice, repeatably."""
    game.contributions = [
        dice.record(Contribution(seat, f"{seat} words", dice.WORDS), "") for seat in PLAYERS
    ]
    for attempt in range(tries):
        game.seed = hashlib.sha256(label + b" %d" % attempt).digest()
        if wanted(dice.chance(game, number)):
            return
    raise AssertionError(f"no seed of {tries} ({label.decode()}) gave what the test needs")


def test_a_retreat_path_is_asked_of_the_defender_and_answered_by_mail(runtime: Runtime) -> None:
    """Parliament, with STANDING RETREAT ASK ME, is asked in the middle of the royalist's
    activation for the path of its unit a charge sends back; the activation goes on after the
    answer. Whether the charge sends it back is up to the dice: the seeds that do are searched
    for first, with the game's own seed, so the test plays the real dice."""
    assert RULES is not None
    game_id = start(runtime)
    addresses = {seat: reply_to(runtime, address) for seat, address in PLAYERS.items()}
    deliver_mail(runtime, compose(PARLIAMENT, addresses["parliament"], "STANDING RETREAT ASK ME"))
    charge = "R-CAV-1 CHARGE P-LI-1"
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        latest = play.latest_turn(session, game_id)
        position = at_the_charge(RULES.load(latest.state))
        latest.state = RULES.dump(position)
        # The game's seed is random; the first of a few fixed ones whose dice send P-LI-1 back
        # (the close combat table's rows for 8 and up) is given to it, so the test is repeatable.
        orders = RULES.parse_orders(position, "royalist", charge).orders
        fix_dice(
            game,
            latest.number + 1,
            lambda chance: bool(
                RULES.resolve(position, {"royalist": orders}, chance).state.retreats
            ),
            b"retreat",
            100,
        )
    before = sent_count(runtime)
    deliver_mail(runtime, compose(ROYALIST, addresses["royalist"], charge))
    mails = {str(m["To"]): text_of(m).replace("\r\n", "\n") for m in sent(runtime, before)}
    assert set(mails) == {*PLAYERS.values(), GM}  # the game master is mailed every step
    seats, state = owed(runtime, game_id)
    assert seats == ["parliament"] and getattr(state, "step", None) == "retreat_path"
    assert "close combat: P-LI-1 falls back 1 hex:" in mails[PARLIAMENT]
    assert "P-LI-1 RETREAT <hex> ..." in mails[PARLIAMENT]
    assert "is owed by Parliament" in mails[ROYALIST]
    # The archive sums the step up by its fight, not by the question it ends on.
    page = html.unescape(create_app(runtime).test_client().get(f"/games/{game_id}").get_data(True))
    assert "R-CAV-1 charges P-LI-1." in page, page[-9000:]
    assert "Parliament chooses the path of P-LI-1" not in page
    # A path toward the enemy is refused on its line, with the reason; nothing moves.
    before = sent_count(runtime)
    deliver_mail(runtime, compose(PARLIAMENT, addresses["parliament"], "P-LI-1 RETREAT 2.3"))
    receipt = text_of(sent(runtime, before)[0])
    assert "cannot fall back into 2.3" in receipt, receipt
    assert owed(runtime, game_id)[0] == ["parliament"]
    # The player's own path: made, both told, and the royalist's activation goes on.
    before = sent_count(runtime)
    deliver_mail(runtime, compose(PARLIAMENT, addresses["parliament"], "P-LI-1 RETREAT 0.3"))
    told = {str(m["To"]): text_of(m).replace("\r\n", "\n") for m in sent(runtime, before)}
    assert set(told) == {*PLAYERS.values(), GM}  # the game master reads the step as they do
    for text in told.values():
        assert "P-LI-1 retreats to 0.3" in text and "P-LI-1: 1.3 → 0.3" in text, text
    seats, after = owed(runtime, game_id)
    assert seats == ["royalist"] and getattr(after, "step", None) == "continuation"


def set_up_by_mail(runtime: Runtime, royalist: str, parliament: str) -> tuple[int, dict[str, str]]:
    """A skirmish whose secret wing orders both players have mailed (parliament second): the
    game, and what each player was mailed after the reveal."""
    game_id = start(runtime)
    addresses = {seat: reply_to(runtime, address) for seat, address in PLAYERS.items()}
    deliver_mail(runtime, compose(ROYALIST, addresses["royalist"], f"ORDERS {royalist}"))
    before = sent_count(runtime)
    deliver_mail(runtime, compose(PARLIAMENT, addresses["parliament"], f"ORDERS {parliament}"))
    return game_id, {str(m["To"]): text_of(m).replace("\r\n", "\n") for m in sent(runtime, before)}


def test_the_initiative_winner_is_offered_the_wings_the_rules_allow_by_mail(
    runtime: Runtime,
) -> None:
    """4.1.1: royalist holds Charge with one wing against none and so may open with either of
    its wings, the one holding Make Ready too: the mail lists both, and FIRST with the junior
    wing is accepted."""
    game_id, asked = set_up_by_mail(
        runtime, "R-A=charge R-B=make ready", "P-A=receive charge P-B=make ready"
    )
    seats, state = owed(runtime, game_id)
    assert seats == ["royalist"] and getattr(state, "step", None) == "first_wing"
    assert "first R-A" in asked[ROYALIST] and "first R-B" in asked[ROYALIST], asked[ROYALIST]
    before = sent_count(runtime)
    deliver_mail(runtime, compose(ROYALIST, reply_to(runtime, ROYALIST), "FIRST R-B"))
    receipt = text_of(sent(runtime, before)[0])
    assert "not accepted" not in receipt.lower(), receipt
    seats, state = owed(runtime, game_id)
    assert getattr(state, "current", None) == "R-B" and seats == ["parliament"]


def test_a_tie_break_winner_opens_with_its_wing_holding_the_senior_order_by_mail(
    runtime: Runtime,
) -> None:
    """4.1.2: on equal counts the best-rated commander holding Charge wins, and that side opens
    with its one wing holding Charge, without being asked: the junior wing is not offered."""
    game_id, told = set_up_by_mail(
        runtime, "R-A=charge R-B=make ready", "P-A=charge P-B=make ready"
    )
    # One wing each holds Charge; R-WC-A (-2) is rated better than P-WC-A (-1).
    assert "Royalists win the initiative" in told[ROYALIST], told[ROYALIST]
    seats, state = owed(runtime, game_id)
    # R-A, the one royalist wing holding Charge, is activated at once: parliament may pre-empt.
    assert seats == ["parliament"] and getattr(state, "step", None) == "preempt"
    assert getattr(state, "current", None) == "R-A"
    assert "first R-B" not in told[ROYALIST]


def test_an_answer_brings_the_next_deadlines_entry_and_withdraws_the_answered_one(
    runtime: Runtime,
) -> None:
    assert RULES is not None
    game_id = start(runtime)
    with runtime.db.session() as session:
        first = session.get_one(Game, game_id)
        old_deadline, old_sequence = first.deadline, first.deadline_sequence
    assert old_deadline is not None
    addresses = {seat: reply_to(runtime, address) for seat, address in PLAYERS.items()}
    seats, state = owed(runtime, game_id)
    seat = seats[0]
    text = RULES.orders_text(next(iter(RULES.legal_orders(state, seat))))
    before = sent_count(runtime)
    deliver_mail(runtime, compose(PLAYERS[seat], addresses[seat], text))
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        new_deadline, new_sequence = game.deadline, game.deadline_sequence
    assert new_deadline is not None and new_sequence > old_sequence
    # The players' mails carry the calendar entries; the game master's step result, none.
    mails = [mail for mail in sent(runtime, before) if str(mail["To"]) != GM]
    assert {str(mail["To"]) for mail in mails} == set(PLAYERS.values())
    for mail in mails:
        parts = {
            part.get_param("method"): Calendar.from_ical(part.get_payload(decode=True))
            for part in mail.iter_attachments()
            if part.get_content_type() == "text/calendar"
        }
        assert set(parts) == {"PUBLISH", "CANCEL"}
        # The entry is the next decision's, at the deadline just opened (not the answered one's).
        [entry] = parts["PUBLISH"].walk("VEVENT")
        assert entry["UID"] == f"game-{game_id}-turn-2@pbem.localhost"
        assert entry["SEQUENCE"] == new_sequence
        assert entry.end == new_deadline.replace(microsecond=0)
        [withdrawn] = parts["CANCEL"].walk("VEVENT")
        assert withdrawn["UID"] == f"game-{game_id}-turn-1@pbem.localhost"
        assert withdrawn["SEQUENCE"] > old_sequence
        assert withdrawn.end == old_deadline.replace(microsecond=0)


def test_a_paused_battle_plays_no_answer_until_it_resumes(runtime: Runtime) -> None:
    """Paused, a game that moves on each answer plays none: the mail that says nothing is owed
    is what happens; the answer is taken once the game master resumes the game."""
    game_id = start(runtime)
    gm_command(runtime, game_id, "PAUSE")
    seats, state = owed(runtime, game_id)
    seat = seats[0]
    assert RULES is not None and RULES.orders_text is not None
    answer = RULES.orders_text(next(iter(RULES.legal_orders(state, seat))))
    address = PLAYERS[seat]
    deliver_mail(runtime, compose(address, reply_to(runtime, address), answer))
    with runtime.db.session() as session:
        assert play.latest_turn(session, game_id).number == 0
        assert play.submissions(session, game_id, 1) == []
    text = text_of(next(m for m in reversed(sent(runtime)) if str(m["To"]) == address))
    assert "not played: the game is paused; send it again once it resumes" in text
    assert "the game master has paused the game" in text
    gm_command(runtime, game_id, "RESUME")
    deliver_mail(runtime, compose(address, reply_to(runtime, address), answer))
    with runtime.db.session() as session:
        taken = play.latest_turn(session, game_id).number == 1 or play.submissions(
            session, game_id, 1
        )
        assert taken
