"""Reading a Musket & Pike data file (the ruleset, a scenario): the shared kit of
``core/datafile`` with the reads that know this game's unit kinds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core import datafile
from adjudicator.core.datafile import Problem
from adjudicator.games.musket_and_pike.rules.state import KINDS

__all__ = ["DataError", "Problem", "Reader"]


class DataError(datafile.DataError):
    """A Musket & Pike data file is unusable; ``problems`` lists every problem found."""

    def __init__(self, what: str, problems: list[Problem]) -> None:
        super().__init__(f"Musket & Pike {what}", problems)


class Reader(datafile.Reader):
    """The shared reads, and the per-unit-kind tables of the ruleset and scenarios."""

    def kinds(self, raw: Any, where: str) -> frozenset[str]:
        if not isinstance(raw, list):
            self.problem("missing-key", f"{where} must be a list of unit kinds")
            return frozenset()
        for kind in raw:
            if kind not in KINDS:
                self.problem("unknown-kind", f"{where}: {kind!r} is not one of {KINDS}")
        return frozenset(str(kind) for kind in raw if kind in KINDS)

    def per_kind(
        self, raw: Mapping[str, Any], key: str, where: str, complete: bool = True, low: int = 0
    ) -> dict[str, int]:
        table = self.table(raw, key, where) if complete else raw.get(key, {})
        if not isinstance(table, dict):
            self.problem("missing-key", f"{where}.{key} must be a table of unit kinds")
            return {}
        for kind in table:
            if kind not in KINDS:
                self.problem("unknown-kind", f"{where}.{key}: {kind!r} is not one of {KINDS}")
        if complete:
            for kind in KINDS:
                if kind not in table:
                    self.problem("missing-key", f"{where}.{key}.{kind} is missing")
        return {
            kind: self.number(table, kind, f"{where}.{key}", low=low)
            for kind in table
            if kind in KINDS
        }
