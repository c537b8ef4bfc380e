"""Mail in the player's language: every marked sentence is translated in every catalog with the
placeholders it was written with, and by mail a game in Russian, a player who chose Spanish and a
first mail in Russian each get their invitation, receipts and start mail in their own language."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from playbymail import compose, deliver_mail, html_of, sent, text_of
from sqlalchemy import select

from adjudicator import i18n
from adjudicator.models import Game, Player
from adjudicator.services.record.runtime import Runtime

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
FRANCE, SPAIN, GM = "murat@example.com", "daoiz@example.com", "gm@example.com"
NEW_GAME = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\nLANGUAGE ru\n"


def extracted() -> dict[str | tuple[str, ...], str]:
    """Every message the code and templates mark, read as ``pybabel extract -F babel.cfg`` does,
    with the file it was found in."""
    from babel.messages.frontend import parse_mapping_cfg

    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    found: dict[str | tuple[str, ...], str] = {}
    for filename, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map
    ):
        key = message if isinstance(message, str) else tuple(m for m in message if m)
        found.setdefault(key, filename)
    return found


def test_every_marked_sentence_is_translated_with_its_placeholders() -> None:
    messages = extracted()
    # The mails this slice carries: the invitation, the start mail, the notice's sections.
    files = set(messages.values())
    for template in ("invitation", "game_started", "_footer", "_deadline", "_sections", "notice"):
        assert (
            f"templates/email/{template}.txt" in files
            and f"templates/email/{template}.html" in files
        )
    assert {
        "adjudicator/services/outbound/asks.py",
        "adjudicator/services/inbound/seat_mail.py",
    } <= files
    assert set(i18n.languages()) >= {"en", "es", "ru"}
    for lang in i18n.languages()[1:]:
        path = ROOT / "adjudicator" / "locale" / lang / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as source:
            catalog = read_po(source, locale=lang)
        problems = []
        for key, where in messages.items():
            msgid = key if isinstance(key, str) else key[0]
            entry = catalog.get(msgid)
            if entry is None or entry.fuzzy:
                problems.append(f"{lang}: {where}: {msgid!r} missing or fuzzy")
                continue
            strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            wanted = set(PLACEHOLDER.findall(" ".join(key if isinstance(key, tuple) else [key])))
            if isinstance(key, tuple):
                assert len(strings) == catalog.num_plurals, (lang, msgid)
                wanted.discard("num")  # a plural form may spell out "one" instead of the number
            for string in strings:
                if not string:
                    problems.append(f"{lang}: {msgid!r} untranslated")
                elif set(PLACEHOLDER.findall(string)) - {"num"} != wanted:
                    problems.append(f"{lang}: {msgid!r} has placeholders {string!r}")
        assert problems == []
    assert catalog.num_plurals == 3  # Russian: one, few, many


def test_russian_plurals_take_three_forms_and_dates_follow_the_locale() -> None:
    day = "There is no deadline; the game is closed after %(num)s day without an action."
    days = "There is no deadline; the game is closed after %(num)s days without an action."
    assert "21 день проходит" in i18n.ngettext(day, days, 21, "ru")
    assert "3 дня проходят" in i18n.ngettext(day, days, 3, "ru")
    assert "5 дней проходят" in i18n.ngettext(day, days, 5, "ru")
    assert i18n.ngettext(day, days, 1, "en").endswith("1 day without an action.")
    assert i18n.supported("ES-mx") == "es" and i18n.supported("de") == ""
    assert i18n.chosen("", "ru") == "ru" and i18n.chosen("es", "ru") == "es"
    assert i18n.chosen("", "") == "en"


def last_to(runtime: Runtime, address: str, *, since: int = 0) -> tuple[str, str]:
    """The text and HTML of the last mail to ``address``, lines run together as read."""
    mails = [mail for mail in sent(runtime)[since:] if str(mail["To"]) == address]
    assert mails, f"nothing was sent to {address}"
    return " ".join(text_of(mails[-1]).split()), html_of(mails[-1])


def reply_addresses(runtime: Runtime) -> dict[str, str]:
    return {str(m["To"]): str(m["Reply-To"]) for m in sent(runtime) if m["Reply-To"]}


# Sentences of the English mails of this slice: none may be left in a translated one.
ENGLISH = (
    "You are invited",
    "Reply to this mail",
    "Reply JOIN",
    "Nothing is owed",
    "The game starts when",
    "Your game of",
    "You owe your orders",
    "Orders for turn",
    "Until then you may",
    "FAIR DICE",
    "DONE",
    "your seat is taken",
    "go into the dice",
    "Commands:",
    "archive:",
    "The seed is revealed",
    "Fair dice:",
    "in 48",
    "days",
)


def english_left(text: str) -> list[str]:
    return [sentence for sentence in ENGLISH if sentence in text]


def test_a_game_in_russian_with_a_player_who_chose_spanish(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW_GAME))
    with runtime.db.session() as session:
        assert session.scalars(select(Game)).one().language == "ru"
    seats = reply_addresses(runtime)
    for player in (FRANCE, SPAIN):
        text, html = last_to(runtime, player)
        assert "Вас приглашают сыграть в 2 de Mayo" in text, text
        assert "Ответьте JOIN, чтобы занять место за сторону" in text  # the ask
        assert english_left(text) == [], text
        assert '<html lang="ru">' in html and "Вас приглашают" in html

    before = len(sent(runtime))
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "PREFERENCES LANGUAGE es\nJOIN viva 1808"))
    text, html = last_to(runtime, SPAIN, since=before)
    assert "a partir de ahora tu correo se escribe en español" in text, text
    assert "ocupas tu puesto; tus palabras «viva 1808» entran en los dados" in text
    assert "No te toca nada: ya te has unido." in text  # the ask, in Spanish
    assert "te has unido; la partida empieza cuando se una también Francia" in text
    assert english_left(text) == [], text
    assert '<html lang="es">' in html and "<h3>Hecho</h3>" in html

    before = len(sent(runtime))
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "JOIN aigle 1808"))
    with runtime.db.session() as session:
        assert session.scalars(select(Game)).one().status == "active"
        languages = {p.address: p.language for p in session.scalars(select(Player))}
    assert languages[SPAIN] == "es" and languages[FRANCE] == ""  # France reads the game's
    russian, html = last_to(runtime, FRANCE, since=before)
    assert "Ваша партия в 2 de Mayo началась" in russian, russian
    assert "вы заняли своё место; ваши слова «aigle 1808» идут в кости" in russian
    assert "Пришлите приказы на ход 1 до" in russian  # the ask
    assert "Приказы на ход 1 принимаются до" in russian  # the deadline section
    assert "(через 48 часов)" in russian  # the deadline, said in Russian
    assert "ЧЕСТНЫЕ КОСТИ" in russian and 'Испания: "viva 1808"' in russian
    assert english_left(russian) == [], russian
    assert '<html lang="ru">' in html and "<h3>Срок</h3>" in html
    spanish, html = last_to(runtime, SPAIN, since=before)
    assert "Tu partida de 2 de Mayo ha empezado" in spanish, spanish
    assert "Debes enviar tus órdenes para el turno" in spanish
    assert "(dentro de 48 horas)" in spanish
    assert "DADOS LIMPIOS" in spanish and 'España: "viva 1808"' in spanish
    assert english_left(spanish) == [], spanish
    assert '<html lang="es">' in html and "<h3>Plazo</h3>" in html


def in_language(code: str, raw: bytes) -> bytes:
    """The mail with the Content-Language header a mail program writes (Thunderbird does, in
    the message's own headers; EmailMessage.set_content drops one set before the body)."""
    return f"Content-Language: {code}\n".encode() + raw


def test_a_first_mail_in_russian_is_answered_in_russian(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW_GAME.replace("LANGUAGE ru\n", "")))
    seats = reply_addresses(runtime)
    text, _html = last_to(runtime, SPAIN)
    assert "You are invited to play 2 de Mayo" in text  # a game in English
    before = len(sent(runtime))
    deliver_mail(runtime, in_language("ru-RU", compose(SPAIN, seats[SPAIN], "JOIN")))
    text, html = last_to(runtime, SPAIN, since=before)
    assert "Content-Language: ru-ru" in text, text
    assert '<html lang="ru">' in html
    assert (
        "ваше письмо написано на языке «русский», поэтому теперь сервис пишет вам на нём; "
        "сменить язык можно командой PREFERENCES LANGUAGE en|es|ru"
    ) in text
    assert "вы присоединились; партия начнётся, когда присоединится и Франция" in text
    assert english_left(text) == [], text
    with runtime.db.session() as session:
        player = session.scalars(select(Player).where(Player.address == SPAIN)).one()
        assert player.language == "ru"
    # The guess is a first guess only: a language chosen is kept, whatever the next mail says.
    before = len(sent(runtime))
    answer = compose(SPAIN, seats[SPAIN], "PREFERENCES LANGUAGE en")
    deliver_mail(runtime, in_language("es", answer))
    text, _html = last_to(runtime, SPAIN, since=before)
    assert "from now on your mail is written in English" in text, text
    assert "Content-Language" not in text and "Nothing is owed by you: you have joined." in text


def test_a_language_no_catalog_has_is_refused_in_words(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW_GAME.replace("ru", "klingon")))
    text, _html = last_to(runtime, GM)
    assert "LANGUAGE takes one of en, es, ru" in text, text


def test_a_solo_players_first_mail_in_spanish_is_welcomed_in_spanish(runtime: Runtime) -> None:
    first = compose("leonidas@example.com", "new@pbem.localhost", "NEW THERMOPYLES")
    deliver_mail(runtime, in_language("es-ES", first))
    text, html = last_to(runtime, "leonidas@example.com")
    assert "Tu partida de Thermopyles ha empezado" in text, text
    assert (
        "tu correo está escrito en español, así que a partir de ahora el servicio te escribe en "
        "español; PREFERENCES LANGUAGE en|es|ru lo cambia"
    ) in text
    assert "Juegas con" in text and "DADOS LIMPIOS" in text
    assert english_left(text) == [], text
    assert '<html lang="es">' in html


def test_a_sentence_the_rules_made_is_written_anew_in_each_readers_language() -> None:
    from adjudicator.core import said

    day = "There is no deadline; the game is closed after %(num)s day without an action."
    days = "There is no deadline; the game is closed after %(num)s days without an action."
    made = said.ngettext(day, days, 3)  # made outside any reader's mail: English
    assert made.endswith("3 days without an action.") and said.language() == "en"
    outer = said._(
        "%(who)s: no words, so their mail's %(source)s %(value)s",
        who="Spain",
        source="Message-ID",
        value=made,
    )
    with i18n.speaking("ru"):
        assert said.language() == "ru"
        again = said.anew(outer)
        assert "3 дня проходят" in again and "Spain" in again and "days" not in again
        assert said.anew("plain text") == "plain text"
    assert said.language() == "en" and said.anew(outer) == outer
    assert "3 días" in i18n.localized(made, "es")
