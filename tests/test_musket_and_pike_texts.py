"""What players read of Musket & Pike states the rules the engine applies: the first-wing choice
(4.1.1 and 4.1.2), the one-interruption-at-a-time house rule, and the rule that decides a battle
whose last turn ends with both armies in the field, which is the scenario's (data). Changing that
rule in a scenario changes the help page, the HELP mail, the opening mail, the final report and
the outcome together."""

from __future__ import annotations

import html
import re
from dataclasses import replace

import pytest
from playbymail import compose, deliver_mail, sent, sent_count, text_of
from sqlalchemy import select

from adjudicator.games.musket_and_pike import game as game_module
from adjudicator.games.musket_and_pike.data import LAST_TURN_WORDS
from adjudicator.games.musket_and_pike.scenario import Scenario, scenario
from adjudicator.games.registry import get
from adjudicator.models import Game
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

GM, ROYALIST, PARLIAMENT = "gm@example.com", "hopton@example.com", "ruthin@example.com"
RULES = get("musketpike")


def flat(text: str) -> str:
    """Text with its line wrapping undone, so a wrapped sentence is found whole."""
    return re.sub(r"\s+", " ", text.replace("\r\n", "\n"))


def test_the_help_states_the_first_wing_rule_of_both_branches() -> None:
    assert RULES is not None
    text = flat(RULES.help_text())
    assert "wins and opens with any of its wings, whatever order that wing holds" in text
    assert "opens with one of its wings holding that order" in text
    assert "(a wing holding the senior order)" not in text


def test_the_help_says_where_pre_emption_is_explained_that_one_interruption_waits() -> None:
    assert RULES is not None
    text = RULES.help_text()
    at = text.index("NO PREEMPT")
    assert "no pre-emption may be tried" in flat(text[at : at + 400])


@pytest.mark.parametrize("rule", ["draw", "fewer_losses"])
def test_every_text_states_the_scenarios_rule_after_the_last_turn(
    runtime: Runtime, monkeypatch: pytest.MonkeyPatch, rule: str
) -> None:
    assert RULES is not None
    packaged = scenario

    def changed(ident: str) -> Scenario:
        battle = packaged(ident)
        return replace(battle, last_turn_rule=rule)

    monkeypatch.setattr(game_module, "scenario", changed)
    words = LAST_TURN_WORDS[rule]
    others = [w for r, w in LAST_TURN_WORDS.items() if r != rule]

    # The web help page gives each scenario's rule: each one offered to players (the test
    # scenario is not).
    page = flat(html.unescape(create_app(runtime).test_client().get("/help/musketpike").text))
    assert f"{packaged('braddock-down').title}: {words}." in page, page
    assert "Skirmish" not in page

    # The opening mail of a skirmish gives this game's rule, and no other.
    body = f"NEW MUSKETPIKE scenario=skirmish\nROYALIST {ROYALIST}\nPARLIAMENT {PARLIAMENT}\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    for address in (ROYALIST, PARLIAMENT):
        invite = next(m for m in reversed(sent(runtime)) if str(m["To"]) == address)
        before = sent_count(runtime)
        deliver_mail(runtime, compose(address, str(invite["Reply-To"]), "JOIN"))
    opening = flat(next(text_of(m) for m in sent(runtime, before) if str(m["To"]) == address))
    assert f"still in the field, {words}." in opening
    assert not any(other in opening for other in others)
    address = next(str(m["Reply-To"]) for m in reversed(sent(runtime)) if str(m["To"]) == ROYALIST)

    # So does the HELP mail.
    before = sent_count(runtime)
    deliver_mail(runtime, compose(ROYALIST, address, "HELP"))
    helped = flat(text_of(sent(runtime, before)[0]))
    assert f"still in the field, {words}." in helped
    assert not any(other in helped for other in others)

    # The last turn ends with royalist having lost the smaller share: the engine applies the
    # scenario's rule, and the final report says which rule decided.
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        latest = play.latest_turn(session, game.id)
        position = RULES.load(latest.state)
        latest.state = RULES.dump(
            replace(
                position,
                turn=position.last_turn,
                phase="activation",
                step="activate",
                active="royalist",
                passes=1,
                initiative="royalist",
                lost_sp=(("royalist", 1), ("parliament", 4)),
            )
        )
        game_id = game.id
    before = sent_count(runtime)
    deliver_mail(runtime, compose(ROYALIST, address, "PASS"))
    final = {str(m["To"]): flat(text_of(m)) for m in sent(runtime, before)}
    with runtime.db.session() as session:
        ended = session.get_one(Game, game_id)
        assert ended.status == "finished"
        result = ended.result or ""
    if rule == "draw":
        assert result.startswith("No winner"), result
    else:
        assert result.startswith("Royalists win"), result
    assert f"after it {words}" in result
    for text in final.values():
        assert f"after it {words}" in text, text
