"""Folding text for matching: accents, case and punctuation do not matter in orders or names."""

from __future__ import annotations

import re
import unicodedata

_NOT_WORD = re.compile(r"[^a-z0-9]+")


def fold(text: str) -> str:
    """Lower-case ASCII words separated by single spaces: "Daoíz's" -> "daoizs"."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()
    plain = plain.replace("'", "").replace("\u2019", "")
    return _NOT_WORD.sub(" ", plain).strip()
