"""Pictures at twice the size, for zooming on a phone and for sharp maps on dense screens, and
pictures in the page's language.

The mail's picture (scale 1, in English) is drawn once and stored with its turn; the web's at
scale 2, and any picture in another language (a page in Spanish shows its maps in Spanish), are
drawn on request by the game's own renderer from the same public view, in that language, and
the last few are kept (``Recent``): a turn page asks for its picture as every reader opens it,
and most readers read the latest turns. Nothing is stored: a picture is as public as the view
it is drawn from.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from adjudicator import i18n
from adjudicator.games import registry
from adjudicator.services.record import positions

ZOOM = 2  # the web's second picture: twice the width and height of the mail's
KEPT = 48  # pictures kept drawn, a few hundred KB each at most: a few MB a process at most


class Recent:
    """The ``size`` pictures asked for last, by key; the oldest is dropped for a new one.
    Threads share it (the server runs one per request), so each look-up holds a lock; the
    drawing itself is done outside it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, draw: Callable[[], bytes]) -> bytes:
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        drawn = draw()
        with self._lock:
            self._kept[key] = drawn
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return drawn

    def __len__(self) -> int:
        return len(self._kept)


RECENT = Recent(KEPT)


def turn_picture(
    game_key: str, view: object, lang: str = i18n.SOURCE, scale: int = ZOOM
) -> bytes | None:
    """A stored turn's public view drawn at ``scale`` in ``lang``, kept by what it shows: the
    view itself (its JSON's digest), never the turn's number or row, which a rollback or
    another database gives another position."""
    rules = registry.get(game_key)
    if rules is None:
        return None
    key = (game_key, lang, scale, positions.view_digest(view))

    def draw() -> bytes:
        with i18n.speaking(lang):
            return rules.render(view, None, scale)

    return RECENT.get(key, draw)
