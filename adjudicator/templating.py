"""Jinja environments for the templates/ folder: plain text without escaping, HTML with it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@cache
def text_environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=False,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


@cache
def html_environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


# Every HTML mail is a whole document: its language for screen readers, and the viewport a phone
# mail app lays it out in (without one, a phone shows it shrunk to a 980 px page).
DOCUMENT = (
    '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    # Said once here rather than on every cell: a receipt's table has three cells a line.
    "<style>h3{margin:16px 0 4px}table{border-collapse:collapse}"
    "td{padding:2px 8px;vertical-align:top}</style></head>\n"
    "<body>\n"
)
END = "</body>\n</html>\n"


def render_pair(name: str, context: dict[str, object]) -> tuple[str, str]:
    """``email/<name>.txt`` and ``email/<name>.html`` rendered with the same context."""
    text = text_environment().get_template(f"email/{name}.txt").render(context)
    html = html_environment().get_template(f"email/{name}.html").render(context)
    return text, DOCUMENT + html + END
