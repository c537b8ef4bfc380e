"""The order checker's picture of a Thermopyles action: the checked action marked on the battle
line by the turn pictures' own renderer (the cards it would fight, the support it would spend,
the marker's step back), nothing resolved and nothing hidden drawn."""

from __future__ import annotations

import base64
import io
from dataclasses import replace
from typing import Any

from PIL import Image

from adjudicator.core import picture
from adjudicator.core.chance import Chance
from adjudicator.games import registry
from adjudicator.games.thermopyles import preview, render
from adjudicator.services.reading import checker

RULES = registry.games()["thermopyles"]
SEAT = "spartans"


def facts_of(text: str) -> dict[str, Any]:
    state = checker.opening(RULES)
    report = RULES.parse_orders(state, SEAT, text)
    assert report.orders is not None and not report.rejected, report
    found = RULES.preview_facts(state, SEAT, report.orders)
    assert found is not None
    return dict(found)


def rgb(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def test_a_fight_names_its_strength_and_the_cards_it_meets() -> None:
    # The public opening: near 16/19, far 20/23, the marker on 1 (no free die), hand 10 17 18 18.
    facts = facts_of("FIGHT 17 SUPPORT 1")
    fight = facts["fight"]
    assert (fight["card"], fight["support"], fight["low"], fight["high"]) == (17, 1, 18, 23)
    assert (fight["near"]["white"], fight["far"]["white"]) == (16, 20)
    assert "retreat" not in facts
    with picture.recording() as drawn:
        RULES.render(RULES.view(checker.opening(RULES), SEAT), facts)
    said = " ".join(d.text for d in drawn)
    assert "FIGHT 17 SUPPORT 1" in said and "Strength 18 to 23" in said
    assert "1. The near 16/19: beaten whatever the dice, to the Graveyard at 19." in said


def test_a_retreat_names_the_marker_step_and_the_draw() -> None:
    facts = facts_of("RETREAT NODRAW")
    assert facts["retreat"] == {"from": 1, "to": 2, "name": None, "draw": False, "lost": False}
    with picture.recording() as drawn:
        RULES.render(RULES.view(checker.opening(RULES), None), facts)
    said = " ".join(d.text for d in drawn)
    assert "The marker falls back from 1 to 2; NODRAW: no card is drawn." in said


def test_the_marks_are_drawn_where_the_action_acts() -> None:
    view = RULES.view(checker.opening(RULES), SEAT)
    fight = rgb(RULES.render(view, facts_of("FIGHT 17 SUPPORT 1")))
    retreat = rgb(RULES.render(view, facts_of("RETREAT")))
    plan = render.COLOURS["plan"]
    # The ring round the near card, left of it: on the fight's picture only.
    ring = (render.NEAR_X - preview.RING + 1, render.PERSIAN_Y + 75)
    assert fight.getpixel(ring) == plan and retreat.getpixel(ring) != plan
    # The arrow between the marker (space 1) and space 2: on the retreat's picture only.
    (x1, y1), (x2, _) = render.marker_centre(1), render.marker_centre(2)
    arrow = (int((x1 + x2) / 2), int(y1))
    assert retreat.getpixel(arrow) == plan and fight.getpixel(arrow) != plan
    # The 17 played: ringed in the player's own hand (10 17 18 18, its second card).
    x0, y0, _, _ = render.hand_card(1, 4)
    played = (int(x0) - preview.RING + 1, int(y0) + 50)
    assert fight.getpixel(played) == plan and retreat.getpixel(played) != plan


def test_nothing_is_resolved_and_the_picture_changes_with_the_orders() -> None:
    state = checker.opening(RULES)
    before = RULES.dump(state)
    view = RULES.view(state, None)
    pictures = {
        text: RULES.render(view, facts_of(text))
        for text in ("FIGHT 17", "FIGHT 17 SUPPORT 2", "FIGHT 10", "RETREAT", "RETREAT NODRAW")
    }
    assert len(set(pictures.values())) == len(pictures)
    assert RULES.render(view, None) not in pictures.values()
    assert RULES.render(view, facts_of("FIGHT 17")) == pictures["FIGHT 17"]
    assert RULES.dump(state) == before


def test_the_public_picture_shows_no_hidden_card() -> None:
    state = checker.opening(RULES)
    facts = facts_of("RETREAT")
    public = RULES.render(RULES.view(state, None), facts)
    for salt in range(3):
        hidden = RULES.scramble_hidden(state, None, salt)
        assert RULES.render(RULES.view(hidden, None), facts) == public


def test_other_orders_draw_no_preview() -> None:
    state = checker.opening(RULES)
    assert RULES.preview_facts(state, "persians", {"action": "retreat", "draw": True}) is None
    assert RULES.preview_facts(state, SEAT, {"action": "charge"}) is None


def test_the_checker_carries_the_picture_at_any_scale() -> None:
    state = checker.opening(RULES)
    found = checker.check(RULES, state, SEAT, "FIGHT 17 SUPPORT 1")
    assert found.accepted and found.picture is not None
    assert found.picture.startswith("data:image/png;base64,")
    png = base64.b64decode(found.picture.split(",", 1)[1])
    assert rgb(png).size == (render.WIDTH, render.HEIGHT)
    other = checker.check(RULES, state, SEAT, "RETREAT")
    assert other.picture is not None and other.picture != found.picture
    assert checker.check(RULES, state, SEAT, "Hello, just checking").picture is None
    facts = facts_of("FIGHT 17 SUPPORT 1")
    twice = RULES.render(RULES.view(state, None), facts, 2)
    assert rgb(twice).size == (2 * render.WIDTH, 2 * render.HEIGHT)


def test_a_hand_over_the_limit_says_what_is_discarded() -> None:
    state = replace(checker.opening(RULES), hand=(3, 10, 17, 18, 18, 20))
    named = RULES.parse_orders(state, SEAT, "DISCARD 18\nFIGHT 18")
    unnamed = RULES.parse_orders(state, SEAT, "FIGHT 18")
    assert named.orders is not None and unnamed.orders is not None
    with_discard = RULES.preview_facts(state, SEAT, named.orders)
    without = RULES.preview_facts(state, SEAT, unnamed.orders)
    assert with_discard is not None and without is not None
    assert (with_discard["discard"], with_discard["limit_discards"]) == (18, 0)
    assert (without["discard"], without["limit_discards"]) == (None, 1)
    said = preview.lines(without)
    assert "The hand limit discards your lowest card (never the one you play)." in said
    retreat = RULES.parse_orders(state, SEAT, "RETREAT")
    assert retreat.orders is not None
    back = RULES.preview_facts(state, SEAT, retreat.orders)
    assert back is not None
    assert "The hand limit discards your lowest card." in preview.lines(back)
    # On the player's own hand the named card is crossed out: the picture differs.
    view = RULES.view(state, SEAT)
    assert RULES.render(view, with_discard) != RULES.render(view, without)


def test_the_picture_names_the_turn_the_checker_asks_for() -> None:
    # The checker's prompt names the turn the action is for ("Turn 1: near ..."), as the mail
    # does; the picture of that turn once resolved is titled "turn 1", and so is its preview.
    state = checker.opening(RULES)
    assert checker.prompt(RULES, state, SEAT).startswith(f"Turn {state.turn + 1}:")
    with picture.recording() as drawn:
        RULES.render(RULES.view(state, SEAT), facts_of("RETREAT"))
    titles = [d.text for d in drawn if d.text.startswith("THERMOPYLES")]
    assert titles == [f"THERMOPYLES  -  turn {state.turn + 1}  -  checked, not resolved"]
    retreat = RULES.parse_orders(state, SEAT, "RETREAT").orders
    played = RULES.resolve(state, {SEAT: retreat}, Chance(b"public", "check", 1))
    with picture.recording() as drawn:
        RULES.render(RULES.view(played.state, SEAT), played.facts)
    assert next(d.text for d in drawn if d.text.startswith("THERMOPYLES")).startswith(
        f"THERMOPYLES  -  turn {state.turn + 1}  -  "
    )
