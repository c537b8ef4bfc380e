"""Why a turn was resolved, in words. A turn's reason is stored as a code (``Turn.reason``, set
by ``play`` at the start, by the seat's mail when an order resolves on receipt, and by
``deadlines``); players read these words instead, in the turn's mail and on the archive."""

from __future__ import annotations

import re

from adjudicator import i18n
from adjudicator.i18n import N_

START, ORDERS, DEADLINE, ALL_SUBMITTED, FORCED = (
    "start",
    "orders",
    "deadline",
    "all-submitted",
    "forced",
)

TURN_REASONS = {
    START: N_("the game began"),
    ORDERS: N_("the orders arrived"),
    DEADLINE: N_("the deadline passed"),
    ALL_SUBMITTED: N_("everyone had sent orders"),
    FORCED: N_("forced by the game master"),
}

# A code the table does not know.
_RESOLVED = N_("resolved")


def turn_reason(code: str, yours: bool = False, lang: str = i18n.SOURCE) -> str:
    """A turn's reason in words of ``lang``; ``yours`` where it is read by the player whose
    orders played it. A code this table does not know reads as no reason, never as itself."""
    if code == ORDERS and yours:
        return i18n.gettext("your orders arrived", lang)
    return i18n.gettext(TURN_REASONS.get(code, _RESOLVED), lang)


# How a game ended where the service ended it (lifecycle), as Game.result stores it in English;
# a game's own result is stored as its rules wrote it.
_RESIGNED = re.compile(r"(?P<seat>.+) resigned")
_CLOSED = re.compile(r"closed after (?P<days>\d+) days? without an order")


def game_result(result: str | None, lang: str = i18n.SOURCE) -> str | None:
    """A game's stored result in words of ``lang``: the service's own (a resignation, an idle
    game closed, a shared deal ended) translated, a game's own as stored."""
    if not result or i18n.chosen(lang) == i18n.SOURCE:
        return result
    if found := _RESIGNED.fullmatch(result):
        return i18n.gettext("%(seat)s resigned", lang, seat=found["seat"])
    if found := _CLOSED.fullmatch(result):
        return i18n.ngettext(
            "closed after %(num)s day without an order",
            "closed after %(num)s days without an order",
            int(found["days"]),
            lang,
        )
    # Any other that is a catalog's message (lifecycle marks the one a shared deal's end
    # writes); a game's own as stored.
    return i18n.gettext(result, lang)
