"""Sentences the archive rebuilds from a turn's stored facts and outcomes read in the page's
language: stored, a ``said.Said`` keeps its message and values (``said.stored``) and is read back
as one (``said.restored``), so a Musket & Pike step's "what changed" and what happened, or a 2 de
Mayo order's result, are written anew on a Russian or Spanish page as in that reader's mail.
Facts stored before, as plain English strings, still show as they are."""

from __future__ import annotations

import html
import json
import random
import re
from dataclasses import replace

from dos_de_mayo_by_mail import play_turn_one, start_dos_de_mayo
from fairness_games import finished_thermopyles
from playbymail import compose, deliver_mail, reply_to, sent, sent_count, text_of
from sqlalchemy import select
from test_archive import play_out
from test_help_pages import LEONIDAS
from test_languages import in_language
from test_musket_and_pike_by_mail import GM, PLAYERS, RULES, owed

from adjudicator import i18n
from adjudicator.core import said
from adjudicator.games import registry
from adjudicator.games.dos_de_mayo.state import PlayRecord, RemovedRecord
from adjudicator.models import Game, Turn
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

# Each player's mail program says their language: the royalist reads Russian, parliament Spanish.
LANGUAGE = {"royalist": "ru", "parliament": "es"}


def test_a_sentence_stored_as_json_is_written_anew_in_each_language() -> None:
    with i18n.speaking("en"):
        made = said._(
            "%(id)s: %(changes)s",
            id="R-HI-1",
            changes=said.joined(
                [
                    said.ngettext(
                        "%(num)s unit action; %(detail)s",
                        "%(num)s unit actions; %(detail)s",
                        3,
                        detail=said._("finished"),
                    ),
                    said.named("Puerta del Sol", en="Sun Gate"),
                ]
            ),
        )
    assert made == "R-HI-1: 3 unit actions; finished; Sun Gate"
    # Through JSON, as a turn's facts are stored, and read back.
    back = said.restored(json.loads(json.dumps(said.stored({"changes": [made], "n": 2}))))
    assert back["changes"] == [made] and back["n"] == 2
    with i18n.speaking("ru"):
        russian = said.anew(back["changes"][0])
    with i18n.speaking("es"):
        spanish = said.anew(back["changes"][0])
    assert russian == "R-HI-1: 3 действия отрядов; завершена; Puerta del Sol", russian
    assert spanish.startswith("R-HI-1: 3 acciones de unidad; "), spanish
    assert spanish.endswith("; Puerta del Sol"), spanish
    # A plain string stored before the form existed reads as it was, in any language.
    with i18n.speaking("ru"):
        assert said.anew(said.restored("R-HI-1: finished")) == "R-HI-1: finished"


def _start(runtime: Runtime) -> tuple[int, dict[str, str]]:
    body = f"NEW MUSKETPIKE scenario=skirmish decision_hours=12\nROYALIST {PLAYERS['royalist']}\n"
    body += f"PARLIAMENT {PLAYERS['parliament']}\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    for seat, address in PLAYERS.items():
        invite = next(m for m in reversed(sent(runtime)) if str(m["To"]) == address)
        joining = compose(address, str(invite["Reply-To"]), "JOIN")
        deliver_mail(runtime, in_language(LANGUAGE[seat], joining))
    with runtime.db.session() as session:
        game_id = session.scalars(select(Game)).one().id
    return game_id, {seat: reply_to(runtime, address) for seat, address in PLAYERS.items()}


def _what_changed(text: str) -> list[str]:
    """The lines under a step report's heading for what changed (its second block)."""
    lines = text.replace("\r\n", "\n").split("\n")
    heads = ("WHAT CHANGED", "ЧТО ИЗМЕНИЛОСЬ", "QUÉ CAMBIÓ")
    start = next(i for i, line in enumerate(lines) if line.strip() in heads)
    block = []
    for line in lines[start + 1 :]:
        if not line.startswith("  ") or not line.strip():
            break
        block.append(line.split("</pre>")[0].strip())
        if "</pre>" in line:  # the report's end on a page
            break
    return block


def test_a_steps_changes_read_on_the_archive_in_the_pages_language(runtime: Runtime) -> None:
    assert RULES is not None
    game_id, addresses = _start(runtime)
    choose = random.Random(3)
    # Play until a step moves units on the map ("what changed" then has a unit line).
    mails: dict[str, str] = {}
    for _ in range(200):
        seats, state = owed(runtime, game_id)
        assert seats, "the battle ended before a unit moved"
        seat = seats[0]
        orders = choose.choice(list(RULES.legal_orders(state, seat)))
        before = sent_count(runtime)
        deliver_mail(runtime, compose(PLAYERS[seat], addresses[seat], RULES.orders_text(orders)))
        mails = {str(m["To"]): text_of(m) for m in sent(runtime, before)}
        with runtime.db.session() as session:
            turn = session.scalars(
                select(Turn).where(Turn.game_id == game_id).order_by(Turn.number.desc())
            ).first()
            assert turn is not None
            number, facts = turn.number, turn.facts
        if any(": " in str(line) and "→" in str(line) for line in facts.get("changes", [])):
            break
    else:
        raise AssertionError("no step changed a unit")
    web = create_app(runtime).test_client()
    english = web.get(f"/games/{game_id}/turns/{number}?lang=en").get_data(as_text=True)
    english_changes = _what_changed(html.unescape(english))
    assert english_changes and all(line in english for line in english_changes)
    for seat, lang in LANGUAGE.items():
        # The reader's own mail, written from the resolution in memory, is the reference.
        mailed = _what_changed(mails[PLAYERS[seat]])
        assert mailed != english_changes, (lang, mailed)
        page = html.unescape(
            web.get(f"/games/{game_id}/turns/{number}?lang={lang}").get_data(as_text=True)
        )
        shown = _what_changed(page)
        assert shown == mailed, (lang, shown, mailed)
        # No line is left in English where its language writes it otherwise.
        assert not set(shown) & (set(english_changes) - set(mailed)), shown

    # Facts stored before sentences kept their form: plain English strings, shown as they are.
    with runtime.db.session() as session:
        turn = session.scalars(
            select(Turn).where(Turn.game_id == game_id, Turn.number == number)
        ).one()
        turn.facts = json.loads(json.dumps(said.restored(turn.facts)))
        assert "said" not in json.dumps(turn.facts)
        session.commit()
    page = html.unescape(web.get(f"/games/{game_id}/turns/{number}?lang=ru").get_data(as_text=True))
    assert _what_changed(page) == english_changes
    assert re.search(r"<h3>[^<]*</h3>\s*<pre class=\"step-report\">", page)


def test_an_orders_result_reads_on_the_archive_in_the_pages_language(runtime: Runtime) -> None:
    # A Thermopyles player whose mail program writes Russian retreats; the result, stored with
    # the turn, is read on the archive's turn page in Russian and Spanish as in the mail.
    first = in_language("ru", compose(LEONIDAS, "new@pbem.localhost", "NEW THERMOPYLES"))
    deliver_mail(runtime, first)
    address = reply_to(runtime, LEONIDAS)
    before = sent_count(runtime)
    deliver_mail(runtime, compose(LEONIDAS, address, "RETREAT"))
    mailed = text_of(sent(runtime, before)[-1])
    with runtime.db.session() as session:
        game_id = session.scalars(select(Game)).one().id
    web = create_app(runtime).test_client()
    results = {}
    for lang in ("en", "ru", "es"):
        page = web.get(f"/games/{game_id}/turns/1?lang={lang}").get_data(as_text=True)
        found = re.search(r"<td><code>RETREAT</code></td><td>([^<]+)</td>", page)
        assert found is not None, page
        results[lang] = html.unescape(found.group(1))
    assert results["en"].startswith("The Spartans fall back to space"), results
    assert results["ru"] != results["en"] and results["ru"] in mailed, (results, mailed)
    assert results["es"] != results["en"] and results["es"].startswith("Los espartanos"), results


def test_how_a_game_ended_reads_in_the_pages_language(runtime: Runtime) -> None:
    # The rules' result is stored with its sentence; the game's page, its turn pages and the
    # list of games write it in their reader's language, as the game-over mail does.
    game_id = finished_thermopyles(runtime)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        english, stored = game.result, game.result_said
        state = play.rules_for(game).load(play.latest_turn(session, game_id).state)
        rules = play.rules_for(game)
        last = play.latest_turn(session, game_id).number
    assert stored is not None and stored["said"] == english
    web = create_app(runtime).test_client()
    for lang in ("ru", "es"):
        with i18n.speaking(lang):
            written = str(rules.outcome(state).summary)  # as the mail writes it
        assert written != english
        for path in (f"/games/{game_id}", f"/games/{game_id}/turns/{last}", "/"):
            page = html.unescape(web.get(f"{path}?lang={lang}").get_data(as_text=True))
            assert written in page, (lang, path)
            assert english not in page, (lang, path)
    # The API, for programs, keeps the English as stored.
    assert web.get(f"/api/games/{game_id}").get_json()["result"] == english
    # A game ended before the sentence was stored reads as stored.
    with runtime.db.session() as session:
        session.get_one(Game, game_id).result_said = None
        session.commit()
    page = html.unescape(web.get(f"/games/{game_id}?lang=ru").get_data(as_text=True))
    assert english in page


def test_the_cards_a_turn_names_read_in_the_pages_language(runtime: Runtime) -> None:
    # 2 de Mayo's records keep each card's English name, and an on-draw card's note in English
    # (the picture draws them): a Russian or Spanish turn page names the cards by their Spanish
    # originals, as its mail does, and writes the note in its language.
    game_id, addresses = start_dos_de_mayo(runtime)
    play_turn_one(runtime, addresses)
    dos = registry.get("2demayo")
    assert dos is not None
    with runtime.db.session() as session:
        turn = session.scalars(select(Turn).where(Turn.game_id == game_id, Turn.number == 1)).one()
        state = dos.load(turn.state)
        last = replace(
            state.last,
            plays=(PlayRecord("F-COL", "france", "drawn; spain discards Shootings"),),
            removed=(RemovedRecord("9", "spain", 1, "Shootings"),),
        )
        turn.state = dos.dump(replace(state, last=last))
        session.commit()
    web = create_app(runtime).test_client()
    pages = {
        lang: html.unescape(web.get(f"/games/{game_id}/turns/1?lang={lang}").get_data(as_text=True))
        for lang in ("en", "ru", "es")
    }
    assert "Collaboration (France, drawn; Spain discards Shootings)" in pages["en"]
    assert "(Shootings)" in pages["en"]
    assert (
        "Colaboración con los franceses (Франция, взята из колоды; "
        "Испания сбрасывает Fusilamientos)" in pages["ru"]
    ), pages["ru"]
    assert "(Fusilamientos)" in pages["ru"] and "(Fusilamientos)" in pages["es"]
    assert "Colaboración con los franceses (Francia, " in pages["es"]
    for lang in ("ru", "es"):
        assert "Collaboration" not in pages[lang] and "Shootings" not in pages[lang]


def test_a_shared_deals_chart_is_told_in_the_pages_language(runtime: Runtime) -> None:
    # The leaderboard chart's words (its alt text) follow the page: Russian for a Russian page.
    for player, fights in (("leonidas@example.com", 40), ("dienekes@example.com", 0)):
        play_out(runtime, player, fights)
    web = create_app(runtime).test_client()
    alts = {}
    for lang in ("en", "ru"):
        page = html.unescape(web.get(f"/challenges/cup?lang={lang}").get_data(as_text=True))
        found = re.search(r'<img src="/challenges/cup/chart.png" alt="([^"]+)"', page)
        assert found is not None, page
        alts[lang] = found.group(1)
    assert alts["en"].startswith("Leaderboard by Persians in the Graveyard: 1. game "), alts
    assert alts["ru"].startswith("Таблица лидеров по показателю «персов на Кладбище»: 1. партия ")
    assert "Сколько завершённых партий достигли каждого значения" in alts["ru"]
    assert not re.search(r"\b(game|won|lost|Leaderboard)\b", alts["ru"]), alts["ru"]
