"""Replies from the big webmails and their apps: Gmail (web, Android, iOS), Outlook for Windows,
Outlook on the web and Hotmail, Yahoo, Zoho, Yandex, Mail.ru, GMX and web.de, Proton Mail.

Each function writes one reply the way that client does: its header fields in its order, its
Message-ID and boundary shapes, its text/plain (how it quotes: "> ", an unmarked header block,
an attribution over unmarked text) and its HTML with the client's own quote wrapper."""

from __future__ import annotations

from html import escape

from .mime import ident, mailbox, message, multipart, part, token, word
from .model import SENDER, Reply, html_body, html_lines, marked, own_blocks, wrapped

B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
WORD_PARAGRAPH = '<p class="MsoNormal">{}<o:p></o:p></p>\n'


def _gmail(reply: Reply, *, app: str) -> bytes:
    """Gmail: attribution and "> " quote in text/plain, hard-wrapped at 76; a gmail_quote
    blockquote in the HTML. The apps write dir="auto" where the web writes dir="ltr"."""
    direction = "ltr" if app == "web" else "auto"
    if reply.forward:
        lead = reply.lang.get("forwarded", "---------- Forwarded message ---------")
        rows = [
            f"From: <{SENDER}>",
            "Date: Mon, 7 Dec 2026 at 18:37",
            f"Subject: {reply.service.subject}",
            f"To: <{reply.address('gmail.com')}>",
        ]
        quote = "\n".join([lead, *rows, "", "", reply.service.text])
        attr_html = "<br>".join(escape(line) for line in [lead, *rows])
        quoted_html = f"<br><br>{html_body(reply.service.html)}"
    else:
        attribution = reply.phrase("gmail")
        quote = f"{attribution}\n\n{marked(reply.service.text)}"
        attr_html = escape(attribution)
        quoted_html = (
            '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px '
            f'solid rgb(204,204,204);padding-left:1ex">{html_body(reply.service.html)}</blockquote>'
        )
    text = wrapped(own_blocks(reply, quote))
    own = html_lines(reply.above, f'<div dir="{direction}">{{}}</div>')
    if reply.signature:
        own += (
            f'<br clear="all"><div><br></div><span class="gmail_signature_prefix">-- </span><br>'
            f'<div dir="ltr" class="gmail_signature">{html_lines(reply.signature)}</div>'
        )
    below = html_lines(reply.below, f'<div dir="{direction}">{{}}</div>') if reply.below else ""
    html = (
        f'<div dir="{direction}">{own}</div><br><div class="gmail_quote"><div dir="ltr" '
        f'class="gmail_attr">{attr_html}<br></div>{quoted_html}</div>{below}\n'
    )
    boundary = "000000000000" + token(reply.name + "b", 16)
    sender = reply.address("gmail.com")
    headers = [("MIME-Version", "1.0")]
    if not reply.forward:
        headers += [("References", reply.service.message_id)]
        headers += [("In-Reply-To", reply.service.message_id)]
    headers += [
        ("From", mailbox(reply.player, sender)),
        ("Date", reply.date()),
        ("Message-ID", f"<CA{token(reply.name, 40, B62)}@mail.gmail.com>"),
        ("Subject", word(reply.subject("Fwd:" if reply.forward else "Re:"))),
        ("To", reply.to),
        ("Content-Type", f'multipart/alternative; boundary="{boundary}"'),
    ]
    body = multipart(
        boundary,
        part("plain", text, '"UTF-8"', reply.cte or "quoted-printable"),
        part("html", html, '"UTF-8"', reply.cte or "quoted-printable"),
    )
    return message(headers, body)


def gmail_web(reply: Reply) -> bytes:
    return _gmail(reply, app="web")


def gmail_android(reply: Reply) -> bytes:
    return _gmail(reply, app="android")


def gmail_ios(reply: Reply) -> bytes:
    return _gmail(reply, app="ios")


def _outlook_rows(reply: Reply, labels: list[str], player: str) -> list[str]:
    """Outlook's header block: From, Sent, To, Subject in the writer's language."""
    values = [
        f"{SENDER} <{SENDER}>",
        reply.lang["outlook_date"],
        f"{reply.player} <{player}>",
        reply.service.subject,
    ]
    return [
        f"{label if label.endswith(':') else label + ':'} {value}"
        for label, value in zip(labels, values, strict=True)
    ]


def outlook_desktop(reply: Reply) -> bytes:
    """Outlook for Windows: the text/plain alternative has the old mail under an unmarked header
    block in the writer's language (no "-----Original Message-----" once HTML is on); the HTML
    is Word's, with the block in a top-bordered div. Signatures have no "-- " line."""
    player = reply.address("outlook.example")
    charset = reply.charset or "utf-8"
    rows = _outlook_rows(reply, reply.lang["outlook"], player)
    text = own_blocks(reply, "\n".join(rows) + "\n\n" + reply.service.text, delimiter="")
    paragraphs = html_lines(
        "\n\n".join(block for block in (reply.above, reply.signature) if block), WORD_PARAGRAPH
    )
    block = "<br>\n".join(
        f"<b>{escape(row.split(':', 1)[0])}:</b>{escape(row.split(':', 1)[1])}" for row in rows
    )
    html = (
        '<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:'
        'office" xmlns:w="urn:schemas-microsoft-com:office:word"><head><meta http-equiv="Content-'
        f'Type" content="text/html; charset={charset}"><meta name="Generator" '
        'content="Microsoft Word 15 (filtered medium)"><style><!-- p.MsoNormal {margin:0cm;'
        "font-size:11.0pt;font-family:"
        '"Calibri",sans-serif;} --></style></head><body lang="EN-GB" link="#0563C1" vlink="#954F72"'
        f' style="word-wrap:break-word"><div class="WordSection1">{paragraphs}'
        '<div><div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">'
        f'<p class="MsoNormal">{block}<o:p></o:p></p></div></div>'
        f"{html_body(reply.service.html)}"
        f"{html_lines(reply.below, WORD_PARAGRAPH) if reply.below else ''}"
        "</div></body></html>\n"
    )
    boundary = ident(reply.name, "----=_NextPart_000_{X4}_01DB68C2.{X8}")
    stamp = token(reply.name + "m", 8)
    prefix = reply.lang["outlook_fw"] if reply.forward else reply.lang["outlook_re"]
    # A forward names no mail it answers: Outlook writes no In-Reply-To or References for it.
    answers = [] if reply.forward else [("References", reply.service.message_id)]
    answers += [] if reply.forward else [("In-Reply-To", reply.service.message_id)]
    headers = [
        ("From", mailbox(reply.player, player, charset, q=True)),
        ("To", reply.to),
        *answers,
        ("Subject", word(reply.subject(prefix), charset, q=True)),
        ("Date", reply.date()),
        ("Message-ID", f"<000001db48c2${stamp}${token(reply.name + 'n', 8)}@outlook.example>"),
        ("MIME-Version", "1.0"),
        ("Content-Type", f'multipart/alternative;\n\tboundary="{boundary}"'),
        ("X-Mailer", "Microsoft Outlook 16.0"),
        ("Thread-Index", f"AQH{token(reply.name + 't', 29, B62)}"),
        ("Content-Language", reply.code),
    ]
    body = multipart(
        boundary,
        part("plain", text, f'"{charset}"', reply.cte or "quoted-printable"),
        part("html", html, f'"{charset}"', reply.cte or "quoted-printable"),
        preamble="This is a multipart message in MIME format.",
    )
    return message(headers, body)


def outlook_web(reply: Reply) -> bytes:
    """Outlook on the web and Outlook.com/Hotmail: a rule of underscores, then the header block
    and the old mail, unmarked; divRplyFwdMsg in the HTML. The mobile app adds "Get Outlook"."""
    player = reply.address("hotmail.example")
    labels = reply.lang.get("owa", reply.lang["outlook"])
    rows = _outlook_rows(reply, labels, player)
    quote = "_" * 32 + "\n" + "\n".join(rows) + "\n\n" + reply.service.text
    text = own_blocks(reply, quote, footer=reply.footer("outlook_mobile"), delimiter="")
    block = "<br>\n".join(
        f"<b>{escape(row.split(':', 1)[0])}:</b>{escape(row.split(':', 1)[1])}" for row in rows
    )
    html = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><style '
        'type="text/css" style="display:none;"> P {margin-top:0;margin-bottom:0;} </style></head>'
        '<body dir="ltr"><div class="elementToProof" style="font-family: Aptos, Aptos_EmbeddedFont'
        ', Calibri, Helvetica, sans-serif; font-size: 12pt; color: rgb(0, 0, 0);">'
        f"{html_lines(reply.above)}</div>"
        '<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">'
        '<div id="divRplyFwdMsg" dir="ltr"><font face="Calibri, sans-serif" style="font-size:11pt"'
        f' color="#000000">{block}</font><div>&nbsp;</div></div>'
        f"<div>{html_body(reply.service.html)}</div>"
        f"{html_lines(reply.below) if reply.below else ''}</body></html>\n"
    )
    server = f"AM9PR0{reply.seed % 9}MB{token(reply.name, 4).upper()}"
    mid = (
        f"<{server}{ident(reply.name, '{X28}')}@{server}.eurprd0{reply.seed % 9}.prod.outlook.com>"
    )
    boundary = f"_000_{mid[1:].split('@')[0]}eurp_"
    charset = reply.charset or "utf-8"
    headers = [
        ("From", mailbox(reply.player, player)),
        ("To", reply.to),
        ("Subject", word(reply.subject(reply.lang["outlook_re"]))),
        ("Thread-Topic", word(reply.service.subject)),
        ("Thread-Index", f"AQH{token(reply.name + 't', 29, B62)}"),
        ("Date", reply.date("+0000")),
        ("Message-ID", mid),
        ("References", reply.service.message_id),
        ("In-Reply-To", reply.service.message_id),
        ("Accept-Language", f"{reply.code}, en-US"),
        ("Content-Language", reply.code),
        ("X-MS-Has-Attach", ""),
        ("X-MS-TNEF-Correlator", ""),
        ("Content-Type", f'multipart/alternative;\n\tboundary="{boundary}"'),
        ("MIME-Version", "1.0"),
    ]
    body = multipart(
        boundary,
        part("plain", text, f'"{charset}"', reply.cte or "quoted-printable"),
        part("html", html, f'"{charset}"', reply.cte or "quoted-printable"),
    )
    return message(headers, body)


def yahoo(reply: Reply) -> bytes:
    """Yahoo Mail: the attribution indented by four spaces over the old mail, unmarked, in the
    text/plain; a yahoo_quoted div in the HTML. The Android app signs "Sent from Yahoo Mail"."""
    attribution = reply.phrase("yahoo")
    quote = f"    {attribution}  \n \n {reply.service.text}"
    text = own_blocks(reply, quote, footer=reply.footer("yahoo_mobile"), delimiter="")
    html = (
        '<html><head></head><body><div class="ydp3f7c9a2eyahoo-style-wrap" style="font-family:'
        'Helvetica Neue, Helvetica, Arial, sans-serif;font-size:13px;"><div dir="ltr" data-setdir'
        f'="false">{html_lines(reply.above)}</div></div><div id="yahoo_quoted_{reply.seed * 7919}"'
        ' class="yahoo_quoted"><div style="font-family:\'Helvetica Neue\', Helvetica, Arial, '
        f'sans-serif;font-size:13px;color:#26282a;"><div>{escape(attribution)}</div><div><br>'
        f'</div><div><br></div><div><div dir="ltr">{html_body(reply.service.html)}</div></div>'
        f"</div></div>{html_lines(reply.below) if reply.below else ''}</body></html>\n"
    )
    stamp = f"{1765133000000 + reply.seed * 977}"
    boundary = f"----=_Part_{2384917 + reply.seed}_{1147386023 + reply.seed}.{stamp}"
    mailer = "YahooMailAndroidMobile" if reply.mobile else "WebService/1.1.22077 YMailNorrin"
    headers = [
        ("Date", reply.date("+0000", suffix=" (UTC)")),
        ("From", mailbox(reply.player, reply.address("yahoo.example"))),
        ("To", reply.to),
        (
            "Message-ID",
            f"<{1827364519 + reply.seed}.{2384918 + reply.seed}.{stamp}@mail.yahoo.com>",
        ),
        *reply.ids,
        ("Subject", word(reply.subject())),
        ("MIME-Version", "1.0"),
        ("Content-Type", f'multipart/alternative;\n\tboundary="{boundary}"'),
        ("X-Mailer", mailer),
    ]
    cte = reply.cte or "quoted-printable"
    body = multipart(boundary, part("plain", text, "UTF-8", cte), part("html", html, "UTF-8", cte))
    return message(headers, body)


def zoho(reply: Reply) -> bytes:
    """Zoho Mail: "---- On ... wrote ----" over the old mail, unmarked, in the text/plain; a
    zmail_extra block with a plain blockquote in the HTML."""
    attribution = reply.phrase("zoho")
    text = own_blocks(reply, f"\n\n{attribution}\n\n\n\n{reply.service.text}", delimiter="")
    html = (
        '<html><head><meta content="text/html;charset=UTF-8" http-equiv="Content-Type"></head>'
        '<body><div style="font-family: Verdana, Arial, Helvetica, sans-serif; font-size: 10pt;">'
        f"{html_lines(reply.above)}"
        '<div class="zmail_extra_hr" style="border-top: 1px solid rgb(204, 204, 204); height: 0px;'
        ' margin-top: 10px; margin-bottom: 10px; line-height: 0px;"><br></div><div class="zmail_'
        'extra" data-zmail-extra="true"><div><br></div><div id="Zm-_Id_-Sgn1">'
        f"{escape(attribution)}"
        '</div><div><br></div><blockquote style="margin: 0px;">'
        f"{html_body(reply.service.html)}</blockquote></div><div><br></div>"
        f"{html_lines(reply.below) if reply.below else ''}</div><br></body></html>\n"
    )
    stamp = f"{1765133000000 + reply.seed * 331}"
    boundary = f"----=_Part_{reply.seed * 37}_{1390771234 + reply.seed}.{stamp}"
    headers = [
        ("Date", reply.date()),
        ("From", mailbox(reply.player, reply.address("zohomail.example"))),
        ("To", f'"{reply.to}" <{reply.to}>'),
        (
            "Message-Id",
            f"<{token(reply.name, 11)}.{token(reply.name + 'z', 8)}.{stamp}@zohomail.example>",
        ),
        *reply.ids,
        ("Subject", word(reply.subject())),
        ("MIME-Version", "1.0"),
        ("Content-Type", f'multipart/alternative;\n\tboundary="{boundary}"'),
        ("Importance", "Medium"),
        ("User-Agent", "Zoho Mail"),
        ("X-Mailer", "Zoho Mail"),
    ]
    cte = reply.cte or "quoted-printable"
    body = multipart(boundary, part("plain", text, "UTF-8", cte), part("html", html, "UTF-8", cte))
    return message(headers, body)


def proton(reply: Reply) -> bytes:
    """Proton Mail: "> " quote under its attribution, "Sent with Proton Mail" below the text;
    multipart/mixed around the alternative, as it sends even without attachments."""
    footer = reply.lang.get("proton_footer", "Sent with Proton Mail secure email.")
    quote = f"{reply.phrase('proton')}\n\n{marked(reply.service.text)}"
    # The footer is Proton's signature block, there in every mail, mobile or not.
    text = own_blocks(reply, quote, footer=footer, delimiter="", always=True)
    html = (
        f'<div style="font-family: Arial, sans-serif; font-size: 14px;">{html_lines(reply.above)}'
        '</div><div class="protonmail_signature_block" style="font-family: Arial, sans-serif; '
        f'font-size: 14px;"><div class="protonmail_signature_block-proton">{escape(footer)}</div>'
        '</div><div class="protonmail_quote">' + escape(reply.phrase("proton")) + "<br><blockquote"
        ' class="protonmail_quote" type="cite">' + html_body(reply.service.html) + "</blockquote>"
        f"<br></div>{html_lines(reply.below) if reply.below else ''}\n"
    )
    outer = "-" * 21 + token(reply.name + "o", 32)
    inner = "-" * 21 + token(reply.name + "i", 32)
    headers = [
        ("Date", reply.date("+0000", pad=True)),
        ("To", reply.to),
        ("From", mailbox(reply.player, reply.address("proton.example"))),
        ("Subject", word(reply.subject())),
        ("Message-ID", f"<{token(reply.name, 32, B62)}@proton.example>"),
        *reply.ids,
        ("Feedback-ID", "39503715:user:proton"),
        ("X-Pm-Message-ID", token(reply.name + "pm", 40)),
        ("MIME-Version", "1.0"),
        ("Content-Type", f'multipart/mixed;\n boundary="{outer}"'),
    ]
    cte = reply.cte or "quoted-printable"
    alternative = f'Content-Type: multipart/alternative;\n boundary="{inner}"\n\n'.encode()
    alternative += multipart(
        inner, part("plain", text, "utf-8", cte), part("html", html, "utf-8", cte)
    )
    body = multipart(outer, alternative, preamble="This is a multi-part message in MIME format.")
    return message(headers, body)
