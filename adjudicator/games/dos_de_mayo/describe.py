"""The 2 de Mayo position in words: alt text for the map and the plain-text mail.

It reads a view (never a state), so it can say nothing the viewer may not see. Area names,
gates and main streets come from the rules' ``board.toml`` (or, without it, from the copy in
``art.toml``); nothing here decides a rule.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.core.said import N_, _, ngettext, words_of
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.sides import title

ART_FILE = Path(__file__).with_name("art.toml")
BOARD_FILE = Path(__file__).with_name("board.toml")
SIDES = ("france", "spain")
RESULT_WORDS = {
    "moved": N_("moved"),
    "stopped": N_("stopped by a head-on swap (stayed in its area)"),
    "failed": N_("failed (stayed in its area)"),
}


@dataclass(frozen=True)
class Board:
    """The picture's copy of the board: names, gates, main streets and neighbours."""

    names: Mapping[str, str]
    gates: frozenset[str]
    main_streets: frozenset[str]
    neighbours: Mapping[str, tuple[str, ...]]

    def label(self, area: str) -> str:
        """'14 Puerta del Sol', or the bare id ('OFF16') when it is not an area."""
        name = self.names.get(area)
        return f"{area} {name}" if name else area

    def kind(self, area: str) -> str:
        gate, main = area in self.gates, area in self.main_streets
        if gate and main:
            return _(" (gate, main street)")
        if gate:
            return _(" (gate)")
        return _(" (main street)") if main else ""


@functools.cache
def art() -> Mapping[str, Any]:
    """The art file, parsed once."""
    with ART_FILE.open("rb") as handle:
        return tomllib.load(handle)


def _board_from(data: Mapping[str, Any], source: str) -> Board:
    """A board from the rules' board file or the art file's copy (same keys), checked."""
    areas = data["areas"]
    names = {str(area): str(entry["name"]) for area, entry in areas.items()}
    neighbours = {
        str(area): tuple(str(other) for other in entry["neighbours"])
        for area, entry in areas.items()
    }
    for area, others in neighbours.items():
        for other in others:
            if other == area or other not in neighbours or area not in neighbours[other]:
                raise ValueError(f"{source}: street {area}-{other} is not symmetric")
    gates = frozenset(str(area) for area in data["board"]["gates"])
    main_streets = frozenset(str(area) for area in data["board"]["main_streets"])
    if not gates <= names.keys() or not main_streets <= names.keys():
        raise ValueError(f"{source}: a gate or main street is not an area")
    return Board(names, gates, main_streets, neighbours)


@functools.cache
def board() -> Board:
    """The rules' board file when it is there (one source of truth), else the art file's copy."""
    if BOARD_FILE.exists():
        with BOARD_FILE.open("rb") as handle:
            return _board_from(tomllib.load(handle), BOARD_FILE.name)
    return _board_from(art(), ART_FILE.name)


def area_order(area: str) -> tuple[int, str]:
    """Areas by number, off-map stacks after them."""
    return (int(area), "") if area.isdigit() else (10_000, area)


def side_name(side: str | None) -> str:
    return title(side)


def contested(view: Mapping[str, Any]) -> list[str]:
    """Areas holding units of both sides, in number order."""
    return sorted(
        (area for area, groups in view["areas"].items() if all(groups.get(s, 0) for s in SIDES)),
        key=area_order,
    )


# How each ending reads where a few words fit (the status line, the map's header).
END_WORDS = {
    "loss-limit": N_("France reached its loss limit"),
    "spain-holds": N_("Spain holds Madrid"),
    "france-wins": N_("Madrid is taken"),
}


def status_words(view: Mapping[str, Any]) -> str:
    """'Turn 3 of 10, in play.' or 'Game over after turn 10: Spain wins (why).'"""
    turn, turns = view["turn"], view.get("turns")
    if view["status"] == "ended":  # ended from outside the rules (Game.ended_view)
        if turns:
            return _("Turn %(turn)s of %(turns)s: the game has ended.", turn=turn, turns=turns)
        return _("Turn %(turn)s: the game has ended.", turn=turn)
    if view["status"] != "over":
        if turns:
            return _("Turn %(turn)s of %(turns)s, in play.", turn=turn, turns=turns)
        return _("Turn %(turn)s, in play.", turn=turn)
    winner = view.get("winner")
    verdict = _("%(side)s wins", side=side_name(winner)) if winner else _("no winner")
    reason = END_WORDS.get(str(view.get("end_reason") or ""), "")
    if turns and reason:
        return _(
            "Game over at turn %(turn)s of %(turns)s: %(verdict)s (%(reason)s).",
            turn=turn,
            turns=turns,
            verdict=verdict,
            reason=_(reason),
        )
    if turns:
        return _(
            "Game over at turn %(turn)s of %(turns)s: %(verdict)s.",
            turn=turn,
            turns=turns,
            verdict=verdict,
        )
    if reason:
        return _(
            "Game over at turn %(turn)s: %(verdict)s (%(reason)s).",
            turn=turn,
            verdict=verdict,
            reason=_(reason),
        )
    return _("Game over at turn %(turn)s: %(verdict)s.", turn=turn, verdict=verdict)


# What Preparation records as an on-draw card's arguments (adjudicate/preparation.py), kept in
# the position in English and read here in the reader's words.
_DISCARDS = re.compile(r"drawn; (?P<side>\w+) discards (?P<card>.+)")


def play_note(args: str) -> str:
    """A played card's arguments as the reader reads them: an on-draw card's note in words,
    an order's arguments (an area, a path) as they are."""
    if args == "drawn":
        return _("drawn")
    found = _DISCARDS.fullmatch(args)
    if found is not None:
        card = by_english(found["card"])
        side = side_name(found["side"]) if found["side"] in SIDES else found["side"]
        return _("drawn; %(side)s discards %(card)s", side=side, card=card)
    return args


def by_english(name: str) -> str:
    """A card the position's notes name in English, as the reader reads it."""
    known = next((card for card in card_data().cards if card.en == name), None)
    return known.name if known is not None else name


def card_name(card: Mapping[str, Any]) -> str:
    """A card of a view as the reader reads it (``Card.name``): the view keeps the English
    name, which the picture draws."""
    known = card_data().by_id.get(str(card.get("id")))
    return known.name if known is not None else str(card["name"])


def card_words(card: Mapping[str, Any]) -> str:
    args = play_note(str(card.get("args") or "").strip())
    side = f" ({side_name(card['side'])})" if card.get("side") else ""
    return f"{card_name(card)}{side}" + (f" {args}" if args else "")


def move_words(move: Mapping[str, Any]) -> str:
    path: Sequence[str] = move.get("path") or [move["from"], move["to"]]
    steps = "-".join(str(node) for node in path)
    two = _(" (2 steps)") if len(path) > 2 else ""
    code = move["result"]
    result = words_of(RESULT_WORDS, code)
    return f"{side_name(move['side'])} {steps} x{move['units']}{two}: {result}."


def combat_words(combat: Mapping[str, Any], where: Board) -> str:
    strength, lost = combat["strength"], combat["lost"]
    losses = [_("%(side)s lost %(n)s", side=side_name(s), n=lost[s]) for s in SIDES if lost.get(s)]
    outcome = "; ".join(losses) if losses else _("no losses")
    return _(
        "%(area)s: France %(france)s against Spain %(spain)s; %(outcome)s.",
        area=where.label(str(combat["area"])),
        france=strength["france"],
        spain=strength["spain"],
        outcome=outcome,
    )


def _hands(sizes: Mapping[str, int]) -> str:
    return _(
        "Hands: France %(france)s, Spain %(spain)s.",
        france=ngettext("%(num)s card", "%(num)s cards", sizes["france"]),
        spain=ngettext("%(num)s card", "%(num)s cards", sizes["spain"]),
    )


def _events(view: Mapping[str, Any], where: Board) -> list[str]:
    """Last turn's moves, combats and removals."""
    lines = []
    moves = view.get("last_moves") or []
    if moves:
        lines.append(_("Last turn's moves:"))
        lines.extend(f"  {move_words(move)}" for move in moves)
    combats = view.get("combats") or []
    if combats:
        lines.append(_("Combats:"))
        lines.extend(f"  {combat_words(combat, where)}" for combat in combats)
    for removal in view.get("removed") or []:
        lines.append(
            _(
                "Removed: %(side)s %(units)s from %(area)s (%(why)s).",
                side=side_name(removal["side"]),
                units=removal["units"],
                area=where.label(str(removal["area"])),
                why=by_english(str(removal["why"])),
            )
        )
    return lines


def describe(view: Mapping[str, Any]) -> str:
    where = board()
    lines = [_("2 de Mayo, Madrid 1808. %(status)s", status=status_words(view))]
    losses = view["losses"]
    lines.append(
        _(
            "Losses: France %(france)s (limit %(limit)s), Spain %(spain)s. "
            "Initiative: %(initiative)s.",
            france=losses["france"],
            limit=view["loss_limit"],
            spain=losses["spain"],
            initiative=side_name(view["initiative"]),
        )
    )
    fighting = set(contested(view))
    lines.append(_("Units on the map:"))
    occupied = [a for a, groups in view["areas"].items() if any(groups.get(s) for s in SIDES)]
    for area in sorted(occupied, key=area_order):
        groups = view["areas"][area]
        held = ", ".join(f"{side_name(s)} {groups[s]}" for s in SIDES if groups.get(s))
        mark = _(" (contested)") if area in fighting else ""
        lines.append(f"  {where.label(area)}{where.kind(area)}: {held}{mark}")
    if not occupied:
        lines.append("  " + _("none"))
    stacks = ", ".join(f"{stack} {count}" for stack, count in view["off_map"].items())
    lines.append(_("French reinforcements off the map: %(stacks)s.", stacks=stacks))
    pools = view["set_aside"]
    lines.append(
        _(
            "Set aside: France %(france)s, Spain %(spain)s.",
            france=pools["france"],
            spain=pools["spain"],
        )
    )
    cards = view.get("cards_in_play") or []
    in_play = ", ".join(card_words(card) for card in cards) or _("none")
    lines.append(_("Cards in play: %(cards)s.", cards=in_play))
    played = view.get("cards_played_last_turn") or []
    if played:
        cards_text = ", ".join(card_words(c) for c in played)
        lines.append(_("Cards played last turn: %(cards)s.", cards=cards_text))
    lines.append(_hands(view["hand_sizes"]))
    if "hand" in view:
        hand = ", ".join(card_name(card) for card in view["hand"]) or _("empty")
        lines.append(_("Your hand: %(cards)s.", cards=hand))
    lines.extend(_events(view, where))
    return "\n".join(lines)
