"""The order help in the reader's language, and the cards as the help page lists them (the
numbers come from cards.toml)."""

from __future__ import annotations

import functools
from importlib import resources

from adjudicator.core.contract import CardText
from adjudicator.core.said import _, ngettext
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
    """The deck, the supports and the Persians as the help page lists them, in the reader's
    language; the cards' names are names, never translated."""
    data = card_data()
    rows = []
    for value in sorted(set(data.spartans)):
        count = data.spartans.count(value)
        rows.append(
            CardText(
                f"Spartan {value}",
                "spartans",
                _("from your hand: FIGHT %(value)s", value=value),
                ngettext(
                    "a unit of %(value)s soldiers; %(num)s such card in the deck. Discarded "
                    "after the fight, whatever happens.",
                    "a unit of %(value)s soldiers; %(num)s such cards in the deck. Discarded "
                    "after the fight, whatever happens.",
                    count,
                    value=value,
                ),
            )
        )
    rows.append(
        CardText(
            "Greek support",
            "spartans",
            _("with a fight: SUPPORT n"),
            _(
                "%(supports)s for the whole game, each used once for one more d6.",
                supports=data.supports,
            ),
        )
    )
    for card in data.persians:
        values = {"white": card.white, "red": card.red}
        if card.bonus:
            text = _(
                "beat %(white)s to beat it; reach %(red)s to send it to the Graveyard; ^ when "
                "beaten it gives you one more Spartan card.",
                **values,
            )
        else:
            text = _(
                "beat %(white)s to beat it; reach %(red)s to send it to the Graveyard.", **values
            )
        rows.append(
            CardText(
                f"Persian {card.id}",
                "persians",
                _("dealt by the server to the near and far places"),
                text,
            )
        )
    return rows
