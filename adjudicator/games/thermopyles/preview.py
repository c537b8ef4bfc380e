"""A checked action drawn on the battle line before anything is resolved, for the order checker.

``preview_facts`` turns a parsed action into facts marked ``preview``: the card to be played and
the support, the strength it may reach, the Persian cards it would meet in order, or the
retreat's step on the front track. ``draw`` draws them with the turn pictures' own renderer: the
same picture, its result panel saying what the action asks, with marks in the plan colour, all
in the current reader's language. Nothing is resolved (no die rolled, no card drawn), and only
the action itself and what the public sees of the position (the battle line, the track, the
counts) go into the facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.core import picture
from adjudicator.core.contract import JSON, PREVIEW
from adjudicator.core.refusal import Refusal
from adjudicator.core.said import N_, _, ngettext
from adjudicator.games.thermopyles import render
from adjudicator.games.thermopyles.actions import action_from_json
from adjudicator.games.thermopyles.cards import card_data
from adjudicator.games.thermopyles.describe import white_red
from adjudicator.games.thermopyles.render import font
from adjudicator.games.thermopyles.rules import excess, free_die
from adjudicator.games.thermopyles.state import SEAT, Position

RING = 5  # how far a mark's ring stands off the card it marks
# The tags on the hand's cards and the plan: words a player may write for these orders in the
# reader's language (words.toml).
DISCARD, FIGHT, NODRAW = N_("DISCARD"), N_("FIGHT"), N_("NODRAW")


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
    if high < white:
        return _("out of reach (beaten at %(white)s)", white=white)
    if low >= red:
        if low < high:
            return _("beaten and to the Graveyard whatever the dice")
        return _("beaten and to the Graveyard at that strength")
    if low >= white:
        if low < high:
            return _("beaten whatever the dice, to the Graveyard at %(red)s", red=red)
        return _("beaten at that strength, to the Graveyard at %(red)s", red=red)
    return _("beaten at %(white)s, to the Graveyard at %(red)s", white=white, red=red)


def lines(facts: Mapping[str, Any]) -> list[str]:
    """What the checked action asks, in the picture's result panel."""
    understood = str(facts["understood"]).replace("\n", ", ")
    said = [_("Checked, not resolved (the blue marks): %(action)s.", action=understood)]
    if facts.get("discard") is not None:
        said.append(_("First the %(card)s is discarded.", card=facts["discard"]))
    if facts.get("limit_discards"):
        said.append(_limit_words(facts))
    fight = facts.get("fight")
    if fight:
        said += _fight_lines(fight)
    retreat = facts.get("retreat")
    if retreat:
        said.append(_retreat_words(retreat))
    return said


def _limit_words(facts: Mapping[str, Any]) -> str:
    """The hand limit's discards: after the named one (then), never the card to be played
    (rules.auto_discards)."""
    many = int(facts["limit_discards"])
    then = facts.get("discard") is not None
    if facts.get("fight"):
        if then:
            return ngettext(
                "The hand limit then discards your lowest card (never the one you play).",
                "The hand limit then discards your lowest %(num)s cards (never the one you play).",
                many,
            )
        return ngettext(
            "The hand limit discards your lowest card (never the one you play).",
            "The hand limit discards your lowest %(num)s cards (never the one you play).",
            many,
        )
    if then:
        return ngettext(
            "The hand limit then discards your lowest card.",
            "The hand limit then discards your lowest %(num)s cards.",
            many,
        )
    return ngettext(
        "The hand limit discards your lowest card.",
        "The hand limit discards your lowest %(num)s cards.",
        many,
    )


def _dice_words(fight: Mapping[str, Any]) -> str | None:
    """The dice a fight adds to its card, as the strength's sentence says them."""
    support = int(fight["support"])
    if support and fight["free_die"]:
        return ngettext(
            "with %(num)s support die and the free die",
            "with %(num)s support dice and the free die",
            support,
        )
    if support:
        return ngettext("with %(num)s support die", "with %(num)s support dice", support)
    return _("with the free die") if fight["free_die"] else None


def _fight_lines(fight: Mapping[str, Any]) -> list[str]:
    low, high, card = fight["low"], fight["high"], fight["card"]
    reach = _("%(low)s to %(high)s", low=low, high=high) if low < high else str(low)
    dice = _dice_words(fight)
    if dice:
        strength = _(
            "Strength %(reach)s: the %(card)s %(dice)s; the card is spent either way.",
            reach=reach,
            card=card,
            dice=dice,
        )
    else:
        strength = _(
            "Strength %(reach)s: the %(card)s; the card is spent either way.",
            reach=reach,
            card=card,
        )
    said = [strength]
    near, far = fight["near"], fight["far"]
    if near:
        meets = _meets(near, low, high)
        said.append(_("1. The near %(card)s: %(meets)s.", card=white_red(near), meets=meets))
    if far:
        meets = _meets(far, low, high)
        said.append(
            _(
                "2. Only if the near one falls, the far %(card)s: %(meets)s.",
                card=white_red(far),
                meets=meets,
            )
        )
    return said


def _retreat_words(retreat: Mapping[str, Any]) -> str:
    to, name = retreat["to"], retreat["name"]
    where = _("%(space)s (%(name)s)", space=to, name=name) if name else str(to)
    if retreat["lost"]:
        return _(
            "The marker falls back from %(start)s to %(end)s: the game is lost.",
            start=retreat["from"],
            end=where,
        )
    if retreat["draw"]:
        return _(
            "The marker falls back from %(start)s to %(end)s, then you draw one Spartan card.",
            start=retreat["from"],
            end=where,
        )
    return _(
        "The marker falls back from %(start)s to %(end)s; NODRAW: no card is drawn.",
        start=retreat["from"],
        end=where,
    )


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
    marks = [(facts.get("discard"), DISCARD)]
    if facts.get("fight"):
        marks.append((facts["fight"]["card"], FIGHT))
    for value, word in marks:
        index = next((i for i in left if hand[i] == value), None)
        if value is None or index is None:
            continue
        left.remove(index)
        box = render.hand_card(index, len(hand))
        _ring(brush, box, 4 if word == "FIGHT" else 2)
        if word == DISCARD:
            x0, y0, x1, y1 = box
            plan = render.COLOURS["plan"]
            brush.draw.line([(x0 + 6, y0 + 6), (x1 - 6, y1 - 6)], fill=plan, width=4)
            brush.draw.line([(x0 + 6, y1 - 6), (x1 - 6, y0 + 6)], fill=plan, width=4)
        # Inside the card, below its number: above it is the hand's title, below the panel.
        _tag(brush, (box[0] + 4, box[3] - 13), _(word))


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
        _tag(brush, (after, render.HAND_Y - 14), _("plays the %(card)s", card=fight["card"]))
    elif retreat and not retreat["lost"]:
        words = _("draws 1") if retreat["draw"] else _(NODRAW)
        _tag(brush, (after, render.HAND_Y - 14), words)


def draw(view: Mapping[str, Any], facts: Mapping[str, Any], scale: int = 1) -> bytes:
    """The picture of ``view`` with the checked action on it, as a PNG."""
    # The action checked is the next turn's, as the checker's prompt and the mail number it;
    # the picture of that turn, once resolved, is titled with its number too.
    heading = _(
        "THERMOPYLES  -  turn %(turn)s  -  checked, not resolved", turn=int(view["turn"]) + 1
    )
    brush = render.draw(view, lines(facts), scale, heading)
    mark(brush, view, facts)
    return render.encode(brush.image)
