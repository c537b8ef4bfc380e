"""Each side as players read it: the scenario's name for it in the reader's language, without
the commander in brackets ("Royalists (Hopton)" reads "Royalists", "Армия короля" in Russian); a
side id ("royalist") is for addresses and data."""

from __future__ import annotations

from adjudicator.core.said import _, named
from adjudicator.games.musket_and_pike.scenario import scenario, scenario_names
from adjudicator.games.musket_and_pike.scenario_readers import SideInfo


def side_info(scenario_id: str, side: str) -> SideInfo | None:
    """What the scenario ``scenario_id`` says of ``side``; None for a side no scenario has."""
    # The position's own scenario first; a position of no packaged scenario (a test's, a
    # stateless case's) reads its sides as the packaged scenarios name them.
    for ident in (scenario_id, *scenario_names()):
        if ident not in scenario_names():
            continue
        found = [info for info in scenario(ident).sides if info.id == side]
        if found:
            return found[0]
    return None


def side_title(scenario_id: str, side: str | None) -> str:
    """The title of ``side`` in the scenario ``scenario_id``; nobody's side reads "nobody"."""
    if not side:
        return _("nobody")
    info = side_info(scenario_id, side)
    if info is None:
        return " ".join(word.capitalize() for word in side.replace("_", " ").split())
    return named(info.name.split(" (", 1)[0].strip() or side, **dict(info.titles))


def side_name(info: SideInfo) -> str:
    """A side's whole name, its commander in brackets ("Royalists (Hopton)"), in the reader's
    language: the title translated, the commander's name as it is."""
    _title, bracket, rest = info.name.partition(" (")
    return named(info.name, **{lang: f"{text}{bracket}{rest}" for lang, text in info.titles})
