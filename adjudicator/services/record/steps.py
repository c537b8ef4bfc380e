"""A long piece of work as an ordered table of named steps over one context object.

Each step is a small function named after what it does, taking the work's one context (what the
steps share: the runtime, the moment, what earlier steps found) and returning a verdict to end
the work there, or None to go on to the next step, as the handlers of a mail pipeline do. The
table reads as the work's outline, in order; a step is read, tested and changed on its own.

The last step always answers, so the work's result is typed as the verdict and never None::

    return steps.run((_claim, _send, _bounced), sending, _sent)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

Context = TypeVar("Context")
Verdict = TypeVar("Verdict")


def run(
    table: Iterable[Callable[[Context], Verdict | None]],
    context: Context,
    last: Callable[[Context], Verdict],
) -> Verdict:
    """Call the steps of ``table`` in order on ``context`` until one returns a verdict (anything
    but None, so a falsy verdict ends the work too); when none does, ``last``'s answer."""
    for step in table:
        verdict = step(context)
        if verdict is not None:
            return verdict
    return last(context)
