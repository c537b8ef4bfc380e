"""Every game mail says first what its reader owes and by when (in their zone, in UTC, and how
long from now), or that nothing is owed and who is being waited for; in a game of one decision at
a time, the decision and who owes it. Through the real pipeline, on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import EmailMessage

from playbymail import compose, deliver_mail, drain, html_of, sent, text_of
from sqlalchemy import select

from adjudicator.core.words import agreeing
from adjudicator.games.registry import get
from adjudicator.models import Game
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines

GM, FRANCE, SPAIN = "gm@example.com", "murat@example.com", "daoiz@example.com"
ROYALIST, PARLIAMENT = "hopton@example.com", "ruthin@example.com"
NEW = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\nTIMEZONE Europe/Madrid\n"
# A deadline as a reader wants it: their zone, UTC, and how long from now.
DUE = r"\w{3} \d\d \w{3} \d{4} \d\d:\d\d CET = \d\d:\d\d UTC \(in 4[78]\u00a0h\)"


def first_lines(mail: EmailMessage, count: int = 3) -> list[str]:
    lines = [line.strip() for line in text_of(mail).replace("\r\n", "\n").splitlines()]
    return [line for line in lines if line][:count]


def last(runtime: Runtime, address: str) -> EmailMessage:
    return [mail for mail in sent(runtime) if str(mail["To"]) == address][-1]


def joined_game(runtime: Runtime, body: str, players: tuple[str, str]) -> int:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    for address in players:
        deliver_mail(runtime, compose(address, str(last(runtime, address)["Reply-To"]), "JOIN"))
    with runtime.db.session() as session:
        return session.scalars(select(Game.id)).one()


def test_an_invitation_asks_for_join_first(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW))
    assert first_lines(last(runtime, SPAIN))[0] == "Reply JOIN to take your seat as Spain."
    assert first_lines(last(runtime, GM))[:2] == [
        "Nothing is owed by you.",
        "Waiting for France and Spain to join.",
    ]


def test_each_deadline_mail_opens_with_what_its_reader_owes_and_by_when(
    runtime: Runtime,
) -> None:
    joined_game(runtime, NEW, (FRANCE, SPAIN))
    opening = first_lines(last(runtime, SPAIN))
    assert re.fullmatch(f"You owe your orders for turn 1 by {DUE}\\.", opening[0]), opening
    assert opening[1].startswith("If none arrive by then, the default orders stand: ")
    deliver_mail(runtime, compose(SPAIN, str(last(runtime, SPAIN)["Reply-To"]), "Hola,\n9-4"))
    receipt = first_lines(last(runtime, SPAIN))
    assert receipt[0] == "Your orders for turn 1 are on file: nothing more is owed by you."
    assert re.fullmatch(f"You may change them until {DUE}\\. Waiting for France\\.", receipt[1])
    # The HTML part opens with the same words, in bold.
    html = html_of(last(runtime, SPAIN))
    assert html.index("on file: nothing more is owed by you") < html.index("Position after")
    assert first_lines(last(runtime, GM))[1].startswith("Waiting for orders for turn 1 from France")
    deliver_mail(runtime, compose(FRANCE, str(last(runtime, FRANCE)["Reply-To"]), "NODRAW"))
    for address in (FRANCE, SPAIN):
        report = last(runtime, address)
        assert str(report["X-Pbem-Kind"]) == "report"
        ask = first_lines(report)[0]
        assert re.fullmatch(f"You owe your orders for turn 2 by {DUE}\\.", ask), ask


def test_the_last_mail_says_nothing_is_owed(runtime: Runtime) -> None:
    game_id = joined_game(runtime, NEW, (FRANCE, SPAIN))
    deliver_mail(runtime, compose(GM, str(last(runtime, GM)["Reply-To"]), "END"))
    drain(runtime)
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).status != "active"
    for address in (FRANCE, SPAIN):
        assert first_lines(last(runtime, address))[0] == "Nothing is owed: the game is over."


def test_each_step_mail_names_the_decision_and_who_owes_it(runtime: Runtime) -> None:
    body = f"NEW MUSKETPIKE scenario=skirmish\nROYALIST {ROYALIST}\nPARLIAMENT {PARLIAMENT}\n"
    game_id = joined_game(runtime, body, (ROYALIST, PARLIAMENT))
    for address in (ROYALIST, PARLIAMENT):
        ask = first_lines(last(runtime, address))[0]
        assert ask.startswith("Your decision: give each wing its secret order, by "), ask
        assert re.search(r"UTC \(in \d+\u00a0h\)\.$", ask), ask
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None
    deadlines.adjudicate(runtime, game_id, now=deadline + timedelta(seconds=1))
    drain(runtime)
    rules = get("musketpike")
    assert rules is not None
    with runtime.db.session() as session:
        [seat] = rules.pending(rules.load(play.latest_turn(session, game_id).state))
    owing, waiting = (ROYALIST, PARLIAMENT) if seat == "royalist" else (PARLIAMENT, ROYALIST)
    assert first_lines(last(runtime, owing))[0].startswith("Your decision: choose the first wing")
    told = first_lines(last(runtime, waiting))[0]
    owes = agreeing(rules.seat_title(seat), "is", "are")  # "Royalists are", "Parliament is"
    assert told.startswith(f"Nothing is owed by you now: {owes} to choose the first wing, by ")


def test_a_solitaire_mail_asks_for_the_next_action_without_a_deadline(runtime: Runtime) -> None:
    deliver_mail(runtime, compose("leonidas@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    lines = first_lines(last(runtime, "leonidas@example.com"))
    assert lines[0] == "Your move: fight the near or the far card, or retreat (turn 1)."
    assert lines[1].startswith("There is no deadline; the game is closed after ")
