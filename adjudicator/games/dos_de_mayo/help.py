"""The help in the reader's language: the order syntax (help.txt, or help.<lang>.txt beside it)
and the cards as the help page lists them (all from cards.toml, cards_help.toml, words.toml and
board.toml). Card and area names keep their names in every language; so do the canonical order
keywords, which each language's help shows beside its own order words."""

from __future__ import annotations

import functools
import textwrap
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

from adjudicator.core import said
from adjudicator.core.contract import CardText
from adjudicator.core.said import N_, _
from adjudicator.games.dos_de_mayo import vocabulary
from adjudicator.games.dos_de_mayo.board import board
from adjudicator.games.dos_de_mayo.cards import Card, card_data
from adjudicator.games.dos_de_mayo.sides import title

CARDS_HELP_FILE = Path(__file__).with_name("cards_help.toml")
_WINDOWS = {
    "on-draw": N_("takes effect when drawn"),
    "orders": N_("PLAY it with your orders"),
    "resolution": N_("PLAY it with your orders; it acts at Resolution"),
    "lasting": N_("PLAY it once; it stays in play"),
}
# The order words each language's help lists, under their canonical keyword.
_KEYWORDS = (
    ("PLAY", "play"),
    ("TAKE", "take"),
    ("ENTER", "enter"),
    ("HOLD", "hold"),
    ("MOVE", "move"),
    ("DRAW", "draw"),
    ("NODRAW", "nodraw"),
    ("ADD", "add"),
    ("xN", "units"),
)


@functools.cache
def _translated() -> Mapping[str, Mapping[str, Mapping[str, str]]]:
    """cards_help.toml: language -> card id -> text, and "windows" -> language -> window."""
    with CARDS_HELP_FILE.open("rb") as handle:
        return tomllib.load(handle)


def card_help(card: Card) -> str:
    """What ``card`` does, in the reader's language (English, cards.toml's, where none)."""
    return str(_translated().get(said.language(), {}).get(card.id, card.help))


def window_name(card: Card) -> str:
    """When ``card`` is played, in a word: cards.toml's code in English."""
    return str(_translated()["windows"].get(said.language(), {}).get(card.window, card.window))


def card_texts() -> list[CardText]:
    """Every card of cards.toml with when it may be played, as the help page lists it."""
    data = card_data()
    turns = board().rules.turns
    rows = []
    for card in data.cards:
        window = _WINDOWS.get(card.window)
        when = [_(window) if window else card.window]
        if card.window != "on-draw":
            when.append(_("keyword %(keyword)s", keyword=card.keyword))
        if (card.earliest, card.latest) != (1, turns):
            when.append(_("turns %(first)s-%(last)s", first=card.earliest, last=card.latest))
        if card.requires_any:
            names = ", ".join(data.card(other).name for other in card.requires_any)
            when.append(_("once %(cards)s has been played", cards=names))
        if card.id in data.france_choice:
            when.append(_("start card: TAKE %(keyword)s", keyword=card.keyword))
        if card.id in data.spain_start:
            when.append(_("start card, in hand from turn 1"))
        rows.append(
            CardText(_listed_name(card), title(card.side), "; ".join(when), card_help(card))
        )
    return rows


def _listed_name(card: Card) -> str:
    """A card as the help lists it: in English by both its names, "Mayor of Móstoles (Alcalde
    de Móstoles)"; in any other language by its Spanish original, as every mail names it."""
    if said.language() != said.ENGLISH or card.en == card.es:
        return card.name
    return f"{card.en} ({card.es})"


def order_words(lang: str) -> str:
    """The order words of ``lang`` under their canonical keywords, one keyword a line."""
    lines = []
    for keyword, kind in _KEYWORDS:
        words = list(vocabulary.spoken(kind, lang))
        if kind == "nodraw":  # "no robar", "не тянуть": a negation before a DRAW word
            negation = vocabulary.spoken("negations", lang)[0]
            words.append(f"{negation} {vocabulary.spoken('draw', lang)[0]}")
        spoken = ", ".join(word.upper() for word in words)
        lines.append(f"  {keyword:<8} {spoken}")
    return "\n".join(lines)


def _template(lang: str) -> str:
    package = resources.files("adjudicator.games.dos_de_mayo")
    own = package.joinpath(f"help.{lang}.txt")
    chosen = own if own.is_file() else package.joinpath("help.txt")
    return chosen.read_text(encoding="utf-8")


def help_text(cards: bool = True) -> str:
    """The help of the reader's language (``said.language``) with the numbers, the order
    words and the card list filled in from the data files; without ``cards`` the list is left
    to the page's own table of cards."""
    lang = said.language()
    the_board = board()
    rules = the_board.rules
    listed = []
    for card in card_data().cards:
        side = title(card.side)
        window = window_name(card)
        listed.append(f"  {card.keyword:<13} {_listed_name(card)}, {side}, {window}")
        listed += [f"      {line}" for line in textwrap.wrap(card_help(card), 72)]
    if not cards:
        every = _("Every card is in the table of cards below, with when it may be played.")
        listed = [f"  {every}"]
    return _template(lang).format(
        france_units=the_board.totals["france"],
        spain_units=the_board.totals["spain"],
        turns=rules.turns,
        reinforcements_from=rules.reinforcements_from_turn,
        stacks=", ".join(f"{s}->{g}" for s, g in the_board.stack_gate.items()),
        group_limit=rules.france_group_limit,
        main_streets=", ".join(sorted(the_board.main_streets, key=int)),
        draws_from=rules.draws_from_turn,
        draw_lead=rules.draw_lead_limit,
        tie=rules.initiative_on_tie.capitalize(),
        gates=", ".join(the_board.gates),
        loss_limit=rules.france_loss_limit,
        words=order_words(lang),
        cards="\n".join(listed),
    )
