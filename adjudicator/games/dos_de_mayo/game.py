"""2 de Mayo behind the game contract: metadata and options wired to rules, parser and views."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator.core import said
from adjudicator.core.chance import Chance
from adjudicator.core.contract import (
    JSON,
    CardText,
    Decision,
    Game,
    Option,
    OrderReport,
    Outcome,
    Resolution,
    Strength,
)
from adjudicator.core.refusal import Refusal
from adjudicator.core.said import SOURCE, _, spoken
from adjudicator.games.dos_de_mayo import (
    adjudicate,
    codec,
    legal,
    open_orders,
    preview,
    receipts,
)
from adjudicator.games.dos_de_mayo.board import HALF_STAYS, board
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.dos_de_mayo.draws import draw_words
from adjudicator.games.dos_de_mayo.help import card_texts as help_cards
from adjudicator.games.dos_de_mayo.help import help_text
from adjudicator.games.dos_de_mayo.orders import Add
from adjudicator.games.dos_de_mayo.setup import new_game
from adjudicator.games.dos_de_mayo.sides import FRANCE, SIDES, SPAIN, as_side, title
from adjudicator.games.dos_de_mayo.state import SETUPS, Position, Settings
from adjudicator.games.dos_de_mayo.view import GAME_KEY, end_sentence, scramble_hidden, strength
from adjudicator.games.dos_de_mayo.view import view as view_of
from adjudicator.games.dos_de_mayo.wording import either


def _setup_help(name: str) -> str:
    """A setup named with what it is, in the reader's language (board.toml's help)."""
    texts = {code: f"{name}: {text}" for code, text in board().setups[name].help.items()}
    return said.named(texts.pop(""), **texts)


def _options() -> tuple[Option, ...]:
    # Each option's help is a sentence written anew where it is shown (core.said), made in
    # English whatever language the module is first imported in.
    the_board = board()
    with spoken(SOURCE):
        setups = said.joined([_setup_help(name) for name in SETUPS])
        return (
            Option("setup", "seed", SETUPS, _("where France starts. %(setups)s.", setups=setups)),
            Option(
                "half_stays",
                the_board.rules.half_stays,
                HALF_STAYS,
                _(
                    "Spanish units that stay behind when a group leaves an area holding French "
                    "units: floor(n/2) (a lone unit slips away) or ceil(n/2) (a lone unit is held)."
                ),
            ),
        )


class DosDeMayo(Game[Position]):
    key = GAME_KEY
    title = "2 de Mayo"
    seats = SIDES
    options = _options()
    schema_version = codec.SCHEMA
    resolves_on_receipt = False
    # The seats' maps differ from the public one in the hand panel alone: every player is shown
    # the turn's stored public map, and their own hand in words (services/record/positions.py).
    shared_picture = True

    def new_game(self, options: Mapping[str, str], chance: Chance) -> Position:
        chosen = self.check_options(options)
        if isinstance(chosen, Refusal):
            raise ValueError(f"2demayo: {chosen.reason}")
        return new_game(Settings(chosen["setup"], chosen["half_stays"]), chance)

    def pending(self, state: Position) -> dict[str, Decision]:
        if state.over:
            return {}
        the_board = board()
        decisions: dict[str, Decision] = {}
        for side in SIDES:
            names = said.joined([card_data().card(c).name for c in state.hands[side]], ", ")
            hand = names or _("empty")
            if side == FRANCE and state.start_choice:
                options = either(
                    [f"TAKE {card_data().card(c).keyword}" for c in state.start_choice]
                )
                hand = _("%(hand)s (your start card: %(options)s)", hand=hand, options=options)
            prompt = _(
                "Turn %(turn)s of %(turns)s: %(side)s's orders. Losses France %(france)s "
                "(limit %(limit)s), Spain %(spain)s; initiative %(initiative)s. Your hand: "
                "%(hand)s. One order per line; groups without orders hold.",
                turn=state.turn,
                turns=the_board.rules.turns,
                side=title(side),
                france=state.losses.france,
                limit=state.loss_limit(),
                spain=state.losses.spain,
                initiative=title(state.initiative()),
                hand=hand,
            )
            default = "\n".join(legal.default_set(state, side).lines())
            decisions[side] = Decision(side, prompt, tuple(open_orders.forms(state, side)), default)
        return decisions

    def parse_orders(self, state: Position, seat: str, text: str) -> OrderReport:
        return receipts.parse_orders(state, seat, text)

    def default_orders(self, state: Position, seat: str) -> JSON:
        side = as_side(seat)
        if side is None:
            raise ValueError(f"2demayo has no seat {seat!r}")
        return legal.default_set(state, side).to_json()

    def legal_orders(self, state: Position, seat: str) -> Sequence[JSON]:
        side = as_side(seat)
        return [] if side is None else legal.legal_sets(state, side)

    def resolve(
        self, state: Position, orders_by_seat: Mapping[str, JSON], chance: Chance
    ) -> Resolution[Position]:
        turn = adjudicate.resolve(state, orders_by_seat, chance)
        return Resolution(turn.position, turn.outcomes, tuple(chance.events), turn.facts)

    def outcome(self, state: Position) -> Outcome:
        if not state.over:
            summary = _(
                "Turn %(turn)s of %(turns)s: losses France %(france)s of %(limit)s, "
                "Spain %(spain)s.",
                turn=state.turn,
                turns=board().rules.turns,
                france=state.losses.france,
                limit=state.loss_limit(),
                spain=state.losses.spain,
            )
            return Outcome(False, summary=summary)
        winner = state.winner or SPAIN
        score = (1 if winner == FRANCE else 0, state.losses.spain, -state.losses.france)
        return Outcome(True, (winner,), end_sentence(state) or "", score)

    # The contract's questions the rules' own functions answer as they are.
    view = staticmethod(view_of)
    scramble_hidden = staticmethod(scramble_hidden)
    dump = staticmethod(codec.dump)
    load = staticmethod(codec.load)
    preview_facts = staticmethod(preview.preview_facts)
    draw_preview = staticmethod(preview.draw)

    def draw(self, view: JSON, facts: Mapping[str, JSON] | None, scale: int) -> bytes:
        # The renderer is its own module (another engineer's); imported here so the rules load
        # without it and without the imaging library.
        from adjudicator.games.dos_de_mayo.render import render as picture

        # In the current reader's language, as the mail's words: the service draws the stored
        # picture, which every English reader is shown, in English (play.public_picture).
        return picture(view, facts, scale)

    def describe(self, view: JSON) -> str:
        from adjudicator.games.dos_de_mayo.describe import describe as words

        return words(view)

    def ended_view(self, view: JSON) -> JSON:
        # describe.status_words then says the game has ended rather than that it is in play.
        return {**view, "status": "ended"} if isinstance(view, dict) else view

    def card_texts(self) -> Sequence[CardText]:
        return help_cards()

    def seat_title(self, seat: str) -> str:
        return title(seat)

    def help_text(self, options: Mapping[str, str] | None = None) -> str:
        return help_text()

    def page_help_text(self) -> str:
        return help_text(cards=False)

    def chance_words(self, label: str) -> str:
        return draw_words(label)

    def card_name(self, name: str) -> str:
        # The records keep a card's English name, which the picture draws.
        from adjudicator.games.dos_de_mayo.describe import by_english

        return by_english(name)

    def card_note(self, note: str) -> str:
        from adjudicator.games.dos_de_mayo.describe import play_note

        return play_note(note)

    def area_name(self, area: str) -> str:
        # As the position in words names it: the number players order by, then its name.
        name = board().names.get(area)
        return f"{area} {name}" if name else area

    def orders_text(self, orders: JSON) -> str | None:
        from adjudicator.games.dos_de_mayo.orders import order_set_from_json

        order_set = order_set_from_json(orders)
        return None if isinstance(order_set, Refusal) else "\n".join(order_set.lines())

    def joined_orders(self, orders: JSON, lines: Sequence[str], earlier: str) -> str | None:
        # A set that starts with ADD joins the one on file (the ADD line itself goes).
        if not (isinstance(orders, dict) and orders.get("add")):
            return None
        from adjudicator.games.dos_de_mayo.grammar import read_line

        kept = (line for line in lines if not isinstance(read_line(line), Add))
        return "\n".join([earlier, *kept])

    def strength(self, views: Sequence[JSON]) -> Strength | None:
        return strength(views)

    def adjudicate_case(self, data: JSON) -> JSON | None:
        from adjudicator.games.dos_de_mayo.stateless import adjudicate_case

        return adjudicate_case(data)
