"""Folding text for matching: accents, case and punctuation do not matter in orders or names."""

from __future__ import annotations

import re
import unicodedata

_NOT_WORD = re.compile(r"[^a-z0-9]+")


def plain(text: str) -> str:
    """Lower case without accents, compatibility forms made plain (NFKD): how order lines and
    the order words are compared."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def fold(text: str) -> str:
    """Lower-case ASCII words separated by single spaces: "Daoíz's" -> "daoizs"."""
    words = plain(text).replace("'", "").replace("\u2019", "")
    return _NOT_WORD.sub(" ", words).strip()
