"""The shared codec: frozen dataclasses to JSON and back, and the shape check that names the path
to the first wrong value."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

import pytest

from adjudicator.core.codec import Codec, Custom, Form, ShapeError
from adjudicator.core.refusal import Refusal

T = TypeVar("T")
Hex = tuple[int, int]


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Pair(Generic[T]):
    france: T
    spain: T


@dataclass(frozen=True)
class Unit:
    id: str
    hex: Hex | None
    strength: Pair[int]
    state: Literal["good", "routed"] = "good"
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class Board:
    units: tuple[Unit, ...]
    colour: Colour
    counts: dict[str, int]
    moves: tuple[tuple[str, tuple[str, ...]], ...]
    fired: bool = False
    note: str | None = None


BOARD = Board(
    units=(
        Unit("a", (1, 2), Pair(3, 4)),
        Unit("b", None, Pair(0, 1), "routed", ("x", "y")),
    ),
    colour=Colour.BLUE,
    counts={"n": 2},
    moves=(("a", ("1", "2")),),
    fired=True,
)


def test_a_value_round_trips_through_json() -> None:
    codec = Codec()
    data = codec.dump(BOARD)
    assert data["units"][0] == {
        "id": "a",
        "hex": [1, 2],
        "strength": {"france": 3, "spain": 4},
        "state": "good",
        "tags": [],
    }
    assert data["colour"] == "blue" and data["moves"] == [["a", ["1", "2"]]]
    assert codec.load(Board, json.loads(json.dumps(data))) == BOARD


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (
            lambda d: d["units"][1]["strength"].update(spain="1"),
            "units[1].strength.spain: expected a whole number",
        ),
        (
            lambda d: d["units"][0]["strength"].update(france=True),
            "units[0].strength.france: expected a whole number",
        ),
        (lambda d: d["units"][0].pop("hex"), "units[0].hex is missing"),
        (lambda d: d["units"][0].update(hex=[1]), "units[0].hex: expected a list of 2"),
        (
            lambda d: d["units"][0].update(state="shaken"),
            "units[0].state: expected 'good' or 'routed'",
        ),
        (lambda d: d.update(colour="green"), "colour: expected 'red' or 'blue'"),
        (lambda d: d.update(fired=1), "fired: expected true or false"),
        (lambda d: d.update(units={}), "units: expected a list"),
        (lambda d: d.update(note=3), "note: expected text"),
        (lambda d: d["counts"].update(n=None), "counts.n: expected a whole number"),
        (lambda d: d["moves"][0][1].append(7), "moves[0][1][2]: expected text"),
    ],
)
def test_wrong_shapes_are_refused_with_their_path(damage: object, message: str) -> None:
    codec = Codec()
    data = json.loads(json.dumps(codec.dump(BOARD)))
    damage(data)  # type: ignore[operator]
    with pytest.raises(ShapeError) as raised:
        codec.load(Board, data)
    assert str(raised.value) == message
    assert codec.read(Board, data) == Refusal(message, "shape")
    assert codec.read(Board, "board") == Refusal("expected an object", "shape")


def test_a_form_renames_orders_derives_and_omits_keys() -> None:
    form = Form(
        keys={"id": "name"},
        order=("name", "first", "hex", "strength", "state"),
        derived={"first": lambda unit: unit.id[0]},
        omit=("tags",),
    )
    codec = Codec(forms={Unit: form})
    unit = Unit("ab", (0, 0), Pair(1, 1), tags=("lost",))
    data = codec.dump(unit)
    assert list(data) == ["name", "first", "hex", "strength", "state"]
    assert data["name"] == "ab" and data["first"] == "a"
    assert codec.load(Unit, data) == Unit("ab", (0, 0), Pair(1, 1))


def test_left_out_keys_take_defaults_only_when_the_form_says_so() -> None:
    data = {"id": "a", "hex": None, "strength": {"france": 1, "spain": 2}}
    with pytest.raises(ShapeError, match="state is missing"):
        Codec().load(Unit, data)
    lenient = Codec(forms={Unit: Form(defaults=True)})
    assert lenient.load(Unit, data) == Unit("a", None, Pair(1, 2))
    with pytest.raises(ShapeError, match="id is missing"):
        lenient.load(Unit, {"hex": None})


def test_custom_forms_for_a_type_and_a_field() -> None:
    def hex_text(data: object) -> Hex:
        if not isinstance(data, str) or "." not in data:
            raise ShapeError("expected column.row")
        column, row = data.split(".")
        return (int(column), int(row))

    codec = Codec(
        custom={Hex: Custom(lambda where: f"{where[0]}.{where[1]}", hex_text)},
        forms={Unit: Form(fields={"id": Custom(str.upper, str.lower)})},
    )
    unit = Unit("a", (2, 3), Pair(0, 0))
    data = codec.dump(unit)
    assert data["hex"] == "2.3" and data["id"] == "A"
    assert codec.load(Unit, data) == unit
    with pytest.raises(ShapeError, match=r"^hex: expected column.row$"):
        codec.load(Unit, {**data, "hex": "23"})


def test_a_form_must_list_every_key() -> None:
    with pytest.raises(TypeError, match="every key"):
        Codec(forms={Unit: Form(order=("id",))}).dump(Unit("a", None, Pair(0, 0)))
