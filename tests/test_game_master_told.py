"""A game master's game by mail, read as the game master and the players read it: each turn's
result mailed to the game master, a game-master command sent to a seat's address pointed to
where it belongs, EXTEND's reason told to the players, a command that would change nothing
refused and announced to nobody, the game's options shown back, invitations that say who runs
the game and who else plays, and a REPLACE that shows the players no address."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage
from zoneinfo import ZoneInfo

from playbymail import compose, deliver_mail, html_of, sent, text_of
from sqlalchemy import select
from test_game_master import FRANCE, GM, NEW, SPAIN, formed, last_to, started

from adjudicator.models import Game
from adjudicator.services.game_master import gm
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.words import commands
from adjudicator.web import create_app

ANA = f"Ana Gómez <{GM}>"
# The game master plays Spain: the "me" of NEW.
WITH_ME = f"NEW 2DEMAYO half_stays=ceil\nFRANCE {FRANCE}\nSPAIN me\nSCHEDULE 48h\n"


def mails_to(runtime: Runtime, address: str) -> list[EmailMessage]:
    return [mail for mail in sent(runtime) if str(mail["To"]) == address]


def text(mail: EmailMessage) -> str:
    return text_of(mail).replace("\r\n", "\n")


def flat(mail: str) -> str:
    """A mail's text with its lines joined: a sentence may be wrapped anywhere."""
    return " ".join(mail.split())


def invitations(runtime: Runtime) -> dict[str, EmailMessage]:
    """Each invited player's invitation, by address: it shows how to add words, in any language."""
    return {str(m["To"]): m for m in sent(runtime) if "JOIN tiger 4417" in text(m)}


def joined_with_me(runtime: Runtime, new: str = WITH_ME) -> dict[str, str]:
    """A game whose game master (named Ana Gómez) plays Spain, every player joined; the seats'
    reply addresses by player."""
    deliver_mail(runtime, compose(ANA, "new@pbem.localhost", new))
    invited = {to: str(mail["Reply-To"]) for to, mail in invitations(runtime).items()}
    deliver_mail(runtime, compose(f"Jean Murat <{FRANCE}>", invited[FRANCE], "JOIN"))
    deliver_mail(runtime, compose(ANA, invited[GM], "JOIN"))
    return invited


def gm_address_of(runtime: Runtime) -> str:
    """The game master's own address, which the answer to NEW comes from."""
    return next(str(m["Reply-To"]) for m in mails_to(runtime, GM) if "-gm-" in str(m["Reply-To"]))


def test_the_game_master_is_mailed_each_turn_as_the_players_saw_it(runtime: Runtime) -> None:
    game_id, gm_address, seats = started(runtime)
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "TAKE MURAT\n16-14 x1"))
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "9-4"))
    [mail] = [m for m in mails_to(runtime, GM) if "turn 1 results" in str(m["Subject"])]
    assert str(mail["Subject"]) == f"[pbem #{game_id}] 2 de Mayo · turn 1 results (game master)"
    assert str(mail["Reply-To"]) == gm_address
    report = text(mail)
    assert "turn 1 resolved (everyone had sent orders)" in report
    # Who played what, the outcomes, the position and the next deadline, as players read them.
    assert "France: 16-14 x1: 1 unit moved" in report and "Spain: 9-4: 1 unit moved" in report
    assert "POSITION AFTER TURN 1" in report and "Orders for turn 2 are due" in report
    assert any(part.get_content_type() == "image/png" for part in mail.walk())
    page = html_of(mail)
    assert "<h3>What happened</h3>" in page and f'<img src="cid:game{game_id}.turn1@' in page
    # Never a seat's hidden information: France's start card, a hand.
    assert "MURAT" not in report and "Your hand" not in report
    # A rolled-back turn played again is a result of its own.
    deliver_mail(runtime, compose(GM, gm_address, "ROLLBACK France misread the map"))
    deliver_mail(runtime, compose(GM, gm_address, "PROCESS NOW"))
    again = [m for m in mails_to(runtime, GM) if "turn 1 results" in str(m["Subject"])]
    assert len(again) == 2 and "(forced by the game master)" in text(again[-1])
    # The game master may ask for none.
    deliver_mail(runtime, compose(GM, gm_address, "GMREPORTS NONE"))
    assert "-> done: no more turn results by mail" in last_to(runtime, GM)
    deliver_mail(runtime, compose(GM, gm_address, "PROCESS NOW"))
    assert "turn 2 resolved" in last_to(runtime, FRANCE)
    assert not [m for m in mails_to(runtime, GM) if "turn 2 results" in str(m["Subject"])]
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).gm_reports == "none"


def test_a_game_master_command_to_a_seat_address_says_where_it_belongs(
    runtime: Runtime,
) -> None:
    seats = joined_with_me(runtime)
    gm_address = gm_address_of(runtime)
    deliver_mail(runtime, compose(ANA, seats[GM], "EXTEND 24h\nPAUSE"))
    answer = flat(last_to(runtime, GM))
    assert (
        f"EXTEND 24h -> EXTEND is a game-master command: send it to your game-master address "
        f"{gm_address}" in answer
    )
    assert "PAUSE -> PAUSE is a game-master command: send it to your game-master" in answer
    assert "not an order" not in answer
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "PROCESS NOW"))
    answer = flat(last_to(runtime, FRANCE))
    assert "PROCESS NOW is a game-master command: only the game master can do that" in answer
    assert gm_address not in answer and "not an order" not in answer
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        assert not game.paused and game.forced_at is None
    # Every command the game master has is pointed to, STATUS aside (every player's too).
    assert set(commands.GM_WORDS) == set(gm.WORDS) - {"STATUS"}


def test_extend_tells_the_players_the_reason(runtime: Runtime) -> None:
    _, gm_address, _ = started(runtime)
    deliver_mail(runtime, compose(GM, gm_address, "EXTEND 24h Luis is travelling"))
    assert "EXTEND 24h Luis is travelling\n     -> done: deadline now" in last_to(runtime, GM)
    for player in (FRANCE, SPAIN):
        notice = flat(last_to(runtime, player))
        assert "The deadline has moved (extended: Luis is travelling)." in notice
    deliver_mail(runtime, compose(GM, gm_address, "EXTEND soon"))
    assert "EXTEND takes a length such as 24h, 90m or 2d, then a reason" in last_to(runtime, GM)


def test_a_command_that_would_change_nothing_is_refused_and_announced_to_nobody(
    runtime: Runtime,
) -> None:
    game_id, gm_address, _ = started(runtime)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        deadline, sequence = game.deadline, game.deadline_sequence
    assert deadline is not None
    told = len(mails_to(runtime, FRANCE))
    deliver_mail(runtime, compose(GM, gm_address, "EXTEND 0h\nEXTEND 0m\nEXTEND 0d"))
    answer = last_to(runtime, GM)
    assert answer.count("-> not done: EXTEND by nothing leaves the deadline as it is") == 3
    assert len(mails_to(runtime, FRANCE)) == told
    later = (deadline + timedelta(days=1)).astimezone(ZoneInfo("Europe/Madrid"))
    moment = f"{later:%Y-%m-%d %H:%M}"
    deliver_mail(runtime, compose(GM, gm_address, f"SET DEADLINE {moment}"))
    assert len(mails_to(runtime, FRANCE)) == told + 1  # moved: told
    deliver_mail(
        runtime,
        compose(GM, gm_address, f"SET DEADLINE {moment}\nGMREPORTS TURN\nREPLACE spain {SPAIN}"),
    )
    answer = last_to(runtime, GM)
    assert "SET DEADLINE " + moment + "\n     -> not done: the deadline is already" in answer
    assert "-> not done: GMREPORTS is already TURN; nothing was changed" in answer
    assert f"-> not done: Spain is already played by {SPAIN}; nothing was changed" in answer
    assert len(mails_to(runtime, FRANCE)) == told + 1  # nothing moved: nobody told
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).deadline_sequence == sequence + 1


def test_the_games_options_are_shown_back_with_their_meaning(runtime: Runtime) -> None:
    game_id, _ = formed(runtime)
    half_stays = "half_stays=ceil: Spanish units that stay behind when a group leaves an area"
    schedule = "SCHEDULE 48h: how long each turn runs, or the weekly times its deadlines fall on"
    # One option or setting a line, as NEW writes it, then its meaning.
    assert "\n  half_stays=ceil: Spanish units" in last_to(runtime, GM)
    formed_mail = flat(last_to(runtime, GM))
    assert "THIS GAME'S OPTIONS AND SETTINGS" in formed_mail
    assert half_stays in formed_mail and schedule in formed_mail
    assert "TIMEZONE Europe/Madrid: the zone deadlines are set in" in formed_mail
    assert "EARLY yes: a turn is played as soon as every player has orders on file" in formed_mail
    for player in (FRANCE, SPAIN):
        invited = str(invitations(runtime)[player]["Reply-To"])
        deliver_mail(runtime, compose(player, invited, "JOIN"))
    for player in (FRANCE, SPAIN):
        start = flat(last_to(runtime, player))
        assert "Your game of 2 de Mayo has begun" in start
        assert half_stays in start and "GRACE 0 min: how long after its deadline" in start
    client = create_app(runtime).test_client()
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "<code>half_stays=ceil</code>: Spanish units that stay behind" in page
    assert "<code>REMIND 12 h</code>: how long before a deadline" in page
    data = client.get(f"/api/games/{game_id}").get_json()
    shown = {setting["name"]: setting for setting in data["settings"]}
    assert shown["half_stays"]["value"] == "ceil" and shown["half_stays"]["option"] is True
    assert shown["SCHEDULE"]["meaning"].startswith("how long each turn runs")
    spanish = client.get(f"/api/games/{game_id}?lang=es").get_json()
    shown = {setting["name"]: setting for setting in spanish["settings"]}
    assert shown["SCHEDULE"]["meaning"].startswith("cuánto dura cada turno")
    assert shown["EARLY"]["value"] == "sí"


def test_an_invitation_names_the_game_master_and_the_other_side(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(ANA, "new@pbem.localhost", WITH_ME))
    invited = {to: text(mail) for to, mail in invitations(runtime).items()}
    assert "Your game master is Ana Gómez." in invited[FRANCE]
    assert "Also invited: Spain (Ana Gómez)." in invited[FRANCE]
    # The game master's own invitation, as Spain, names France, who has given no name yet.
    assert "Also invited: France." in invited[GM]
    assert all(GM not in mail and FRANCE not in mail for mail in invited.values())


def test_an_invitation_from_a_game_master_without_a_name(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW))
    invited = text(invitations(runtime)[SPAIN])
    assert "Your game master gave no name." in invited and "Also invited: France." in invited
    assert GM not in invited and FRANCE not in invited


def test_replace_names_players_never_their_addresses(runtime: Runtime) -> None:
    formed(runtime)
    invited = {to: str(mail["Reply-To"]) for to, mail in invitations(runtime).items()}
    deliver_mail(runtime, compose(f"Joachim Murat <{FRANCE}>", invited[FRANCE], "JOIN"))
    deliver_mail(runtime, compose(f"Luis Daoíz <{SPAIN}>", invited[SPAIN], "JOIN"))
    gm_address = gm_address_of(runtime)
    deliver_mail(runtime, compose(GM, gm_address, "REPLACE spain palafox@example.com"))
    # The game master knows the addresses and is answered with them.
    assert f"Spain: {SPAIN} replaced by palafox@example.com" in last_to(runtime, GM)
    for player in (FRANCE, "palafox@example.com"):
        notice = flat(last_to(runtime, player))
        assert "Spain is now played by a new player (replacing Luis Daoíz)." in notice
        assert SPAIN not in notice and "palafox@example.com" not in notice


def test_the_new_sentences_in_spanish(runtime: Runtime) -> None:
    seats = joined_with_me(runtime, WITH_ME + "LANGUAGE es\n")
    invited = text(invitations(runtime)[FRANCE])
    assert "Tu director de juego es Ana Gómez." in invited
    assert "También invitado: España (Ana Gómez)." in invited
    start = flat(last_to(runtime, FRANCE))
    assert "OPCIONES Y AJUSTES DE ESTA PARTIDA" in start
    assert "SCHEDULE 48h: cuánto dura cada turno" in start
    deliver_mail(runtime, compose(ANA, seats[GM], "EXTEND 24h"))
    assert "EXTEND es una orden del director de juego: envíala a tu dirección de director" in flat(
        last_to(runtime, GM)
    )
    deliver_mail(runtime, compose(FRANCE, seats[FRANCE], "PAUSE"))
    assert "PAUSE es una orden del director de juego: solo el director de juego puede" in flat(
        last_to(runtime, FRANCE)
    )
    gm_address = gm_address_of(runtime)
    deliver_mail(runtime, compose(ANA, gm_address, "EXTEND 24h Luis está de viaje\nEXTEND 0h"))
    answer = flat(last_to(runtime, GM))
    assert "EXTEND por nada deja el plazo como está; no se ha cambiado nada" in answer
    notice = flat(last_to(runtime, FRANCE))
    assert "(prorrogado: Luis está de viaje)" in notice
    deliver_mail(runtime, compose(ANA, gm_address, "REPLACE france palafox@example.com"))
    notice = flat(last_to(runtime, "palafox@example.com"))
    assert "Ahora un jugador nuevo juega con Francia (en lugar de Jean Murat)." in notice


def test_the_game_masters_turn_mail_in_spanish(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW + "LANGUAGE es\n"))
    invited = {to: str(mail["Reply-To"]) for to, mail in invitations(runtime).items()}
    for player in (FRANCE, SPAIN):
        deliver_mail(runtime, compose(player, invited[player], "JOIN"))
    deliver_mail(runtime, compose(GM, gm_address_of(runtime), "PROCESS NOW"))
    [mail] = [m for m in mails_to(runtime, GM) if "turno 1" in str(m["Subject"])]
    assert "director de juego" in str(mail["Subject"])
    report = flat(text(mail))
    assert "Esto es lo que se mostró a los jugadores" in report
    assert "No hubo órdenes de Francia y España: se aplicaron las órdenes por defecto." in report
