"""A stored turn as the archive's pages, its feeds and the read API show it (``TurnPage``): the
public view in words, the public outcomes, the dice (never a shuffle before the seed is revealed)
and the address of its picture."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudicator import limits
from adjudicator.core import said
from adjudicator.core.contract import Game as Rules
from adjudicator.models import Game, Turn
from adjudicator.services.outbound import turn_pictures
from adjudicator.services.record import play, reasons
from adjudicator.statuses import GameStatus


@dataclass(frozen=True)
class DieShown:
    """A recorded die with what it was rolled for; shuffles are never shown before the seed."""

    label: str
    purpose: str
    value: int


@dataclass(frozen=True)
class TurnPage:
    number: int
    reason: str  # the stored code, for the API; pages show ``why``
    created_at: datetime
    outcomes: list[dict[str, Any]]
    description: str
    dice: list[DieShown]
    rolled_back: bool = False
    rollback_note: str = ""
    # From the public view of the position after this turn (games that keep such records).
    combats: list[dict[str, Any]] = field(default_factory=list)
    removed: list[dict[str, Any]] = field(default_factory=list)
    cards_played: list[dict[str, Any]] = field(default_factory=list)
    defaulted: list[str] = field(default_factory=list)
    view: dict[str, Any] = field(default_factory=dict)
    noun: str = "turn"  # the game's word for one stored turn (Game.turn_noun)
    report: str = ""  # the game's step report from the public facts, where it writes one
    gist: str = ""  # the game's own one line of the turn (Game.step_summary), where it has one
    why: str = ""  # the turn's reason in words
    titles: dict[str, str] = field(default_factory=dict)  # each seat as players read it
    area_names: dict[str, str] = field(default_factory=dict)  # Game.area_name of each area shown
    # Game.card_name of each card the records name, Game.card_note of each card's arguments.
    card_words: dict[str, str] = field(default_factory=dict)
    # The address of this version's picture without ".png" (``turn_pictures.path``): it names what
    # the picture shows, so a turn played again after a rollback has a picture address of its
    # own, and each may be cached for ever.
    picture: str = ""
    # The last position of a game ended from outside its rules, worded so (Game.ended_view).
    ended: bool = False

    @property
    def title(self) -> str:
        return "Opening position" if self.number == 0 else f"{self.noun.capitalize()} {self.number}"

    @property
    def position(self) -> str:
        """Which position the turn's picture shows, as its heading says it: the map drawn after a
        turn is titled with that turn's number, so "after turn 3" is the position it shows."""
        return "Opening position" if self.number == 0 else f"After {self.noun} {self.number}"

    @property
    def coming(self) -> str:
        """The turn the position is played from, as the map's title counts it ("turn 2 of 10"),
        where the view counts turns that way; "" where it does not (or the game is over)."""
        turn, turns = self.view.get("turn"), self.view.get("turns")
        if self.ended:  # no turn is to come
            return ""
        if self.noun != "turn" or not isinstance(turn, int) or turn != self.number + 1:
            return ""
        if isinstance(turns, int) and turn > turns:
            return ""
        return f"turn {turn} of {turns}" if isinstance(turns, int) else f"turn {turn}"

    @property
    def by_side(self) -> dict[str, list[dict[str, Any]]]:
        """The turn's public orders and results, each side's together, the sides in the game's
        seat order (as stored, outcomes need not be), each side's orders as given."""
        grouped: dict[str, list[dict[str, Any]]] = {seat: [] for seat in self.titles}
        for outcome in self.outcomes:
            grouped.setdefault(str(outcome["seat"]), []).append(outcome)
        return {seat: outcomes for seat, outcomes in grouped.items() if outcomes}

    @property
    def losses(self) -> dict[str, int]:
        """Units each side lost in the turn, in combat and removed, for the history's one line."""
        lost: Counter[str] = Counter()
        for combat in self.combats:
            lost.update({str(side): int(n) for side, n in dict(combat.get("lost", {})).items()})
        for removal in self.removed:
            lost[str(removal.get("side", ""))] += int(removal.get("units", 0))
        return {side: n for side, n in lost.items() if n and side}

    @property
    def summary(self) -> str:
        """What was decided, in one line: each side's orders, or the step report's first line."""
        if self.report:
            return self.gist or _report_gist(self.report)
        if self.number == 0:
            return "The game's opening set-up."
        parts = [
            f"{self.titles.get(side, side)}: " + ", ".join(str(o["order"]) for o in outcomes)
            for side, outcomes in self.by_side.items()
        ]
        return "; ".join(parts) + "." if parts else f"{self.why.capitalize()}."


def _report_gist(report: str) -> str:
    """A step report in one line: the last thing its opening block says happened (the block
    opens with the step's name, the same for every step of a phase, and lists events after)."""
    block = report.strip().split("\n\n")[0].splitlines()
    events = [line.strip().removeprefix("- ") for line in block[1:] if line.strip()]
    gist = events[-1] if events else block[0].split(":", 1)[-1].strip()
    return f"{gist[:1].upper()}{gist[1:]}."


def _dice(rules: Rules[Any], events: list[Any]) -> list[DieShown]:
    # A shuffle's permutation, read against the known card list, is the deck order: only dice.
    # The label stays for the API (a code, for programs); people read the game's own words.
    return [
        DieShown(
            label=str(event["label"]),
            purpose=rules.chance_words(str(event["label"])),
            value=int(event["result"][0]),
        )
        for event in events
        if event.get("kind") == "die"
    ]


def _area_names(rules: Rules[Any], view: dict[str, Any]) -> dict[str, str]:
    """The areas of the view's combats and removals as players read them (the records keep
    the ids, which the API gives programs)."""
    records = [*view.get("combats", []), *view.get("removed", [])]
    areas = {str(record["area"]) for record in records if "area" in record}
    return {area: rules.area_name(area) for area in areas}


def _card_words(rules: Rules[Any], view: dict[str, Any]) -> dict[str, str]:
    """The cards the view's records name, and what each was played with, as players read them
    (the records keep the English, which the picture draws and the API gives programs)."""
    played = view.get("cards_played_last_turn", [])
    names = {str(c.get("name", "")) for c in played} | {
        str(r.get("why", "")) for r in view.get("removed", [])
    }
    words = {name: rules.card_name(name) for name in names if name}
    notes = {str(c.get("args") or "") for c in played}
    return {**words, **{note: rules.card_note(note) for note in notes if note}}


def _turn_page(rules: Rules[Any], turn: Turn, ended: bool = False) -> TurnPage:
    """A stored turn as the pages show it; ``ended``: the last position of a game ended from
    outside its rules, whose words say so."""
    view = rules.view(rules.load(turn.state), None)
    worded = rules.ended_view(view) if ended else view
    shown: dict[str, Any] = view if isinstance(view, dict) else {}
    # Stored sentences read back as sentences (said.restored), written anew for the page.
    facts = said.restored(turn.facts) if isinstance(turn.facts, dict) else {}
    defaulted = facts.get("defaulted", [])
    return TurnPage(
        number=turn.number,
        reason=turn.reason,
        why=reasons.turn_reason(turn.reason),
        created_at=turn.created_at,
        outcomes=[
            {key: o.get(key, "") for key in ("seat", "order", "code", "detail")}
            for o in said.restored(turn.outcomes)
            if o.get("public", True)
        ],
        description=rules.describe(worded),
        dice=_dice(rules, turn.events),
        rolled_back=turn.rolled_back_at is not None,
        rollback_note=limits.reason(turn.rollback_note),
        combats=list(shown.get("combats", [])) if turn.number else [],
        removed=list(shown.get("removed", [])) if turn.number else [],
        cards_played=list(shown.get("cards_played_last_turn", [])) if turn.number else [],
        defaulted=[str(seat) for seat in defaulted],
        view=shown,
        noun=rules.turn_noun,
        report=rules.step_report(facts) if facts else "",
        gist=rules.step_summary(facts) if facts else "",
        titles={seat: rules.seat_title(seat) for seat in rules.seats},
        area_names=_area_names(rules, shown),
        card_words=_card_words(rules, shown) if turn.number else {},
        picture=turn_pictures.path(turn.game_id, turn.number, view),
        ended=ended,
    )


def public_turns(session: Session, game: Game) -> list[TurnPage]:
    """Every turn as the public may see it: the public view in words, never a hand or a deck."""
    rules = play.rules_for(game)
    turns = select(Turn).where(Turn.game_id == game.id).order_by(Turn.number, Turn.id)
    rows = list(session.scalars(turns))
    live = [turn for turn in rows if turn.rolled_back_at is None]
    last = live[-1] if live and game.status in (GameStatus.FINISHED, GameStatus.CLOSED) else None
    # The game's last position, where the game ended from outside its rules, is worded so.
    ended = last is not None and not rules.outcome(rules.load(last.state)).finished
    return [_turn_page(rules, turn, ended and turn is last) for turn in rows]
