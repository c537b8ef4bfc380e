"""A multipart mail's boundaries: random, short, and found in none of its bodies.

The stdlib makes each boundary 35-odd characters long and writes it two to five times per
multipart; these are 18. "=_" never starts a line of base64 or quoted-printable, and each random
tail is checked against every body the mail carries.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from email.message import EmailMessage

from adjudicator.mail.writing import as_bytes


def written(msg: EmailMessage, others: Sequence[bytes]) -> bytes:
    """The message as bytes with the boundaries ``short_boundaries`` gives it. Each multipart
    is written with a mark of a boundary's length, then the marks are replaced by random
    boundaries in the bytes: setting a random boundary parses its part's Content-Type again,
    a mail's header costliest to parse, three times a mail, while a mark's header is the same
    in every mail and parsed once (``writing._HeaderClasses``). Where a mark is found anywhere
    but in its boundary lines and its header, the boundaries are set as ``short_boundaries``
    does. ``others`` are the bytes put in the mail after it is written (``parts.StandIn``)."""
    bodies = _bodies(msg, others)
    multiparts = [part for part in msg.walk() if part.is_multipart()]
    marks = [f"=_{index:016x}" for index in range(len(multiparts))]
    if not any(mark in body for body in bodies for mark in marks):
        for part, mark in zip(multiparts, marks, strict=True):
            part.set_boundary(mark)
        raw = as_bytes(msg)
        # Once in the Content-Type, once before each of its parts, once after the last.
        lines = [len(part.get_payload()) + 2 for part in multiparts]
        if all(raw.count(mark.encode()) == n for mark, n in zip(marks, lines, strict=True)):
            chosen: set[str] = set()
            for mark in marks:
                boundary = _boundary(bodies)
                while boundary in chosen or boundary in marks:
                    boundary = _boundary(bodies)
                chosen.add(boundary)
                raw = raw.replace(mark.encode(), boundary.encode())
            return raw
    short_boundaries(msg, others)
    return as_bytes(msg)


def _bodies(msg: EmailMessage, others: Sequence[bytes]) -> list[str]:
    bodies = [str(part.get_payload()) for part in msg.walk() if not part.is_multipart()]
    return bodies + [other.decode("utf-8", "replace") for other in others]


def _boundary(bodies: Sequence[str]) -> str:
    """A random boundary of 18 characters found in none of the ``bodies``."""
    boundary = f"=_{secrets.token_hex(8)}"
    while any(boundary in body for body in bodies):
        boundary = f"=_{secrets.token_hex(8)}"
    return boundary


def short_boundaries(msg: EmailMessage, others: Sequence[bytes] = ()) -> None:
    """Boundaries of 18 characters instead of the stdlib's 35-odd, each found in no body sent
    as it is, nor in the ``others`` put in place of a stand-in (an attachment's data: a
    picture's base64 never holds "=_")."""
    bodies = _bodies(msg, others)
    for part in msg.walk():
        if part.is_multipart():
            part.set_boundary(_boundary(bodies))
