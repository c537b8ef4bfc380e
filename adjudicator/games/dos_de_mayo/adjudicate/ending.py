"""Step 9: the end. France's losses reaching its limit end the game at once (Spain wins); after
the last turn France wins only if Madrid is cleared, every gate is held and its losses are low."""

from __future__ import annotations

from adjudicator.games.dos_de_mayo.adjudicate.work import Work
from adjudicator.games.dos_de_mayo.sides import FRANCE, SPAIN

END_REASONS = ("loss-limit", "france-wins", "spain-holds")


def loss_limit(work: Work) -> int:
    """France's limit with the lasting cards now in play (Jacinto Ruiz makes it 3)."""
    limit = work.board.rules.france_loss_limit
    for card_id in work.in_play:
        effect = work.data.card(card_id).effect
        if effect.kind == "loss_limit":
            limit = min(limit, effect.amount)
    return limit


def check_end(work: Work) -> None:
    limit = loss_limit(work)
    if work.losses[FRANCE] >= limit:
        work.over, work.winner, work.end_reason = True, SPAIN, "loss-limit"
        work.end_detail = f"France has lost {work.losses[FRANCE]} units, its limit is {limit}"
        return
    if work.turn < work.board.rules.turns:
        return
    failures = []
    spanish = sum(work.units[SPAIN])
    if spanish:
        failures.append(f"{spanish} Spanish unit{'s' if spanish > 1 else ''} still on the map")
    empty = [gate for gate in work.board.gates if not work.at(FRANCE, gate)]
    if empty:
        failures.append(f"no French unit on gate{'s' if len(empty) > 1 else ''} {', '.join(empty)}")
    work.over = True
    if failures:
        work.winner, work.end_reason = SPAIN, "spain-holds"
        work.end_detail = f"after turn {work.turn}: " + "; ".join(failures)
    else:
        work.winner, work.end_reason = FRANCE, "france-wins"
        work.end_detail = (
            f"after turn {work.turn} Madrid is cleared, every gate is French and France lost "
            f"{work.losses[FRANCE]} of its limit {limit}"
        )
