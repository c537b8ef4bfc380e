"""The game contract: what every game gives the service, as plain typed values.

A game is static metadata plus pure functions over a state value. The service never looks inside a
state; it stores ``dump(state)`` and asks the game questions. Nothing here reads the clock, the
database or the network: chance comes in as an argument (see ``chance.Chance``).
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from adjudicator.core import said
from adjudicator.core.chance import Chance, ChanceEvent
from adjudicator.core.refusal import Refusal

JSON = Any  # a value made only of dict/list/str/int/float/bool/None
PREVIEW = "preview"  # the mark of ``preview_facts``' facts: orders planned, not a resolved turn

StateT = TypeVar("StateT")


@dataclass(frozen=True)
class Option:
    """A game option a game master may set: house rules live here, not in code."""

    key: str
    default: str
    choices: tuple[str, ...]
    help: str
    # Choices kept for the tests and tools (a tiny test scenario), never offered to players.
    unlisted: tuple[str, ...] = ()

    @property
    def offered(self) -> tuple[str, ...]:
        """The choices players are offered: ``choices`` less the unlisted ones."""
        return tuple(choice for choice in self.choices if choice not in self.unlisted)


@dataclass(frozen=True)
class Decision:
    """What one seat owes now: a prompt, the legal order forms, and the default if nothing comes."""

    seat: str
    prompt: str
    legal: tuple[str, ...]
    default: str
    # The decision in a few words anyone may read ("choose the first wing"), where the prompt,
    # written to the seat that owes it, does not fit: a mail's subject, read by every player.
    brief: str = ""


class LineStatus(enum.Enum):
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    IGNORED = "ignored"


@dataclass(frozen=True)
class LineReport:
    """The receipt for one line of a player's mail."""

    number: int
    text: str
    status: LineStatus
    canonical: str | None = None  # the order as understood, when accepted
    code: str | None = None  # a closed set per game, e.g. "card-not-in-hand"
    reason: str | None = None  # for people: why it was rejected or ignored
    suggestion: str | None = None  # "did you mean ..."


@dataclass(frozen=True)
class OrderReport:
    """What ``parse_orders`` made of a mail: every line's receipt and the canonical order set.

    ``orders`` is JSON (game-specific) and is what ``resolve`` takes; it is None when the mail holds
    no usable order set. ``missing`` says what is still owed, in words.
    """

    lines: tuple[LineReport, ...]
    orders: JSON | None
    missing: tuple[str, ...] = ()

    @property
    def rejected(self) -> tuple[LineReport, ...]:
        return tuple(line for line in self.lines if line.status is LineStatus.REJECTED)

    @property
    def ok(self) -> bool:
        return self.orders is not None and not self.rejected


@dataclass(frozen=True)
class OrderOutcome:
    """The result of one order: a code from the game's closed set and a sentence for people."""

    seat: str
    order: str
    code: str
    detail: str
    # False for an order the other seats and the public archive may not learn of (a secret choice).
    public: bool = True
    # The lines of the order (as LineReport.canonical reads them) understood but not carried
    # out, each with why ("": ``detail`` says it): a receipt never calls them accepted.
    undone: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Resolution(Generic[StateT]):
    """What ``resolve`` returns: the new state and everything the report and the archive need."""

    state: StateT
    outcomes: tuple[OrderOutcome, ...]
    events: tuple[ChanceEvent, ...]
    facts: Mapping[str, JSON] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """Whether the game is over and how it went; ``score`` orders results on a leaderboard."""

    finished: bool
    winners: tuple[str, ...] = ()
    summary: str = ""
    score: tuple[int, ...] = ()


@dataclass(frozen=True)
class CardText:
    """One card as the help page lists it: who holds it, when it is played, what it does."""

    name: str
    side: str
    when: str
    text: str


@dataclass(frozen=True)
class Strength:
    """Each side's units on the map and its losses after each of a run of turns (one entry per
    view given), for the archive's chart; ``loss_limit`` where losses end the game."""

    on_map: Mapping[str, tuple[int, ...]]
    losses: Mapping[str, tuple[int, ...]]
    loss_limit: int | None = None


@dataclass(frozen=True)
class RankingAxis:
    """What a shared deal's ranking shows beside each entrant: ``label`` names the figure, which
    is entry ``index`` of ``Outcome.score``."""

    label: str
    index: int


class Game(abc.ABC, Generic[StateT]):
    """One game, as the service sees it. Subclasses are stateless; every method is pure."""

    key: str
    title: str
    seats: tuple[str, ...]
    options: tuple[Option, ...] = ()
    schema_version: int = 1
    # True where a seat's order is resolved the moment it arrives (solitaire), not at a deadline.
    resolves_on_receipt: bool = False
    # What one stored turn is called in mail and on the archive: a battle resolved one small
    # decision at a time calls each a "step", and its own turns are a count inside the position.
    turn_noun: str = "turn"
    # True where a seat's picture differs from the public one only in what the seat alone may
    # see (a hand, given in words instead): every player's mail then shows the turn's stored
    # public picture, drawn once, rather than one drawn per seat.
    shared_picture: bool = False
    # The figure a shared deal's ranking shows beside each entrant; None shows none.
    ranking_axis: RankingAxis | None = None

    def option_defaults(self) -> dict[str, str]:
        return {option.key: option.default for option in self.options}

    def check_options(self, given: Mapping[str, str]) -> dict[str, str] | Refusal:
        """The full option set, or a sentence saying which option or value is not known."""
        known = {option.key: option for option in self.options}
        chosen = self.option_defaults()
        for key, value in given.items():
            option = known.get(key)
            if option is None:
                # Sentences of core.said: the answer writes them in its reader's language.
                if not known:
                    return Refusal(
                        said._("unknown option %(key)s; this game has none", key=repr(key))
                    )
                return Refusal(
                    said._(
                        "unknown option %(key)s; known: %(known)s",
                        key=repr(key),
                        known=", ".join(sorted(known)),
                    )
                )
            if option.choices and value not in option.choices:
                return Refusal(
                    said._(
                        "option %(key)s takes %(choices)s, not %(value)s",
                        key=key,
                        choices=", ".join(option.choices),
                        value=repr(value),
                    )
                )
            chosen[key] = value
        return chosen

    # The questions a game may answer with its rules' own functions (``dump = staticmethod(dump)``)
    # take their arguments by position, so those functions keep their own parameter names.

    @abc.abstractmethod
    def new_game(self, options: Mapping[str, str], chance: Chance) -> StateT: ...

    @abc.abstractmethod
    def pending(self, state: StateT) -> dict[str, Decision]: ...

    @abc.abstractmethod
    def parse_orders(self, state: StateT, seat: str, text: str) -> OrderReport: ...

    @abc.abstractmethod
    def default_orders(self, state: StateT, seat: str) -> JSON: ...

    @abc.abstractmethod
    def legal_orders(self, state: StateT, seat: str) -> Sequence[JSON]:
        """Every legal canonical order set now (for random play-outs and the conformance test)."""

    @abc.abstractmethod
    def resolve(
        self, state: StateT, orders_by_seat: Mapping[str, JSON], chance: Chance
    ) -> Resolution[StateT]: ...

    @abc.abstractmethod
    def outcome(self, state: StateT) -> Outcome: ...

    @abc.abstractmethod
    def view(self, state: StateT, seat: str | None, /) -> JSON:
        """What ``seat`` may see (None: the public archive). Never a deck order, never the seed."""

    @abc.abstractmethod
    def scramble_hidden(self, state: StateT, seat: str | None, salt: int, /) -> StateT:
        """The same position with everything ``seat`` may not see replaced (decks re-ordered,
        other hands changed), varied by ``salt``. The conformance test checks that
        ``view(state, seat) == view(scramble_hidden(state, seat, salt), seat)``: nothing leaks."""

    @abc.abstractmethod
    def dump(self, state: StateT, /) -> JSON: ...

    @abc.abstractmethod
    def load(self, data: JSON, /) -> StateT: ...

    def render(self, view: JSON, facts: Mapping[str, JSON] | None, scale: int = 1) -> bytes:
        """A PNG picture of a view (and of the last resolution's facts, when given). ``scale`` 2
        draws the same picture at twice the width and height, sharp rather than enlarged, for
        zooming on the web; mail always takes 1. Every scale shows the same things. Facts marked
        ``PREVIEW`` are ``draw_preview``'s, any others ``draw``'s."""
        if facts is not None and facts.get(PREVIEW):
            return self.draw_preview(view, facts, scale)
        return self.draw(view, facts, scale)

    @abc.abstractmethod
    def draw(self, view: JSON, facts: Mapping[str, JSON] | None, scale: int, /) -> bytes:
        """``render``'s picture of a view and a resolution's facts (or none)."""

    def draw_preview(self, view: JSON, facts: Mapping[str, JSON], scale: int, /) -> bytes:
        """``render``'s picture of ``preview_facts``' facts over the view; the default draws
        them as a resolution's."""
        return self.draw(view, facts, scale)

    @abc.abstractmethod
    def describe(self, view: JSON) -> str:
        """The picture in words: alt text for the image and the plain-text mail."""

    def ended_view(self, view: JSON) -> JSON:
        """``view`` of the last position of a game ended from outside its rules (a player
        resigned, the game master ended it, it was closed), as ``describe`` is to word it: it
        must say the game has ended and offer no move. The view as it is by default, for a game
        whose words of a position offer nothing and call no game running."""
        return view

    @abc.abstractmethod
    def help_text(self, options: Mapping[str, str] | None = None) -> str:
        """The order syntax with examples, for HELP and the web help page. Given a game's
        options, the rules that differ between variants are stated as that game plays them;
        without (the web page, help@), each variant's."""

    def page_help_text(self) -> str:
        """The order syntax as the web help page shows it, above its own table of the cards
        (``card_texts``): a game whose ``help_text`` lists the cards for the mail leaves that list
        out here, so the page lists them once. The default is ``help_text()``."""
        return self.help_text()

    def preview_facts(self, state: StateT, seat: str, orders: JSON, /) -> Mapping[str, JSON] | None:
        """A checked, not yet resolved, order set of ``seat`` as facts marked ``PREVIEW`` that
        ``render`` draws over ``view(state, seat)`` (arrows for moves, marks for cards and holds),
        for the order checker's picture; nothing is resolved and nothing outside that view is
        used. None (the default): the game draws no preview."""
        return None

    def seat_title(self, seat: str) -> str:
        """A seat as players read it in a sentence ("France", "the Spartans"), never its id;
        the default writes the id's words with capitals ("north_wing" reads "North Wing")."""
        return " ".join(word.capitalize() for word in seat.replace("_", " ").split())

    def variant_text(self, options: Mapping[str, str]) -> str:
        """The rules that differ between variants, as a game with these options plays them, in
        a sentence or two for the opening mail (which links the full help); empty where no
        rule differs."""
        return ""

    def primer(self) -> str:
        """How to read the game's position, for the opening mail of a newcomer: what its numbers
        and words mean, in a few sentences, in the current reader's language; empty where the
        position explains itself."""
        return ""

    def card_texts(self) -> Sequence[CardText]:
        """The game's cards for the help page, from its card data; none where it has no cards."""
        return ()

    def chance_words(self, label: str) -> str:
        """What a recorded draw (a die or a shuffle, by its ``ChanceEvent.label``) was for, in
        words a player reads beside its result: the label is a code, kept for the record and
        the seed's replay, never shown. The default is for games whose labels are words
        already."""
        return label

    def area_name(self, area: str) -> str:
        """An area of the public view's records (a combat's, a removal's) as players read it
        ("10 Palacio Real"); the default is for games whose areas are named by their ids."""
        return area

    def card_name(self, name: str) -> str:
        """A card the public view's records name (a card played, the card behind a removal) as
        players read it; the default is the name as the records keep it."""
        return name

    def card_note(self, note: str) -> str:
        """What a card played was played with, as the view's records keep it (an order's
        arguments, or a note such as "drawn"), as players read it; the default as kept."""
        return note

    def step_report(self, facts: Mapping[str, JSON]) -> str:
        """A resolution's public facts as a report in words (every die with its purpose and
        modifiers, what happened in order, what changed), for the turn mail and the archive;
        empty where the outcomes and the position say it all."""
        return ""

    def step_summary(self, facts: Mapping[str, JSON]) -> str:
        """A resolution's public facts in one line for the archive's list of turns; empty where
        the first lines of ``step_report`` (or the outcomes) say it."""
        return ""

    def orders_text(self, orders: JSON) -> str | None:
        """A canonical order set written as a player would mail it (``parse_orders`` reads it
        back to the same set); None where a game does not offer it."""
        return None

    def joined_orders(self, orders: JSON, lines: Sequence[str], earlier: str) -> str | None:
        """When ``orders``, just read from ``lines``, ask to join the set on file (whose text is
        ``earlier``) rather than replace it, the text of the two as one set, to be read again
        whole so every limit is checked; None (the default) when the last set counts alone."""
        return None

    def strength(self, views: Sequence[JSON]) -> Strength | None:
        """Each side's strength after each of these public views, for the archive's chart; None
        where a game has no sides to compare."""
        return None

    def adjudicate_case(self, data: JSON) -> JSON | None:
        """Stateless adjudication for game masters and tools: a position and every side's orders
        in, the resolved position, each order's outcome and the events out; nothing is stored.
        A result with a non-empty ``errors`` list means the input was refused. None: this game
        offers no stateless adjudication."""
        return None
