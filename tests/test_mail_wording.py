"""Mail reads as a person writes: counts agree with their nouns, and a receipt tells what the
orders leave out without calling information a need. Through the real pipeline."""

from __future__ import annotations

from dos_de_mayo_by_mail import SPAIN, start_dos_de_mayo
from playbymail import compose, deliver_mail, sent, text_of

from adjudicator.core.words import counted, listed
from adjudicator.services.record.runtime import Runtime


def test_counts_and_lists_read_as_prose() -> None:
    assert counted(1, "group") == "1 group" and counted(2, "group") == "2 groups"
    assert counted(1, "hex", "hexes") == "1 hex" and counted(3, "hex", "hexes") == "3 hexes"
    assert listed(["france"]) == "france" and listed(["a", "b", "c"]) == "a, b and c"


def test_a_receipt_says_what_the_orders_leave_out_and_needs_nothing(runtime: Runtime) -> None:
    _, addresses = start_dos_de_mayo(runtime)
    spain = addresses[SPAIN]
    deliver_mail(runtime, compose(SPAIN, spain, "9-4"))
    text = text_of(sent(runtime)[-1]).replace("\r\n", "\n")
    assert "Your orders for turn 1 are on file" in text
    assert "Still needed" not in text
    left_out = text.split("\nNOT IN YOUR ORDERS\n", 1)[1].split("\n\n", 1)[0]
    assert "  - no orders for the groups in " in left_out and ": they hold" in left_out
