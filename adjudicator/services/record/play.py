"""Game lifecycle: start a game, apply orders to make the next turn, finish and reveal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict
from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, joinedload

from adjudicator import i18n, limits
from adjudicator.core import said
from adjudicator.core.chance import commitment, new_seed
from adjudicator.core.contract import Game as Rules
from adjudicator.core.contract import Resolution
from adjudicator.core.refusal import Refusal
from adjudicator.games import registry
from adjudicator.mail.addresses import reply_address, seat_token
from adjudicator.mail.building import mint_message_id
from adjudicator.models import Challenge, Game, Player, Seat, Submission, Turn, utcnow
from adjudicator.services.record import dice, read_once, reasons, transitions
from adjudicator.services.record.runtime import Runtime
from adjudicator.statuses import GameStatus


def rules_for(game: Game) -> Rules[Any]:
    rules = registry.get(game.game_key)
    if rules is None:  # a game row for a game this build no longer has: a deploy mistake
        raise LookupError(f"game {game.id} is of unknown kind {game.game_key!r}")
    return rules


def player_for(session: Session, address: str, name: str = "") -> Player:
    address = address.lower()
    player = session.scalar(select(Player).where(Player.address == address))
    if player is None:
        player = Player(address=address, name=limits.name(name))
        session.add(player)
        session.flush()
    return player


def display_name(player: Player) -> str:
    """The name a player gave in their From line, as other players see it; "" when they gave
    none, or gave an address as their name. Never made from the address itself: anyone who
    sees an address can harvest it, or forge mail from it. Bounded as it is shown
    (limits.name), whatever the row holds."""
    name = limits.name(player.name)
    return name if "@" not in name else ""


def language(player: Player, game: Game | None = None) -> str:
    """What this player's mail is written in: their own choice, else the game's, else
    English."""
    return i18n.chosen(player.language, game.language if game is not None else "")


def seat_title(game: Game, seat: str) -> str:
    """A seat of ``game`` as players read it (its title from the game), never its id."""
    return rules_for(game).seat_title(seat)


def usable_name(text: str) -> str | Refusal:
    """``text`` as a name to show other players (spaces tidied), or why it cannot be one: too
    long, holding an '@' (an address could be harvested or forged), or control characters."""
    if limits.unseen(text[: limits.NAME_LENGTH * 64].replace("\t", " ")):
        return Refusal(said._("a name may not hold control characters"))
    name = " ".join(text.split())
    if not name:
        return Refusal(said._("write NAME and the name to be shown, e.g. NAME Joachim Murat"))
    if "@" in name:
        return Refusal(said._("a name may not hold an '@': other players see it, so no address"))
    if len(name) > limits.NAME_LENGTH:
        return Refusal(
            said._(
                "a name is at most %(most)s characters, not %(length)s",
                most=limits.NAME_LENGTH,
                length=len(name),
            )
        )
    return name


def note_name(player: Player, given: str) -> None:
    """Keep the display name of a player's From line when they have none yet (and it is usable):
    the name they joined with is the one other players see."""
    if display_name(player):
        return
    name = usable_name(given)
    if not isinstance(name, Refusal):
        player.name = name


def latest_turn(session: Session, game_id: int) -> Turn:
    """The game's current position: its newest turn that was not rolled back."""
    memo = read_once.kept(session, Turn)
    turn = memo.get(game_id)
    if turn is None:
        turn = session.scalar(
            select(Turn)
            .where(Turn.game_id == game_id, Turn.rolled_back_at.is_(None))
            .order_by(Turn.number.desc())
            .limit(1)
        )
        if turn is None:
            raise LookupError(f"game {game_id} has no opening turn")
        memo[game_id] = turn
    assert isinstance(turn, Turn)
    return turn


def submissions(session: Session, game_id: int, turn_number: int) -> list[Submission]:
    """Every submission for a turn, oldest first: the orders on file (``on_file``) are read
    from these, once per transaction."""
    memo = read_once.kept(session, Submission)
    found: list[Submission] | None = memo.get((game_id, turn_number))
    if found is None:
        found = list(
            session.scalars(
                select(Submission)
                .where(Submission.game_id == game_id, Submission.turn_number == turn_number)
                .order_by(Submission.id)
            )
        )
        memo[(game_id, turn_number)] = found
    return found


def locked_game(session: Session, runtime: Runtime, game_id: int) -> Game | None:
    """The game with its seats and their players, in one query; on PostgreSQL its row locked
    for update before (one resolution at a time per game). Read afresh even when this session
    has read the game before: what counts is the rows as they are under the lock."""
    query = (
        select(Game)
        .where(Game.id == game_id)
        .options(joinedload(Game.seats).joinedload(Seat.player))
        .execution_options(populate_existing=True)
    )
    if runtime.db.is_postgres:
        # The lock first, then the read, in a statement of its own: a statement that waited
        # for the lock sees the locked row as it is now but the rows joined to it as they were
        # when it began (READ COMMITTED re-reads only the locked row), so the other player's
        # JOIN committed meanwhile would read as not yet made and the game never start.
        session.execute(select(Game.id).where(Game.id == game_id).with_for_update())
    return session.scalars(query).unique().one_or_none()


def seat_address(runtime: Runtime, game: Game, seat: Seat) -> str:
    token = seat_token(runtime.config.secret_key, game.id, seat.seat, seat.key_version)
    return reply_address(token, runtime.config.mail_domain)


def find_challenge(session: Session, name: str) -> Challenge | None:
    return session.scalar(select(Challenge).where(Challenge.name == name.lower()))


def open_challenge(
    session: Session, runtime: Runtime, game_key: str, name: str, options: Mapping[str, str]
) -> Challenge | Refusal:
    """The named shared deal, created on first use; a sentence when it cannot be joined."""
    challenge = find_challenge(session, name)
    if challenge is not None:
        if challenge.game_key != game_key:
            return Refusal(
                said._(
                    "the challenge %(name)s is a %(game)s challenge",
                    name=repr(name),
                    game=challenge.game_key,
                )
            )
        if challenge.revealed_at is not None or challenge.deadline <= utcnow():
            return Refusal(
                said._("the challenge %(name)s has ended; its seed is revealed", name=repr(name))
            )
        return challenge
    seed = new_seed()
    challenge = Challenge(
        name=name.lower(),
        game_key=game_key,
        options=dict(options),
        seed=seed,
        commitment=commitment(seed),
        deadline=utcnow() + timedelta(days=runtime.config.challenge_days),
    )
    session.add(challenge)
    session.flush()
    return challenge


def create_game(
    session: Session,
    runtime: Runtime,
    rules: Rules[Any],
    players: Mapping[str, Player],
    options: Mapping[str, str],
    challenge: Challenge | None = None,
    scheme: str = "v1",
    contributions: Sequence[Mapping[str, str]] = (),
) -> Game | Refusal:
    """A new game with its opening position as turn 0, or a sentence saying what was wrong.

    ``scheme`` says how the dice's key comes from the seed and ``contributions`` (as
    ``dice.record`` stores them, in seat order); a shared deal keeps the seed alone, so that
    every entrant gets the same cards."""
    chosen = rules.check_options(challenge.options if challenge else options)
    if isinstance(chosen, Refusal):
        return chosen
    seed = challenge.seed if challenge else new_seed()
    game = Game(
        game_key=rules.key,
        options=chosen,
        seed=seed,
        commitment=commitment(seed),
        stream="",
        challenge_id=challenge.id if challenge else None,
        chance_scheme="v1" if challenge else scheme,
        contributions=[] if challenge else [dict(given) for given in contributions],
    )
    session.add(game)
    session.flush()
    # A shared deal's games all draw from the challenge's stream: same cards, same dice.
    game.stream = f"challenge-{challenge.name}" if challenge else f"game-{game.id}"
    game.thread_id = mint_message_id(["game", game.id, "start"], runtime.config.mail_domain)
    for seat_name in rules.seats:
        session.add(
            Seat(
                game_id=game.id,
                seat=seat_name,
                player_id=players[seat_name].id,
                key_version=runtime.config.key_version,
            )
        )
    chance = dice.chance(game, 0)
    state = rules.new_game(chosen, chance)
    session.add(
        Turn(
            game_id=game.id,
            number=0,
            state=rules.dump(state),
            events=[event.to_json() for event in chance.events],
            reason=reasons.START,
            public_png=public_picture(rules, state),
        )
    )
    session.flush()
    session.refresh(game)
    return game


def public_picture(rules: Rules[Any], state: Any) -> bytes:
    """The picture every player and the archive are shown of ``state``, as stored with its
    turn: in English, whoever's mail made the turn (a reader of another language is shown it
    drawn anew in theirs: ``positions``, ``web.pictures``)."""
    with i18n.speaking(i18n.SOURCE):
        return rules.render(rules.view(state, None), None)


def apply_orders(
    session: Session,
    game: Game,
    orders_by_seat: Mapping[str, Any],
    reason: str,
    facts: Mapping[str, Any] | None = None,
) -> tuple[Turn, Resolution[Any]]:
    """Resolve the next turn and add it as a new snapshot, with ``facts`` added to the
    resolution's (written in the one INSERT); the game row learns if it ended."""
    rules = rules_for(game)
    previous = latest_turn(session, game.id)
    state = rules.load(previous.state)
    chance = dice.chance(game, previous.number + 1)
    resolution = rules.resolve(state, orders_by_seat, chance)
    turn = Turn(
        game_id=game.id,
        number=previous.number + 1,
        state=rules.dump(resolution.state),
        orders=dict(orders_by_seat),
        # The sentences in them keep their message and values (said.stored), so the archive
        # writes them anew in each page's language (said.restored where they are read).
        outcomes=said.stored([asdict(outcome) for outcome in resolution.outcomes]),
        facts=said.stored({**resolution.facts, **(facts or {})}),
        events=[event.to_json() for event in resolution.events],
        reason=reason,
        public_png=public_picture(rules, resolution.state),
    )
    session.add(turn)
    game.last_activity = utcnow()
    with i18n.speaking(i18n.SOURCE):  # stored in English, whoever's mail played the turn
        outcome = rules.outcome(resolution.state)
    if outcome.finished:
        game.status = GameStatus.FINISHED
        game.finished_at = utcnow()
        game.result = outcome.summary
        # The sentence too, so a page writes it in its reader's language (shown_result).
        game.result_said = said.stored(outcome.summary) if outcome.summary else None
        game.score = list(outcome.score)
        # Told in the turn's reports, keyed by the turn: written with the caller's next write.
        transitions.record(
            session, game, "finished", game.finished_at, by=reason, turn=turn.number, keyed=False
        )
    # Not flushed here: the caller's next read does, in one UPDATE of the game row with what
    # the caller still changes in it (the next deadline, the lease given back).
    return turn, resolution


def result_words(session: Session, game: Game) -> str:
    """How ``game`` ended, in the current reader's language: where its rules ended it, their
    summary written anew (the stored result is its English); any other end as
    ``reasons.game_result`` words it."""
    own = reasons.game_result(game.result, said.language()) or ""
    stored = game.result_said
    if isinstance(stored, dict) and stored.get("said") == game.result:
        return str(said.anew(said.restored(stored)))  # a sentence stored with it (a resignation)
    if not game.result or game.status != GameStatus.FINISHED:
        return own
    rules = rules_for(game)
    with i18n.speaking(i18n.SOURCE):
        summary = rules.outcome(rules.load(latest_turn(session, game.id).state)).summary
    return str(said.anew(summary)) if summary == game.result else own


def shown_result(game: Game) -> str:
    """How ``game`` ended as pages show it, in the current reader's language: its rules'
    sentence written anew (``Game.result_said``), else the service's end as
    ``reasons.game_result`` words it; "" while it runs."""
    stored = game.result_said
    if isinstance(stored, dict) and stored.get("said") == game.result:
        return str(said.anew(said.restored(stored)))
    return reasons.game_result(game.result, said.language()) or ""


def seed_revealed(game: Game) -> bool:
    """A solo game's seed is public once it ends; a shared deal's once its challenge ends."""
    if game.challenge is not None:
        return game.challenge.revealed_at is not None
    return game.status in (GameStatus.FINISHED, GameStatus.CLOSED)


def public_turns_visible(game: Game) -> bool:
    # Positions of a running shared deal would show everyone the cards still to come.
    return game.challenge is None or game.challenge.revealed_at is not None
