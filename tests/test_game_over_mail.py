"""The mail that ends a game reads as an ending: the result in words (never an internal code such
as "spain-holds"), no prompt to reply with orders, and the dice checked on the web verifier (a
player cannot run the server's own command). Through the real pipeline, on SQLite and
PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from playbymail import drain, sent, sent_count, text_of
from test_operations import FRANCE, SPAIN, start_2demayo

from adjudicator.games.registry import get
from adjudicator.models import Game
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines


def test_the_last_turns_mail_says_the_game_is_over_in_words(runtime: Runtime) -> None:
    rules = get("2demayo")
    assert rules is not None
    game_id = start_2demayo(runtime)
    drain(runtime)
    with runtime.db.session() as session:
        latest = play.latest_turn(session, game_id)
        # The same position on the last turn (the stored form numbers the turn before it too).
        latest.state = {**latest.state, "turn": 10, "last_turn": 9}
        deadline = session.get_one(Game, game_id).deadline
    assert deadline is not None
    before = sent_count(runtime)
    done = deadlines.adjudicate(runtime, game_id, now=deadline + timedelta(seconds=1))
    assert isinstance(done, deadlines.Adjudicated)
    drain(runtime)
    final = {str(m["To"]): text_of(m).replace("\r\n", "\n") for m in sent(runtime, before)}
    assert set(final) >= {FRANCE, SPAIN}
    for address in (FRANCE, SPAIN):
        text = final[address]
        assert "Spain holds Madrid" in text, text
        assert "spain-holds" not in text and "spain holds)" not in text
        assert "Reply to this mail" not in text and "This game is over" in text
        assert "pbem verify" not in text and f"/games/{game_id}/verify" in text
