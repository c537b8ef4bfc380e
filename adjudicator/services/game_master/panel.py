"""The game-master web panel: what it shows, and its forms turned into game-master commands.

Every action is the same one-line command a game master can mail, run through ``gm.run``, so the
web and the mail paths cannot drift and players are told exactly as they are by mail. The panel
shows what the public archive shows plus the players' addresses, which the game master chose.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import select

from adjudicator import limits, schedule
from adjudicator.core import numbers
from adjudicator.models import Game, utcnow
from adjudicator.services.game_master import gm
from adjudicator.services.outbound import asks, gm_letters
from adjudicator.services.record import on_file, play, positions
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import GameStatus

# Offered in the time-zone picker after the game's and the game master's own; any IANA name
# posted is accepted, the list only spares typing.
COMMON_ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Lisbon",
    "Europe/Madrid",
    "Europe/Paris",
    "Europe/Berlin",
    "Europe/Rome",
    "Europe/Amsterdam",
    "Europe/Stockholm",
    "Europe/Warsaw",
    "Europe/Athens",
    "Europe/Helsinki",
    "Europe/Moscow",
    "Africa/Johannesburg",
    "Asia/Dubai",
    "Asia/Kolkata",
    "Asia/Singapore",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Australia/Perth",
    "Australia/Sydney",
    "Pacific/Auckland",
    "America/Sao_Paulo",
    "America/Argentina/Buenos_Aires",
    "America/Halifax",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Phoenix",
    "America/Los_Angeles",
    "America/Anchorage",
    "Pacific/Honolulu",
)
ACTIONS = ("deadline", "extend", "pause", "resume", "process", "replace", "rollback", "end")
# Changes no later command takes back (a turn played, a turn undone, a game over): the panel asks
# once more before it runs them, on a page of their own.
CONFIRM = ("process", "rollback", "end")
# What the panel may run: never PANEL (a link must go out by mail only).
ALLOWED = ("SET DEADLINE ", "EXTEND ", "PAUSE", "RESUME", "PROCESS NOW", "REPLACE ", "ROLLBACK")
ENDING = "END"  # matched whole: a prefix would let "ENDx" through
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
CLOCK = re.compile(r"^(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::\d{2})?$")
ADDRESS = re.compile(r"^[^@\s<>\"(),;:]+@[^@\s<>\"(),;:]+\.[^@\s<>\"(),;:]+$")
MAX_EXTEND_HOURS = 24 * 30
MAX_REASON = limits.REASON_LENGTH


@dataclass(frozen=True)
class SeatLine:
    seat: str
    address: str
    joined: bool
    owes: bool
    submitted: bool  # a set on file, whole or not
    # The seat as players read it, with its player's name ("France (Joachim Murat)").
    shown: str = ""
    refused: int = 0  # the lines left out of its set on file as refused


@dataclass(frozen=True)
class Panel:
    game_id: int
    title: str
    status: GameStatus
    paused: bool
    result: str
    schedule: str
    timezone: str
    command_address: str  # the game master's reply address, for commands by mail
    gm_zone: str
    deadline_local: str | None  # on the game's clock, with UTC and how long from now
    deadline_iso: str | None  # the instant, for <time datetime>
    deadline_gm: str | None  # on the game master's own clock, when that is another zone
    seats: list[SeatLine]
    live_turn: int  # the latest turn not rolled back; 0 is the opening position
    next_turn: int | None
    read_only: bool
    zones: list[str] = field(default_factory=list)
    zone_default: str = "UTC"
    date_default: str = ""
    time_default: str = ""


@dataclass(frozen=True)
class Invalid:
    """A form that cannot become a command, and why, for the page."""

    why: str


def view(runtime: Runtime, game_id: int, now: datetime | None = None) -> Panel | None:
    now = now or utcnow()
    with runtime.db.session() as session:
        game = session.get(Game, game_id)
        if game is None:
            return None
        rules = play.rules_for(game)
        latest = play.latest_turn(session, game.id)
        next_turn: int | None = None
        owes: set[str] = set()
        owed = on_file.owed(session, game)
        if game.status == GameStatus.ACTIVE:
            next_turn = owed.turn
            owes = set(positions.snapshot(session, rules, latest).owed)
        gm_zone = game.gm.timezone if game.gm is not None else ""
        default_zone = gm_zone or game.timezone or "UTC"
        deadline = game.deadline if game.status == GameStatus.ACTIVE else None
        local_default = deadline.astimezone(ZoneInfo(default_zone)) if deadline else None
        return Panel(
            game_id=game.id,
            title=rules.title,
            status=game.status,
            paused=game.paused,
            result=play.shown_result(game),
            schedule=game.schedule,
            timezone=game.timezone,
            command_address=gm_letters.gm_address(runtime, game),
            gm_zone=gm_zone,
            deadline_local=schedule.shown(deadline, game.timezone, now) if deadline else None,
            deadline_iso=f"{deadline.astimezone(UTC):%Y-%m-%dT%H:%M:%SZ}" if deadline else None,
            deadline_gm=(
                schedule.shown(deadline, gm_zone, now)
                if deadline and gm_zone and gm_zone != game.timezone
                else None
            ),
            seats=[
                SeatLine(
                    seat.seat,
                    seat.player.address,
                    seat.joined_at is not None,
                    seat.seat in owes,
                    seat.seat in owed.on_file,
                    asks.named(play.rules_for(game), seat),
                    owed.seats[seat.seat].refused if seat.seat in owed.seats else 0,
                )
                for seat in game.seats
            ],
            live_turn=latest.number,
            next_turn=next_turn,
            read_only=game.status not in (GameStatus.ACTIVE, GameStatus.FORMING),
            zones=_zones(game.timezone, gm_zone),
            zone_default=default_zone,
            date_default=f"{local_default:%Y-%m-%d}" if local_default else "",
            time_default=f"{local_default:%H:%M}" if local_default else "",
        )


def _zones(game_zone: str, gm_zone: str) -> list[str]:
    first = [zone for zone in (game_zone, gm_zone) if zone]
    return list(dict.fromkeys([*first, *COMMON_ZONES]))


def command_line(action: str, form: Mapping[str, str], seats: Sequence[str]) -> str | Invalid:
    """The game-master command a panel form stands for, checked before it reaches ``gm.run``.

    Each field is checked whole, so nothing typed into a form can add a second command or
    change which command runs."""
    if action == "deadline":
        day, clock, zone = (form.get(name, "").strip() for name in ("date", "time", "zone"))
        if not DAY.match(day):
            return Invalid("choose a date")
        try:
            date.fromisoformat(day)
        except ValueError:
            return Invalid(f"{day} is not a date")
        moment = CLOCK.match(clock)
        if not moment or int(moment["hour"]) > 23 or int(moment["minute"]) > 59:
            return Invalid("choose a time of day")
        problem = schedule.zone_error(zone) if zone else "choose a time zone"
        if problem:
            return Invalid(problem)
        return f"SET DEADLINE {day} {int(moment['hour']):02}:{moment['minute']} {zone}"
    if action == "extend":
        hours = form.get("hours", "").strip()
        count = numbers.whole(hours)
        if count is None or not 1 <= count <= MAX_EXTEND_HOURS:
            return Invalid(f"extend by a whole number of hours, 1 to {MAX_EXTEND_HOURS}")
        return f"EXTEND {count}h"
    if action in ("pause", "resume"):
        return action.upper()
    if action == "process":
        return "PROCESS NOW"
    if action == "end":
        return ENDING
    if action == "replace":
        seat = form.get("seat", "").strip().lower()
        address = form.get("address", "").strip().lower()
        if seat not in seats:
            return Invalid(f"choose a seat: {', '.join(seats)}")
        if len(address) > 320 or not ADDRESS.match(address):
            return Invalid("give the new player's mail address, e.g. player@example.com")
        return f"REPLACE {seat} {address}"
    if action == "rollback":
        reason = limits.plain(form.get("reason", ""))  # as gm.run reads it
        if len(reason) > MAX_REASON:
            return Invalid(f"keep the reason under {MAX_REASON} characters")
        return f"ROLLBACK {reason}".strip()
    return Invalid(f"no such action {action!r}")


def act(
    runtime: Runtime, game_id: int, line: str, key: str, now: datetime | None = None
) -> gm.Result:
    """Run one panel command as the game master, exactly as if it had been mailed."""
    assert line.upper() == ENDING or line.upper().startswith(ALLOWED), line
    now = now or utcnow()
    with runtime.db.session() as session:
        query = select(Game).where(Game.id == game_id)
        if runtime.db.is_postgres:
            query = query.with_for_update()  # one change at a time per game, as for mail
        game = session.scalar(query)
        if game is None:
            return gm.Result(line, False, "no such game")
        [result] = gm.run(session, runtime, game, [line], key, now)
        return result
