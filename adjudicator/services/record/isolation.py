"""Work done for many games at once (the tick) fails one game at a time.

A game whose own work raises (a row no check foresaw, a position that no longer loads) is logged
against that game and passed over, so that reminders, deadlines and mail go on for every other
game; the next tick tries it again.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

log = logging.getLogger(__name__)


@contextmanager
def apart(what: str, game_id: int, kind: str = "game") -> Iterator[None]:
    """Run the block for one game (or challenge, with ``kind``); an error in it is logged against
    that record and goes no further."""
    try:
        yield
    except Exception:
        log.exception(
            "%s %s: %s failed; the tick goes on with the others",
            kind,
            game_id,
            what,
            extra={f"{kind}_id": game_id},
        )
