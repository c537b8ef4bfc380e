"""Text mail's line conventions: RFC 3676 format=flowed, and quoting marked with ">"."""

from __future__ import annotations


def unflow(text: str, *, delsp: bool) -> str:
    """Undo RFC 3676 format=flowed: join soft-broken lines (trailing space), keep quote depth."""
    out: list[str] = []
    pending: str | None = None
    pending_depth = 0
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        content = line[depth:]
        content = content.removeprefix(" ")  # space-stuffing
        flowed = content.endswith(" ") and content != "-- "
        if flowed and delsp:
            content = content[:-1]
        if pending is not None and depth != pending_depth:
            out.append(quote_prefix(pending_depth) + pending)  # broken flow: keep, don't merge
            pending = None
        pending = content if pending is None else pending + content
        pending_depth = depth
        if not flowed:
            out.append(quote_prefix(depth) + pending)
            pending = None
    if pending is not None:
        out.append(quote_prefix(pending_depth) + pending)
    return "\n".join(out)


def quote_prefix(depth: int) -> str:
    """What opens a line quoted ``depth`` deep: ">> " for two, nothing for none."""
    return ">" * depth + " " if depth else ""
