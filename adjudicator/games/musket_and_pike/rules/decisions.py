"""The answers to the sequence of play's decisions: typed values, their text form and reading.

Every answer has one canonical text (what a decision lists as legal and what a player mails back);
the activation's unit actions are the exception and come as JSON for the actions module. Reading
never raises: it returns the answer or a Refusal saying what is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adjudicator.core.contract import JSON
from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _
from adjudicator.games.musket_and_pike.rules.state import ORDERS


@dataclass(frozen=True)
class SetupOrders:
    orders: tuple[tuple[str, str], ...]  # (wing, order), one per wing of the side


@dataclass(frozen=True)
class FirstWing:
    wing: str


@dataclass(frozen=True)
class Activate:
    wing: str | None  # None: pass


@dataclass(frozen=True)
class Preempt:
    wing: str | None  # None: no attempt
    ac: bool = False  # the army commander helps


@dataclass(frozen=True)
class ChangeOrder:
    order: str | None  # None: keep the current order


@dataclass(frozen=True)
class Actions:
    # One JSON object per acting unit or leader, charges (close combat) included, in the actions
    # module's format; it checks them. A tuple so the answer stays a value.
    orders: tuple[JSON, ...]


@dataclass(frozen=True)
class Continue:
    go: bool


@dataclass(frozen=True)
class RoutPaths:
    # The rout phase, for a side that asks to choose (STANDING RETREAT ASK ME): one
    # {"unit": id, "action": "rout", "path": [[col, row], ...]} per router given a path; the
    # others run by default.
    paths: tuple[JSON, ...]


@dataclass(frozen=True)
class RetreatPath:
    # A retreat after close combat, for a side that asks to choose (STANDING RETREAT ASK ME):
    # {"unit": id, "action": "retreat", "path": [[col, row], ...]} for the retreating unit, or
    # nothing for the default retreat.
    paths: tuple[JSON, ...]


Answer = (
    SetupOrders
    | FirstWing
    | Activate
    | Preempt
    | ChangeOrder
    | Actions
    | Continue
    | RoutPaths
    | RetreatPath
)

NO_ACTIONS: tuple[JSON, ...] = ()
DEFAULT_ROUTS = "default routs"
DEFAULT_RETREAT = "default retreat"


def text(answer: Answer) -> str:
    """The canonical text of an answer (the unit actions are summarised, not written out)."""
    match answer:
        case SetupOrders(orders):
            return "orders " + " ".join(f"{wing}={order}" for wing, order in orders)
        case FirstWing(wing):
            return f"first {wing}"
        case Activate(None):
            return "pass"
        case Activate(wing):
            return f"activate {wing}"
        case Preempt(None, _):
            return "no preempt"
        case Preempt(wing, ac):
            return f"preempt {wing}" + (" with ac" if ac else "")
        case ChangeOrder(None):
            return "keep order"
        case ChangeOrder(order):
            return f"change to {order}"
        case Continue(go):
            return "continue" if go else "stop"
        case Actions(orders):
            return "no actions" if not orders else f"actions ({len(orders)})"
        case RoutPaths(paths):
            return DEFAULT_ROUTS if not paths else f"rout paths ({len(paths)})"
        case RetreatPath(paths):
            return DEFAULT_RETREAT if not paths else "retreat path"
    raise AssertionError(f"unknown answer {answer!r}")


def order_words(order: str) -> str:
    """A wing order as players write and read it: make ready, not its code make_ready."""
    return order.replace("_", " ")


def written(answer: Answer) -> str:
    """The answer as a player writes it in a mail: set-up orders in their words (ORDERS
    R-A=make ready) and order changes too (change to make ready), where ``text`` keeps the
    stored order codes."""
    if isinstance(answer, SetupOrders):
        words = " ".join(f"{wing}={order_words(order)}" for wing, order in answer.orders)
        return f"ORDERS {words}"
    return _CODED.sub(lambda found: order_words(found.group()), text(answer))


def in_words(reply: str) -> str:
    """A stored answer's text as a player writes it (``written``): set-up orders and order
    changes are stored with their order codes (make_ready), which a player writes as words."""
    read_as = read("setup_orders", reply)
    if isinstance(read_as, SetupOrders):
        return written(read_as)
    worded = _CODED.sub(lambda found: order_words(found.group()), reply)
    return reply if worded == reply else worded  # a sentence (said.Said) stays one


# The wing orders whose codes are not a player's words.
_CODED = re.compile("|".join(rf"\b{code}\b" for code in ORDERS if "_" in code))


def read(step: str, reply: JSON) -> Answer | Refusal:
    """The answer ``reply`` gives at ``step``, or why it is not one (legality is checked later)."""
    given_as_json = _JSON_READERS.get(step)
    if given_as_json is not None:
        return given_as_json(reply)
    if not isinstance(reply, str):
        return Refusal(
            _("expected a text answer, not %(kind)s", kind=type(reply).__name__), "malformed"
        )
    words = reply.strip().split()
    if not words:
        return Refusal(_("empty answer"), "malformed")
    head, rest = words[0].lower(), words[1:]
    reader = _READERS.get(step)
    if reader is None:
        return Refusal(_("nothing is owed at step %(step)s", step=repr(step)), "not-owed")
    return reader(head, rest)


def _read_setup(head: str, rest: list[str]) -> Answer | Refusal:
    if head != "orders" or not rest:
        return Refusal(_("write: %(form)s", form="orders WING=ORDER WING=ORDER ..."), "malformed")
    pairs: list[tuple[str, str]] = []
    for item in rest:
        wing, eq, order = item.partition("=")
        if not eq or not wing or order.lower() not in ORDERS:
            return Refusal(
                _(
                    "%(item)s is not WING=ORDER with ORDER one of %(orders)s",
                    item=repr(item),
                    orders=", ".join(ORDERS),
                ),
                "malformed",
            )
        pairs.append((wing, order.lower()))
    return SetupOrders(tuple(pairs))


def _read_first(head: str, rest: list[str]) -> Answer | Refusal:
    if head != "first" or len(rest) != 1:
        return Refusal(_("write: %(form)s", form="first WING"), "malformed")
    return FirstWing(rest[0])


def _read_activate(head: str, rest: list[str]) -> Answer | Refusal:
    if head == "pass" and not rest:
        return Activate(None)
    if head == "activate" and len(rest) == 1:
        return Activate(rest[0])
    return Refusal(
        _("write: %(form)s, or %(other)s", form="activate WING", other="pass"), "malformed"
    )


def _read_preempt(head: str, rest: list[str]) -> Answer | Refusal:
    lowered = [word.lower() for word in rest]
    if head == "no" and lowered == ["preempt"]:
        return Preempt(None)
    if head == "preempt" and len(rest) == 1:
        return Preempt(rest[0])
    if head == "preempt" and len(rest) == 3 and lowered[1:] == ["with", "ac"]:
        return Preempt(rest[0], ac=True)
    return Refusal(
        _(
            "write: %(form)s, %(second)s, or %(other)s",
            form="preempt WING",
            second="preempt WING with ac",
            other="no preempt",
        ),
        "malformed",
    )


def _read_change(head: str, rest: list[str]) -> Answer | Refusal:
    lowered = [word.lower() for word in rest]
    if head == "keep" and lowered == ["order"]:
        return ChangeOrder(None)
    if head == "change" and len(lowered) == 2 and lowered[0] == "to" and lowered[1] in ORDERS:
        return ChangeOrder(lowered[1])
    return Refusal(
        _(
            "write: %(form)s, or %(other)s",
            form="keep order",
            other=f"change to ORDER ({', '.join(ORDERS)})",
        ),
        "malformed",
    )


def _read_continue(head: str, rest: list[str]) -> Answer | Refusal:
    if head in ("continue", "stop") and not rest:
        return Continue(head == "continue")
    return Refusal(_("write: %(form)s, or %(other)s", form="continue", other="stop"), "malformed")


def _read_actions(reply: JSON) -> Answer | Refusal:
    if isinstance(reply, str):
        if reply.strip().lower() == "no actions":
            return Actions(NO_ACTIONS)
        return Refusal(
            _("unit actions come as a JSON list (or write: %(form)s)", form="no actions"),
            "malformed",
        )
    if not isinstance(reply, list) or not all(isinstance(item, dict) for item in reply):
        return Refusal(
            _("unit actions must be a list of objects, one per acting unit or leader"), "malformed"
        )
    return Actions(tuple(reply))


def _no_paths(reply: str, default: str, none: Answer, why: str) -> Answer | Refusal:
    """A path answer written as words: ``none`` for the default's words (or "no actions"), else
    the refusal ``why``, which says paths come as a JSON list."""
    if reply.strip().lower() in (default, "no actions"):
        return none
    return Refusal(why, "malformed")


def _read_routs(reply: JSON) -> Answer | Refusal:
    if isinstance(reply, str):
        why = _("rout paths come as a JSON list (or write: %(form)s)", form=DEFAULT_ROUTS)
        return _no_paths(reply, DEFAULT_ROUTS, RoutPaths(()), why)
    if not isinstance(reply, list):
        return Refusal(
            _("rout paths must be a list of objects, one per routed unit given a path"),
            "malformed",
        )
    paths: list[JSON] = []
    for item in reply:
        path = item.get("path", []) if isinstance(item, dict) else None
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("unit"), str)
            or item.get("action", "move") not in ("move", "rout", "retreat")
            or not isinstance(path, list)
            or not all(_is_hex(h) for h in path)
        ):
            return Refusal(
                _(
                    "a rout path is a unit and the hexes it runs through, not %(item)s",
                    item=repr(item),
                ),
                "malformed",
            )
        paths.append({"unit": item["unit"], "action": "rout", "path": [[h[0], h[1]] for h in path]})
    units = [p["unit"] for p in paths]
    if len(set(units)) != len(units):
        return Refusal(_("one path per routed unit"), "malformed")
    return RoutPaths(tuple(paths))


def _read_retreat(reply: JSON) -> Answer | Refusal:
    if isinstance(reply, str):
        why = _("a retreat path comes as a JSON list (or write: %(form)s)", form=DEFAULT_RETREAT)
        return _no_paths(reply, DEFAULT_RETREAT, RetreatPath(()), why)
    if not isinstance(reply, list) or len(reply) > 1:
        return Refusal(
            _("a retreat path is a list of one object: the retreating unit and its hexes"),
            "malformed",
        )
    read = _read_routs(reply)
    if isinstance(read, Refusal):
        return Refusal(
            _(
                "a retreat path is a unit and the hexes it falls back through, not %(item)s",
                item=repr(reply[0]),
            ),
            "malformed",
        )
    assert isinstance(read, RoutPaths)
    return RetreatPath(tuple({**p, "action": "retreat"} for p in read.paths))


def _is_hex(value: JSON) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in value)
    )


# The steps answered in JSON (lists of actions or paths), each read whole.
_JSON_READERS = {
    "actions": _read_actions,
    "rout_paths": _read_routs,
    "retreat_path": _read_retreat,
}
# The steps answered in words, each read from its first word and the rest.
_READERS = {
    "setup_orders": _read_setup,
    "first_wing": _read_first,
    "activate": _read_activate,
    "preempt": _read_preempt,
    "order_change": _read_change,
    "continuation": _read_continue,
}
