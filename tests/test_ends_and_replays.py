"""A game's end reaches everyone, truthfully, and a turn played again after a rollback reaches
every seat as a new report; a turn's picture has an address of its own per version. Read as each
player, the game master and a web reader would: mails in text and HTML, in English and one other
language, the pages, the API and the Atom feed. Through the real pipeline, on SQLite and
PostgreSQL."""

from __future__ import annotations

import html
import re
from email.message import EmailMessage
from xml.etree import ElementTree as ET

from fairness_games import finished_thermopyles
from icalendar import Calendar, Event
from playbymail import compose, deliver_mail, html_of, reply_to, sent, sent_count, text_of
from sqlalchemy import select

from adjudicator.models import Game, Player
from adjudicator.services.outbound import gm_letters
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

GM, FRANCE, SPAIN = "gm@example.com", "murat@example.com", "daoiz@example.com"
ROYALIST, PARLIAMENT = "hopton@example.com", "ruthin@example.com"
LEONIDAS = "leonidas@example.com"
ATOM = "{http://www.w3.org/2005/Atom}"
# What a mail that offers a move says; no mail of an ended game may say any of it.
OFFERS = ("Legal now", "WHAT YOU CAN DO NOW", "What you can do now", "Send one action")


def new_by_gm(runtime: Runtime, body: str, players: tuple[str, ...]) -> int:
    """A game a game master makes by mail, every player JOINed: its id."""
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    for address in players:
        deliver_mail(runtime, compose(address, reply_to(runtime, address), "JOIN"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert game is not None and game.status == "active"
        return game.id


def dos_de_mayo(runtime: Runtime) -> int:
    body = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\n"
    return new_by_gm(runtime, body, (FRANCE, SPAIN))


def musket_and_pike(runtime: Runtime) -> int:
    body = f"NEW MUSKETPIKE scenario=skirmish\nROYALIST {ROYALIST}\nPARLIAMENT {PARLIAMENT}\n"
    return new_by_gm(runtime, body, (ROYALIST, PARLIAMENT))


def thermopyles(runtime: Runtime) -> int:
    deliver_mail(runtime, compose(LEONIDAS, "new@pbem.localhost", "NEW THERMOPYLES"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert game is not None
        return game.id


def speaks(runtime: Runtime, address: str, language: str) -> None:
    with runtime.db.session() as session:
        player = session.scalars(select(Player).where(Player.address == address)).one()
        player.language = language


def mails_to(mails: list[EmailMessage], address: str) -> list[EmailMessage]:
    return [mail for mail in mails if str(mail["To"]) == address]


def plain(mail: EmailMessage) -> str:
    return text_of(mail).replace("\r\n", "\n")


def calendars(mail: EmailMessage) -> dict[str, Event]:
    """The mail's calendar entries by their part's method."""
    found = {}
    for part in mail.iter_attachments():
        if part.get_content_type() == "text/calendar":
            [event] = Calendar.from_ical(part.get_payload(decode=True)).walk("VEVENT")
            found[str(part.get_param("method"))] = event
    return found


def has_map(mail: EmailMessage) -> bool:
    return any(part.get_content_type() == "image/png" for part in mail.walk())


def seed_of(runtime: Runtime, game_id: int) -> str:
    with runtime.db.session() as session:
        return session.get_one(Game, game_id).seed.hex()


def read_as_ended(mail: EmailMessage, result: str, seed: str, game_id: int) -> None:
    """An end mail, as its reader reads it: how the game ended, the map, the seed and where to
    check it, and nothing that asks for a move or a calendar entry for a turn to come."""
    for text in (plain(mail), html.unescape(html_of(mail))):
        assert result in text, text
        assert seed in text and f"/games/{game_id}/verify" in text, text
        for offer in OFFERS:
            assert offer not in text, (offer, text)
        assert "in play." not in text, text  # the position as the game words a running one
    assert has_map(mail)
    assert "PUBLISH" not in calendars(mail)


def test_a_resignation_ends_the_game_for_both_players_and_the_game_master(
    runtime: Runtime,
) -> None:
    game_id = dos_de_mayo(runtime)
    speaks(runtime, FRANCE, "es")
    before = sent_count(runtime)
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "RESIGN"))
    mails = sent(runtime, before)
    seed = seed_of(runtime, game_id)
    [spain] = mails_to(mails, SPAIN)
    [france] = mails_to(mails, FRANCE)
    [master] = mails_to(mails, GM)
    read_as_ended(spain, "Spain resigned; France wins", seed, game_id)
    assert "you resigned; game" in plain(spain)
    read_as_ended(france, "España se ha rendido; gana Francia", seed, game_id)
    # The turn that was due will not be played: its calendar entry is withdrawn.
    for mail in (spain, france):
        assert calendars(mail)["CANCEL"]["UID"] == f"game-{game_id}-turn-1@pbem.localhost"
    gm_text = plain(master)
    assert "Spain resigned; France wins" in gm_text and seed in gm_text, gm_text
    assert f"/games/{game_id}/verify" in gm_text and has_map(master)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.status == "finished" and game.result == "Spain resigned; France wins"
        assert game.result_said is not None and game.score == [1]
    # Later mail to the game: it has ended, nothing in it is played.
    before = sent_count(runtime)
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "16-14 x1"))
    [late] = sent(runtime, before)
    assert "ha terminado" in plain(late), plain(late)


def test_a_solo_resignation_offers_nothing_more(runtime: Runtime) -> None:
    game_id = thermopyles(runtime)
    speaks(runtime, LEONIDAS, "ru")
    before = sent_count(runtime)
    deliver_mail(runtime, compose(LEONIDAS, reply_to(runtime, LEONIDAS), "RETREAT\nRESIGN"))
    [ending] = sent(runtime, before)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.status == "finished" and game.score == [0]
        result = play.shown_result(game)
    read_as_ended(ending, "Спартанцы сдаются", seed_of(runtime, game_id), game_id)
    text = plain(ending)
    assert "RETREAT\n     -> не прочитано: вы сдались в этом же письме" in text, text
    # The position is worded as a game that has ended: no move is legal in it any more.
    assert "Thermopyles, ход 0: партия окончена." in text, text
    assert result == "the Spartans resigned", result


def test_a_resignation_in_musket_and_pike_names_the_winning_side(runtime: Runtime) -> None:
    game_id = musket_and_pike(runtime)
    before = sent_count(runtime)
    deliver_mail(runtime, compose(PARLIAMENT, reply_to(runtime, PARLIAMENT), "RESIGN"))
    mails = sent(runtime, before)
    seed = seed_of(runtime, game_id)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert game.score == [1], game.score  # the first seat, the Royalists, won
        result = game.result
    assert re.fullmatch(r".+ resigned; .+ wins?", result), result
    for address in (ROYALIST, PARLIAMENT):
        [mail] = mails_to(mails, address)
        read_as_ended(mail, result, seed, game_id)
    assert mails_to(mails, GM)


def feed_entries(runtime: Runtime, game_id: int) -> list[ET.Element]:
    feed = create_app(runtime).test_client().get(f"/games/{game_id}/feed.atom")
    assert feed.status_code == 200
    return ET.fromstring(feed.data).findall(f"{ATOM}entry")


def end_entry(runtime: Runtime, game_id: int) -> tuple[str, str]:
    """The feed's newest entry, which must be the game's end: its title and summary."""
    newest = feed_entries(runtime, game_id)[0]
    assert str(newest.findtext(f"{ATOM}id")).endswith(f"game-{game_id}-end")
    return str(newest.findtext(f"{ATOM}title")), str(newest.findtext(f"{ATOM}summary"))


def test_a_resigned_game_shows_its_end_on_the_page_the_api_and_the_feed(runtime: Runtime) -> None:
    game_id = dos_de_mayo(runtime)
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "RESIGN"))
    client = create_app(runtime).test_client()
    page = html.unescape(client.get(f"/games/{game_id}").get_data(as_text=True))
    assert "The game is over: Spain resigned; France wins." in page
    assert "Final position" in page and "in play." not in page, page
    assert "Turn 1 of 10: the game has ended." in page
    spanish = html.unescape(client.get(f"/games/{game_id}?lang=es").get_data(as_text=True))
    assert "España se ha rendido; gana Francia" in spanish and "Posición final" in spanish
    shown = client.get(f"/api/games/{game_id}").get_json()
    assert shown["status"] == "finished" and shown["result"] == "Spain resigned; France wins"
    assert shown["finished_at"] and shown["seed"] == seed_of(runtime, game_id)
    title, summary = end_entry(runtime, game_id)
    assert title == "Game over: Spain resigned; France wins", title
    assert "Turn 1 of 10: the game has ended." in summary and "in play." not in summary


def test_the_feed_ends_with_the_end_however_it_came(runtime: Runtime) -> None:
    game_id = dos_de_mayo(runtime)
    with runtime.db.session() as session:
        master = gm_letters.gm_address(runtime, session.get_one(Game, game_id))
    before = sent_count(runtime)
    deliver_mail(runtime, compose(GM, master, "END"))
    title, _ = end_entry(runtime, game_id)
    assert title == "Game over: ended by the game master", title
    for mail in mails_to(sent(runtime, before), FRANCE):
        for offer in OFFERS:
            assert offer not in plain(mail)
    ruled = finished_thermopyles(runtime)
    with runtime.db.session() as session:
        result = session.get_one(Game, ruled).result
    title, summary = end_entry(runtime, ruled)
    assert title == f"Game over: {result}" and "Legal now" not in summary


def turn_one_played(runtime: Runtime) -> tuple[int, str]:
    """A 2 de Mayo game whose turn 1 both players' orders played: its id and the game master's
    address."""
    game_id = dos_de_mayo(runtime)
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "16-14 x2"))
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "9-14"))
    with runtime.db.session() as session:
        return game_id, gm_letters.gm_address(runtime, session.get_one(Game, game_id))


def test_a_turn_played_again_after_a_rollback_reaches_every_seat(runtime: Runtime) -> None:
    game_id, master = turn_one_played(runtime)
    speaks(runtime, SPAIN, "es")
    deliver_mail(runtime, compose(GM, master, "ROLLBACK France misread the map"))
    notices = {str(mail["To"]): mail for mail in sent(runtime)[-3:]}
    withdrawn = calendars(notices[FRANCE])["CANCEL"]
    assert withdrawn["UID"] == f"game-{game_id}-turn-2@pbem.localhost"
    # France's new orders, with Spain's still on file, play the turn again at once.
    before = sent_count(runtime)
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "16-14 x1"))
    mails = sent(runtime, before)
    [france] = [mail for mail in mails_to(mails, FRANCE) if "resolved" in plain(mail)]
    [spain] = mails_to(mails, SPAIN)
    english = plain(france).replace("\n", " ")
    assert "turn 1 resolved (everyone had sent orders)" in english, english
    assert (
        "This report replaces the earlier report of turn 1: the game master rolled that turn "
        "back (France misread the map), and it has been played again." in english
    ), english
    spanish = html.unescape(html_of(spain))
    assert "Este informe sustituye al informe anterior del turno 1" in spanish, spanish
    assert "(France misread the map)" in spanish
    # Turn 2's entry, withdrawn by the rollback, comes back newer than its cancel.
    for mail in (france, spain):
        entry = calendars(mail)["PUBLISH"]
        assert entry["UID"] == withdrawn["UID"]
        assert int(entry["SEQUENCE"]) > int(withdrawn["SEQUENCE"])


PICTURE = re.compile(r"/games/(\d+)/turns/(\d+)/([0-9a-f]{20})((?:\.[a-z]{2})?(?:@2x)?)\.png")


def pictures_of(text: str, game_id: int, number: int) -> set[str]:
    """The addresses of turn ``number``'s pictures that ``text`` links."""
    return {
        found.group(0)
        for found in PICTURE.finditer(text)
        if (int(found.group(1)), int(found.group(2))) == (game_id, number)
    }


def test_a_turn_played_again_has_pictures_at_addresses_of_their_own(runtime: Runtime) -> None:
    game_id, master = turn_one_played(runtime)
    client = create_app(runtime).test_client()
    first_page = client.get(f"/games/{game_id}").get_data(as_text=True)
    [first] = {address for address in pictures_of(first_page, game_id, 1) if "@" not in address}
    first_png = client.get(first).data
    first_2x = client.get(first.replace(".png", "@2x.png"))
    assert first_2x.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    # The address by number alone leads to the live version's, and is not kept.
    old = client.get(f"/games/{game_id}/turns/1.png")
    assert old.status_code == 302 and old.headers["Location"].endswith(first)
    assert "immutable" not in old.headers.get("Cache-Control", "")
    deliver_mail(runtime, compose(GM, master, "ROLLBACK France meant one unit"))
    assert client.get(f"/games/{game_id}/turns/1.png").status_code == 404  # none live now
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "16-14 x1"))
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    [again] = {address for address in pictures_of(page, game_id, 1) if "@" not in address}
    assert again != first and first not in page.split('id="turn-1-rolled-back"')[0]
    served = client.get(again)
    assert served.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert served.data != first_png
    # The rolled-back version's picture keeps its address and its bytes.
    assert client.get(first).data == first_png
    assert client.get(f"/games/{game_id}/turns/1.png").headers["Location"].endswith(again)
    # Every place that links the turn's picture links the live version's own address.
    turn_page = client.get(f"/games/{game_id}/turns/1").get_data(as_text=True)
    assert again in turn_page and again.replace(".png", "@2x.png") in turn_page
    assert first in turn_page  # the struck version shows its own picture
    spanish = client.get(f"/games/{game_id}?lang=es").get_data(as_text=True)
    assert again.replace(".png", ".es.png") in spanish
    assert client.get(again.replace(".png", ".es@2x.png")).status_code == 200
    shown = client.get(f"/api/games/{game_id}").get_json()
    live = [turn for turn in shown["turns"] if turn["number"] == 1 and not turn["rolled_back"]]
    assert live[0]["picture"] == again
    feed = client.get(f"/games/{game_id}/feed.atom").get_data(as_text=True)
    assert again in feed and first not in feed
    # An address naming no version of the turn names no picture.
    assert client.get(again.replace(again.split("/")[-1], "0" * 20 + ".png")).status_code == 404
