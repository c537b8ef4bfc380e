"""A game's dice: the key its draws are made with, and the players' contributions to it.

The service draws a game's seed and mails its commitment in the invitations, before anyone
answers; each player then adds words of their own to JOIN (a solo player to NEW), or, adding
none, their mail's own Message-ID. The key mixes the seed with every contribution in seat order
(``core.chance.chance_key``, scheme "v2"), so neither the service, which committed first, nor a
player, who never sees the seed before the end, can choose the draws. Whatever a game draws
before the last contribution is in (its opening deal, sides by lot) is drawn again once it is
(``lifecycle.deal_opening``).
Shared deals keep the seed alone ("v1"): every entrant must get the same cards. docs/fairness.md
is the specification.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from adjudicator import limits
from adjudicator.core.chance import Chance, Contribution, chance_key
from adjudicator.core.contract import Game as Rules
from adjudicator.models import Game

# Words a player adds are kept to this many characters: enough for any phrase, and a bounded
# field in every mail that lists them.
MOST_WORDS = 200
WORDS = "words"
MESSAGE_ID = "message-id"
MAIL_DIGEST = "mail-digest"  # for a mail without a Message-ID: SHA-256 of its bytes as stored


def contribution(seat: str, words: str, message_id: str | None, raw: bytes = b"") -> Contribution:
    """What one seat adds: its words (whitespace runs made one space), else its mail's own
    Message-ID, else the digest of the mail as it reached us; none of them the service's. A
    Message-ID past limits.MESSAGE_ID_LENGTH is no one's words: the digest stands for it."""
    written = " ".join(words.split())[:MOST_WORDS]
    if written:
        return Contribution(seat, written, WORDS)
    if message_id and len(message_id.strip()) <= limits.MESSAGE_ID_LENGTH:
        return Contribution(seat, message_id.strip(), MESSAGE_ID)
    return Contribution(seat, hashlib.sha256(raw).hexdigest(), MAIL_DIGEST)


def contributions(game: Game) -> list[Contribution]:
    return [Contribution.from_json(data) for data in game.contributions]


def record(given: Contribution, by: str) -> dict[str, str]:
    """A contribution as a game stores it: with the name of the player who gave it (``by``),
    which the key does not use."""
    return {**given.to_json(), "by": by}


def given_by(game: Game, seat: str) -> bool:
    """Whether ``seat`` has already added its contribution (the first one stands)."""
    return any(data["seat"] == seat for data in game.contributions)


def add(game: Game, rules: Rules[Any], given: Contribution, by: str = "") -> bool:
    """Record a seat's contribution, with the name of the player who gave it (``by``, for the
    start mail: sides by lot may seat them elsewhere), keeping the list in seat order; a seat's
    first one stands (False when it already had one)."""
    if given_by(game, given.seat):
        return False
    order = {seat: index for index, seat in enumerate(rules.seats)}
    kept = sorted(
        [*game.contributions, record(given, by)],
        key=lambda data: order.get(data["seat"], len(order)),
    )
    game.contributions = kept  # a new list: the JSON column sees it
    return True


def key(game: Game) -> bytes:
    """The key every draw of this game is made with."""
    return chance_key(game.seed, game.chance_scheme, contributions(game))


def chance(game: Game, turn: int) -> Chance:
    return Chance(key(game), game.stream, turn)


def joined_words(game: Game, seat: str, given: Contribution | None, _: Callable[..., str]) -> str:
    """What the JOIN put into the game's dice, in the words of its receipt (``_``: in the
    reader's language)."""
    if given is None:
        return ""
    if given_by(game, seat):
        return _("; your words for the dice from your first JOIN stand")
    if given.source == WORDS:
        return _('; your words "%(words)s" go into the dice', words=given.words)
    if given.source == MAIL_DIGEST:
        return _("; this mail's SHA-256 digest goes into the dice (words after JOIN would instead)")
    return _("; this mail's Message-ID goes into the dice (words after JOIN would instead)")
