"""The addresses at our domain that take mail: exactly those the service hands out or names.

new@ starts games and help@ answers HELP (both named in every help text); orders+<token> is a
seat's or a game master's reply address; bounces+<id>-<mac> is the return path of each mail sent;
the local part of ``from_address`` is where a player's "reply" to a mail without a Reply-To goes;
postmaster is the one every mail domain must take (RFC 5321 4.5.1), kept for the operator.

Anything else is refused at RCPT by the SMTP and LMTP listeners, so the sending server tells its
own user and we never answer mail to an address nobody uses: with a forged From, that answer
would go to a third party (backscatter). Only the shape of a token is checked here; whether it
checks out is decided when the message is read, where the answer can say why it does not.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.mail import addresses, bounces

COMMANDS = ("new", "help")
POSTMASTER = "postmaster"


@dataclass(frozen=True)
class Refused:
    """Why mail to an address is not taken, worded for the sending server's bounce, with the
    enhanced status code that goes with it (RFC 3463)."""

    status: str
    reason: str


@dataclass(frozen=True)
class Accepted:
    """An address of ours that takes mail; ``kind`` says which of them."""

    kind: str  # "command", "seat", "return-path", "from", "postmaster"


def check(address: str, domain: str, from_address: str) -> Accepted | Refused:
    """Whether mail to ``address`` is taken, and as what (case does not matter)."""
    local, at, address_domain = addresses.bare(address).rpartition("@")
    domain = domain.lower().rstrip(".")
    if not at or address_domain.rstrip(".") != domain:
        return Refused("5.7.1", f"this server only accepts mail for {domain}")  # no relaying
    if local in COMMANDS:
        return Accepted("command")
    if addresses.looks_like_reply_address(local):
        return Accepted("seat")
    if bounces.looks_like_return_path(local):
        return Accepted("return-path")
    if local == POSTMASTER:
        return Accepted("postmaster")
    sender_local, _, sender_domain = addresses.bare(from_address).rpartition("@")
    if local == sender_local and sender_domain.rstrip(".") == domain:
        return Accepted("from")
    return Refused(
        "5.1.1",
        f"no such address: start a game at new@{domain}, ask for help at help@{domain}, "
        "and send orders to the reply address of your game's mail",
    )
