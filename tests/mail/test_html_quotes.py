"""Quoted history in HTML-only replies, as each client marks it, is read as quoted."""

from __future__ import annotations

import pytest

from adjudicator.mail.extract import order_lines
from adjudicator.mail.html_text import ORIGINAL_MESSAGE, html_to_text

NEW = '<div dir="ltr">A Sparta hold<br>F Gytheio hold</div>'
OLD = "<div>Game 12, turn 3: your orders, please.</div><div>A Argos hold</div>"
ATTRIBUTION = "On Mon, 4 Mar 2024 at 10:12, PBEM Judge &lt;orders@pbem.example&gt; wrote:"

# The HTML each client writes around the mail it answers (reduced to what marks it).
CLIENTS = {
    "gmail": (
        f'{NEW}<br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">{ATTRIBUTION}'
        f'<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">{OLD}'
        "</blockquote></div>"
    ),
    "apple-mail": (
        f'{NEW}<div><br><blockquote type="cite"><div>{ATTRIBUTION}</div><br>'
        f'<div><blockquote type="cite">{OLD}</blockquote></div></blockquote></div>'
    ),
    "outlook-web": (
        f'{NEW}<div id="appendonsend"></div><hr style="display:inline-block;width:98%" '
        'tabindex="-1"><div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" '
        'style="font-size:11pt" color="#000000"><b>Von:</b> PBEM Judge<br><b>Gesendet:</b> '
        "Montag, 4. März 2024 10:12<br><b>An:</b> Sparta<br><b>Betreff:</b> Game 12</font>"
        f"<div>&nbsp;</div></div>{OLD}"
    ),
    "hotmail-forwarded": (
        f'{NEW}<hr style="display:inline-block;width:98%"><div id="x_divRplyFwdMsg" dir="ltr">'
        "<b>发件人:</b> PBEM Judge<br><b>发送时间:</b> 2024年3月4日 10:12</div>"
        f"<div>{OLD}</div>"
    ),
    "outlook-desktop": (
        f'<div class="WordSection1"><p class="MsoNormal">A Sparta hold<o:p></o:p></p>'
        '<p class="MsoNormal">F Gytheio hold<o:p></o:p></p><div><div style="border:none;'
        'border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal">'
        "<b>Od:</b> PBEM Judge<br><b>Wysłano:</b> poniedziałek, 4 marca 2024 10:12</p></div>"
        f'</div><p class="MsoNormal">&nbsp;</p>{OLD}</div>'
    ),
    "outlook-mac": (
        f'{NEW}<div id="mail-editor-reference-message-container"><div style="border:none;'
        'border-top:solid #B5C4DF 1.0pt;padding:3.0pt 0in 0in 0in"><b>From: </b>PBEM Judge'
        f"<br><b>Date: </b>Monday, 4 March 2024 at 10:12</div>{OLD}</div>"
    ),
    "yahoo": (
        f'{NEW}<div id="yahoo_quoted_123" class="yahoo_quoted"><div style="font-size:13px">'
        f"<div>{ATTRIBUTION}</div><div><br></div><div><div>{OLD}</div></div></div></div>"
    ),
    "thunderbird": (
        f'{NEW}<div class="moz-cite-prefix">Am 04.03.24 um 10:12 schrieb PBEM Judge:<br></div>'
        f'<blockquote type="cite" cite="mid:1@pbem.example">{OLD}</blockquote>'
    ),
    "zoho": (
        f'{NEW}<div class="zmail_extra_hr" style="border-top: 1px solid rgb(204, 204, 204)">'
        '</div><div class="zmail_extra" data-zmail_extra=""><div><br></div><div id="Zm-_Id_-Sgn1">'
        f"---- On Mon, 04 Mar 2024 10:12:00 +0000 <b>PBEM Judge</b> wrote ---</div><br>"
        f'<blockquote style="margin:0px 0px 0px 0.8ex">{OLD}</blockquote></div>'
    ),
}


@pytest.mark.parametrize("client", sorted(CLIENTS))
def test_html_quote_is_read_as_quoted(client: str) -> None:
    text = html_to_text(f"<html><body>{CLIENTS[client]}</body></html>")
    assert order_lines(text) == ["A Sparta hold", "F Gytheio hold"]
    # The old mail is there, marked as a quote (or below Outlook's separator), whatever the reader
    # makes of the lines above it.
    marked = {"> A Argos hold", ">> A Argos hold"} & set(text.split("\n"))
    assert marked or ORIGINAL_MESSAGE in text.split("\n")


def test_text_below_a_thunderbird_quote_is_the_players() -> None:
    html = (
        '<div class="moz-cite-prefix">On 04/03/2024 10:12, PBEM Judge wrote:<br></div>'
        f'<blockquote type="cite">{OLD}</blockquote><p>A Sparta hold</p>'
    )
    assert order_lines(html_to_text(html)) == ["A Sparta hold"]


def test_a_classed_quote_ends_with_its_element() -> None:
    html = f'<div class="yahoo_quoted"><div><div>{OLD}</div></div></div><div>A Sparta hold</div>'
    assert html_to_text(html).split("\n")[-1] == "A Sparta hold"


def test_an_outlook_mark_becomes_the_separator_outlook_writes_in_text() -> None:
    # The header block below is in no language the reader knows: the separator alone tells.
    html = (
        f'{NEW}<div id="appendonsend"></div><div id="divRplyFwdMsg"><b>Fra:</b> X<br>'
        f"<b>Zzz:</b> 4</div><div><div>{OLD}</div></div>"
    )
    text = html_to_text(html).split("\n")
    assert text[2:4] == [ORIGINAL_MESSAGE, "Fra: X"]
    assert order_lines("\n".join(text)) == ["A Sparta hold", "F Gytheio hold"]


def test_a_gmail_forward_in_html_is_cut_at_its_separator() -> None:
    html = (
        f'{NEW}<br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">---------- '
        "Forwarded message ---------<br>From: &lt;pbem@pbem.example&gt;<br>Date: Mon, 7 Dec "
        f"2026 at 18:37<br>Subject: Game 12<br></div><br><br>{OLD}</div>"
    )
    assert order_lines(html_to_text(html)) == ["A Sparta hold", "F Gytheio hold"]
