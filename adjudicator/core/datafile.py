"""Reading a game's data file (a board, a ruleset, a scenario) without raising on its first fault:
every problem is recorded with a code, so a broken file names all its faults at once and
``DataError`` lists them when the file is refused. Every game reads its TOML through this kit.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Problem:
    code: str
    message: str

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class DataError(ValueError):
    """A data file is unusable; ``problems`` lists every problem found."""

    def __init__(self, what: str, problems: list[Problem]) -> None:
        super().__init__(f"{what}: " + "; ".join(str(p) for p in problems))
        self.problems = problems


class Reader:
    """Typed reads from parsed TOML that record a coded problem instead of raising."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def problem(self, code: str, message: str) -> None:
        self.problems.append(Problem(code, message))

    def table(self, raw: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
        value = raw.get(key)
        if not isinstance(value, dict):
            self.problem("missing-key", f"{where}.{key} is missing or not a table")
            return {}
        return value

    def number(
        self,
        raw: Mapping[str, Any],
        key: str,
        where: str,
        default: int | None = None,
        low: int | None = None,
        high: int | None = None,
    ) -> int:
        value = raw.get(key, default)
        if value is None:
            self.problem("missing-key", f"{where}.{key} is missing")
            return 0
        # bool is an int subclass; a number is never true/false.
        if not isinstance(value, int) or isinstance(value, bool):
            self.problem("bad-number", f"{where}.{key} must be a whole number, not {value!r}")
            return 0
        if (low is not None and value < low) or (high is not None and value > high):
            self.problem("bad-number", f"{where}.{key} = {value} is outside {low}..{high}")
        return value

    def count(self, raw: Mapping[str, Any], key: str, where: str) -> int:
        """A number of things (0 or more); a wrong one reads as 0 so the reading goes on."""
        value = raw.get(key)
        if value is None:
            self.problem("missing-key", f"{where}.{key} is missing")
            return 0
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            self.problem("bad-number", f"{where}.{key} must be a count, not {value!r}")
            return 0
        return value

    def optional_int(self, raw: Mapping[str, Any], key: str, where: str) -> int | None:
        return None if key not in raw else self.number(raw, key, where)

    def flag(self, raw: Mapping[str, Any], key: str, where: str, default: bool = False) -> bool:
        value = raw.get(key, default)
        if not isinstance(value, bool):
            self.problem("bad-choice", f"{where}.{key} must be true or false")
            return default
        return value

    def ratio(self, raw: Mapping[str, Any], key: str, where: str) -> float:
        value = raw.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            self.problem("bad-number", f"{where}.{key} must be a positive number")
            return 1.0
        return float(value)

    def rows(self, raw: Mapping[str, Any], key: str, where: str) -> list[Mapping[str, Any]]:
        value = raw.get(key)
        if not isinstance(value, list) or not value or not all(isinstance(r, dict) for r in value):
            self.problem("missing-key", f"{where}.{key} must be a non-empty list of rows")
            return []
        return value

    def languages(self, raw: Mapping[str, Any]) -> tuple[str, ...]:
        """The languages a file's texts are translated into (its top-level ``translated``
        list): each text of the file has one of each (``texts``)."""
        value = raw.get("translated", [])
        if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
            self.problem("bad-choice", "translated must be a list of language codes")
            return ()
        return tuple(value)

    def texts(
        self, raw: Mapping[str, Any], key: str, where: str, languages: tuple[str, ...]
    ) -> dict[str, str]:
        """A text a reader reads in their language: ``key`` is its English and ``key_<lang>``
        beside it the same in each of ``languages``; the text by language, "" the English
        (``said.named``'s form). A translation missing, empty or not a string is a problem."""
        english = raw.get(key)
        if not isinstance(english, str) or not english.strip():
            self.problem("missing-key", f"{where}.{key} is missing or empty")
            return {"": str(english or "")}
        texts = {"": english}
        for code in languages:
            given = raw.get(f"{key}_{code}")
            if not isinstance(given, str) or not given.strip():
                self.problem(
                    "missing-translation", f"{where}.{key}_{code} (its {code} text) is missing"
                )
                continue
            texts[code] = given
        return texts

    def ascending(self, values: list[int | float], where: str) -> None:
        if any(b <= a for a, b in itertools.pairwise(values)):
            self.problem("table-order", f"{where} rows must be in strictly ascending order")
