"""Mail and pages put the player first: a side is named by its title ("France", "Royalists",
"the Spartans"), never by its seat id ("france"), which is for addresses and data; a player is
named by the name they joined with (their From line, or NAME), never by a part of their address.
Each game is played by mail through the real pipeline, and every text a player reads is checked."""

from __future__ import annotations

import html
import random
import re
from email.message import EmailMessage

import pytest
from playbymail import compose, deliver_mail, reply_to, sent, sent_count, text_of
from sqlalchemy import select

from adjudicator.core.refusal import Refusal
from adjudicator.games import registry
from adjudicator.models import Game, Player
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

GM, FRANCE, SPAIN = "gm@example.com", "murat@example.com", "daoiz@example.com"
HOPTON, RUTHIN, LEONIDAS = "hopton@example.com", "ruthin@example.com", "leonidas@example.com"
# Where a seat id may stand: inside an address (orders+1-france-…@…) or a link (…/check/france/…).
ADDRESSES = re.compile(r"\S+@\S+|https?://\S+")
SCRIPTS = re.compile(r"<(script|style)\b.*?</\1>", re.S)
TAGS = re.compile(r"<[^>]+>")


def read_words(text: str) -> str:
    """What a reader reads of a mail part or a page: tags, scripts, links and addresses gone."""
    return ADDRESSES.sub(" ", html.unescape(TAGS.sub(" ", SCRIPTS.sub(" ", text))))


def ids_shown(text: str, seats: tuple[str, ...]) -> list[str]:
    """Each line of ``text`` read that names a seat by its lowercase id, as a word."""
    pattern = re.compile(r"\b(" + "|".join(seats) + r")\b")
    return [line for line in read_words(text).splitlines() if pattern.search(line)]


def mail_words(message: EmailMessage) -> str:
    parts = [str(message["Subject"]), text_of(message)]
    body = message.get_body(preferencelist=("html",))
    if body is not None:
        parts.append(str(body.get_content()))
    return "\n".join(parts)


def pages(runtime: Runtime, game_id: int, turns: int) -> dict[str, str]:
    client = create_app(runtime).test_client()
    paths = ["/", f"/games/{game_id}", *(f"/games/{game_id}/turns/{n}" for n in range(turns + 1))]
    shown = {}
    for path in paths:
        answer = client.get(path)
        assert answer.status_code == 200, path
        shown[path] = answer.get_data(as_text=True)
    return shown


def assert_titles_only(
    runtime: Runtime, game_id: int, seats: tuple[str, ...], turns: int, since: int = 0
) -> None:
    for message in sent(runtime, since):
        found = ids_shown(mail_words(message), seats)
        assert not found, (str(message["To"]), str(message["Subject"]), found)
    for path, page in pages(runtime, game_id, turns).items():
        found = ids_shown(page, seats)
        assert not found, (path, found)


def turns_played(runtime: Runtime, game_id: int) -> int:
    with runtime.db.session() as session:
        return play.latest_turn(session, game_id).number


def dos_de_mayo_joined(runtime: Runtime) -> int:
    body = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    deliver_mail(runtime, compose(f"Joachim Murat <{FRANCE}>", reply_to(runtime, FRANCE), "JOIN"))
    deliver_mail(runtime, compose(f"Luis Daoiz <{SPAIN}>", reply_to(runtime, SPAIN), "JOIN"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        assert game.status == "active"
        return game.id


def test_a_2_de_mayo_game_names_its_sides_and_players_as_players_read_them(
    runtime: Runtime,
) -> None:
    game_id = dos_de_mayo_joined(runtime)
    france, spain = reply_to(runtime, FRANCE), reply_to(runtime, SPAIN)
    deliver_mail(runtime, compose(FRANCE, france, "STATUS\nHELP"))
    deliver_mail(runtime, compose(FRANCE, france, "TAKE MURAT\n16-14 x1\nDRAW"))
    deliver_mail(runtime, compose(SPAIN, spain, "9-14\nNODRAW"))
    deliver_mail(runtime, compose(SPAIN, spain, "PLAY MURAT\nSTATUS"))
    assert turns_played(runtime, game_id) == 1
    assert_titles_only(runtime, game_id, ("france", "spain"), 1)
    texts = {str(m["To"]): text_of(m).replace("\r\n", "\n") for m in sent(runtime)}
    welcome = next(text_of(m) for m in sent(runtime) if "game started" in str(m["Subject"]))
    assert "You play France." in welcome or "You play Spain." in welcome
    report = next(
        text_of(m).replace("\r\n", "\n")
        for m in sent(runtime)
        if str(m["To"]) == SPAIN and "turn 1 results" in str(m["Subject"])
    )
    assert "  France: 16-14 x1: 1 unit moved\n  Spain: 9-14: 1 unit moved" in report
    assert "Turn 2 of 10: Spain's orders" in report and "initiative France" in report
    # The game master sees each seat's title, the player's name and the address.
    assert "France (Joachim Murat): murat@example.com" in texts[GM]
    # Pages name the players by the names they joined with, never by a part of an address.
    game_page = html.unescape(pages(runtime, game_id, 1)[f"/games/{game_id}"])
    assert "<td>France</td><td>Joachim Murat</td>" in game_page
    assert "<td>Spain</td><td>Luis Daoiz</td>" in game_page
    assert "mu…" not in game_page and "da…" not in game_page


def test_the_name_joined_with_is_kept_and_an_address_is_never_a_name(runtime: Runtime) -> None:
    body = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    deliver_mail(runtime, compose(f"Joachim Murat <{FRANCE}>", reply_to(runtime, FRANCE), "JOIN"))
    # A From line whose name is an address gives no name: the seat's player is shown.
    deliver_mail(runtime, compose(f"{SPAIN} <{SPAIN}>", reply_to(runtime, SPAIN), "JOIN"))
    # A later From line does not change the name joined with: NAME does.
    deliver_mail(runtime, compose(f"King Joseph <{FRANCE}>", reply_to(runtime, FRANCE), "STATUS"))
    with runtime.db.session() as session:
        names = {p.address: play.display_name(p) for p in session.scalars(select(Player))}
        game_id = session.scalars(select(Game.id)).one()
    assert names[FRANCE] == "Joachim Murat" and names[SPAIN] == ""
    page = html.unescape(pages(runtime, game_id, 0)[f"/games/{game_id}"])
    assert "<td>France</td><td>Joachim Murat</td>" in page
    assert "<td>Spain</td><td>Spain's player</td>" in page and "da…" not in page


def test_name_sets_the_name_shown_and_is_confirmed(runtime: Runtime) -> None:
    game_id = dos_de_mayo_joined(runtime)
    spain = reply_to(runtime, SPAIN)
    before = sent_count(runtime)
    deliver_mail(runtime, compose(SPAIN, spain, "NAME  Pedro   Velarde"))
    [answer] = sent(runtime, before)
    text = text_of(answer).replace("\r\n", "\n")
    assert "NAME Pedro Velarde\n     -> done: you are now shown as Pedro Velarde" in text
    page = html.unescape(pages(runtime, game_id, 0)[f"/games/{game_id}"])
    assert "<td>Spain</td><td>Pedro Velarde</td>" in page
    # Refused, and said why: an address, a name too long; the name shown stays.
    for line, why in (
        ("NAME velarde@example.com", "a name may not hold an '@'"),
        ("NAME " + "Velarde " * 10, "a name is at most 60 characters"),
        ("NAME", "write NAME and the name to be shown"),
    ):
        before = sent_count(runtime)
        deliver_mail(runtime, compose(SPAIN, spain, line))
        [answer] = sent(runtime, before)
        text = text_of(answer).replace("\r\n", "\n")
        assert f"-> not done: name not changed: {why}" in text, text
        assert "(you are shown as Pedro Velarde)" in text
    with runtime.db.session() as session:
        player = session.scalars(select(Player).where(Player.address == SPAIN)).one()
        assert player.name == "Pedro Velarde"
    # Chat that happens to start with the word renames no one; nor does a subject.
    for line in ("Name the fort after me.", "Name one good reason why!", "NAME? What is that?"):
        deliver_mail(runtime, compose(SPAIN, spain, line))
    deliver_mail(runtime, compose(SPAIN, spain, "9-4", subject="Name change"))
    with runtime.db.session() as session:
        player = session.scalars(select(Player).where(Player.address == SPAIN)).one()
        assert player.name == "Pedro Velarde"
    # HELP lists the command.
    before = sent_count(runtime)
    deliver_mail(runtime, compose(SPAIN, spain, "HELP"))
    assert "  NAME Joachim Murat " in text_of(sent(runtime, before)[0])


@pytest.mark.parametrize(
    "given",
    ["Leónidas\x07", "Le\u202eonidas", "a@b", "x" * 61, "  ", "ab\ncd"],
)
def test_a_name_with_control_characters_an_address_or_too_long_is_refused(given: str) -> None:
    assert isinstance(play.usable_name(given), Refusal)


def test_a_name_is_kept_tidy() -> None:
    assert play.usable_name("  Luis\tDaoíz  de Torres ") == "Luis Daoíz de Torres"


def play_by_mail(runtime: Runtime, game_id: int, players: dict[str, str], steps: int) -> None:
    """Random legal answers by mail, one owed decision after another, for ``steps`` mails."""
    choose = random.Random(11)
    for _ in range(steps):
        with runtime.db.session() as session:
            game = session.get_one(Game, game_id)
            if game.status != "active":
                return
            rules = play.rules_for(game)
            state = rules.load(play.latest_turn(session, game_id).state)
        seat = sorted(rules.pending(state))[0]
        orders = choose.choice(list(rules.legal_orders(state, seat)))
        text = rules.orders_text(orders) or "RETREAT"
        deliver_mail(runtime, compose(players[seat], reply_to(runtime, players[seat]), text))


def test_musket_and_pike_mail_names_its_sides_by_the_scenario(runtime: Runtime) -> None:
    body = f"NEW MUSKETPIKE scenario=skirmish\nROYALIST {HOPTON}\nPARLIAMENT {RUTHIN}\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    for address, name in ((HOPTON, "Ralph Hopton"), (RUTHIN, "William Ruthin")):
        deliver_mail(runtime, compose(f"{name} <{address}>", reply_to(runtime, address), "JOIN"))
    with runtime.db.session() as session:
        game_id = session.scalars(select(Game.id)).one()
    play_by_mail(runtime, game_id, {"royalist": HOPTON, "parliament": RUTHIN}, 40)
    steps = turns_played(runtime, game_id)
    assert steps > 20
    assert_titles_only(runtime, game_id, ("royalist", "parliament"), steps)
    texts = [text_of(m) for m in sent(runtime)]
    assert any("You play Royalists." in text for text in texts)
    assert any("is owed by Parliament" in text for text in texts)
    page = html.unescape(pages(runtime, game_id, 0)[f"/games/{game_id}"])
    assert "<td>Royalists</td><td>Ralph Hopton</td>" in page


def test_thermopyles_mail_names_the_spartans(runtime: Runtime) -> None:
    deliver_mail(
        runtime, compose(f"Leonidas <{LEONIDAS}>", "new@pbem.localhost", "NEW THERMOPYLES")
    )
    with runtime.db.session() as session:
        game_id = session.scalars(select(Game.id)).one()
    play_by_mail(runtime, game_id, {"spartans": LEONIDAS}, 4)
    assert_titles_only(runtime, game_id, ("spartans",), turns_played(runtime, game_id))
    assert "You play the Spartans." in text_of(sent(runtime)[0])
    assert registry.games()["thermopyles"].seat_title("spartans") == "the Spartans"
    page = html.unescape(pages(runtime, game_id, 0)[f"/games/{game_id}"])
    assert "<td>the Spartans</td><td>Leonidas</td>" in page
