"""A game's options as a game master reads them, in their language: HELP lists each game's
options (key, choices, default) with what each does, and the web help page's table of options
says the same, in Russian and Spanish as in English; 2 de Mayo's setups are described in each
language by board.toml, which refuses a setup missing one."""

from __future__ import annotations

import html
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from playbymail import compose, deliver_mail
from test_languages import in_language, last_to

from adjudicator import i18n
from adjudicator.core import datafile, said
from adjudicator.games import registry
from adjudicator.games.dos_de_mayo import board
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

GAMES = ("2demayo", "musketpike", "thermopyles")


def described(key: str, lang: str) -> list[str]:
    """Each option's description of a game in ``lang``."""
    rules = registry.get(key)
    assert rules is not None and rules.options
    with i18n.speaking(lang):
        return [str(said.anew(option.help)) for option in rules.options]


def test_the_options_are_described_in_each_language() -> None:
    for key in GAMES:
        english = described(key, "en")
        for lang in ("ru", "es"):
            # Every description reads otherwise than in English (words, not just names).
            assert all(a != b for a, b in zip(described(key, lang), english, strict=True)), key
    setup = described("2demayo", "ru")[0]
    assert setup.startswith("где начинает Франция. seed: исходная расстановка"), setup
    assert "alt: опубликованный вариант" in setup
    assert described("musketpike", "es")[0].startswith("la batalla: braddock-down: ")
    assert "(10 turnos)" in described("musketpike", "es")[0]
    assert described("thermopyles", "ru")[0].endswith("все 28 персидских карт.")


def test_help_lists_the_options_in_the_senders_language(runtime: Runtime) -> None:
    deliver_mail(runtime, compose("ivan@example.com", "help@pbem.localhost", "ПОМОЩЬ"))
    text, page = last_to(runtime, "ivan@example.com")
    assert "ПАРАМЕТРЫ (их задаёт ведущий, в строке NEW: NEW 2DEMAYO параметр=значение)" in text
    assert "half_stays=floor|ceil (по умолчанию floor):" in text, text
    assert "Параметры (их задаёт ведущий" in page
    for key in GAMES:
        for russian, english in zip(described(key, "ru"), described(key, "en"), strict=True):
            # The text part wraps a long line; read as one.
            assert russian in text, (russian, text)
            assert html.escape(russian, quote=False) in page
            assert english not in text and html.escape(english, quote=False) not in page

    mail = in_language("es-ES", compose("ana@example.com", "help@pbem.localhost", "AYUDA 2demayo"))
    deliver_mail(runtime, mail)
    text, _page = last_to(runtime, "ana@example.com")
    assert "OPCIONES (del director de juego" in text
    assert all(spanish in text for spanish in described("2demayo", "es")), text
    assert "Thermopyles" not in text  # one game's help only

    deliver_mail(runtime, compose("jo@example.com", "help@pbem.localhost", "HELP"))
    text, _page = last_to(runtime, "jo@example.com")
    assert "OPTIONS (a game master's, on the NEW line: NEW MUSKETPIKE option=value)" in text
    assert all(english in text for key in GAMES for english in described(key, "en"))


@pytest.mark.parametrize("lang", ["ru", "es"])
def test_the_help_pages_table_of_options_is_in_the_pages_language(
    runtime: Runtime, lang: str
) -> None:
    web = create_app(runtime).test_client()
    for key in GAMES:
        page = html.unescape(web.get(f"/help/{key}?lang={lang}").get_data(as_text=True))
        cells = re.findall(r"<tr><td><code>\w+</code></td>.*?<td>([^<]*)</td></tr>", page)
        assert cells == described(key, lang), (key, cells)
        assert not set(cells) & set(described(key, "en"))


def test_a_setup_without_its_description_in_a_language_is_refused() -> None:
    path = Path(board.__file__).with_name("board.toml")
    raw: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    assert raw["translated"] == [lang for lang in i18n.languages() if lang != i18n.SOURCE]
    assert not isinstance(board.parse_board(raw), list)
    del raw["setups"]["alt"]["help_ru"]
    raw["setups"]["seed"]["help_es"] = " "
    problems = board.parse_board(raw)
    assert isinstance(problems, list)
    assert [(p.code, p.message) for p in problems] == [
        ("missing-translation", "setups.seed.help_es (its es text) is missing"),
        ("missing-translation", "setups.alt.help_ru (its ru text) is missing"),
    ]
    assert isinstance(problems[0], datafile.Problem)
