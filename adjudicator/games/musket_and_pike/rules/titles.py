"""Each side as players read it: the scenario's name for it in the reader's language, without
the commander in brackets ("Royalists (Hopton)" reads "Royalists", "Армия короля" in Russian); a
side id ("royalist") is for addresses and data. The scenario's other words (its title, its
wings' names) likewise, from its ``[words.<lang>]`` tables."""

from __future__ import annotations

from adjudicator.core.said import _, named
from adjudicator.games.musket_and_pike.rules.scenario import Scenario, scenario, scenario_names
from adjudicator.games.musket_and_pike.rules.scenario_readers import SideInfo


def _by_language(battle: Scenario, text: str) -> dict[str, str]:
    """``text``, one of the scenario's own words, in each language the scenario gives it in."""
    return {lang: table[text] for lang, table in battle.words.items() if text in table}


def in_words(battle: Scenario, text: str) -> str:
    """``text``, one of the scenario's own words, in the reader's language where the scenario
    gives it one; kept in a sentence made earlier, it is written anew with the sentence."""
    found = _by_language(battle, text)
    return named(text, **found) if found else text


def battle_of(scenario_id: str) -> Scenario | None:
    """The packaged scenario ``scenario_id``, or None (a test's own position)."""
    return scenario(scenario_id) if scenario_id in scenario_names() else None


def side_info(scenario_id: str, side: str) -> tuple[Scenario, SideInfo] | None:
    """The scenario that names ``side`` and what it says of it: the position's own scenario
    first; a position of no packaged scenario (a test's, a stateless case's) reads its sides as
    the packaged scenarios name them. None for a side no scenario has."""
    for ident in (scenario_id, *scenario_names()):
        battle = battle_of(ident)
        found = [info for info in battle.sides if info.id == side] if battle else []
        if battle and found:
            return battle, found[0]
    return None


def side_title(scenario_id: str, side: str | None) -> str:
    """The title of ``side`` in the scenario ``scenario_id``; nobody's side reads "nobody"."""
    if not side:
        return _("nobody")
    found = side_info(scenario_id, side)
    if found is None:
        return " ".join(word.capitalize() for word in side.replace("_", " ").split())
    battle, info = found
    return in_words(battle, info.name.split(" (", 1)[0].strip() or side)


def side_name(battle: Scenario, info: SideInfo) -> str:
    """A side's whole name, its commander in brackets ("Royalists (Hopton)"), in the reader's
    language: the title in the scenario's words, the commander's name as it is."""
    title, bracket, rest = info.name.partition(" (")
    found = _by_language(battle, title)
    return named(info.name, **{lang: f"{text}{bracket}{rest}" for lang, text in found.items()})
