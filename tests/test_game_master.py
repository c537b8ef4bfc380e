"""A game master makes a 2 de Mayo game by mail, players JOIN, and the GM runs it by mail or CLI."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner
from icalendar import Calendar, Event
from playbymail import compose, deliver_mail, drain, sent, text_of
from sqlalchemy import func, select

from adjudicator import bootstrap, cli
from adjudicator.core.refusal import Refusal
from adjudicator.models import Game, Turn
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines, lifecycle, ticks
from adjudicator.services.turns.lifecycle import GameSettings

GM, FRANCE, SPAIN = "gm@example.com", "murat@example.com", "daoiz@example.com"
NEW = f"""Hello,
NEW 2DEMAYO half_stays=ceil
FRANCE {FRANCE}
SPAIN {SPAIN}
SCHEDULE 48h
TIMEZONE Europe/Madrid
"""


def last_to(runtime: Runtime, address: str) -> str:
    mails = [mail for mail in sent(runtime) if str(mail["To"]) == address]
    assert mails, f"nothing was sent to {address}"
    return text_of(mails[-1]).replace("\r\n", "\n")


def calendar_entries(runtime: Runtime, address: str) -> dict[str, Event]:
    """The last mail to ``address``: its calendar parts' events, by the part's method."""
    mail = [mail for mail in sent(runtime) if str(mail["To"]) == address][-1]
    entries = {}
    for part in mail.iter_attachments():
        if part.get_content_type() == "text/calendar":
            calendar = Calendar.from_ical(part.get_payload(decode=True))
            [event] = calendar.walk("VEVENT")
            assert calendar["METHOD"] == part.get_param("method")
            entries[str(part.get_param("method"))] = event
    return entries


def reply_to(runtime: Runtime, address: str) -> str:
    return next(str(m["Reply-To"]) for m in reversed(sent(runtime)) if str(m["To"]) == address)


def formed(runtime: Runtime) -> tuple[int, str]:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW))
    text = last_to(runtime, GM)
    assert "is formed, with you as its game master" in text
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        assert game.status == "forming" and game.deadline is None
        assert game.options["half_stays"] == "ceil"
        return game.id, reply_to(runtime, GM)


def started(runtime: Runtime) -> tuple[int, str, dict[str, str]]:
    game_id, gm_address = formed(runtime)
    seats = {player: reply_to(runtime, player) for player in (FRANCE, SPAIN)}
    for player in (FRANCE, SPAIN):
        deliver_mail(runtime, compose(player, seats[player], "JOIN"))
    return game_id, gm_address, seats


def test_invitations_then_join_start_the_game(runtime: Runtime) -> None:
    game_id, _ = formed(runtime)
    for player in (FRANCE, SPAIN):
        invitation = last_to(runtime, player)
        assert (
            f"as {'France' if player == FRANCE else 'Spain'}" in invitation and "JOIN" in invitation
        )
    spain = reply_to(runtime, SPAIN)
    deliver_mail(runtime, compose(SPAIN, spain, "What is this?"))
    assert "reply JOIN to take your seat" in last_to(runtime, SPAIN)
    deliver_mail(runtime, compose(SPAIN, spain, "JOIN"))
    assert "the game starts when France joins too" in last_to(runtime, SPAIN)
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).status == "forming"
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "join"))
    for player in (FRANCE, SPAIN):
        welcome = last_to(runtime, player)
        assert (
            "Your game of 2 de Mayo has begun" in welcome and "Orders for turn 1 are due" in welcome
        )
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.status == "active" and game.deadline is not None


def test_a_new_game_must_name_every_seat(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", f"NEW 2DEMAYO\nFRANCE {FRANCE}"))
    text = last_to(runtime, GM)
    assert "name a player for each of france, spain" in text and "SPAIN player@example.com" in text
    with runtime.db.session() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 0


def test_gm_moves_the_deadline_and_players_are_told_why(runtime: Runtime) -> None:
    game_id, gm_address, _ = started(runtime)
    with runtime.db.session() as session:
        before = session.get_one(Game, game_id)
        old_deadline, old_sequence = before.deadline, before.deadline_sequence
    assert old_deadline is not None
    deliver_mail(runtime, compose(GM, gm_address, "EXTEND 24h\nFROBNICATE"))
    answer = last_to(runtime, GM)
    assert "EXTEND 24h\n     -> done: deadline now" in answer
    # A line in capitals that is no command is answered under its own heading, not as "done".
    assert "NOT UNDERSTOOD\n  FROBNICATE\n     -> not a game-master command; known:" in answer
    for player in (FRANCE, SPAIN):
        notice = last_to(runtime, player)
        assert (
            "The deadline has moved (extended)" in notice and "Orders for turn 1 are due" in notice
        )
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.deadline == old_deadline + timedelta(hours=24)
        assert game.deadline_sequence == old_sequence + 1
    notice = [mail for mail in sent(runtime) if str(mail["To"]) == FRANCE][-1]
    calendar = next(p for p in notice.iter_attachments() if p.get_content_type() == "text/calendar")
    assert f"SEQUENCE:{old_sequence + 1}" in calendar.get_payload(decode=True).decode()


def test_pause_holds_the_turn_and_resume_sets_a_new_deadline(runtime: Runtime) -> None:
    game_id, gm_address, _ = started(runtime)
    deliver_mail(runtime, compose(GM, gm_address, "PAUSE"))
    assert "has paused the game" in last_to(runtime, FRANCE)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.deadline is not None
        game.deadline = game.deadline - timedelta(days=3)  # the deadline passes while paused
        past = game.deadline
    assert ticks.tick(runtime).turns_due == []
    deliver_mail(runtime, compose(GM, gm_address, "RESUME"))
    assert "resumed the game with a new deadline" in last_to(runtime, SPAIN)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert not game.paused and game.deadline is not None and game.deadline > past


def test_process_now_and_end(runtime: Runtime) -> None:
    game_id, gm_address, seats = started(runtime)
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "16-14 x1"))
    deliver_mail(runtime, compose(GM, gm_address, "PROCESS NOW"))
    report = last_to(runtime, SPAIN)
    assert "turn 1 resolved (forced by the game master)" in report
    # Played before its deadline: the report withdraws turn 1's calendar entry.
    entries = calendar_entries(runtime, SPAIN)
    assert set(entries) == {"PUBLISH", "CANCEL"}
    assert entries["PUBLISH"]["UID"] == f"game-{game_id}-turn-2@pbem.localhost"
    assert entries["CANCEL"]["UID"] == f"game-{game_id}-turn-1@pbem.localhost"
    assert entries["CANCEL"]["STATUS"] == "CANCELLED"
    with runtime.db.session() as session:
        turn = session.scalars(select(Turn).where(Turn.game_id == game_id, Turn.number == 1)).one()
        assert turn.reason == "forced" and turn.facts["defaulted"] == ["spain"]
    deliver_mail(runtime, compose(GM, gm_address, "END"))
    ending = last_to(runtime, FRANCE)
    assert "The game master has ended the game" in ending and "The seed is now revealed" in ending
    # Turn 2 will never be played: its entry is withdrawn, and no new one comes.
    entries = calendar_entries(runtime, FRANCE)
    assert list(entries) == ["CANCEL"]
    assert entries["CANCEL"]["UID"] == f"game-{game_id}-turn-2@pbem.localhost"
    assert deadlines.adjudicate(runtime, game_id, force=True) == deadlines.HELD


def test_replace_hands_the_seat_to_a_new_player(runtime: Runtime) -> None:
    _, gm_address, seats = started(runtime)
    deliver_mail(runtime, compose(GM, gm_address, "REPLACE spain palafox@example.com"))
    # Players read names, never addresses (the new player has given none yet).
    assert "Spain is now played by a new player" in last_to(runtime, FRANCE)
    new_address = reply_to(runtime, "palafox@example.com")
    assert new_address != seats[SPAIN]
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-4"))
    assert "does not hold the Spain seat" in last_to(runtime, SPAIN)
    # The old address stops working even for the new player.
    deliver_mail(runtime, compose("palafox@example.com", seats[SPAIN], "9-4"))
    assert "not one this service handed out (replaced)" in last_to(runtime, "palafox@example.com")
    deliver_mail(runtime, compose("palafox@example.com", new_address, "9-4"))
    assert "Your orders for turn 1 are on file" in last_to(runtime, "palafox@example.com")


def test_only_the_gm_may_use_the_gm_address(runtime: Runtime) -> None:
    game_id, gm_address, _ = started(runtime)
    deliver_mail(runtime, compose(FRANCE, gm_address, "END"))
    assert "does not hold the game master seat" in last_to(runtime, FRANCE)
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).status == "active"


def test_gm_commands_from_the_console(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> None:
    game_id, _, _ = started(runtime)
    monkeypatch.setattr(bootstrap, "runtime", lambda *a, **k: runtime)
    result = CliRunner().invoke(cli.main, ["game", "command", str(game_id), "EXTEND 2h", "STATUS"])
    assert result.exit_code == 0, result.output
    assert "done: EXTEND 2h: deadline now" in result.output and "is active" in result.output
    bad = CliRunner().invoke(cli.main, ["game", "command", str(game_id), "SET DEADLINE tomorrow"])
    assert bad.exit_code == 1 and "NOT DONE" in bad.output


def test_reminders_only_to_seats_without_orders_once_per_deadline(runtime: Runtime) -> None:
    game_id, gm_address, seats = started(runtime)
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "16-14 x1"))
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None
    assert ticks.tick(runtime, now=deadline - timedelta(hours=13)).reminded == []  # too early
    soon = deadline - timedelta(hours=11)
    assert ticks.tick(runtime, now=soon).reminded == [(game_id, "spain")]
    drain(runtime)
    assert "we have no orders from you" in last_to(runtime, SPAIN)
    assert ticks.tick(runtime, now=soon + timedelta(minutes=1)).reminded == []  # once
    deliver_mail(runtime, compose(GM, gm_address, "EXTEND 1h"))  # the deadline moves
    assert ticks.tick(runtime, now=soon + timedelta(minutes=2)).reminded == [(game_id, "spain")]
    drain(runtime)
    reminders = [m for m in sent(runtime) if "we have no orders" in text_of(m)]
    assert [str(m["To"]) for m in reminders] == [SPAIN, SPAIN]
    assert all(
        "we have no orders" not in text_of(m) for m in sent(runtime) if str(m["To"]) == FRANCE
    )


def test_sides_by_lot_are_dealt_once_all_have_joined_and_verifiable(runtime: Runtime) -> None:
    from adjudicator.core.chance import Chance
    from adjudicator.services.reading import verification
    from adjudicator.services.record import dice

    body = f"NEW 2DEMAYO\nPLAYERS {FRANCE}, me\nSCHEDULE 48h"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    assert "is formed, with you as its game master" in last_to(runtime, GM)
    invitations = [m for m in sent(runtime) if "You are invited" in text_of(m)]
    invited = {str(m["To"]): text_of(m) for m in invitations}
    addresses = {str(m["To"]): str(m["Reply-To"]) for m in invitations}
    assert set(invited) == {FRANCE, GM}
    # Nobody is told a side before the players' words are in: the lot is drawn with them.
    assert all("sides drawn by lot once every player has joined" in m for m in invited.values())
    assert not any(" as France" in m or " as Spain" in m for m in invited.values())
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "JOIN tiger 4417"))
    deliver_mail(runtime, compose(GM, addresses[GM], "JOIN"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        assert game.status == "active" and game.chance_scheme == "v2"
        dealt = {seat.seat: seat.player.address for seat in game.seats}
        given = dice.contributions(game)
        expected = Chance(dice.key(game), game.stream, 0).shuffle("sides", [FRANCE, GM])
        opening = session.scalars(select(Turn).where(Turn.game_id == game.id)).one()
        game_id = game.id
    # The lot comes from the seed mixed with both JOINs (France's words, the other's
    # Message-ID), in the order of the seats the invitations went to.
    assert (given[0].seat, given[0].words, given[0].source) == ("france", "tiger 4417", "words")
    assert given[1].seat == "spain" and given[1].source == "message-id"
    assert [dealt["france"], dealt["spain"]] == expected
    assert any(event["label"] == "sides" for event in opening.events)
    for player, seat in ((dealt["france"], "France"), (dealt["spain"], "Spain")):
        welcome = last_to(runtime, player)
        assert f"You play {seat}." in welcome and '"tiger 4417"' in welcome, (player, seat)
        assert "no words, so their mail's Message-ID <" in welcome
    result = verification.verify_game(runtime, game_id, force=True)
    assert not isinstance(result, Refusal) and not result.problems and result.events_checked >= 3
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", f"NEW 2DEMAYO\nPLAYERS {FRANCE}"))
    assert "PLAYERS lists one address per seat (2)" in last_to(runtime, GM)


def test_rollback_keeps_the_turn_on_record_and_never_rerolls(runtime: Runtime) -> None:
    from adjudicator.web import create_app

    game_id, gm_address, seats = started(runtime)
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "16-14 x2"))
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-14"))
    with runtime.db.session() as session:
        first = session.scalars(select(Turn).where(Turn.game_id == game_id, Turn.number == 1)).one()
        first_state, first_events = first.state, first.events
    deliver_mail(runtime, compose(GM, gm_address, "ROLLBACK France misread the map"))
    assert "turn 1 rolled back" in last_to(runtime, GM)
    notice = last_to(runtime, SPAIN)
    assert "rolled back turn 1 (France misread the map)" in notice.replace("\n", " ")
    assert "POSITION AFTER TURN 0" in notice
    # Turn 1 is due again under its own entry; turn 2's, from the report, is withdrawn.
    entries = calendar_entries(runtime, SPAIN)
    assert set(entries) == {"PUBLISH", "CANCEL"}
    assert entries["PUBLISH"]["UID"] == f"game-{game_id}-turn-1@pbem.localhost"
    assert entries["CANCEL"]["UID"] == f"game-{game_id}-turn-2@pbem.localhost"
    page = create_app(runtime).test_client().get(f"/games/{game_id}").get_data(as_text=True)
    rolled = page.split('id="turn-1-rolled-back"', 1)[1].split("</li>", 1)[0]
    assert "After turn 1</strong></a> — rolled back: France misread the map" in rolled
    # Played again with the same orders: the same dice, the same result.
    deliver_mail(runtime, compose(GM, gm_address, "PROCESS NOW"))
    with runtime.db.session() as session:
        again = session.scalars(
            select(Turn)
            .where(Turn.game_id == game_id, Turn.rolled_back_at.is_(None))
            .order_by(Turn.number.desc())
        ).first()
        assert again is not None and again.number == 1
        assert again.state == first_state and again.events == first_events
        rows = session.scalar(select(func.count()).select_from(Turn).where(Turn.game_id == game_id))
        assert rows == 3  # the opening, the rolled-back turn 1, and turn 1 again
    from adjudicator.services.reading import verification

    checked = verification.verify_game(runtime, game_id, force=True)
    assert not isinstance(checked, Refusal) and not checked.problems
    deliver_mail(runtime, compose(GM, gm_address, "END"))
    deliver_mail(runtime, compose(GM, gm_address, "ROLLBACK"))
    assert "is finished; nothing can change" in last_to(runtime, GM)


def test_players_set_their_time_zone_and_reminder_lead(runtime: Runtime) -> None:
    game_id, _, seats = started(runtime)
    deliver_mail(
        runtime,
        compose(SPAIN, seats[SPAIN], "PREFERENCES TIMEZONE America/New_York\nPREFERENCES REMIND 1"),
    )
    answer = last_to(runtime, SPAIN)
    assert "your deadlines will now be shown in America/New_York" in answer
    assert "reminders 1 hour before each deadline" in answer
    assert " EST = " in answer or " EDT = " in answer  # the deadline, in the player's own zone
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "PREFERENCES TIMEZONE Mars/Olympus"))
    assert "time zone not changed" in last_to(runtime, FRANCE)
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None
    # France keeps the game's 12 h; Spain asked for 1 h.
    assert ticks.tick(runtime, now=deadline - timedelta(hours=11)).reminded == [(game_id, "france")]
    assert ticks.tick(runtime, now=deadline - timedelta(minutes=30)).reminded == [
        (game_id, "spain")
    ]


def test_early_adjudication_can_wait_after_the_last_orders(runtime: Runtime) -> None:
    with runtime.db.session() as session:
        game = lifecycle.start_game(
            session,
            runtime,
            GameSettings(
                "2demayo", {"france": FRANCE, "spain": SPAIN}, {}, "48h", early_delay_minutes=10
            ),
        )
        assert isinstance(game, Game)
        game_id = game.id
    drain(runtime)
    seats = {player: reply_to(runtime, player) for player in (FRANCE, SPAIN)}
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "16-14 x1"))
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-4"))
    with runtime.db.session() as session:
        assert session.scalar(select(func.max(Turn.number)).where(Turn.game_id == game_id)) == 0
    now = datetime.now(UTC)
    assert ticks.tick(runtime, now=now + timedelta(minutes=5)).turns_due == []
    later = now + timedelta(minutes=11)
    assert ticks.tick(runtime, now=later).turns_due == [game_id]
    result = deadlines.adjudicate(runtime, game_id, now=later)
    assert isinstance(result, deadlines.Adjudicated) and result.why == "all-submitted"


def test_the_game_masters_letter_names_the_zone_once(runtime: Runtime) -> None:
    """SCHEDULE 48h Europe/Madrid makes the game's zone Madrid: the letter says so once."""
    deliver_mail(
        runtime,
        compose(
            GM,
            "new@pbem.localhost",
            NEW.replace("SCHEDULE 48h\nTIMEZONE Europe/Madrid", "SCHEDULE 48h Europe/Madrid"),
        ),
    )
    text = last_to(runtime, GM)
    assert "Schedule: 48h (Europe/Madrid)." in text
    assert "Europe/Madrid (Europe/Madrid)" not in text
