"""A 2 de Mayo turn is drawn once: every player's mail shows the turn's stored public map, and
their own hand in words; games whose seats see different pictures still draw each seat's."""

from __future__ import annotations

from email.message import EmailMessage

from dos_de_mayo_by_mail import DOS, FRANCE, SPAIN, position, start_dos_de_mayo
from playbymail import compose, deliver_mail, html_of, sent, text_of
from sqlalchemy import select

from adjudicator import i18n
from adjudicator.games import registry
from adjudicator.models import Turn
from adjudicator.services.record.positions import snapshot
from adjudicator.services.record.runtime import Runtime

SHARED = "The map is the one every player sees; your own cards are given in words below."


def picture_of(mail: EmailMessage) -> EmailMessage:
    [image] = [part for part in mail.walk() if part.get_content_type() == "image/png"]
    assert isinstance(image, EmailMessage)
    return image


def stored_picture(runtime: Runtime, game_id: int, number: int) -> bytes:
    with runtime.db.session() as session:
        return bytes(
            session.scalars(
                select(Turn.public_png).where(Turn.game_id == game_id, Turn.number == number)
            ).one()
        )


def hand_in_words(runtime: Runtime, game_id: int, seat: str) -> str:
    names = [card["name"] for card in DOS.view(position(runtime, game_id), seat)["hand"]]
    return f"Your hand: {', '.join(names) or 'empty'}."


def test_every_players_turn_report_shows_the_stored_map_and_their_hand_in_words(
    runtime: Runtime,
) -> None:
    game_id, addresses = start_dos_de_mayo(runtime)
    before = len(sent(runtime))
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW"))
    deliver_mail(runtime, compose(SPAIN, addresses[SPAIN], "9-14\nNODRAW"))
    reports = {str(m["To"]): m for m in sent(runtime, before) if m["X-Pbem-Kind"] == "report"}
    assert sorted(reports) == sorted([FRANCE, SPAIN])
    stored = stored_picture(runtime, game_id, 1)
    for player, seat in ((FRANCE, "france"), (SPAIN, "spain")):
        mail = reports[player]
        image = picture_of(mail)
        assert image.get_content() == stored
        assert str(image["Content-ID"]) == f"<game{game_id}.turn1@{runtime.config.mail_domain}>"
        assert "as every player sees it" in str(image["Content-Description"])
        text, html = text_of(mail), html_of(mail)
        assert SHARED in text and SHARED in html
        # The hand the map no longer shows is in the words, the player's own and no other's.
        assert hand_in_words(runtime, game_id, seat) in text
        other = "spain" if seat == "france" else "france"
        assert hand_in_words(runtime, game_id, other) not in text


def test_a_reply_that_shows_the_map_shows_the_stored_one(runtime: Runtime) -> None:
    game_id, addresses = start_dos_de_mayo(runtime)
    welcomes = {str(m["To"]): m for m in sent(runtime) if m["X-Pbem-Kind"] == "start"}
    stored = stored_picture(runtime, game_id, 0)
    assert {picture_of(m).get_content() for m in welcomes.values()} == {stored}
    deliver_mail(runtime, compose(SPAIN, addresses[SPAIN], "RESIGN"))
    before = len(sent(runtime))
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "STATUS"))
    [over] = [m for m in sent(runtime, before) if str(m["To"]) == FRANCE]
    assert over["X-Pbem-Kind"] == "game-over"
    assert picture_of(over).get_content() == stored_picture(runtime, game_id, 0)
    assert hand_in_words(runtime, game_id, "france") in text_of(over)


def test_only_games_whose_pictures_differ_in_words_alone_share_them() -> None:
    games = registry.games()
    assert games["2demayo"].shared_picture
    # A side's map shows its own orders; a solitaire hand is the one picture drawn anyway.
    assert not games["musketpike"].shared_picture
    assert not games["thermopyles"].shared_picture


def calendar_parts(mail: EmailMessage) -> list[bytes]:
    parts = [part for part in mail.walk() if part.get_content_type() == "text/calendar"]
    return [bytes(part.get_payload(decode=True)) for part in parts]


def test_a_turns_state_and_calendar_are_made_once_for_all_its_seats(runtime: Runtime) -> None:
    game_id, addresses = start_dos_de_mayo(runtime)
    before = len(sent(runtime))
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW"))
    deliver_mail(runtime, compose(SPAIN, addresses[SPAIN], "9-14\nNODRAW"))
    reports = [m for m in sent(runtime, before) if m["X-Pbem-Kind"] == "report"]
    france, spain = (calendar_parts(mail) for mail in reports)
    assert france == spain and len(france) == 2  # the next deadline, and the overtaken one
    with runtime.db.session() as session:
        turn = session.scalars(select(Turn).where(Turn.game_id == game_id)).first()
        assert turn is not None
        shot = snapshot(session, DOS, turn)
        assert snapshot(session, DOS, turn) is shot
        assert shot.owed.keys() == {"france", "spain"}
        # A row the session let go of and loaded again is loaded again, never taken for it.
        session.expunge(turn)
        again = session.get_one(Turn, turn.id)
        assert again is not turn and snapshot(session, DOS, again) is not shot


def test_a_reader_of_another_language_is_shown_the_public_map_drawn_in_theirs(
    runtime: Runtime,
) -> None:
    game_id, addresses = start_dos_de_mayo(runtime)
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "PREFERENCES LANGUAGE ru"))
    domain = runtime.config.mail_domain

    def turn_reports(orders: dict[str, str]) -> dict[str, EmailMessage]:
        before = len(sent(runtime))
        for player, text in orders.items():
            deliver_mail(runtime, compose(player, addresses[player], text))
        return {str(m["To"]): m for m in sent(runtime, before) if m["X-Pbem-Kind"] == "report"}

    def drawn_in(lang: str) -> bytes:
        with i18n.speaking(lang):
            return DOS.render(DOS.view(position(runtime, game_id), None), None)

    # Turn 1: France reads Russian, Spain English. Spain's map is the stored one, as ever.
    reports = turn_reports({FRANCE: "TAKE MURAT\n16-14 x1\nDRAW", SPAIN: "9-14\nNODRAW"})
    stored = stored_picture(runtime, game_id, 1)
    english, russian = picture_of(reports[SPAIN]), picture_of(reports[FRANCE])
    assert english.get_content() == stored
    assert str(english["Content-ID"]) == f"<game{game_id}.turn1@{domain}>"
    assert russian.get_content() == drawn_in("ru") != stored
    assert str(russian["Content-ID"]) == f"<game{game_id}.turn1.ru@{domain}>"
    assert f"cid:game{game_id}.turn1.ru@{domain}" in html_of(reports[FRANCE])
    # Turn 2: Spain now reads Spanish; each reader's map is drawn in their own language.
    deliver_mail(runtime, compose(SPAIN, addresses[SPAIN], "PREFERENCES LANGUAGE es"))
    state = position(runtime, game_id)
    orders = {
        player: DOS.orders_text(next(iter(DOS.legal_orders(state, seat)))) or ""
        for player, seat in ((FRANCE, "france"), (SPAIN, "spain"))
    }
    reports = turn_reports(orders)
    russian, spanish = picture_of(reports[FRANCE]), picture_of(reports[SPAIN])
    assert russian.get_content() == drawn_in("ru")
    assert spanish.get_content() == drawn_in("es")
    assert (
        len({russian.get_content(), spanish.get_content(), stored_picture(runtime, game_id, 2)})
        == 3
    )
    assert str(spanish["Content-ID"]) == f"<game{game_id}.turn2.es@{domain}>"
    assert str(russian["Content-ID"]) == f"<game{game_id}.turn2.ru@{domain}>"
    # Its words are the reader's, beside it: the map is still the one every player sees.
    assert "Content-Description" in spanish and "as every player sees it" not in str(
        spanish["Content-Description"]
    )
