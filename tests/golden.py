"""Golden cases: the JSON files under tests/games/cases/<game>/, read the same way for every game.

A case file is ``{"cases": [{"name": ..., ...}, ...]}``. Each case becomes one pytest parameter
whose id is ``<file stem>:<case name>`` and which carries a ``golden`` mark naming its file, so a
failing case is reported by the file to open and the case to look for (see ``where``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

CASES = Path(__file__).resolve().parent / "games" / "cases"


def folder(game: str) -> Path:
    """Where a game's case files live (``game`` is the package name, as in adjudicator.games)."""
    found = CASES / game
    assert found.is_dir(), f"no golden cases for {game!r} in {CASES}"
    return found


def files(game: str) -> list[Path]:
    """A game's case files, in name order, so ids and order are the same on every machine."""
    return sorted(folder(game).glob("*.json"))


def read(path: Path) -> list[dict[str, Any]]:
    """The cases of one file; a file without a list of named cases is an error, not no cases."""
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict) and isinstance(data.get("cases"), list), f"{path}: no cases"
    cases: list[dict[str, Any]] = data["cases"]
    for number, case in enumerate(cases):
        assert isinstance(case, dict) and case.get("name"), f"{path}: case {number} has no name"
    return cases


def case(game: str, file: str, index: int = 0) -> dict[str, Any]:
    """One case by its file stem and place in the file, for a test that needs a known position."""
    return read(folder(game) / f"{file}.json")[index]


def params(game: str) -> list[Any]:
    """Every case of a game as a pytest parameter (the case's dict), id ``<file>:<name>``."""
    return [
        pytest.param(
            found,
            id=f"{path.stem}:{found['name']}",
            marks=pytest.mark.golden(path=path, name=found["name"]),
        )
        for path in files(game)
        for found in read(path)
    ]


def where(item: pytest.Item) -> str | None:
    """For a golden test, the case's file and name as a report line; None for any other test."""
    mark = item.get_closest_marker("golden")
    if mark is None:
        return None
    path: Path = mark.kwargs["path"]
    return f"{path.relative_to(CASES.parent.parent.parent)}: case {mark.kwargs['name']!r}"
