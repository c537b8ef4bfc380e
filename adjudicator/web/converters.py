"""Numbers in URLs read as database integers: one that no column can hold names no page.

Without a bound, /games/9223372036854775808 reaches the database, which cannot compare the number
with a 64-bit column (SQLite raises OverflowError, PostgreSQL "out of range"): a 500 for a page
that simply does not exist.
"""

from __future__ import annotations

from werkzeug.routing import IntegerConverter, Map

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


CONVERTERS = {"int": RecordId, "count": Count}
