"""The order checker's picture of Musket & Pike orders: the checked orders drawn by the turn maps'
own renderer (moves as arrows, fire and charge targets ringed, tags on the units that hold or
rally, wing orders asked at set-up in the panel), nothing resolved and nothing hidden drawn."""

from __future__ import annotations

import math
from typing import Any

from builders.games import preview_facts, rgb
from games.test_musket_and_pike_orders import GAME, opened

from adjudicator.core import picture
from adjudicator.core.contract import PREVIEW
from adjudicator.games.musket_and_pike.pictures.look import colour, layout
from adjudicator.games.musket_and_pike.rules.scenario import scenario
from adjudicator.games.musket_and_pike.rules.state import Position
from adjudicator.services.reading import checker

CHARGE = "keep order\nR-CAV-1 charge 1.3 1.2 P-CAV-1\nR-HI-1 move 2.3 face n"
FIRE = "keep order\nR-ART-1 fire P-HI-1\nR-HI-1 move 2.3"


def facts_of(state: Position, seat: str, text: str) -> dict[str, Any]:
    return preview_facts(GAME, state, seat, text)


def activated() -> Position:
    """The skirmish with the Royalists' R-A wing activated, its unit actions owed."""
    table = opened()
    table.send("parliament", "no preempt")
    return table.state


def ring_point(where: tuple[int, int]) -> tuple[int, int]:
    """A pixel on the target ring of hex ``where``: the middle of its top edge."""
    place = layout(scenario("skirmish"))
    x, y = place.centre(where)
    return (round(x), round(y - (place.radius - 3) * math.sin(math.radians(60))))


def drawn_words(view: Any, facts: Any) -> list[str]:
    with picture.recording() as drawn:
        GAME.render(view, facts)
    return [text.text for text in drawn]


def test_moves_fire_and_charges_become_the_turn_maps_arrows() -> None:
    state = activated()
    facts = facts_of(state, "royalist", CHARGE)
    kinds = [(event["type"], event.get("unit")) for event in facts["events"]]
    assert kinds == [("move", "R-CAV-1"), ("close_combat", None), ("move", "R-HI-1")]
    # Each path starts where the unit stands, as a resolved move's does.
    assert facts["events"][0]["path"] == [[1, 4], [1, 3], [1, 2]]
    # The charge ends against its target: the arrow from the path's end, the target ringed.
    assert facts["events"][1] == {"type": "close_combat", "from": [1, 2], "to": [1, 1]}
    assert facts["targets"] == [{"at": [1, 1], "kind": "close_combat", "by": "R-CAV-1"}]
    # R-ART-1 of the activated wing has no action: it holds.
    assert facts["tags"] == [{"at": [3, 5], "words": "holds"}]
    fire = facts_of(state, "royalist", FIRE)
    assert {"type": "fire", "from": [3, 5], "to": [2, 1]} in fire["events"]
    assert fire["targets"] == [{"at": [2, 1], "kind": "fire", "by": "R-ART-1"}]
    assert {"at": [1, 4], "words": "holds"} in fire["tags"]


def test_the_picture_changes_with_the_orders_and_rings_the_targets() -> None:
    state = activated()
    view = GAME.view(state, "royalist")
    charge = rgb(GAME.render(view, facts_of(state, "royalist", CHARGE)))
    fire = rgb(GAME.render(view, facts_of(state, "royalist", FIRE)))
    plain = rgb(GAME.render(view, None))
    assert charge.tobytes() != fire.tobytes() != plain.tobytes()
    # The charge's target ringed in the close-combat colour, the fire's in the fire colour.
    assert charge.getpixel(ring_point((1, 1))) == colour("melee")
    assert fire.getpixel(ring_point((1, 1))) != colour("melee")
    assert fire.getpixel(ring_point((2, 1))) == colour("fire")
    assert charge.getpixel(ring_point((2, 1))) != colour("fire")
    # The orders are written under the map, the picture taller for them.
    assert charge.height > plain.height
    said = drawn_words(view, facts_of(state, "royalist", CHARGE))
    assert "R-CAV-1 CHARGE 1.3 1.2 P-CAV-1" in said and "holds" in said


def test_set_up_orders_show_in_the_panel_as_asked_and_the_other_side_stays_hidden() -> None:
    state = checker.opening(GAME)
    text = "ORDERS R-LEFT=charge R-CENTRE=make ready R-RIGHT=rally"
    facts = facts_of(state, "royalist", text)
    assert facts["wing_orders"] == {
        "R-LEFT": "charge",
        "R-CENTRE": "make_ready",
        "R-RIGHT": "rally",
    }
    said = drawn_words(GAME.view(state, None), facts)
    asked = [line for line in said if "(asked) ·" in line]
    assert len(asked) == 3 and any("Charge (asked)" in line for line in asked)
    assert all("[R-" in line for line in asked)
    # The other side's wings keep their "?": the set-up orders are secret until both are in.
    assert sum(": ? ·" in line for line in said if "[P-" in line) == 3
    other = facts_of(state, "royalist", "ORDERS R-LEFT=rally R-CENTRE=rally R-RIGHT=rally")
    view = GAME.view(state, None)
    assert GAME.render(view, facts) != GAME.render(view, other)


def test_nothing_is_resolved_and_twice_the_size_is_the_same_picture() -> None:
    state = activated()
    before = GAME.dump(state)
    facts = facts_of(state, "royalist", CHARGE)
    view = GAME.view(state, "royalist")
    one, two = rgb(GAME.render(view, facts)), rgb(GAME.render(view, facts, 2))
    assert GAME.dump(state) == before
    assert two.size == (2 * one.width, 2 * one.height)
    assert facts[PREVIEW] is True and facts["side"] == "royalist"
    # Not a side of the game, or not an order set: no preview.
    assert GAME.preview_facts(state, "france", {"step": "actions", "answer": []}) is None
    assert GAME.preview_facts(state, "royalist", "CHARGE") is None


def test_the_checker_carries_both_pictures() -> None:
    state = activated()
    found = checker.check(GAME, state, "royalist", CHARGE, None, "royalist")
    assert found.accepted and found.picture and found.picture_2x
    assert found.picture.startswith("data:image/png;base64,")
    assert found.picture_2x.startswith("data:image/png;base64,")
