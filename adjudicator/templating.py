"""Jinja environments for the templates/ folder: plain text without escaping, HTML with it."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, pass_context, select_autoescape
from jinja2.ext import _make_new_gettext, _make_new_ngettext
from jinja2.runtime import Context

from adjudicator import i18n
from adjudicator.core import said

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def _installed(environment: Environment) -> Environment:
    """English by default (the identity); a render in another language passes its own
    ``gettext`` and ``ngettext`` (``in_language``). A game's sentence or name made earlier
    (``said.Said``: a side's name, an outcome) is written in the render's language wherever it
    is shown, alone or in a ``{% trans %}`` block."""
    environment.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    environment.finalize = _shown
    return environment


@pass_context
def _shown(context: Context, value: Any) -> Any:
    if not isinstance(value, said.Said):
        return value
    lang = context.get("language")
    # A mail names its language; a page is rendered inside its reader's (web.languages).
    return i18n.localized(value, str(lang)) if lang else said.anew(value)


def _localizing(made: Callable[..., str], lang: str) -> Callable[..., str]:
    """A template's ``gettext``/``ngettext`` that writes the values it fills in ``lang`` too."""

    @pass_context
    def translated(context: Context, *strings: Any, **variables: Any) -> str:
        return made(context, *strings, **i18n.written(variables, lang))

    return translated


@cache
def in_language(lang: str) -> dict[str, object]:
    """The ``gettext`` and ``ngettext`` a template's ``{% trans %}`` blocks call, in ``lang``
    (made once per language: every mail's render spreads them into its context)."""
    found = i18n.translations(lang)
    return {
        "gettext": _localizing(_make_new_gettext(found.gettext), lang),
        "ngettext": _localizing(_make_new_ngettext(found.ngettext), lang),
    }


def is_mail_template(name: str) -> bool:
    return name.startswith("email/")


def _environment(**options: Any) -> Environment:
    """The mail templates' environment, plain or HTML by ``options``. Compiled once per process
    and never looked at again (``auto_reload`` off): a render no longer asks the disk whether
    its template changed, since it never does while the service runs."""
    return _installed(
        Environment(
            loader=FileSystemLoader(TEMPLATES),
            auto_reload=False,
            undefined=StrictUndefined,
            extensions=["jinja2.ext.i18n"],
            trim_blocks=True,
            lstrip_blocks=True,
            **options,
        )
    )


@cache
def text_environment() -> Environment:
    return _environment(autoescape=False, keep_trailing_newline=True)


@cache
def html_environment() -> Environment:
    return _environment(autoescape=select_autoescape(default=True, default_for_string=True))


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
