"""A refusal as a value: what a rule, a reader or a command returns instead of its result when
the answer is no.

A bare string in a ``T | str`` return made every caller guess whether the string was a result or
an error; a ``Refusal`` says it in the type, so ``isinstance(answer, Refusal)`` reads as what it
checks and mypy keeps a refusal from being mailed, stored or compared as if it were a value.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why the answer is no. ``reason`` is the sentence a player or game master reads (it may be
    shown as it is); ``code`` is a short stable name for tests, logs and receipts' codes, never
    shown to a player."""

    reason: str
    code: str = "refused"

    def __str__(self) -> str:
        return self.reason
