"""JSON from outside (API requests, provider webhooks, case files): a value, or why there is none.

The standard library's parser recurses once per level of nesting, so ``[[[[...`` 200,000 deep
raises RecursionError, which is no ValueError and escaped every ``except ValueError`` as a 500.
Nesting is measured first, without recursion, and refused past ``MAX_DEPTH``; what the parser
still refuses (bad syntax, an integer of more than 4,300 digits) comes back as a value too.
"""

from __future__ import annotations

import json
import re
from typing import Any

from adjudicator.core.refusal import Refusal

# The deepest document the service reads is a 2 de Mayo position (docs/2demayo-json.md): five
# levels. 64 is far past any honest document and far inside the interpreter's recursion limit.
MAX_DEPTH = 64
# A JSON string, escapes included: brackets inside one are text, not nesting.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def depth(text: str) -> int:
    """How deeply arrays and objects nest in ``text`` (counted until past MAX_DEPTH)."""
    level = deepest = 0
    for found in _BRACKET.finditer(_STRING.sub("", text)):
        level += 1 if found.group() in "[{" else -1
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            break
    return deepest


def loads(data: str | bytes) -> Any | Refusal:
    """The JSON value in ``data``, or Refusal; never raises."""
    try:
        text = data.decode(json.detect_encoding(data)) if isinstance(data, bytes) else data
    except (UnicodeDecodeError, LookupError):
        return Refusal("not JSON: it is not text in UTF-8")
    if depth(text) > MAX_DEPTH:
        return Refusal(f"JSON nested more than {MAX_DEPTH} levels deep, which is not read")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:
        # JSONDecodeError says where; the digit limit's message names a Python setting instead.
        where = f": {error}" if isinstance(error, json.JSONDecodeError) else ""
        return Refusal(f"not JSON{where}")
