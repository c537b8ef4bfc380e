"""The mail commands in the players' languages: Russian and Spanish words for them are read from
any player whatever language they chose and shown canonically (the English command) in the
reply; HELP answers in the sender's language with that language's words beside the commands;
a game master's mail is in their language, else the game's; PREFERENCES and VACATION answer in
the reader's."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from playbymail import compose, deliver_mail, sent, text_of
from sqlalchemy import select
from test_languages import FRANCE, GM, NEW_GAME, SPAIN, in_language, last_to, reply_addresses

from adjudicator.core import datafile
from adjudicator.models import Game, Player
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.words import command_words, commands

ENGLISH_GAME = NEW_GAME.replace("LANGUAGE ru\n", "")


def text_to(runtime: Runtime, address: str, since: int) -> str:
    """The text of the last mail to ``address`` (one in plain text only, too), run together."""
    mails = [mail for mail in sent(runtime)[since:] if str(mail["To"]) == address]
    return " ".join(text_of(mails[-1]).split())


def language_of(runtime: Runtime, address: str) -> str:
    with runtime.db.session() as session:
        return session.scalars(select(Player).where(Player.address == address)).one().language


def test_command_words_are_read_in_any_case_and_without_accents() -> None:
    for written, meant in (
        ("ПОМОЩЬ", "HELP"),
        ("помощь", "HELP"),
        ("Статус", "STATUS"),
        ("ÓRDENES", "ORDERS"),
        ("ordenes", "ORDERS"),
        ("rendirse", "RESIGN"),
        ("ЖДАТЬ", "WAIT"),
        ("Esperar", "WAIT"),
        ("unirse", "JOIN"),
        ("ВСТУПИТЬ", "JOIN"),
        ("NUEVA", "NEW"),
        ("новая", "NEW"),
    ):
        assert command_words.canonical(written) == meant, written
    assert command_words.language_of("вступить") == "ru"
    assert command_words.language_of("ÓRDENES") == "es"
    assert command_words.language_of("JOIN") == ""
    reading = commands.read(["ПРИКАЗЫ", "vacaciones hasta 2030-01-03", "Настройки язык es"])
    assert [c.line for c in reading.commands] == [
        "ORDERS",
        "VACATION UNTIL 2030-01-03",
        "PREFERENCES LANGUAGE es",
    ]
    assert commands.command_of("Unirse a la partida?") is None  # chatter stays chatter
    assert commands.looks_like_command("СТАТУСС") == "not a command; did you mean STATUS?"
    assert commands.looks_like_command("ПРИКАЗЫ сейчас", "ru") == (
        "команда ORDERS пишется отдельной строкой, без слов после неё"
    )
    new = commands.parse_new(["НОВАЯ THERMOPYLES ОБЩАЯ spring-cup"])
    assert isinstance(new, commands.NewGame)
    assert (new.game_key, new.challenge, new.alias) == ("thermopyles", "spring-cup", "НОВАЯ")


def test_a_broken_words_file_names_every_fault() -> None:
    raw = {
        "ru": {"commands": {"HELP": ["ПОМОЩЬ"], "STATUS": ["ПОМОЩЬ"], "JUMP": ["ПРЫГ"]}},
        "de": {"commands": {"HELP": ["HILFE"]}},
        "es": {"commands": {"WAIT": "ESPERAR"}},
    }
    with pytest.raises(datafile.DataError) as refused:
        command_words.parse(raw, ("en", "es", "ru"))
    codes = {problem.code for problem in refused.value.problems}
    assert codes == {"two-commands", "unknown-command", "unknown-language", "bad-words"}


def test_russian_and_spanish_words_are_read_from_any_player_and_echoed_canonically(
    runtime: Runtime,
) -> None:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", ENGLISH_GAME))
    seats = reply_addresses(runtime)
    # A player who chose Spanish writes Russian words: read all the same, answered in Spanish.
    before = len(sent(runtime))
    mail = compose(SPAIN, seats[SPAIN], "PREFERENCES LANGUAGE es\nВСТУПИТЬ viva 1808")
    deliver_mail(runtime, mail)
    text, _html = last_to(runtime, SPAIN, since=before)
    assert "JOIN viva 1808 -> hecho: ocupas tu puesto" in text, text
    assert "ВСТУПИТЬ" not in text
    assert language_of(runtime, SPAIN) == "es"

    # A first mail in Spanish words, with no Content-Language: the words say the language.
    before = len(sent(runtime))
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "unirse aigle 1808"))
    assert language_of(runtime, FRANCE) == "es"
    text, _html = last_to(runtime, FRANCE, since=before)
    assert "JOIN aigle 1808 -> hecho: ocupas tu puesto" in text, text
    assert "tu correo está escrito en español" in text
    with runtime.db.session() as session:
        assert session.scalars(select(Game)).one().status == "active"

    # STATUS, ORDERS and WAIT in Russian, from a player who reads Spanish.
    before = len(sent(runtime))
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "статус\nПРИКАЗЫ\nЖДАТЬ\nстатус"))
    text, _html = last_to(runtime, SPAIN, since=before)
    for canonical in ("STATUS", "ORDERS", "WAIT -> hecho: Has pedido WAIT"):
        assert f"{canonical}" in text, text
    assert "STATUS -> STATUS ya se dio más arriba" in text
    assert not any(word in text for word in ("статус", "ПРИКАЗЫ", "ЖДАТЬ"))


def test_help_is_written_in_russian_or_spanish_with_that_languages_words(
    runtime: Runtime,
) -> None:
    english = (
        "Hello from",
        "To start a game",
        "Every mail about a game",
        "Archive of every game",
        "For one game's rules",
        "Games:",
        "how to start a game",
        "how to play",
        "COMMANDS IN YOUR LANGUAGE",
        "join a shared deal",
    )
    deliver_mail(runtime, compose("ivan@example.com", "help@pbem.localhost", "ПОМОЩЬ"))
    text, html = last_to(runtime, "ivan@example.com")
    assert "Здравствуйте! Вам пишет судья pbem." in text, text
    assert "HELP -> сделано: как начать партию и приказы каждой игры — ниже" in text
    assert "Чтобы начать партию, напишите на new@pbem.localhost одну строку" in text
    assert "КОМАНДЫ НА ВАШЕМ ЯЗЫКЕ" in text
    assert "HELP ПОМОЩЬ, СПРАВКА" in text and "JOIN ВСТУПИТЬ, ПРИСОЕДИНИТЬСЯ" in text
    assert [sentence for sentence in english if sentence in text] == [], text
    assert '<html lang="ru">' in html and "<code>ПОМОЩЬ</code>" in html
    assert [sentence for sentence in english if sentence in html] == []

    mail = in_language("es-ES", compose("ana@example.com", "help@pbem.localhost", "AYUDA 2demayo"))
    deliver_mail(runtime, mail)
    text, html = last_to(runtime, "ana@example.com")
    assert "Hola: te escribe el árbitro de pbem." in text, text
    assert "HELP 2demayo -> hecho: abajo tienes cómo jugar a 2 de Mayo por correo" in text
    assert "Para empezar una partida de 2 de Mayo, escribe a new@pbem.localhost" in text
    assert "ORDERS ÓRDENES" in text and "JOIN UNIRSE, UNIRME" in text
    assert [sentence for sentence in english if sentence in text] == [], text
    assert '<html lang="es">' in html
    # No language known: English, and no list of other words.
    deliver_mail(runtime, compose("jo@example.com", "help@pbem.localhost", "HELP\nNEW 2DEMAYO"))
    text, _html = last_to(runtime, "jo@example.com")
    assert "Hello from the pbem adjudicator." in text
    assert "games are started at new@" in text and "IN YOUR LANGUAGE" not in text


def test_help_follows_a_players_own_language(runtime: Runtime) -> None:
    with runtime.db.session() as session:
        session.add(Player(address="olga@example.com", language="ru"))
    deliver_mail(runtime, compose("olga@example.com", "help@pbem.localhost", "HELP\nSTATUS"))
    text, _html = last_to(runtime, "olga@example.com")
    assert "Здравствуйте!" in text
    assert "команда STATUS относится к партии" in text


def test_a_game_masters_mail_is_in_the_games_language(runtime: Runtime) -> None:
    spanish = NEW_GAME.replace("LANGUAGE ru", "LANGUAGE es")
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", spanish))
    text, html = last_to(runtime, GM)
    assert "2 de Mayo, partida 1: está formada, contigo como director de juego." in text, text
    assert "Cada jugador ha recibido su invitación y empieza la partida respondiendo JOIN." in text
    assert "Jugadores:" in text and "(invitado)" in text
    assert "Comandos, uno por línea, enviados a la dirección del director de juego" in text
    for sentence in ("is formed", "Players:", "Commands, one per", "Every change", "Schedule:"):
        assert sentence not in text, sentence
    assert '<html lang="es">' in html and "contigo como director de juego" in html

    seats = reply_addresses(runtime)
    before = len(sent(runtime))
    deliver_mail(runtime, compose(GM, seats[GM], "PAUSE\nhola\nPAUSA"))
    text, _html = last_to(runtime, GM, since=before)
    assert "2 de Mayo, partida 1: tus comandos." in text, text
    assert "PAUSE -> hecho: en pausa" in text
    for player in (FRANCE, SPAIN):
        notice, _html = last_to(runtime, player, since=before)
        assert "El director de juego ha puesto la partida en pausa" in notice, notice
    before = len(sent(runtime))
    deliver_mail(runtime, compose(GM, seats[GM], "SET DEADLINE 2020-01-01 10:00"))
    text, _html = last_to(runtime, GM, since=before)
    assert "ese momento ya ha pasado; usa PROCESS NOW" in text, text


def test_a_game_masters_new_in_russian_words_is_answered_in_russian(runtime: Runtime) -> None:
    words = ENGLISH_GAME.replace("NEW 2DEMAYO", "НОВАЯ 2DEMAYO")
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", words))
    text, _html = last_to(runtime, GM)
    assert "2 de Mayo, партия 1 собрана, вы — её ведущий." in text, text
    assert "ваше письмо написано на языке «русский»" in text
    assert language_of(runtime, GM) == "ru"
    invitation, _html = last_to(runtime, SPAIN)
    assert "You are invited to play 2 de Mayo" in invitation  # the players read the game's


def test_preferences_and_vacation_are_answered_in_russian(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW_GAME))
    seats = reply_addresses(runtime)
    first = date.today() + timedelta(days=10)
    last = first + timedelta(days=5)
    lines = [
        "НАСТРОЙКИ ПОЯС Europe/Moscow",
        "PREFERENCES REMIND 3",
        f"ОТПУСК {first} {last}",
        "ФОРМАТ ТЕКСТ",
        "ИМЯ Иван Петров",
        "PREFERENCES COLOUR blue",
        "VACATION",
    ]
    before = len(sent(runtime))
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "\n".join(lines)))
    text = text_to(runtime, SPAIN, before)
    for said in (
        "PREFERENCES TIMEZONE Europe/Moscow -> сделано: теперь сроки будут показываться в поясе "
        "Europe/Moscow",
        "PREFERENCES REMIND 3 -> сделано: напоминания за 3 часа до каждого срока",
        f"VACATION {first} {last} -> сделано: в отпуске с {first} по {last} (Europe/Moscow)",
        "FORMAT TEXT -> сделано: теперь ваши письма — только текст",
        "NAME Иван Петров -> сделано: теперь вас показывают как Иван Петров",
        "PREFERENCES COLOUR blue -> не сделано: неизвестная настройка COLOUR",
        f"VACATION -> сделано: отпуск задан: с {first} по {last} (Europe/Moscow)",
    ):
        assert said in text, (said, text)
    assert "ОТПУСК" not in text and "НАСТРОЙКИ ПОЯС" not in text
    # The player chose no language: their words are the guess, the reply names the one it read.
    assert "НАСТРОЙКИ -> сделано: ваше письмо написано на языке «русский»" in text
    before = len(sent(runtime))
    again = "ОТПУСК ВЫКЛ\nVACATION 2020-01-01 2020-01-02"
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], again))
    text = text_to(runtime, SPAIN, before)
    assert "VACATION OFF -> сделано: отпуск отменён; напоминания приходят как обычно" in text
    assert "последний день, 2020-01-02, уже прошёл; ничего не изменено" in text, text


def test_a_shared_deals_results_are_in_each_entrants_language(runtime: Runtime) -> None:
    from playbymail import drain

    from adjudicator.models import Challenge, utcnow
    from adjudicator.services.turns import ticks

    first = compose("ana@example.com", "new@pbem.localhost", "NUEVA THERMOPYLES COMPARTIDA cup")
    deliver_mail(runtime, first)
    second = compose("ivan@example.com", "new@pbem.localhost", "НОВАЯ thermopyles ОБЩАЯ cup")
    deliver_mail(runtime, second)
    assert (language_of(runtime, "ana@example.com"), language_of(runtime, "ivan@example.com")) == (
        "es",
        "ru",
    )
    with runtime.db.session() as session:
        session.scalars(select(Challenge)).one().deadline = utcnow() - timedelta(minutes=1)
    before = len(sent(runtime))
    assert ticks.tick(runtime).challenges_revealed == ["cup"]
    drain(runtime)
    spanish = text_to(runtime, "ana@example.com", before)
    assert "El reparto compartido «cup» de Thermopyles ha terminado." in spanish, spanish
    assert (
        "CLASIFICACIÓN" in spanish and "sin terminar cuando acabó el reparto compartido" in spanish
    )
    assert "Todos los participantes jugaron con las mismas cartas y dados." in spanish
    russian = text_to(runtime, "ivan@example.com", before)
    assert "Общая раздача «cup» игры Thermopyles закончилась." in russian, russian
    assert "ИТОГОВАЯ ТАБЛИЦА" in russian and "не завершена к концу общей раздачи" in russian
    # The mail's own text, after the ask at its top (which says the result as the game has it).
    own = spanish.split("El reparto")[1] + russian.split("Общая раздача")[1]
    for english in ("RANKING", "has ended", "unfinished", "Every entrant", "game 1"):
        assert english not in own, english
