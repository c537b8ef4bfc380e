"""Replies from mail programs and phone apps: Apple Mail on macOS and the iPhone (format=flowed),
Thunderbird (plain and HTML), K-9 Mail / Thunderbird for Android, Samsung Email, Horde, and the
Android apps that write "-----Reply Message-----" or NetEase's "---- Replied Message ----".

Each function writes one reply the way that program does (see webmail.py for the webmails)."""

from __future__ import annotations

from html import escape

from .mime import encode_body, ident, mailbox, message, multipart, part, token, word
from .model import (
    SENDER,
    Reply,
    answered,
    flowed,
    html_body,
    html_lines,
    marked,
    own_blocks,
)


def _uuid(seed: str) -> str:
    return ident(seed, "{X8}-{X4}-{X4}-{X4}-{X12}")


def apple_mail(reply: Reply) -> bytes:
    """Apple Mail on macOS: the attribution inside the "> " quote in the text/plain, a
    blockquote type="cite" in the HTML, boundary Apple-Mail=_UUID."""
    quote = marked(f"{reply.phrase('apple')}\n\n{reply.service.text}")
    text = own_blocks(reply, quote, delimiter="")
    html = (
        '<html aria-label="message body"><head><meta http-equiv="content-type" content="text/html;'
        ' charset=utf-8"></head><body style="overflow-wrap: break-word; -webkit-nbsp-mode: space; '
        f'line-break: after-white-space;">{html_lines(reply.above)}'
        '<br id="lineBreakAtBeginningOfMessage"><div><br><blockquote type="cite"><div>'
        f'{escape(reply.phrase("apple"))}</div><br class="Apple-interchange-newline"><div>'
        f"{html_body(reply.service.html)}</div></blockquote></div><br>"
        f"{html_lines(reply.below) if reply.below else ''}</body></html>\n"
    )
    boundary = f"Apple-Mail={_uuid(reply.name + 'b')}"
    headers = [
        ("From", mailbox(reply.player, reply.address("icloud.example"))),
        ("Content-Type", f'multipart/alternative;\n\tboundary="{boundary}"'),
        ("Mime-Version", "1.0 (Mac OS X Mail 16.0 \\(3774.200.91.1.1\\))"),
        ("Subject", word(reply.subject())),
        ("Date", reply.date()),
        *reply.ids,
        ("To", reply.to),
        ("Message-Id", f"<{_uuid(reply.name)}@icloud.example>"),
        ("X-Mailer", "Apple Mail (2.3774.200.91.1.1)"),
    ]
    cte = reply.cte or "quoted-printable"
    body = multipart(
        boundary,
        part("plain", text, "us-ascii" if text.isascii() else "utf-8", cte),
        part("html", html, "us-ascii" if html.isascii() else "utf-8", cte),
    )
    return message(headers, body)


def iphone(reply: Reply) -> bytes:
    """Mail on the iPhone: format=flowed with DelSp, quoted-printable; "Sent from my iPhone" in
    the phone's language under the text; the attribution inside the "> " quote."""
    # iOS starts the quoted mail with a byte order mark, as Apple's own forwards show.
    quote = marked(f"{reply.phrase('apple')}\n\n\ufeff{reply.service.text}")
    if reply.inline:
        quote = f"> {reply.phrase('apple')}\n>\n" + answered(reply.service.text, reply.inline)
    if reply.forward:
        lead, sender, date, to, subject, when = reply.lang["apple_forward"]
        rows = [f"{sender} {SENDER}", f"{date} {when}", f"{to} {reply.address('me.example')}"]
        rows.append(f"{subject} {reply.service.subject}")
        quote = lead + "\n\n" + marked("\n".join(rows) + "\n\n\ufeff" + reply.service.text)
    text = flowed(own_blocks(reply, quote, footer=reply.lang["iphone"], delimiter=""), delsp=True)
    headers = [
        ("From", mailbox(reply.player, reply.address("me.example"))),
        ("Content-Type", "text/plain;\n\tcharset=utf-8;\n\tformat=flowed;\n\tdelsp=yes"),
        ("Content-Transfer-Encoding", reply.cte or "quoted-printable"),
        ("Mime-Version", "1.0 (1.0)"),
        ("Date", reply.date()),
        ("Subject", word(reply.subject("Fwd:" if reply.forward else "Re:"))),
        ("Message-Id", f"<{_uuid(reply.name)}@me.example>"),
        *reply.ids,
        ("To", reply.to),
        ("X-Mailer", "iPhone Mail (22B91)"),
    ]
    return message(headers, encode_body(text, "utf-8", reply.cte or "quoted-printable"))


def _thunderbird_quote(reply: Reply) -> str:
    if reply.forward:
        labels = reply.lang.get(
            "tb_forward", ["Forwarded Message", "Subject", "Date", "From", "To"]
        )
        values = [
            reply.service.subject,
            "Mon, 7 Dec 2026 18:37:12 +0000",
            SENDER,
            reply.address("posteo.example"),
        ]
        rows = [f"-------- {labels[0]} --------"] + [
            f"{label.removesuffix(':').rstrip()}{' :' if label.endswith(' :') else ':'} \t{value}"
            for label, value in zip(labels[1:], values, strict=True)
        ]
        return "\n".join(rows) + "\n\n\n\n" + reply.service.text
    if reply.inline:
        return f"{reply.phrase('thunderbird')}\n" + answered(reply.service.text, reply.inline)
    return f"{reply.phrase('thunderbird')}\n{marked(reply.service.text)}"


def _thunderbird_headers(reply: Reply, content: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [
        (
            "Message-ID",
            ident(reply.name, "<{8}-{4}-{4}-{4}-{12}@posteo.example>"),
        ),
        ("Date", reply.date()),
        ("MIME-Version", "1.0"),
        ("User-Agent", "Mozilla Thunderbird"),
        ("Subject", word(reply.subject("Fwd:" if reply.forward else "Re:"), q=True)),
        ("Content-Language", reply.code),
        ("To", reply.to),
        *([] if reply.forward else [("References", reply.service.message_id)]),
        ("From", mailbox(reply.player, reply.address("posteo.example"), q=True)),
        *([] if reply.forward else [("In-Reply-To", reply.service.message_id)]),
        *content,
    ]


def thunderbird(reply: Reply) -> bytes:
    """Thunderbird in plain text: format=flowed, 8bit; "-- " before the signature; inline and
    bottom-posted replies under the "> " quote; forwards inline under its separator."""
    text = flowed(own_blocks(reply, _thunderbird_quote(reply)), delsp=False)
    charset = reply.charset or "UTF-8"
    content = [
        ("Content-Type", f"text/plain; charset={charset}; format=flowed"),
        ("Content-Transfer-Encoding", reply.cte or "8bit"),
    ]
    return message(
        _thunderbird_headers(reply, content), encode_body(text, charset, reply.cte or "8bit")
    )


def thunderbird_html(reply: Reply) -> bytes:
    """Thunderbird composing HTML: multipart/alternative, the moz-cite-prefix div and a
    blockquote type="cite" in the HTML, the same text as plain composition in text/plain."""
    text = flowed(own_blocks(reply, _thunderbird_quote(reply)), delsp=False)
    signature = (
        f'<pre class="moz-signature" cols="72">-- \n{escape(reply.signature)}</pre>'
        if reply.signature
        else ""
    )
    html = (
        '<!DOCTYPE html>\n<html>\n  <head>\n    <meta http-equiv="content-type" content="text/'
        'html; charset=UTF-8">\n  </head>\n  <body>\n'
        f"    {html_lines(reply.above, '<p>{}</p>')}{signature}\n"
        f'    <div class="moz-cite-prefix">{escape(reply.phrase("thunderbird"))}<br>\n    </div>\n'
        f'    <blockquote type="cite" cite="mid:{reply.service.message_id[1:-1]}">\n'
        f"{html_body(reply.service.html)}\n    </blockquote>\n"
        f"    {html_lines(reply.below, '<p>{}</p>') if reply.below else ''}\n  </body>\n</html>\n"
    )
    boundary = "-" * 12 + token(reply.name, 24, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    content = [("Content-Type", f'multipart/alternative;\n boundary="{boundary}"')]
    body = multipart(
        boundary,
        part("plain", text, "UTF-8", "8bit", "; format=flowed"),
        part("html", html, "UTF-8", "8bit"),
        preamble="This is a multi-part message in MIME format.",
    )
    return message(_thunderbird_headers(reply, content), body)


def k9(reply: Reply) -> bytes:
    """K-9 Mail and Thunderbird for Android: quoted-printable text/plain, the attribution and a
    "> " quote; the app's signature after "-- "."""
    quote = f"{reply.phrase('k9')}\n{marked(reply.service.text)}"
    text = own_blocks(reply, quote)
    agent = "Thunderbird for Android" if reply.mobile else "K-9 Mail for Android"
    headers = [
        ("Date", reply.date()),
        *reply.ids,
        ("MIME-Version", "1.0"),
        ("Content-Type", "text/plain;\n charset=utf-8"),
        ("Content-Transfer-Encoding", reply.cte or "quoted-printable"),
        ("Subject", word(reply.subject())),
        ("To", reply.to),
        ("From", mailbox(reply.player, reply.address("posteo.example"))),
        ("Message-ID", f"<{_uuid(reply.name).lower()}@posteo.example>"),
        ("User-Agent", agent),
    ]
    return message(headers, encode_body(text, "utf-8", reply.cte or "quoted-printable"))


def samsung(reply: Reply) -> bytes:
    """Samsung Email: "Sent from my Galaxy", then "-------- Original message --------" and a
    From/Date/To/Subject block (each line with a trailing space) over the old mail, unmarked;
    base64 in both parts."""
    rule, sender, date, to, subject = reply.lang["samsung"]
    player = reply.address("t-online.example")
    rows = [
        f"-------- {rule} --------",
        f"{sender} {SENDER} ",
        f"{date} 07.12.26 19:37 (GMT+01:00) ",
        f"{to} {player} ",
        f"{subject} {reply.service.subject} ",
    ]
    text = own_blocks(
        reply,
        "\n".join(rows) + "\n\n" + reply.service.text,
        footer=reply.lang["android"],
        delimiter="",
    )
    html = (
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"></head>'
        f'<body dir="auto">{html_lines(reply.above, chr(60) + "div dir=auto>{}</div>")}'
        '<div dir="auto"><br></div><div id="composer_signature" dir="auto"><div style="font-size:'
        f'85%;color:#575757" dir="auto">{escape(reply.lang["android"]) if reply.mobile else ""}'
        '</div></div><div dir="auto"><br></div><div><br></div><div align="left" dir="auto" '
        'style="font-size:100%;color:#000000"><div>'
        + "<br>".join(escape(row) for row in rows)
        + f"</div></div><br>{html_body(reply.service.html)}"
        f"{html_lines(reply.below) if reply.below else ''}</body></html>\n"
    )
    boundary = f"--_com.samsung.android.email_{1765133000000 + reply.seed * 13}0"
    headers = [
        (
            "Message-ID",
            ident(reply.name, "<{8}.{8}.{5}.{4}@mx.t-online.example>"),
        ),
        ("Date", reply.date(pad=True)),
        ("From", mailbox(reply.player, player)),
        ("To", reply.to),
        ("Subject", word(reply.subject(reply.lang.get("outlook_re", "RE:")))),
        *reply.ids,
        ("MIME-Version", "1.0"),
        ("Content-Type", f'multipart/alternative; boundary="{boundary}"'),
        ("X-Mailer", "Samsung Email"),
    ]
    cte = reply.cte or "base64"
    body = multipart(boundary, part("plain", text, "utf-8", cte), part("html", html, "utf-8", cte))
    return message(headers, body)


def horde(reply: Reply) -> bytes:
    """Horde IMP: "Quoting name <address>:" (German "Zitat von ...:"), no "On", over a "> "
    quote; format=flowed with DelSp, quoted-printable."""
    quote = f"{reply.phrase('horde')}\n\n{marked(reply.service.text)}"
    text = flowed(own_blocks(reply, quote), delsp=True)
    headers = [
        ("Date", reply.date()),
        (
            "Message-ID",
            ident(reply.name, "<20261207193{6}.Horde.{X12}{10}@webmail.uni.example>"),
        ),
        ("From", mailbox(reply.player, reply.address("uni.example"))),
        ("To", reply.to),
        ("Subject", word(reply.subject())),
        *reply.ids,
        ("User-Agent", "Horde Application Framework 5"),
        ("Content-Type", "text/plain; charset=utf-8; format=flowed; DelSp=Yes"),
        ("MIME-Version", "1.0"),
        ("Content-Disposition", "inline"),
        ("Content-Transfer-Encoding", reply.cte or "quoted-printable"),
    ]
    return message(headers, encode_body(text, "utf-8", reply.cte or "quoted-printable"))


def reply_message(reply: Reply) -> bytes:
    """Android mail apps (and NetEase Mail Master in Chinese) that put the old mail, unmarked,
    under "-----Reply Message-----" or a "---- Replied Message ----" table of its fields."""
    player = reply.address("163.example" if reply.code == "zh" else "mobile.example")
    if reply.code == "zh":
        rows = [
            "---- Replied Message ----",
            f"| From | {SENDER}<{SENDER}> |",
            "| Date | 12/08/2026 02:37 |",
            f"| To | <{player}> |",
            f"| Subject | {reply.service.subject} |",
        ]
    else:
        rows = [
            "-----Reply Message-----",
            f"From: {SENDER}",
            f"To: {player}",
            "Sent: 2026-12-07 18:37",
            f"Subject: {reply.service.subject}",
        ]
    footer = reply.footer("netease_mobile" if reply.code == "zh" else "android")
    text = own_blocks(
        reply, "\n".join(rows) + "\n\n" + reply.service.text, footer=footer, delimiter=""
    )
    headers = [
        ("Date", reply.date()),
        ("From", mailbox(reply.player, player)),
        ("To", reply.to),
        ("Message-ID", f"<{token(reply.name, 32)}@{player.split('@')[1]}>"),
        *reply.ids,
        ("Subject", word(reply.subject())),
        ("MIME-Version", "1.0"),
        ("Content-Type", "text/plain; charset=UTF-8"),
        ("Content-Transfer-Encoding", reply.cte or "base64"),
        ("X-Mailer", "MailMaster Android" if reply.code == "zh" else "Android Email"),
    ]
    return message(headers, encode_body(text, "UTF-8", reply.cte or "base64"))
