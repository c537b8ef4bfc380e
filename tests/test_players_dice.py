"""Players add their own words to a game's dice: JOIN words, NEW words for a solo game, the
Message-ID of a mail without any; the mails say what went in, and the draws follow them."""

from __future__ import annotations

from playbymail import compose, deliver_mail, sent, text_of
from sqlalchemy import select

from adjudicator.core.chance import Chance, Contribution, chance_key
from adjudicator.models import Game, Turn
from adjudicator.services.record import dice
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import lifecycle
from adjudicator.services.turns.lifecycle import GameSettings
from adjudicator.services.words import commands
from adjudicator.web import create_app

FRANCE, SPAIN, GM = "murat@example.com", "daoiz@example.com", "gm@example.com"
LEONIDAS = "leonidas@example.com"
NEW_GAME = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\n"


def test_join_carries_words_and_new_carries_a_solo_players_words() -> None:
    join = commands.command_of("JOIN  tiger   4417")
    assert join is not None and (join.word, join.argument) == ("JOIN", "tiger 4417")
    assert commands.command_of("Join us?") is None  # a question is chatter
    alone = commands.command_of("join.")
    assert alone is not None and (alone.word, alone.argument) == ("JOIN", "")
    # A subject is read only when it is a command alone: "Join the game" is a title.
    assert commands.command_of("JOIN the game", from_subject=True) is None
    new = commands.parse_new(["NEW THERMOPYLES Molon Labe 480"])
    assert isinstance(new, commands.NewGame) and new.words == "Molon Labe 480"
    assert dice.contribution("france", "  a \t b ", "<x@y>").words == "a b"
    assert dice.contribution("france", "", "<x@y>") == Contribution("france", "<x@y>", "message-id")
    digest = dice.contribution("france", "", None, b"raw mail")
    assert digest.source == "mail-digest" and len(digest.words) == 64


def last_to(runtime: Runtime, address: str) -> str:
    """The text of the last mail to ``address``, its lines run together as a reader reads them."""
    mails = [mail for mail in sent(runtime) if str(mail["To"]) == address]
    assert mails, f"nothing was sent to {address}"
    return " ".join(text_of(mails[-1]).split())


def invitations(runtime: Runtime) -> dict[str, str]:
    return {str(m["To"]): str(m["Reply-To"]) for m in sent(runtime) if "invited" in m["Subject"]}


def test_each_joins_words_go_into_the_dice_and_the_start_mail_lists_them(
    runtime: Runtime,
) -> None:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW_GAME))
    invited = [text_of(m) for m in sent(runtime) if "invited" in m["Subject"]]
    assert all("Add words of your own after JOIN" in " ".join(t.split()) for t in invited)
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        commitment = game.commitment
        assert game.chance_scheme == "v2" and game.contributions == []
    assert all(commitment in text for text in invited)  # committed before anyone answered
    seats = invitations(runtime)
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "Hello!\nJOIN viva 1808"))
    assert 'your words "viva 1808" go into the dice' in last_to(runtime, SPAIN)
    deliver_mail(runtime, compose(SPAIN, seats[SPAIN], "JOIN something else"))
    assert "your words for the dice from your first JOIN stand" in last_to(runtime, SPAIN)
    joining = compose(FRANCE, seats[FRANCE], "JOIN")
    deliver_mail(runtime, joining)
    message_id = next(line for line in joining.decode().splitlines() if line.startswith("Message"))
    message_id = message_id.split(":", 1)[1].strip()
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        given = dice.contributions(game)
        opening = session.scalars(select(Turn).where(Turn.game_id == game.id)).one()
        assert game.status == "active"
        seed, stream, events = game.seed, game.stream, opening.events
    assert [(c.seat, c.words, c.source) for c in given] == [
        ("france", message_id, "message-id"),
        ("spain", "viva 1808", "words"),
    ]
    for player in (FRANCE, SPAIN):
        welcome = last_to(runtime, player)
        assert "FAIR DICE" in welcome
        assert 'Spain: "viva 1808"' in welcome
        assert f"France: no words, so their mail's Message-ID {message_id}" in welcome
    # While the game runs, the public record keeps them back with the seed (a Message-ID names
    # the player's mail host); the players have them in their start mail.
    client = create_app(runtime).test_client()
    game_id = client.get("/api/games").get_json()["games"][0]["id"]
    assert client.get(f"/api/games/{game_id}/fairness.json").get_json()["contributions"] == []
    page = client.get(f"/games/{game_id}/fairness").get_data(as_text=True)
    assert "contributions are listed here when the game ends" in page
    assert message_id.strip("<>") not in page
    # The opening deal is drawn with both contributions; other words would have dealt otherwise.
    decks = [event for event in events if event["kind"] == "shuffle"]
    assert decks
    key = chance_key(seed, "v2", given)
    other = chance_key(seed, "v2", [given[0], Contribution("spain", "viva 1809", "words")])
    for event in decks:
        assert (
            list(Chance(key, stream, 0).shuffle(event["label"], range(event["bound"])))
            == (event["result"])
        )
    assert any(
        list(Chance(other, stream, 0).shuffle(event["label"], range(event["bound"])))
        != event["result"]
        for event in decks
    )


def test_a_solo_players_words_after_new_go_into_the_dice(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(LEONIDAS, "new@pbem.localhost", "NEW THERMOPYLES molon labe"))
    start = last_to(runtime, LEONIDAS)
    assert 'your words "molon labe"' in start and "FAIR DICE" in start
    deliver_mail(runtime, compose(LEONIDAS, "new@pbem.localhost", "NEW THERMOPYLES"))
    assert "no words from you, so your mail's Message-ID <" in last_to(runtime, LEONIDAS)
    with runtime.db.session() as session:
        games = session.scalars(select(Game).order_by(Game.id)).all()
        assert [g.chance_scheme for g in games] == ["v2", "v2"]
        assert dice.contributions(games[0])[0].words == "molon labe"
        # The opening deal (both decks) is drawn with the key the words made.
        for game in games:
            opening = session.scalars(select(Turn).where(Turn.game_id == game.id)).one()
            spartans = next(e for e in opening.events if e["kind"] == "shuffle")
            drawn = Chance(dice.key(game), game.stream, 0)
            assert (
                list(drawn.shuffle(spartans["label"], range(spartans["bound"])))
                == (spartans["result"])
            )


def test_words_that_cannot_go_into_the_dice_are_refused_with_the_reason(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", "NEW 2DEMAYO tiger\nFRANCE me"))
    assert "when they answer JOIN" in last_to(runtime, GM)
    shared = "NEW THERMOPYLES SHARED spring-cup tiger"
    deliver_mail(runtime, compose(LEONIDAS, "new@pbem.localhost", shared))
    assert "every entrant the same cards" in last_to(runtime, LEONIDAS)
    deliver_mail(runtime, compose(LEONIDAS, "new@pbem.localhost", "NEW THERMOPYLES SHARED cup"))
    with runtime.db.session() as session:
        [game] = session.scalars(select(Game)).all()
        assert game.chance_scheme == "v1" and game.contributions == []  # the same deal for all


def test_a_game_the_operator_seats_keeps_the_seed_alone(runtime: Runtime) -> None:
    settings = GameSettings("2demayo", {"france": FRANCE, "spain": SPAIN})
    with runtime.db.session() as session:
        game = lifecycle.start_game(session, runtime, settings)
        assert isinstance(game, Game) and game.chance_scheme == "v1"
        assert dice.key(game) == game.seed
