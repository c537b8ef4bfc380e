"""A checked action drawn on the battle line before anything is resolved, for the order checker.

``preview_facts`` turns a parsed action into facts marked ``preview``: the card to be played and
the support, the strength it may reach, the Persian cards it would meet in order, or the
retreat's step on the front track. ``draw`` draws them with the turn pictures' own renderer: the
same picture, its result panel saying what the action asks, with marks in the plan colour.
Nothing is resolved (no die rolled, no card drawn), and only the action itself and what the
public sees of the position (the battle line, the track, the counts) go into the facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core import picture
from adjudicator.core.contract import JSON
from adjudicator.core.picture import font
from adjudicator.core.refusal import Refusal
from adjudicator.core.words import counted
from adjudicator.games.thermopyles import render
from adjudicator.games.thermopyles.actions import action_from_json
from adjudicator.games.thermopyles.cards import card_data
from adjudicator.games.thermopyles.rules import excess, free_die
from adjudicator.games.thermopyles.state import SEAT, Position

PREVIEW = "preview"  # the facts' marker: a checked action, not a resolved turn
RING = 5  # how far a mark's ring stands off the card it marks


def preview_facts(position: Position, seat: str, orders: JSON) -> dict[str, Any] | None:
    """The action as facts to draw, or None when it is no Thermopyles action of the player."""
    action = action_from_json(orders)
    if seat != SEAT or isinstance(action, Refusal) or position.over:
        return None
    data = card_data()
    # The hand limit's own discards (the lowest cards) follow the named one, if any.
    limit = excess(position) - (1 if action.discard is not None else 0)
    facts: dict[str, Any] = {
        PREVIEW: True,
        "understood": action.text(),
        "discard": action.discard,
        "limit_discards": max(0, limit),
    }
    if action.kind == "fight" and action.value is not None:
        dice = action.support + (1 if free_die(position) else 0)
        near, far = position.near_card(), position.far_card()
        facts["fight"] = {
            "card": action.value,
            "support": action.support,
            "free_die": free_die(position),
            "low": action.value + dice,
            "high": action.value + 6 * dice,
            "near": None if near is None else near.to_json(),
            "far": None if far is None else far.to_json(),
        }
    else:
        to = position.marker + 1
        facts["retreat"] = {
            "from": position.marker,
            "to": to,
            "name": data.space_names.get(to),
            "draw": action.draw,
            "lost": to >= data.track_length,
        }
    return facts


def _meets(card: Mapping[str, Any], low: int, high: int) -> str:
    """What a strength between ``low`` and ``high`` does to ``card``."""
    white, red = card["white"], card["red"]
    sure = "whatever the dice" if low < high else "at that strength"
    if high < white:
        return f"out of reach (beaten at {white})"
    if low >= red:
        return f"beaten and to the Graveyard {sure}"
    if low >= white:
        return f"beaten {sure}, to the Graveyard at {red}"
    return f"beaten at {white}, to the Graveyard at {red}"


def lines(facts: Mapping[str, Any]) -> list[str]:
    """What the checked action asks, in the picture's result panel."""
    understood = str(facts["understood"]).replace("\n", ", ")
    said = [f"Checked, not resolved (the blue marks): {understood}."]
    if facts.get("discard") is not None:
        said.append(f"First the {facts['discard']} is discarded.")
    if facts.get("limit_discards"):
        many = int(facts["limit_discards"])
        cards = "card" if many == 1 else f"{many} cards"
        then = " then" if facts.get("discard") is not None else ""
        # Never the card to be played (rules.auto_discards).
        spared = " (never the one you play)" if facts.get("fight") else ""
        said.append(f"The hand limit{then} discards your lowest {cards}{spared}.")
    fight = facts.get("fight")
    if fight:
        low, high = fight["low"], fight["high"]
        dice = (
            [counted(fight["support"], "support die", "support dice")] if fight["support"] else []
        )
        dice += ["the free die"] if fight["free_die"] else []
        adds = f" with {' and '.join(dice)}" if dice else ""
        reach = f"{low} to {high}" if low < high else f"{low}"
        said.append(f"Strength {reach}: the {fight['card']}{adds}; the card is spent either way.")
        if fight["near"]:
            near = fight["near"]
            said.append(f"1. The near {near['white']}/{near['red']}: {_meets(near, low, high)}.")
        if fight["far"]:
            far = fight["far"]
            meets = _meets(far, low, high)
            said.append(
                f"2. Only if the near one falls, the far {far['white']}/{far['red']}: {meets}."
            )
    retreat = facts.get("retreat")
    if retreat:
        where = f"{retreat['to']} ({retreat['name']})" if retreat["name"] else str(retreat["to"])
        step = f"The marker falls back from {retreat['from']} to {where}"
        if retreat["lost"]:
            said.append(f"{step}: the game is lost.")
        elif retreat["draw"]:
            said.append(f"{step}, then you draw one Spartan card.")
        else:
            said.append(f"{step}; NODRAW: no card is drawn.")
    return said


def _tag(brush: render.Brush, at: tuple[float, float], words: str) -> None:
    """A small filled tag, its left end at ``at`` (the middle of its height)."""
    face = font(12)
    width = picture.length(words, face) + 10
    x, y = at
    colour = render.COLOURS["plan"]
    brush.draw.rounded_rectangle((x, y - 8, x + width, y + 8), 4, fill=colour)
    picture.label(brush.draw, (x + 5, y), words, face, render.COLOURS["light_ink"], "lm")


def _ring(brush: render.Brush, box: tuple[float, float, float, float], width: int) -> None:
    x0, y0, x1, y1 = box
    grown = (x0 - RING, y0 - RING, x1 + RING, y1 + RING)
    brush.draw.rounded_rectangle(grown, 12, outline=render.COLOURS["plan"], width=width)


def _persian_box(x: int) -> tuple[float, float, float, float]:
    width, height = render.PERSIAN_CARD
    return (x, render.PERSIAN_Y, x + width, render.PERSIAN_Y + height)


def _hand_marks(brush: render.Brush, view: Mapping[str, Any], facts: Mapping[str, Any]) -> None:
    """On the player's own hand, the card discarded (crossed) and the card played (ringed)."""
    hand = list(view.get("hand") or [])
    left = list(range(len(hand)))
    marks = [(facts.get("discard"), "DISCARD")]
    if facts.get("fight"):
        marks.append((facts["fight"]["card"], "FIGHT"))
    for value, word in marks:
        index = next((i for i in left if hand[i] == value), None)
        if value is None or index is None:
            continue
        left.remove(index)
        box = render.hand_card(index, len(hand))
        _ring(brush, box, 4 if word == "FIGHT" else 2)
        if word == "DISCARD":
            x0, y0, x1, y1 = box
            plan = render.COLOURS["plan"]
            brush.draw.line([(x0 + 6, y0 + 6), (x1 - 6, y1 - 6)], fill=plan, width=4)
            brush.draw.line([(x0 + 6, y1 - 6), (x1 - 6, y0 + 6)], fill=plan, width=4)
        # Inside the card, below its number: above it is the hand's title, below the panel.
        _tag(brush, (box[0] + 4, box[3] - 13), word)


def _fight_marks(brush: render.Brush, view: Mapping[str, Any], fight: Mapping[str, Any]) -> None:
    """The near card ringed and numbered 1, the far one 2; the support cards to be spent."""
    for order, (x, card) in enumerate(((render.NEAR_X, "near"), (render.FAR_X, "far")), 1):
        if view.get(card) is None:
            continue
        _ring(brush, _persian_box(x), 4 if order == 1 else 2)
        # Astride the ring's top-left corner: clear of the slot's name and the bonus mark.
        _tag(brush, (x - RING - 4, render.PERSIAN_Y - RING), f"{order}")
    left = int(view["supports"]["left"])
    for slot in range(max(0, left - int(fight["support"])), left):
        x0, y0, x1, y1 = render.support_box(slot)
        box = (x0 - 3, y0 - 3, x1 + 3, y1 + 3)
        brush.draw.rounded_rectangle(box, 6, outline=render.COLOURS["plan"], width=3)


def _retreat_marks(brush: render.Brush, retreat: Mapping[str, Any]) -> None:
    """The marker's step along the track: an arrow to a ring where it would stand."""
    start, end = render.marker_centre(retreat["from"]), render.marker_centre(retreat["to"])
    plan = render.COLOURS["plan"]
    # From the marker's edge to the ring's: the arrow never covers either.
    tail, tip = picture.along(start, end, 18), picture.along(end, start, 18)
    ux, uy = picture.unit(start, end)
    back = (tip[0] - ux * 12, tip[1] - uy * 12)
    brush.draw.line([tail, back], fill=plan, width=4)
    head = [tip, (back[0] - uy * 8, back[1] + ux * 8), (back[0] + uy * 8, back[1] - ux * 8)]
    brush.draw.polygon(head, fill=plan)
    x, y = end
    brush.draw.ellipse((x - 16, y - 16, x + 16, y + 16), outline=plan, width=3)


def mark(brush: render.Brush, view: Mapping[str, Any], facts: Mapping[str, Any]) -> None:
    """Draw what ``facts`` (a checked action) would do over the picture of ``view``."""
    fight, retreat = facts.get("fight"), facts.get("retreat")
    if fight:
        _fight_marks(brush, view, fight)
    if retreat:
        _retreat_marks(brush, retreat)
    _hand_marks(brush, view, facts)
    after = render.MARGIN + picture.length(render.hand_title(view), font(16)) + 12
    if fight:
        _tag(brush, (after, render.HAND_Y - 14), f"plays the {fight['card']}")
    elif retreat and not retreat["lost"]:
        _tag(brush, (after, render.HAND_Y - 14), "draws 1" if retreat["draw"] else "NODRAW")


def draw(view: Mapping[str, Any], facts: Mapping[str, Any], scale: int = 1) -> bytes:
    """The picture of ``view`` with the checked action on it, as a PNG."""
    # The action checked is the next turn's, as the checker's prompt and the mail number it;
    # the picture of that turn, once resolved, is titled with its number too.
    heading = f"THERMOPYLES  -  turn {int(view['turn']) + 1}  -  checked, not resolved"
    with render.in_english():  # as every picture of the game (render.in_english)
        brush = render.draw(view, lines(facts), scale, heading)
        mark(brush, view, facts)
        return render.encode(brush.image)
