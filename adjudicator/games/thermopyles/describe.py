"""The position and the last action's result in words: alt text and the plain-text mail."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.words import counted
from adjudicator.games.thermopyles.draws import draw_words

STATUS_WORDS = {"playing": "in play", "won": "won", "lost": "lost"}


def card_words(card: Mapping[str, Any] | None) -> str:
    if card is None:
        return "none"
    bonus = ", Spartan bonus ^" if card["bonus"] else ""
    return f"{card['white']} white / {card['red']} red{bonus}"


def track_words(view: Mapping[str, Any]) -> str:
    track = view["track"]
    names = track["names"]
    free = " and ".join(
        f"{space} {names.get(str(space), '')}".strip() for space in track["free_die_spaces"]
    )
    marker = view["marker"]
    here = names.get(str(marker))
    at = f"space {marker} ({here})" if here else f"space {marker}"
    return (
        f"Front marker on {at} of {track['length']}; free die on {free}; {track['length']} loses."
    )


def describe(view: Mapping[str, Any]) -> str:
    lines = [
        f"Thermopyles, turn {view['turn']}: {STATUS_WORDS.get(view['status'], view['status'])}."
    ]
    if view.get("end"):
        lines.append(f"Game over, {view['end']['result']}: {view['end']['sentence']}.")
    lines.append(
        f"Near Persian: {card_words(view['near'])}. Far Persian: {card_words(view['far'])}."
    )
    lines.append(track_words(view) + (" Free die now." if view["free_die"] else ""))
    graveyard, beaten, decks = view["graveyard"], view["beaten"], view["decks"]
    lines.append(
        f"Graveyard {graveyard['count']} of {graveyard['target']}; "
        f"Persians beaten {beaten['count']} of {beaten['of']}; "
        f"cards left: Spartan deck {decks['spartan']}, Persian deck {decks['persian']}."
    )
    supports = view["supports"]
    lines.append(f"Support cards left: {supports['left']} of {supports['of']}.")
    limit = f"limit {view['hand_limit']}"
    if "hand" in view:
        cards = ", ".join(str(card) for card in view["hand"]) or "empty"
        lines.append(f"Your hand: {cards} ({view['hand_size']} cards, {limit}).")
    else:
        lines.append(f"Hand: {view['hand_size']} cards, not shown ({limit}).")
    if view["discard_owed"]:
        lines.append("The hand is over the limit: a DISCARD is owed with the next action.")
    if view["legal"]:
        lines.append("Legal now: " + "; ".join(view["legal"]) + ".")
    return "\n".join(lines)


def result_lines(facts: Mapping[str, Any], own: bool) -> list[str]:
    """The last action's result in a few short lines; drawn card values only for the player."""
    lines = [
        f"Turn {facts.get('turn', '?')}: {str(facts.get('understood', '')).replace(chr(10), ', ')}"
    ]
    discards = facts.get("discards") or []
    if discards:
        spent = ", ".join(
            f"{d['value']}" + (" (hand limit)" if d["why"] == "hand-limit" else "")
            for d in discards
        )
        lines.append(f"Discarded {spent}.")
    if "strength" in facts:
        dice = (
            ", ".join(
                f"{draw_words(str(d['purpose']))} {d['value']}" for d in facts.get("dice", [])
            )
            or "no dice"
        )
        lines.append(f"Dice: {dice}; strength {facts['strength']}.")
        fight = facts["fight"]
        lines.append(_fight_words(fight["near"], "Near") + " " + _fight_words(fight["far"], "Far"))
    if "marker" in facts:
        lines.append(f"Marker {facts['marker']['from']} -> {facts['marker']['to']}.")
    drawn = facts.get("drawn") or {}
    if drawn.get("count"):
        values = f" ({', '.join(str(v) for v in drawn['values'])})" if own else ""
        lines.append(f"Drew {counted(drawn['count'], 'Spartan card')}{values}.")
    end = facts.get("end")
    if end:
        lines.append(f"Game over, {end['result']}: {end['sentence']}.")
    return lines


def _fight_words(card: Mapping[str, Any] | None, slot: str) -> str:
    if card is None:
        return f"{slot}: empty."
    name = f"{slot} {card['white']}/{card['red']}"
    if not card.get("fought"):
        return f"{name}: not reached."
    if not card["beaten"]:
        return f"{name}: holds."
    return f"{name}: beaten, " + ("to the Graveyard." if card["graveyard"] else "discarded.")
