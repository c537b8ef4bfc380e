"""Reading a unit's or a leader's line: ``<id> VERB [hexes] [target] [FACE dir]``, a line of hexes
after an id being a move. Each verb takes what the actions module takes of it (FIRE a target and
no hexes, a leader only a move), and anything else is a complaint saying what it takes.
"""

from __future__ import annotations

import re

from adjudicator.core import suggest
from adjudicator.core.contract import JSON
from adjudicator.core.lines import Complaint
from adjudicator.core.said import _
from adjudicator.core.words import folded
from adjudicator.games.musket_and_pike.rules.hexes import DIRECTION_NAMES
from adjudicator.games.musket_and_pike.words.lexicon import DIRECTIONS, VERBS, Hex, Names, Token
from adjudicator.games.musket_and_pike.words.readings import Reading, UnitLine, path_json

# A misspelt verb must be this close to be suggested ("fier": FIRE).
VERB_CUTOFF = 0.6


def _facing(word: str | None) -> int | None:
    if word is None:
        return None
    upper = word.upper()
    if upper in DIRECTION_NAMES:
        return DIRECTION_NAMES.index(upper)
    if word.isdigit() and int(word) < len(DIRECTION_NAMES):
        return int(word)
    found = DIRECTIONS.get(folded(word))  # a facing in Spanish or Russian (words.toml)
    return DIRECTION_NAMES.index(found) if found is not None else None


def read_unit(actor: str, is_leader: bool, rest: list[Token], names: Names) -> Reading | Complaint:
    """``<unit> VERB [hexes] [target] [FACE dir]``; a line of hexes alone is a move."""
    index = 0
    verb = "move"
    if rest and rest[0].word is not None:
        known = VERBS.get(rest[0].word)
        if known is None:
            near = suggest.closest(rest[0].word, VERBS, cutoff=VERB_CUTOFF)
            suggestion = None if near is None else f"{actor} {VERBS[near].upper()}"
            reason = _(
                "%(word)s is not an action: MOVE, FIRE, SALVO, PISTOL, RALLY, "
                "REFORM, CHARGE or HOLD",
                word=repr(rest[0].word),
            )
            return Complaint("unknown-word", reason, suggestion)
        verb, index = known, 1
    elif not rest:
        return Complaint(
            "malformed",
            _("what does %(unit)s do? e.g. %(example)s", unit=actor, example=f"{actor} MOVE 3.7"),
            None,
        )
    path: list[Hex] = []
    target: str | None = None
    facing: int | None = None
    while index < len(rest):
        token = rest[index]
        index += 1
        if token.hex is not None:
            path.append(token.hex)
            continue
        word = str(token.word)
        if word in ("face", "facing", "turn"):
            facing = _facing(rest[index].word if index < len(rest) else None)
            if facing is None:
                return Complaint(
                    "malformed", _("FACE takes N, NE, SE, S, SW or NW"), f"{actor} FACE N"
                )
            index += 1
            continue
        if word in ("to", "at", "on", "via", "then", "and", "target"):
            continue
        enemy = names.find(word, names.units)
        if enemy is not None and target is None:
            target = enemy
            continue
        if word.isdigit() or re.fullmatch(r"[a-z]\d+", word):
            reason = _(
                "%(word)s is not a hex: write column.row as the map shows it, e.g. 3.7",
                word=repr(word),
            )
            return Complaint("bad-hex", reason)
        guess = names.near(word, names.units)
        return Complaint("unknown-unit", _("there is no unit %(word)s", word=repr(word)), guess)
    return _action(actor, is_leader, verb, path, target, facing)


def _action(
    actor: str, is_leader: bool, verb: str, path: list[Hex], target: str | None, facing: int | None
) -> Reading | Complaint:
    if is_leader:
        if verb != "move" or target is not None or facing is not None:
            return Complaint(
                "malformed", _("a leader can only move: %(form)s", form="LEADER MOVE 3.7 3.8")
            )
        if not path:
            return Complaint(
                "malformed", _("%(form)s needs the hexes it enters", form=f"{actor} MOVE")
            )
        return UnitLine(actor, {"leader": actor, "path": path_json(path)})
    if verb == "hold":
        return UnitLine(actor, None)
    if verb in ("rout", "retreat"):
        if target is not None or facing is not None or not path:
            word = verb.upper()
            why = _(
                "%(word)s takes the hexes the unit goes through: %(example)s",
                word=word,
                example=f"{actor} {word} 3.7 3.8",
            )
            return Complaint("malformed", why)
        return UnitLine(actor, {"unit": actor, "action": verb, "path": path_json(path)})
    if verb == "face":
        verb = "move"
        if facing is None:
            return Complaint("malformed", _("FACE takes N, NE, SE, S, SW or NW"), f"{actor} FACE N")
    order: dict[str, JSON] = {"unit": actor, "action": verb}
    if verb == "move":
        if not path and facing is None:
            return Complaint("malformed", _("MOVE needs the hexes entered, in order, or a FACE"))
        if target is not None:
            return Complaint("malformed", _("MOVE takes no target"), f"{actor} CHARGE {target}")
    elif verb in ("fire", "salvo", "charge"):
        if target is None:
            return Complaint(
                "malformed", _("%(word)s needs an enemy unit to aim at", word=verb.upper())
            )
        if verb != "charge" and path:
            return Complaint(
                "malformed", _("%(word)s takes no hexes: the unit stands", word=verb.upper())
            )
    elif verb == "pistol":
        if not path and target is None:
            return Complaint("malformed", _("PISTOL takes hexes to move, a target, or both"))
    elif path or target is not None:
        return Complaint("malformed", _("%(word)s takes nothing after it", word=verb.upper()))
    if path:
        order["path"] = path_json(path)
    if target is not None:
        order["target"] = target
    if facing is not None:
        order["facing"] = facing
    return UnitLine(actor, order)
