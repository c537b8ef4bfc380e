"""A game's life: how it is set up, started, joined and resigned, and how it ends on the clock
(idle solo games, shared deals whose deadline has passed).

``GameSettings`` is the one description of a game a game master asks for, read alike from the
lines under a ``NEW`` mail and from ``pbem game new``'s options (``read_settings``), and
``start_game`` makes the game from it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from adjudicator import i18n, limits, schedule
from adjudicator.core import said
from adjudicator.core.chance import Contribution
from adjudicator.core.contract import Game as Rules
from adjudicator.core.refusal import Refusal
from adjudicator.core.words import agreeing, listed
from adjudicator.db import changed
from adjudicator.games import registry
from adjudicator.i18n import N_
from adjudicator.mail.addresses import single as single_address
from adjudicator.models import Challenge, Game, Seat, utcnow
from adjudicator.services.outbound import gm_letters, reports
from adjudicator.services.outbound.mailer import Reply
from adjudicator.services.record import dice, play, transitions
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.words import commands
from adjudicator.statuses import GameStatus

log = logging.getLogger(__name__)

# What EARLY reads as "no": the turn waits for its deadline even when every seat has orders.
_NO = ("no", "off", "false")


@dataclass(frozen=True)
class GameSettings:
    """A game of several players as its game master asked for it, checked word by word by
    ``read_settings``: which game, who plays which seat, the house options and the clock."""

    game_key: str
    addresses: dict[str, str]  # seat -> the player's address
    options: dict[str, str] = field(default_factory=dict)
    schedule_text: str = "48h"
    timezone: str = "UTC"
    grace_minutes: int = 0
    early: bool = True
    gm_address: str | None = None
    reminder_hours: int = 12
    random_sides: bool = False  # the seats are dealt from the game's seed
    early_delay_minutes: int = 0
    require_dkim: bool = False  # seat mail is acted on only when its DKIM signature verifies
    language: str = ""  # LANGUAGE: the mail of a player without a language of their own
    gm_name: str = ""  # the game master's name as their mail gives it (never their address)


def read_settings(
    game_key: str,
    seats: dict[str, str],
    options: dict[str, str],
    words: dict[str, str],
    gm_address: str | None = None,
) -> GameSettings | Refusal:
    """Settings from a game master's words (``SCHEDULE``, ``TIMEZONE``, ``EARLY``, ``GRACE``,
    ``REMIND``, ``DELAY``, ``DKIM``, ``PLAYERS`` and ``option:<name>``, as the lines under NEW
    give them), with ``seats`` naming each seat's address ("me" is the game master); or the first
    thing wrong, in words. The zone and schedule themselves are checked by ``start_game``."""
    rules = registry.get(game_key)
    if rules is None:
        return Refusal(
            said._("there is no game called %(name)s", name=repr(game_key)), "unknown-game"
        )
    seats = dict(seats)
    if "PLAYERS" in words:
        # Sides by lot: the players are listed, and the seed deals them their seats.
        listed = [word.strip().strip("<>").lower() for word in words["PLAYERS"].split(",")]
        seats = dict(zip(rules.seats, listed, strict=False))
    addresses = {
        seat: gm_address if address == "me" and gm_address else address
        for seat, address in seats.items()
    }
    why = None
    if "PLAYERS" in words and len(words["PLAYERS"].split(",")) != len(rules.seats):
        # Sentences of core.said: the answer writes them in its reader's language.
        why = said._(
            "PLAYERS lists one address per seat (%(seats)s), separated by commas",
            seats=len(rules.seats),
        )
    elif set(addresses) != set(rules.seats):
        example = "\n".join(f"{seat.upper()} player@example.com" for seat in rules.seats)
        why = said._(
            "name a player for each of %(seats)s, one line each, e.g.\n%(example)s",
            seats=", ".join(rules.seats),
            example=example,
        )
    elif not all(single_address(address) for address in addresses.values()):
        bad = next(address for address in addresses.values() if not single_address(address))
        why = said._(
            "%(bad)s is not one mail address: write each player's address alone, e.g. a@b.org",
            bad=repr(bad),
        )
    elif words.get("DKIM", "optional").lower() not in ("required", "optional"):
        why = said._("DKIM takes required (orders only from signed mail) or optional")
    elif "LANGUAGE" in words and not i18n.supported(words["LANGUAGE"]):
        why = said._("LANGUAGE takes one of %(codes)s", codes=", ".join(i18n.languages()))
    if why is not None:
        return Refusal(why, "bad-settings")
    numbers = _numbers(words)
    if isinstance(numbers, Refusal):
        return numbers
    options = dict(options)
    options.update({k[7:]: v for k, v in words.items() if k.startswith("option:")})
    plan = words.get("SCHEDULE") or default_schedule(rules, options)
    return GameSettings(
        rules.key,
        addresses,
        options,
        plan,
        game_zone(plan, words.get("TIMEZONE", "")),
        numbers[limits.GRACE.word],
        words.get("EARLY", "yes").lower() not in _NO,
        gm_address,
        numbers[limits.REMIND.word],
        "PLAYERS" in words,
        numbers[limits.DELAY.word],
        words.get("DKIM", "").lower() == "required",
        i18n.supported(words.get("LANGUAGE", "")),
    )


def game_zone(schedule_text: str, timezone: str) -> str:
    """The game's zone: TIMEZONE when given, else the zone the schedule names, else UTC."""
    return timezone.strip() or schedule.named_zone(schedule_text) or "UTC"


def new_hint(game_key: str | None) -> dict[str, Any]:
    """What a refused NEW's problem mail needs to show the request for the game asked for: its
    name, and for a game of several players its seats (each needs a line of its own)."""
    rules = registry.get(game_key) if game_key else None
    if rules is None:
        return {}
    seats = [seat.upper() for seat in rules.seats] if len(rules.seats) > 1 else []
    return {"asked": rules.key.upper(), "seats": seats}


def _numbers(words: dict[str, str]) -> dict[str, int] | Refusal:
    """GRACE, REMIND and DELAY, each within its bounds; or the first refusal."""
    numbers = {}
    for limit, default in ((limits.GRACE, "0"), (limits.REMIND, "12"), (limits.DELAY, "0")):
        value = limit.read(words.get(limit.word, default))
        if isinstance(value, Refusal):
            return value
        numbers[limit.word] = value
    return numbers


def default_schedule(rules: Rules[Any], options: dict[str, str]) -> str:
    """The schedule when the game master names none: a game of one decision at a time gives
    each decision the hours of its ``decision_hours`` option; other games run 48-hour turns."""
    checked = rules.check_options(options)
    hours = checked.get("decision_hours") if isinstance(checked, dict) else None
    return f"{hours}h" if hours else "48h"


def start_game(
    session: Session, runtime: Runtime, settings: GameSettings, invite: bool = False
) -> Game | Refusal:
    """A game with a seat per address and a deadline for turn 1; or what is wrong, in words.

    With ``invite`` the game waits, "forming", until every player has answered JOIN."""
    rules = registry.get(settings.game_key)
    if rules is None:
        return Refusal(
            said._("there is no game called %(name)s", name=repr(settings.game_key)), "unknown-game"
        )
    if set(settings.addresses) != set(rules.seats):
        return Refusal(
            said._(
                "%(title)s needs an address for each of %(seats)s",
                title=rules.title,
                seats=", ".join(rules.seats),
            )
        )
    problem = schedule.zone_error(settings.timezone)
    plan = schedule.parse(settings.schedule_text, settings.timezone)
    if problem:
        return Refusal(problem, schedule.BAD)
    if isinstance(plan, Refusal):
        return plan
    for limit, value in (
        (limits.GRACE, settings.grace_minutes),
        (limits.REMIND, settings.reminder_hours),
        (limits.DELAY, settings.early_delay_minutes),
    ):
        checked = limit.check(value)
        if isinstance(checked, Refusal):
            return checked
    players = {
        seat: play.player_for(session, address) for seat, address in settings.addresses.items()
    }
    # Invited players add their own words to the dice (JOIN), so the deal waits for them; a
    # game the operator seats directly has nobody to ask, and keeps the seed alone.
    scheme = "v2" if invite else "v1"
    game = play.create_game(session, runtime, rules, players, settings.options, scheme=scheme)
    if isinstance(game, Refusal):
        return game
    game.sides_by_lot = settings.random_sides
    if settings.random_sides and not invite:
        deal_sides(session, game)
    _settle(session, game, settings)
    now = utcnow()
    if invite:
        game.status = GameStatus.FORMING
        formed = transitions.record(session, game, "formed", now, by="gm", turn=0)
        # No position yet: the opening is dealt once every player has added their words.
        invitation = reports.SeatLetter(
            key=transitions.stem(formed),
            kind="invitation",
            template="invitation",
            what="invited",
            extra=_who(game),
            map=False,
        )
        reports.mail_all_seats(session, runtime, game, invitation)
        return game
    for seat in game.seats:
        seat.joined_at = now
    open_deadline(game, now)
    transitions.record(session, game, "started", now, by="service", turn=1, keyed=False)
    reports.game_started(session, runtime, game)
    return game


def _who(game: Game) -> dict[str, Any]:
    """Who an invitation names: the game master and every seat's player, by the names they gave
    (never an address: "" where none is known); each reader's mail leaves out their own seat."""
    return {
        "game_master": play.display_name(game.gm) if game.gm is not None else "",
        "players": [
            {
                "seat": seat.seat,
                "title": play.seat_title(game, seat.seat),
                "name": play.display_name(seat.player),
            }
            for seat in game.seats
        ],
    }


def _settle(session: Session, game: Game, settings: GameSettings) -> None:
    """The game master's clock and rules of conduct, onto the game's row."""
    game.schedule, game.timezone = settings.schedule_text, settings.timezone
    game.grace_minutes, game.early = settings.grace_minutes, settings.early
    game.reminder_hours = settings.reminder_hours
    game.early_delay_minutes = settings.early_delay_minutes
    game.require_dkim = settings.require_dkim
    game.language = settings.language
    if settings.gm_address:
        master = play.player_for(session, settings.gm_address)
        # The name of the NEW mail's From line: what the invitations call the game master.
        play.note_name(master, settings.gm_name)
        game.gm_player_id = master.id


def deal_sides(session: Session, game: Game) -> None:
    """Seat the players in an order drawn by the game's key, recorded with turn 0's draws so
    that the revealed seed proves nobody chose who plays which side."""
    opening = play.latest_turn(session, game.id)
    chance = dice.chance(game, 0)
    players = [seat.player for seat in game.seats]
    for seat, player in zip(game.seats, chance.shuffle("sides", players), strict=True):
        seat.player = player
    opening.events = [*opening.events, *(event.to_json() for event in chance.events)]


def deal_opening(session: Session, game: Game) -> None:
    """Once the last contribution is in: the opening position dealt again with the game's key
    (the invitations showed one dealt before it), then the sides if they go by lot."""
    rules = play.rules_for(game)
    opening = play.latest_turn(session, game.id)
    chance = dice.chance(game, 0)
    state = rules.new_game(game.options, chance)
    dumped = rules.dump(state)
    if dumped != opening.state or chance.events or opening.events:
        opening.state = dumped
        opening.events = [event.to_json() for event in chance.events]
        opening.public_png = play.public_picture(rules, state)
    if game.sides_by_lot:
        deal_sides(session, game)


def open_deadline(game: Game, opened: datetime) -> None:
    """Set the deadline for the turn that opens now (nothing for games without a schedule)."""
    if not game.schedule or game.status != GameStatus.ACTIVE:
        game.deadline = None
        return
    plan = schedule.parse(game.schedule, game.timezone)
    if isinstance(
        plan, Refusal
    ):  # validated when the game was made; a bad row must not stop the tick
        log.error("game %s has an unreadable schedule %r: %s", game.id, game.schedule, plan)
        game.deadline = None
        return
    game.deadline = schedule.next_deadline(plan, opened)
    game.deadline_sequence += 1


def join(
    session: Session,
    runtime: Runtime,
    game: Game,
    seat: Seat,
    answering: reports.Answering | None = None,
    contribution: Contribution | None = None,
) -> bool:
    """The seat's player accepts, adding ``contribution`` to the dice; once every seat is taken
    the game starts. True if it did; ``answering``, the JOIN mail, is then answered by its
    player's welcome."""
    now = utcnow()
    seat.joined_at = seat.joined_at or now
    if contribution is not None and game.chance_scheme == "v2":
        dice.add(game, play.rules_for(game), contribution, play.display_name(seat.player))
    if any(other.joined_at is None for other in game.seats):
        return False
    if game.chance_scheme == "v2":
        player = seat.player
        deal_opening(session, game)
        if answering is not None:  # the JOIN's player may hold another seat once sides are dealt
            moved = next(other for other in game.seats if other.player is player)
            answering = replace(answering, seat=moved)
    game.status = GameStatus.ACTIVE
    # A deadline the game master set while the game formed stands, unless it has passed.
    if game.deadline is None or game.deadline <= now:
        open_deadline(game, now)
    transitions.record(session, game, "started", now, by=seat.seat, turn=1, keyed=False)
    reports.game_started(session, runtime, game, answering)
    return True


def resign(reply: Reply, game: Game, seat: Seat, sections: commands.Sections | None = None) -> None:
    """The seat's player gives up in the mail ``reply`` answers: the game is over for everyone.
    Every seat gets the game's end mail naming the winner, the position it ended at and the
    seed (the resigner's answers their mail, with ``sections``), the game master is told, and
    the entry of the turn that will not be played leaves the players' calendars."""
    session, runtime, now = reply.session, reply.runtime, utcnow()
    due = play.latest_turn(session, game.id).number + 1
    stale = reports.overtaken(game, due, now)
    rules = play.rules_for(game)
    winners = [other for other in rules.seats if other != seat.seat]
    with i18n.speaking(i18n.SOURCE):  # stored in English, written anew for each reader
        result = resigned(rules, seat.seat, winners)
    game.status, game.finished_at, game.deadline = GameStatus.FINISHED, now, None
    game.result, game.result_said = str(result), said.stored(result)
    # As the rules score an end: its first entry says whether the first seat won.
    game.score = [1 if winners == list(rules.seats[:1]) else 0]
    # On record, its end mails keyed by it (transitions.TABLE: "resigned").
    event = transitions.record(session, game, "resigned", now, by=seat.seat, turn=due)
    for each in game.seats:
        answered = each.id == seat.id
        letter = reports.SeatLetter(
            key=transitions.key(event, each.seat),
            kind="game-over",
            template="game_over",
            what="over",
            extra={"sections": sections.json() if sections and answered else None},
        )
        replying_to = reply.mail.message_id if answered else None
        reports.mail_seat(
            session, runtime, game, each, letter, replying_to=replying_to, overtaken=stale
        )
    gm_letters.tell_gm(session, runtime, game)


def resigned(rules: Rules[Any], seat: str, winners: list[str]) -> str:
    """The result of ``seat``'s resignation in the current language: who resigned and who wins
    (every other seat; none in a game of one). Each verb agrees with its side's title, which may
    be plural (a title such as "Royalists")."""
    title = rules.seat_title(seat)
    gave_up = said.ngettext("%(side)s resigned", "%(side)s resigned", _count([title]), side=title)
    if not winners:
        return gave_up
    names = [rules.seat_title(winner) for winner in winners]
    won = said.ngettext(
        "%(winner)s wins", "%(winner)s win", _count(names), winner=said.joined(names, ", ")
    )
    return said.joined([gave_up, won])


def _count(titles: list[str]) -> int:
    """How many the titles count as for a verb: a title such as "Royalists" is plural."""
    return 2 if len(titles) > 1 or agreeing(listed(titles), "is", "are").endswith(" are") else 1


def leaderboard(session: Session, challenge: Challenge) -> list[Game]:
    """Games of a shared deal, best first by the game's own score (``Outcome.score``, compared
    entry by entry); unscored games last."""
    games = list(session.scalars(select(Game).where(Game.challenge_id == challenge.id)))
    return sorted(games, key=lambda game: (game.score or [-99], -game.id), reverse=True)


def reveal_challenge(runtime: Runtime, challenge_id: int) -> str | None:
    """Close the challenge's running games, reveal its seed and mail every entrant the ranking."""
    with runtime.db.session() as session:
        # Compare-and-set: only one tick reveals a challenge, however many run at once.
        won = changed(
            session,
            update(Challenge)
            .where(Challenge.id == challenge_id, Challenge.revealed_at.is_(None))
            .values(revealed_at=utcnow()),
        )
        if not won:
            return None
        challenge = session.get_one(Challenge, challenge_id)
        for game in session.scalars(select(Game).where(Game.challenge_id == challenge_id)):
            if game.status == GameStatus.ACTIVE:
                game.status = GameStatus.CLOSED
                game.finished_at = utcnow()
                game.result = UNFINISHED
        session.flush()
        ranking = leaderboard(session, challenge)
        for game in ranking:
            # Each entrant reads the ranking in their own language.
            lang = play.language(game.seats[0].player, game)
            letter = reports.SeatLetter(
                key=f"challenge:{challenge.id}:results:{game.id}",
                kind="challenge-results",
                template="challenge_results",
                what="shared-deal",
                extra={"ranking": _ranking(ranking, lang), "result": _result(game, lang)},
            )
            reports.mail_seat(session, runtime, game, game.seats[0], letter)
        return challenge.name


# The result of a shared deal's game still running when the deal ends.
UNFINISHED = N_("unfinished when the shared deal ended")


def _result(game: Game, lang: str) -> str | None:
    """A game's result in ``lang`` where it is a sentence the catalogs hold (UNFINISHED)."""
    return i18n.gettext(game.result, lang) if game.result else game.result


def _ranking(ranking: list[Game], lang: str) -> list[dict[str, Any]]:
    """The shared deal's games, best first, as an entrant reading ``lang`` is shown them."""
    return [
        {
            "rank": rank,
            "game_id": game.id,
            # Every entrant receives this table: names they gave, never address parts.
            "player": play.display_name(game.seats[0].player),
            "result": _result(game, lang),
            "status": game.status,
        }
        for rank, game in enumerate(ranking, start=1)
    ]
