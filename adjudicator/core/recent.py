"""The last few values made, by key: a picture drawn, a mail part encoded, kept for the next
request that asks for the same one. Most readers read the latest turns and every player's mail of
a turn carries the same parts, so a handful kept spares nearly all the work."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

KeyT = TypeVar("KeyT", bound=Hashable)
ValueT = TypeVar("ValueT")


class Recent(Generic[KeyT, ValueT]):
    """The ``size`` values asked for last, by key; the oldest is dropped for a new one.
    Threads share it (the server runs one per request), so each look-up holds a lock; the
    making itself is done outside it."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[KeyT, ValueT] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: KeyT, make: Callable[[], ValueT]) -> ValueT:
        """What is kept for ``key``, or ``make()`` kept for it now."""
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
                return found
        made = make()
        with self._lock:
            self._kept[key] = made
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return made

    def __len__(self) -> int:
        return len(self._kept)

    def __iter__(self) -> Iterator[KeyT]:
        """The keys kept, oldest first."""
        with self._lock:
            return iter(list(self._kept))
