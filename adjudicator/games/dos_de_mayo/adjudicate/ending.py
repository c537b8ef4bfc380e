"""Step 9: the end. France's losses reaching its limit end the game at once (Spain wins); after
the last turn France wins only if Madrid is cleared, every gate is held and its losses are low."""

from __future__ import annotations

from adjudicator.core import said
from adjudicator.core.said import _, ngettext
from adjudicator.games.dos_de_mayo.adjudicate.work import Work
from adjudicator.games.dos_de_mayo.sides import FRANCE, SPAIN
from adjudicator.games.dos_de_mayo.wording import spanish_on_map

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
        work.end_detail = _(
            "France has lost %(lost)s units, its limit is %(limit)s",
            lost=work.losses[FRANCE],
            limit=limit,
        )
        return
    if work.turn < work.board.rules.turns:
        return
    failures = []
    spanish = sum(work.units[SPAIN])
    if spanish:
        failures.append(spanish_on_map(spanish))
    empty = [gate for gate in work.board.gates if not work.at(FRANCE, gate)]
    if empty:
        failures.append(
            ngettext(
                "no French unit on gate %(gates)s",
                "no French unit on gates %(gates)s",
                len(empty),
                gates=", ".join(empty),
            )
        )
    work.over = True
    if failures:
        work.winner, work.end_reason = SPAIN, "spain-holds"
        work.end_detail = _(
            "after turn %(turn)s: %(failures)s", turn=work.turn, failures=said.joined(failures)
        )
    else:
        work.winner, work.end_reason = FRANCE, "france-wins"
        work.end_detail = _(
            "after turn %(turn)s Madrid is cleared, every gate is French and France lost "
            "%(lost)s of its limit %(limit)s",
            turn=work.turn,
            lost=work.losses[FRANCE],
            limit=limit,
        )
