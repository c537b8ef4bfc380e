"""Text from a mail's bytes, whatever charset it declares: mail clients lie about charsets, and
reading must fall back rather than fail."""

from __future__ import annotations

# Labels that mean Windows-1252 in practice (as browsers treat them): Outlook's "smart quotes"
# arrive declared as ISO-8859-1 and would otherwise become control characters.
_CP1252_LABELS = frozenset({"iso-8859-1", "iso8859-1", "latin-1", "latin1", "l1", "cp819"})

# C0 controls but tab, newline and carriage return: no person types them, they mean nothing to
# a parser, and PostgreSQL refuses NUL in text columns, which would park the mail as an error.
_CONTROLS = dict.fromkeys(i for i in range(32) if chr(i) not in "\t\n\r")


def decode(data: bytes, declared: str | None) -> str:
    """Bytes to text: the declared charset, then utf-8, then cp1252 with replacement."""
    candidates = []
    if declared:
        candidates.append("cp1252" if declared.strip().lower() in _CP1252_LABELS else declared)
    candidates.append("utf-8")
    for charset in candidates:
        try:
            return data.decode(charset)
        except Exception:  # unknown, misspelt or non-text codecs: try the next guess
            continue
    return data.decode("cp1252", errors="replace")


def clean(text: str) -> str:
    """Undo the parser's surrogate escapes (raw 8-bit or unknown charsets): utf-8, else cp1252."""
    if not any("\udc80" <= char <= "\udcff" for char in text):
        return no_controls(text)
    try:
        data = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return no_controls(text.encode("utf-8", "replace").decode("utf-8"))
    return no_controls(decode(data, None))


def no_controls(text: str) -> str:
    return text.translate(_CONTROLS)
