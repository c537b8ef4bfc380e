"""The two actions: RETREAT along the front track, and FIGHT against the near and far Persians."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from adjudicator.core.chance import Chance
from adjudicator.core.said import _
from adjudicator.games.thermopyles.actions import Action
from adjudicator.games.thermopyles.cards import PersianCard, card_data
from adjudicator.games.thermopyles.draws import FREE_DIE, SUPPORT
from adjudicator.games.thermopyles.state import Position


def draw(position: Position, count: int) -> tuple[Position, tuple[int, ...]]:
    """Up to ``count`` Spartan cards from the top of the deck into the hand (fewer at its end)."""
    drawn = position.spartan_deck[:count]
    if not drawn:
        return position, ()
    hand = tuple(sorted(position.hand + drawn))
    return replace(position, hand=hand, spartan_deck=position.spartan_deck[len(drawn) :]), drawn


def retreat(
    position: Position, draw_card: bool, facts: dict[str, Any]
) -> tuple[Position, str, str]:
    """The marker moves one space toward the end of the track; then one draw unless NODRAW."""
    data = card_data()
    marker = position.marker + 1
    facts["marker"] = {"from": position.marker, "to": marker}
    position = replace(position, marker=marker)
    if marker >= data.track_length:
        # Lost at once: no draw, the game ends when the whole action is checked.
        facts["drawn"] = {"count": 0, "values": [], "asked": 0}
        lost = _("The Spartans fall back to space %(space)s: lost.", space=marker)
        return position, "retreated-lost", lost
    position, drawn = draw(position, 1 if draw_card else 0)
    facts["drawn"] = {"count": len(drawn), "values": list(drawn), "asked": int(draw_card)}
    name = data.space_names.get(marker)
    # The space's name is a place name: never translated.
    where = (
        _("space %(space)s (%(name)s)", space=marker, name=name)
        if name
        else _("space %(space)s", space=marker)
    )
    if drawn:
        detail = _("The Spartans fall back to %(where)s and draw one card.", where=where)
    else:
        detail = _("The Spartans fall back to %(where)s and draw nothing.", where=where)
    return position, "retreated", detail


def _clash(card: PersianCard, strength: int) -> dict[str, Any]:
    """One Persian card met by ``strength``: beaten at white, to the Graveyard at red."""
    return {
        **card.to_json(),
        "fought": True,
        "beaten": strength >= card.white,
        "graveyard": strength >= card.red,
    }


def fight(
    position: Position, action: Action, chance: Chance, facts: dict[str, Any]
) -> tuple[Position, str, str]:
    """Play one Spartan card, with support dice and the free die, against the battle line."""
    data = card_data()
    assert action.value is not None and position.near is not None
    # 1. Strength: the card, one d6 per support card, one free d6 on a free-die space.
    dice: list[dict[str, Any]] = [
        {"purpose": SUPPORT, "value": chance.roll(SUPPORT)} for _ in range(action.support)
    ]
    if position.marker in data.free_die_spaces:
        dice.append({"purpose": FREE_DIE, "value": chance.roll(FREE_DIE)})
    strength = action.value + sum(die["value"] for die in dice)
    facts["dice"] = dice
    facts["strength"] = strength
    # 2. The near card first; the far card only if the near one fell, with the same strength.
    near = _clash(data.persian(position.near), strength)
    far: dict[str, Any] | None = None
    if position.far is not None:
        far = {**data.persian(position.far).to_json(), "fought": False, "beaten": False}
        if near["beaten"]:
            far = _clash(data.persian(position.far), strength)
    facts["fight"] = {"card": action.value, "support": action.support, "near": near, "far": far}
    # 3. Beaten cards go to the Graveyard when red is reached, else to the Persian discard.
    beaten = [card for card in (near, far) if card is not None and card["beaten"]]
    graveyard = tuple(card["id"] for card in beaten if card["graveyard"])
    discarded = tuple(card["id"] for card in beaten if not card["graveyard"])
    # 5. The Spartan card is spent whatever happens; so are the support cards used.
    hand = list(position.hand)
    hand.remove(action.value)
    position = replace(
        position,
        hand=tuple(hand),
        spartan_discard=(*position.spartan_discard, action.value),
        supports=position.supports - action.support,
        graveyard=position.graveyard + graveyard,
        persian_discard=position.persian_discard + discarded,
    )
    # 4. One extra Spartan draw per beaten card with the bonus symbol.
    bonus = sum(1 for card in beaten if card["bonus"])
    position, drawn = draw(position, bonus)
    facts["drawn"] = {"count": len(drawn), "values": list(drawn), "asked": bonus}
    # 6. Refill: a lone survivor on the far slot slides near; then deal up to two face up.
    position = refill(position, near["beaten"], far is not None and bool(far["beaten"]), facts)
    return _summary(position, action, strength, near, far)


def refill(
    position: Position, near_beaten: bool, far_beaten: bool, facts: dict[str, Any]
) -> Position:
    data = card_data()
    near, far = position.near, position.far
    slid = near_beaten and not far_beaten and far is not None
    if near_beaten:
        near, far = (far, None) if slid else (None, None)
    deck = position.persian_deck
    dealt: list[dict[str, Any]] = []
    if near is None and deck:
        near, deck = deck[0], deck[1:]
        dealt.append(data.persian(near).to_json())
    if far is None and deck:
        far, deck = deck[0], deck[1:]
        dealt.append(data.persian(far).to_json())
    facts["refill"] = {
        "slid": slid,
        "dealt": dealt,
        "near": None if near is None else data.persian(near).to_json(),
        "far": None if far is None else data.persian(far).to_json(),
    }
    return replace(position, near=near, far=far, persian_deck=deck)


def _summary(
    position: Position,
    action: Action,
    strength: int,
    near: dict[str, Any],
    far: dict[str, Any] | None,
) -> tuple[Position, str, str]:
    # Each sentence is one message whose parts are its values, so every reader's mail writes it
    # anew in their language; the order stays canonical.
    def fate(card: dict[str, Any]) -> str:
        if card["graveyard"]:
            return _(
                "%(white)s/%(red)s beaten, to the Graveyard", white=card["white"], red=card["red"]
            )
        return _("%(white)s/%(red)s beaten, to the discard", white=card["white"], red=card["red"])

    values = {"order": action.action_text(), "strength": strength}
    if not near["beaten"]:
        lost = _(
            "%(order)s with strength %(strength)s: the near %(white)s holds.",
            white=near["white"],
            **values,
        )
        return position, "fight-lost", lost
    if far is not None and far["beaten"]:
        both = _(
            "%(order)s with strength %(strength)s: near %(near)s; far %(far)s.",
            near=fate(near),
            far=fate(far),
            **values,
        )
        return position, "fight-won-both", both
    if far is not None:
        won = _(
            "%(order)s with strength %(strength)s: near %(near)s; the far %(white)s holds.",
            near=fate(near),
            white=far["white"],
            **values,
        )
    else:
        won = _("%(order)s with strength %(strength)s: near %(near)s.", near=fate(near), **values)
    return position, "fight-won-near", won
