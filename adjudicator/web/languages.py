"""The reader's language on the site: chosen per request, held around the request's work.

A page is written in the language its reader asks for: ``?lang=es`` (remembered in a cookie, so
the page's own links keep it), else the language the cookie remembers, else the browser's
``Accept-Language``, else English. While a request runs, ``i18n.speaking`` holds that language,
so the templates' ``{% trans %}`` blocks, the web's own sentences and the games' sentences
(``core.said``) all come out in it. The feed and the charts stay in English, shared by every
reader: a browser's cache of them never depends on the language. The maps a page shows are in
its language, each language's at an address of its own (``picture_address``): an English page
shows the stored pictures, a page in another language the same drawn in it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote, urlencode

from babel.dates import format_datetime
from flask import Flask, Response, request

from adjudicator import i18n
from adjudicator.core import said

PARAMETER = "lang"
COOKIE = "lang"
COOKIE_DAYS = 365
# The parts of the site people read; the webhooks, the API and the operations page are English.
READ = frozenset({"archive", "help", "panel"})
# Shared by every reader and cached as such (stored pictures, charts, the feed).
AS_STORED = (".png", ".atom", ".js")

# The status words a page shows for a game (statuses.GameStatus, listing.STATUS_FILTERS).
STATUS_WORDS = {
    "forming": i18n.N_("forming"),
    "active": i18n.N_("active"),
    "finished": i18n.N_("finished"),
    "closed": i18n.N_("closed"),
}
# Why a turn was resolved (services.record.reasons.TURN_REASONS), as the pages show it.
TURN_REASONS = (
    i18n.N_("the game began"),
    i18n.N_("the orders arrived"),
    i18n.N_("the deadline passed"),
    i18n.N_("everyone had sent orders"),
    i18n.N_("forced by the game master"),
    i18n.N_("resolved"),
)


def _read() -> bool:
    return request.blueprint in READ and not request.path.endswith(AS_STORED)


def asked() -> str:
    """The language this request asks for: ``?lang=``, the cookie, ``Accept-Language``, English."""
    for given in (request.args.get(PARAMETER, ""), request.cookies.get(COOKIE, "")):
        found = i18n.supported(given)
        if found:
            return found
    best = request.accept_languages.best_match(i18n.languages())
    return i18n.chosen(best or "")


def current() -> str:
    """The language the current page is written in."""
    return said.language()


def _template_gettext(message: str) -> str:
    return i18n.translations(current()).gettext(message)


def _template_ngettext(singular: str, plural: str, n: int) -> str:
    return i18n.translations(current()).ngettext(singular, plural, n)


def gettext(message: str, **values: Any) -> str:
    """``message`` in the page's language, its ``%(name)s`` placeholders filled: the web's
    own sentences (flashes, errors)."""
    return i18n.gettext(message, current(), **values)


def moment(when: datetime, short: bool = False) -> str:
    """A moment in UTC as a page writes it before the browser puts it in its reader's zone."""
    if current() == i18n.SOURCE:
        return when.strftime("%d %b %H:%M" if short else "%Y-%m-%d %H:%M")
    pattern = "d MMM HH:mm" if short else "d MMM y HH:mm"
    return format_datetime(when.astimezone(UTC), pattern, locale=i18n.locale(current()))


def from_now(when: datetime, now: datetime) -> str:
    return i18n.relative(when, now, current())


def deadline_in(iso: str | None, zone: str, english: str | None) -> str | None:
    """A deadline (``iso``, UTC) on ``zone``'s clock as the mail writes it, in the page's
    language; ``english`` is the same already written in English."""
    if not iso or not zone or current() == i18n.SOURCE:
        return english
    try:
        when = datetime.fromisoformat(iso.replace("Z", "+00:00"))
        return i18n.shown(when, zone, datetime.now(UTC), current())
    except (ValueError, KeyError):  # a zone checked when it was set; never fail a page
        return english


def status_word(status: str) -> str:
    word = STATUS_WORDS.get(str(status))
    return gettext(word) if word else str(status)


def switcher() -> list[dict[str, Any]]:
    """The links to this page in each language: the same address and query, ``lang`` set."""
    args = [(key, value) for key, value in request.args.items(multi=True) if key != PARAMETER]
    path = quote(request.script_root + request.path)
    links = []
    for code in i18n.languages():
        query = urlencode([*args, (PARAMETER, code)])
        links.append(
            {
                "code": code,
                "name": i18n.named(code),
                "href": f"{path}?{query}",
                "current": code == current(),
            }
        )
    return links


def picture_address(base: str, zoom: int = 1) -> str:
    """The address of the map at ``base`` (a turn's ``/games/3/turns/2/<digest>``, whose
    digest names what it shows: ``TurnPage.picture``; ``/help/2demayo/board``) in the page's
    language, at ``zoom``: ``….png`` and ``…@2x.png`` in English (the stored picture and its
    double), ``….es.png`` and ``….es@2x.png`` in Spanish. A picture is cached as long as it may
    be, so each language's, and each version's of a turn, has an address of its own."""
    lang = "" if current() == i18n.SOURCE else f".{current()}"
    size = "" if zoom == 1 else f"@{zoom}x"
    return f"{base}{lang}{size}.png"


def query_without_language() -> str:
    """This request's query without ``lang``: for links to what does not depend on it."""
    if PARAMETER not in request.args:
        return request.query_string.decode()
    return urlencode([(k, v) for k, v in request.args.items(multi=True) if k != PARAMETER])


def _context() -> dict[str, Any]:
    return {"page_language": current(), "languages": switcher}


def _headers(response: Response) -> Response:
    if not _read():
        return response
    response.headers["Content-Language"] = current()
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    given = i18n.supported(request.args.get(PARAMETER, ""))
    if given and request.cookies.get(COOKIE) != given:
        response.set_cookie(
            COOKIE,
            given,
            max_age=COOKIE_DAYS * 24 * 3600,
            samesite="Lax",
            secure=request.is_secure,
        )
    return response


@contextmanager
def speaking() -> Iterator[None]:
    """The request's language held around its work (English outside the pages people read)."""
    with i18n.speaking(asked() if _read() else i18n.SOURCE):
        yield


class Site(Flask):
    """The app: each request is handled in its reader's language."""

    def full_dispatch_request(self) -> Response:
        with speaking():
            return super().full_dispatch_request()


def install(app: Flask) -> None:
    """The i18n extension and the page language in the site's templates."""
    app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        _template_gettext, _template_ngettext, newstyle=True
    )
    app.jinja_env.filters["anew"] = said.anew
    app.jinja_env.filters["status_word"] = status_word
    app.jinja_env.filters["shown_at"] = moment
    app.jinja_env.globals.update(
        noun_phrase=noun_phrase,
        played=played,
        deadline_in=deadline_in,
        query_without_language=query_without_language,
        picture_address=picture_address,
    )
    app.context_processor(_context)
    app.after_request(_headers)


# A game's word for one stored turn (Rules.turn_noun) in the phrases the pages put it in: each
# phrase a sentence of its own, since another language declines the noun ("после хода 3").
NOUN_PHRASES: dict[str, dict[str, str]] = {
    "turn": {
        "after": i18n.N_("After turn %(number)s"),
        "title": i18n.N_("Turn %(number)s"),
        "many": i18n.N_("Turns"),
        "next": i18n.N_("the next turn"),
        "again": i18n.N_("The turn was played again under the same number, with the same dice."),
    },
    "step": {
        "after": i18n.N_("After step %(number)s"),
        "title": i18n.N_("Step %(number)s"),
        "many": i18n.N_("Steps"),
        "next": i18n.N_("the next step"),
        "again": i18n.N_("The step was played again under the same number, with the same dice."),
    },
}
# The same in English for a noun no table lists: the page as it was written before.
ENGLISH_PHRASES = {
    "after": "After {noun} %(number)s",
    "title": "{Noun} %(number)s",
    "many": "{Noun}s",
    "next": "the next {noun}",
    "again": "The {noun} was played again under the same number, with the same dice.",
}


def noun_phrase(noun: str, phrase: str, **values: Any) -> str:
    """``phrase`` ("after", "title", "many", "next", "again") said of the game's ``noun``."""
    known = NOUN_PHRASES.get(noun)
    if known is not None:
        return gettext(known[phrase], **values)
    english = ENGLISH_PHRASES[phrase].format(noun=noun, Noun=noun.capitalize())
    return english % values if values else english


def played(noun: str, count: int) -> str:
    """ "3 turns played", the noun and its number agreeing in the page's language."""
    if noun == "step":
        return i18n.ngettext("%(num)s step played", "%(num)s steps played", count, current())
    if noun == "turn":
        return i18n.ngettext("%(num)s turn played", "%(num)s turns played", count, current())
    return f"{count} {noun}{'' if count == 1 else 's'} played"
