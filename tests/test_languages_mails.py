"""The mail of a whole 2 de Mayo game in each reader's language: a game in Russian whose Spanish
player chose Spanish, played by mail. The receipts, the turn reports, the reminder, the idle
warning, the closing, the answer to a mail after the end and a problem reply each come in the
reader's language, subject and calendar entry included, with no English sentence of the
service's own left (the games' own sentences are the games' to translate), and Russian plurals
in their three forms."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from email.message import EmailMessage

from icalendar import Calendar
from playbymail import compose, deliver_mail, drain, sent, text_of
from sqlalchemy import select

from adjudicator import i18n
from adjudicator.games import registry
from adjudicator.models import Game
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines, idle

FRANCE, SPAIN, GM = "murat@example.com", "daoiz@example.com", "gm@example.com"
STRANGER = "godoy@example.com"
NEW_GAME = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\nLANGUAGE ru\n"

# The service's own English sentences in the mails this file reads: none may be left in a
# translated one. (The position, the outcomes and the game's prompt are the game's.)
ENGLISH = (
    "resolved (",
    "WHAT HAPPENED",
    "POSITION AFTER",
    "WHAT YOU CAN DO NOW",
    "YOUR ORDERS AS UNDERSTOOD",
    "YOUR ORDERS ON FILE",
    "NOT IN YOUR ORDERS",
    "Your orders",
    "Not in them",
    "Nothing was changed",
    "Nothing is owed",
    "You owe your orders",
    "Waiting for",
    "The map is the one",
    "HOW TO WRITE ORDERS",
    "COMMANDS (",
    "the order syntax of this game",
    "-> accepted",
    "-> rejected",
    "-> ignored",
    "the deadline passed",
    "the orders arrived",
    "everyone had sent orders",
    "a reminder:",
    "has had no order",
    "days from now",
    "is over:",
    "No more orders are taken",
    "Hello,",
    "could not be used",
    "Mail help@",
    "the position and the deadline are below",
    "how to write orders for",
    "Reply to this mail",
    "archive:",
    "DEADLINE",
    "DONE",
)


def english_left(text: str) -> list[str]:
    return [sentence for sentence in ENGLISH if sentence in text]


def mails_to(runtime: Runtime, address: str, since: int) -> list[EmailMessage]:
    mails = [mail for mail in sent(runtime, since) if str(mail["To"]) == address]
    assert mails, f"nothing was sent to {address}"
    return mails


def read(mail: EmailMessage) -> str:
    """A mail's text as read, its lines run together."""
    return " ".join(text_of(mail).split())


def calendar_summary(mail: EmailMessage) -> tuple[str, str]:
    """The summary and description of the mail's deadline entry."""
    for part in mail.iter_attachments():
        if part.get_content_type() == "text/calendar":
            data = part.get_payload(decode=True)
            assert isinstance(data, bytes)
            [event] = Calendar.from_ical(data).walk("VEVENT")
            return str(event["SUMMARY"]), str(event["DESCRIPTION"])
    raise AssertionError("no calendar entry")


def started_game(runtime: Runtime) -> tuple[int, dict[str, str]]:
    """The game in Russian with Spain's player reading Spanish, both joined: its id and each
    player's reply address."""
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW_GAME))
    seats = {str(m["To"]): str(m["Reply-To"]) for m in sent(runtime) if m["Reply-To"]}
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "PREFERENCES LANGUAGE es\nJOIN viva 1808"))
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "JOIN aigle 1808"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        assert game.status == "active" and game.language == "ru"
        return game.id, seats


def test_receipts_and_turn_reports_in_each_players_language(runtime: Runtime) -> None:
    game_id, seats = started_game(runtime)

    # France (the game's Russian): its orders, a line that is no order, and STATUS.
    before = len(sent(runtime))
    orders = "TAKE MURAT\n16-14 x1\nDRAW\n99-98 x1\nSTATUS"
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], orders))
    [receipt] = mails_to(runtime, FRANCE, before)
    text = read(receipt)
    assert "2 de Mayo, партия" in text, text
    assert "Ваши приказы на ход 1 приняты" in text
    assert "Не вошла: строка 4 — её не удалось принять" in text
    assert "ВАШИ ПРИКАЗЫ, КАК ИХ ПОНЯЛИ" in text and "-> принято" in text
    assert "-> отклонено" in text
    # France's set stands without its refused line, and holds the early turn until it is put right.
    held = "Ваши приказы на ход 1 приняты, кроме 1 отклонённой строки: ход ждёт своего срока"
    assert text.startswith(held), text
    assert (
        "позиция и срок — ниже; приказы приняты без отклонённой строки от: Франция; "
        "ещё ждём: Испания" in text
    ), text
    assert "ПОЗИЦИЯ: ХОД 0" in text and "Карта — в письме о начале партии" in text
    assert "СРОК" in text and "Приказы на ход 1 принимаются до" in text
    assert english_left(text) == [], english_left(text)
    assert "ход 1: приказы получены, часть строк не вошла" in str(receipt["Subject"])
    summary, description = calendar_summary(receipt)
    assert summary == f"2 de Mayo, партия {game_id}: срок приказов на ход 1", summary
    assert description == "Пришлите приказы на ход 1 ответом на письмо вашей партии."

    # The whole set again, without the line that was refused: it replaces the first.
    before = len(sent(runtime))
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW"))
    [receipt] = mails_to(runtime, FRANCE, before)
    text = read(receipt)
    assert "Ваши приказы на ход 1 приняты; они заменяют присланные раньше." in text, text
    assert english_left(text) == [], english_left(text)
    assert str(receipt["Subject"]).endswith("ход 1: приказы получены")

    # Spain (Spanish, the player's own): its orders and HELP; the turn is then played.
    before = len(sent(runtime))
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-14\nNODRAW\nHELP"))
    [receipt, spanish_report] = mails_to(runtime, SPAIN, before)
    text = read(receipt)
    assert "Tus órdenes para el turno 1 están registradas." in text, text
    assert "TUS ÓRDENES TAL COMO SE ENTENDIERON" in text and "-> aceptada" in text
    assert "cómo escribir órdenes para 2 de Mayo está abajo" in text
    assert "CÓMO ESCRIBIR LAS ÓRDENES" in text and "COMANDOS (uno por línea" in text
    assert "la sintaxis de las órdenes de este juego, y estos comandos" in text
    assert "Ya están las órdenes de todos los jugadores para el turno 1." in text  # the ask
    assert english_left(text) == [], english_left(text)
    assert str(receipt["Subject"]).endswith("órdenes del turno 1 recibidas")
    summary, _ = calendar_summary(receipt)
    assert summary == f"2 de Mayo, partida {game_id}: vencen las órdenes del turno 1"

    text = read(spanish_report)
    # The reasons' words, as the catalog has them (the archive's pages show the same).
    everyone = {lang: i18n.gettext("everyone had sent orders", lang) for lang in ("es", "ru")}
    assert f"2 de Mayo, partida {game_id}: turno 1 resuelto ({everyone['es']})" in text, text
    assert "QUÉ HA PASADO" in text and "POSICIÓN TRAS EL TURNO 1" in text
    assert "QUÉ PUEDES HACER AHORA" in text and "Debes enviar tus órdenes para el turno 2" in text
    assert english_left(text) == [], english_left(text)
    assert str(spanish_report["Subject"]).endswith("resultados del turno 1")
    [russian_report] = mails_to(runtime, FRANCE, before)
    text = read(russian_report)
    assert f"2 de Mayo, партия {game_id}: ход 1 разыгран ({everyone['ru']})" in text, text
    assert "ЧТО ПРОИЗОШЛО" in text and "ПОЗИЦИЯ: ХОД 1" in text
    assert "ЧТО МОЖНО СДЕЛАТЬ СЕЙЧАС" in text and "Пришлите приказы на ход 2 до" in text
    assert english_left(text) == [], english_left(text)
    assert str(russian_report["Subject"]).endswith("ход 1: итоги")
    alt = russian_report.get_body(preferencelist=("html",))
    assert alt is not None and 'alt="Карта 2 de Mayo, ход 1, как её вид' in str(alt.get_content())

    # A reminder before the next deadline, then the deadline passes with nothing sent.
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.deadline is not None
        deadline = game.deadline
    before = len(sent(runtime))
    reminded = deadlines.send_reminders(runtime, deadline - timedelta(hours=1))
    assert sorted(seat for _, seat in reminded) == ["france", "spain"]
    drain(runtime)
    [reminder] = mails_to(runtime, FRANCE, before)
    text = read(reminder)
    assert "напоминание: ваших приказов на этот ход у нас пока нет." in text, text
    assert "Карта — в отчёте (ход 1): с тех пор ничего не сдвинулось." in text
    assert english_left(text) == [], english_left(text)
    assert str(reminder["Subject"]).endswith("напоминание: ждём приказы на ход 2")
    [reminder] = mails_to(runtime, SPAIN, before)
    text = read(reminder)
    assert "un recordatorio: aún no tenemos tus órdenes para este turno." in text, text
    assert "El mapa es el del informe del turno 1" in text
    assert english_left(text) == [], english_left(text)
    assert str(reminder["Subject"]).endswith("recordatorio: vencen las órdenes del turno 2")

    before = len(sent(runtime))
    done = deadlines.adjudicate(runtime, game_id, now=deadline + timedelta(seconds=1))
    assert isinstance(done, deadlines.Adjudicated)
    drain(runtime)
    passed = {lang: i18n.gettext("the deadline passed", lang) for lang in ("es", "ru")}
    assert f"ход 2 разыгран ({passed['ru']})" in read(mails_to(runtime, FRANCE, before)[-1])
    assert f"turno 2 resuelto ({passed['es']})" in read(mails_to(runtime, SPAIN, before)[-1])
    assert "(" not in passed["ru"] + passed["es"] and "deadline" not in passed["es"]


def test_the_idle_warning_the_closing_and_what_comes_after(runtime: Runtime) -> None:
    game_id, seats = started_game(runtime)
    for days, russian in ((3, "через 3 дня"), (21, "через 21 день"), (7, "через 7 дней")):
        config = replace(runtime.config, idle_warning_days=days)
        before = len(sent(runtime))
        with runtime.db.session() as session:  # a warning of its own each time
            game = session.get_one(Game, game_id)
            game.last_activity = game.last_activity - timedelta(seconds=days)
        assert idle.warn_idle(Runtime(config, runtime.db, runtime.enqueue), game_id)
        drain(runtime)
        [warning] = mails_to(runtime, FRANCE, before)
        text = read(warning)
        assert f"2 de Mayo, партия {game_id}: приказов давно не было." in text, text
        assert f"Она будет закрыта {russian}, если вы не пришлёте действие." in text
        assert english_left(text) == [], english_left(text)
        assert str(warning["Subject"]).endswith("давно нет приказов")
        [warning] = mails_to(runtime, SPAIN, before)
        text = read(warning)
        assert f"Se cerrará dentro de {days} días si no envías una acción." in text, text
        assert english_left(text) == [], english_left(text)

    before = len(sent(runtime))
    assert idle.close_idle(runtime, game_id)
    drain(runtime)
    [closed] = mails_to(runtime, FRANCE, before)
    text = read(closed)
    days = runtime.config.idle_close_days
    assert f"2 de Mayo, партия {game_id} окончена: закрыта после {days} дней без приказов" in text
    assert "Эта партия больше не принимает приказов. Начните новую письмом NEW 2DEMAYO" in text
    assert "Ничего не требуется: партия окончена." in text
    assert english_left(text) == [], english_left(text)
    assert str(closed["Subject"]).endswith(
        f"партия окончена: закрыта после {days} дней без приказов"
    )
    [closed] = mails_to(runtime, SPAIN, before)
    text = read(closed)
    assert f"la partida {game_id} ha terminado: cerrada tras {days} días sin órdenes" in text
    assert "Esta partida ya no acepta órdenes." in text
    assert english_left(text) == [], english_left(text)
    assert "partida terminada: " in str(closed["Subject"])

    # Orders after the end are answered with the game's end, in Spanish.
    before = len(sent(runtime))
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-14"))
    [answer] = mails_to(runtime, SPAIN, before)
    text = read(answer)
    assert "Esta partida ya no acepta órdenes." in text and "No te toca nada" in text, text
    assert english_left(text) == [], english_left(text)

    # Someone who holds no seat writes to Spain's address: told in the game's Russian.
    before = len(sent(runtime))
    deliver_mail(runtime, compose(STRANGER, seats[SPAIN], "9-14"))
    [problem] = mails_to(runtime, STRANGER, before)
    text = read(problem)
    assert "Здравствуйте! Ваше письмо не удалось использовать, и ничего не изменилось." in text
    owner = f"Оно пришло с адреса, которому не принадлежит сторона Испания в партии {game_id}."
    assert owner in text
    assert english_left(text) == [], english_left(text)


def test_an_unknown_address_is_answered_in_the_language_of_the_mail(runtime: Runtime) -> None:
    """Someone the service has never heard from is answered in what their mail says it is
    written in; English mail stays as it was."""
    raw = compose(STRANGER, "pbem@pbem.localhost", "hola")
    deliver_mail(runtime, b"Content-Language: es-ES\n" + raw)
    [problem] = mails_to(runtime, STRANGER, 0)
    text = read(problem)
    assert "Hola: Tu correo no se pudo usar y no ha cambiado nada." in text, text
    assert "Se envió a pbem@pbem.localhost" in text
    assert "Escribe a help@pbem.localhost para recibir instrucciones." in text
    assert english_left(text) == [], english_left(text)
    assert i18n.gettext("your mail", "es") == "tu correo"


def test_the_games_sentences_the_service_shows_are_written_anew_for_each_reader() -> None:
    """A line's reason and suggestion, what an order set leaves out and a decision's prompt and
    brief were made once, when the mail was read or the position examined: each reader's mail
    writes them anew in its own language. (Catalog messages of the service's stand for the
    games' sentences here.)"""
    from adjudicator.core import said
    from adjudicator.core.contract import Decision, LineReport, LineStatus, OrderReport
    from adjudicator.services.outbound import replies
    from adjudicator.services.record import positions, subjects

    line = LineReport(4, "99-98", LineStatus.REJECTED, reason=said._("no such game"))
    report = OrderReport((line,), None, missing=(said._("send orders"),))
    owed = {"spain": Decision("spain", said._("decide"), ("9-14",), "", said._("send orders"))}
    rules = registry.get("2demayo")
    assert rules is not None
    with i18n.speaking("ru"):
        shown = replies.receipt_lines(report, True)
        assert shown["lines"][0]["reason"] == "такой партии нет"
        assert shown["missing"] == ["прислать приказы"]
        assert subjects.owes(owed, rules.seat_title) == "Испания: прислать приказы"
        alt = positions.map_alt(rules, 3, "spain", owed)
        assert alt == (
            "Карта 2 de Mayo, ход 3, как её видит Испания; "
            "далее очередь — Испания: прислать приказы."
        )
    with i18n.speaking("es"):
        assert replies.receipt_lines(report, True)["missing"] == ["enviar órdenes"]
    # Outside any reader's mail, English as made.
    assert replies.receipt_lines(report, True)["lines"][0]["reason"] == "no such game"
    assert positions.map_alt(rules, 3, None, owed) == (
        "Map of 2 de Mayo after turn 3, as every player sees it; next, Spain is to send orders."
    )
