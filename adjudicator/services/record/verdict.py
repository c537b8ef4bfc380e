"""How the processing of one inbound message ended, as stored on its row."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.statuses import InboundStatus


@dataclass(frozen=True)
class Verdict:
    """How processing ended: received → done | ignored | rejected | failed, and why."""

    status: InboundStatus
    reason: str
    game_id: int | None = None
