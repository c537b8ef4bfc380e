"""Frozen dataclasses as JSON and back, with the check that JSON has their shape.

Every game keeps its state as frozen dataclasses of tuples, nested dataclasses, optional fields,
string literals and a few small types of its own, and stores it as JSON. A ``Codec`` writes such a
value field by field and reads it back from the type hints alone, so a game declares only where
its stored form differs from its fields (a key's name, the order of keys, a field written its own
way). Reading refuses data of the wrong shape with the path to the first wrong value
(``units[3].strength: expected a whole number``); the checks that need the rules (cards add up,
units are where they may be) stay in the game and run after this one.

Reading and writing are compiled once per type into plain functions: a position is read or written
on every turn of every game, and an error path is only built when there is an error.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import operator
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from adjudicator.core.refusal import Refusal
from adjudicator.core.shapes import (
    IN_PLACE,
    MISSING,
    SCALARS,
    ShapeError,
    enum_reader,
    fixed_reader,
    literal_reader,
    mapping_reader,
    same,
    sequence_reader,
)

__all__ = ["JSON", "Codec", "Custom", "Form", "ShapeError"]

T = TypeVar("T")
JSON = Any
Reader = Callable[[JSON], Any]
Writer = Callable[[Any], JSON]


@dataclass(frozen=True)
class Custom(Generic[T]):
    """A type or a field written its own way. ``load`` raises ShapeError on data it cannot read
    (the containers around it add the path)."""

    dump: Callable[[T], JSON]
    load: Callable[[JSON], T]


@dataclass(frozen=True)
class Form:
    """Where a dataclass's stored form differs from its fields.

    ``keys``: a field's stored key when it is not the field's name. ``order``: every stored key in
    the order they are written, when it is not the fields' order. ``fields``: a field written its
    own way. ``derived``: keys that are written for readers of the JSON and ignored when reading.
    ``defaults``: a key left out takes its field's default (otherwise it is missing)."""

    keys: Mapping[str, str] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    fields: Mapping[str, Custom[Any]] = field(default_factory=dict)
    derived: Mapping[str, Callable[[Any], JSON]] = field(default_factory=dict)
    omit: tuple[str, ...] = ()
    defaults: bool = False


class Codec:
    """Writes and reads values by their type hints, with ``forms`` for the dataclasses and
    ``custom`` for the types whose stored form is not the plain one."""

    def __init__(
        self,
        forms: Mapping[type, Form] | None = None,
        custom: Mapping[Any, Custom[Any]] | None = None,
    ) -> None:
        self.forms = dict(forms or {})
        self.custom = dict(custom or {})
        self._readers: dict[Any, Reader] = {}
        self._writers: dict[Any, Writer] = {}

    def dump(self, value: Any, kind: Any = None) -> JSON:
        """The JSON form of ``value`` (of ``kind``, by default its own class)."""
        return self.writer(type(value) if kind is None else kind)(value)

    def load(self, kind: type[T], data: JSON) -> T:
        """The value of ``kind`` that ``data`` holds; raises ShapeError on the first wrong part."""
        value: T = self.reader(kind)(data)
        return value

    def dump_stored(self, value: Any, schema: int) -> dict[str, JSON]:
        """The stored form of a game's state: its schema version first, then the value."""
        return {"schema": schema, **self.dump(value)}

    def load_stored(
        self,
        kind: type[T],
        data: JSON,
        schema: int,
        what: str,
        upgrades: Mapping[int, Callable[[dict[str, JSON]], dict[str, JSON]]] | None = None,
    ) -> T:
        """A state stored by ``dump_stored``: a JSON object of this ``schema`` (or of an older one
        that ``upgrades`` brings up to date). Raises ShapeError, its message starting with
        ``what`` (``2 de Mayo state: losses is missing``)."""
        if not isinstance(data, dict):
            raise ShapeError(f"{what} must be a JSON object")
        found = data.get("schema")
        upgrade = (upgrades or {}).get(found) if type(found) is int else None
        if upgrade is not None:
            data = upgrade(data)
        elif found != schema:
            raise ShapeError(f"{what}: schema {found!r}; expected {schema}")
        try:
            return self.load(kind, data)
        except ShapeError as error:
            raise ShapeError(f"{what}: {error.message}") from None

    def read(self, kind: type[T], data: JSON) -> T | Refusal:
        """``load`` for input from outside: the value, or a refusal naming the wrong part."""
        try:
            return self.load(kind, data)
        except ShapeError as error:
            return Refusal(error.message, "shape")

    def reader(self, hint: Any) -> Reader:
        found = self._readers.get(hint)
        if found is None:
            found = self._readers[hint] = self._reader(hint)
        return found

    def writer(self, hint: Any) -> Writer:
        found = self._writers.get(hint)
        if found is None:
            found = self._writers[hint] = self._writer(hint)
        return found

    # --- compiling readers ---------------------------------------------------------------------

    def _reader(self, hint: Any) -> Reader:
        if hint in self.custom:
            load: Reader = self.custom[hint].load
            return load
        if hint is Any or hint is object:
            return same
        if hint in SCALARS:
            return SCALARS[hint]
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is typing.Literal:
            return literal_reader(args)
        if origin in (typing.Union, types.UnionType):
            return self._union(args)
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return sequence_reader(self.reader(args[0]), tuple)
            return fixed_reader(tuple(self.reader(arg) for arg in args))
        if origin is list:
            return sequence_reader(self.reader(args[0]), list)
        if origin in (dict, Mapping) or hint in (dict, Mapping):
            return mapping_reader(self.reader(args[1]) if args else same)
        cls = origin or hint
        if isinstance(cls, type) and issubclass(cls, enum.Enum):
            return enum_reader(cls)
        if dataclasses.is_dataclass(cls):
            return self._record_reader(hint)
        raise TypeError(f"no JSON form for {hint!r}")

    def _union(self, args: tuple[Any, ...]) -> Reader:
        others = [arg for arg in args if arg is not type(None)]
        if len(others) != 1:
            raise TypeError(f"only X | None unions have a JSON form, not {args!r}")
        inner = self.reader(others[0])

        def read(data: JSON) -> Any:
            return None if data is None else inner(data)

        return read

    def _record_reader(self, hint: Any) -> Reader:
        cls, hints = _fields(hint)
        form = self.forms.get(cls, Form())
        plan: list[tuple[str, str, Reader, Any]] = []
        for item in _stored(cls, form):
            custom = form.fields.get(item.name)
            reads = custom.load if custom else self.reader(hints[item.name])
            default: Any = _REQUIRED
            if form.defaults and item.default is not dataclasses.MISSING:
                default = item.default
            elif form.defaults and item.default_factory is not dataclasses.MISSING:
                default = item.default_factory()
            plan.append((item.name, form.keys.get(item.name, item.name), reads, default))

        slow = _record_slow(cls, plan)
        names: dict[str, Any] = {"cls": cls, "slow": slow, "ShapeError": ShapeError}
        given = []
        for index, (name, key, reads, _) in enumerate(plan):
            names[f"read{index}"] = reads
            plain = IN_PLACE.get(reads)
            if plain:  # a text or a number read in place: most fields are one
                value = f"(v if type(v := data[{key!r}]) is {plain} else read{index}(v))"
            else:
                value = f"read{index}(data[{key!r}])"
            given.append(f"{name}={value}")
        # The usual case in one expression, as a hand-written reader would be; on any problem
        # the slow reader finds the first wrong part, its path, or the defaults of keys left out.
        source = (
            "def read(data):\n"
            "    if type(data) is dict:\n"
            "        try:\n"
            f"            return cls({', '.join(given)})\n"
            "        except (KeyError, ShapeError):\n"
            "            pass\n"
            "    return slow(data)\n"
        )
        return _compiled(source, names, "read")

    # --- compiling writers ---------------------------------------------------------------------

    def _writer(self, hint: Any) -> Writer:
        if hint in self.custom:
            dump: Writer = self.custom[hint].dump
            return dump
        if hint is Any or hint is object or hint in SCALARS:
            return same
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is typing.Literal:
            return same
        if origin in (typing.Union, types.UnionType):
            inner = self.writer(next(arg for arg in args if arg is not type(None)))
            if inner is same:
                return same
            return lambda value: None if value is None else inner(value)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            each = tuple(self.writer(arg) for arg in args)
            if all(write is same for write in each):
                return list
            return lambda value: [write(item) for write, item in zip(each, value, strict=True)]
        if origin in (tuple, list):
            one = self.writer(args[0])
            return list if one is same else lambda value: [one(item) for item in value]
        if origin in (dict, Mapping) or hint in (dict, Mapping):
            one = self.writer(args[1]) if args else same
            if one is same:
                return dict
            return lambda value: {key: one(item) for key, item in value.items()}
        cls = origin or hint
        if isinstance(cls, type) and issubclass(cls, enum.Enum):
            return lambda value: value.value
        if dataclasses.is_dataclass(cls):
            return self._record_writer(hint)
        raise TypeError(f"no JSON form for {hint!r}")

    def _record_writer(self, hint: Any) -> Writer:
        cls, hints = _fields(hint)
        form = self.forms.get(cls, Form())
        by_key: dict[str, tuple[str, Writer]] = {}
        for item in _stored(cls, form):
            custom = form.fields.get(item.name)
            writes = custom.dump if custom else self.writer(hints[item.name])
            by_key[form.keys.get(item.name, item.name)] = (item.name, writes)
        order = form.order or (*by_key, *form.derived)
        if set(order) != set(by_key) | set(form.derived):
            raise TypeError(f"the key order of {cls.__name__} must list every key once")
        plan = [
            (key, by_key[key][0], by_key[key][1], None)
            if key in by_key
            else (key, "", same, form.derived[key])
            for key in order
        ]

        names: dict[str, Any] = {}
        entries = []
        for index, (key, name, writes, derive) in enumerate(plan):
            if derive is not None:
                names[f"derive{index}"] = derive
                entries.append(f"{key!r}: derive{index}(value)")
            elif writes is same:
                entries.append(f"{key!r}: value.{name}")
            else:
                names[f"write{index}"] = writes
                entries.append(f"{key!r}: write{index}(value.{name})")
        source = f"def write(value):\n    return {{{', '.join(entries)}}}\n"
        return _compiled(source, names, "write")


def _compiled(source: str, names: dict[str, Any], function: str) -> Callable[[Any], Any]:
    """A reader or writer written out for one dataclass: field names are identifiers and keys
    are written as literals, so the source holds nothing but the dataclass's own names."""
    exec(compile(source, f"<codec {function}>", "exec"), names)
    compiled: Callable[[Any], Any] = names[function]
    return compiled


def _record_slow(cls: type, plan: list[tuple[str, str, Reader, Any]]) -> Reader:
    def read(data: JSON) -> Any:
        if not isinstance(data, dict):
            raise ShapeError("expected an object")
        values: dict[str, Any] = {}
        for name, key, read_one, default in plan:
            if key not in data:
                if default is _REQUIRED:
                    raise ShapeError(MISSING, (key,))
                values[name] = default
                continue
            try:
                values[name] = read_one(data[key])
            except ShapeError as error:
                raise error.at(key) from None
        return cls(**values)

    return read


_REQUIRED = object()


def _stored(cls: type, form: Form) -> list[dataclasses.Field[Any]]:
    return [item for item in dataclasses.fields(cls) if item.name not in form.omit]


def _fields(hint: Any) -> tuple[type, dict[str, Any]]:
    """A dataclass and its fields' type hints, with a generic's parameters filled in
    (``Pair[int]``'s ``france: T`` is an int)."""
    cls = typing.get_origin(hint) or hint
    hints = typing.get_type_hints(cls)
    params = getattr(cls, "__parameters__", ())
    args = typing.get_args(hint)
    if params and args:
        given = dict(zip(params, args, strict=True))
        hints = {name: _substitute(kind, given) for name, kind in hints.items()}
    return cls, hints


def _substitute(hint: Any, given: Mapping[Any, Any]) -> Any:
    if isinstance(hint, TypeVar):
        return given.get(hint, Any)
    args = typing.get_args(hint)
    origin = typing.get_origin(hint)
    if not args or origin is typing.Literal:
        return hint
    filled = tuple(arg if arg is Ellipsis else _substitute(arg, given) for arg in args)
    if origin in (typing.Union, types.UnionType):
        return functools.reduce(operator.or_, filled)
    return origin[filled]
