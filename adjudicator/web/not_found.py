"""Not Found: the one answer a page gives for what does not exist and for what the public may
not see, so that no answer tells the two apart."""

from __future__ import annotations

from typing import TypeVar

from flask import abort

FoundT = TypeVar("FoundT")


def or_404(found: FoundT | None) -> FoundT:
    """``found``, or the request ends as 404 Not Found where there is nothing."""
    if found is None:
        abort(404)
    return found
