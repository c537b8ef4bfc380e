"""`pbem mail send` and `pbem mail read`: a player's mail client at a terminal, sending to the
SMTP listener and reading the outbox Maildir of the embedded default."""

from __future__ import annotations

from pathlib import Path

import click

from adjudicator import config as configuration


@click.command("send")
@click.option("--from", "sender", required=True, help="Your address.")
@click.option(
    "--to", "recipient", required=True, help="e.g. new@pbem.localhost or a reply address."
)
@click.option("--subject", default="", help="[default: none, as a quick mail has]")
@click.option("--server", default=None, help="host:port of the SMTP listener (default: config).")
@click.argument("body")
def mail_send(sender: str, recipient: str, subject: str, server: str | None, body: str) -> None:
    """Send a plain mail to the SMTP listener, as a player's mail client would."""
    import smtplib
    from email.message import EmailMessage
    from email.utils import make_msgid

    config = configuration.load(read_only=True)
    host, port = (server or f"{config.smtp_host}:{config.smtp_port}").rsplit(":", 1)
    message = EmailMessage()
    text = body.replace("\\n", "\n")
    message["From"], message["To"] = sender, recipient
    if subject:
        # None by default: a subject is read as a command when it is one (HELP, STATUS), and a
        # made-up one would only come back as the reply's "Re: ...".
        message["Subject"] = subject
    message["Message-ID"] = make_msgid(domain=sender.split("@")[-1])
    message.set_content(text + "\n")
    with smtplib.SMTP(host, int(port), timeout=30) as client:
        client.send_message(message)
    click.echo(f"sent {message['Message-ID']} to {recipient} via {host}:{port}")


@click.command("read")
@click.option("--to", "to", default=None, help="Only mails to this address (yours).")
@click.option("--wait", default=0.0, help="Seconds to wait for an unread mail, if none is there.")
@click.option("--last", default=0, help="Show the newest N mails, read or not, instead.")
@click.option(
    "--save",
    "save",
    default=None,
    type=click.Path(path_type=Path),
    help="Folder to save attached files (the map, the calendar entry) in.",
)
def mail_read(to: str | None, wait: float, last: int, save: Path | None) -> None:
    """Show the outbox's unread mails (the embedded default's 'sent' Maildir), oldest first, and
    mark them read; with --wait, return as soon as one is there."""
    import time

    from adjudicator.maildir import mark_read, newest, save_attachments, summary, unread

    folder = configuration.load(read_only=True).outbox_dir
    if last:
        shown = list(reversed(newest(folder, last, to)))
    else:
        deadline = time.monotonic() + wait
        shown = unread(folder, to)
        while not shown and time.monotonic() < deadline:
            time.sleep(0.1)
            shown = unread(folder, to)
    if not shown:
        whom = f" to {to}" if to else ""
        click.echo(f"no unread mail{whom} in {folder}" + (f" after {wait:g} s" if wait else ""))
        return
    for path in shown:
        path = mark_read(path)
        click.echo(summary(path))
        if save is not None:
            for target in save_attachments(path, save):
                click.echo(f"saved {target}")
