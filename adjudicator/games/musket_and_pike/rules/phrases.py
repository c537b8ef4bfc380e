"""Whether a side's name takes a singular or a plural verb in the game's sentences ("Parliament
passes", "the Royalists pass"), in every reader's language (``core.said``)."""

from __future__ import annotations

from typing import Any

from adjudicator.core.said import ngettext
from adjudicator.games.musket_and_pike.rules.titles import side_title


def number_of(subject: str) -> int:
    """1 or 2: the count an ``ngettext`` is given so the verb agrees with ``subject`` as
    ``core.words.agreeing`` has it (a name whose last word ends in one "s" is plural)."""
    last = subject.split()[-1] if subject.split() else ""
    return 2 if last.endswith("s") and not last.endswith("ss") else 1


def side_ngettext(singular: str, plural: str, scenario_id: str, side: str, **values: Any) -> str:
    """A sentence of which ``side`` is the subject, ``%(side)s`` its title in the scenario
    ``scenario_id``, its verb agreeing with the title: ``singular`` for "Parliament passes",
    ``plural`` for "the Royalists pass". babel.cfg names it a keyword, so ``pybabel extract``
    reads the pair as one plural message."""
    title = side_title(scenario_id, side)
    return ngettext(singular, plural, number_of(title), side=title, **values)
