"""A player's "my games" list: reached from a seat's private checker link, signed for the player
with the secret key, listing only the games they sit in; a forged or altered token lists none."""

from __future__ import annotations

from dos_de_mayo_by_mail import FRANCE, GM, start_dos_de_mayo
from playbymail import compose, deliver_mail, sent
from sqlalchemy import select
from test_help_pages import plain

from adjudicator.mail import addresses
from adjudicator.models import Game, Seat
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app


def test_a_checker_link_leads_to_the_players_own_games_only(runtime: Runtime) -> None:
    mine, replies = start_dos_de_mayo(runtime, gm_address=GM)
    deliver_mail(runtime, compose("leonidas@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    secret = runtime.config.secret_key
    with runtime.db.session() as session:
        seat = session.scalars(
            select(Seat).where(Seat.game_id == mine, Seat.seat == "france")
        ).one()
        player_id, version = seat.player_id, seat.key_version
        assert seat.player.address == FRANCE
        others = session.scalars(select(Game.id).where(Game.id != mine)).all()
    client = create_app(runtime).test_client()
    signature = addresses.check_signature(secret, mine, "france", version)
    # The seat's private checker links its player's games.
    checker = client.get(f"/games/{mine}/check/france/{signature}").get_data(as_text=True)
    assert f'href="/games/{mine}/mine/france/{signature}">Your games</a>' in checker
    found = client.get(f"/games/{mine}/mine/france/{signature}")
    assert found.status_code == 303
    token = addresses.player_token(secret, player_id)
    assert found.headers["Location"] == f"/?player={token}"
    listed = client.get(f"/?player={token}").get_data(as_text=True)
    assert "<h1>Your games</h1>" in listed and f'href="/games/{mine}"' in listed
    assert "You owe a move:" in listed  # France has sent no orders for turn 1 yet
    assert "You owe a move:" not in client.get("/").get_data(as_text=True)
    deliver_mail(runtime, compose(FRANCE, replies[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW"))
    assert "You owe a move:" not in client.get(f"/?player={token}").get_data(as_text=True)
    assert others and all(f'href="/games/{other}"' not in listed for other in others)
    # The filter links keep the player's list.
    assert f"player={token}" in listed.split("Filter by status")[1]
    # Any other player's number, or an altered mac, is refused; so is a wrong checker link.
    number, mac = token.split("-")
    for forged in (f"{int(number) + 1}-{mac}", f"{number}-{mac[::-1]}", number, f"x-{mac}"):
        assert client.get(f"/?player={forged}").status_code == 400, forged
    assert client.get(f"/games/{mine}/mine/france/{'0' * 16}").status_code == 404
    assert client.get(f"/games/{mine}/mine/spain/{signature}").status_code == 404
    # Signed under another key, the token is not ours.
    assert client.get(f"/?player={addresses.player_token('other', player_id)}").status_code == 400


def test_every_mail_to_a_player_links_their_own_games(runtime: Runtime) -> None:
    """The list is found from any mail's footer, in the player's language, and opens their list."""
    mine, replies = start_dos_de_mayo(runtime, gm_address=GM)
    deliver_mail(runtime, compose(FRANCE, replies[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW"))
    with runtime.db.session() as session:
        seat = session.scalars(
            select(Seat).where(Seat.game_id == mine, Seat.seat == "france")
        ).one()
        token = addresses.player_token(runtime.config.secret_key, seat.player_id)
    to_france = [mail for mail in sent(runtime) if FRANCE in str(mail["To"])]
    assert len(to_france) == 2  # the start and the receipt
    link = f"{runtime.config.base_url}/?player={token}"
    for mail in to_france:
        assert f"Your games (private to you): {link}" in plain(mail), mail["Subject"]
        html = mail.get_body(("html",))
        assert html is not None and f'<a href="{link}">' in html.get_content()
    listed = create_app(runtime).test_client().get(link.removeprefix(runtime.config.base_url))
    assert f'href="/games/{mine}"' in listed.get_data(as_text=True)


def test_games_by_mail_lists_the_players_games_and_what_they_owe(runtime: Runtime) -> None:
    """GAMES (PARTIDAS, ПАРТИИ) at a seat's address answers with every game its player sits in,
    what they owe in each and their own list's link; never another player's games."""
    mine, replies = start_dos_de_mayo(runtime, gm_address=GM)
    deliver_mail(runtime, compose(FRANCE, "new@pbem.localhost", "NEW THERMOPYLES"))
    deliver_mail(runtime, compose("leonidas@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    with runtime.db.session() as session:
        seat = session.scalars(
            select(Seat).where(Seat.game_id == mine, Seat.seat == "france")
        ).one()
        token = addresses.player_token(runtime.config.secret_key, seat.player_id)
        solo, stranger = session.scalars(select(Game.id).where(Game.id != mine)).all()
    before = len(sent(runtime))
    deliver_mail(runtime, compose(FRANCE, replies[FRANCE], "GAMES"))
    (answer,) = sent(runtime)[before:]
    text = " ".join(plain(answer).split())
    assert f"game {mine}, 2 de Mayo: you owe a move" in text
    assert f"game {solo}, Thermopyles: you owe a move" in text
    assert f"game {stranger}," not in text
    assert f"The list, with links: {runtime.config.base_url}/?player={token}" in text
    deliver_mail(runtime, compose(FRANCE, replies[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW"))
    before = len(sent(runtime))
    deliver_mail(runtime, compose(FRANCE, replies[FRANCE], "partidas"))
    (answer,) = sent(runtime)[before:]
    text = " ".join(plain(answer).split())
    assert f"partida {mine}, 2 de Mayo: en juego, no te toca nada" in text, text
