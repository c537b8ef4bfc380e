"""The order help in the reader's language, and the cards as the help page lists them (the
numbers come from cards.toml)."""

from __future__ import annotations

import functools
from importlib import resources

from adjudicator.core.contract import CardText
from adjudicator.games.thermopyles.cards import card_data


@functools.cache
def help_in(language: str) -> str:
    """The order help in ``language`` (``help.<language>.txt``, showing that language's order
    words beside the canonical ones), English (``help.txt``) where there is none."""
    package = resources.files("adjudicator.games.thermopyles")
    own = package.joinpath(f"help.{language}.txt")
    chosen = own if language.isalpha() and own.is_file() else package.joinpath("help.txt")
    return chosen.read_text(encoding="utf-8")


def card_texts() -> list[CardText]:
    """The deck, the supports and the Persians as the help page lists them."""
    data = card_data()
    rows = []
    for value in sorted(set(data.spartans)):
        count = data.spartans.count(value)
        rows.append(
            CardText(
                f"Spartan {value}",
                "spartans",
                f"from your hand: FIGHT {value}",
                f"a unit of {value} soldiers; {count} such card{'s' if count > 1 else ''} in the "
                "deck. Discarded after the fight, whatever happens.",
            )
        )
    rows.append(
        CardText(
            "Greek support",
            "spartans",
            "with a fight: SUPPORT n",
            f"{data.supports} for the whole game, each used once for one more d6.",
        )
    )
    for card in data.persians:
        bonus = "; ^ when beaten it gives you one more Spartan card" if card.bonus else ""
        rows.append(
            CardText(
                f"Persian {card.id}",
                "persians",
                "dealt by the server to the near and far places",
                f"beat {card.white} to beat it; reach {card.red} to send it to the Graveyard"
                f"{bonus}.",
            )
        )
    return rows
