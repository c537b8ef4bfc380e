"""A refused line no longer costs a turn's other orders: in a game whose turns wait for a
deadline, the accepted lines of a mail form the set on file, the receipt names the lines left out
and what stands if nothing more is sent, and the set is played at the deadline. The turn is not
resolved early on a set with refused lines, so the player keeps the time to put them right.
Through the real pipeline, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from playbymail import compose, deliver_mail, drain, sent, sent_count, text_of
from test_operations import FRANCE, SPAIN, seat_address, start_2demayo

from adjudicator.models import Game, utcnow
from adjudicator.services.record import on_file, play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines


def turn_played(runtime: Runtime, game_id: int) -> tuple[int, str]:
    """The latest turn's number and why it was played."""
    with runtime.db.session() as session:
        turn = play.latest_turn(session, game_id)
        return turn.number, turn.reason


def test_the_accepted_lines_stand_without_the_refused_one(runtime: Runtime) -> None:
    game_id = start_2demayo(runtime)
    drain(runtime)
    before = sent_count(runtime)
    mail = "Hola,\n\n4-3\n9-99\n\nSaludos"
    deliver_mail(runtime, compose(SPAIN, seat_address(runtime, game_id, "spain"), mail))
    receipt = text_of(sent(runtime, before)[0]).replace("\r\n", "\n")
    assert "Your orders for turn 1 are on file" in receipt, receipt
    assert "Not in them: line 3, which could not be accepted" in receipt, receipt
    assert "  3. 9-99\n     -> rejected" in receipt, receipt
    assert "stands at the deadline" in receipt and "Nothing was changed" not in receipt
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        filed = on_file.current_orders(session, game, 1)
        assert [move["path"] for move in filed["spain"]["moves"]] == [["4", "3"]]
        # France's complete set beside Spain's partial one: no early turn.
        assert not on_file.owed(session, game).resolves_early(utcnow())
    deliver_mail(runtime, compose(FRANCE, seat_address(runtime, game_id, "france"), "NODRAW"))
    assert turn_played(runtime, game_id) == (0, "start")
    with runtime.db.session() as session:
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None
    done = deadlines.adjudicate(runtime, game_id, now=deadline + timedelta(seconds=1))
    # Both sets were played as filed: nobody's orders were the defaults.
    assert isinstance(done, deadlines.Adjudicated) and done.defaulted == (), done
    assert turn_played(runtime, game_id) == (1, "deadline")


def test_a_set_sent_again_whole_makes_the_turn_resolve_early(runtime: Runtime) -> None:
    game_id = start_2demayo(runtime)
    spain = seat_address(runtime, game_id, "spain")
    deliver_mail(runtime, compose(SPAIN, spain, "4-3\n9-99"))
    deliver_mail(runtime, compose(FRANCE, seat_address(runtime, game_id, "france"), "NODRAW"))
    assert turn_played(runtime, game_id) == (0, "start")
    deliver_mail(runtime, compose(SPAIN, spain, "4-3\n9-14"))
    assert turn_played(runtime, game_id) == (1, "all-submitted")
