"""Each side as players read it: the scenario's name for it, without the commander in brackets
("Royalists (Hopton)" reads "Royalists"); a side id ("royalist") is for addresses and data."""

from __future__ import annotations

from adjudicator.core.said import _
from adjudicator.games.musket_and_pike.scenario import scenario, scenario_names


def side_title(scenario_id: str, side: str | None) -> str:
    """The title of ``side`` in the scenario ``scenario_id``; nobody's side reads "nobody"."""
    if not side:
        return _("nobody")
    # The position's own scenario first; a position of no packaged scenario (a test's, a
    # stateless case's) reads its sides as the packaged scenarios name them.
    for ident in (scenario_id, *scenario_names()):
        if ident not in scenario_names():
            continue
        found = [info for info in scenario(ident).sides if info.id == side]
        if found:
            return found[0].name.split(" (", 1)[0].strip() or side
    return " ".join(word.capitalize() for word in side.replace("_", " ").split())
