"""Countdown, a test-only game: the smallest thing that keeps the whole game contract.

A pile of counters; on each turn the player TAKEs 1 to 3 of them, then the pile loses a die's
1 to 3 more. Whoever takes the last counter decides the game: the player wins by taking it, and
loses when the die does. It is what ``docs/adding-a-game.md`` walks through: a state, a reader of
order lines, the rules with chance passed in, a view, a picture and words, each a few lines on
top of what ``core`` provides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from PIL import Image

from adjudicator.core import lines, suggest
from adjudicator.core import picture as kit
from adjudicator.core.chance import Chance
from adjudicator.core.codec import Codec
from adjudicator.core.contract import (
    JSON,
    Decision,
    Game,
    LineReport,
    LineStatus,
    Option,
    OrderOutcome,
    OrderReport,
    Outcome,
    Resolution,
)
from adjudicator.core.lines import Complaint
from adjudicator.core.numbers import whole
from adjudicator.core.refusal import Refusal

SEAT = "player"
CODEC = Codec()  # a Pile is stored as its fields
MOST = 3  # the most counters one TAKE may take


@dataclass(frozen=True)
class Pile:
    """The whole position: the counters left, the turns played, and how it ended."""

    counters: int
    turn: int = 0
    result: str = ""  # "" while it runs, else "won" or "lost"


def read_take(line: str, pile: Pile) -> int | Complaint | None:
    """One mail line: the count a TAKE order takes, a complaint, or None when it is no order
    (chat). Blank, quoted and overlong lines never get here: ``lines.read_mail`` sees to them."""
    words = line.split()
    if not words or words[0].upper() != "TAKE":
        guess = suggest.closest(words[0].upper(), ("TAKE",), cutoff=0.6) if words else None
        if guess and len(words) == 2 and words[1].isdigit():  # "TAEK 2": meant as an order
            return Complaint("unknown-word", f"no order {words[0]}", f"did you mean {guess}?")
        return None
    count = whole(words[1]) if len(words) == 2 else None
    if count is None:
        return Complaint("bad-take", "write TAKE and a number, e.g. TAKE 2")
    if not 1 <= count <= min(MOST, pile.counters):
        return Complaint("too-many", f"you may take 1 to {min(MOST, pile.counters)}")
    return count


class Countdown(Game[Pile]):
    key = "countdown"
    title = "Countdown"
    seats = (SEAT,)
    options = (Option("pile", "15", ("10", "15", "20"), "counters in the pile at the start"),)
    resolves_on_receipt = True

    def new_game(self, options: Mapping[str, str], chance: Chance) -> Pile:
        chosen = self.check_options(options)
        if isinstance(chosen, Refusal):
            raise ValueError(chosen.reason)
        # One die decides who had to deal the first counter away: the start differs by seed.
        return Pile(int(chosen["pile"]) - chance.roll("opening", 2) + 1)

    def pending(self, state: Pile) -> dict[str, Decision]:
        if state.result:
            return {}
        legal = tuple(f"TAKE {n}" for n in range(1, min(MOST, state.counters) + 1))
        prompt = f"{state.counters} counters left: TAKE 1 to {min(MOST, state.counters)}."
        return {SEAT: Decision(SEAT, prompt, legal, "TAKE 1")}

    def parse_orders(self, state: Pile, seat: str, text: str) -> OrderReport:
        mail = lines.read_mail(text, lambda line: read_take(line, state))
        receipts = mail.receipts
        for number, line in enumerate(mail.read):
            if number == 0:  # the first TAKE is the order; a second one is refused
                canonical = f"TAKE {line.reading}"
                receipts.append(LineReport(line.number, line.text, LineStatus.ACCEPTED, canonical))
            else:
                refused = Complaint("one-take", "one TAKE a turn")
                receipts.append(refused.receipt(line.number, line.text))
        orders = {"take": mail.read[0].reading} if mail.read else None
        return OrderReport(tuple(sorted(receipts, key=lines.by_number)), orders)

    def default_orders(self, state: Pile, seat: str) -> JSON:
        return {"take": 1}

    def legal_orders(self, state: Pile, seat: str) -> Sequence[JSON]:
        if state.result or seat != SEAT:
            return []
        return [{"take": n} for n in range(1, min(MOST, state.counters) + 1)]

    def resolve(
        self, state: Pile, orders_by_seat: Mapping[str, JSON], chance: Chance
    ) -> Resolution[Pile]:
        order = orders_by_seat.get(SEAT, self.default_orders(state, SEAT))
        taken = int(order["take"]) if isinstance(order, dict) else 1
        left = state.counters - taken
        if left <= 0:
            after = Pile(0, state.turn + 1, "won")
            detail = "you took the last counter"
        else:
            lost = chance.roll("pile", MOST)
            after = Pile(max(0, left - lost), state.turn + 1, "lost" if left <= lost else "")
            detail = f"you took {taken}; the die took {min(lost, left)}"
        outcome = OrderOutcome(SEAT, f"TAKE {taken}", "taken", detail)
        return Resolution(after, (outcome,), tuple(chance.events), {"left": after.counters})

    def outcome(self, state: Pile) -> Outcome:
        if not state.result:
            return Outcome(False, summary=f"{state.counters} counters left")
        won = state.result == "won"
        summary = f"{'Won' if won else 'Lost'} after {state.turn} turns"
        return Outcome(True, (SEAT,) if won else (), summary, (int(won), -state.turn))

    def view(self, state: Pile, seat: str | None) -> JSON:
        return {"counters": state.counters, "turn": state.turn, "result": state.result}

    def scramble_hidden(self, state: Pile, seat: str | None, salt: int) -> Pile:
        return replace(state)  # nothing is hidden

    def dump(self, state: Pile) -> JSON:
        return CODEC.dump(state)

    def load(self, data: JSON) -> Pile:
        return CODEC.load(Pile, data)  # a ShapeError (a ValueError) names what is wrong

    def draw(self, view: JSON, facts: Mapping[str, JSON] | None, scale: int) -> bytes:
        counters = int(view["counters"]) if isinstance(view, dict) else 0
        size = ((20 + 14 * max(counters, 1)) * scale, 40 * scale)
        picture = Image.new("RGB", size, "white")
        draw = kit.Canvas(picture, scale)
        for n in range(counters):
            draw.ellipse((10 + 14 * n, 14, 20 + 14 * n, 24), fill=(0, 0, 0))
        return kit.png(picture)

    def describe(self, view: JSON) -> str:
        counters = view.get("counters") if isinstance(view, dict) else "?"
        return f"A pile of {counters} counters."

    def help_text(self, options: Mapping[str, str] | None = None) -> str:
        return "Send TAKE 1, TAKE 2 or TAKE 3. Take the last counter to win."


GAME = Countdown()
