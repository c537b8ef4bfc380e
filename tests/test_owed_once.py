"""What each seat owes for the turn being ordered is worked out once (``on_file.owed``), and
every mail, page and the scheduler read it: a set filed beside a refused line holds the early
turn and everyone is told so; ADD with the corrected line makes it whole; ORDERS shows refused
lines apart; and each receipt says when the turn will be played. A game master's 2 de Mayo game
played by mail, on SQLite and PostgreSQL."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from playbymail import compose, deliver_mail, drain, html_of, sent, text_of
from sqlalchemy import select

from adjudicator.models import Game, utcnow
from adjudicator.services.game_master import panel
from adjudicator.services.record import on_file, play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines
from adjudicator.web import create_app

GM, FRANCE, SPAIN = "gm@example.com", "murat@example.com", "daoiz@example.com"
# A deadline as a reader wants it: their zone, UTC, and how long from now.
DUE = r"\w{3} \d\d \w{3} \d{4} \d\d:\d\d CET = \d\d:\d\d UTC \(in 4[78]\u00a0h\)"


def new_game(extra: str = "") -> str:
    return (
        f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\n"
        f"TIMEZONE Europe/Madrid\n{extra}"
    )


def mails_to(runtime: Runtime, address: str) -> list[str]:
    return [
        text_of(mail).replace("\r\n", "\n") for mail in sent(runtime) if str(mail["To"]) == address
    ]


def last_to(runtime: Runtime, address: str) -> str:
    return mails_to(runtime, address)[-1]


def opening(text: str) -> str:
    """A mail's first lines (its ask), as one paragraph."""
    return " ".join(line.strip() for line in text.split("\n\n")[0].splitlines())


def reply_to(runtime: Runtime, address: str) -> str:
    return next(str(m["Reply-To"]) for m in reversed(sent(runtime)) if str(m["To"]) == address)


def started(runtime: Runtime, extra: str = "") -> tuple[int, dict[str, str]]:
    """A game master's game, joined by both players: its id and every reply address."""
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", new_game(extra)))
    for player in (FRANCE, SPAIN):
        deliver_mail(runtime, compose(player, reply_to(runtime, player), "JOIN"))
    with runtime.db.session() as session:
        game_id = session.scalars(select(Game.id)).one()
    return game_id, {who: reply_to(runtime, who) for who in (GM, FRANCE, SPAIN)}


def send(runtime: Runtime, player: str, addresses: dict[str, str], body: str) -> str:
    deliver_mail(runtime, compose(player, addresses[player], body))
    return last_to(runtime, player)


def latest_turn(runtime: Runtime, game_id: int) -> tuple[int, str]:
    with runtime.db.session() as session:
        turn = play.latest_turn(session, game_id)
        return turn.number, turn.reason


def page(runtime: Runtime, url: str) -> str:
    response = create_app(runtime).test_client().get(url)
    assert response.status_code == 200, url
    return html.unescape(response.get_data(as_text=True))


def test_a_refused_line_holds_the_early_turn_and_every_reader_is_told(runtime: Runtime) -> None:
    game_id, addresses = started(runtime)
    receipt = send(runtime, SPAIN, addresses, "9-4\ndrwa")
    assert "did you mean DRAW?" in receipt, receipt
    told = opening(receipt)
    assert re.fullmatch(
        "Your orders for turn 1 are on file except one refused line: the turn waits for its "
        f"deadline, {DUE}, unless you send it corrected with ADD, or send a whole new set\\. "
        "Waiting for France\\.",
        told,
    ), told
    france = opening(send(runtime, FRANCE, addresses, "16-14 x1"))
    assert latest_turn(runtime, game_id) == (0, "start")
    assert "orders are in" not in france, france
    assert (
        "Waiting for Spain to put right a refused line of its orders for turn 1; until then the "
        "turn waits for its deadline." in france
    ), france
    gm = opening(send(runtime, GM, addresses, "STATUS"))
    assert "orders are in" not in gm, gm
    assert "Waiting for Spain to put right a refused line of its orders for turn 1" in gm, gm
    shown = page(runtime, f"/games/{game_id}")
    assert "orders for turn 1 are in" not in shown
    assert "Waiting for Spain to put right a refused line of its orders for turn 1" in shown
    assert "a refused line" in page(runtime, "/")
    seats = panel.view(runtime, game_id)
    assert seats is not None
    # Both sets stand at the deadline; Spain's is marked for its refused line.
    assert {line.seat: (line.submitted, line.refused) for line in seats.seats} == {
        "france": (True, 0),
        "spain": (True, 1),
    }
    assert "submitted (a line refused)" in shown
    with runtime.db.session() as session:
        owed = on_file.owed(session, session.get_one(Game, game_id))
        assert owed.seats["spain"].filed is on_file.Filed.PARTIAL
        assert owed.seats["france"].filed is on_file.Filed.WHOLE
        assert not owed.resolves_early(utcnow())


def test_add_with_the_corrected_line_makes_the_set_whole(runtime: Runtime) -> None:
    game_id, addresses = started(runtime)
    send(runtime, SPAIN, addresses, "9-4\ndrwa")
    send(runtime, FRANCE, addresses, "16-14 x1")
    assert latest_turn(runtime, game_id) == (0, "start")
    send(runtime, SPAIN, addresses, "ADD\nDRAW")
    assert latest_turn(runtime, game_id) == (1, "all-submitted")
    receipt = [mail for mail in mails_to(runtime, SPAIN) if "merged with the ones" in mail][-1]
    assert "refused" not in opening(receipt), receipt


def test_orders_shows_the_refused_lines_apart_from_the_set_that_counts(runtime: Runtime) -> None:
    _, addresses = started(runtime)
    send(runtime, SPAIN, addresses, "9-4\ndrwa")
    answer = send(runtime, SPAIN, addresses, "ORDERS")
    assert (
        "ORDERS\n     -> done: your orders for turn 1 are on file except one refused line (below)"
        in answer
    ), answer
    assert (
        "YOUR ORDERS ON FILE FOR TURN 1\nThe set that counts:\n  9-4\n"
        "Refused, not in the set that counts:\n  drwa\n" in answer
    ), answer
    shown = html.unescape(html_of([m for m in sent(runtime) if str(m["To"]) == SPAIN][-1]))
    assert "<p>The set that counts:</p><pre>9-4</pre>" in shown, shown
    assert "<p>Refused, not in the set that counts:</p><pre>drwa</pre>" in shown, shown
    send(runtime, SPAIN, addresses, "9-99")  # refused whole: the earlier set still counts
    answer = send(runtime, SPAIN, addresses, "ORDERS")
    assert (
        "Last sent (refused):\n  9-99\nThe set that counts:\n  9-4\n"
        "Refused, not in the set that counts:\n  drwa\n" in answer
    ), answer


def test_with_early_off_the_last_receipt_says_the_turn_waits_for_its_deadline(
    runtime: Runtime,
) -> None:
    game_id, addresses = started(runtime, "EARLY no\n")
    send(runtime, SPAIN, addresses, "9-4")
    told = opening(send(runtime, FRANCE, addresses, "16-14 x1"))
    assert latest_turn(runtime, game_id) == (0, "start")
    assert re.search(
        f"All orders for turn 1 are in; the turn is played at its deadline, {DUE}\\.$", told
    ), told
    gm = opening(send(runtime, GM, addresses, "STATUS"))
    assert re.search(
        f"All orders for turn 1 are in; the turn is played at its deadline, {DUE}\\.$", gm
    ), gm


def test_a_wait_on_file_is_why_the_turn_waits(runtime: Runtime) -> None:
    game_id, addresses = started(runtime)
    send(runtime, SPAIN, addresses, "WAIT\n9-4")
    told = opening(send(runtime, FRANCE, addresses, "16-14 x1"))
    assert latest_turn(runtime, game_id) == (0, "start")
    assert re.search(
        "All orders for turn 1 are in, but a player asked to WAIT: the turn is played at its "
        f"deadline, {DUE}\\.$",
        told,
    ), told


def test_with_a_delay_the_last_receipt_says_when_the_turn_is_played(runtime: Runtime) -> None:
    game_id, addresses = started(runtime, "DELAY 10\n")
    send(runtime, SPAIN, addresses, "9-4")
    told = opening(send(runtime, FRANCE, addresses, "16-14 x1"))
    when = r"\w{3} \d\d \w{3} \d{4} \d\d:\d\d CET = \d\d:\d\d UTC \(in (9|10)\u00a0min\)"
    assert re.search(
        f"All orders for turn 1 are in; the turn is played {when}, 10 minutes after the last "
        "orders came\\.$",
        told,
    ), told
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        owed = on_file.owed(session, game)
        assert owed.early_at is not None
        assert not owed.resolves_early(owed.early_at - timedelta(seconds=1))
        assert owed.resolves_early(owed.early_at)
    done = deadlines.adjudicate(runtime, game_id, now=owed.early_at + timedelta(seconds=1))
    assert isinstance(done, deadlines.Adjudicated) and done.why == "all-submitted"


def test_the_new_sentences_are_in_the_players_language(runtime: Runtime) -> None:
    game_id, addresses = started(runtime, "LANGUAGE es\n")
    told = opening(send(runtime, SPAIN, addresses, "9-4\ndrwa"))
    assert "están registradas salvo una línea rechazada" in told, told
    assert "AÑADIR" in told or "ADD" in told, told
    france = opening(send(runtime, FRANCE, addresses, "16-14 x1"))
    assert "Esperando a que España corrija una línea rechazada" in france, france
    drain(runtime)
    assert latest_turn(runtime, game_id) == (0, "start")
