"""The help page and the HELP mail of Musket & Pike: help.txt in the reader's language, the
tables written out from the ruleset, and the rule that decides a battle after its last turn."""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Mapping, Sequence
from importlib import resources

from adjudicator.core.said import _, language
from adjudicator.games.musket_and_pike.rules.data import LAST_TURN_WORDS, ruleset
from adjudicator.games.musket_and_pike.rules.scenario import scenario, scenario_names
from adjudicator.games.musket_and_pike.rules.titles import in_words
from adjudicator.games.musket_and_pike.words.tables import tables_text

# Where help.txt states the rule after the last turn; it comes from the scenario data.
END_RULE_MARK = "{last_turn_rule}"


def help_text(options: Mapping[str, str] | None, offered: Sequence[str]) -> str:
    """help.txt (help.es.txt, help.ru.txt in the reader's language, with that language's order
    words), then the unit reference and our tables written out from ruleset.toml (what the
    rules use); the rule after the last turn is filled in per game (``END_RULE_MARK``)."""
    return _help_text(language()).replace(END_RULE_MARK, last_turn_rule_text(options, offered))


@functools.cache
def _help_text(lang: str) -> str:
    package = resources.files("adjudicator.games.musket_and_pike")
    translated = package.joinpath(f"help.{lang}.txt")
    source = translated if translated.is_file() else package.joinpath("help.txt")
    written = source.read_text(encoding="utf-8")
    return written.rstrip("\n") + "\n\n" + tables_text(ruleset()) + "\n"


def last_turn_rule_text(options: Mapping[str, str] | None, offered: Sequence[str]) -> str:
    """What decides a battle whose last turn ends with both armies in the field, as that game
    plays it (its scenario's rule), or, without a game, as each ``offered`` scenario plays it;
    wrapped and indented for the help."""
    if options is not None and options.get("scenario") in scenario_names():
        words = _(LAST_TURN_WORDS[scenario(options["scenario"]).last_turn_rule])
        rule = _("After the last turn, with both armies still in the field, %(rule)s.", rule=words)
        return textwrap.fill(rule, 76, initial_indent="  ", subsequent_indent="  ")
    lead = _("After the last turn, with both armies still in the field, the scenario decides:")
    lines = [textwrap.fill(lead, 76, initial_indent="  ")]
    for name in offered:
        battle = scenario(name)
        said = f"{in_words(battle, battle.title)}: {_(LAST_TURN_WORDS[battle.last_turn_rule])}."
        lines.append(textwrap.fill(said, 76, initial_indent="  - ", subsequent_indent="    "))
    return "\n".join(lines)
