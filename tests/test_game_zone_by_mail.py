"""A game's time zone as a game master sets it by mail: a schedule that names a zone sets the
game's zone, TIMEZONE said outright wins, and a refused NEW shows the request for the game asked
for."""

from __future__ import annotations

from datetime import UTC
from zoneinfo import ZoneInfo

import pytest
from playbymail import compose, deliver_mail, html_of, reply_to, sent, text_of
from sqlalchemy import func, select

from adjudicator import schedule
from adjudicator.models import Game
from adjudicator.services.record.runtime import Runtime

GM, FRANCE, SPAIN = "gm@example.com", "murat@example.com", "daoiz@example.com"


def new_game(runtime: Runtime, *settings: str) -> Game:
    """NEW 2DEMAYO with ``settings`` under it, mailed by the game master; both players JOIN."""
    body = "\n".join(["NEW 2DEMAYO", f"FRANCE {FRANCE}", f"SPAIN {SPAIN}", *settings]) + "\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    for player in (FRANCE, SPAIN):
        deliver_mail(runtime, compose(player, reply_to(runtime, player), "JOIN"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        assert game.status == "active" and game.deadline is not None, last_to(runtime, GM)
        return game


def last_to(runtime: Runtime, address: str) -> str:
    mails = [mail for mail in sent(runtime) if str(mail["To"]) == address]
    assert mails, f"nothing was sent to {address}"
    return text_of(mails[-1]).replace("\r\n", "\n")


def on_the_clock(game: Game, zone: str) -> str:
    """The deadline as the players' mail writes it on ``zone``'s clock: local, then UTC."""
    assert game.deadline is not None
    local = game.deadline.astimezone(ZoneInfo(zone))
    utc = game.deadline.astimezone(UTC)
    in_utc = f"{utc:%H:%M}" if utc.date() == local.date() else f"{utc:%a %d %b %H:%M}"
    return f"{local:%a %d %b %Y %H:%M} {local.tzname()} = {in_utc} UTC"


@pytest.mark.parametrize(
    "written", ["SCHEDULE Mon, Thu 20:00 Europe/Madrid", "SCHEDULE 48h Europe/Madrid"]
)
def test_a_schedule_that_names_a_zone_sets_the_games_zone(runtime: Runtime, written: str) -> None:
    game = new_game(runtime, written)
    assert game.timezone == "Europe/Madrid"
    assert game.schedule == written.removeprefix("SCHEDULE ")
    for player in (FRANCE, SPAIN):
        assert on_the_clock(game, "Europe/Madrid") in last_to(runtime, player)


def test_the_slots_fall_on_the_named_zones_clock(runtime: Runtime) -> None:
    game = new_game(runtime, "SCHEDULE Mon, Thu 20:00 Europe/Madrid")
    assert game.deadline is not None
    local = game.deadline.astimezone(ZoneInfo("Europe/Madrid"))
    assert (local.weekday(), local.hour, local.minute) in ((0, 20, 0), (3, 20, 0))


def test_timezone_said_outright_wins_over_the_schedules_zone(runtime: Runtime) -> None:
    game = new_game(runtime, "SCHEDULE Mon, Thu 20:00 Europe/Madrid", "TIMEZONE America/New_York")
    assert game.timezone == "America/New_York"
    # The slots stay on Madrid's clock; the players read them on New York's.
    assert game.deadline is not None
    assert game.deadline.astimezone(ZoneInfo("Europe/Madrid")).hour == 20
    assert on_the_clock(game, "America/New_York") in last_to(runtime, FRANCE)


def test_a_schedule_without_a_zone_leaves_the_game_on_utc(runtime: Runtime) -> None:
    assert new_game(runtime, "SCHEDULE 48h").timezone == "UTC"


def test_a_wrong_zone_after_an_interval_is_refused_with_its_name(runtime: Runtime) -> None:
    body = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h europe/madrid\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    answer = last_to(runtime, GM)
    assert "'europe/madrid' is not a time zone name" in answer
    assert "did you mean Europe/Madrid?" in answer
    with runtime.db.session() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 0


def test_a_refused_new_shows_the_request_for_the_game_asked_for(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", f"NEW 2DEMAYO\nFRANCE {FRANCE}\n"))
    [mail] = [mail for mail in sent(runtime) if str(mail["To"]) == GM]
    text = text_of(mail).replace("\r\n", "\n")
    assert "NEW THERMOPYLES" not in text and "SHARED" not in text
    assert "NEW 2DEMAYO\nFRANCE me\nSPAIN player2@example.com\nSCHEDULE Mon, Thu" in text
    markup = html_of(mail).replace("\r\n", "\n")
    assert "<pre>NEW 2DEMAYO\nFRANCE me\nSPAIN player2@example.com\n" in markup
    # A game played alone keeps the one-line example, in its own name (words after its name are
    # the player's own for the dice, so a SHARED without its name is what is refused). (Another
    # sender: an address that is no player gets one problem reply at a time.)
    deliver_mail(runtime, compose(FRANCE, "new@pbem.localhost", "NEW THERMOPYLES SHARED"))
    alone = last_to(runtime, FRANCE)
    assert "NEW THERMOPYLES, or NEW THERMOPYLES SHARED <challenge-name>" in alone


def test_the_zone_a_schedule_names() -> None:
    assert schedule.named_zone("Mon, Thu 20:00 Europe/Madrid") == "Europe/Madrid"
    assert schedule.named_zone("48h America/Argentina/Buenos_Aires") == (
        "America/Argentina/Buenos_Aires"
    )
    assert schedule.named_zone("48 hours UTC") == "UTC"
    assert schedule.named_zone("48h") is None and schedule.named_zone("Mon 20:00") is None
    assert schedule.parse("48h Europe/Madrid") == schedule.parse("48h")
