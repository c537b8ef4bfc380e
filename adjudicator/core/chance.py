"""Verifiable chance: every die and shuffle is derived from HMAC(key, stream|turn|label|counter).

A game's seed is secret while it runs; players get its SHA-256 commitment at the start and the seed
at the end, and can then recompute every recorded event. The key is the seed itself (scheme "v1")
or, so that nobody can steer the dice, the seed mixed with every player's own contribution
(scheme "v2"): the service committed to the seed before it saw them. docs/fairness.md is the
specification. No code path uses the global ``random``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")


def new_seed() -> bytes:
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The public promise made at game start: SHA-256 of the seed, hex."""
    return hashlib.sha256(seed).hexdigest()


@dataclass(frozen=True)
class Contribution:
    """What one seat added to the game's chance: the words its player wrote, or, when they wrote
    none, something the service cannot choose (their mail's own Message-ID)."""

    seat: str
    words: str
    source: str  # "words" or "message-id"

    def to_json(self) -> dict[str, str]:
        return {"seat": self.seat, "words": self.words, "source": self.source}

    @staticmethod
    def from_json(data: dict[str, object]) -> Contribution:
        return Contribution(str(data["seat"]), str(data["words"]), str(data["source"]))


V2_LABEL = b"pbem chance v2"
SCHEMES = ("v1", "v2")


def _field(text: str) -> bytes:
    """A length-prefixed UTF-8 field, so that no two lists of contributions read the same."""
    data = text.encode("utf-8")
    return len(data).to_bytes(4, "big") + data


def chance_key(seed: bytes, scheme: str, contributions: Sequence[Contribution] = ()) -> bytes:
    """The key every draw of a game is made with.

    "v1": the seed. "v2": HMAC-SHA256(seed, "pbem chance v2" || for each contribution in seat
    order: u32be(len seat) seat u32be(len words) words), UTF-8 throughout."""
    if scheme == "v1":
        return seed
    if scheme == "v2":
        message = V2_LABEL + b"".join(_field(c.seat) + _field(c.words) for c in contributions)
        return hmac.new(seed, message, hashlib.sha256).digest()
    raise ValueError(f"unknown chance scheme {scheme!r}")


@dataclass(frozen=True)
class ChanceEvent:
    """One recorded draw: what it was for (label), which draw of that label, and the result."""

    turn: int
    label: str
    counter: int
    kind: str  # "die" (sides in bound) or "shuffle" (a permutation of range(bound))
    bound: int
    result: tuple[int, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "turn": self.turn,
            "label": self.label,
            "counter": self.counter,
            "kind": self.kind,
            "bound": self.bound,
            "result": list(self.result),
        }

    @staticmethod
    def from_json(data: dict[str, object]) -> ChanceEvent:
        result = data["result"]
        assert isinstance(result, list)
        return ChanceEvent(
            turn=int(str(data["turn"])),
            label=str(data["label"]),
            counter=int(str(data["counter"])),
            kind=str(data["kind"]),
            bound=int(str(data["bound"])),
            result=tuple(int(x) for x in result),
        )


def _uniform(seed: bytes, message: str, bound: int) -> int:
    """A uniform integer in [0, bound) from HMAC output, by rejection (no modulo bias)."""
    limit = (1 << 64) - ((1 << 64) % bound)
    step = 0
    while True:
        digest = hmac.new(seed, f"{message}|{step}".encode(), hashlib.sha256).digest()
        for offset in range(0, 32, 8):
            value = int.from_bytes(digest[offset : offset + 8], "big")
            if value < limit:
                return value % bound
        step += 1


@dataclass
class Chance:
    """The dice and the dealer for one turn of one stream; it records every draw it makes.

    ``stream`` is the game's id, or for a shared deal the challenge's name, so that every player of
    the challenge gets the same cards and dice for the same turn and purpose.
    """

    seed: bytes
    stream: str
    turn: int
    events: list[ChanceEvent] = field(default_factory=list)
    _counters: dict[str, int] = field(default_factory=dict)

    def _next(self, label: str) -> int:
        counter = self._counters.get(label, 0)
        self._counters[label] = counter + 1
        return counter

    def _message(self, label: str, counter: int) -> str:
        return f"{self.stream}|{self.turn}|{label}|{counter}"

    def roll(self, label: str, sides: int = 6) -> int:
        """One die, 1..sides, recorded with its purpose."""
        counter = self._next(label)
        value = _uniform(self.seed, self._message(label, counter), sides) + 1
        self.events.append(ChanceEvent(self.turn, label, counter, "die", sides, (value,)))
        return value

    def shuffle(self, label: str, items: Sequence[T]) -> list[T]:
        """A seeded Fisher-Yates shuffle; the permutation is recorded as one event."""
        counter = self._next(label)
        order = permutation(self.seed, self._message(label, counter), len(items))
        self.events.append(ChanceEvent(self.turn, label, counter, "shuffle", len(items), order))
        return [items[index] for index in order]


def permutation(seed: bytes, message: str, size: int) -> tuple[int, ...]:
    order = list(range(size))
    for top in range(size - 1, 0, -1):
        pick = _uniform(seed, f"{message}|swap{top}", top + 1)
        order[top], order[pick] = order[pick], order[top]
    return tuple(order)


def recompute(seed: bytes, stream: str, event: ChanceEvent) -> tuple[int, ...]:
    """What the seed says this event should have been."""
    message = f"{stream}|{event.turn}|{event.label}|{event.counter}"
    if event.kind == "die":
        return (_uniform(seed, message, event.bound) + 1,)
    if event.kind == "shuffle":
        return permutation(seed, message, event.bound)
    raise ValueError(f"unknown chance event kind {event.kind!r}")


@dataclass(frozen=True)
class Mismatch:
    event: ChanceEvent
    expected: tuple[int, ...]


def verify(seed: bytes, stream: str, events: Iterable[ChanceEvent]) -> list[Mismatch]:
    """Every recorded event the seed does not reproduce (an empty list means all confirmed)."""
    mismatches = []
    for event in events:
        expected = recompute(seed, stream, event)
        if expected != event.result:
            mismatches.append(Mismatch(event, expected))
    return mismatches
