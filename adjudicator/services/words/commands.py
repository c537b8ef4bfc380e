"""The words a player may write besides orders, and how a mail's lines are sorted among them.

A mail is read like a mailing-list manager reads one: every line is a command, an order for the
game's parser, or ignored, and the reply says which in sections (done, not understood, ignored).
Commands are recognised strictly (a whole line, or a known word with its arguments), so a line of
chatter never acts by accident; a line that merely *looks* like a command is reported with a
suggestion only once the game's parser has said it is not an order either. A command may be
written in any language's words (``command_words``); it is read, answered and kept as its
canonical English command.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator import i18n
from adjudicator.core import lines as lines_read
from adjudicator.core import said, suggest
from adjudicator.core.contract import LineReport, LineStatus, OrderReport
from adjudicator.core.refusal import Refusal
from adjudicator.games import registry
from adjudicator.mail import extract
from adjudicator.services.words import command_words

# Commands that stand alone on their line: a word after them makes the line something else
# (but for JOIN, whose words are the player's own contribution to the dice).
ALONE = ("STATUS", "ORDERS", "HISTORY", "GAMES", "RESIGN", "JOIN", "WAIT")
# Commands followed by arguments (HELP's is optional: the name of a game).
WITH_ARGUMENTS = ("HELP", "VACATION", "PREFERENCES", "FORMAT", "NAME")
WORDS = ("HELP", *ALONE, "VACATION", "PREFERENCES", "FORMAT", "NAME")
ALIASES = {"PREFERENCE": "PREFERENCES", "PREFS": "PREFERENCES"}
# DKIM: "required" takes orders only from mail whose DKIM signature verifies for the sender's
# domain (Game.require_dkim); "optional", the default, takes them from any mail.
# LANGUAGE: what the game's mail is written in for a player who has chosen no language.
SETTINGS = (
    "SCHEDULE",
    "TIMEZONE",
    "EARLY",
    "GRACE",
    "REMIND",
    "PLAYERS",
    "DELAY",
    "DKIM",
    "LANGUAGE",
)
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
# A name is a few words ("Luis Daoíz", "Juan Martín Díez el Empecinado"); many more read as prose.
NAME_WORDS = 10
CHALLENGE_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
# How alike a word must be to a command to be offered as "did you mean": STAUTS and HISTROY are,
# while chatter such as HELLO, STATE or WAITING is not.
CLOSE_ENOUGH = 0.75
_PUNCTUATION = ".!?:;,"


@dataclass(frozen=True)
class NewGame:
    game_key: str
    challenge: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    # For games of several players: seat name -> address ("me" for the sender), and the
    # game master's settings (SCHEDULE, TIMEZONE, EARLY, GRACE, REMIND) from the lines below.
    seats: dict[str, str] = field(default_factory=dict)
    settings: dict[str, str] = field(default_factory=dict)
    # A solo player's own words for the dice, after the game's name ("NEW <game> tiger 4417").
    words: str = ""
    # NEW as written when it was another language's word (NUEVA, НОВАЯ), for a guess of the
    # sender's language.
    alias: str = ""


@dataclass(frozen=True)
class Command:
    """One command line: its canonical word, what followed it, and the line as written (with
    the canonical command in place of another language's word, ``alias``: ПОМОЩЬ is shown as
    HELP, so the archive and the other players read the same)."""

    word: str
    argument: str
    line: str
    from_subject: bool = False
    alias: str = ""


@dataclass(frozen=True)
class Entry:
    """One line of a reply's sections: the line as written and what became of it."""

    line: str
    message: str
    ok: bool = True


@dataclass
class Sections:
    """The reply's account of a mail's commands, filled in as they run."""

    done: list[Entry] = field(default_factory=list)
    not_understood: list[Entry] = field(default_factory=list)
    ignored: list[Entry] = field(default_factory=list)
    # The reader's: what the sentences written into the sections are written in.
    language: str = i18n.SOURCE
    # The game master's own address when the reader is the game's game master: a game-master
    # command sent to a seat's address is pointed there (``gm_pointer``).
    game_master: str | None = None

    def did(self, command: Command, message: str, ok: bool = True) -> None:
        self.done.append(Entry(shown(command), message, ok))

    def skip(self, line: str, why: str) -> None:
        self.ignored.append(Entry(line.strip(), why))

    def json(self) -> dict[str, list[dict[str, Any]]]:
        def rows(entries: list[Entry]) -> list[dict[str, Any]]:
            return [{"line": e.line, "message": e.message, "ok": e.ok} for e in entries]

        return {
            "done": rows(self.done),
            "not_understood": rows(self.not_understood),
            "ignored": rows(self.ignored),
        }


@dataclass(frozen=True)
class Reading:
    """A mail's lines sorted: the commands in order, the lines left for the order parser, and
    lines dropped already (a command given twice)."""

    commands: tuple[Command, ...]
    others: tuple[str, ...]
    ignored: tuple[Entry, ...] = ()

    def words(self) -> list[str]:
        return [command.word for command in self.commands]

    def has(self, word: str) -> bool:
        return any(command.word == word for command in self.commands)

    def first(self, word: str) -> Command | None:
        return next((c for c in self.commands if c.word == word), None)


def shown(command: Command) -> str:
    return f"{command.line} (subject)" if command.from_subject else command.line


def _word(text: str) -> str:
    upper = command_words.canonical(text.strip(_PUNCTUATION))
    return ALIASES.get(upper, upper)


def _alias(text: str) -> str:
    """``text`` when it is another language's command word, else ""."""
    return text if command_words.language_of(text.strip(_PUNCTUATION)) else ""


def game_name(text: str, keys: Iterable[tuple[str, str]]) -> str | None:
    """The key of the game ``text`` names (by key or title, case and spaces aside), if any."""
    wanted = re.sub(r"[^a-z0-9]", "", text.lower())
    for key, title in keys:
        if wanted and wanted in (key, re.sub(r"[^a-z0-9]", "", title.lower())):
            return key
    return None


def command_of(
    line: str, games: Sequence[tuple[str, str]] = (), from_subject: bool = False
) -> Command | None:
    """The line read as a command, or None when it is not one (it may still be an order)."""
    text = " ".join(line.split())
    words = text.split(maxsplit=1)
    if not words:
        return None
    word = _word(words[0])
    argument = words[1].strip() if len(words) > 1 else ""
    alias = _alias(words[0])
    if alias:
        # Read and shown as the canonical command, whatever language it was written in.
        argument = command_words.argument(word, argument)
        text = f"{word} {argument}" if argument else word
    return _command(Command(word, argument, text, from_subject, alias), games)


def _command(written: Command, games: Sequence[tuple[str, str]]) -> Command | None:
    """``written`` (its first word read as a command) if it is one, with its argument as the
    command takes it."""
    word, argument, from_subject = written.word, written.argument, written.from_subject
    if word == "JOIN" and argument and not from_subject:
        # JOIN with the player's own words for the dice ("JOIN tiger 4417"); a question such as
        # "Join us?" is chatter.
        return None if argument.endswith("?") else written
    if word in ALONE:
        if argument.strip(_PUNCTUATION):
            return None
        return replace(written, argument="")
    if word == "HELP":
        # "HELP" alone, or "HELP <game>"; "Help me please" is chatter, not a command.
        if argument.strip(_PUNCTUATION) and game_name(argument, games) is None:
            return None
        return replace(written, argument=argument.strip(_PUNCTUATION))
    if word == "NAME" and not _a_name(argument, from_subject):
        return None
    if word in WITH_ARGUMENTS:
        return written
    return None


def _a_name(argument: str, from_subject: bool) -> bool:
    """Whether NAME is followed by a name, not prose: "Name the fort after me." or a subject
    "Name change" is chatter, which must never rename anyone."""
    words = argument.split()
    if from_subject or len(words) > NAME_WORDS:
        return False
    return not argument.endswith(("!", "?", "."))


def read(
    lines: Sequence[str], subject: str | None = None, games: Sequence[tuple[str, str]] = ()
) -> Reading:
    """Sort a mail's lines; ``subject`` (already stripped of Re:/Fwd:) counts when it is a
    command and is dropped silently when it is not, as most subjects are titles. A line too
    long to read (``core.lines.unreadable``) is ignored with that reason."""
    commands: list[Command] = []
    others: list[str] = []
    ignored: list[Entry] = []
    if subject:
        command = command_of(subject, games, from_subject=True)
        # "Orders" is what many players title an order mail: that is no request to list them.
        if command is not None and command.word != "ORDERS":
            commands.append(command)
    for line in lines:
        why = lines_read.unreadable(line)
        if why is not None:
            # Neither a command nor an order: a JOIN of 100 KB is answered with why it was not
            # read, and no game's parser is given it.
            ignored.append(Entry(lines_read.shortened(line), why))
            continue
        command = command_of(line, games)
        if command is None:
            others.append(line)
        elif command.word in ALONE and any(c.word == command.word for c in commands):
            # Written anew in the reader's language (``in_language``) once the reader is known.
            again = said._("%(command)s was already given above", command=command.word)
            ignored.append(Entry(command.line if command.alias else line.strip(), again))
        else:
            commands.append(command)
    return Reading(tuple(commands), tuple(others), tuple(ignored))


def not_read(after: int) -> Entry:
    """The reply's note that a mail's lines after line ``after`` were not read (see
    ``extract.MAX_LINES``): nothing is said about them, since nothing was made of them."""
    return Entry(
        said._("lines after line %(line)s", line=after),
        said._(
            "not read: only the first %(lines)s lines (%(size)s KiB) of a mail are read",
            lines=extract.MAX_LINES,
            size=extract.MAX_BYTES // 1024,
        ),
    )


def in_language(entries: Iterable[Entry], lang: str) -> list[Entry]:
    """``entries`` made before their reader was known (``read``, ``not_read``), written anew in
    ``lang``."""
    return [
        replace(e, line=i18n.localized(e.line, lang), message=i18n.localized(e.message, lang))
        for e in entries
    ]


def with_unread(reading: Reading, own: extract.OwnText) -> Reading:
    """``reading`` with the note that lines were left unread, when they were."""
    if own.unread_after is None:
        return reading
    return replace(reading, ignored=(*reading.ignored, not_read(own.unread_after)))


def looks_like_command(line: str, lang: str = i18n.SOURCE) -> str | None:
    """For a line that is neither a command nor an order: what the player probably meant, as a
    sentence in ``lang``, when it looks like a command; None for chatter."""
    _ = i18n.translator(lang)
    words = line.split()
    if not words or len(words) > 4:
        return None
    first = _word(words[0])
    if first in ALONE:
        return _("%(command)s stands alone on its line, with nothing after it", command=first)
    if first == "HELP":
        return _("write HELP alone, or HELP and the name of a game")
    # A slip in any language's word: ПРИКАЗИ is ORDERS mistyped.
    others = list(command_words.words().commands)
    meant = closest(command_words.folded(first), [*WORDS, *ALIASES, *others])
    if meant is None:
        return None
    meant = ALIASES.get(meant, command_words.canonical(meant))
    meant = " ".join([meant, *words[1:]])
    return _("not a command; did you mean %(meant)s?", meant=meant)


def gm_pointer(line: str, sections: Sections) -> str | None:
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


def sift_ignored(lines: Sequence[LineReport], sections: Sections) -> tuple[LineReport, ...]:
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
            sections.not_understood.append(Entry(line.text.strip(), hint, ok=False))
    return tuple(kept)


def sift(report: OrderReport, sections: Sections) -> OrderReport:
    """The report to show the player: ``sift_ignored`` applied to its lines."""
    return replace(report, lines=sift_ignored(report.lines, sections))


def set_aside(lines: Sequence[LineReport], sections: Sections) -> None:
    """A mail of commands whose other lines hold no order: each of them is reported in the
    sections (a lookalike as not understood, the rest as ignored), not as a refused order set."""
    lang = sections.language
    for line in sift_ignored(lines, sections):
        reason = i18n.localized(line.reason, lang) or i18n.gettext("not an order", lang)
        sections.skip(line.text, i18n.gettext("%(reason)s, nor a command", lang, reason=reason))


def _example_game() -> str:
    """A game to name in an example of NEW: the first one played alone (one that may be shared)."""
    solo = [game.key for game in registry.games().values() if len(game.seats) == 1]
    return (solo or list(registry.games()) or ["<game>"])[0].upper()


def asked_game(lines: list[str]) -> str | None:
    """The game a NEW line names, even when the rest of the line cannot be read."""
    for line in lines:
        words = line.strip().split()
        if words and command_words.canonical(words[0]) == "NEW":
            return words[1].lower() if len(words) > 1 else None
    return None


def parse_new(lines: list[str]) -> NewGame | Refusal | None:
    """The first line starting with NEW, read as a request; None when there is none."""
    for index, line in enumerate(lines):
        words = line.strip().split()
        if not words or command_words.canonical(words[0]) != "NEW":
            continue
        why = lines_read.unreadable(line)
        if why is not None:
            return Refusal(said._("the NEW line is %(why)s", why=why))
        if len(words) < 2:
            example = f"NEW {_example_game()}"
            return Refusal(
                said._("NEW needs the name of a game, e.g. %(example)s", example=example)
            )
        request = NewGame(game_key=words[1].lower(), alias=_alias(words[0]))
        rest = words[2:]
        challenge: str | None = None
        options: dict[str, str] = {}
        own: list[str] = []
        while rest:
            word = rest.pop(0)
            if command_words.canonical(word) == "SHARED":
                if not rest:
                    example = f"NEW {_example_game()} SHARED spring-cup"
                    return Refusal(
                        said._("SHARED needs a challenge name, e.g. %(example)s", example=example)
                    )
                challenge = rest.pop(0).lower()
                if not CHALLENGE_NAME.match(challenge):
                    return Refusal(
                        said._(
                            "%(name)s cannot be a challenge name: use up to 40 letters, digits "
                            "and hyphens",
                            name=repr(challenge),
                        )
                    )
            elif "=" in word:
                key, value = word.split("=", 1)
                options[key.lower()] = value.lower()
            else:
                own.append(word)
        seats, settings = _block(lines[index + 1 :])
        return NewGame(
            request.game_key, challenge, options, seats, settings, " ".join(own), request.alias
        )
    return None


def _block(lines: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """The lines under NEW: ``<seat> <address>`` and ``<SETTING> <value>``; chatter is skipped."""
    seats: dict[str, str] = {}
    settings: dict[str, str] = {}
    for line in lines:
        words = line.strip().split(maxsplit=1)
        if len(words) != 2:
            continue
        head, rest = words[0].rstrip(":"), words[1].strip()
        if head.upper() in SETTINGS:
            settings[head.upper()] = rest
        elif head.upper() == "OPTION" and "=" in rest:
            key, value = rest.split("=", 1)
            settings["option:" + key.strip().lower()] = value.strip().lower()
        elif "@" in rest or rest.lower() == "me":
            seats[head.lower()] = rest.strip("<>").lower()
    return seats, settings
