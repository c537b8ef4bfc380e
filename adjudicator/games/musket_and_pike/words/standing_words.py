"""What each standing instruction means, as a sentence a player reads (the receipts, the
position in words): one table for every text that states an instruction."""

from __future__ import annotations

from collections.abc import Mapping

from adjudicator.core.said import N_, _

# Each kind's instructions by value.
_BY_KIND: dict[str, dict[str, str]] = {
    "preempt": {
        "never": N_("never try to pre-empt"),
        "charge": N_("pre-empt with the first wing holding Charge that may"),
        "charge-ac": N_("pre-empt with the first wing holding Charge, the AC helping"),
        "always": N_("always pre-empt with the first wing that may"),
        "always-ac": N_("always pre-empt with the first wing that may, the AC helping"),
    },
    "continue": {
        "never": N_("never try for another activation"),
        "adjacent": N_("try for another activation while a unit of the wing touches an enemy"),
        "up-to-2": N_("try for a second activation, never a third"),
        "up-to-3": N_("try for a second and a third activation"),
    },
    "retreat": {
        "edge": N_("retreat toward my own map edge"),
        "away": N_("retreat away from the nearest enemy"),
        "choose": N_(
            "ask me for each retreat's path after close combat and for my routed units' paths"
            " at each rout phase (by default: away from the enemy)"
        ),
    },
}
MEANING = {(kind, value): text for kind, texts in _BY_KIND.items() for value, text in texts.items()}


def instructions(held: Mapping[str, str]) -> str:
    """A side's standing instructions (kind -> value) as one sentence's parts, in the reader's
    language; a value with no meaning known is shown as it is."""
    return "; ".join(
        _(MEANING[(kind, value)]) if (kind, value) in MEANING else f"{kind} {value}"
        for kind, value in held.items()
    )
