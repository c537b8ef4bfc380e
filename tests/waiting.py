"""A bounded wait on a running system, shared by the tests that drive whole processes."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Timeout(Exception):
    """A bounded wait ran out."""


def wait_for(what: str, probe: Callable[[], T], timeout: float, every: float = 0.05) -> T:
    """``probe()``'s first true value, asked every ``every`` seconds for up to ``timeout``."""
    limit = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > limit:
            raise Timeout(f"{what}: not within {timeout:.0f} s")
        time.sleep(every)
