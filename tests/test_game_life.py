"""A game's life on record (services/record/transitions.py) and on the game master's panel page:
every change with who was told of it and when, and what the service will do next; each change's
notices keyed by the change itself, so the same command made twice is told twice."""

from __future__ import annotations

import html
import re
from pathlib import Path

from flask.testing import FlaskClient
from playbymail import compose, deliver_mail, drain, gm_command, reply_to, sent, text_of
from sqlalchemy import select
from test_panel import press_open

from adjudicator.models import Game, GameEvent, OutboxMessage
from adjudicator.services.record import on_file, play, transitions
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import ticks
from adjudicator.services.words import commands
from adjudicator.web import create_app

GM, FRANCE, SPAIN = "gm@example.com", "murat@example.com", "daoiz@example.com"
NEW = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\nTIMEZONE Europe/Madrid\n"
LINK = re.compile(r"http://127\.0\.0\.1:8000(/gm/[A-Za-z0-9_.\-]+)")


def started(runtime: Runtime, settings: str = "") -> tuple[int, str]:
    """A game made by mail (with more ``settings`` lines) and joined by both players: its id
    and the panel's login link."""
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW + settings))
    welcome = [m for m in sent(runtime) if str(m["To"]) == GM][-1]
    found = LINK.search(welcome.get_body(("plain",)).get_content())  # type: ignore[union-attr]
    assert found
    for player in (FRANCE, SPAIN):
        deliver_mail(runtime, compose(player, reply_to(runtime, player), "JOIN"))
    with runtime.db.session() as session:
        [game_id] = session.scalars(select(GameEvent.game_id).where(GameEvent.kind == "started"))
    return game_id, found.group(1)


def logged_in(runtime: Runtime, link: str) -> FlaskClient:
    client = create_app(runtime).test_client()
    assert press_open(client, link).status_code == 302
    return client


def life_page(client: FlaskClient, game_id: int) -> str:
    response = client.get(f"/games/{game_id}/manage/life")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    text = html.unescape(re.sub(r"<[^>]+>", "", response.get_data(as_text=True)))
    return " ".join(text.split())


def changes(runtime: Runtime, game_id: int) -> list[str]:
    with runtime.db.session() as session:
        return list(
            session.scalars(
                select(GameEvent.kind).where(GameEvent.game_id == game_id).order_by(GameEvent.id)
            )
        )


def notices(runtime: Runtime, kind: str) -> dict[str, int]:
    """How many mails each address got for changes of ``kind``, by the change's key."""
    with runtime.db.session() as session:
        events = session.scalars(select(GameEvent).where(GameEvent.kind == kind)).all()
        rows = session.scalars(select(OutboxMessage)).all()
        counted: dict[str, int] = {}
        for event in events:
            for row in rows:
                if row.key.startswith(transitions.prefix(event)):
                    counted[row.to_address] = counted.get(row.to_address, 0) + 1
        return counted


def test_every_change_is_on_record_and_the_same_command_twice_is_told_twice(
    runtime: Runtime,
) -> None:
    game_id, _ = started(runtime)
    assert changes(runtime, game_id) == ["formed", "started"]
    # The same line run twice (the panel or console may give it the same key): each change is
    # a change of its own, told to every seat once.
    for _ in range(2):
        gm_command(runtime, game_id, "PAUSE")
        gm_command(runtime, game_id, "RESUME")
    assert changes(runtime, game_id) == ["formed", "started"] + ["paused", "resumed"] * 2
    assert notices(runtime, "paused") == {FRANCE: 2, SPAIN: 2}
    assert notices(runtime, "resumed") == {FRANCE: 2, SPAIN: 2}


def test_a_replayed_turn_is_reported_again(runtime: Runtime) -> None:
    game_id, _ = started(runtime)
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "16-14 x2"))
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "9-14"))

    def reports() -> list[str]:
        return [str(m["To"]) for m in sent(runtime) if "turn 1 results" in str(m["Subject"])]

    assert sorted(reports()) == sorted([FRANCE, SPAIN, GM])
    gm_command(runtime, game_id, "ROLLBACK a misread map")
    gm_command(runtime, game_id, "PROCESS NOW")
    # Every seat and the game master get the replayed turn's report.
    assert sorted(reports()) == sorted([FRANCE, SPAIN, GM] * 2)


def test_the_game_masters_page_shows_each_change_who_was_told_and_what_comes_next(
    runtime: Runtime,
) -> None:
    game_id, link = started(runtime)
    gm_command(runtime, game_id, "EXTEND 24h")
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "16-14 x2"))
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "9-14"))
    gm_command(runtime, game_id, "ROLLBACK a misread map")
    client = logged_in(runtime, link)
    page = life_page(client, game_id)
    order = [
        "the game was formed and every player invited (the game master)",
        "every player joined and the game started",
        "the game master moved the deadline (the game master)",
        "turn 1: a turn was played (everyone had sent orders)",
        "turn 1: the game master rolled back a turn (the game master): «a misread map»",
    ]
    places = [page.find(line) for line in order]
    assert -1 not in places, (places, page)
    assert places == sorted(places), page
    # Who was told of each: both seats, by name and address, and when it was sent.
    rollback = page[places[-1] :]
    assert f"France <{FRANCE}>: sent" in rollback and f"Spain <{SPAIN}>: sent" in rollback
    start = page[places[1] : places[2]]
    assert f"France <{FRANCE}>: sent" in start and f"Spain <{SPAIN}>: sent" in start
    assert f"you, the game master <{GM}>: sent" in start
    turn = page[places[3] : places[4]]
    assert f"France <{FRANCE}>: sent" in turn and f"Spain <{SPAIN}>: sent" in turn
    # What comes next: turn 1 again at its deadline; the sets kept from before the rollback
    # stand then, so nobody is reminded and nothing plays the turn early.
    coming = page.split("What happens next", 1)[1].split("What has happened", 1)[0]
    assert "Turn 1 is played at its deadline" in coming
    assert "reminded" not in coming and "Every order is in" not in coming
    gm_command(runtime, game_id, "PAUSE")
    coming = life_page(client, game_id).split("What happens next", 1)[1]
    assert coming.split("What has happened", 1)[0].strip() == "Nothing until you resume the game."


def test_the_panel_links_the_life_page_and_an_ended_game_has_nothing_next(
    runtime: Runtime,
) -> None:
    game_id, link = started(runtime)
    gm_command(runtime, game_id, "END")
    client = logged_in(runtime, link)
    page = life_page(client, game_id)
    assert "Nothing: the game is over." in page
    assert "the game master ended the game (the game master)" in page
    panel = client.get(f"/games/{game_id}/manage").get_data(as_text=True)
    assert f'href="/games/{game_id}/manage/life"' in panel


def test_the_architecture_document_prints_the_table_as_it_is() -> None:
    """docs/architecture.md shows every change of a game's life as the code has it."""
    document = (Path(__file__).parent.parent / "docs" / "architecture.md").read_text()
    for change in transitions.TABLE.values():
        row = (
            f"| `{change.kind}` | {change.then} | {change.seats.value} | {change.gm.value} "
            f"| {change.calendar.value} | {change.archive} |"
        )
        assert row in document, row
    rows = re.findall(r"^\| `([a-z-]+)` \|", document, flags=re.MULTILINE)
    assert rows == list(transitions.TABLE)


def test_what_comes_next_reads_the_orders_on_file_as_the_scheduler_does(runtime: Runtime) -> None:
    """With a DELAY, the page says when the turn is played once every order is in, and nobody
    with orders on file is to be reminded."""
    game_id, link = started(runtime, "DELAY 30\n")
    client = logged_in(runtime, link)
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "16-14 x2"))
    coming = life_page(client, game_id).split("What has happened", 1)[0]
    assert "Spain is reminded, if still owing." in coming
    assert "France is reminded" not in coming and "Every order is in" not in coming
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "9-14"))
    coming = life_page(client, game_id).split("What has happened", 1)[0]
    assert "Every order is in: turn 1 is played then." in coming
    assert "reminded" not in coming


def test_a_rolled_back_turn_is_played_early_only_once_a_set_is_sent_after_the_rollback(
    runtime: Runtime,
) -> None:
    """The sets kept from before a rollback stand at the deadline: the tick does not play the
    turn again at once, unchanged, and the mails say it waits for its deadline; a set sent since
    makes it early as usual."""
    game_id, _ = started(runtime)
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "16-14 x2"))
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "9-14"))
    gm_command(runtime, game_id, "ROLLBACK a misread map")
    ticks.tick(runtime)
    drain(runtime)
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        assert play.latest_turn(session, game_id).number == 0
        assert on_file.owed(session, game).early_at is None
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "ORDERS"))
    answer = [m for m in sent(runtime) if str(m["To"]) == SPAIN][-1]
    assert "is played at its deadline" in text_of(answer)
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "16-14 x2"))
    with runtime.db.session() as session:
        assert play.latest_turn(session, game_id).number == 1


def test_a_resignation_on_the_life_page_names_everyone_it_told(runtime: Runtime) -> None:
    game_id, link = started(runtime)
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "RESIGN"))
    page = life_page(logged_in(runtime, link), game_id)
    resigned = page.split("a player resigned and the game ended (Spain)", 1)[1]
    for told in (f"France <{FRANCE}>: sent", f"Spain <{SPAIN}>: sent", f"<{GM}>: sent"):
        assert told in resigned, resigned
    assert "Nothing: the game is over." in page
    # The end mail's way to another game is a NEW line that new@ reads as this game.
    end = text_of([m for m in sent(runtime) if str(m["To"]) == FRANCE][-1])
    found = re.search(r"Start another by mailing (NEW \S+) to new@", end)
    assert found and found.group(1) == "NEW 2DEMAYO", end
    request = commands.parse_new([found.group(1)])
    assert isinstance(request, commands.NewGame) and request.game_key == "2demayo"


def test_the_page_the_api_and_the_feed_show_each_change_every_player_was_told_of(
    runtime: Runtime,
) -> None:
    game_id, _ = started(runtime)
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "16-14 x2"))
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "9-14"))
    for line in ("PAUSE", "RESUME", "EXTEND 24h Luis is travelling", "ROLLBACK a misread map"):
        gm_command(runtime, game_id, line)
    kinds = ["paused", "resumed", "deadline-moved", "rolled-back"]
    client = create_app(runtime).test_client()
    changes = client.get(f"/api/games/{game_id}").get_json()["changes"]
    assert [change["kind"] for change in changes] == kinds
    assert changes[2]["note"] == "Luis is travelling" and changes[3]["note"] == "a misread map"
    # Each names the turn it concerns: the one being ordered, and the one rolled back.
    assert [change["turn"] for change in changes] == [2, 2, 2, 1]
    feed = client.get(f"/games/{game_id}/feed.atom").get_data(as_text=True)
    titles = re.findall(r"<title>([^<]*)</title>", feed)
    assert titles[1:5] == [
        "The game master rolled back a turn: a misread map",
        "The game master moved the deadline: Luis is travelling",
        "The game master resumed the game",
        "The game master paused the game",
    ]
    page = client.get(f"/games/{game_id}?lang=ru").get_data(as_text=True)
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())
    assert "ход 1: ведущий отменил ход: «a misread map»" in text
    assert "ход 2: ведущий перенёс срок: «Luis is travelling»" in text
