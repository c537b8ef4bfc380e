"""The standard library's header classes, each made once, and each header parsed once for the
same name and value: the policies the service reads (``reading.POLICY``) and writes
(``writing.POLICY``) mail with use them. The stdlib's ``email.policy.default`` parses a header
anew each time it is read, which was most of the time reading a mail took."""

from __future__ import annotations

from email import headerregistry
from email.header import Header
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


class HeaderClasses(headerregistry.HeaderRegistry):
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
        is a good part of building a mail, and reading one asks for its Content-Type a dozen
        times. A parsed header is never changed: setting a header or a parameter makes a new
        one."""
        if type(value) is not str:
            return super().__call__(name, value)
        key = (name, value)
        found = self._parsed.get(key)
        if found is None:
            if len(self._parsed) >= HEADERS_KEPT:
                self._parsed.clear()  # most are per mail (To, Date, Message-ID): start over
            found = self._parsed[key] = super().__call__(name, value)
        return found


# Parsed headers kept, a few mails' worth.
HEADERS_KEPT = 512
