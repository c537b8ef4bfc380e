"""The command language by mail, on SQLite and PostgreSQL: several commands in one mail answered
in sections, commands in the Subject, per-game HELP, ORDERS, HISTORY, VACATION and FORMAT."""

from __future__ import annotations

from datetime import datetime, timedelta
from email.message import EmailMessage
from zoneinfo import ZoneInfo

from dos_de_mayo_by_mail import FRANCE, GM, SPAIN, play_turn_one, start_dos_de_mayo
from playbymail import compose, deliver_mail, drain, sent, text_of
from sqlalchemy import func, select

from adjudicator.models import Game, Player, Submission
from adjudicator.services.outbound import gm_letters
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines, ticks

LEONIDAS = "leonidas@example.com"


def new_game(runtime: Runtime) -> tuple[int, dict[str, str]]:
    return start_dos_de_mayo(runtime, timezone="Europe/Madrid", gm_address=GM)


def last_to(runtime: Runtime, address: str) -> EmailMessage:
    return [mail for mail in sent(runtime) if str(mail["To"]) == address][-1]


def answer(runtime: Runtime, address: str) -> str:
    return text_of(last_to(runtime, address)).replace("\r\n", "\n")


def section(text: str, heading: str) -> str:
    """The lines under a section heading, up to the next blank line."""
    assert f"\n{heading}\n" in text, f"no {heading} section in:\n{text}"
    return text.split(f"\n{heading}\n", 1)[1].split("\n\n", 1)[0]


def submissions(runtime: Runtime, game_id: int) -> int:
    with runtime.db.session() as session:
        query = select(func.count()).select_from(Submission).where(Submission.game_id == game_id)
        return int(session.scalar(query) or 0)


def madrid_today() -> datetime:
    return datetime.now(ZoneInfo("Europe/Madrid"))


def day(offset: int) -> str:
    return f"{madrid_today().date() + timedelta(days=offset):%Y-%m-%d}"


def test_several_commands_get_one_reply_in_sections(runtime: Runtime) -> None:
    game_id, seats = new_game(runtime)
    body = "Hi all,\nSTATUS\nSTAUTS\nHISTORY\nstatus\nvacation until " + day(10) + "\nCheers,\nPepe"
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], body))
    text = answer(runtime, SPAIN)
    done = section(text, "DONE")
    assert "STATUS\n     -> done: the position and the deadline are below" in done
    assert f"-> done: every turn of game {game_id}, with pictures: " in done
    assert f"http://localhost:8000/games/{game_id}" in done or f"/games/{game_id}" in done
    assert f"vacation until {day(10)}\n     -> done: on vacation" in done
    assert "STAUTS\n     -> not a command; did you mean STATUS?" in section(text, "NOT UNDERSTOOD")
    ignored = section(text, "IGNORED")
    assert "status\n     -> STATUS was already given above" in ignored
    assert "Cheers,\n     -> not an order, nor a command" in ignored
    assert "Hi all," in ignored
    # Commands with chatter are no order set: nothing refused is filed, nothing said about orders.
    assert "Nothing was changed" not in text and "YOUR ORDERS AS UNDERSTOOD" not in text
    assert "WHAT YOU CAN DO NOW" in text
    assert submissions(runtime, game_id) == 0


def test_status_says_who_has_sent_orders_never_what(runtime: Runtime) -> None:
    _, seats = new_game(runtime)
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "STATUS"))
    assert "; still waiting for France, Spain" in section(answer(runtime, SPAIN), "DONE")
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-4"))
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "STATUS"))
    done = section(answer(runtime, FRANCE), "DONE")
    assert "orders on file from Spain; still waiting for France" in done
    assert "9-4" not in answer(runtime, FRANCE)


def test_orders_and_commands_share_a_mail_and_orders_shows_what_is_on_file(
    runtime: Runtime,
) -> None:
    game_id, seats = new_game(runtime)
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-4\nORDERS\nSTAUTS"))
    text = answer(runtime, SPAIN)
    assert "Your orders for turn 1 are on file" in text
    assert "ORDERS\n     -> done: your orders for turn 1 are on file and count" in text
    assert "YOUR ORDERS ON FILE FOR TURN 1\nLast sent (accepted):\n  9-4" in text
    # The lookalike is reported once, as a command not understood, not also as an ignored order.
    assert "did you mean STATUS?" in section(text, "NOT UNDERSTOOD")
    assert "STAUTS" not in section(text, "YOUR ORDERS AS UNDERSTOOD")
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-22\nORDERS"))
    text = answer(runtime, SPAIN)
    assert "your last orders for turn 1 were refused; the earlier set below counts" in text
    assert "Last sent (refused):\n  9-22\nThe set that counts:\n  9-4" in text
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "ORDERS"))
    assert "no orders on file for turn 1; the defaults apply" in answer(runtime, FRANCE)
    assert submissions(runtime, game_id) == 2


def test_a_command_in_the_subject_acts_and_a_title_is_ignored(runtime: Runtime) -> None:
    game_id, seats = new_game(runtime)
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-4", subject="Re: status"))
    text = answer(runtime, SPAIN)
    assert "Your orders for turn 1 are on file" in text
    assert "status (subject)\n     -> done: the position and the deadline are below" in text
    for title in (f"Re: [pbem #{game_id}] 2 de Mayo — turn 3", "Orders", "Stauts please"):
        deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-4", subject=title))
        text = answer(runtime, SPAIN)
        assert "Your orders for turn 1 are on file" in text
        assert "DONE" not in text and "NOT UNDERSTOOD" not in text and "IGNORED" not in text
    # An empty body with a title for a subject: an empty mail, answered with the position.
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "", subject="Re: 2 de Mayo"))
    text = answer(runtime, SPAIN)
    assert "Nothing was changed" not in text and "NOT UNDERSTOOD" not in text
    assert "WHAT YOU CAN DO NOW" in text


def test_help_in_a_game_and_help_for_one_game_at_help(runtime: Runtime) -> None:
    _, seats = new_game(runtime)
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "HELP"))
    text = answer(runtime, SPAIN)
    assert "HOW TO WRITE ORDERS\n2 DE MAYO - ORDERS BY MAIL" in text
    assert "THERMOPYLES - ORDERS BY MAIL" not in text
    assert "COMMANDS (one per line" in text and "VACATION UNTIL 2027-01-03" in text
    assert "FORMAT TEXT" in text and "ORDERS " in text
    # What a player is told of their game's life, in words (services/record/transitions.py).
    told = text.split("WHAT YOU ARE TOLD\n", 1)[1]
    assert told.startswith("One mail for each change of your game, and only one")
    deliver_mail(runtime, compose(LEONIDAS, "help@pbem.localhost", "help 2 de mayo\nSTATUS"))
    text = answer(runtime, LEONIDAS)
    assert "2 DE MAYO - ORDERS BY MAIL" in text and "NEW 2DEMAYO" in text
    assert "THERMOPYLES - ORDERS BY MAIL" not in text
    assert "help 2 de mayo\n     -> done: how to play 2 de Mayo by mail is below" in text
    assert "STATUS\n     -> not done: STATUS is for a game" in text
    deliver_mail(runtime, compose(LEONIDAS, "help@pbem.localhost", "HELP THERMOPYLAE\nNEW CHESS"))
    text = answer(runtime, LEONIDAS)
    assert "THERMOPYLES - ORDERS BY MAIL" in text and "2 DE MAYO - ORDERS BY MAIL" in text
    not_understood = section(text, "NOT UNDERSTOOD")
    assert "HELP THERMOPYLAE\n     -> write HELP alone, or HELP and the name of a game" in (
        not_understood
    )
    assert "NEW CHESS\n     -> games are started at new@" in not_understood


def test_vacation_dates_are_checked_and_shown(runtime: Runtime) -> None:
    _, seats = new_game(runtime)
    cases = {
        f"VACATION {day(-10)} {day(-3)}": f"the last day, {day(-3)}, has passed",
        f"VACATION {day(9)} {day(5)}": f"the last day, {day(5)}, comes before the first",
        f"VACATION {day(-2)} {day(5)}": f"write VACATION UNTIL {day(5)}",
        f"VACATION {day(1)} {day(70)}": "that is 70 days; a vacation lasts at most 60 days",
        "VACATION next week": "write VACATION 2026-12-20 2027-01-03",
    }
    for line, why in cases.items():
        deliver_mail(runtime, compose(FRANCE, seats[FRANCE], line))
        assert f"{line}\n     -> not done: " in answer(runtime, FRANCE)
        assert why in answer(runtime, FRANCE), line
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "VACATION"))
    assert "VACATION\n     -> done: no vacation is set" in answer(runtime, FRANCE)
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], f"VACATION {day(3)} {day(12)}"))
    assert f"on vacation {day(3)} to {day(12)} (Europe/Madrid)" in answer(runtime, FRANCE)
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "VACATION"))
    assert f"a vacation is set: {day(3)} to {day(12)}" in answer(runtime, FRANCE)
    with runtime.db.session() as session:
        player = session.scalars(select(Player).where(Player.address == FRANCE)).one()
        start = madrid_today().replace(hour=0, minute=0, second=0, microsecond=0)
        assert player.vacation_start == start + timedelta(days=3)
        assert player.vacation_end == start + timedelta(days=13)
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "VACATION OFF"))
    assert "vacation cancelled; reminders come as usual" in answer(runtime, FRANCE)
    with runtime.db.session() as session:
        player = session.scalars(select(Player).where(Player.address == FRANCE)).one()
        assert player.vacation_start is None and player.vacation_end is None


def test_a_player_on_vacation_gets_no_reminder_and_the_report_says_so(runtime: Runtime) -> None:
    game_id, seats = new_game(runtime)
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], f"VACATION UNTIL {day(10)}"))
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None
    assert ticks.tick(runtime, now=deadline - timedelta(hours=11)).reminded == [(game_id, "france")]
    # Back early, before the deadline: the reminder not sent while away comes now.
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "VACATION OFF"))
    assert ticks.tick(runtime, now=deadline - timedelta(hours=10)).reminded == [(game_id, "spain")]
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], f"VACATION UNTIL {day(10)}"))
    result = deadlines.adjudicate(runtime, game_id, now=deadline + timedelta(seconds=1))
    assert isinstance(result, deadlines.Adjudicated)
    drain(runtime)
    for player in (FRANCE, SPAIN):
        assert f"On vacation: Spain ({day(0)} to {day(10)} (Europe/Madrid))." in answer(
            runtime, player
        )


def test_format_text_sends_plain_text_with_the_picture_attached(runtime: Runtime) -> None:
    _, seats = new_game(runtime)
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "FORMAT TEXT\nSTATUS"))
    reply = last_to(runtime, SPAIN)
    assert "from now on your mail is plain text only" in text_of(reply)
    kinds = [part.get_content_type() for part in reply.walk()]
    assert "text/html" not in kinds
    # The turn report carries the map (a receipt has none): to this reader, as an attachment.
    play_turn_one(runtime, seats)
    report = last_to(runtime, SPAIN)
    assert str(report["X-Pbem-Kind"]) == "report"
    assert "text/html" not in [part.get_content_type() for part in report.walk()]
    [picture] = [part for part in report.walk() if part.get_content_type() == "image/png"]
    assert picture.get_content_disposition() == "attachment"
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "STATUS"))
    assert "text/html" in [part.get_content_type() for part in last_to(runtime, FRANCE).walk()]
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "FORMAT HTML"))
    reply = last_to(runtime, SPAIN)
    assert "text/html" in [part.get_content_type() for part in reply.walk()]
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "FORMAT PDF"))
    assert "FORMAT PDF\n     -> not done: write FORMAT TEXT or FORMAT HTML" in answer(
        runtime, SPAIN
    )


def test_game_master_mail_is_answered_in_the_same_sections(runtime: Runtime) -> None:
    game_id, _ = new_game(runtime)
    with runtime.db.session() as session:
        gm_address = gm_letters.gm_address(runtime, session.get_one(Game, game_id))
    deliver_mail(runtime, compose(GM, gm_address, "Hello,\nEXTEND 24h\nEXTNED 2h\nThanks, Pepe"))
    text = answer(runtime, GM)
    assert "EXTEND 24h\n     -> done: deadline now" in section(text, "DONE")
    assert "EXTNED 2h\n     -> not a game-master command; did you mean EXTEND 2h?" in section(
        text, "NOT UNDERSTOOD"
    )
    ignored = section(text, "IGNORED")
    assert "Hello," in ignored and "Thanks, Pepe" in ignored


def test_resign_once_and_the_rest_of_the_mail_is_accounted_for(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(LEONIDAS, "new@pbem.localhost", "NEW THERMOPYLES"))
    seat = str(sent(runtime)[-1]["Reply-To"])
    deliver_mail(runtime, compose(LEONIDAS, seat, "RETREAT NODRAW\nHISTORY"))
    report = answer(runtime, LEONIDAS)
    assert "turn 1 resolved (your orders arrived)" in report
    assert "HISTORY\n     -> done: every turn of game 1" in report
    deliver_mail(runtime, compose(LEONIDAS, seat, "RESIGN\nRETREAT\nRESIGN"))
    text = answer(runtime, LEONIDAS)
    assert "is over: the Spartans resigned" in text
    assert "RESIGN\n     -> done: you resigned" in section(text, "DONE")
    ignored = section(text, "IGNORED")
    assert "RETREAT\n     -> not read: you resigned in the same mail" in ignored
    assert "RESIGN\n     -> RESIGN was already given above" in ignored


def test_an_invited_player_gets_the_sections_before_the_game_starts(runtime: Runtime) -> None:
    body = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    invite = last_to(runtime, SPAIN)
    deliver_mail(runtime, compose(SPAIN, str(invite["Reply-To"]), "FORMAT TEXT\nSTATUS\n9-4"))
    text = answer(runtime, SPAIN)
    assert "FORMAT TEXT\n     -> done:" in section(text, "DONE")
    ignored = section(text, "IGNORED")
    assert "STATUS\n     -> the game starts when every player has joined" in ignored
    assert "9-4\n     -> not read: the game has not started yet" in ignored
    deliver_mail(runtime, compose(SPAIN, str(invite["Reply-To"]), "JOIN"))
    assert "JOIN\n     -> done: your seat is taken" in section(answer(runtime, SPAIN), "DONE")
