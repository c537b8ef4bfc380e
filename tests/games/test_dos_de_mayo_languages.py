"""2 de Mayo in Spanish and Russian: the position, the prompts, the receipts and a resolved turn
read with no English sentence left (names aside), Russian plurals in their three forms, the order
words of each language read as the same canonical orders, and the help in each language. The
service holds ``i18n.speaking`` around each reader's mail; these tests do the same."""

from __future__ import annotations

import re
from typing import Any

import pytest

from adjudicator import i18n
from adjudicator.core import said
from adjudicator.core.chance import Chance
from adjudicator.core.contract import LineStatus, OrderReport, Resolution
from adjudicator.games.dos_de_mayo import GAME
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.codec import read_position
from adjudicator.games.dos_de_mayo.state import Position
from adjudicator.services.record import play

REJECTED = LineStatus.REJECTED

# Sentences and words of the English text: none may be left in a Spanish or Russian one.
ENGLISH = (
    "Turn ",
    " of 10",
    "in play",
    "Losses",
    "limit",
    "Initiative",
    "initiative",
    "Units on the map",
    "gate",
    "main street",
    "contested",
    "reinforcements",
    "Set aside",
    "Cards",
    "Hands",
    "hand",
    " card",
    "orders",
    "One order per line",
    "groups",
    "without",
    " hold",
    "is not",
    "did you mean",
    "there is no",
    "needs",
    "if you do not say",
    "next turn",
    "units",
    " unit",
    "moved",
    "draw",
    "refused",
    "strength",
    "effect",
    "taken",
    "deck",
    "shuffled",
    "which of",
    "empty",
    "none",
    "Last turn",
    "Combats",
    "against",
    " lost",
    "wins",
    "Game over",
    "Removed",
    "already",
    "only",
    "fight",
    "head-on",
    "the ",
    " and ",
)
# Latin words a Russian text may hold: the seat names, the canonical order keywords and the
# game's own name (card and area names are taken out before looking).
LATIN_IN_RUSSIAN = {"TAKE", "PLAY", "DRAW", "NODRAW", "ADD", "HOLD", "ENTER"}
LATIN_IN_RUSSIAN |= {"de", "Mayo", "OFF", "HELP", "xN", "Murat"}


def position(**data: Any) -> Position:
    read = read_position({"turn": 4, **data})
    assert not isinstance(read, list), read
    return read


MIDGAME = position(
    areas={"16": [3, 0], "14": [1, 1], "1": [2, 0], "6": [2, 0], "9": [0, 2], "4": [0, 1]},
    off_map={"OFF1": 5, "OFF6": 5},
    hands={"france": ["F-MAM", "F-COR"], "spain": ["S-BAR", "S-RIS", "S-MAN"]},
    in_play=["F-ART"],
)
START = GAME.new_game(GAME.option_defaults(), Chance(b"d" * 32, "t", 0))
# Lines that are each refused for a reason of their own.
REFUSED = "\n".join(
    (
        "PLAY BOGUS",
        "9-99",
        "16-10",
        "14-9",
        "PLAY CURFEW 9",
        "PLAY MAMELUKES 16-14",
        "TAKE MURAT",
        "hodl 14",
        "16-12 x9",
        "PLAY MAMELUKES 16-14-9",
        "PLAY RISE 3",
        "HOLD 21",
        "9-14 x1",
        "OFF1-2",
        "ARTILLERY",
        "5",
    )
)


def names() -> list[str]:
    """Every proper name a text may hold, longest first (so "Calle Mayor" goes before "Mayor")."""
    found = set(board().names.values()) | {"Monteleón", "Daoíz"}  # short names
    for card in card_data().cards:
        found |= {card.en, card.es, card.keyword}
    return sorted(found, key=len, reverse=True)


def unnamed(text: str) -> str:
    for name in names():
        text = text.replace(name, "")
    return text


def english_left(text: str) -> list[str]:
    """The English fragments of ``text`` once its proper names are taken out."""
    plain = unnamed(text)
    return [fragment for fragment in ENGLISH if fragment in plain]


def latin_left(text: str) -> list[str]:
    """Latin words of a Russian ``text`` that are no name, nor the player's own words quoted:
    English left untranslated."""
    words = re.findall(r"[A-Za-z]{2,}", re.sub(r"'[^']*'", "", unnamed(text)))
    return sorted({word for word in words if word not in LATIN_IN_RUSSIAN})


def no_english(text: str, lang: str) -> None:
    assert english_left(text) == [], (english_left(text), text)
    if lang == "ru":
        assert latin_left(text) == [], (latin_left(text), text)
        assert re.search("[а-я]", text), text


def resolved() -> tuple[Position, Resolution[Position]]:
    """A turn with moves, a card played, a head-on swap, combats and draws, resolved in
    English (as the service resolves it, whoever reads it later)."""
    state = MIDGAME
    france = GAME.parse_orders(state, "france", "PLAY CUIRASSIERS 14\n16-14 x2\nARTILLERY 14\n1-10")
    spain = GAME.parse_orders(state, "spain", "PLAY MANOLAS 14\n9-14\n4-3\nNODRAW")
    assert france.ok and spain.ok, (france.lines, spain.lines)
    orders = {"france": france.orders, "spain": spain.orders}
    return state, GAME.resolve(state, orders, Chance(b"r" * 32, "t", 4))


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_the_position_in_words_has_no_english_left(lang: str) -> None:
    _, resolution = resolved()
    with i18n.speaking(lang):
        for state in (START, MIDGAME, resolution.state):
            for seat in ("france", "spain", None):
                no_english(GAME.describe(GAME.view(state, seat)), lang)
            no_english(GAME.outcome(state).summary, lang)


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_prompts_and_the_order_forms_have_no_english_left(lang: str) -> None:
    with i18n.speaking(lang):
        for state in (START, MIDGAME):
            for decision in GAME.pending(state).values():
                no_english(decision.prompt, lang)
                sentences = [form for form in decision.legal if form.startswith("(")]
                for sentence in sentences:
                    no_english(sentence, lang)
    with i18n.speaking("ru"):
        prompt = GAME.pending(START)["france"].prompt
    # The sides by their Russian names, never declined: in the nominative after a noun.
    assert "Ход 1 из 10: приказы стороны Франция." in prompt
    assert "Потери: Франция 0 (предел 4), Испания 0; инициатива: Испания." in prompt
    assert "TAKE ARTILLERY или TAKE MURAT" in prompt
    with i18n.speaking("es"):
        prompt = GAME.pending(START)["spain"].prompt
    assert "órdenes de España" in prompt and "Francia 0" in prompt


def receipt(text: str, seat: str = "france", state: Position = MIDGAME) -> OrderReport:
    return GAME.parse_orders(state, seat, text)


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_receipt_with_rejected_lines_has_no_english_left(lang: str) -> None:
    with i18n.speaking(lang):
        for seat in ("france", "spain"):
            report = receipt(REFUSED, seat)
            refused = [line for line in report.lines if line.status is REJECTED]
            assert len(refused) >= 10
            for line in refused:
                no_english(line.reason or "", lang)
                # A suggestion may be an order alone ("OFF1-1", "9-14"): canonical, not words.
                if line.suggestion and re.search("[a-zа-я]", line.suggestion):
                    no_english(line.suggestion, lang)
            for note in report.missing:
                no_english(note, lang)
        start = receipt("9-14", "france", START)
        for note in start.missing:
            no_english(note, lang)


def test_a_receipt_made_in_english_is_written_anew_for_each_reader() -> None:
    report = receipt(REFUSED)  # parsed outside any reader's mail: English
    reasons = [line.reason for line in report.rejected]
    assert "'bogus' is not a card name" in reasons
    suggestions = [line.suggestion for line in report.rejected]
    with i18n.speaking("ru"):
        again = [said.anew(reason) for reason in reasons]
        assert "'bogus' — не название карты" in again
        assert "может быть, вы имели в виду 16-8?" in [said.anew(s) for s in suggestions]
        for text in again + [said.anew(note) for note in report.missing]:
            no_english(text, "ru")
    with i18n.speaking("es"):
        assert "'bogus' no es un nombre de carta" in [said.anew(r) for r in reasons]
        prompt = said.anew(GAME.pending(START)["spain"].prompt)
        assert prompt.startswith("Turno 1 de 10: órdenes de España.")


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_a_resolved_turn_reads_in_the_readers_language(lang: str) -> None:
    _, resolution = resolved()
    details = [outcome.detail for outcome in resolution.outcomes]
    assert "2 units moved" in details  # made in English, as the turn was resolved
    with i18n.speaking(lang):
        for detail in details:
            no_english(said.anew(detail), lang)
        for event in resolution.events:
            no_english(GAME.chance_words(event.label), lang)
        no_english(GAME.chance_words("f-col-discard"), lang)
        assert GAME.step_report(resolution.facts) == ""  # the outcomes and position say it all
    with i18n.speaking("ru"):
        assert "2 отряда передвинуты" in [said.anew(detail) for detail in details]


def test_the_end_of_the_game_reads_in_the_readers_language() -> None:
    over = position(
        turn=10, areas={"1": [1, 0], "6": [1, 0], "16": [1, 0], "9": [0, 1], "20": [0, 0]}
    )
    orders = {seat: GAME.default_orders(over, seat) for seat in GAME.pending(over)}
    resolution = GAME.resolve(over, orders, Chance(b"e" * 32, "t", 10))
    outcome = GAME.outcome(resolution.state)
    assert outcome.finished and outcome.summary.startswith("Spain holds out after turn 10")
    for lang in ("es", "ru"):
        with i18n.speaking(lang):
            no_english(said.anew(outcome.summary), lang)
            no_english(said.anew(resolution.facts["end"]["sentence"]), lang)
            no_english(GAME.describe(GAME.view(resolution.state, None)), lang)
    with i18n.speaking("ru"):
        again = said.anew(outcome.summary)
    assert "Испания выстояла после хода 10: 1 испанский отряд ещё на карте" in again


@pytest.mark.parametrize(
    ("count", "cards", "moved"),
    [
        (1, "1 карта", "1 отряд передвинут"),
        (3, "3 карты", "3 отряда передвинуты"),
        (5, "5 карт", "5 отрядов передвинуты"),
        (21, "21 карта", "21 отряд передвинут"),
        (12, "12 карт", "12 отрядов передвинуты"),
    ],
)
def test_russian_plurals_take_their_three_forms(count: int, cards: str, moved: str) -> None:
    view = GAME.view(MIDGAME, None)
    view["hand_sizes"] = {"france": count, "spain": count}
    with i18n.speaking("ru"):
        assert f"На руках: Франция {cards}, Испания {cards}." in GAME.describe(view)
        assert said.ngettext("%(num)s unit moved", "%(num)s units moved", count) == moved
    with i18n.speaking("es"):
        hands = "1 carta" if count == 1 else f"{count} cartas"
        assert f"Manos: Francia {hands}, España {hands}." in GAME.describe(view)


# The same orders in English, Spanish (with and without accents) and Russian (any case).
SAME_ORDERS = [
    (
        "france",
        "PLAY MAMELUKES 16-12-17 x2\nARTILLERY 14\n1-10\nNODRAW",
        "jugar mamelucos 16-12-17 x2\nartillería 14\nmover 1-10\nno robar",
        "ИГРАТЬ MAMELUKES 16-12-17 x2\nARTILLERY 14\nдвигать 1-10\nНЕ ТЯНУТЬ",
    ),
    (
        "france",
        "PLAY CUIRASSIERS 14\n16-14 x1\nHOLD 6\nDRAW",
        "Jugar coraceros 14\n16-14 1 unidad\nMANTENER 6\nROBAR",
        "играть cuirassiers 14\n16-14 1 отряд\nдержать 6\nТянуть карту",
    ),
    (
        "france",
        "ADD\nENTER 1 x5\nNODRAW",
        "AÑADIR\nENTRAR 1 x5\nNOROBAR",
        "ДОБАВИТЬ\nввести 1 x5\nнедобор",
    ),
    (
        "spain",
        "PLAY RISE 9\n9-14 x1\n9-8 x1\nDRAW",
        "JUEGO levantamiento 9\n9-14 1 soldado\n9-8 x1\nroba",
        "разыграть RISE 9\n9-14 1 солдат\n9-8 x1\nдобор",
    ),
    ("spain", "ADD\nHOLD 9\nDRAW", "anadir\nquieto 9\nrobar una carta", "добавить\nстоять 9\nтяну"),
]


@pytest.mark.parametrize(("seat", "english", "spanish", "russian"), SAME_ORDERS)
def test_spanish_and_russian_order_words_read_as_the_canonical_orders(
    seat: str, english: str, spanish: str, russian: str
) -> None:
    wanted = receipt(english, seat)
    assert wanted.ok, wanted.lines
    for text in (spanish, russian):
        for lang in ("en", "es", "ru"):  # whatever the language of whoever writes them
            with i18n.speaking(lang):
                got = receipt(text, seat)
            assert got.ok and got.orders == wanted.orders, (text, got.lines)
            # The receipt echoes the canonical form, which the other side and the archive read.
            assert [line.canonical for line in got.lines] == [
                line.canonical for line in wanted.lines
            ]


def test_turn_one_start_card_in_each_language() -> None:
    english = receipt("TAKE MURAT\nDRAW", "france", START)
    for text in ("tomar murat\nrobar", "ВЗЯТЬ MURAT\nТЯНУТЬ", "Elijo Mariscal Murat\nroba"):
        got = receipt(text, "france", START)
        assert got.orders == english.orders and got.lines[0].canonical == "TAKE MURAT", text


def test_a_line_that_only_looks_like_an_order_word_is_still_chat() -> None:
    report = receipt("Hola Murat\nпривет всем\nigual mañana\n9-14")
    assert [line.status for line in report.lines][:3] == [LineStatus.IGNORED] * 3


def test_english_stays_as_it_was() -> None:
    prompt = GAME.pending(START)["france"].prompt
    assert prompt.startswith("Turn 1 of 10: France's orders. Losses France 0 (limit 4), Spain 0;")
    assert "(your start card: TAKE ARTILLERY or TAKE MURAT)" in prompt
    report = receipt("9-99\n16-10")
    assert [line.suggestion for line in report.rejected] == [
        "did you mean 15?",
        "did you mean 16-8?",
    ]
    assert "HOLD 9" in GAME.help_text() and "ORDERS BY MAIL" in GAME.help_text()
    assert "ИГРАТЬ" not in GAME.help_text()


@pytest.mark.parametrize(
    ("lang", "words", "names"),
    [
        ("es", "PLAY     JUGAR", "conservan sus nombres originales en español"),
        ("ru", "PLAY     ИГРАТЬ", "сохраняют свои исходные испанские названия"),
    ],
)
def test_the_help_is_in_the_readers_language(lang: str, words: str, names: str) -> None:
    with i18n.speaking(lang):
        text = GAME.help_text()
        page = GAME.page_help_text()
        cards = GAME.card_texts()
    assert words in text and names in text and "MAMELUKES" in text
    assert "ORDERS BY MAIL" not in text and "Start option" not in text
    assert "Every card is in the table" not in page
    for card in cards:
        no_english(card.when, lang)
        no_english(card.text, lang)


def test_the_map_is_drawn_in_the_current_language_and_stored_in_english() -> None:
    # The map's words are its reader's; the one picture stored with a turn, which every
    # English reader and the archive share, is drawn in English whoever's mail made the turn.
    _, resolution = resolved()
    view = GAME.view(resolution.state, None)
    english = GAME.render(view, resolution.facts)
    with i18n.speaking("ru"):
        assert GAME.render(view, resolution.facts) != english
        assert play.public_picture(GAME, resolution.state) == english


def test_an_add_in_any_language_joins_the_set_on_file() -> None:
    for add in ("ADD", "add", "AÑADIR", "anadir", "ДОБАВИТЬ"):
        joined = GAME.joined_orders({"add": True}, [add, "9-14"], "16-14 x1")
        assert joined == "16-14 x1\n9-14", add


def test_every_language_gives_every_kind_of_order_word() -> None:
    from adjudicator.games.dos_de_mayo import vocabulary

    for kind, table in vocabulary.tables().items():
        assert set(table) == {"en", "es", "ru"} and all(table.values()), kind
    # Unaccented Spanish and either case of Cyrillic are the same words.
    assert {"anadir", "robar", "играть"} <= vocabulary.every("add") | vocabulary.every(
        "draw"
    ) | vocabulary.every("play")
    assert receipt("ИГРАТЬ cuirassiers 14").orders == receipt("играть CUIRASSIERS 14").orders


def test_each_side_is_named_in_each_language_and_a_stored_sentence_names_it_anew() -> None:
    # sides.toml names both sides in every language the service has a catalog for: a new
    # language without its names there would show English names in its mail.
    for lang in i18n.languages():
        with i18n.speaking(lang):
            shown = {GAME.seat_title(seat) for seat in ("france", "spain")}
        assert len(shown) == 2
        if lang != "en":
            assert not shown & {"France", "Spain"}, (lang, shown)
    # A result made while resolving (in English) names the side again for each reader.
    outcome = GAME.seat_title("spain")
    with i18n.speaking("ru"):
        assert said.anew(outcome) == "Испания"
    with i18n.speaking("es"):
        assert said.anew(outcome) == "España"
    assert outcome == "Spain"
