"""The Musket & Pike map picture: a mail-sized PNG with both sides' colours, marks and arrows."""

from __future__ import annotations

import io
import itertools
import re
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from adjudicator import i18n
from adjudicator.core import picture as kit
from adjudicator.core.chance import Chance
from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _
from adjudicator.games.musket_and_pike.pictures import legend
from adjudicator.games.musket_and_pike.pictures.look import (
    art,
    colour,
    font,
    hex_label_size,
    layout,
    side_colour,
)
from adjudicator.games.musket_and_pike.pictures.render import render
from adjudicator.games.musket_and_pike.rules.actions import resolve_activation
from adjudicator.games.musket_and_pike.rules.data import ruleset
from adjudicator.games.musket_and_pike.rules.scenario import Scenario, scenario
from adjudicator.games.musket_and_pike.rules.state import Position

PNG_BUDGET = 150_000
# The narrowest place a player reads the map: the mail shows it with max-width:100% inside a
# 720-px div (templates/email/_position.html), less its 1-px border on each side. The archive
# pages show it wider (base.html: a 52rem body of 17px type, 12px padding, some 860 px).
MAILED_WIDTH = 720 - 2
LEGIBLE = 10  # pixels: the smallest label height a player reads without zooming
SCENARIOS = ("braddock-down", "skirmish")


def picture(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGB")


def colours_in(image: Image.Image) -> set[tuple[int, int, int]]:
    found = image.getcolors(maxcolors=1 << 16)
    assert found is not None
    return {rgb for _, rgb in found}


def test_the_battle_map_is_mail_sized() -> None:
    opening = scenario("braddock-down").opening
    data = render(opening)
    assert data.startswith(b"\x89PNG") and len(data) <= PNG_BUDGET
    image = picture(data)
    assert 900 <= image.width <= 1100 and 600 <= image.height <= 1200
    shown = colours_in(image)
    royal, parliament = side_colour(opening, "royalist"), side_colour(opening, "parliament")
    assert royal != parliament
    assert royal in shown and parliament in shown


def test_marks_and_arrows_change_the_picture() -> None:
    start = replace(scenario("skirmish").opening, phase="activation")
    plain = picture(render(start))
    marked = start.with_unit(
        replace(start.units[0], formation="disordered", morale_state="shaken", salvo=True)
    )
    assert colour("disordered") in colours_in(picture(render(marked)))
    done = resolve_activation(
        start,
        "R-A",
        [{"unit": "R-HI-1", "action": "move", "path": [[2, 3], [2, 2]]}],
        Chance(b"render-test-seed", "test", 1),
    )
    assert not isinstance(done, Refusal)
    after, events = done
    moved = picture(render(after, events))
    assert moved.size == plain.size
    assert moved.tobytes() != picture(render(after)).tobytes()  # the arrow shows


def test_secret_orders_are_not_drawn_during_setup() -> None:
    start = scenario("skirmish").opening
    charged = start.with_wing(replace(start.wings[1], order="charge"))
    # The set-up picture shows "?" for every order, so a different order draws the same image.
    assert render(start) == render(charged)
    playing = replace(start, phase="activation")
    assert render(playing) != render(replace(charged, phase="activation"))


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_hex_is_labelled_legibly_at_the_width_mail_shows_it(name: str) -> None:
    battle = scenario(name)
    with kit.recording() as drawn:
        image = picture(render(battle.opening))
    labels = [text for text in drawn if re.fullmatch(r"\d+\.\d+", text.text)]
    every = {f"{column}.{row}" for column in range(battle.width) for row in range(battle.height)}
    assert {text.text for text in labels} == every
    shown = min(text.size for text in labels) * MAILED_WIDTH / image.width
    assert shown >= LEGIBLE, f"hex labels show {shown:.1f} px high in mail"


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_hex_label_clears_the_counter_below_it_and_the_hex_edges(name: str) -> None:
    place = layout(scenario(name))
    look, counter = art()["hex_label"], art()["counter"]
    face = font(hex_label_size(), bool(look["bold"]))
    widest = f"{scenario(name).width - 1}.{scenario(name).height - 1}"
    left, top, right, bottom = face.getbbox(widest, anchor="mm")
    middle = -float(look["above"]) * place.radius
    counter_top = (float(counter["below"]) - float(counter["half"])) * place.radius
    assert middle + bottom < counter_top
    # A counter facing north: its tick ends below the label too.
    assert middle + bottom < counter_top - float(counter["tick"]) * place.radius
    # The hex narrows toward its top edge: the label's corners stay inside it.
    half_width = place.radius - abs(middle + top) / 3**0.5
    assert right - left <= 2 * half_width + 2  # a pixel over each edge still reads


def test_a_map_at_scale_two_is_twice_the_size_with_labels_as_the_mail_has_them() -> None:
    opening = scenario("skirmish").opening
    one, two = picture(render(opening)), picture(render(opening, scale=2))
    assert two.size == (2 * one.width, 2 * one.height)
    half = two.resize(one.size, Image.Resampling.BOX)
    far = ImageChops.difference(half, one).convert("L").point(lambda v: 255 if v > 96 else 0)
    assert far.histogram()[255] < 0.02 * one.width * one.height


def test_a_long_wing_line_wraps_in_its_column_and_is_never_cut() -> None:
    battle = scenario("braddock-down")
    long = "The Earl of Stamford's regiment of horse and dragoons from the Western Association"
    # Every Parliament wing so named: three lines wrapped onto six, more than the panel holds.
    names = {**battle.names, "P-RIGHT": long, "P-CENTRE": long, "P-LEFT": long}
    wings = tuple(
        replace(wing, activations=2, finished=True, bypassed=True) for wing in battle.opening.wings
    )
    playing = replace(battle.opening, phase="activation", wings=wings)
    with kit.recording() as drawn:
        tall = picture(render(playing, battle=replace(battle, names=names)))
    short = picture(render(playing, battle=battle))
    panel = [text.text for text in drawn if text.size == 12]
    column = art()["canvas"]["width"] / len(playing.sides) - 2 * 14
    assert all(kit.length(line, font(12)) <= column for line in panel), panel
    # Every word of the line is drawn, in order, over the lines it wraps onto.
    said = " ".join(" ".join(panel).split())
    assert f"{long} [P-RIGHT]: Receive Charge · P-WC-R (WC -1) act 2 F Bypassed" in said
    # The panel grows to hold the lines, and nothing else moves.
    assert tall.height > short.height and tall.width == short.width


def test_both_sides_maps_of_a_step_are_one_drawing_though_their_views_differ() -> None:
    """What one side alone sees (secret set-up orders, standing instructions) is never drawn, so
    the game draws a step once for both sides' mails; drawn directly, each side's own view gives
    the very same bytes, so sharing the drawing shows neither side anything of the other's."""
    from adjudicator.games.musket_and_pike import game as module
    from adjudicator.games.musket_and_pike.rules import standing
    from adjudicator.games.musket_and_pike.rules.state import load

    rules = module.MusketAndPike()
    start = scenario("skirmish").opening
    secret = (("royalist", (("R", "charge"),)), ("parliament", (("P", "rally"),)))
    position = replace(start, secret_orders=secret)
    position = standing.with_instruction(position, "royalist", "retreat", "choose")
    position = standing.with_instruction(position, "parliament", "continue", "yes")
    views = {side: rules.view(position, side) for side in ("royalist", "parliament")}
    assert views["royalist"]["position"] != views["parliament"]["position"]
    direct = {side: render(load(view["position"])) for side, view in views.items()}
    assert direct["royalist"] == direct["parliament"] == render(start)

    module._drawing.cache_clear()
    mailed = [rules.render(view, None) for view in views.values()]
    assert mailed == [direct["royalist"]] * 2
    assert module._drawing.cache_info().misses == 1  # drawn once, found the second time


def overlapping(drawn: list[kit.Drawn]) -> list[tuple[str, str]]:
    """Every pair of texts whose boxes cross (touching edges do not)."""
    return [
        (one.text, other.text)
        for index, one in enumerate(drawn)
        for other in drawn[index + 1 :]
        if one.box[0] < other.box[2]
        and other.box[0] < one.box[2]
        and one.box[1] < other.box[3]
        and other.box[1] < one.box[3]
    ]


def marked(name: str) -> Position:
    """A battle under way with every mark a counter or leader can carry somewhere on the map."""
    start = replace(scenario(name).opening, phase="activation")
    first, second, third, fourth = start.units[:4]
    units = (
        replace(first, formation="disordered", morale_state="shaken", salvo=True),
        replace(second, formation="broken", morale_state="routed", fired=True),
        replace(third, salvo=True, morale_state="shaken"),
        replace(fourth, formation="disordered"),
        *start.units[4:],
    )
    finished = next(chief.id for chief in start.leaders if chief.role == "WC")
    chiefs = tuple(replace(chief, finished=chief.id == finished) for chief in start.leaders)
    return replace(start, units=units, leaders=chiefs)


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_counter_carries_the_id_orders_use_with_its_strength_and_morale(name: str) -> None:
    battle = scenario(name)
    place, look = layout(battle), art()["counter"]
    for position in (battle.opening, marked(name)):
        with kit.recording() as drawn:
            image = picture(render(position, battle=battle))
        for unit in position.units:
            assert unit.hex is not None
            x, y = place.centre(unit.hex)
            y += float(look["below"]) * place.radius
            wide = float(look["half_width"]) * place.radius
            high = float(look["half"]) * place.radius
            inside = [
                text.text
                for text in drawn
                if x - wide <= text.box[0] and text.box[2] <= x + wide
                if y - high <= text.box[1] and text.box[3] <= y + high
            ]
            assert inside[:3] == [unit.id, str(unit.sp), f"m{unit.morale}"], (unit.id, inside)
        ids = [text for text in drawn if text.text in {unit.id for unit in position.units}]
        shown = min(text.size for text in ids) * MAILED_WIDTH / image.width
        assert shown >= 6, f"counter ids show {shown:.1f} px high in mail"
        on_map = [text for text in drawn if text.box[3] <= place.map_bottom]
        assert overlapping(on_map) == []


def ground_on_the_map(name: str) -> list[str]:
    """The kinds of ground this battle's map has, read from its rows and the ruleset's letters."""
    rules = ruleset()
    letters = set("".join(scenario(name).rows))
    return [terrain for terrain, entry in rules.terrain.items() if entry.letter in letters]


def ground_shade(battle: Scenario, terrain: str, image: Image.Image) -> object:
    """The colour the map shows ``terrain`` in: the middle of a hex of it with nothing on it."""
    place, letter = layout(battle), ruleset().terrain[terrain].letter
    taken = {piece.hex for piece in (*battle.opening.units, *battle.opening.leaders)}
    where = next(
        (column, row)
        for row in range(battle.height)
        for column in range(battle.width)
        if battle.letter((column, row)) == letter and (column, row) not in taken
    )
    x, y = place.centre(where)
    return image.getpixel((int(x), int(y + 0.2 * place.radius)))


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
@pytest.mark.parametrize("name", SCENARIOS)
def test_the_key_names_every_ground_of_the_map_beside_a_swatch_of_its_colour(
    name: str, lang: str
) -> None:
    battle = scenario(name)
    place = layout(battle)
    with i18n.speaking(lang), kit.recording() as drawn:
        image = picture(render(battle.opening))
        named = {terrain: _(legend.TERRAIN_WORDS[terrain]) for terrain in ground_on_the_map(name)}
    assert len(named) >= 3
    key = [text for text in drawn if text.box[1] > place.map_bottom]
    for terrain, words in named.items():
        if lang != "en":
            assert words != legend.TERRAIN_WORDS[terrain], f"{terrain} is not translated"
        [text] = [text for text in key if text.text.startswith(words)]
        # Just left of the name, on its line, a swatch of the ground's colour as the map has it.
        x0, y0, _x1, y1 = text.box
        row = [image.getpixel((x, int((y0 + y1) / 2))) for x in range(int(x0) - 24, int(x0))]
        assert ground_shade(battle, terrain, image) in row, terrain
    inside = [text for text in key if text.box[0] < 0 or text.box[2] > image.width]
    assert inside == [] and overlapping(key) == []
    assert max(text.size for text in key) * MAILED_WIDTH / image.width >= LEGIBLE


def drawn_key(name: str, lang: str) -> tuple[list[kit.Drawn], list[kit.Drawn], Image.Image]:
    """The marked battle's texts on the map (its hex labels left out) and in its key, in
    ``lang``, and the picture."""
    battle = scenario(name)
    place = layout(battle)
    with i18n.speaking(lang), kit.recording() as drawn:
        image = picture(render(marked(name), battle=battle))
        heading = _("Terrain")
    on_map = [
        text
        for text in drawn
        if text.box[3] <= place.map_bottom and not re.fullmatch(r"\d+\.\d+", text.text)
    ]
    start = [text.text for text in drawn].index(heading)
    return on_map, drawn[start:], image


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
@pytest.mark.parametrize("name", SCENARIOS)
def test_the_key_explains_every_mark_a_piece_carries_beside_the_mark_itself(
    name: str, lang: str
) -> None:
    on_map, key, image = drawn_key(name, lang)
    ids = {unit.id for unit in scenario(name).opening.units}
    # Every mark on the map: a counter's tags (D, B, S, R, Sv, F), a leader's disc (A, W, F).
    shown = {text.text for text in on_map if re.fullmatch(r"[A-Z][a-z]?", text.text)}
    assert {"D", "B", "S", "R", "Sv", "F", "A", "W"} <= shown
    meanings: dict[str, list[str]] = {}
    for mark, words in itertools.pairwise(key):
        if mark.text in shown:
            # Its meaning follows on its line, just right of it.
            middle = (mark.box[1] + mark.box[3] - words.box[1] - words.box[3]) / 2
            assert abs(middle) <= 4
            assert 0 < words.box[0] - mark.box[2] <= 12, (mark.text, words.text)
            meanings.setdefault(mark.text, []).append(words.text)
    assert shown <= meanings.keys()
    assert len(meanings["F"]) == 2  # fired artillery's tag and a finished leader's disc
    # A counter as the map draws it: its id, then its strength and morale, then what they are.
    sample = [text.text for text in key if text.text in ids]
    assert len(sample) == 1
    assert key[key.index(next(t for t in key if t.text in ids)) + 3].text.count("SP") == 1
    english = drawn_key(name, "en")[1]
    if lang != "en":
        said = {text.text for text in english if len(text.text) > 2 and text.text not in ids}
        assert not [text.text for text in key if len(text.text) > 2 and text.text in said]
    assert [text for text in key if text.box[0] < 0 or text.box[2] > image.width] == []
    assert overlapping(key) == []


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
@pytest.mark.parametrize("name", SCENARIOS)
def test_the_panel_names_every_leader_on_the_map_by_the_id_orders_use(name: str, lang: str) -> None:
    """A leader's disc carries only its role's letter (A, W): the id a leader's orders name it by
    is in the panel, with its rating, on its wing's line or its side's."""
    battle = scenario(name)
    place = layout(battle)
    with i18n.speaking(lang), kit.recording() as drawn:
        render(battle.opening, battle=battle)
        heading = _("Terrain")
    said = [text.text for text in drawn if text.box[1] > place.map_bottom]
    panel = " ".join(said[: said.index(heading)])
    for chief in battle.opening.leaders:
        # "R-WC-L (WC -1)": the id, then the role and rating in the reader's words.
        found = re.search(re.escape(chief.id) + r" \(([^)]*)\)", panel)
        assert found is not None, (chief.id, panel)
        assert found.group(1).endswith(f" {chief.rating}"), found.group(0)
