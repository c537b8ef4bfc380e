"""Chat is never a failed order: greetings, sign-offs and prose (in Spanish, English, French,
German, Italian, Portuguese and Russian, and sentences that begin or end with numbers) are read as
"not an order" and ignored in every game, and the orders beside them are accepted."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.core.chance import Chance
from adjudicator.core.contract import LineStatus
from adjudicator.games.dos_de_mayo import GAME as DOS_DE_MAYO
from adjudicator.games.musket_and_pike.game import MusketAndPike
from adjudicator.games.thermopyles import GAME as THERMOPYLES

GREETINGS = {
    "es": [
        "Hola,",
        "¡Hola Murat!",
        "Buenas tardes",
        "Saludos",
        "Un abrazo",
        "Gracias",
        "Hasta luego",
    ],
    "en": ["Hi,", "Hello there", "Hey Murat", "Cheers", "Thanks!", "Best regards", "Good luck"],
    "fr": ["Bonjour,", "Salut", "Merci", "Cordialement", "Bonne chance", "À bientôt"],
    "de": ["Hallo,", "Guten Tag", "Tschüss", "Viele Grüße", "Danke", "Mit freundlichen Grüßen"],
    "it": ["Ciao,", "Buongiorno", "Grazie", "Saluti", "A presto", "Cordiali saluti"],
    "pt": ["Olá,", "Oi", "Obrigado", "Abraços", "Tchau", "Até logo"],
    "ru": ["Привет,", "Здравствуйте", "Спасибо", "Удачи", "С уважением", "Пока"],
}
PROSE = [
    "Hi Murat, I will move to 10-15",
    "10-15 is where I will go next",
    "3 cheers for the King",
    "See you on turn 4",
    "I played 2 cards last turn",
    "PS: 12 units is a lot",
    "Hold on a second",
    "Play nice!",
    "Take care",
    "Move fast, Murat",
    "Draw your own conclusions",
    "Retreat is not an option",
    "Fight well",
    "Stop it",
    "Pass the salt",
    "First of all, hi",
    "No worries",
    "Default is fine by me",
    "Orders are in the mail",
]
CHAT = [line for lines in GREETINGS.values() for line in lines] + PROSE

MUSKET_AND_PIKE = MusketAndPike()
TABLES: dict[str, tuple[Any, Any, str, str]] = {
    # game, its opening position, the seat, and one valid order for that seat there
    "dos_de_mayo": (
        DOS_DE_MAYO,
        DOS_DE_MAYO.new_game({"setup": "seed", "half_stays": "floor"}, Chance(b"c", "t", 0)),
        "spain",
        "4-3",
    ),
    "thermopyles": (
        THERMOPYLES,
        THERMOPYLES.new_game({}, Chance(b"c", "t", 0)),
        "spartans",
        "RETREAT",
    ),
    "musket_and_pike": (
        MUSKET_AND_PIKE,
        MUSKET_AND_PIKE.new_game(
            {"scenario": "skirmish", "decision_hours": "24"}, Chance(b"c", "t", 0)
        ),
        "royalist",
        "ORDERS R-A=charge R-B=make ready",
    ),
}


@pytest.mark.parametrize("game", sorted(TABLES))
@pytest.mark.parametrize("line", CHAT)
def test_a_line_of_chat_is_ignored(game: str, line: str) -> None:
    rules, state, seat, _ = TABLES[game]
    report = rules.parse_orders(state, seat, line)
    assert [entry.status for entry in report.lines] == [LineStatus.IGNORED], report.lines


@pytest.mark.parametrize("game", sorted(TABLES))
@pytest.mark.parametrize("language", sorted(GREETINGS))
def test_orders_between_a_greeting_and_a_sign_off_are_accepted(game: str, language: str) -> None:
    rules, state, seat, order = TABLES[game]
    greeting, *_, sign_off = GREETINGS[language]
    report = rules.parse_orders(state, seat, f"{greeting}\n\n{order}\n\n{sign_off}")
    assert report.ok, [(entry.text, entry.status, entry.reason) for entry in report.lines]
    statuses = [entry.status for entry in report.lines]
    assert statuses == [LineStatus.IGNORED, LineStatus.ACCEPTED, LineStatus.IGNORED]


@pytest.mark.parametrize(
    ("game", "line"),
    [
        ("dos_de_mayo", "hodl 4"),
        ("dos_de_mayo", "plya molina 10"),
        ("dos_de_mayo", "4-99"),
        ("thermopyles", "fihgt 11"),
        ("thermopyles", "17"),
        ("musket_and_pike", "R-A chrage"),
        ("musket_and_pike", "standing premept never"),
    ],
)
def test_a_misspelt_order_is_still_an_attempt_with_a_reason(game: str, line: str) -> None:
    rules, state, seat, _ = TABLES[game]
    report = rules.parse_orders(state, seat, line)
    assert [entry.status for entry in report.lines] == [LineStatus.REJECTED], report.lines
    assert report.lines[0].reason
