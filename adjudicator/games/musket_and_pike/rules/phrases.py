"""Whether a side's name takes a singular or a plural verb in the game's sentences ("Parliament
passes", "the Royalists pass"), in every reader's language (``core.said``)."""

from __future__ import annotations


def number_of(subject: str) -> int:
    """1 or 2: the count an ``ngettext`` is given so the verb agrees with ``subject`` as
    ``core.words.agreeing`` has it (a name whose last word ends in one "s" is plural)."""
    last = subject.split()[-1] if subject.split() else ""
    return 2 if last.endswith("s") and not last.endswith("ss") else 1
