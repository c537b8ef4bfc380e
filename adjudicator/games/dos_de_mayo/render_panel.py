"""The words and counts round the 2 de Mayo map: the header, the key, and the panel below the
map (losses, initiative, cards in play and played, hand sizes and the viewer's own hand).

Every word is the current reader's (``core.said``); each is drawn where the longest of its
translations fits (``tests/games/test_dos_de_mayo_render.py`` measures them), and the cards are
named as the mail names them: by their Spanish originals outside English."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.core.picture import length
from adjudicator.core.said import _, ngettext
from adjudicator.games.dos_de_mayo.describe import (
    END_WORDS,
    SIDES,
    card_name,
    card_words,
    side_name,
)
from adjudicator.games.dos_de_mayo.render_art import Painter, font
from adjudicator.games.dos_de_mayo.render_moves import ARROW_WIDTH

HAND_PAD = 10  # the hand's words keep this far inside the hand's part of the panel
HAND_ROWS, HAND_LEADING = 3, 15  # the hand's lines the art's panel holds, and their spacing
KEY_WORDS_X = 62  # the key's words start this far inside it, after their marks
KEY_MARGIN = 4  # and end this far inside its right edge


KEY_LEADING = 11  # the key's words that take two lines, centred on their mark


def legend(paint: Painter) -> None:
    """The key: every mark the map uses, with what it means. The words fit beside their marks
    in every language: the units' take two lines where they must, the others are translated to
    fit one (the tests measure every language's)."""
    x0, y0, x1, y1 = paint.art.legend
    colour, ink = paint.colour, paint.colour["ink"]
    paint.draw.rounded_rectangle((x0, y0, x1, y1), 8, fill=colour["area"], outline=colour["muted"])
    paint.text((x0 + 10, y0 + 8), _("KEY"), 11, "muted", bold=True)
    left, words, row = x0 + 10, x0 + KEY_WORDS_X, 16.0
    room = x1 - KEY_MARGIN - words
    y = y0 + 32
    paint.chip((left + 10, y), "france", "2")
    paint.chip((left + 36, y), "spain", "1")
    _key_words(paint, (words, y), _("French, Spanish units"), room)
    y += row + 8
    paint.chip((left + 10, y), "france", "−1", lost=True)
    paint.chip((left + 36, y), "spain", "−1", lost=True)
    _key_words(paint, (words, y), _("lost this turn"), room)
    y += row + 6
    paint.draw.rounded_rectangle(
        (left, y - 7, left + 32, y + 7),
        4,
        fill=colour["contested"],
        outline=colour["contested_edge"],
        width=3,
    )
    paint.swords((left + 32, y - 7))
    _key_words(paint, (words, y), _("contested: both sides"), room)
    y += row + 2
    paint.polyline([(left, y), (left + 32, y)], colour["main_road_edge"], 11)
    paint.polyline([(left, y), (left + 32, y)], colour["main_road"], 7)
    # The gate at the key's right edge, its word last; the main street's words take what is
    # left of the line (a word too long for it takes two lines).
    gate = _("gate")
    tower = x1 - KEY_MARGIN - length(gate, font(11)) - 25
    paint.badge(tower, y - 9, "", gate=True)
    paint.text((tower + 25, y), gate, 11, anchor="lm")
    _key_words(paint, (words, y), _("main street"), tower - 5 - words)
    y += row + 2
    paint.polyline([(left, y), (left + 24, y)], ink, ARROW_WIDTH)
    paint.head((left + 34, y), (left, y), ink, 10)
    _key_words(paint, (words, y), _("moved"), room)
    y += row
    paint.polyline([(left, y), (left + 16, y)], ink, ARROW_WIDTH)
    paint.draw.line([(left + 16, y - 7), (left + 16, y + 7)], fill=ink, width=ARROW_WIDTH + 1)
    _key_words(paint, (words, y), _("stopped by a swap"), room)
    y += row
    paint.dashed([(left, y), (left + 26, y)], ink, ARROW_WIDTH - 1, 6, 4)
    paint.cross((left + 29, y), ink)
    _key_words(paint, (words, y), _("failed: stayed"), room)


def _key_words(paint: Painter, at: tuple[float, float], words: str, width: float) -> None:
    """A key's words beside their mark, wrapped to ``width`` and centred on the mark's line."""
    rows = paint.lines(words, 11, width)
    top = at[1] - (rows - 1) * KEY_LEADING / 2
    paint.text((at[0], top), words, 11, anchor="lm", width=width, leading=KEY_LEADING)


def panel_frame(paint: Painter) -> None:
    """The panel's ground, rules and headings, and the set-aside box (none of them changes)."""
    look, colour = paint.art, paint.colour
    top = look.map_bottom
    paint.draw.rectangle((0, top, look.width, look.height), fill=colour["panel"])
    paint.draw.line([(0, top), (look.width, top)], fill=colour["panel_rule"], width=2)
    cards_x, hand_x = look.panel["cards_x"], look.panel["hand_rect"][0]
    for x in (cards_x - 10, hand_x):
        paint.draw.line([(x, top + 10), (x, look.height - 10)], fill=colour["panel_rule"], width=1)
    left = look.panel["losses_x"]
    paint.text((left, top + 10), _("LOSSES"), 11, "muted", bold=True)
    paint.text((left, top + 88), _("INITIATIVE"), 11, "muted", bold=True)
    paint.text((cards_x, top + 10), _("CARDS IN PLAY"), 11, "muted", bold=True)
    paint.text((cards_x, top + 72), _("PLAYED LAST TURN"), 11, "muted", bold=True)
    paint.text((hand_x + HAND_PAD, top + 10), _("HANDS"), 11, "muted", bold=True)
    x0, y0, x1, y1 = look.set_aside
    paint.draw.rounded_rectangle((x0, y0, x1, y1), 8, fill=colour["area"], outline=colour["muted"])
    paint.text((x0 + 10, y0 + 8), _("SET ASIDE"), 11, "muted", bold=True)
    paint.text((x0 + 10, y1 - 12), _("brought in by cards only"), 10, "muted", "lm")


def header(paint: Painter, view: Mapping[str, Any]) -> None:
    """The turn, and once the game is over the verdict and why, over the title band."""
    look = paint.art
    if view["status"] == "over":
        paint.draw.rectangle((0, 0, look.width, look.header), fill=paint.colour["header_over"])
        winner = view.get("winner")
        verdict = (
            _("GAME OVER: %(side)s WINS", side=side_name(winner).upper())
            if winner
            else _("GAME OVER")
        )
        ending = END_WORDS.get(str(view.get("end_reason") or ""))
        reason = _(ending) if ending else ""
        paint.text((12, look.header / 2), verdict, 16, "header_ink", "lm", bold=True)
        used = length(verdict + "   ", font(16, True))
        if reason:
            # A reason too long for the band's one line takes two, centred on the band.
            width, leading = look.width - used - 130, 14
            rows = paint.lines(reason, 13, width)
            paint.text(
                (12 + used, look.header / 2 - (rows - 1) * leading / 2),
                reason,
                13,
                "header_ink",
                "lm",
                width=width,
                leading=leading,
            )
    turn = (
        _("Turn %(turn)s of %(turns)s", turn=view["turn"], turns=view["turns"])
        if view.get("turns")
        else _("Turn %(turn)s", turn=view["turn"])
    )
    paint.text((look.width - 12, look.header / 2), turn, 16, "header_ink", "rm", bold=True)


def _pips(paint: Painter, x: float, y: float, side: str, filled: int, total: int) -> None:
    """A row of ``total`` marks in the side's shape, the first ``filled`` of them filled."""
    colour = paint.colour[side]
    for index in range(total):
        box = (x + index * 15, y - 6, x + index * 15 + 12, y + 6)
        fill = colour if index < filled else paint.colour["area"]
        if side == "france":
            paint.draw.rectangle(box, fill=fill, outline=colour, width=2)
        else:
            paint.draw.ellipse(box, fill=fill, outline=colour, width=2)


def panel(paint: Painter, view: Mapping[str, Any]) -> None:
    """The position's counts and cards, in the panel below the map."""
    look = paint.art
    top, left, line = look.map_bottom, look.panel["losses_x"], look.panel["line"]
    losses, limit = view["losses"], int(view["loss_limit"])
    france = _(
        "%(side)s %(lost)s of %(limit)s",
        side=side_name("france"),
        lost=losses["france"],
        limit=limit,
    )
    spain = _("%(side)s %(lost)s", side=side_name("spain"), lost=losses["spain"])
    # The pips start past the longer of the two lines (the sides' names differ by language).
    face = font(13, True)
    pips_x = max(left + 104, left + 8 + max(length(france, face), length(spain, face)))
    paint.text((left, top + 34), france, 13, "france", "lm", True)
    _pips(paint, pips_x, top + 34, "france", int(losses["france"]), max(limit, losses["france"]))
    paint.text((left, top + 60), spain, 13, "spain", "lm", True)
    _pips(paint, pips_x, top + 60, "spain", int(losses["spain"]), min(int(losses["spain"]), 6))
    initiative = str(view["initiative"])
    paint.text((left, top + 112), side_name(initiative), 14, initiative, "lm", True)
    paint.text((left, top + 130), _("wins swap ties, acts first"), 10, "muted", "lm")
    cards_x = look.panel["cards_x"]
    width = look.panel["hand_rect"][0] - cards_x - 10
    _card_list(paint, cards_x, top + 30, view.get("cards_in_play") or [], 2, line, width)
    _card_list(paint, cards_x, top + 92, view.get("cards_played_last_turn") or [], 3, line, width)
    _hands(paint, view)


def _card_list(
    paint: Painter,
    x: float,
    y: float,
    cards: Sequence[Mapping[str, Any]],
    rows: int,
    line: int,
    width: float,
) -> None:
    """The cards in ``rows`` lines: a long card wraps onto the next line, whole; the cards
    that find no line left are counted ("and 2 more"), never drawn cut short."""
    if not cards:
        paint.text((x, y), _("none"), 12, "muted", "lm")
        return
    texts = [card_words({**card, "side": None}) for card in cards]
    needs = [paint.lines(words, 12, width - 14) for words in texts]
    shown, used = 0, 0
    for index, taken in enumerate(needs):
        # The last card may use the last row; any other leaves one for "and N more".
        left = rows - used - (0 if index == len(cards) - 1 else 1)
        if taken > left and shown:
            break
        shown, used = shown + 1, used + taken
    at = y
    for card, words in zip(cards[:shown], texts, strict=False):
        side = str(card.get("side", ""))
        if side in SIDES:
            paint.draw.rectangle((x, at - 4, x + 8, at + 4), fill=paint.colour[side])
        at += line * paint.text(
            (x + 14, at), words, 12, "ink", "lm", width=width - 14, leading=line
        )
    if shown < len(cards):
        more = ngettext("and %(num)s more", "and %(num)s more", len(cards) - shown)
        paint.text((x + 14, at), more, 12, "muted", "lm")


def _hands(paint: Painter, view: Mapping[str, Any]) -> None:
    """Hand sizes, and the viewer's own cards: the only part that differs between seats."""
    left, y0, right = paint.art.panel["hand_rect"][:3]
    x0, x1 = left + HAND_PAD, right - HAND_PAD
    sizes = view["hand_sizes"]
    face = font(12, True)
    # The cards start past the longer side's name (the names differ by language).
    start = x0 + max(50, 8 + max(length(side_name(side), face) for side in SIDES))
    for index, side in enumerate(SIDES):
        y = y0 + 34 + index * 20
        paint.text((x0, y), side_name(side), 12, side, "lm", True)
        count = int(sizes.get(side, 0))
        for card in range(min(count, 8)):
            x = start + card * 13
            paint.draw.rounded_rectangle(
                (x, y - 8, x + 10, y + 8),
                2,
                fill=paint.colour["card_back"],
                outline=paint.colour[side],
                width=1,
            )
        paint.text((start + 4 + min(count, 8) * 13, y), f"{count}", 12, "ink", "lm")
    hand = view.get("hand")
    if hand is None:
        return
    y = y0 + 80
    paint.text((x0, y), _("YOUR HAND"), 11, "muted", bold=True)
    names = [card_name(card) for card in hand] or [_("empty")]
    # One name a line, the column's full width: a whole name always fits there; a hand of more
    # names than the panel's rows makes the picture taller (``extra_height``).
    row = 0
    for name in names:
        row += paint.text(
            (x0, y + 22 + row * HAND_LEADING),
            name,
            12,
            "ink",
            "lm",
            width=x1 - x0,
            leading=HAND_LEADING,
        )


def extra_height(paint: Painter, view: Mapping[str, Any]) -> int:
    """How much taller than the art's canvas the picture must be to show the viewer's whole
    hand; 0 for the public picture and for a hand of up to ``HAND_ROWS`` lines."""
    hand = view.get("hand")
    if not hand:
        return 0
    left, right = paint.art.panel["hand_rect"][::2]
    width = right - left - 2 * HAND_PAD
    rows = sum(paint.lines(card_name(card), 12, width) for card in hand)
    return max(0, rows - HAND_ROWS) * HAND_LEADING
