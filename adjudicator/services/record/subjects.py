"""The Subject of every mail about a game: ``[pbem #12] <game title> · turn 4 results``.

A game's mail stays one conversation through Message-ID, In-Reply-To and References
(mailer.thread_headers), which is what mail clients thread by; so the subject is free to say what
each mail is, and the tag and title in front of it keep the game's mail together in a list. It
never starts with "Re:": an answer to a player's mail is one by In-Reply-To already.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from adjudicator import i18n
from adjudicator.core import said
from adjudicator.core.contract import Decision
from adjudicator.core.words import listed
from adjudicator.i18n import N_
from adjudicator.models import Game

SEPARATOR = " · "

# What each kind of mail is, after the game's title. The words in braces are filled by ``words``:
# {noun} turn or step, {turn} the last one played, {next} the one now being ordered, {owes} who
# owes what next, {result} how the game ended, {seat} a seat named by the mail. A player's mail
# says them in its reader's language (each is a catalog message whose braces stay as they are).
PHRASES: Mapping[str, str] = {
    "invited": N_("you are invited"),
    "joined": N_("you have joined"),
    "started": N_("game started"),
    "results": N_("{noun} {turn} results"),
    # The decision owed is named by the number its answer will be played as, the number the
    # mail's deadline gives it.
    "step": N_("{noun} {next}: {owes}"),
    "received": N_("{noun} {next} orders received"),
    "received-in-part": N_("{noun} {next} orders received, some lines left out"),
    "refused": N_("orders not accepted"),
    "answered": N_("answer to your mail"),
    "in-doubt": N_("which lines are your orders?"),
    "reminder": N_("reminder: {noun} {next} orders due"),
    "decision-reminder": N_("reminder: your decision for {noun} {next} is due"),
    "deadline-moved": N_("deadline moved"),
    "paused": N_("game paused"),
    "resumed": N_("game resumed"),
    "rolled-back": N_("{noun} {turn} rolled back"),
    "replaced": N_("{seat} has a new player"),
    "idle": N_("no orders for a while"),
    "shared-deal": N_("shared deal results"),
    "over": N_("game over: {result}"),
    "gm-formed": N_("game formed (game master)"),
    "gm-answer": N_("your commands (game master)"),
    "gm-started": N_("game started (game master)"),
    "gm-over": N_("game over: {result} (game master)"),
    "gm-turn": N_("{noun} {turn} results (game master)"),
}


def subject(game: Game, title: str, what: str, lang: str = i18n.SOURCE, **words: object) -> str:
    """The subject of a mail about ``game``, in ``lang`` after the tag and the title."""
    phrase = i18n.gettext(PHRASES[what], lang)
    return f"[pbem #{game.id}] {title}{SEPARATOR}{phrase.format(**words)}"


def ours(line: str, title: str) -> bool:
    """Whether a subject line (its Re: and [tag] gone) is one of ours: the game's title alone, or
    the title and what the mail was. A reply with an empty body keeps it; it holds no order."""
    text = line.strip().lower()
    return text == title.lower() or text.startswith(title.lower() + SEPARATOR.rstrip())


def short_result(result: str | None) -> str:
    """How the game ended in a subject's few words: the result up to its first detail
    ("royalist wins (last turn played); ..." reads "royalist wins")."""
    text = (result or "ended").strip()
    for mark in (" (", "; "):
        text = text.split(mark, 1)[0]
    return text.rstrip(".")


def owes(pending: Mapping[str, Decision], title: Callable[[str], str] = str) -> str:
    """Who owes the next decision and what it is, as every player may read it: each seat by its
    ``title``; in the current reader's language (``i18n.speaking``)."""
    lang = said.language()
    if not pending:
        return i18n.gettext("nothing owed", lang)
    seats = [title(seat) for seat in sorted(pending)]
    brief = said.anew(next((d.brief for d in pending.values() if d.brief), ""))
    if lang == i18n.SOURCE:
        return f"{listed(seats)} to {brief or 'answer'}"
    return i18n.gettext(
        "%(names)s to %(brief)s",
        lang,
        names=i18n.listed(seats, lang),
        brief=brief or i18n.gettext("answer", lang),
    )


def words(game: Game, noun: str, turn: int, pending: Mapping[str, Decision]) -> dict[str, Any]:
    """The words every phrase may use, for a mail showing the position after ``turn``."""
    return {
        "noun": noun,
        "turn": turn,
        "next": turn + 1,
        "owes": owes(pending),
        "result": short_result(game.result),
    }
