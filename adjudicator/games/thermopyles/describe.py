"""The position and the last action's result in words: alt text, the plain-text mail and the
picture's title and result panel, in the current reader's language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core.said import N_, _, ngettext
from adjudicator.games.thermopyles.cards import card_data
from adjudicator.games.thermopyles.draws import draw_words
from adjudicator.games.thermopyles.rules import reason_sentence

# The picture's title (render.title): the game's name stays, as in every mail's heading.
TITLES = {
    # Before turn 1 (the welcome's picture): no turn has been played yet.
    "opening": N_("THERMOPYLES  -  before the first turn"),
    "playing": N_("THERMOPYLES  -  turn %(turn)s  -  in play"),
    "won": N_("THERMOPYLES  -  turn %(turn)s  -  won"),
    "lost": N_("THERMOPYLES  -  turn %(turn)s  -  lost"),
    "ended": N_("THERMOPYLES  -  turn %(turn)s  -  ended"),
}
HEADINGS = {
    "opening": N_("Thermopyles, before the first turn."),
    "playing": N_("Thermopyles, turn %(turn)s: in play."),
    "won": N_("Thermopyles, turn %(turn)s: won."),
    "lost": N_("Thermopyles, turn %(turn)s: lost."),
    # Ended from outside the rules: resigned, ended by the game master, closed (ended_view).
    "ended": N_("Thermopyles, turn %(turn)s: the game has ended."),
}


def standing(view: Mapping[str, Any]) -> str:
    """How the battle stands, as TITLES and HEADINGS key it: a game still in play before its
    first turn is at its opening."""
    status = view["status"] if view["status"] in TITLES else "playing"
    return "opening" if status == "playing" and view["turn"] == 0 else status


def card_words(card: Mapping[str, Any] | None) -> str:
    if card is None:
        return _("none")
    if card["bonus"]:
        return _(
            "%(white)s white / %(red)s red, Spartan bonus ^", white=card["white"], red=card["red"]
        )
    return _("%(white)s white / %(red)s red", white=card["white"], red=card["red"])


def track_words(view: Mapping[str, Any]) -> str:
    track = view["track"]
    names = track["names"]
    # Space names are place names: never translated.
    spaces = [f"{space} {names.get(str(space), '')}".strip() for space in track["free_die_spaces"]]
    free = (
        spaces[0]
        if len(spaces) == 1
        else _("%(first)s and %(last)s", first=", ".join(spaces[:-1]), last=spaces[-1])
    )
    marker = view["marker"]
    here = names.get(str(marker))
    at = (
        _("space %(space)s (%(name)s)", space=marker, name=here)
        if here
        else _("space %(space)s", space=marker)
    )
    return _(
        "Front marker on %(at)s of %(length)s; free die on %(free)s; %(length)s loses.",
        at=at,
        length=track["length"],
        free=free,
    )


def end_words(end: Mapping[str, Any]) -> str:
    """ "Game over, won: ..." from the end facts (their codes: the stored sentence is English)."""
    sentence = reason_sentence(end.get("reason")) or end.get("sentence", "")
    if end.get("result") == "won":
        return _("Game over, won: %(why)s.", why=sentence)
    return _("Game over, lost: %(why)s.", why=sentence)


def describe(view: Mapping[str, Any]) -> str:
    lines = [_(HEADINGS[standing(view)], turn=view["turn"])]
    if view.get("end"):
        lines.append(end_words(view["end"]))
    lines.append(
        _(
            "Near Persian: %(near)s. Far Persian: %(far)s.",
            near=card_words(view["near"]),
            far=card_words(view["far"]),
        )
    )
    track = track_words(view)
    lines.append(_("%(track)s Free die now.", track=track) if view["free_die"] else track)
    graveyard, beaten, decks = view["graveyard"], view["beaten"], view["decks"]
    lines.append(
        _(
            "Graveyard %(graveyard)s of %(target)s; Persians beaten %(beaten)s of %(persians)s; "
            "cards left: Spartan deck %(spartan)s, Persian deck %(persian)s.",
            graveyard=graveyard["count"],
            target=graveyard["target"],
            beaten=beaten["count"],
            persians=beaten["of"],
            spartan=decks["spartan"],
            persian=decks["persian"],
        )
    )
    supports = view["supports"]
    lines.append(
        _("Support cards left: %(left)s of %(of)s.", left=supports["left"], of=supports["of"])
    )
    size, limit = view["hand_size"], view["hand_limit"]
    if "hand" in view and not view["hand"]:
        lines.append(_("Your hand: empty (0 cards, limit %(limit)s).", limit=limit))
    elif "hand" in view:
        cards = ", ".join(str(card) for card in view["hand"])
        lines.append(
            ngettext(
                "Your hand: %(cards)s (%(num)s card, limit %(limit)s).",
                "Your hand: %(cards)s (%(num)s cards, limit %(limit)s).",
                size,
                cards=cards,
                limit=limit,
            )
        )
    else:
        lines.append(
            ngettext(
                "Hand: %(num)s card, not shown (limit %(limit)s).",
                "Hand: %(num)s cards, not shown (limit %(limit)s).",
                size,
                limit=limit,
            )
        )
    if view["discard_owed"]:
        lines.append(_("The hand is over the limit: a DISCARD is owed with the next action."))
    if view["legal"]:
        lines.append(_("Legal now: %(forms)s.", forms="; ".join(view["legal"])))
    return "\n".join(lines)


def result_lines(facts: Mapping[str, Any], own: bool) -> list[str]:
    """The last action's result in a few short lines; drawn card values only for the player."""
    understood = str(facts.get("understood", "")).replace("\n", ", ")
    lines = [_("Turn %(turn)s: %(action)s", turn=facts.get("turn", "?"), action=understood)]
    discards = facts.get("discards") or []
    if discards:
        spent = ", ".join(
            _("%(card)s (hand limit)", card=d["value"])
            if d["why"] == "hand-limit"
            else str(d["value"])
            for d in discards
        )
        lines.append(_("Discarded %(cards)s.", cards=spent))
    if "strength" in facts:
        rolled = [f"{draw_words(str(d['purpose']))} {d['value']}" for d in facts.get("dice", [])]
        dice = ", ".join(rolled) or _("no dice")
        lines.append(
            _("Dice: %(dice)s; strength %(strength)s.", dice=dice, strength=facts["strength"])
        )
        fight = facts["fight"]
        lines.append(
            f"{_fight_words(fight['near'], NEAR_WORDS)} {_fight_words(fight['far'], FAR_WORDS)}"
        )
    if "marker" in facts:
        step = facts["marker"]
        lines.append(_("Marker %(start)s -> %(end)s.", start=step["from"], end=step["to"]))
    drawn = facts.get("drawn") or {}
    if drawn.get("count"):
        lines.append(_drawn_words(drawn, own))
    end = facts.get("end")
    if end:
        lines.append(end_words(end))
    return lines


def _drawn_words(drawn: Mapping[str, Any], own: bool) -> str:
    count = drawn["count"]
    if own:
        values = ", ".join(str(value) for value in drawn["values"])
        return ngettext(
            "Drew %(num)s Spartan card (%(values)s).",
            "Drew %(num)s Spartan cards (%(values)s).",
            count,
            values=values,
        )
    return ngettext("Drew %(num)s Spartan card.", "Drew %(num)s Spartan cards.", count)


# A Persian card's fate in a fight, by slot: whole sentences, so each language says "the near
# card" its own way (Russian and Spanish agree the words with the card).
NEAR_WORDS = {
    "empty": N_("Near: empty."),
    "unfought": N_("Near %(card)s: not reached."),
    "holds": N_("Near %(card)s: holds."),
    "graveyard": N_("Near %(card)s: beaten, to the Graveyard."),
    "discarded": N_("Near %(card)s: beaten, discarded."),
}
FAR_WORDS = {
    "empty": N_("Far: empty."),
    "unfought": N_("Far %(card)s: not reached."),
    "holds": N_("Far %(card)s: holds."),
    "graveyard": N_("Far %(card)s: beaten, to the Graveyard."),
    "discarded": N_("Far %(card)s: beaten, discarded."),
}


def _fight_words(card: Mapping[str, Any] | None, words: Mapping[str, str]) -> str:
    if card is None:
        return _(words["empty"])
    if not card.get("fought"):
        fate = "unfought"
    elif not card["beaten"]:
        fate = "holds"
    else:
        fate = "graveyard" if card["graveyard"] else "discarded"
    return _(words[fate], card=white_red(card))


def white_red(card: Mapping[str, Any]) -> str:
    """A Persian card as a result line names it: its white and red numbers, "14/17"."""
    return f"{card['white']}/{card['red']}"


def primer() -> str:
    """The opening mail's key to the position: the Persians' two values, the support cards and
    dice, the front track; every number from the card data."""
    data = card_data()
    return _(
        "Each Persian card has two values: the white one is the strength that beats it, the red "
        "one the strength that also sends it to the Graveyard (a card beaten below its red goes "
        "to the discard). You fight the near card first, and the far one only if the near one "
        "falls, with the same strength. Your strength is the value of the Spartan card you play, "
        "plus one die (1 to 6) for each support card you add (SUPPORT n: %(supports)s for the "
        "whole game, each used once), plus a free die while the marker stands on %(free)s. "
        "RETREAT moves the marker one space toward %(lost)s, where the game is lost, and draws a "
        "card. %(target)s Persians in the Graveyard win the game.",
        supports=data.supports,
        free=" / ".join(str(space) for space in sorted(data.free_die_spaces)),
        lost=data.track_length,
        target=data.graveyard_target,
    )
