"""Game-master panel login links: signed, expiring, single-use, rate-limited; and their sessions.

A link carries a signed payload (game, game-master player, nonce, issue time). Its row in
``panel_links`` is the server's side: the link works once, a logout ends the session it opened
for good, and the rate-limit counters live there, so they hold across restarts and processes.
The signature alone already stops forgery; the row stops reuse.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import case, or_, select, update
from sqlalchemy.orm import Session

from adjudicator.core import said
from adjudicator.core.refusal import Refusal
from adjudicator.db import changed
from adjudicator.models import Game, PanelLink, utcnow
from adjudicator.services.record.runtime import Runtime

# Keeps these signatures apart from every other use of the secret key.
SALT = "pbem.gm-panel.link"


@dataclass(frozen=True)
class Issued:
    url: str
    hours: int


@dataclass(frozen=True)
class TooMany:
    """The game's hourly allowance of links is spent; the next is possible in ``minutes``."""

    minutes: int


@dataclass(frozen=True)
class Opened:
    """A link accepted: the session it opens belongs to this game and this nonce."""

    game_id: int
    nonce: str


def _serializer(runtime: Runtime) -> URLSafeSerializer:
    # itsdangerous signs with the last key and verifies with any: the retired ones first.
    config = runtime.config
    return URLSafeSerializer([*reversed(config.previous_keys), config.secret_key], salt=SALT)


def issue(
    session: Session, runtime: Runtime, game: Game, now: datetime
) -> Issued | TooMany | Refusal:
    """A new login link for the game's game master, recorded; refused past the hourly limit."""
    if game.gm_player_id is None:
        return Refusal("this game has no game master", "no-game-master")
    config = runtime.config
    hour_ago = now - timedelta(hours=1)
    recent = list(
        session.scalars(
            select(PanelLink.issued_at)
            .where(PanelLink.game_id == game.id, PanelLink.issued_at > hour_ago)
            .order_by(PanelLink.issued_at)
        )
    )
    if len(recent) >= config.panel_links_per_hour:
        # The oldest link of the hour ages out first; that frees the next one.
        wait = recent[-config.panel_links_per_hour] + timedelta(hours=1) - now
        return TooMany(max(1, math.ceil(wait.total_seconds() / 60)))
    nonce = secrets.token_urlsafe(16)
    session.add(PanelLink(nonce=nonce, game_id=game.id, player_id=game.gm_player_id, issued_at=now))
    session.flush()
    payload = {"g": game.id, "p": game.gm_player_id, "n": nonce, "t": int(now.timestamp())}
    token = _serializer(runtime).dumps(payload)
    return Issued(f"{config.base_url}/gm/{token}", config.panel_link_hours)


def open_link(
    runtime: Runtime, token: str, now: datetime | None = None, *, spend: bool = True
) -> Opened | Refusal:
    """Check a link and spend it: a forged, expired or already used link is refused. With
    ``spend=False`` only check it (the page that asks the game master to open the panel)."""
    now = now or utcnow()
    try:
        payload = _serializer(runtime).loads(token)
    except BadSignature:
        return Refusal(
            said._("This link is not one this service sent: it may have been cut short.")
        )
    if not isinstance(payload, dict) or not {"g", "p", "n", "t"} <= set(payload):
        return Refusal(
            said._("This link is not one this service sent: it may have been cut short.")
        )
    issued = datetime.fromtimestamp(int(payload["t"]), UTC)
    if now - issued > timedelta(hours=runtime.config.panel_link_hours):
        return Refusal(
            said._(
                "This link has expired: links work for %(hours)s h.",
                hours=runtime.config.panel_link_hours,
            )
        )
    with runtime.db.session() as session:
        game = session.get(Game, int(payload["g"]))
        if game is None or game.gm_player_id != payload["p"]:
            return Refusal(said._("This link's game no longer has you as its game master."))
        if not spend:
            used = session.scalar(
                select(PanelLink.used_at).where(PanelLink.nonce == str(payload["n"]))
            )
            if used is not None:
                return Refusal(
                    said._("This link has been used already: each link opens the panel once.")
                )
            return Opened(game.id, str(payload["n"]))
        # Compare-and-set: of two requests racing with one link, exactly one wins.
        spent = changed(
            session,
            update(PanelLink)
            .where(
                PanelLink.nonce == str(payload["n"]),
                PanelLink.game_id == game.id,
                PanelLink.player_id == payload["p"],
                PanelLink.used_at.is_(None),
            )
            .values(used_at=now),
        )
        if spent != 1:
            return Refusal(
                said._("This link has been used already: each link opens the panel once.")
            )
        return Opened(game.id, str(payload["n"]))


def check_session(
    runtime: Runtime, game_id: int, nonce: str, now: datetime | None = None
) -> Refusal | None:
    """None while the session opened by ``nonce`` may act on ``game_id``."""
    now = now or utcnow()
    with runtime.db.session() as session:
        link = session.scalar(select(PanelLink).where(PanelLink.nonce == nonce))
        if link is None or link.game_id != game_id or link.used_at is None:
            return Refusal(said._("This session is not one for this game."))
        if link.ended_at is not None:
            return Refusal(said._("You have logged out of this session."))
        if now - link.used_at > timedelta(hours=runtime.config.panel_session_hours):
            hours = runtime.config.panel_session_hours
            return Refusal(
                said._("Your session has ended: a session lasts %(hours)s h.", hours=hours)
            )
        game = session.get_one(Game, game_id)
        if game.gm_player_id != link.player_id:
            return Refusal(said._("This game no longer has you as its game master."))
    return None


def end_session(runtime: Runtime, nonce: str, now: datetime | None = None) -> None:
    """Log out: the session cookie stops working even if a copy of it is kept."""
    with runtime.db.session() as session:
        session.execute(
            update(PanelLink)
            .where(PanelLink.nonce == nonce, PanelLink.ended_at.is_(None))
            .values(ended_at=now or utcnow())
        )


def count_post(runtime: Runtime, nonce: str, now: datetime | None = None) -> int:
    """Count a form post against the session's allowance: 0 when allowed, else the seconds to
    wait. Fixed one-minute windows; one UPDATE decides, so parallel posts cannot overshoot."""
    now = now or utcnow()
    window = now.replace(second=0, microsecond=0)
    limit = runtime.config.panel_posts_per_minute
    with runtime.db.session() as session:
        counted = changed(
            session,
            update(PanelLink)
            .where(
                PanelLink.nonce == nonce,
                or_(
                    PanelLink.window_start.is_(None),
                    PanelLink.window_start != window,
                    PanelLink.posts < limit,
                ),
            )
            # Both SET expressions read the row as it was before the update.
            .values(
                posts=case((PanelLink.window_start == window, PanelLink.posts + 1), else_=1),
                window_start=window,
            ),
        )
    if counted == 1:
        return 0
    return max(1, math.ceil((window + timedelta(minutes=1) - now).total_seconds()))
