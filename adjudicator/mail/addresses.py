"""Per-seat reply addresses: orders+<token>@<domain>, where the token is an HMAC only we can mint.

The address is the credential that routes a reply to a game and seat (as in Zulip's email gateway),
so a player never needs a password; the sender check against the seat's registered address comes
after routing, elsewhere. The key version in the token is the seat's: a seat handed to another
player gets a new version, which retires the old player's address. A rotated secret keeps the
addresses already in players' mailboxes working while the old key is listed as a previous one.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass
from email.utils import parseaddr

from adjudicator.core.refusal import Refusal

LOCAL_PART = "orders"
MAC_LENGTH = 16  # hex characters: 64 bits, plenty against guessing a reply address

# Seats are lower-case words that may contain hyphens, which is why a token is parsed from both
# ends: the game id from the left, the mac and the version from the right, the seat in between.
_SEAT = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# A game id and a key version; as in a bounce address, no more digits than a 64-bit id has, so
# int() is never handed a stranger's 5,000 digits.
_DIGITS = re.compile(r"[0-9]{1,18}")
_HEX = re.compile(r"[0-9a-f]+")


@dataclass(frozen=True)
class SeatRoute:
    """Where a reply address leads: a game, a seat in it, and the key version that signed it."""

    game_id: int
    seat: str
    version: int


def _mac(secret: str, game_id: int, seat: str, version: int) -> str:
    key = f"{secret}|v{version}".encode()
    message = f"{game_id}|{seat}|{version}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:MAC_LENGTH]


def seat_token(secret: str, game_id: int, seat: str, version: int = 1) -> str:
    """The token for one seat: "<game_id>-<seat>-<version>-<mac>"."""
    # Raising is right here: these come from our own database, never from a mail.
    if game_id < 0 or version < 0:
        raise ValueError("game_id and version must not be negative")
    if not _SEAT.fullmatch(seat):
        raise ValueError(f"seat {seat!r} is not a lower-case word (letters, digits, hyphens)")
    return f"{game_id}-{seat}-{version}-{_mac(secret, game_id, seat, version)}"


def check_signature(secret: str, game_id: int, seat: str, version: int) -> str:
    """The signature in a seat's private order-checker link, /games/<id>/check/<seat>/<sig>.

    Keyed like a reply token but over a message of its own ("check|..."), so a reply address
    never gives away a checker link nor the other way round; the seat's key version is signed,
    so handing the seat to another player (a new version) retires the old player's link."""
    key = f"{secret}|v{version}".encode()
    message = f"check|{game_id}|{seat}|{version}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:MAC_LENGTH]


def check_signature_ok(
    secret: str,
    game_id: int,
    seat: str,
    version: int,
    given: str,
    previous: Sequence[str] = (),
) -> bool:
    """True when ``given`` is the seat's current checker signature under the secret or one of
    the ``previous`` keys a rotation retired (compared in constant time)."""
    return any(
        hmac.compare_digest(given.encode(), check_signature(key, game_id, seat, version).encode())
        for key in (secret, *previous)
    )


def player_token(secret: str, player_id: int) -> str:
    """The token in a player's "my games" link, /?player=<token>: "<player_id>-<mac>".

    Keyed over a message of its own ("player|..."), so it opens neither a seat's checker nor its
    reply address; it only lists the games a player sits in, which the public list shows anyway,
    but who plays which is theirs to tell, so the link cannot be made from a guessed number."""
    message = f"player|{player_id}".encode()
    mac = hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()[:MAC_LENGTH]
    return f"{player_id}-{mac}"


def player_from_token(token: str, secret: str, previous: Sequence[str] = ()) -> int | None:
    """The player a "my games" token names, or None when it was not signed by us."""
    number, _, _mac_given = token.partition("-")
    if not _DIGITS.fullmatch(number):
        return None
    player_id = int(number)
    signed = any(
        hmac.compare_digest(token.encode(), player_token(key, player_id).encode())
        for key in (secret, *previous)
    )
    return player_id if signed else None


def reply_address(token: str, domain: str) -> str:
    """The address players reply to for the seat the token names."""
    return f"{LOCAL_PART}+{token}@{domain}"


def bare(address: str) -> str:
    """The addr-spec alone, lower-cased: "Name <A@B>" -> "a@b"; "" when there is none."""
    _, addr_spec = parseaddr(address)
    if not addr_spec:
        # parseaddr gives up on some odd but harmless forms; angle brackets alone still tell us.
        addr_spec = address.strip().strip("<>").strip()
    return addr_spec.strip().lower()


# One mailbox and nothing else: no list separators, groups, names, quotes or comments, which in
# a To: header would add recipients ("a@x, b@y", "bcc: c@z;") or hide the real one.
_SINGLE = re.compile(r"[^@\s<>\"(),;:\[\]\\]+@[^@\s<>\"(),;:\[\]\\]+")


def single(address: str) -> bool:
    """True when ``address`` is one bare addr-spec, safe to write as a mail's only recipient."""
    return _SINGLE.fullmatch(address) is not None


def is_command_address(address: str, local: str, domain: str) -> bool:
    """True when address is exactly <local>@<domain> (e.g. new@ or help@), ignoring case."""
    return bare(address) == f"{local}@{domain}".lower()


def route(
    address: str, domain: str, secret: str, previous: Sequence[str] = ()
) -> SeatRoute | Refusal:
    """The seat an orders+<token>@<domain> address leads to, or the reason it leads nowhere.
    A token signed with one of the ``previous`` keys (retired by a rotation) still leads."""
    local, at, address_domain = bare(address).rpartition("@")
    if not at or address_domain.rstrip(".") != domain.lower().rstrip("."):
        return Refusal("not our domain")
    prefix = f"{LOCAL_PART}+"
    if not local.startswith(prefix) or local == prefix:
        return Refusal("no token")
    parsed = _parse_token(local[len(prefix) :])
    if parsed is None:
        return Refusal("malformed token")
    game_id, seat, version, mac = parsed
    keys = (secret, *previous)
    if not any(hmac.compare_digest(mac, _mac(key, game_id, seat, version)) for key in keys):
        return Refusal("token does not check out (truncated or forged?)")
    return SeatRoute(game_id=game_id, seat=seat, version=version)


def looks_like_reply_address(local: str) -> bool:
    """True when ``local`` (a lower-case local part) has the shape of orders+<token>: what a
    listener can tell before the message is read. Whether the token checks out is for later,
    when the answer can say why it does not."""
    prefix = f"{LOCAL_PART}+"
    return local.startswith(prefix) and _parse_token(local[len(prefix) :]) is not None


def _parse_token(token: str) -> tuple[int, str, int, str] | None:
    head, _, tail = token.partition("-")
    rest = tail.rsplit("-", 2)
    if len(rest) != 3:
        return None
    seat, version, mac = rest
    if not (_DIGITS.fullmatch(head) and _DIGITS.fullmatch(version)):
        return None
    # A mac that is hex but short is a truncated address, reported as "does not check out".
    if not (_SEAT.fullmatch(seat) and _HEX.fullmatch(mac)) or len(mac) > MAC_LENGTH:
        return None
    return int(head), seat, int(version), mac
