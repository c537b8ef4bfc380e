"""The mail commands in the players' languages: ``command_words.toml`` beside this module.

Each language's words are aliases of the canonical English commands, read from any player
whatever language they chose (a Spanish player may write ПОМОЩЬ, a Russian one AYUDA); what the
reply and the archive show is the canonical command. Words are compared with case and accents
aside (``ÓRDENES``, ``ordenes``; ``вступить``, ``ВСТУПИТЬ``), and Ё as Е. The file is read with
``core.datafile``'s kit, so a broken one names all its faults at once.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from adjudicator import i18n
from adjudicator.core import datafile
from adjudicator.core.words import folded as folded_word

# What a language's words may stand for: the commands of a reply address (commands.WORDS), and
# NEW and SHARED of new@; and the words after VACATION, PREFERENCES and FORMAT.
COMMANDS = (
    "HELP",
    "STATUS",
    "ORDERS",
    "HISTORY",
    "GAMES",
    "RESIGN",
    "JOIN",
    "WAIT",
    "VACATION",
    "PREFERENCES",
    "FORMAT",
    "NAME",
    "NEW",
    "SHARED",
)
ARGUMENTS = ("UNTIL", "OFF", "TIMEZONE", "REMIND", "LANGUAGE", "TEXT", "HTML")
# The commands whose first argument may be a word of ARGUMENTS.
TAKES_WORDS = ("VACATION", "PREFERENCES", "FORMAT")


@dataclass(frozen=True)
class Word:
    """One alias: the canonical word it stands for, the language it is of, and how it is
    written in the data file (the form the help shows)."""

    canonical: str
    language: str
    written: str


@dataclass(frozen=True)
class Words:
    """Every alias by its folded form: command words and argument words apart."""

    commands: Mapping[str, Word]
    arguments: Mapping[str, Word]

    def of(self, language: str) -> list[Word]:
        """A language's command words, in the order of COMMANDS."""
        found = [word for word in self.commands.values() if word.language == language]
        return sorted(found, key=lambda word: COMMANDS.index(word.canonical))


def folded(word: str) -> str:
    """``word`` as command words are compared: as players' words are (``core.words.folded``:
    accents aside, Ё read as Е), in upper case like the commands."""
    return folded_word(word).upper()


def parse(raw: Mapping[str, Any], known: tuple[str, ...]) -> Words:
    """The words of ``raw`` (the parsed TOML), for the languages in ``known``; a
    ``datafile.DataError`` lists every fault."""
    reader = datafile.Reader()
    commands: dict[str, Word] = {}
    arguments: dict[str, Word] = {}
    for language, tables in raw.items():
        if language not in known or language == i18n.SOURCE:
            reader.problem("unknown-language", f"{language} has no catalog")
            continue
        for part, allowed, into in (
            ("commands", COMMANDS, commands),
            ("arguments", ARGUMENTS, arguments),
        ):
            table = tables.get(part, {}) if isinstance(tables, dict) else {}
            for canonical, aliases in table.items():
                found = Word(canonical, language, "")
                _add(reader, f"{language}.{part}.{canonical}", (found, allowed, aliases), into)
    if reader.problems:
        raise datafile.DataError("command_words.toml", reader.problems)
    return Words(commands, arguments)


def _add(
    reader: datafile.Reader,
    where: str,
    entry: tuple[Word, tuple[str, ...], Any],
    into: dict[str, Word],
) -> None:
    """``entry``: the word the aliases stand for (its language), what it may be, the aliases."""
    word, allowed, aliases = entry
    canonical = word.canonical
    if canonical not in allowed:
        reader.problem("unknown-command", f"{where}: {canonical} is none of {', '.join(allowed)}")
        return
    if not isinstance(aliases, list) or not all(isinstance(a, str) and a for a in aliases):
        reader.problem("bad-words", f"{where} must be a list of words")
        return
    for alias in aliases:
        key = folded(alias)
        if " " in alias.strip() or key in allowed:
            reader.problem("bad-word", f"{where}: {alias!r} must be one word of its own")
        elif key in into and into[key].canonical != canonical:
            reader.problem("two-commands", f"{where}: {alias} is {into[key].canonical} already")
        else:
            into[key] = Word(canonical, word.language, alias)


@cache
def words() -> Words:
    """The aliases of ``command_words.toml``, read once."""
    source = resources.files("adjudicator.services.words").joinpath("command_words.toml")
    return parse(tomllib.loads(source.read_text(encoding="utf-8")), i18n.languages())


def canonical(word: str) -> str:
    """The canonical command ``word`` stands for (``ПОМОЩЬ`` is ``HELP``), or ``word`` in upper
    case when it is no alias."""
    found = words().commands.get(folded(word))
    return found.canonical if found else word.upper()


def language_of(word: str) -> str:
    """The language ``word`` is a command of ("ru" for ВСТУПИТЬ), or "" for any other word."""
    found = words().commands.get(folded(word))
    return found.language if found else ""


def argument(command: str, text: str) -> str:
    """What follows ``command`` with its first word canonical (``ДО 2027-01-03`` after
    VACATION is ``UNTIL 2027-01-03``)."""
    if command not in TAKES_WORDS or not text:
        return text
    first, *rest = text.split(maxsplit=1)
    found = words().arguments.get(folded(first))
    return " ".join([found.canonical, *rest]) if found else text


def shown(language: str) -> list[tuple[str, list[str]]]:
    """A language's words as the help lists them: each canonical command with its aliases."""
    by_command: dict[str, list[str]] = {}
    for word in words().of(language):
        by_command.setdefault(word.canonical, []).append(word.written)
    return list(by_command.items())
