"""Readable text from an HTML body, for mail that carries no text of its own: a line per block,
quoted history marked with ">" as text mail marks it, so the quote stripper sees them alike.

Clients mark the mail they answer in HTML in their own ways besides <blockquote>: Yahoo, Zoho and
Thunderbird wrap it (or its attribution) in a classed element, marked with ">" like a blockquote;
Outlook (desktop, web, Mac) and Hotmail put a header block in a marked element above it and the
old mail after it, unmarked, to the end. There the text gets the line Outlook writes in text mail
above the same header block, ``ORIGINAL_MESSAGE``, which the quote stripper knows (whatever the
language of the fields below it) as where quoted history without ">" marks starts.
"""

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
# Elements whose content is quoted history: Yahoo's quoted mail, Zoho's, Thunderbird's attribution
# above the <blockquote>. (Not Gmail's "gmail_attr": it also holds a forward's separator and
# header block, with the forwarded mail after it unmarked, which the separator must cut.)
_QUOTE_CLASSES = frozenset({"yahoo_quoted", "zmail_extra", "moz-cite-prefix"})
ORIGINAL_MESSAGE = "-----Original Message-----"
# Elements after which everything is quoted history: Outlook on the web's and Hotmail's header
# block (and the mark they put above it), Outlook for Mac's, the older Hotmail's rule.
_HISTORY_IDS = frozenset(
    {
        *("divRplyFwdMsg", "x_divRplyFwdMsg", "appendonsend", "x_appendonsend"),
        *("stopSpelling", "mail-editor-reference-message-container", "OLK_SRC_BODY_SECTION"),
    }
)
_HISTORY_CLASSES = frozenset({"OutlookMessageHeader"})
# Outlook for Windows draws a rule above the header block as the top border of the <div> holding
# it, always in one of these two colours.
_OUTLOOK_RULE = re.compile(r"border-top:\s*solid\s+#(?:E1E1E1|B5C4DF)\s+1(?:\.0)?pt", re.IGNORECASE)
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
        # Per open <div>: whether it raised the quote depth; and whether the history has begun.
        self._divs: list[bool] = []
        self._history = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED_TAGS:
            self._skip_depth += 1
        elif tag == "br":
            self.end_line(force=True)
        elif tag in _BLOCK_TAGS:
            self.end_line()
            quoting = _quoting(attrs)
            if quoting == "history" and not self._history:
                self._history = True
                self.lines.append(quote_prefix(self._quote_depth) + ORIGINAL_MESSAGE)
            self._quote_depth += tag == "blockquote" or (tag != "blockquote" and quoting == "quote")
            if tag == "div":
                self._divs.append(quoting == "quote")
            self._pre_depth += tag == "pre"
        elif tag in ("td", "th"):
            self._current.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS:
            self._skip_depth = max(0, self._skip_depth - 1)
        elif tag in _BLOCK_TAGS:
            self.end_line()
            quoted = tag == "blockquote" or (tag == "div" and self._divs and self._divs.pop())
            if quoted:
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


def _quoting(attrs: list[tuple[str, str | None]]) -> str | None:
    """ "quote" when an element's content is quoted history, "history" when it and all after it
    are, else None."""
    found = {name: value or "" for name, value in attrs}
    classes = set(found.get("class", "").split())
    if found.get("id") in _HISTORY_IDS or classes & _HISTORY_CLASSES:
        return "history"
    if _OUTLOOK_RULE.search(found.get("style", "")):
        return "history"
    if classes & _QUOTE_CLASSES or found.get("type", "").lower() == "cite":
        return "quote"
    return None
