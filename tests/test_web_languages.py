"""The site in its reader's language: ``?lang=`` (remembered in a cookie), else the browser's
Accept-Language, else English. Every page's own sentences come out in Russian or Spanish, the
page says which (``<html lang>``, Content-Language) and that the answer depends on the request
(Vary), and English is the page as it always was."""

from __future__ import annotations

import html
import re
from functools import cache

import pytest
from dos_de_mayo_by_mail import start_dos_de_mayo
from flask.testing import FlaskClient
from playbymail import compose, deliver_mail, gm_command
from test_archive import played
from test_help_pages import start_thermopyles
from test_languages import extracted
from test_panel import csrf_of, logged_in, post, started
from test_web import new_game
from werkzeug.test import TestResponse

from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines
from adjudicator.web import create_app, csrf

PLACEHOLDER = re.compile(r"%\(\w+\)s")
TAG = re.compile(r"<[^>]+>")
# Words that read the same in every language on these pages (names, commands, formats).
SAME = {"JSON", "Atom", "SHA-256", "pbem", "UTC"}
# Runs of the site's words the games' own sentences hold too (2 de Mayo's "drew a card for the
# next turn"), which the games' catalogs translate: not the page's own text.
GAMES_TOO = {"the next turn"}
# Sentences of each language the pages must hold (one of the page's own and its heading).
SAID = {
    "ru": {"game": "Честность", "turn": "Приказы и результаты", "help": "Как играть по почте"},
    "es": {"game": "Juego limpio", "turn": "Órdenes y resultados", "help": "Cómo jugar por correo"},
}


PAGE_SERVICES = ("adjudicator/services/outbound/asks.py", "adjudicator/services/reading/queries.py")


@cache
def own_sentences() -> list[str]:
    """The English of every sentence the site's templates and code mark, cut at placeholders
    and markup into the runs of words a page shows as they are: none may be left on a page in
    another language."""
    runs: set[str] = set()
    for key, where in extracted().items():
        # The site's own, and the services' sentences its pages show (who the game waits for,
        # a player known by their seat).
        if not where.startswith(("templates/web/", "adjudicator/web/", *PAGE_SERVICES)):
            continue
        for message in [key] if isinstance(key, str) else key:
            for run in PLACEHOLDER.split(TAG.sub("\n", html.unescape(message))):
                for part in run.split("\n"):
                    words = re.findall(r"[A-Za-z][A-Za-z'-]+", part)
                    if len(words) >= 2 and not set(words) <= SAME and part.strip() == part:
                        if part in GAMES_TOO:
                            continue
                        runs.add(part.strip())
    return sorted(runs, key=len, reverse=True)


def visible(page: str) -> str:
    """A page's words as read: tags dropped, entities read, without what the games write
    (their position, syntax and step report in <pre>, taken up by their own catalogs) and the
    order lines and commands in <code>, which are canonical in every language."""
    body = re.sub(r"<(pre|code|script|style)\b.*?</\1>", " ", page, flags=re.S)
    body = re.sub(r'\salt="[^"]*"', " ", body)
    return html.unescape(TAG.sub(" ", body))


def same_page(response: TestResponse) -> str:
    """A page as its readers compare it: each form's token is its own."""
    token = rf'name="{csrf.FIELD}" value="[^"]+"'
    return re.sub(token, "TOKEN", response.get_data(as_text=True))


def english_left(page: str) -> list[str]:
    text = " ".join(visible(page).split())
    return [
        run
        for run in own_sentences()
        if re.search(rf"(?<![A-Za-z]){re.escape(run)}(?![A-Za-z])", text)
    ]


def played_game(runtime: Runtime) -> int:
    game, address = new_game(runtime)
    deliver_mail(runtime, compose("leonidas@example.com", address, "RETREAT"))
    return game.id


def pages(game_id: int) -> dict[str, str]:
    return {
        "index": "/",
        "game": f"/games/{game_id}",
        "turn": f"/games/{game_id}/turns/1",
        "help": "/help",
        "game help": "/help/thermopyles",
        "checker": "/help/thermopyles/check",
        "fairness": f"/games/{game_id}/fairness",
    }


def checked(client: FlaskClient, url: str = "/help/thermopyles/check", **headers: str) -> str:
    """A checker's answer to an order set, in the language the request asks for."""
    form = client.get(url, headers=headers).get_data(as_text=True)
    found = re.search(rf'name="{csrf.FIELD}" value="([^"]+)"', form)
    assert found is not None
    data = {csrf.FIELD: found.group(1), "orders": "RETREAT\nFLY TO THE MOON"}
    response = client.post(url, data=data, headers=headers)
    assert response.status_code == 200
    return response.get_data(as_text=True)


@pytest.mark.parametrize("lang", ["ru", "es"])
def test_every_page_in_the_language_asked_for_by_lang_or_by_the_browser(
    runtime: Runtime, lang: str
) -> None:
    game_id = played_game(runtime)
    app = create_app(runtime)
    for name, path in pages(game_id).items():
        by_query = app.test_client().get(f"{path}?lang={lang}")
        by_browser = app.test_client().get(
            path, headers={"Accept-Language": f"{lang};q=0.9,en;q=0.5"}
        )
        for response in (by_query, by_browser):
            assert response.status_code == 200, (name, lang)
            page = response.get_data(as_text=True)
            assert f'<html lang="{lang}">' in page, name
            assert response.headers["Content-Language"] == lang
            assert {"Accept-Language", "Cookie"} <= set(response.vary), name
            assert english_left(page) == [], (name, lang)
        assert same_page(by_query) == same_page(by_browser), name
    client = app.test_client()
    game = client.get(f"/games/{game_id}?lang={lang}").get_data(as_text=True)
    assert SAID[lang]["game"] in game
    assert SAID[lang]["turn"] in client.get(f"/games/{game_id}/turns/1").get_data(as_text=True)
    assert SAID[lang]["help"] in client.get("/help").get_data(as_text=True)
    answer = checked(app.test_client(), f"/help/thermopyles/check?lang={lang}")
    assert f'<html lang="{lang}">' in answer and english_left(answer) == []
    assert "FLY TO THE MOON" in answer  # the line as written, whatever the language


def test_lang_is_remembered_and_wins_over_the_browser(runtime: Runtime) -> None:
    game_id = played_game(runtime)
    client = create_app(runtime).test_client()
    spanish = {"Accept-Language": "es-ES,es;q=0.9"}
    first = client.get(f"/games/{game_id}?lang=ru", headers=spanish)
    assert '<html lang="ru">' in first.get_data(as_text=True)
    assert "lang=ru" in first.headers["Set-Cookie"]
    # The page's own links carry no parameter: the cookie keeps the choice.
    again = client.get(f"/games/{game_id}/turns/1", headers=spanish)
    assert again.headers["Content-Language"] == "ru"
    assert "Set-Cookie" not in again.headers
    switched = client.get("/help?lang=es")
    assert switched.headers["Content-Language"] == "es"
    assert client.get("/").headers["Content-Language"] == "es"
    # A language the site has no catalog for is no choice: the browser's, then English.
    fresh = create_app(runtime).test_client()
    assert fresh.get("/?lang=xx", headers=spanish).headers["Content-Language"] == "es"
    assert fresh.get("/?lang=xx").headers["Content-Language"] == "en"
    assert fresh.get("/", headers={"Accept-Language": "de, fr"}).headers["Content-Language"] == "en"


def test_the_switcher_links_each_language_on_the_same_page(runtime: Runtime) -> None:
    game_id = played_game(runtime)
    client = create_app(runtime).test_client()
    page = client.get(f"/games/{game_id}?lang=ru").get_data(as_text=True)
    links = dict(re.findall(r'<a href="([^"]+)" hreflang="(\w+)"', page))
    assert links == {
        f"/games/{game_id}?lang=en": "en",
        f"/games/{game_id}?lang=es": "es",
        f"/games/{game_id}?lang=ru": "ru",
    }
    assert ">English</a>" in page and ">español</a>" in page and ">русский</a>" in page
    assert 'hreflang="ru" lang="ru" aria-current="true"' in page
    # Other parameters stay: a filtered list stays filtered in another language.
    listed = client.get("/?status=active&lang=es").get_data(as_text=True)
    assert 'href="/?status=active&amp;lang=ru"' in listed


def test_english_is_the_page_as_written(runtime: Runtime) -> None:
    game_id = played_game(runtime)
    app = create_app(runtime)
    for name, path in pages(game_id).items():
        plain = app.test_client().get(path)
        chosen = app.test_client().get(f"{path}?lang=en", headers={"Accept-Language": "ru"})
        page = plain.get_data(as_text=True)
        assert '<html lang="en">' in page, name
        assert plain.headers["Content-Language"] == "en"
        assert same_page(plain) == same_page(chosen), name
        assert len(english_left(page)) > 3, name  # the check finds English where it is
    client = app.test_client()
    game = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Opening position" in game and "After turn 1" in game
    assert "Seed commitment (SHA-256):" in game and "<h2>Players</h2>" in game
    turn = client.get(f"/games/{game_id}/turns/1").get_data(as_text=True)
    assert "<h3>Orders and results</h3>" in turn and "The whole position in words" in turn
    answer = checked(client)
    assert (
        '<span class="ok">Accepted</span>' in answer
        and "This check sent and stored nothing." in answer
    )


def test_pictures_and_the_api_do_not_depend_on_the_language(runtime: Runtime) -> None:
    game_id = played_game(runtime)
    client = create_app(runtime).test_client()
    russian = {"Accept-Language": "ru"}
    # A turn's picture at the address of what it shows, where the address by number leads.
    picture = client.get(f"/games/{game_id}/turns/1.png").headers["Location"]
    for path in (picture, "/help/thermopyles/board.png", "/api/games"):
        response = client.get(path, headers=russian)
        assert response.status_code == 200, path
        assert "Content-Language" not in response.headers, path
        assert "Accept-Language" not in response.vary, path
        assert response.data == client.get(path).data, path


def test_the_game_master_panel_in_russian(runtime: Runtime) -> None:
    game_id, _, link = started(runtime)
    client = logged_in(runtime, link)
    panel = client.get(f"/games/{game_id}/manage?lang=ru").get_data(as_text=True)
    assert '<html lang="ru">' in panel and "Установить срок" in panel
    assert english_left(panel) == []
    token = csrf_of(client, game_id)
    asked = client.post(f"/games/{game_id}/manage/end", data={"csrf_token": token})
    question = asked.get_data(as_text=True)
    assert f"Действительно завершить партию {game_id}?" in question
    assert english_left(question) == []
    extended = post(client, game_id, "extend", hours="12")
    assert english_left(extended) == [], english_left(extended)
    # The command's own answer is the service's (the mail's words); the verdict is the page's.
    assert "EXTEND 12h: сделано — " in extended
    assert (
        client.get("/gm?lang=es").get_data(as_text=True).count("Panel del director de juego") == 2
    )


@pytest.mark.parametrize("lang", ["ru", "es"])
def test_an_ended_game_and_its_fairness_check_in_another_language(
    runtime: Runtime, lang: str
) -> None:
    game_id, _ = played(runtime)
    deadlines.adjudicate(runtime, game_id, force=True)
    gm_command(runtime, game_id, "END")
    client = create_app(runtime).test_client()
    for path in (f"/games/{game_id}", f"/games/{game_id}/turns/2", f"/games/{game_id}/fairness"):
        page = client.get(f"{path}?lang={lang}").get_data(as_text=True)
        assert f'<html lang="{lang}">' in page, path
        assert english_left(page) == [], (path, english_left(page))
    fairness = client.get(f"/games/{game_id}/fairness").get_data(as_text=True)
    confirmed = {"ru": "✓ Подтверждено:", "es": "✓ Confirmado:"}[lang]
    assert confirmed in fairness and 'title="matches"' not in fairness


def test_a_seat_s_own_checker_and_a_shared_deal_in_another_language(runtime: Runtime) -> None:
    game_id, _, path = start_thermopyles(runtime)
    client = create_app(runtime).test_client()
    private = client.get(f"{path}?lang=ru").get_data(as_text=True)
    assert f"Проверка ваших приказов: Thermopyles, партия {game_id}" in private
    assert english_left(private) == []
    answer = checked(client, path)  # the language the cookie kept
    assert '<html lang="ru">' in answer and "Принято" in answer and english_left(answer) == []
    new_game(runtime, "NEW THERMOPYLES SHARED winter-cup")
    board = client.get("/challenges/winter-cup?lang=es").get_data(as_text=True)
    assert "Reparto compartido «winter-cup»" in board and english_left(board) == []


def test_who_the_game_waits_for_and_its_players_in_the_pages_language(runtime: Runtime) -> None:
    game_id, _addresses = start_dos_de_mayo(runtime)
    client = create_app(runtime).test_client()
    russian = " ".join(client.get(f"/games/{game_id}?lang=ru").get_data(as_text=True).split())
    assert "Ждём приказы на ход 1: Франция и Испания" in russian, russian
    assert "игрок за сторону Франция" in russian and "player" not in russian
    spanish = " ".join(client.get(f"/games/{game_id}?lang=es").get_data(as_text=True).split())
    assert "el jugador de España" in spanish
    english = html.unescape(client.get(f"/games/{game_id}?lang=en").get_data(as_text=True))
    english = " ".join(english.split())
    assert "Waiting for orders for turn 1 from France and Spain" in english
    assert "France's player" in english
