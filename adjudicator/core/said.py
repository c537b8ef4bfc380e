"""Sentences the rules write, in the language of whoever reads them.

The games write every sentence a player reads in English, through ``_`` and ``ngettext`` here
(the names Babel's extractor looks for, so ``pybabel extract`` finds them). While the service
writes one reader's mail or page it makes that reader's catalog the current one
(``i18n.speaking``), as Django's ``translation.override`` does: the rules take no language
argument and read nothing outside themselves; the current catalog is the one value they are
given this way, and English (the identity) when none is set.

A sentence made once and read later by several readers (an order's outcome, written when the
turn is resolved; a receipt's reason) is a ``Said``: a ``str`` in the language it was made in,
carrying the message and values it was made of, so each reader's mail writes it anew in theirs
(``anew``). A sentence joined from others with ``+`` or an f-string is a plain ``str`` again and
is shown as made: a sentence meant to be read in several languages is one ``_`` call whose
parts are its values.

Stored as JSON (a turn's facts and outcomes), a ``Said`` would be a plain English string again:
``stored`` writes each one as its JSON form (the English, the message and the values, sentences
among them in the same form), and ``restored`` reads that form back into a ``Said``, so a page
built from stored facts writes them anew in its reader's language too. What was stored before
as a plain string reads as that string.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

ENGLISH = "en"
# The keys of a sentence's stored form: the text as made, its message and its values.
FORM = ("said", "message", "values")


@dataclass(frozen=True)
class Speech:
    """A reader's language: its code and its catalog."""

    language: str
    catalog: gettext.NullTranslations


SOURCE = Speech(ENGLISH, gettext.NullTranslations())
_current: ContextVar[Speech | None] = ContextVar("pbem_speech", default=None)


def _speech() -> Speech:
    return _current.get() or SOURCE


# A msgid; a singular, plural and count; or a name by language, "" its original (``named``).
Message = str | tuple[str, str, int] | Mapping[str, str]


class Said(str):
    """A sentence as made in one language, with what it was made of: ``message`` (a msgid, or a
    singular, plural and count) and ``values``."""

    message: Message
    values: Mapping[str, Any]

    def __new__(cls, text: str, message: Message, values: Mapping[str, Any]) -> Said:
        made = super().__new__(cls, text)
        made.message, made.values = message, values
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a Celery result, a cache) it keeps what it was made of.
        return (Said, (str(self), self.message, dict(self.values)))


def language() -> str:
    """The current reader's language ("en" unless the service set one): for a cache keyed by
    what it writes, so two languages never share an entry."""
    return _speech().language


def _written(message: Message, values: Mapping[str, Any]) -> Said:
    speech = _speech()
    catalog = speech.catalog
    filled = {key: anew(value) for key, value in values.items()}
    if isinstance(message, Mapping):
        text = message.get(speech.language) or message[""]
    elif isinstance(message, tuple):
        singular, plural, count = message
        text = catalog.ngettext(singular, plural, count) % {"num": count, **filled}
    else:
        text = catalog.gettext(message) % filled if filled else catalog.gettext(message)
    return Said(text, message, values)


def _(message: str, **values: Any) -> str:
    """``message`` in the current reader's language, its ``%(name)s`` placeholders filled from
    ``values`` (each of them written anew too, where it is a sentence itself)."""
    return _written(message, values)


def ngettext(singular: str, plural: str, n: int, **values: Any) -> str:
    """The form of ``singular``/``plural`` that ``n`` takes in the current language (Russian has
    three), ``%(num)s`` being ``n``."""
    return _written((singular, plural, n), values)


def named(original: str, **by_language: str) -> str:
    """A proper name as the current reader's language writes it: its own where ``by_language``
    gives one, else the ``original`` (a 2 de Mayo card is called by its Spanish original but in
    English). Kept in a sentence made earlier, it is written anew with the sentence."""
    return _written({"": original, **by_language}, {})


def joined(parts: Sequence[str], separator: str = "; ") -> str:
    """``parts`` joined with ``separator`` ("; " or ", ") as one sentence whose parts are its
    values, so a reader's mail writes each part anew in their language (a hand of cards named in
    a prompt, a receipt's notes, the clauses of an end)."""
    if len(parts) <= 1:
        return parts[0] if parts else ""
    # Halves, not the first part and the rest: the sentence nests as deep as the log of its
    # parts (12 levels for 2,400 notes, where one per part reached the recursion limit when it
    # was written anew), and "a; b; c; d" reads the same either way.
    half = (len(parts) + 1) // 2
    first, rest = joined(parts[:half], separator), joined(parts[half:], separator)
    if separator == ", ":
        return _("%(first)s, %(rest)s", first=first, rest=rest)
    return _("%(first)s; %(rest)s", first=first, rest=rest)


def words_of(table: Mapping[str, str], code: Any) -> str:
    """``code``'s words from ``table`` (messages marked with ``N_``) in the reader's language; a
    code the table lacks, as it is. Every game words its codes (orders, phases, states) so."""
    found = table.get(str(code))
    return _(found) if found is not None else str(code)


def N_(message: str) -> str:
    """``message`` marked for extraction, translated where it is used (``_(constant)``)."""
    return message


def anew(text: Any) -> Any:
    """``text`` written again in the current reader's language where it is a ``Said`` (or the
    stored form of one); anything else as it is."""
    if isinstance(text, Mapping) and _is_form(text):
        text = restored(text)
    return _written(text.message, text.values) if isinstance(text, Said) else text


def stored(value: Any) -> Any:
    """``value`` (JSON: objects, lists, scalars) with every ``Said`` in it, at any depth, as its
    JSON form (``{"said": text, "message": ..., "values": {...}}``), which ``restored`` reads."""
    if isinstance(value, Said):
        message = value.message
        form = list(message) if isinstance(message, tuple) else message
        values = {key: _stored_value(item) for key, item in value.values.items()}
        return {"said": str(value), "message": form, "values": values}
    if isinstance(value, Mapping):
        return {key: stored(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [stored(item) for item in value]
    return value


def _stored_value(value: Any) -> Any:
    # A value is written with %s: a sentence keeps its form, a number stays a number, and
    # anything else (never more than a word) is stored as the text it gave.
    if isinstance(value, Said) or value is None or isinstance(value, bool | int | float):
        return stored(value)
    return str(value)


def restored(value: Any) -> Any:
    """``value`` read back from JSON with each stored sentence (``stored``'s form) a ``Said``
    again; plain strings, sentences stored before there was a form, stay as they are."""
    if isinstance(value, Mapping):
        if _is_form(value):
            message = value["message"]
            made: Message = tuple(message) if isinstance(message, list) else message
            values = {key: restored(item) for key, item in value["values"].items()}
            return Said(str(value["said"]), made, values)
        return {key: restored(item) for key, item in value.items()}
    if isinstance(value, list):
        return [restored(item) for item in value]
    return value


def _is_form(value: Mapping[str, Any]) -> bool:
    return len(value) == len(FORM) and all(key in value for key in FORM)


@contextmanager
def spoken(speech: Speech) -> Iterator[None]:
    """``speech`` is the current reader's language inside the block (``i18n.speaking`` finds
    the catalog)."""
    token = _current.set(speech)
    try:
        yield
    finally:
        _current.reset(token)
