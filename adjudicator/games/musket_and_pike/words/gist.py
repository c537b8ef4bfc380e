"""A resolved step in one line, for the archive's list of steps: the first thing that happened in
each part of the step (an order change, the unit actions, their close combat, ...), never a die
nor a question the next step asks."""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.core.contract import JSON
from adjudicator.core.said import anew
from adjudicator.games.musket_and_pike.words import sections
from adjudicator.games.musket_and_pike.words.report import record_words

# Events that ask for the next decision rather than say what happened.
_ASKS = {"retreat-path", "rout-paths"}
# At most this many parts are named: a line, not the report.
MOST = 4


def _words(event: Mapping[str, JSON]) -> str:
    data = event.get("data") or {}
    kind = str(event.get("kind"))
    if data.get("type") == "roll" or kind in sections.HEADING_ONLY or kind in _ASKS:
        return ""
    return record_words(data) if data.get("type") else str(anew(event.get("words")) or "")


def step_summary(facts: Mapping[str, JSON]) -> str:
    """The step's gist; empty when its facts hold no event to tell."""
    events: list[Mapping[str, JSON]] = list(facts.get("events") or [])
    said: list[str] = []
    for _part, happened in sections.parts(events, str(facts.get("step", "none"))):
        first = next((words for words in map(_words, happened) if words), "")
        if first:
            said.append(first)
    if not said:
        return ""
    shown = "; ".join(said[:MOST]) + ("; …" if len(said) > MOST else "")
    return f"{shown[:1].upper()}{shown[1:]}."
