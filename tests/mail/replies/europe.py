"""Replies from European webmails with a quote style of their own: Zimbra (HTML only, its
header block in a div after a rule), Seznam (Czech: the old mail in double quotes under "Původní
e-mail"), Libero (Italian: "----Messaggio originale----" over the unmarked mail) and WP (Polish:
"Dnia ... napisał(a):" over a "> " quote)."""

from __future__ import annotations

from html import escape

from .mime import encode_body, ident, mailbox, message, multipart, part, word
from .model import SENDER, Reply, html_body, html_lines, marked, own_blocks


def zimbra(reply: Reply) -> bytes:
    """Zimbra's web client: HTML only; the signature after a "-- " div, a rule, the header
    block in a div, the old mail in another, no blockquote."""
    sender, to, sent, subject, when = reply.lang["zimbra"]
    player = reply.address("free.example")
    rows = [
        f'<b>{sender} </b>"{SENDER}" &lt;{SENDER}&gt;',
        f'<b>{to} </b>"{escape(reply.player)}" &lt;{player}&gt;',
        f"<b>{sent} </b>{when}",
        f"<b>{subject} </b>{escape(reply.service.subject)}",
    ]
    signature = (
        '<div><br></div><div data-marker="__SIG_PRE__">-- <br></div>'
        f"<div>{'<br>'.join(map(escape, reply.signature.split(chr(10))))}</div>"
        if reply.signature
        else ""
    )
    html = (
        '<html><body><div style="font-family: arial, helvetica, sans-serif; font-size: 12pt; '
        f'color: #000000">{html_lines(reply.above)}{signature}<div><br></div>'
        '<hr id="zwchr" data-marker="__DIVIDER__"><div data-marker="__HEADERS__">'
        + "<br>".join(rows)
        + '<br></div><br><div data-marker="__QUOTED_TEXT__">'
        f"{html_body(reply.service.html)}</div>{html_lines(reply.below) if reply.below else ''}"
        "</div></body></html>\n"
    )
    headers = [
        ("Date", reply.date(suffix=" (CET)")),
        ("From", mailbox(reply.player, player)),
        ("To", reply.to),
        ("Message-ID", ident(reply.name, "<{10}.{4}.1765133{6}.JavaMail.zimbra@free.example>")),
        *reply.ids,
        ("Subject", word(reply.subject())),
        ("MIME-Version", "1.0"),
        ("Content-Type", "text/html; charset=utf-8"),
        ("Content-Transfer-Encoding", reply.cte or "quoted-printable"),
        ("X-Mailer", "Zimbra 9.0.0_GA_4546 (ZimbraWebClient - FF123 (Linux)/9.0.0_GA_4546)"),
        ("Thread-Topic", word(reply.service.subject)),
    ]
    return message(headers, encode_body(html, "utf-8", reply.cte or "quoted-printable"))


def seznam(reply: Reply) -> bytes:
    """Seznam Email: "---------- Původní e-mail ----------", Od/Komu/Datum/Předmět, and the
    old mail in double quotes, otherwise unmarked."""
    rule, sender, to, date, subject, when = reply.lang["seznam"]
    player = reply.address("seznam.example")
    rows = [
        rule,
        f"{sender} {SENDER}",
        f"{to} {player}",
        f"{date} {when}",
        f"{subject} {reply.service.subject}",
    ]
    quote = "\n".join(rows) + f'\n"{reply.service.text}\n"'
    text = own_blocks(reply, quote, delimiter="")
    html = (
        f"<div>{html_lines(reply.above)}</div><div><br></div><div>{escape(rule)}</div>"
        + "".join(f"<div>{escape(row)}</div>" for row in rows[1:])
        + '<blockquote data-email-quote="true">'
        f"{html_body(reply.service.html)}</blockquote>"
        f"{html_lines(reply.below) if reply.below else ''}\n"
    )
    boundary = ident(reply.name, "=_{X24}")
    headers = [
        ("From", mailbox(reply.player, player)),
        ("To", reply.to),
        ("Date", reply.date()),
        ("Subject", word(reply.subject())),
        ("Message-Id", ident(reply.name, "<{3}.{4}.{12}@seznam.example>")),
        *reply.ids,
        ("Mime-Version", "1.0 (Szn.cz Email)"),
        ("Content-Type", f'multipart/alternative;\n\tboundary="{boundary}"'),
    ]
    cte = reply.cte or "quoted-printable"
    body = multipart(boundary, part("plain", text, "utf-8", cte), part("html", html, "utf-8", cte))
    return message(headers, body)


def libero(reply: Reply) -> bytes:
    """Libero Mail: "----Messaggio originale----" and Da/Data/A/Ogg over the old mail,
    unmarked, in a plain text part."""
    rule, sender, date, to, subject, when = reply.lang["libero"]
    player = reply.address("libero.example")
    rows = [
        rule,
        f"{sender} {SENDER}",
        f"{date} {when}",
        f"{to} <{player}>",
        f"{subject} {reply.service.subject}",
    ]
    text = own_blocks(reply, "\n".join(rows) + "\n\n" + reply.service.text, delimiter="")
    headers = [
        ("Message-ID", ident(reply.name, "<{8}.{5}.1765133{6}.JavaMail.defaultUser@defaultHost>")),
        ("Date", reply.date()),
        ("From", mailbox(reply.player, player)),
        ("To", reply.to),
        ("Subject", word(reply.subject("R:"))),
        *reply.ids,
        ("MIME-Version", "1.0"),
        ("Content-Type", "text/plain;charset=UTF-8"),
        ("Content-Transfer-Encoding", reply.cte or "quoted-printable"),
        ("Importance", "Normal"),
    ]
    return message(headers, encode_body(text, "utf-8", reply.cte or "quoted-printable"))


def wp(reply: Reply) -> bytes:
    """Poczta WP: "Dnia <date> <name> <address> napisał(a):" over a "> " quote, ISO-8859-2."""
    quote = f"{reply.phrase('wp')}\n\n{marked(reply.service.text)}"
    text = own_blocks(reply, quote)
    charset = reply.charset or "ISO-8859-2"
    player = reply.address("wp.example")
    headers = [
        ("Date", reply.date()),
        ("From", mailbox(reply.player, player, charset, q=True)),
        ("To", reply.to),
        ("Message-ID", ident(reply.name, "<{8}{8}{8}@wp.example>")),
        *reply.ids,
        ("Subject", word(reply.subject(), charset, q=True)),
        ("MIME-Version", "1.0"),
        ("Content-Type", f"text/plain; charset={charset}"),
        ("Content-Transfer-Encoding", reply.cte or "8bit"),
        ("X-Mailer", "Poczta WP"),
    ]
    return message(headers, encode_body(text, charset, reply.cte or "8bit"))
