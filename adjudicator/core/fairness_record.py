"""A game's fairness record (``/api/games/<id>/fairness.json``) read and replayed with nothing but
the record itself: no database, no configuration. docs/fairness-json.md is its format.

The record holds what a verifier needs: the commitment, the seed once revealed, how the key comes
from it (the scheme and the players' contributions) and every recorded draw. Checking it means
hashing the seed against the commitment, deriving the key, and drawing every die and shuffle
again; ``pbem verify --file`` does it here and the fairness page's script in the reader's browser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.chance import (
    SCHEMES,
    ChanceEvent,
    Contribution,
    chance_key,
    commitment,
    recompute,
)
from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _

SPEC = "pbem-fairness/1"
KINDS = ("die", "shuffle")
# No honest draw is wider: a die of a million sides, a deck of ten thousand cards. A record from
# outside asking for more is refused rather than replayed for hours.
MOST_SIDES = 1_000_000
MOST_CARDS = 10_000


@dataclass(frozen=True)
class RecordedDraw:
    """One draw of the record, under the turn it is listed in."""

    turn_number: int  # the turn entry it is listed under (its event's own turn is hashed)
    rolled_back: bool
    event: ChanceEvent
    purpose: str = ""


@dataclass(frozen=True)
class DrawCheck:
    draw: RecordedDraw
    replayed: tuple[int, ...]

    @property
    def ok(self) -> bool:
        return self.replayed == self.draw.event.result


@dataclass(frozen=True)
class RecordCheck:
    game_id: int
    scheme: str
    revealed: bool
    seed_matches_commitment: bool
    contributions: list[Contribution] = field(default_factory=list)
    checks: list[DrawCheck] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.revealed and self.seed_matches_commitment and not self.problems


class Malformed(ValueError):
    """The record is not in the format: what is wrong, for the reader."""


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Malformed(f"{where} must be a whole number, not {value!r}")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise Malformed(f"{where} must be text, not {value!r}")
    return value


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise Malformed(f"{where} must be a list")
    return value


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Malformed(f"{where} must be an object")
    return value


def _hex(value: Any, where: str) -> bytes:
    try:
        return bytes.fromhex(_text(value, where))
    except ValueError:
        raise Malformed(f"{where} must be hex") from None


def _event(data: Any, where: str) -> ChanceEvent:
    draw = _object(data, where)
    kind = _text(draw.get("kind"), f"{where}: kind")
    bound = _int(draw.get("bound"), f"{where}: bound")
    most = MOST_SIDES if kind == "die" else MOST_CARDS
    if kind not in KINDS:
        raise Malformed(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if not 1 <= bound <= most:
        raise Malformed(f"{where}: bound must be from 1 to {most}, not {bound}")
    result = _list(draw.get("result"), f"{where}: result")
    return ChanceEvent(
        turn=_int(draw.get("turn"), f"{where}: turn"),
        label=_text(draw.get("label"), f"{where}: label"),
        counter=_int(draw.get("counter"), f"{where}: counter"),
        kind=kind,
        bound=bound,
        result=tuple(_int(value, f"{where}: result") for value in result),
    )


def _draws(record: dict[str, Any]) -> list[RecordedDraw]:
    found = []
    for index, data in enumerate(_list(record.get("turns"), "turns")):
        turn = _object(data, f"turns[{index}]")
        number = _int(turn.get("number"), f"turns[{index}]: number")
        rolled_back = turn.get("rolled_back") is True
        for place, draw in enumerate(_list(turn.get("draws"), f"turn {number}: draws")):
            where = f"turn {number}: draw {place + 1}"
            purpose = draw.get("purpose", "") if isinstance(draw, dict) else ""
            event = _event(draw, where)
            found.append(RecordedDraw(number, rolled_back, event, str(purpose)))
    return found


def _contributions(record: dict[str, Any]) -> list[Contribution]:
    found = []
    for index, data in enumerate(_list(record.get("contributions", []), "contributions")):
        given = _object(data, f"contributions[{index}]")
        for name in ("seat", "words", "source"):
            _text(given.get(name), f"contributions[{index}]: {name}")
        found.append(Contribution.from_json(given))
    return found


def read_record(data: Any) -> RecordCheck | Refusal:
    """Replay every draw of a fairness record; a refusal for a record not in the format."""
    try:
        return _check(_object(data, "the record"))
    except Malformed as error:
        return Refusal(f"the record is not a fairness record: {error}", "malformed")


def short(values: tuple[int, ...]) -> str:
    shown = " ".join(map(str, values[:8]))
    return shown + " …" if len(values) > 8 else shown


def _check(record: dict[str, Any]) -> RecordCheck:
    spec = record.get("spec")
    if spec != SPEC:
        raise Malformed(f"its spec is {spec!r}; this build reads {SPEC!r}")
    game_id = _int(record.get("game_id"), "game_id")
    scheme = _text(record.get("scheme"), "scheme")
    if scheme not in SCHEMES:
        raise Malformed(f"scheme must be one of {', '.join(SCHEMES)}, not {scheme!r}")
    promised = _text(record.get("commitment"), "commitment").lower()
    stream = _text(record.get("stream"), "stream")
    contributions = _contributions(record)
    draws = _draws(record)
    if record.get("seed") is None:
        return RecordCheck(game_id, scheme, False, False, contributions)
    seed = _hex(record.get("seed"), "seed")
    seed_ok = commitment(seed) == promised
    # Each problem a sentence of core.said: the fairness page writes it in its reader's language.
    problems = [] if seed_ok else [_("the seed does not hash to the commitment")]
    key = chance_key(seed, scheme, contributions)
    checks = []
    for draw in draws:
        check = DrawCheck(draw, recompute(key, stream, draw.event))
        event = draw.event
        if event.turn != draw.turn_number:
            problems.append(
                _(
                    "turn %(turn)s: a draw is labelled turn %(labelled)s",
                    turn=draw.turn_number,
                    labelled=event.turn,
                )
            )
        if not check.ok:
            problems.append(
                _(
                    "turn %(turn)s: %(label)s #%(counter)s recorded %(recorded)s, the key gives "
                    "%(replayed)s",
                    turn=draw.turn_number,
                    label=event.label,
                    counter=event.counter,
                    recorded=short(event.result),
                    replayed=short(check.replayed),
                )
            )
        checks.append(check)
    return RecordCheck(game_id, scheme, True, seed_ok, contributions, checks, problems)
