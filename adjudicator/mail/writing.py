"""How the service writes a mail as bytes: the SMTP policy with bodies never 8bit, its header
classes made once, and a writer that ends a body's lines all at once.

The stdlib's own ways are kept byte for byte (tests/mail/test_building_pictures.py holds them
to it); only the time they take is cut.
"""

from __future__ import annotations

import io
import re
from email import generator, headerregistry, policy
from email.header import Header
from email.message import Message
from typing import Any


# BaseHeader as well, as the registry makes it (typeshed types their max_count apart).
class _Subject(headerregistry.UniqueUnstructuredHeader, headerregistry.BaseHeader):  # type: ignore[misc]
    """A Subject in words other than ASCII, folded as encoded words that each hold their spaces:
    the stdlib's folder (Python 3.11) leaves the space between two words outside them, where a
    reader drops it ("приказы получены" read as "приказыполучены")."""

    def fold(self, *, policy: Any) -> str:
        stdlib = str(super().fold(policy=policy))
        if str(self).isascii() or stdlib.count(policy.linesep) == 1:  # one line: nothing lost
            return stdlib
        folded = Header(str(self), "utf-8", header_name=self.name).encode(linesep=policy.linesep)
        return f"{self.name}: {folded}{policy.linesep}"


class _HeaderClasses(headerregistry.HeaderRegistry):
    """The stdlib's header classes, each made once: its registry makes a new class every time a
    header is set or counted, some 60 us each, a good quarter of building a mail."""

    def __init__(self) -> None:
        super().__init__()
        self.map_to_type("subject", _Subject)
        self._made: dict[str, type[headerregistry.BaseHeader]] = {}
        self._parsed: dict[tuple[str, str], headerregistry.BaseHeader] = {}

    def __getitem__(self, name: str) -> type[headerregistry.BaseHeader]:
        key = name.lower()
        found = self._made.get(key)
        if found is None:
            found = self._made[key] = super().__getitem__(name)
        return found

    def __call__(self, name: str, value: Any) -> headerregistry.BaseHeader:
        """The header parsed once for the same name and value: every mail of a turn sets the
        same From, List-Id, Content-Type and the like, and parsing them (an address above all)
        is a good part of building a mail. A parsed header is never changed: setting a header
        or a parameter makes a new one."""
        if type(value) is not str:
            return super().__call__(name, value)
        key = (name, value)
        found = self._parsed.get(key)
        if found is None:
            if len(self._parsed) >= _HEADERS_KEPT:
                self._parsed.clear()  # most are per mail (To, Date, Message-ID): start over
            found = self._parsed[key] = super().__call__(name, value)
        return found


# Parsed headers kept, a few mails' worth.
_HEADERS_KEPT = 512

# The SMTP policy (CRLF line ends), but bodies never 8bit: not every relay speaks 8BITMIME, so
# non-ASCII text goes out quoted-printable or base64, whichever the stdlib finds shorter.
POLICY = policy.SMTP.clone(cte_type="7bit", header_factory=_HeaderClasses())
# Bytes a base64 line holds, as the stdlib encodes a part's bytes (contentmanager).
BASE64_BYTES = (POLICY.max_line_length or 78) // 4 * 3


class _Writer(generator.BytesGenerator):
    """The stdlib's writer of a message as bytes, but for a body's lines, their ends made the
    policy's at once, where the stdlib's writes each line and each line end one by one."""

    def _write_lines(self, lines: str) -> None:
        if lines:
            assert self.policy is not None  # set for the whole of flatten()
            self.write(_LINE_ENDS.sub(self.policy.linesep, lines))


# Line ends as the stdlib's generator finds them (email.generator.NLCRE).
_LINE_ENDS = re.compile(r"\r\n|\r|\n")


def as_bytes(msg: Message) -> bytes:
    """``msg.as_bytes()``, the same bytes, written by ``_Writer``."""
    out = io.BytesIO()
    _Writer(out, mangle_from_=False, policy=msg.policy).flatten(msg, unixfrom=False)
    return out.getvalue()
