"""The two sides of 2 de Mayo, as the seat names the service uses."""

from __future__ import annotations

from typing import Literal

Side = Literal["france", "spain"]
FRANCE: Side = "france"
SPAIN: Side = "spain"
SIDES: tuple[Side, Side] = (FRANCE, SPAIN)
# Each side as players read it: a seat id ("france") is for addresses and data, never for text.
TITLES: dict[str, str] = {FRANCE: "France", SPAIN: "Spain"}


def title(side: str | None) -> str:
    """A side's title ("France"); any other value as given."""
    return TITLES.get(side or "", str(side))


def other(side: Side) -> Side:
    return SPAIN if side == FRANCE else FRANCE


def as_side(value: object) -> Side | None:
    """The side a string names, or None (for JSON and options read from outside)."""
    if value == FRANCE:
        return FRANCE
    if value == SPAIN:
        return SPAIN
    return None
