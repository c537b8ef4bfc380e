"""Replies from the mail services of one country or script: Yandex and Mail.ru (Russian and
Ukrainian), GMX and web.de (German), QQ Mail and NetEase 163 (Chinese, in GB charsets), Naver
(Korean) and Becky! (Japanese, in ISO-2022-JP).

Each function writes one reply the way that service does, header fields, charset, transfer
encoding, quote style and HTML included (see webmail.py for the world-wide webmails)."""

from __future__ import annotations

from html import escape

from .mime import encode_body, ident, mailbox, message, multipart, part, token, word
from .model import SENDER, Reply, html_body, html_lines, marked, own_blocks


def yandex(reply: Reply) -> bytes:
    """Yandex Mail on the web: HTML only, base64; the verbless attribution "date, time, "name"
    <address>:" above a bare blockquote. The app signs "Отправлено из мобильной Яндекс Почты"."""
    own = html_lines(reply.above)
    if reply.mobile:
        own += f"<div> </div><div>-- <br />{escape(reply.lang['yandex_mobile'])}</div>"
    if reply.signature:
        signed = "<br />".join(map(escape, reply.signature.split("\n")))
        own += f"<div> </div><div>-- <br />{signed}</div>"
    html = (
        f"<div>{own}</div><div> </div><div>{escape(reply.phrase('yandex'))}</div>"
        f"<blockquote>{html_body(reply.service.html)}</blockquote>"
        f"{html_lines(reply.below) if reply.below else ''}\n"
    )
    headers = [
        ("From", mailbox(reply.player, reply.address("yandex.example"))),
        ("To", reply.to),
        *reply.ids,
        ("Subject", word(reply.subject(), "utf-8")),
        ("MIME-Version", "1.0"),
        ("X-Mailer", "Yamail [ http://yandex.ru ] 5.0"),
        ("Date", reply.date(pad=True)),
        ("Message-Id", f"<{1234560 + reply.seed}1765133{reply.seed:03d}@mail.yandex.example>"),
        ("Content-Transfer-Encoding", reply.cte or "base64"),
        ("Content-Type", f"text/html; charset={reply.charset or 'utf-8'}"),
    ]
    return message(headers, encode_body(html, reply.charset or "utf-8", reply.cte or "base64"))


def mailru(reply: Reply) -> bytes:
    """Mail.ru: the attribution "weekday, date, time от name <address>:" and the old mail marked
    with ">" and no space, base64 in both parts; a blue-bordered blockquote in the HTML."""
    attribution = reply.phrase("mailru")
    quote = "\n".join(f">{line}" for line in [attribution, "", *reply.service.text.split("\n")])
    text = own_blocks(reply, " \n \n" + quote, footer=reply.footer("mailru_mobile"))
    html = (
        f"<HTML><BODY><div>{html_lines(reply.above)}</div><div>&nbsp;</div>"
        '<blockquote style="border-left:1px solid #0857A6; margin:10px; padding:0 0 0 10px;">'
        f'{escape(attribution)}<br><br><div id=""><div class="js-helper js-readmsg-msg"><div>'
        f'<div id="style_17651{reply.seed}">{html_body(reply.service.html)}</div></div></div></div>'
        f"</blockquote>{html_lines(reply.below) if reply.below else ''}</BODY></HTML>\n"
    )
    charset = reply.charset or "utf-8"
    boundary = f"----ALT--{token(reply.name, 32, '0123456789aAbBcCdDeEfF')}1765133{reply.seed:03d}"
    headers = [
        ("From", mailbox(reply.player, reply.address("mail.example"), charset)),
        ("To", reply.to),
        ("Subject", word(reply.subject(), charset)),
        ("MIME-Version", "1.0"),
        ("X-Mailer", "Mail.Ru Mailer 1.0"),
        ("X-SenderField-Remind", "10"),
        ("Date", reply.date(pad=True)),
        ("Reply-To", mailbox(reply.player, reply.address("mail.example"), charset)),
        ("X-Priority", "3 (Normal)"),
        ("Message-ID", f"<1765133{reply.seed:03d}.{412903110 + reply.seed}@f713.i.mail.example>"),
        ("Content-Type", f'multipart/alternative;\n\tboundary="{boundary}"'),
        *reply.ids,
    ]
    cte = reply.cte or "base64"
    body = multipart(boundary, part("plain", text, charset, cte), part("html", html, charset, cte))
    return message(headers, b"\n" + body)


def gmx(reply: Reply) -> bytes:
    """GMX and web.de: "Gesendet:" first, then "Von:", "An:", "Betreff:", and the old mail right
    under it, unmarked; in the HTML a bordered div named "quote", no blockquote."""
    sent, sender, to, subject, when = reply.lang["gmx"]
    player = reply.address("gmx.example")
    rows = [
        f"{sent}: {when}",
        f'{sender}: "{SENDER}" <{SENDER}>',
        f"{to}: {player}",
        f"{subject}: {reply.service.subject}",
    ]
    text = own_blocks(reply, "\n".join(rows) + "\n" + reply.service.text, delimiter="")
    block = "<br/>\n".join(
        f"<b>{escape(row.split(': ', 1)[0])}:</b>&nbsp;{escape(row.split(': ', 1)[1])}"
        for row in rows
    )
    html = (
        '<html><head></head><body><div style="font-family: Verdana;font-size: 12.0px;">'
        f"{html_lines(reply.above)}<div>&nbsp;</div><div>&nbsp;"
        '<div name="quote" style="margin:10px 5px 5px 10px; padding: 10px 0 10px 10px; '
        "border-left:2px solid #C3D9E5; word-wrap: break-word; -webkit-nbsp-mode: space; "
        f'-webkit-line-break: after-white-space;"><div style="margin:0 0 10px 0;">{block}</div>'
        f'<div name="quoted-content">{html_body(reply.service.html)}</div></div></div>'
        f"{html_lines(reply.below) if reply.below else ''}</div></body></html>\n"
    )
    uuid = ident(reply.name, "{8}-{4}-{4}-{4}-{12}")
    boundary = f"abmob-{uuid}"
    headers = [
        ("MIME-Version", "1.0"),
        ("Message-ID", f"<trinity-{uuid}-1765133{reply.seed:06d}@3c-app-gmx-bs42>"),
        ("From", mailbox(reply.player, player)),
        ("To", reply.to),
        ("Subject", word(reply.subject("Aw:" if reply.code == "de" else "Re:"))),
        ("Content-Type", f"multipart/alternative; boundary={boundary}"),
        ("Date", reply.date()),
        ("Importance", "normal"),
        ("Sensitivity", "Normal"),
        *reply.ids,
        ("X-Priority", "3"),
        ("X-UI-Message-Type", "mail"),
    ]
    cte = reply.cte or "quoted-printable"
    body = multipart(boundary, part("plain", text, "UTF-8", cte), part("html", html, "UTF-8", cte))
    return message(headers, body)


def qq(reply: Reply) -> bytes:
    """QQ Mail: "------------------ 原始邮件 ------------------" and its header block over the old
    mail, unmarked, in GB18030 and base64."""
    rule, sender, sent, to, subject, when = reply.lang["qq"]
    player = reply.address("qq.example")
    rows = [
        rule,
        f'{sender} "{SENDER}"<{SENDER}>;',
        f"{sent} {when}",
        f'{to} "{reply.player}"<{player}>;',
        f"{subject} {reply.service.subject}",
    ]
    text = own_blocks(reply, "\n".join(rows) + "\n\n\n\n" + reply.service.text, delimiter="")
    html = (
        f'<meta http-equiv="Content-Type" content="text/html; charset=GB18030"><div>'
        f"{html_lines(reply.above)}</div><div><br></div><div><br></div>"
        '<div style="font-size: 12px;font-family: Arial Narrow;padding:2px 0 2px 0;">'
        f"{escape(rule).replace(' ', '&nbsp;', 1)}</div>"
        '<div style="font-size: 12px;background:#efefef;padding:8px;">'
        + "".join(f"<div>{escape(row)}</div>" for row in rows[1:])
        + f"</div><div><br></div>{html_body(reply.service.html)}"
        f"{html_lines(reply.below) if reply.below else ''}\n"
    )
    charset = reply.charset or "gb18030"
    boundary = ident(reply.name, "----=_NextPart_{X8}_{X8}_{X8}")
    headers = [
        ("From", mailbox(reply.player, player, charset, quote=True)),
        ("To", f'"{reply.to}"<{reply.to}>;'),
        ("Subject", word(reply.subject("回复："), charset)),
        ("Mime-Version", "1.0"),
        ("Content-Type", f'multipart/alternative;\n\tboundary="{boundary}"'),
        ("Content-Transfer-Encoding", "8Bit"),
        ("Date", reply.date("+0800")),
        ("X-Priority", "3"),
        ("Message-ID", f"<tencent_{token(reply.name, 38).upper()}@qq.example>"),
        ("X-QQ-MIME", "TCMime 1.0 by Tencent"),
        ("X-Mailer", "QQMail 2.x"),
        ("X-QQ-Mailer", "QQMail 2.x"),
        *reply.ids,
    ]
    cte = reply.cte or "base64"
    body = multipart(
        boundary,
        part("plain", text, f'"{charset}"', cte),
        part("html", html, f'"{charset}"', cte),
        preamble="This is a multi-part message in MIME format.",
    )
    return message(headers, body)


def netease(reply: Reply) -> bytes:
    """NetEase 163 Mail (Coremail): "在 date，"name" <address> 写道：" over a "> " quote, in GBK
    and base64; the mobile app signs "发自网易邮箱大师"."""
    attribution = reply.phrase("netease")
    quote = f"{attribution}\n{marked(reply.service.text)}"
    text = own_blocks(reply, quote, footer=reply.footer("netease_mobile"))
    html = (
        '<div style="line-height:1.7;color:#000000;font-size:14px;font-family:Arial">'
        f"{html_lines(reply.above)}<br><br>"
        f'<div style="position:relative;zoom:1"></div><div id="divNeteaseMailCard"></div><br>'
        f"<pre><br>{escape(attribution)}<br></pre>"
        '<blockquote id="isReplyContent" style="PADDING-LEFT: 1ex; MARGIN: 0px 0px 0px 0.8ex; '
        f'BORDER-LEFT: #ccc 1px solid">{html_body(reply.service.html)}</blockquote>'
        f"{html_lines(reply.below) if reply.below else ''}</div>\n"
    )
    charset = reply.charset or "GBK"
    boundary = f"----=_Part_{reply.seed * 31}_{1906716214 + reply.seed}.1765133{reply.seed:06d}"
    player = reply.address("163.example")
    headers = [
        ("Date", reply.date("+0800", suffix=" (CST)")),
        ("From", mailbox(reply.player, player, charset, quote=True)),
        ("To", reply.to),
        ("Subject", word(reply.subject("Re:"), charset)),
        ("X-Priority", "3"),
        ("X-Mailer", "Coremail Webmail Server Version XT5.0.14 build 20230109(dcb5de15)"),
        *reply.ids,
        ("Content-Type", f'multipart/alternative;\n\tboundary="{boundary}"'),
        ("MIME-Version", "1.0"),
        (
            "Message-ID",
            ident(reply.name, "<{8}.{4}.18c41a2b3c4.Coremail.")
            + player.split("@")[0]
            + "@163.example>",
        ),
    ]
    cte = reply.cte or "base64"
    body = multipart(boundary, part("plain", text, charset, cte), part("html", html, charset, cte))
    return message(headers, body)


def naver(reply: Reply) -> bytes:
    """Naver Mail: "-----Original Message-----" and a From/To/Cc/Sent/Subject block over the
    old mail, unmarked, in HTML only (base64)."""
    rule, sender, to, cc, sent, subject, when = reply.lang["naver"]
    rows = [
        f'{sender} "{SENDER}"&lt;{SENDER}&gt; ',
        f'{to} "{reply.player}"&lt;{reply.address("naver.example")}&gt;; ',
        f"{cc} ",
        f"{sent} {when}",
        f"{subject} {escape(reply.service.subject)}",
    ]
    html = (
        "<html><head><style>p{margin-top:0px;margin-bottom:0px;}</style></head><body><div "
        'style="font-size:10pt; font-family:Gulim,sans-serif;">'
        f"{html_lines(reply.above, '<p>{}</p>')}"
        f"<p><br></p><p><br></p><p>{rule}</p>"
        + "".join(f"<p><b>{row.split(' ', 1)[0]}</b> {row.split(' ', 1)[1]}</p>" for row in rows)
        + f"<p>&nbsp;</p>{html_body(reply.service.html)}"
        f"{html_lines(reply.below, '<p>{}</p>') if reply.below else ''}</div></body></html>\n"
    )
    charset = reply.charset or "utf-8"
    headers = [
        ("MIME-Version", "1.0"),
        (
            "Message-ID",
            ident(reply.name, "<{27}@cweb0") + f"{reply.seed % 9}.nm.nhn.example>",
        ),
        ("From", mailbox(reply.player, reply.address("naver.example"), charset, quote=True)),
        ("To", f"<{reply.to}>"),
        ("Subject", word(reply.subject("RE:"), charset)),
        ("Date", reply.date("+0900")),
        *reply.ids,
        ("X-Naver-CIP", "203.0.113.24"),
        ("Content-Type", f"text/html; charset={charset}"),
        ("Content-Transfer-Encoding", reply.cte or "base64"),
    ]
    return message(headers, encode_body(html, charset, reply.cte or "base64"))


def becky(reply: Reply) -> bytes:
    """Becky! Internet Mail: plain text in ISO-2022-JP (7bit), a two-line attribution ("On date"
    then "name <address> wrote:") over a "> " quote."""
    quote = f"{reply.phrase('becky')}\n\n{marked(reply.service.text)}"
    text = own_blocks(reply, quote)
    charset = reply.charset or "ISO-2022-JP"
    player = reply.address("example.jp")
    headers = [
        ("Date", reply.date("+0900")),
        ("From", mailbox(reply.player, player, charset)),
        ("To", reply.to),
        ("Subject", word(reply.subject(), charset)),
        *reply.ids,
        (
            "Message-Id",
            ident(reply.name, "<20261208034{3}.{X4}.")
            + player.split("@")[0].upper()
            + "@example.jp>",
        ),
        ("MIME-Version", "1.0"),
        ("Content-Type", f'text/plain; charset="{charset}"'),
        ("Content-Transfer-Encoding", reply.cte or "7bit"),
        ("X-Mailer", "Becky! ver. 2.81.04 [ja]"),
    ]
    return message(headers, encode_body(text, charset, reply.cte or "7bit"))
