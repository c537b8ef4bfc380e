"""The pieces the game's sentences are made of, in the reader's language (``core.said``): a list
of sentences joined as one sentence that each reader's mail writes anew, and whether a side's
name takes a singular or a plural verb ("Parliament passes", "the Royalists pass")."""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.core.said import _


def number_of(subject: str) -> int:
    """1 or 2: the count an ``ngettext`` is given so the verb agrees with ``subject`` as
    ``core.words.agreeing`` has it (a name whose last word ends in one "s" is plural)."""
    last = subject.split()[-1] if subject.split() else ""
    return 2 if last.endswith("s") and not last.endswith("ss") else 1


def joined(parts: Sequence[str], separator: str = "; ") -> str:
    """``parts`` joined with ``separator`` ("; " or ", ") as one sentence whose parts are its
    values, so a reader's mail writes each part anew in their language."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    rest = joined(parts[1:], separator)
    if separator == ", ":
        return _("%(first)s, %(rest)s", first=parts[0], rest=rest)
    return _("%(first)s; %(rest)s", first=parts[0], rest=rest)
