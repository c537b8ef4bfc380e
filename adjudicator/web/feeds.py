"""A game's Atom feed: one entry per live turn, with ids that never change.

Built with ElementTree so that every text is escaped by the serializer, not by hand. An entry's id
names the game and the turn number, so a turn played again after a rollback updates the entry
readers already have rather than adding a second one. The game's end is an entry of its own,
the newest, whether the rules, a resignation or the game master ended it.
"""

from __future__ import annotations

from datetime import datetime
from xml.etree import ElementTree as ET

from adjudicator.services.reading.queries import GamePage
from adjudicator.statuses import GameStatus

# A game in one of these is over: its feed ends with an entry saying how.
ENDED = (GameStatus.FINISHED, GameStatus.CLOSED)

ATOM = "http://www.w3.org/2005/Atom"
# The tag URI's date only has to be one on which the domain was the service's; it never changes,
# or every id would change with it.
TAG_YEAR = "2026"


def tag(domain: str, game_id: int, turn: int | None = None) -> str:
    suffix = f"game-{game_id}" if turn is None else f"game-{game_id}-turn-{turn}"
    return f"tag:{domain},{TAG_YEAR}:{suffix}"


def _stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


def _sub(parent: ET.Element, name: str, text: str | None = None, **attributes: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{ATOM}}}{name}", attributes)
    if text is not None:
        element.text = text
    return element


def _end_entry(feed: ET.Element, page: GamePage, base: str, domain: str, ended: datetime) -> None:
    """The game's end, however it came (its rules, a resignation, the game master's END, a
    game closed): the newest entry, with an id of its own, since a game ends once."""
    game = page.game
    entry = _sub(feed, "entry")
    _sub(entry, "id", f"{tag(domain, game.id)}-end")
    _sub(entry, "title", f"Game over: {game.result}" if game.result else "Game over")
    _sub(entry, "updated", _stamp(ended))
    _sub(entry, "link", rel="alternate", type="text/html", href=f"{base}/games/{game.id}")
    latest = page.latest
    shown = f"\n\n{latest.description}" if latest is not None else ""
    _sub(
        entry,
        "summary",
        f"{page.title}, game {game.id} is over: {game.result}.{shown}",
        type="text",
    )


def _change_entries(feed: ET.Element, page: GamePage, base: str, domain: str) -> None:
    """The game master's changes every player was told of (a pause, a resumption, a deadline
    moved, a turn rolled back, a new player), newest first, each with an id of its own."""
    game = page.game
    for change in reversed(page.changes):
        entry = _sub(feed, "entry")
        _sub(entry, "id", f"{tag(domain, game.id)}-change-{change.id}")
        words = change.words[:1].upper() + change.words[1:]
        title = f"{words}: {change.note}" if change.note else words
        _sub(entry, "title", title)
        _sub(entry, "updated", _stamp(change.at))
        _sub(entry, "link", rel="alternate", type="text/html", href=f"{base}/games/{game.id}")
        turn = f" (turn {change.turn})" if change.turn else ""
        _sub(entry, "summary", f"{page.title}, game {game.id}{turn}: {title}.", type="text")


def game_feed(page: GamePage, base_url: str, domain: str) -> bytes:
    """The feed document; ``base_url`` makes the links absolute, as Atom readers need them."""
    ET.register_namespace("", ATOM)
    game = page.game
    base = base_url.rstrip("/")
    turns = page.live_turns
    ended = game.finished_at if game.status in ENDED else None
    updated = max(
        [
            game.created_at,
            *(turn.created_at for turn in turns),
            *(change.at for change in page.changes),
            *([ended] if ended else []),
        ]
    )
    feed = ET.Element(f"{{{ATOM}}}feed")
    _sub(feed, "id", tag(domain, game.id))
    _sub(feed, "title", f"{page.title}, game {game.id}")
    result = f" — {game.result}" if game.result else ""
    _sub(feed, "subtitle", f"{game.status}{result}")
    _sub(feed, "updated", _stamp(updated))
    _sub(feed, "link", rel="alternate", type="text/html", href=f"{base}/games/{game.id}")
    _sub(
        feed,
        "link",
        rel="self",
        type="application/atom+xml",
        href=f"{base}/games/{game.id}/feed.atom",
    )
    author = _sub(feed, "author")
    _sub(author, "name", "pbem")
    if ended is not None:
        _end_entry(feed, page, base, domain, ended)
    _change_entries(feed, page, base, domain)
    for turn in reversed(turns):
        entry = _sub(feed, "entry")
        _sub(entry, "id", tag(domain, game.id, turn.number))
        _sub(entry, "title", turn.title)
        _sub(entry, "updated", _stamp(turn.created_at))
        href = f"{base}/games/{game.id}/turns/{turn.number}"
        _sub(entry, "link", rel="alternate", type="text/html", href=href)
        # At the address of what it shows: a turn played again links its own picture.
        _sub(entry, "link", rel="enclosure", type="image/png", href=f"{base}{turn.picture}.png")
        _sub(entry, "summary", turn.description, type="text")
    body: bytes = ET.tostring(feed, encoding="utf-8", xml_declaration=True)
    return body
