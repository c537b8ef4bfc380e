"""Numbers in URLs read as database integers: one that no column can hold names no page.

Without a bound, /games/9223372036854775808 reaches the database, which cannot compare the number
with a 64-bit column (SQLite raises OverflowError, PostgreSQL "out of range"): a 500 for a page
that simply does not exist.

A picture's language in its address (``<language:...>``) is read the same way: a code with no
catalog names no picture, a 404 rather than a picture in some other language.
"""

from __future__ import annotations

from werkzeug.routing import BaseConverter, IntegerConverter, Map, ValidationError

from adjudicator import i18n

# Record ids are 64-bit (BigInteger; SQLite's INTEGER). Counters such as turn numbers are 32-bit.
ID_MAX = 2**63 - 1
COUNT_MAX = 2**31 - 1


class RecordId(IntegerConverter):
    """``<int:...>``: a record id, 0 to ID_MAX."""

    def __init__(self, map: Map, fixed_digits: int = 0, min: int | None = None) -> None:
        super().__init__(map, fixed_digits, min, ID_MAX)


class Count(IntegerConverter):
    """``<count:...>``: a number kept in a 32-bit column (a turn number), 0 to COUNT_MAX."""

    def __init__(self, map: Map, fixed_digits: int = 0, min: int | None = None) -> None:
        super().__init__(map, fixed_digits, min, COUNT_MAX)


class Language(BaseConverter):
    """``<language:...>``: a language a picture is drawn in other than English ("es", "ru"),
    one with a catalog (``i18n.languages``); English pictures have addresses without one, so
    any other code names no picture."""

    regex = "[a-z]{2,3}"

    def to_python(self, value: str) -> str:
        if value == i18n.SOURCE or value not in i18n.languages():
            raise ValidationError()
        return value


class Digest(BaseConverter):
    """``<digest:...>``: the digest of what a turn's picture shows, as its address carries it
    (``services.outbound.turn_pictures``): lower-case hex of a fixed length, nothing else."""

    regex = "[0-9a-f]{20}"


CONVERTERS = {"int": RecordId, "count": Count, "language": Language, "digest": Digest}
