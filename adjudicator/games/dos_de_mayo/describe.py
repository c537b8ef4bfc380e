"""The 2 de Mayo position in words: alt text for the map and the plain-text mail.

It reads a view (never a state), so it can say nothing the viewer may not see. Area names,
gates and main streets come from the rules' ``board.toml`` (or, without it, from the copy in
``art.toml``); nothing here decides a rule.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.games.dos_de_mayo.sides import title

ART_FILE = Path(__file__).with_name("art.toml")
BOARD_FILE = Path(__file__).with_name("board.toml")
SIDES = ("france", "spain")
RESULT_WORDS = {
    "moved": "moved",
    "stopped": "stopped by a head-on swap (stayed in its area)",
    "failed": "failed (stayed in its area)",
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
        kinds = []
        if area in self.gates:
            kinds.append("gate")
        if area in self.main_streets:
            kinds.append("main street")
        return f" ({', '.join(kinds)})" if kinds else ""


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


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def contested(view: Mapping[str, Any]) -> list[str]:
    """Areas holding units of both sides, in number order."""
    return sorted(
        (area for area, groups in view["areas"].items() if all(groups.get(s, 0) for s in SIDES)),
        key=area_order,
    )


# How each ending reads where a few words fit (the status line, the map's header).
END_WORDS = {
    "loss-limit": "France reached its loss limit",
    "spain-holds": "Spain holds Madrid",
    "france-wins": "Madrid is taken",
}


def status_words(view: Mapping[str, Any]) -> str:
    """'Turn 3 of 10, in play.' or 'Game over after turn 10: Spain wins (why).'"""
    turn = f"turn {view['turn']}" + (f" of {view['turns']}" if view.get("turns") else "")
    if view["status"] != "over":
        return f"{turn[0].upper()}{turn[1:]}, in play."
    winner = view.get("winner")
    verdict = f"{side_name(winner)} wins" if winner else "no winner"
    reason = END_WORDS.get(str(view.get("end_reason") or ""), "")
    return f"Game over at {turn}: {verdict}" + (f" ({reason})." if reason else ".")


def card_words(card: Mapping[str, Any]) -> str:
    args = str(card.get("args") or "").strip()
    side = f" ({side_name(card['side'])})" if card.get("side") else ""
    return f"{card['name']}{side}" + (f" {args}" if args else "")


def move_words(move: Mapping[str, Any]) -> str:
    path: Sequence[str] = move.get("path") or [move["from"], move["to"]]
    steps = "-".join(str(node) for node in path)
    two = " (2 steps)" if len(path) > 2 else ""
    result = RESULT_WORDS.get(move["result"], move["result"])
    return f"{side_name(move['side'])} {steps} x{move['units']}{two}: {result}."


def combat_words(combat: Mapping[str, Any], where: Board) -> str:
    strength, lost = combat["strength"], combat["lost"]
    losses = [f"{side_name(s)} lost {lost[s]}" for s in SIDES if lost.get(s)]
    outcome = "; ".join(losses) if losses else "no losses"
    return (
        f"{where.label(str(combat['area']))}: France {strength['france']} against "
        f"Spain {strength['spain']}; {outcome}."
    )


def describe(view: Mapping[str, Any]) -> str:
    where = board()
    lines = [f"2 de Mayo, Madrid 1808. {status_words(view)}"]
    losses = view["losses"]
    lines.append(
        f"Losses: France {losses['france']} (limit {view['loss_limit']}), "
        f"Spain {losses['spain']}. Initiative: {side_name(view['initiative'])}."
    )
    fighting = set(contested(view))
    lines.append("Units on the map:")
    occupied = [a for a, groups in view["areas"].items() if any(groups.get(s) for s in SIDES)]
    for area in sorted(occupied, key=area_order):
        groups = view["areas"][area]
        held = ", ".join(f"{side_name(s)} {groups[s]}" for s in SIDES if groups.get(s))
        mark = " (contested)" if area in fighting else ""
        lines.append(f"  {where.label(area)}{where.kind(area)}: {held}{mark}")
    if not occupied:
        lines.append("  none")
    stacks = ", ".join(f"{stack} {count}" for stack, count in view["off_map"].items())
    lines.append(f"French reinforcements off the map: {stacks}.")
    pools = view["set_aside"]
    lines.append(f"Set aside: France {pools['france']}, Spain {pools['spain']}.")
    in_play = ", ".join(card_words(card) for card in view.get("cards_in_play") or []) or "none"
    lines.append(f"Cards in play: {in_play}.")
    played = view.get("cards_played_last_turn") or []
    if played:
        lines.append("Cards played last turn: " + ", ".join(card_words(c) for c in played) + ".")
    sizes = view["hand_sizes"]
    lines.append(
        f"Hands: France {plural(sizes['france'], 'card')}, Spain {plural(sizes['spain'], 'card')}."
    )
    if "hand" in view:
        hand = ", ".join(str(card["name"]) for card in view["hand"]) or "empty"
        lines.append(f"Your hand: {hand}.")
    moves = view.get("last_moves") or []
    if moves:
        lines.append("Last turn's moves:")
        lines.extend(f"  {move_words(move)}" for move in moves)
    combats = view.get("combats") or []
    if combats:
        lines.append("Combats:")
        lines.extend(f"  {combat_words(combat, where)}" for combat in combats)
    for removal in view.get("removed") or []:
        lines.append(
            f"Removed: {side_name(removal['side'])} {removal['units']} from "
            f"{where.label(str(removal['area']))} ({removal['why']})."
        )
    return "\n".join(lines)
