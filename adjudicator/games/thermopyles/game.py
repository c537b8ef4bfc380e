"""Thermopyles behind the game contract: metadata and options wired to rules, parser and views."""

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
    OrderOutcome,
    OrderReport,
    Outcome,
    RankingAxis,
    Resolution,
)
from adjudicator.core.refusal import Refusal
from adjudicator.core.said import _, ngettext
from adjudicator.games.thermopyles import describe as words
from adjudicator.games.thermopyles import orders, preview, rules
from adjudicator.games.thermopyles.actions import Action, action_from_json
from adjudicator.games.thermopyles.cards import card_data
from adjudicator.games.thermopyles.draws import draw_words
from adjudicator.games.thermopyles.help import card_texts as help_cards
from adjudicator.games.thermopyles.help import help_in
from adjudicator.games.thermopyles.render import render as picture
from adjudicator.games.thermopyles.state import (
    SCHEMA,
    SEAT,
    WIN_WHEN,
    Position,
    Settings,
    dump,
    load,
)
from adjudicator.games.thermopyles.view import legal_forms, scramble_hidden
from adjudicator.games.thermopyles.view import view as view_of

# The contract names its parameters ``state`` and ``view``; the modules are imported under other
# names so that no method body has to wonder which one it means.


def _options() -> tuple[Option, ...]:
    data = card_data()
    # Each option's help is a sentence written anew where it is shown (core.said), made in
    # English whatever language the module is first imported in.
    with said.spoken(said.SOURCE):
        return (
            Option(
                key="win_when",
                default="deck-empty",
                choices=WIN_WHEN,
                help=_(
                    "deck-empty: win when the Persian deck runs out (the original wording); "
                    "all-beaten: only when all %(persians)s Persians are beaten.",
                    persians=len(data.persians),
                ),
            ),
            Option(
                key="hand_limit",
                default=str(data.hand_limit),
                # Never below the opening hand, so one DISCARD a turn always restores the limit.
                choices=tuple(str(n) for n in range(data.opening_hand, 11)),
                help=_("cards a hand may hold before a DISCARD is owed with the next action."),
            ),
        )


class Thermopyles(Game[Position]):
    key = "thermopyles"
    title = "Thermopyles"
    seats = (SEAT,)
    options = _options()
    schema_version = SCHEMA
    resolves_on_receipt = True
    # Solitaire: one seat, one picture a turn, drawn with the player's own cards.
    shared_picture = False
    # A shared deal ranks by the game's score; beside it, how many Persians fell.
    # Its label a sentence of core.said (made in English), written in each page's language.
    with said.spoken(said.SOURCE):
        ranking_axis = RankingAxis(_("Persians in the Graveyard"), 1)

    def seat_title(self, seat: str) -> str:
        return _("the Spartans") if seat == SEAT else super().seat_title(seat)

    def new_game(self, options: Mapping[str, str], chance: Chance) -> Position:
        chosen = self.check_options(options)
        if isinstance(chosen, Refusal):
            raise ValueError(f"thermopyles: {chosen.reason}")
        settings = Settings(win_when=chosen["win_when"], hand_limit=int(chosen["hand_limit"]))
        return rules.new_game(settings, chance)

    def pending(self, state: Position) -> dict[str, Decision]:
        if state.over:
            return {}
        near, far = state.near_card(), state.far_card()
        # One message whose parts are its values: the service writes it anew for each reader.
        values = {
            "turn": state.turn + 1,
            "near": words.card_words(near.to_json() if near else None),
            "far": words.card_words(far.to_json() if far else None),
            "marker": state.marker,
            "supports": state.supports,
        }
        if state.hand:
            prompt = _(
                "Turn %(turn)s: near %(near)s; far %(far)s. Marker on %(marker)s, %(supports)s "
                "support cards left, your hand: %(hand)s. "
                "Send one action: FIGHT <card> [SUPPORT n] or RETREAT [NODRAW].",
                hand=", ".join(str(card) for card in state.hand),
                **values,
            )
        else:
            prompt = _(
                "Turn %(turn)s: near %(near)s; far %(far)s. Marker on %(marker)s, %(supports)s "
                "support cards left, your hand: empty. "
                "Send one action: FIGHT <card> [SUPPORT n] or RETREAT [NODRAW].",
                **values,
            )
        legal = tuple(legal_forms(state, SEAT))
        brief = _("fight the near or the far card, or retreat (turn %(turn)s)", turn=state.turn + 1)
        return {SEAT: Decision(SEAT, prompt, legal, "RETREAT", brief)}

    def parse_orders(self, state: Position, seat: str, text: str) -> OrderReport:
        return orders.parse_orders(state, seat, text)

    def default_orders(self, state: Position, seat: str) -> JSON:
        return Action("retreat").to_json()

    def legal_orders(self, state: Position, seat: str) -> Sequence[JSON]:
        if seat != SEAT:
            return []
        return [action.to_json() for action in rules.legal_actions(state)]

    def resolve(
        self, state: Position, orders_by_seat: Mapping[str, JSON], chance: Chance
    ) -> Resolution[Position]:
        action = action_from_json(orders_by_seat.get(SEAT, self.default_orders(state, SEAT)))
        if isinstance(action, Refusal):
            raise ValueError(f"thermopyles orders: {action}")
        turn = rules.resolve(state, action, chance)
        outcome = OrderOutcome(SEAT, action.text(), turn.code, turn.detail)
        return Resolution(turn.position, (outcome,), tuple(chance.events), turn.facts)

    def outcome(self, state: Position) -> Outcome:
        data = card_data()
        graveyard = len(state.graveyard)
        # Each summary is one message whose parts are its values (written anew for each reader).
        if not state.over:
            summary = ngettext(
                "In play after %(num)s turn: %(graveyard)s of %(target)s in the Graveyard, "
                "marker on %(marker)s.",
                "In play after %(num)s turns: %(graveyard)s of %(target)s in the Graveyard, "
                "marker on %(marker)s.",
                state.turn,
                graveyard=graveyard,
                target=data.graveyard_target,
                marker=state.marker,
            )
            return Outcome(False, summary=summary)
        won = state.status == "won"
        values = {
            "end": rules.end_sentence(state),
            "graveyard": graveyard,
            "beaten": state.beaten,
            "persians": len(data.persians),
        }
        if won:
            summary = ngettext(
                "Won after %(num)s turn: %(end)s; %(graveyard)s Persians in the Graveyard, "
                "%(beaten)s of %(persians)s beaten.",
                "Won after %(num)s turns: %(end)s; %(graveyard)s Persians in the Graveyard, "
                "%(beaten)s of %(persians)s beaten.",
                state.turn,
                **values,
            )
        else:
            summary = ngettext(
                "Lost after %(num)s turn: %(end)s; %(graveyard)s Persians in the Graveyard, "
                "%(beaten)s of %(persians)s beaten.",
                "Lost after %(num)s turns: %(end)s; %(graveyard)s Persians in the Graveyard, "
                "%(beaten)s of %(persians)s beaten.",
                state.turn,
                **values,
            )
        score = (1 if won else 0, graveyard, -state.turn)
        return Outcome(True, (SEAT,) if won else (), summary, score)

    # The contract's questions the rules' own functions answer as they are.
    view = staticmethod(view_of)
    scramble_hidden = staticmethod(scramble_hidden)
    dump = staticmethod(dump)
    load = staticmethod(load)
    draw = staticmethod(picture)
    preview_facts = staticmethod(preview.preview_facts)
    draw_preview = staticmethod(preview.draw)

    def describe(self, view: JSON) -> str:
        return words.describe(view)

    def ended_view(self, view: JSON) -> JSON:
        # Nothing legal any more, and the heading says the game ended (describe.HEADINGS).
        return {**view, "status": "ended", "legal": [], "discard_owed": False}

    def card_texts(self) -> Sequence[CardText]:
        return help_cards()

    def chance_words(self, label: str) -> str:
        return draw_words(label)

    def help_text(self, options: Mapping[str, str] | None = None) -> str:
        return help_in(said.language())

    def primer(self) -> str:
        return words.primer()
