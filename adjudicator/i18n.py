"""The reader's language: gettext catalogs through Babel, plural forms, dates per locale.

A language is supported when its catalog is on disk, ``adjudicator/locale/<lang>/LC_MESSAGES/
messages.po`` (docs/translating.md): adding one is adding that file. English is the source
language and needs none; its translations are the identity, so English mail is the text the
templates and code are written in. A compiled ``messages.mo`` next to the ``.po`` is used when it
is as new as the ``.po`` (``pybabel compile``); otherwise the ``.po`` is compiled in memory on
first use, so an editable install on a fresh machine needs no build step.
"""

from __future__ import annotations

import gettext as _gettext
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo

from babel import Locale, UnknownLocaleError
from babel.dates import format_datetime, format_timedelta
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from adjudicator import schedule
from adjudicator.core import said, words

LOCALE = Path(__file__).resolve().parent / "locale"
SOURCE = "en"

Translations = _gettext.NullTranslations


@cache
def languages() -> tuple[str, ...]:
    """Every language mail can be written in: English and each catalog on disk."""
    found = sorted(path.parent.parent.name for path in LOCALE.glob("*/LC_MESSAGES/messages.po"))
    return (SOURCE, *(code for code in found if code != SOURCE))


def supported(code: str) -> str:
    """``code`` as a supported language ("ES" and "es-MX" are "es"), or "" when it is none."""
    base = code.strip().replace("_", "-").split("-")[0].lower()
    return base if base in languages() else ""


def chosen(*preferences: str) -> str:
    """The first supported of ``preferences`` (the player's own, then the game's), else
    English."""
    return next((found for found in map(supported, preferences) if found), SOURCE)


@cache
def translations(lang: str) -> Translations:
    """The catalog of ``lang``, read once; English and unknown languages are the identity."""
    code = supported(lang)
    if code in ("", SOURCE):
        return _gettext.NullTranslations()
    folder = LOCALE / code / "LC_MESSAGES"
    po, mo = folder / "messages.po", folder / "messages.mo"
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as compiled:
            return _gettext.GNUTranslations(compiled)
    with po.open("rb") as source:
        catalog = read_po(source, locale=code)
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def gettext(message: str, lang: str = SOURCE, /, **values: Any) -> str:
    """``message`` in ``lang``, its ``%(name)s`` placeholders filled from ``values``. The
    message comes first, where Babel's extractor looks for it."""
    text = translations(lang).gettext(message)
    return text % written(values, lang) if values else text


def ngettext(singular: str, plural: str, n: int, lang: str = SOURCE, /, **values: Any) -> str:
    """The form of ``singular``/``plural`` that ``n`` takes in ``lang`` (Russian has three),
    with ``num`` and ``values`` filled in."""
    return translations(lang).ngettext(singular, plural, n) % {"num": n, **written(values, lang)}


def written(values: dict[str, Any], lang: str) -> dict[str, Any]:
    """``values`` with each game's sentence or name among them (a side's name made by the
    rules) written in ``lang``, as the sentence they fill is."""
    if not any(isinstance(value, said.Said) for value in values.values()):
        return values
    return {key: localized(value, lang) for key, value in values.items()}


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Inside the block the games' sentences (``core.said``) are written in ``lang``: the
    service holds it around everything it writes for one reader."""
    code = chosen(lang)
    with said.spoken(said.Speech(code, translations(code))):
        yield


def localized(text: Any, lang: str) -> Any:
    """A game's sentence made earlier (``said.Said``), written again in ``lang``; any other
    value as it is."""
    with speaking(lang):
        return said.anew(text)


def N_(message: str) -> str:
    """``message`` marked for extraction, translated where it is used."""
    return message


def translator(lang: str) -> Callable[..., str]:
    """``_`` for code writing one reader's sentences: ``_("Game %(id)s", id=3)``."""

    def _(message: str, **values: Any) -> str:
        return gettext(message, lang, **values)

    return _


def locale(lang: str) -> Locale:
    try:
        return Locale.parse(supported(lang) or SOURCE)
    except UnknownLocaleError:
        return Locale.parse(SOURCE)


def named(lang: str) -> str:
    """A language's name in itself: "español", "русский", "English"."""
    return str(locale(lang).get_display_name(locale(lang)) or lang)


def shown(moment: datetime, zone: str, now: datetime, lang: str = SOURCE) -> str:
    """A deadline as ``schedule.shown`` writes it (the reader's zone, UTC, how long from now),
    in the words and date format of ``lang``; English is ``schedule.shown`` itself."""
    if chosen(lang) == SOURCE:
        return schedule.shown(moment, zone, now)
    where = locale(lang)
    local = moment.astimezone(ZoneInfo(zone))
    local_text = f"{format_datetime(local, 'EEE d MMM y HH:mm', locale=where)} {local.tzname()}"
    when = relative(moment, now, lang)
    if zone == "UTC":
        return f"{local_text} ({when})"
    utc = moment.astimezone(UTC)
    pattern = "HH:mm" if utc.date() == local.date() else "EEE d MMM HH:mm"
    return f"{local_text} = {format_datetime(utc, pattern, locale=where)} UTC ({when})"


def relative(moment: datetime, now: datetime, lang: str = SOURCE) -> str:
    """How far ``moment`` is from ``now`` in ``lang`` ("через 38 часов", "hace 2 días")."""
    if chosen(lang) == SOURCE:
        return schedule.relative(moment, now)
    seconds = abs((moment - now).total_seconds())
    # The unit schedule.relative picks; an unreachable threshold makes Babel keep to it.
    unit: Literal["minute", "hour", "day"] = (
        "minute" if seconds < 90 * 60 else "hour" if seconds < 72 * 3600 else "day"
    )
    said = format_timedelta(
        moment - now, granularity=unit, threshold=1e9, add_direction=True, locale=locale(lang)
    )
    # The number held to its unit, as in English (schedule.NO_BREAK).
    return re.sub(r"(\d) ", "\\1" + schedule.NO_BREAK, said, count=1)


def listed(names: list[str], lang: str = SOURCE) -> str:
    """Names joined as prose in ``lang``: "a, b and c", "a, b y c", "a, b и c"."""
    names = [localized(name, lang) if isinstance(name, said.Said) else name for name in names]
    if chosen(lang) == SOURCE or len(names) < 2:
        return words.listed(names)
    return format_list(names, locale=locale(lang))
