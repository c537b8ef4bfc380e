"""Lines that look like a command and are not one: a slip offered as "did you mean", a game
master's command sent to a seat's address pointed where it belongs, and the order parser's
ignored lines sifted for both before a player reads the receipt."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from adjudicator import i18n
from adjudicator.core import suggest
from adjudicator.core.contract import LineReport, LineStatus, OrderReport
from adjudicator.services.words import command_words, commands

# The game master's commands (services.game_master.gm.COMMANDS, which reads this module, so named
# here again): written to a seat's address, each is answered with where it belongs, never as a line
# that is not an order. STATUS is every player's too.
GM_WORDS = (
    "SET DEADLINE",
    "EXTEND",
    "PAUSE",
    "RESUME",
    "PROCESS NOW",
    "ROLLBACK",
    "REPLACE",
    "END",
    "PANEL",
    "GMREPORTS",
)
# How alike a word must be to a command to be offered as "did you mean": STAUTS and HISTROY are,
# while chatter such as HELLO, STATE or WAITING is not.
CLOSE_ENOUGH = 0.75


def looks_like_command(line: str, lang: str = i18n.SOURCE) -> str | None:
    """For a line that is neither a command nor an order: what the player probably meant, as a
    sentence in ``lang``, when it looks like a command; None for chatter."""
    _ = i18n.translator(lang)
    words = line.split()
    if not words or len(words) > 4:
        return None
    first = commands.canonical_word(words[0])
    if first in commands.ALONE:
        return _("%(command)s stands alone on its line, with nothing after it", command=first)
    if first == "HELP":
        return _("write HELP alone, or HELP and the name of a game")
    # A slip in any language's word: ПРИКАЗИ is ORDERS mistyped.
    others = list(command_words.words().commands)
    meant = closest(command_words.folded(first), [*commands.WORDS, *commands.ALIASES, *others])
    if meant is None:
        return None
    meant = commands.ALIASES.get(meant, command_words.canonical(meant))
    meant = " ".join([meant, *words[1:]])
    return _("not a command; did you mean %(meant)s?", meant=meant)


def gm_pointer(line: str, sections: commands.Sections) -> str | None:
    """For a line sent to a seat's address that is a game-master command (its words in
    capitals, as the game master's help writes them): where it belongs, in the reader's
    language; None for any other line."""
    text = " ".join(line.split())
    word = next((w for w in GM_WORDS if text == w or text.startswith(w + " ")), None)
    if word is None:
        return None
    _ = i18n.translator(sections.language)
    if sections.game_master:
        return _(
            "%(command)s is a game-master command: send it to your game-master address %(address)s",
            command=word,
            address=sections.game_master,
        )
    return _("%(command)s is a game-master command: only the game master can do that", command=word)


def closest(word: str, vocabulary: Sequence[str]) -> str | None:
    """The known word ``word`` is most probably a typing slip for, if any."""
    if not word.isalpha():
        return None
    return suggest.closest(word.upper(), vocabulary, cutoff=CLOSE_ENOUGH)


def sift_ignored(
    lines: Sequence[LineReport], sections: commands.Sections
) -> tuple[LineReport, ...]:
    """The parser's receipts less the lines it ignored that look like a mistyped command: those
    go to "not understood" with a suggestion, so no line is reported twice."""
    kept = []
    for line in lines:
        ignored = line.status is LineStatus.IGNORED
        hint = (
            gm_pointer(line.text, sections) or looks_like_command(line.text, sections.language)
            if ignored
            else None
        )
        if hint is None:
            kept.append(line)
        else:
            sections.not_understood.append(commands.Entry(line.text.strip(), hint, ok=False))
    return tuple(kept)


def sift(report: OrderReport, sections: commands.Sections) -> OrderReport:
    """The report to show the player: ``sift_ignored`` applied to its lines."""
    return replace(report, lines=sift_ignored(report.lines, sections))


def set_aside(lines: Sequence[LineReport], sections: commands.Sections) -> None:
    """A mail of commands whose other lines hold no order: each of them is reported in the
    sections (a lookalike as not understood, the rest as ignored), not as a refused order set."""
    lang = sections.language
    for line in sift_ignored(lines, sections):
        reason = i18n.localized(line.reason, lang) or i18n.gettext("not an order", lang)
        sections.skip(line.text, i18n.gettext("%(reason)s, nor a command", lang, reason=reason))
