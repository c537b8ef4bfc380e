"""Readers of plain JSON values for the codec (``codec.py``): each checks one shape, a number,
a text, a list, a fixed tuple, an object, a choice among literals, and raises ShapeError naming
the path to the first wrong part.

A reader first tries the usual case in one pass (a list of plain numbers is taken as it is once
every item is checked) and reads again item by item only to say where a problem is.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any

JSON = Any
Reader = Callable[[JSON], Any]
MISSING = "is missing"


class ShapeError(ValueError):
    """JSON that is not the shape of the type asked for: where (``units[3].sp``) and what is
    wrong with it. A ValueError, so a caller that refuses bad input by ValueError keeps doing so."""

    def __init__(self, problem: str, path: tuple[str | int, ...] = ()) -> None:
        self.problem = problem
        self.path = path
        super().__init__(self.message)

    @property
    def message(self) -> str:
        where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in self.path)
        where = where.removeprefix(".")
        if not where:
            return self.problem
        joint = " " if self.problem == MISSING else ": "
        return f"{where}{joint}{self.problem}"

    def at(self, part: str | int) -> ShapeError:
        """The same problem one level further out (the container adds its key or index)."""
        return ShapeError(self.problem, (part, *self.path))


def _whole_number(data: JSON) -> int:
    # bool is an int in Python; a stored count must not be a boolean.
    if type(data) is int:
        return data
    raise ShapeError("expected a whole number")


def _truth(data: JSON) -> bool:
    if data is True or data is False:
        return bool(data)
    raise ShapeError("expected true or false")


def _text(data: JSON) -> str:
    if isinstance(data, str):
        return data
    raise ShapeError("expected text")


def _nothing(data: JSON) -> None:
    if data is not None:
        raise ShapeError("expected null")


def same(value: Any) -> Any:
    return value


SCALARS: dict[Any, Reader] = {int: _whole_number, bool: _truth, str: _text, type(None): _nothing}
IN_PLACE: dict[Reader, str] = {_text: "str", _whole_number: "int"}


def literal_reader(choices: tuple[Any, ...]) -> Reader:
    allowed = frozenset(choices)
    expected = "expected " + " or ".join(repr(choice) for choice in choices)

    def read(data: JSON) -> Any:
        try:
            if data in allowed and type(data) is not bool:
                return data
        except TypeError:  # a list or an object: not hashable, and no choice either
            pass
        raise ShapeError(expected)

    return read


def enum_reader(cls: type[enum.Enum]) -> Reader:
    expected = "expected " + " or ".join(repr(member.value) for member in cls)

    def read(data: JSON) -> Any:
        try:
            return cls(data)
        except (ValueError, TypeError):
            raise ShapeError(expected) from None

    return read


def sequence_reader(one: Reader, kind: Callable[[list[Any]], Any]) -> Reader:
    plain = {cls for cls, read in SCALARS.items() if read is one and cls in (int, str)}

    def read(data: JSON) -> Any:
        if type(data) is list:
            # A list of plain numbers or texts is taken as it is once every item's type is
            # checked (``set(map(type, ...))`` runs without a Python call per item).
            if plain and set(map(type, data)) <= plain:
                return kind(data)
            try:
                return kind([one(item) for item in data])
            except ShapeError:
                pass
        return slow(data)

    def slow(data: JSON) -> Any:
        if not isinstance(data, list):
            raise ShapeError("expected a list")
        out = []
        for index, item in enumerate(data):
            try:
                out.append(one(item))
            except ShapeError as error:
                raise error.at(index) from None
        return kind(out)

    return read


def fixed_reader(each: tuple[Reader, ...]) -> Reader:
    expected = f"expected a list of {len(each)}"
    size = len(each)

    def read(data: JSON) -> Any:
        if type(data) is list and len(data) == size:
            try:
                return tuple([one(item) for one, item in zip(each, data, strict=True)])
            except ShapeError:
                pass
        return slow(data)

    def slow(data: JSON) -> Any:
        if not isinstance(data, list) or len(data) != size:
            raise ShapeError(expected)
        out = []
        for index, (one, item) in enumerate(zip(each, data, strict=True)):
            try:
                out.append(one(item))
            except ShapeError as error:
                raise error.at(index) from None
        return tuple(out)

    if size != 2:
        return read
    first, second = each

    def pair(data: JSON) -> Any:
        # The usual fixed tuple (a hex, a name and its count) without the loop.
        if type(data) is list and len(data) == 2:
            try:
                return (first(data[0]), second(data[1]))
            except ShapeError:
                pass
        return slow(data)

    return pair


def mapping_reader(one: Reader) -> Reader:
    def read(data: JSON) -> Any:
        if not isinstance(data, dict):
            raise ShapeError("expected an object")
        out = {}
        for key, item in data.items():
            try:
                out[key] = one(item)
            except ShapeError as error:
                raise error.at(str(key)) from None
        return out

    return read
