"""Jinja environments for the templates/ folder: plain text without escaping, HTML with it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from jinja2.ext import _make_new_gettext, _make_new_ngettext

from adjudicator import i18n

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def _installed(environment: Environment) -> Environment:
    """English by default (the identity); a render in another language passes its own
    ``gettext`` and ``ngettext`` (``in_language``)."""
    environment.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    return environment


@cache
def in_language(lang: str) -> dict[str, object]:
    """The ``gettext`` and ``ngettext`` a template's ``{% trans %}`` blocks call, in ``lang``
    (made once per language: every mail's render spreads them into its context)."""
    found = i18n.translations(lang)
    return {
        "gettext": _make_new_gettext(found.gettext),
        "ngettext": _make_new_ngettext(found.ngettext),
    }


@cache
def text_environment() -> Environment:
    return _installed(
        Environment(
            loader=FileSystemLoader(TEMPLATES),
            autoescape=False,
            undefined=StrictUndefined,
            extensions=["jinja2.ext.i18n"],
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
        )
    )


@cache
def html_environment() -> Environment:
    return _installed(
        Environment(
            loader=FileSystemLoader(TEMPLATES),
            autoescape=select_autoescape(default=True, default_for_string=True),
            undefined=StrictUndefined,
            extensions=["jinja2.ext.i18n"],
            trim_blocks=True,
            lstrip_blocks=True,
        )
    )


# Every HTML mail is a whole document: its language for screen readers, and the viewport a phone
# mail app lays it out in (without one, a phone shows it shrunk to a 980 px page).
DOCUMENT = (
    '<!DOCTYPE html>\n<html lang="{lang}">\n<head><meta charset="utf-8">'
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    # Said once here rather than on every cell: a receipt's table has three cells a line.
    "<style>h3{margin:16px 0 4px}table{border-collapse:collapse}"
    "td{padding:2px 8px;vertical-align:top}</style></head>\n"
    "<body>\n"
)
END = "</body>\n</html>\n"


def render_pair(name: str, context: dict[str, object]) -> tuple[str, str]:
    """``email/<name>.txt`` and ``email/<name>.html`` rendered with the same context, in the
    context's ``language`` (English when it names none)."""
    context = {**context, **in_language(str(context.get("language") or ""))}
    text = text_environment().get_template(f"email/{name}.txt").render(context)
    html = html_environment().get_template(f"email/{name}.html").render(context)
    lang = i18n.chosen(str(context.get("language") or ""))
    return text, DOCUMENT.replace("{lang}", lang) + html + END
