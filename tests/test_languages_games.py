"""Whole games by mail in the players' own languages, read as a reader would: a 2 de Mayo game
whose France writes in Russian and whose Spain chose Spanish, and a Thermopyles game in Russian,
each player writing their orders with their own language's order words. Every mail either
player gets is checked for English left in it, for the plural forms of its counts, and for the
canonical order echoed back."""

from __future__ import annotations

import random
import re
import tomllib
from datetime import timedelta
from email.message import EmailMessage
from html import unescape
from pathlib import Path

import pytest
from dos_de_mayo_by_mail import DOS, position
from playbymail import compose, deliver_mail, drain, reply_addresses, sent, text_of
from sqlalchemy import select

from adjudicator import i18n
from adjudicator.core import picture
from adjudicator.core.chance import Chance
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.thermopyles import GAME, strategy
from adjudicator.models import Game, Player
from adjudicator.services.record import play, positions
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines
from adjudicator.statuses import GameStatus

GAMES = Path(__file__).resolve().parent.parent / "adjudicator" / "games"
FRANCE, SPAIN, GM = "murat@example.com", "daoiz@example.com", "gm@example.com"
LEONIDAS = "leonidas@example.com"

# Words no Russian or Spanish sentence holds, and any English one is all but sure to: one of
# them left in a translated mail is an English sentence left in it. (Upper-case canonical order
# and command words, names, links and addresses hold none of them.)
ENGLISH = frozenset(
    [
        # The sides' English names: a reader of another language reads them in theirs.
        "France",
        "Spain",
        "the",
        "you",
        "your",
        "is",
        "are",
        "was",
        "has",
        "have",
        "will",
        "and",
        "with",
        "for",
        "from",
        "this",
        "that",
        "not",
        "owe",
        "owes",
        "nothing",
        "orders",
        "turn",
        "deadline",
        "until",
        "when",
        "which",
        "there",
        "their",
        "its",
        "be",
        "by",
        "on",
        "at",
        "of",
        "to",
    ]
)
# Links, addresses, digests; and an option as the game master writes it on NEW
# (win_when=deck-empty), a code like a command word, shown as written beside its meaning.
LINK = re.compile(r"(https?://|mailto:)\S+|\S+@\S+|\b[0-9a-f]{16,}\b|\b\w+=[\w-]+")
# The cards' English names, where they differ from the Spanish originals a reader of any other
# language is shown ("Mayor of Móstoles" is "Alcalde de Móstoles").
ENGLISH_NAMES = tuple(
    card.en for card in card_data().cards if card.en != card.es and " " in card.en
)


def english_in(text: str) -> list[str]:
    """The English words of ``text``, each with the line it is on."""
    found = []
    for line in text.splitlines():
        plain = LINK.sub(" ", line)
        words = set(re.findall(r"[A-Za-z']+", plain))
        if words & ENGLISH:
            found.append(f"{sorted(words & ENGLISH)}: {line.strip()}")
    return found


def in_language(code: str, raw: bytes) -> bytes:
    """The mail with the Content-Language header a mail program writes."""
    return f"Content-Language: {code}\n".encode() + raw


def words_of(game: str) -> dict[str, object]:
    with (GAMES / game / "words.toml").open("rb") as data:
        return tomllib.load(data)


def in_words(text: str, table: dict[str, object], lang: str) -> str:
    """An order set as written canonically, its keywords put in ``lang``'s first word for them
    (the other words of a line, numbers and names, are the same in every language)."""
    lines = []
    for line in text.splitlines():
        first, _, rest = line.partition(" ")
        words = table.get(first.lower())
        if isinstance(words, dict) and lang in words:
            first = str(words[lang][0]).upper()
        lines.append(f"{first} {rest}".strip())
    return "\n".join(lines)


def mails_to(runtime: Runtime, address: str, since: int) -> list[EmailMessage]:
    return [mail for mail in sent(runtime)[since:] if str(mail["To"]) == address]


def read_as(runtime: Runtime, address: str, since: int, lang: str) -> list[str]:
    """Every mail to ``address`` since ``since``, checked as its reader reads it: the Subject,
    the text part and the HTML part's words, none English, the HTML in ``lang``. The texts."""
    texts = []
    for mail in mails_to(runtime, address, since):
        text = text_of(mail)
        html = next(
            str(part.get_content())
            for part in mail.walk()
            if part.get_content_type() == "text/html"
        )
        assert f'<html lang="{lang}">' in html, html[:200]
        body = re.sub(r"<(style|head)>.*?</\1>", " ", html, flags=re.S)
        shown = unescape(re.sub(r"<[^>]+>", " ", body))
        left = english_in(str(mail["Subject"])) + english_in(text) + english_in(shown)
        assert left == [], f"English left in a mail to {address} ({mail['Subject']}):\n" + (
            "\n".join(left[:12])
        )
        texts.append(" ".join(text.split()))
    return texts


# Fixed seeds and the players' own words for the dice: the same games every run.
@pytest.mark.usefixtures("fixed_seeds")
def test_a_2_de_mayo_game_with_france_in_russian_and_spain_in_spanish(runtime: Runtime) -> None:
    body = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    seats = reply_addresses(runtime)
    start = len(sent(runtime))
    # France's mail program says the mail is Russian; Spain chooses Spanish.
    deliver_mail(runtime, in_language("ru", compose(FRANCE, seats[FRANCE], "JOIN aigle")))
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "PREFERENCES LANGUAGE es\nJOIN viva 1808"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        assert game.status == GameStatus.ACTIVE
        game_id = game.id
        languages = {p.address: p.language for p in session.scalars(select(Player))}
    assert languages[FRANCE] == "ru" and languages[SPAIN] == "es"
    address = {"france": seats[FRANCE], "spain": seats[SPAIN]}
    player = {"france": FRANCE, "spain": SPAIN}
    lang = {"france": "ru", "spain": "es"}
    table = words_of("dos_de_mayo")
    choose = random.Random(1808)
    echoed = {"france": 0, "spain": 0}
    for turn in range(12):
        with runtime.db.session() as session:
            if session.get_one(Game, game_id).status != GameStatus.ACTIVE:
                break
        state = position(runtime, game_id)
        for seat in sorted(DOS.pending(state)):
            if turn == 3 and seat == "spain":
                continue  # left to the deadline: a reminder, then the default is played
            canonical = DOS.orders_text(choose.choice(list(DOS.legal_orders(state, seat))))
            assert canonical is not None
            written = in_words(canonical, table, lang[seat])
            before = len(sent(runtime))
            deliver_mail(runtime, compose(player[seat], address[seat], written))
            receipt = " ".join(text_of(mails_to(runtime, player[seat], before)[0]).split())
            # Written in the player's words, echoed in the canonical ones everyone reads.
            keyword = canonical.splitlines()[0].split()[0]
            if keyword.isalpha() and written.split()[0] != keyword:
                assert keyword in receipt, receipt
                echoed[seat] += 1
        with runtime.db.session() as session:
            deadline = session.get_one(Game, game_id).deadline
        if deadline is not None and turn == 3:
            deadlines.send_reminders(runtime, deadline - timedelta(minutes=30))
            deadlines.adjudicate(runtime, game_id, now=deadline + timedelta(seconds=1))
            drain(runtime)
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).status == GameStatus.FINISHED
    assert echoed["france"] and echoed["spain"]

    russian = read_as(runtime, FRANCE, start, "ru")
    spanish = read_as(runtime, SPAIN, start, "es")
    everything = " ".join(russian)
    todo = " ".join(spanish)
    # The ask first, the results, the position; and the last mail says how it ended.
    assert "Пришлите приказы на ход" in everything and "Debes enviar tus órdenes" in todo
    assert re.search(r"через 48 часов|через 2 дня", everything), everything[:3000]
    assert "Puerta del Sol" in everything or "Palacio Real" in everything  # names stay
    # Cards by their Spanish names, in both languages.
    assert [name for name in ENGLISH_NAMES if name in everything + todo] == []
    spanish_names = [card.es for card in card_data().cards if card.en != card.es]
    assert any(name in everything for name in spanish_names)
    assert "José Blas Molina y Soriano" in todo  # Spain's start card
    assert any("окончена" in text or "закончилась" in text for text in russian[-2:])
    assert any("terminado" in text or "acabado" in text for text in spanish[-2:])


@pytest.mark.usefixtures("fixed_seeds")
def test_a_thermopyles_game_in_russian(runtime: Runtime) -> None:
    first = compose(LEONIDAS, "new@pbem.localhost", "NEW THERMOPYLES молон лабе")
    deliver_mail(runtime, in_language("ru-RU", first))
    with runtime.db.session() as session:
        game = session.scalars(select(Game).order_by(Game.id.desc())).one()
        game_id, address = game.id, play.seat_address(runtime, game, game.seats[0])
    table = words_of("thermopyles")
    keywords = {**table["keywords"], "support": table["support"]}  # type: ignore[dict-item]
    with picture.recording() as drawn:
        for _ in range(80):
            now = position(runtime, game_id)
            if now.over:
                break
            canonical = strategy.choose(now).text()
            written = " ".join(
                str(keywords[word.lower()]["ru"][0]).upper()  # type: ignore[index]
                if word.lower() in keywords
                else word
                for word in canonical.split()
            )
            deliver_mail(runtime, compose(LEONIDAS, address, written))
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).status == GameStatus.FINISHED
    texts = read_as(runtime, LEONIDAS, 0, "ru")
    assert len(texts) > 10
    assert "Ваша партия в Thermopyles началась" in texts[0], texts[0]
    assert "«молон лабе»" in texts[0]  # the player's words for the dice
    everything = " ".join(texts)
    # Russian counts in their three forms, wherever the reports say them.
    assert re.search(r"\b1 карт[ау]\b|\b21 карт[ау]\b", everything) or "карта" in everything
    assert "FIGHT" in everything  # every report echoes the canonical order
    # The pictures in the player's mails are drawn in Russian too: their hand's title and the
    # result panel (the public picture the archive stores is drawn once for every reader).
    pictures = [part for mail in mails_to(runtime, LEONIDAS, 0) for part in mail.walk()]
    assert any(part.get_content_type() == "image/png" for part in pictures)
    texts_drawn = {d.text for d in drawn}
    assert any(text.startswith("Ваша рука: ") for text in texts_drawn), texts_drawn
    assert any(text.startswith("Ход ") for text in texts_drawn), texts_drawn
    assert not any(text.startswith(("Your hand", "Turn ")) for text in texts_drawn)


def test_a_seats_picture_is_kept_for_each_language_its_readers_read() -> None:
    """A seat's picture of a position is drawn once per process, and once per language."""
    view = GAME.view(GAME.new_game({}, Chance(b"kept", "languages", 0)), "spartans")
    whose = (-1, "spartans")  # a turn no database holds: this test's own entry
    with i18n.speaking("ru"):
        russian = positions._render(GAME, view, None, whose)
    english = positions._render(GAME, view, None, whose)
    with i18n.speaking("ru"):
        assert positions._render(GAME, view, None, whose) == russian
    assert english == GAME.render(view, None) != russian
