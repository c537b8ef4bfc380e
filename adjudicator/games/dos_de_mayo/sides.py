"""The two sides of 2 de Mayo, as the seat names the service uses, and as players read them."""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Literal

from adjudicator.core.said import named

Side = Literal["france", "spain"]
FRANCE: Side = "france"
SPAIN: Side = "spain"
SIDES: tuple[Side, Side] = (FRANCE, SPAIN)


@functools.cache
def names() -> dict[str, dict[str, str]]:
    """Each side's name by language (``sides.toml``): a seat id ("france") is for addresses and
    data, never for text."""
    text = resources.files(__package__).joinpath("sides.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    found: dict[str, dict[str, str]] = {
        side: {str(k): str(v) for k, v in data.get(side, {}).items()} for side in SIDES
    }
    missing = [side for side in SIDES if not found[side].get("en")]
    if missing:
        raise ValueError(f"sides.toml: no English name for {', '.join(missing)}")
    return found


def title(side: str | None) -> str:
    """A side's name in the current reader's language ("France", "Francia", "Франция"), kept in
    a sentence made earlier as a name written anew for each reader; any other value as given."""
    by_language = names().get(side or "")
    if by_language is None:
        return str(side)
    return named(by_language["en"], **{k: v for k, v in by_language.items() if k != "en"})


def other(side: Side) -> Side:
    return SPAIN if side == FRANCE else FRANCE


def as_side(value: object) -> Side | None:
    """The side a string names, or None (for JSON and options read from outside)."""
    if value == FRANCE:
        return FRANCE
    if value == SPAIN:
        return SPAIN
    return None
