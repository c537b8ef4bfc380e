"""One-time webhook tokens: a provider's token is accepted once, then refused as a replay."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError

from adjudicator.models import WebhookToken, utcnow
from adjudicator.services.record.runtime import Runtime


def claim(runtime: Runtime, provider: str, token: str, now: datetime | None = None) -> bool:
    """Record ``token`` as used; False when it was used before (a replay).

    The unique constraint decides, so two copies racing each other cannot both win."""
    now = now or utcnow()
    # Tokens whose timestamps are refused as stale anyway need not be remembered: prune them
    # here rather than in a scheduled job, a cheap indexed delete on each claim.
    horizon = now - timedelta(seconds=2 * runtime.config.webhook_max_age_seconds)
    with runtime.db.session() as session:
        session.execute(delete(WebhookToken).where(WebhookToken.seen_at < horizon))
    try:
        with runtime.db.session() as session:
            session.add(WebhookToken(provider=provider, token=token, seen_at=now))
    except IntegrityError:
        return False
    return True


def release(runtime: Runtime, provider: str, token: str) -> None:
    """Forget a claimed token whose message could not be stored, so the provider's retry of
    the same request is not mistaken for a replay."""
    with runtime.db.session() as session:
        session.execute(
            delete(WebhookToken).where(
                WebhookToken.provider == provider, WebhookToken.token == token
            )
        )
