"""Every mail of a game says in its subject what it is, in one thread; the game master hears when
the game starts and ends; the mail that starts a game is answered. Through the real pipeline, on
SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage

from playbymail import compose, deliver_mail, drain, sent, text_of
from sqlalchemy import select

from adjudicator.games.registry import get
from adjudicator.models import Game
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines

GM, FRANCE, SPAIN = "gm@example.com", "murat@example.com", "daoiz@example.com"
ROYALIST, PARLIAMENT = "hopton@example.com", "ruthin@example.com"
NEW = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\n"


def to(runtime: Runtime, address: str, since: int = 0) -> list[EmailMessage]:
    return [mail for mail in sent(runtime, since) if str(mail["To"]) == address]


def last(runtime: Runtime, address: str) -> EmailMessage:
    return to(runtime, address)[-1]


def tagged(game_id: int, title: str, phrase: str) -> str:
    return f"[pbem #{game_id}] {title} · {phrase}"


def formed(runtime: Runtime, body: str = NEW) -> int:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    with runtime.db.session() as session:
        return session.scalars(select(Game.id)).one()


def test_each_mail_of_a_deadline_game_says_what_it_is_in_one_thread(runtime: Runtime) -> None:
    game_id = formed(runtime)
    title = "2 de Mayo"
    assert str(last(runtime, GM)["Subject"]) == tagged(game_id, title, "game formed (game master)")
    invite = last(runtime, SPAIN)
    assert str(invite["Subject"]) == tagged(game_id, title, "you are invited")
    seats = {player: str(last(runtime, player)["Reply-To"]) for player in (FRANCE, SPAIN)}
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "JOIN"))
    assert str(last(runtime, SPAIN)["Subject"]) == tagged(game_id, title, "you have joined")
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "JOIN"))
    assert str(last(runtime, FRANCE)["Subject"]) == tagged(game_id, title, "game started")
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-4"))
    assert str(last(runtime, SPAIN)["Subject"]) == tagged(game_id, title, "turn 1 orders received")
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-22"))
    assert str(last(runtime, SPAIN)["Subject"]) == tagged(game_id, title, "orders not accepted")
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "STATUS"))
    assert str(last(runtime, SPAIN)["Subject"]) == tagged(game_id, title, "answer to your mail")
    deliver_mail(runtime, compose(GM, str(last(runtime, GM)["Reply-To"]), "EXTEND 24h"))
    assert str(last(runtime, FRANCE)["Subject"]) == tagged(game_id, title, "deadline moved")
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None
    deadlines.send_reminders(runtime, deadline - timedelta(hours=1))
    drain(runtime)
    assert str(last(runtime, FRANCE)["Subject"]) == tagged(
        game_id, title, "reminder: turn 1 orders due"
    )
    deadlines.adjudicate(runtime, game_id, now=deadline + timedelta(seconds=1))
    drain(runtime)
    assert str(last(runtime, FRANCE)["Subject"]) == tagged(game_id, title, "turn 1 results")
    with runtime.db.session() as session:
        thread = session.get_one(Game, game_id).thread_id
    for mail in to(runtime, FRANCE) + to(runtime, SPAIN):
        assert not str(mail["Subject"]).lower().startswith("re:"), mail["Subject"]
        # One conversation however the subject reads: clients thread by these headers.
        assert thread in str(mail["Message-ID"]) + str(mail["References"]), mail["Subject"]


def test_the_game_master_is_told_the_game_started_and_how_it_ended(runtime: Runtime) -> None:
    game_id = formed(runtime)
    seats = {player: str(last(runtime, player)["Reply-To"]) for player in (FRANCE, SPAIN)}
    welcome = last(runtime, GM)
    for player in (SPAIN, FRANCE):
        deliver_mail(runtime, compose(player, seats[player], "JOIN"))
    started = last(runtime, GM)
    assert str(started["Subject"]) == tagged(game_id, "2 de Mayo", "game started (game master)")
    text = text_of(started).replace("\r\n", "\n")
    assert "every player has joined and the game has started; orders for turn 1 are due" in text
    assert started["In-Reply-To"] == welcome["Message-ID"]
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "RESIGN"))
    over = last(runtime, GM)
    assert str(over["Subject"]) == tagged(
        game_id, "2 de Mayo", "game over: Spain resigned (game master)"
    )
    assert "the game is over: Spain resigned" in text_of(over)
    # Once each: the players' later mail tells the game master nothing new.
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "STATUS"))
    assert [str(m["Subject"]) for m in to(runtime, GM)][-2:] == [
        str(started["Subject"]),
        str(over["Subject"]),
    ]


def test_a_game_master_who_plays_gets_the_players_mail_only(runtime: Runtime) -> None:
    game_id = formed(runtime, f"NEW 2DEMAYO\nFRANCE me\nSPAIN {SPAIN}\nSCHEDULE 48h\n")
    for player in (SPAIN, GM):
        seat = next(str(m["Reply-To"]) for m in to(runtime, player) if "invited" in m["Subject"])
        deliver_mail(runtime, compose(player, seat, "JOIN"))
    subjects_to_gm = [str(m["Subject"]) for m in to(runtime, GM)]
    assert subjects_to_gm.count(tagged(game_id, "2 de Mayo", "game started")) == 1
    assert not any("game started (game master)" in s for s in subjects_to_gm)


def test_the_join_that_starts_the_game_is_answered(runtime: Runtime) -> None:
    formed(runtime)
    seats = {player: str(last(runtime, player)["Reply-To"]) for player in (FRANCE, SPAIN)}
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "JOIN"))
    joining = compose(FRANCE, seats[FRANCE], "JOIN\nPREFERENCES TIMEZONE America/New_York")
    deliver_mail(runtime, joining)
    answer = last(runtime, FRANCE)
    assert answer["In-Reply-To"] == compose_id(joining)
    text = text_of(answer).replace("\r\n", "\n")
    assert "Your game of 2 de Mayo has begun" in text
    assert "JOIN\n     -> done: your seat is taken; this mail's Message-ID goes into" in text
    assert "every player has joined, so the game has started" in " ".join(text.split())
    assert "-> done: your deadlines will now be shown in America/New_York" in text


def compose_id(raw: bytes) -> str:
    for line in raw.decode().splitlines():
        if line.lower().startswith("message-id:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError("no Message-ID")


def test_a_preferences_change_is_confirmed_in_words(runtime: Runtime) -> None:
    game_id = formed(runtime)
    seats = {player: str(last(runtime, player)["Reply-To"]) for player in (FRANCE, SPAIN)}
    for player in (SPAIN, FRANCE):
        deliver_mail(runtime, compose(player, seats[player], "JOIN"))
    reminders = "PREFERENCES REMIND 6\nPREFERENCES REMIND 1"
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], reminders))
    text = text_of(last(runtime, SPAIN)).replace("\r\n", "\n")
    assert "-> done: reminders 6 hours before each deadline" in text
    assert "-> done: reminders 1 hour before each deadline" in text
    assert str(last(runtime, SPAIN)["Subject"]) == tagged(
        game_id, "2 de Mayo", "answer to your mail"
    )


def test_one_decision_at_a_time_names_the_step_and_who_owes_it(runtime: Runtime) -> None:
    body = f"NEW MUSKETPIKE scenario=skirmish\nROYALIST {ROYALIST}\nPARLIAMENT {PARLIAMENT}\n"
    game_id = formed(runtime, body)
    for address in (ROYALIST, PARLIAMENT):
        deliver_mail(runtime, compose(address, str(last(runtime, address)["Reply-To"]), "JOIN"))
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None
    deadlines.adjudicate(runtime, game_id, now=deadline + timedelta(seconds=1))
    drain(runtime)
    subject = str(last(runtime, PARLIAMENT)["Subject"])
    # The secret set-up orders were defaulted; the initiative's winner owes the next decision,
    # named for both players alike (the game's prompt says "you" to the one who owes it).
    rules = get("musketpike")
    assert rules is not None
    with runtime.db.session() as session:
        [seat] = rules.pending(rules.load(play.latest_turn(session, game_id).state))
    title = rules.seat_title(seat)
    # Step 1 (the set-up orders) is played; the choice owed is step 2, the number the body
    # gives its deadline.
    assert subject == f"[pbem #{game_id}] Musket & Pike · step 2: {title} to choose the first wing"
    assert subject == str(last(runtime, ROYALIST)["Subject"])
    owner = ROYALIST if seat == "royalist" else PARLIAMENT
    assert "Your answer to step 2 is due" in text_of(last(runtime, owner))
    other = PARLIAMENT if owner == ROYALIST else ROYALIST
    assert "Step 2 is owed by" in text_of(last(runtime, other))


def test_a_subject_says_how_the_game_ended_in_words() -> None:
    from adjudicator.services.record import subjects

    assert subjects.short_result("royalist wins (last turn played); x lost 3 of 9 SP.") == (
        "royalist wins"
    )
    assert subjects.short_result("Spain holds out after turn 12: no win") == (
        "Spain holds out after turn 12: no win"
    )
    assert subjects.ours("2 de Mayo · turn 4 results", "2 de Mayo")
    assert not subjects.ours("9-4", "2 de Mayo")


def test_a_reply_that_keeps_our_subject_and_says_nothing_is_an_empty_mail(
    runtime: Runtime,
) -> None:
    formed(runtime)
    seats = {player: str(last(runtime, player)["Reply-To"]) for player in (FRANCE, SPAIN)}
    for player in (SPAIN, FRANCE):
        deliver_mail(runtime, compose(player, seats[player], "JOIN"))
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-4"))
    subject = "Re: " + str(last(runtime, SPAIN)["Subject"])  # "… · turn 1 orders received"
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "", subject=subject))
    text = text_of(last(runtime, SPAIN)).replace("\r\n", "\n")
    assert "Nothing was changed" not in text and "NOT UNDERSTOOD" not in text
    assert "WHAT YOU CAN DO NOW" in text
