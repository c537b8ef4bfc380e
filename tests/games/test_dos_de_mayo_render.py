"""The 2 de Mayo map and its words: mail-sized, small, every mark where the view puts it."""

from __future__ import annotations

import copy
import io
import tomllib
from itertools import combinations
from typing import Any

import pytest
from PIL import Image, ImageChops

from adjudicator.games.dos_de_mayo import describe as words
from adjudicator.games.dos_de_mayo import render as picture

PNG_BUDGET = 100_000
SIDES = ("france", "spain")


def start_view(seat: str | None = None) -> dict[str, Any]:
    """The seed's starting position, as ``view(state, seat)`` shows it."""
    areas = {str(area): {"france": 0, "spain": 0} for area in range(1, 22)}
    for area, units in {"10": 1, "1": 2, "6": 2, "16": 2, "20": 2}.items():
        areas[area]["france"] = units
    for area in ("4", "8", "9", "10", "12", "15", "17", "20"):
        areas[area]["spain"] = 1
    view: dict[str, Any] = {
        "game": "2demayo",
        "seat": seat,
        "turn": 1,
        "last_turn": 0,
        "turns": 10,
        "status": "playing",
        "winner": None,
        "end_reason": None,
        "areas": areas,
        "off_map": {"OFF1": 5, "OFF6": 5, "OFF16": 5, "OFF20": 5},
        "set_aside": {"france": 1, "spain": 2},
        "losses": {"france": 0, "spain": 0},
        "loss_limit": 4,
        "initiative": "spain",
        "cards_in_play": [],
        "cards_played_last_turn": [],
        "hand_sizes": {"france": 0, "spain": 1},
        "last_moves": [],
        "combats": [],
        "removed": [],
    }
    if seat == "spain":
        view["hand"] = [{"id": "S-MOL", "name": "José Blas Molina y Soriano"}]
    return view


def move(side: str, path: list[str], units: int, result: str) -> dict[str, Any]:
    return {
        "side": side,
        "from": path[0],
        "to": path[-1],
        "units": units,
        "path": path,
        "result": result,
    }


MOVES = [
    move("france", ["16", "14", "9"], 2, "moved"),  # Mameluke charge, two steps
    move("france", ["OFF16", "16"], 2, "moved"),
    move("france", ["OFF1", "1"], 3, "moved"),
    move("france", ["15", "14"], 3, "moved"),
    move("spain", ["14", "15"], 1, "stopped"),  # the smaller side of a head-on swap
    move("france", ["14", "17"], 1, "failed"),  # into the Barricades
    move("spain", ["12", "21"], 1, "moved"),
    move("spain", ["8", "5"], 1, "moved"),
]


def midgame_view(seat: str | None = None) -> dict[str, Any]:
    """Turn 5: moves of every result, a 2-step path, fights, stacks partly entered, cards."""
    view = start_view(seat)
    areas = {area: {"france": 0, "spain": 0} for area in view["areas"]}
    for area, units in {"1": 4, "6": 1, "16": 2, "14": 3, "9": 2, "20": 3, "10": 1, "7": 1}.items():
        areas[area]["france"] = units
    for area, units in {"14": 1, "4": 1, "5": 1, "17": 2, "21": 1, "10": 1, "19": 1}.items():
        areas[area]["spain"] = units
    view.update(
        {
            "turn": 5,
            "areas": areas,
            "off_map": {"OFF1": 2, "OFF6": 5, "OFF16": 3, "OFF20": 0},
            "set_aside": {"france": 0, "spain": 1},
            "losses": {"france": 2, "spain": 3},
            "cards_in_play": [{"id": "F-ART", "name": "Artillery", "side": "france"}],
            "cards_played_last_turn": [
                {"id": "F-MAM", "name": "Mameluke charge", "side": "france", "args": "16-14-9"},
                {"id": "S-BAR", "name": "Barricades", "side": "spain", "args": "17"},
                {"id": "F-FUS", "name": "Shootings", "side": "france", "args": "9"},
            ],
            "hand_sizes": {"france": 2, "spain": 3},
            "last_moves": copy.deepcopy(MOVES),
            "combats": [
                {
                    "area": "14",
                    "strength": {"france": 4, "spain": 1},
                    "lost": {"france": 0, "spain": 1},
                },
                {
                    "area": "10",
                    "strength": {"france": 1, "spain": 2},
                    "lost": {"france": 1, "spain": 0},
                },
            ],
            "removed": [{"area": "9", "side": "spain", "units": 1, "why": "Shootings"}],
        }
    )
    view.pop("hand", None)
    if seat == "france":
        view["hand"] = [{"id": "F-COR", "name": "Cuirassiers"}, {"id": "F-TOQ", "name": "Curfew"}]
    if seat == "spain":
        view["hand"] = [
            {"id": "S-MAN", "name": "Las Manolas"},
            {"id": "S-RIS", "name": "Rise"},
            {"id": "S-LEA", "name": "Loyal troops"},
        ]
    return view


def finished_view() -> dict[str, Any]:
    view = midgame_view(None)
    view.update(
        {
            "turn": 7,
            "status": "over",
            "winner": "spain",
            "end_reason": "loss-limit",
            "losses": {"france": 4, "spain": 5},
        }
    )
    return view


def decode(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def draw(view: dict[str, Any]) -> Image.Image:
    return decode(picture.render(view, None))


def changed(first: Image.Image, second: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(first, second).getbbox()


def inside(box: tuple[int, int, int, int], rect: tuple[float, ...]) -> bool:
    return rect[0] <= box[0] and rect[1] <= box[1] and box[2] <= rect[2] and box[3] <= rect[3]


def around(*nodes: str, grow: float = 16) -> tuple[float, float, float, float]:
    rects = [picture.load_art().rect(node, grow) for node in nodes]
    return (
        min(r[0] for r in rects),
        min(r[1] for r in rects),
        max(r[2] for r in rects),
        max(r[3] for r in rects),
    )


ALL_VIEWS = {
    "start public": start_view(None),
    "start spain": start_view("spain"),
    "midgame public": midgame_view(None),
    "midgame france": midgame_view("france"),
    "midgame spain": midgame_view("spain"),
    "finished": finished_view(),
}


@pytest.mark.parametrize("name", ALL_VIEWS)
def test_picture_is_mail_sized_and_small(name: str) -> None:
    png = picture.render(ALL_VIEWS[name], None)
    image = decode(png)
    assert 680 <= image.width <= 800 and image.height <= 900
    assert len(png) < PNG_BUDGET


def test_same_view_same_bytes_and_the_base_layer_is_not_touched() -> None:
    base = picture.base_layer()
    before = base.tobytes()
    first = picture.render(midgame_view("france"), None)
    assert picture.render(midgame_view("france"), {"ignored": True}) == first
    assert picture.base_layer() is base and base.tobytes() == before


def test_art_has_a_place_for_everything_and_nothing_overlaps() -> None:
    look, board = picture.load_art(), words.board()
    assert set(look.centres) == set(board.names) == set(look.lines)
    boxes = {node: look.rect(node) for node in [*look.centres, *look.stacks]}
    boxes["legend"], boxes["set aside"] = look.legend, look.set_aside
    for rect in boxes.values():
        assert rect[0] >= 0 and rect[2] <= look.width
        assert look.header <= rect[1] - 8 and rect[3] <= look.map_bottom
    for (a, one), (b, two) in combinations(boxes.items(), 2):
        apart = one[2] <= two[0] or two[2] <= one[0] or one[3] <= two[1] or two[3] <= one[1]
        assert apart, f"{a} overlaps {b}"


def test_art_copy_of_the_board_matches_the_rules_board_file() -> None:
    art_copy = words._board_from(words.art(), "art.toml")
    assert words.board() == art_copy
    with words.BOARD_FILE.open("rb") as handle:
        stacks = tomllib.load(handle).get("stacks", {})
    drawn = {stack: gate for stack, (gate, _) in picture.load_art().stacks.items()}
    assert drawn == {stack: str(entry["gate"]) for stack, entry in stacks.items()}


def _fill_point(area: str) -> tuple[int, int]:
    """A point inside an area's box, clear of its outline, name, badge and units."""
    x0, _, _, y1 = picture.load_art().rect(area)
    return int(x0 + 8), int(y1 - 8)


def test_contested_areas_are_highlighted() -> None:
    view = midgame_view(None)
    assert words.contested(view) == ["10", "14"]
    image = draw(view)
    colours = picture.load_art().colours
    fighting, quiet = image.getpixel(_fill_point("14")), image.getpixel(_fill_point("17"))
    assert fighting != quiet

    def distance(pixel: Any, colour: tuple[int, int, int]) -> int:
        return sum(abs(int(a) - b) for a, b in zip(pixel, colour, strict=True))

    assert distance(fighting, colours["contested"]) < distance(fighting, colours["area"])
    assert distance(quiet, colours["area"]) < distance(quiet, colours["contested"])
    # The same area is plain once one side has left it.
    calm = copy.deepcopy(view)
    calm["areas"]["14"]["spain"] = 0
    assert draw(calm).getpixel(_fill_point("14")) != fighting


@pytest.mark.parametrize("result", ["moved", "stopped", "failed"])
def test_an_arrow_is_drawn_between_the_areas_of_a_move(result: str) -> None:
    view = start_view(None)
    still = draw(view)
    view["last_moves"] = [move("spain", ["12", "21"], 1, result)]
    box = changed(still, draw(view))
    assert box is not None and inside(box, around("12", "21"))
    between = picture.load_art().rect("21")[1] - 2  # above the top edge of 21, below 12
    assert box[1] < between


def test_the_three_results_look_different() -> None:
    pictures = {}
    for result in ("moved", "stopped", "failed"):
        view = start_view(None)
        view["last_moves"] = [move("france", ["16", "12"], 2, result)]
        pictures[result] = draw(view)
    for one, two in combinations(pictures.values(), 2):
        assert changed(one, two) is not None


def test_a_two_step_path_is_drawn_through_the_middle_area() -> None:
    view = start_view(None)
    still = draw(view)
    view["last_moves"] = [move("france", ["16", "14", "9"], 2, "moved")]
    box = changed(still, draw(view))
    assert box is not None and inside(box, around("16", "14", "9"))
    look = picture.load_art()
    assert box[2] >= look.rect("16", 4)[0] and box[1] <= look.rect("9", 4)[3]
    # From 16 on its right to 9 above-left it runs along the top edge of 14, not across it.
    x0, y0, x1, y1 = look.rect("14")
    diff = ImageChops.difference(still, draw(view))
    assert diff.crop((int(x0) + 30, int(y0) - 6, int(x1) - 20, int(y0))).getbbox() is not None
    assert diff.crop((int(x0) + 30, int(y0) + 6, int(x1) - 6, int(y1) - 6)).getbbox() is None


def test_reinforcements_arrow_from_the_off_map_stack() -> None:
    view = start_view(None)
    still = draw(view)
    view["last_moves"] = [move("france", ["OFF20", "20"], 2, "moved")]
    box = changed(still, draw(view))
    assert box is not None and inside(box, around("OFF20", "20"))


def test_losses_are_marked_in_their_area() -> None:
    view = start_view(None)
    still = draw(view)
    view["combats"] = [
        {"area": "20", "strength": {"france": 2, "spain": 1}, "lost": {"france": 0, "spain": 1}}
    ]
    box = changed(still, draw(view))
    assert box is not None and inside(box, picture.load_art().rect("20"))


def test_every_unit_count_and_stack_is_drawn() -> None:
    start = draw(start_view(None))
    for area in ("3", "18"):  # empty at the start: a unit appears inside its box
        view = start_view(None)
        view["areas"][area]["france"] = 4
        box = changed(start, draw(view))
        assert box is not None and inside(box, picture.load_art().rect(area))
    view = start_view(None)
    view["off_map"]["OFF6"] = 2
    box = changed(start, draw(view))
    assert box is not None and inside(box, picture.load_art().rect("OFF6"))
    view = start_view(None)
    view["set_aside"]["spain"] = 0
    box = changed(start, draw(view))
    assert box is not None and inside(box, picture.load_art().set_aside)


@pytest.mark.parametrize("maker", [start_view, midgame_view])
def test_public_and_seat_pictures_differ_only_in_the_hand(maker: Any) -> None:
    seat = "spain" if maker is start_view else "france"
    public, own = draw(maker(None)), draw(maker(seat))
    box = changed(public, own)
    assert box is not None
    assert inside(box, tuple(picture.load_art().panel["hand_rect"]))


def test_finished_game_says_who_won() -> None:
    over, playing = draw(finished_view()), draw(midgame_view(None))
    box = changed(over, playing)
    assert box is not None and box[1] < picture.load_art().header
    text = words.describe(finished_view())
    assert "Game over at turn 7 of 10: Spain wins (France reached its loss limit)." in text


def test_describe_mentions_every_group_and_every_move() -> None:
    view = midgame_view("france")
    text = words.describe(view)
    board = words.board()
    for area, groups in view["areas"].items():
        held = ", ".join(f"{s.title()} {groups[s]}" for s in SIDES if groups[s])
        if held:
            assert f"{area} {board.names[area]}" in text and held in text
        else:
            assert f"  {area} {board.names[area]}:" not in text
    assert "14 Puerta del Sol (main street): France 3, Spain 1 (contested)" in text
    assert "10 Palacio Real: France 1, Spain 1 (contested)" in text
    assert "France 16-14-9 x2 (2 steps): moved." in text
    assert "Spain 14-15 x1: stopped by a head-on swap" in text
    assert "France 14-17 x1: failed" in text
    assert "France OFF16-16 x2: moved." in text
    assert "14 Puerta del Sol: France 4 against Spain 1; Spain lost 1." in text
    assert "Removed: Spain 1 from 9 Santo Domingo (Shootings)." in text
    assert "OFF1 2, OFF6 5, OFF16 3, OFF20 0" in text
    assert "Set aside: France 0, Spain 1." in text
    assert "Losses: France 2 (limit 4), Spain 3. Initiative: Spain." in text
    assert "Cards in play: Artillery (France)." in text
    assert "Barricades (Spain) 17" in text
    assert "Hands: France 2 cards, Spain 3 cards." in text
    assert "Your hand: Cuirassiers, Curfew." in text


def test_describe_of_the_start_and_the_public_view() -> None:
    text = words.describe(start_view(None))
    assert text.startswith("2 de Mayo, Madrid 1808. Turn 1 of 10, in play.")
    assert "20 Puerta de Toledo (gate): France 2, Spain 1 (contested)" in text
    assert "6 Puerta de Santa Bárbara (gate): France 2\n" in text
    assert "Your hand" not in text and "Last turn's moves" not in text
    assert "Hands: France 0 cards, Spain 1 card." in text
    assert "Your hand: José Blas Molina y Soriano." in words.describe(start_view("spain"))


# The longest texts the panel shows: card names, a card's words, and hands of them.
LONGEST_CARDS = [
    {"id": "S-PRE", "name": "Prisoners of the Castle Court", "side": "spain"},
    {"id": "F-BAN", "name": "Murat's proclamation", "side": "france"},
]
LONGEST_PLAYED = [
    {"id": "S-MOL", "name": "José Blas Molina y Soriano", "side": "spain", "args": "1-2-3"},
    {"id": "S-RUI", "name": "Lieutenant Jacinto Ruiz", "side": "spain", "args": "14"},
    {"id": "S-PRE", "name": "Prisoners of the Castle Court", "side": "spain", "args": "20"},
    {"id": "F-BAN", "name": "Murat's proclamation", "side": "france", "args": "1 6 16 20"},
]
LONGEST_HAND = [
    {"id": "S-PRE", "name": "Prisoners of the Castle Court"},
    {"id": "S-MOL", "name": "José Blas Molina y Soriano"},
    {"id": "S-RUI", "name": "Lieutenant Jacinto Ruiz"},
    {"id": "S-LEA", "name": "Loyal troops"},
    {"id": "S-RIS", "name": "Rise"},
]


def longest_view() -> dict[str, Any]:
    """The finished game seen by Spain, with the longest cards in play, played and in hand."""
    view = finished_view()
    view.update(
        {
            "seat": "spain",
            "cards_in_play": LONGEST_CARDS,
            "cards_played_last_turn": LONGEST_PLAYED[:2],
            "hand": LONGEST_HAND,
        }
    )
    return view


def test_the_longest_texts_are_drawn_whole() -> None:
    from adjudicator.core import picture as kit

    view = longest_view()
    view["end_reason"] = max(words.END_WORDS, key=lambda key: len(words.END_WORDS[key]))
    picture.layer.cache_clear()  # the area names are drawn once, into the base layer
    with kit.recording() as drawn:
        image = draw(view)
    said = " ".join(text.text for text in drawn)
    assert not [text.text for text in drawn if "…" in text.text]
    wanted = [words.card_words({**card, "side": None}) for card in view["cards_in_play"]]
    wanted += [words.card_words({**card, "side": None}) for card in LONGEST_PLAYED[:2]]
    wanted += [words.card_name(card) for card in LONGEST_HAND]
    wanted += [words.END_WORDS[view["end_reason"]]]
    wanted += [name for name in words.board().names.values()]
    for text in wanted:
        assert text in said, f"{text!r} is not drawn whole"
    # The hand runs on below the panel: the picture grows to hold it, and only then.
    assert image.height > picture.load_art().height
    assert draw(midgame_view("spain")).height == picture.load_art().height


def test_cards_beyond_the_rows_are_counted_not_cut() -> None:
    from adjudicator.core import picture as kit

    view = midgame_view(None)
    view["cards_played_last_turn"] = LONGEST_PLAYED
    with kit.recording() as drawn:
        draw(view)
    texts = [text.text for text in drawn]
    assert not [text for text in texts if "…" in text]
    more = [text for text in texts if text.startswith("and ") and text.endswith(" more")]
    assert len(more) == 1
    hidden = int(more[0].split()[1])
    said = " ".join(texts)
    shown = [words.card_words({**card, "side": None}) for card in LONGEST_PLAYED[:-hidden]]
    assert all(text in said for text in shown)


def test_a_picture_at_scale_two_is_twice_the_size_and_the_mail_picture_unchanged() -> None:
    view = midgame_view("spain")
    one = picture.render(view, None)
    two = decode(picture.render(view, None, scale=2))
    assert two.size == (2 * decode(one).width, 2 * decode(one).height)
    assert picture.render(view, None) == one
    # The same drawing: halved, the 2x picture is close to the 1x one.
    half = two.resize(decode(one).size, Image.Resampling.BOX)
    assert (
        ImageChops.difference(half, decode(one))
        .convert("L")
        .point(lambda v: 255 if v > 96 else 0)
        .histogram()[255]
        < 0.02 * half.width * half.height
    )
