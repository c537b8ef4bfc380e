"""Readable text from an HTML body, for mail that carries no text of its own: a line per block,
blockquotes marked with ">" as text mail marks them, so the quote stripper sees them alike."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from adjudicator.mail.flowed import quote_prefix

_BLOCK_TAGS = frozenset(
    {
        *("address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset"),
        *("figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6"),
        *("header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table"),
        *("tbody", "tfoot", "thead", "tr", "ul"),
    }
)
_SKIPPED_TAGS = frozenset({"head", "script", "style", "title", "template"})
_HTML_SPACE = re.compile(r"[ \t\n\r\f]+")
_SPACES = re.compile(r" {2,}")


# HTML is converted a piece at a time, and no further once it has given more lines than are read
# for orders (extract.MAX_LINES): converting costs about half a second a megabyte.
_HTML_PIECE = 64 * 1024


def html_to_text(html: str, max_lines: int | None = None) -> str:
    """Readable text from an HTML body: a line per block, blockquotes marked with ">" as in text;
    with ``max_lines``, the conversion stops soon after that many lines."""
    converter = _HtmlText()
    for start in range(0, len(html), _HTML_PIECE):
        converter.feed(html[start : start + _HTML_PIECE])
        if max_lines is not None and len(converter.lines) > max_lines:
            break
    converter.close()
    converter.end_line()
    return "\n".join(converter.lines)


class _HtmlText(HTMLParser):
    """Collects lines of text; quoting becomes ">" so the quote stripper sees it as in text mail."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._current: list[str] = []
        self._quote_depth = 0
        self._skip_depth = 0
        self._pre_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED_TAGS:
            self._skip_depth += 1
        elif tag == "br":
            self.end_line(force=True)
        elif tag in _BLOCK_TAGS:
            self.end_line()
            self._quote_depth += tag == "blockquote"
            self._pre_depth += tag == "pre"
        elif tag in ("td", "th"):
            self._current.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS:
            self._skip_depth = max(0, self._skip_depth - 1)
        elif tag in _BLOCK_TAGS:
            self.end_line()
            if tag == "blockquote":
                self._quote_depth = max(0, self._quote_depth - 1)
            if tag == "pre":
                self._pre_depth = max(0, self._pre_depth - 1)

    def handle_data(self, data: str) -> None:
        if self._skip_depth:
            return
        if not self._pre_depth:
            self._current.append(_HTML_SPACE.sub(" ", data))
            return
        for number, piece in enumerate(data.split("\n")):
            if number:
                self.end_line(force=True)
            self._current.append(piece)

    def end_line(self, *, force: bool = False) -> None:
        """Finish the line being collected; empty lines only count when forced (a <br>)."""
        raw = "".join(self._current)
        self._current = []
        line = raw.replace("\xa0", " ")
        line = line.rstrip() if self._pre_depth else _SPACES.sub(" ", line).strip()
        # A block holding only &nbsp; is how Outlook and others write an empty line on purpose.
        if line or force or "\xa0" in raw:
            self.lines.append((quote_prefix(self._quote_depth) + line).rstrip())
