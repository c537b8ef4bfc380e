"""A seat's private links, signed with the secret key: its order checker and its player's games.

They are in every mail to the seat and nowhere public: whoever holds one sees the seat's hand, or
which games its player sits in.
"""

from __future__ import annotations

from adjudicator.mail.addresses import check_signature, player_token
from adjudicator.models import Game, Seat
from adjudicator.services.record.runtime import Runtime


def check_url(runtime: Runtime, game: Game, seat: Seat) -> str:
    """The seat's private order-checker page: its orders checked, never stored (web/help.py)."""
    signature = check_signature(runtime.config.secret_key, game.id, seat.seat, seat.key_version)
    return f"{runtime.config.base_url}/games/{game.id}/check/{seat.seat}/{signature}"


def games_url(runtime: Runtime, seat: Seat) -> str:
    """The seat's player's own list of games (``/?player=<token>``), signed for the player."""
    token = player_token(runtime.config.secret_key, seat.player_id)
    return f"{runtime.config.base_url}/?player={token}"
