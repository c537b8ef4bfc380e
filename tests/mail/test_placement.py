"""The reader and a quoted mail of the service's without ">" marks: what the player wrote above
it, below it, or both (a reading in doubt), and none of the quoted mail's own lines."""

from __future__ import annotations

from adjudicator.mail.extract import Doubt, own_text

MARK = "SHA-256 " + "ab" * 32
RECEIPT = f"""Your orders for turn 2 are on file: nothing more is owed by you.

2 de Mayo, game 7.
Your orders for turn 2 are on file.

YOUR ORDERS AS UNDERSTOOD
  1. 4-3
     -> accepted

  2. DRAW
     -> accepted

--
Reply to this mail (it goes to orders+7-spain-1-ab@pbem.example) with your orders.
Fair dice: this game's seed commitment is {MARK}
The seed is revealed when the game ends, so you can check every card and die."""
KNOWN = RECEIPT.splitlines()
HEADER = (
    "From: PBEM Judge <orders+7-spain-1-ab@pbem.example>\n"
    "Sent: Monday, March 4, 2024 10:12 AM\nTo: Daoiz <daoiz@example.com>\n"
    "Subject: [pbem #7] 2 de Mayo · turn 2 orders received"
)


def outlook(above: str, below: str = "", quoted: str = RECEIPT) -> str:
    return f"{above}\n\n________________________________\n{HEADER}\n\n{quoted}\n\n{below}\n"


def test_a_reply_below_an_outlook_header_block_is_read() -> None:
    found = own_text(outlook("", "9-14\nNODRAW\n\nDaoiz"), KNOWN)
    assert found.lines == ["9-14", "NODRAW", "", "Daoiz"]
    assert found.doubt is None


def test_text_above_and_below_is_a_reading_in_doubt() -> None:
    found = own_text(outlook("9-14", "4-3\n9-14"), KNOWN)
    assert found.doubt is Doubt.ABOVE_AND_BELOW
    assert found.readings == (("9-14",), ("4-3", "9-14"))


def test_a_quoted_receipts_orders_are_not_read() -> None:
    # Top-posted: only the new line; bottom-posted under it: only the new line too.
    assert own_text(outlook("9-14"), KNOWN).lines == ["9-14"]
    found = own_text(outlook("", "9-14"), KNOWN)
    assert found.lines == ["9-14"] and found.doubt is None
    assert not any("4-3" in line or "DRAW" in line for line in found.lines)


def test_the_footer_mark_places_the_quoted_mail_without_the_mail_known() -> None:
    found = own_text(outlook("", "9-14"))
    assert found.lines == ["9-14"] and found.doubt is None
    found = own_text(outlook("4-3", "9-14"))
    assert found.doubt is Doubt.ABOVE_AND_BELOW and found.readings == (("4-3",), ("9-14",))


def test_a_line_written_inside_the_quoted_mail_is_unmarked_doubt() -> None:
    inside = RECEIPT.replace("  2. DRAW", "HOLD 12\n  2. DRAW")
    found = own_text(outlook("9-14", quoted=inside), KNOWN)
    assert found.doubt is Doubt.UNMARKED and found.lines == ["9-14"]
    # Read without the line it cannot place, and with it.
    assert found.readings == (("9-14",), ("9-14", "", "HOLD 12"))


def test_a_rewrapped_quote_is_still_the_service_s() -> None:
    # A client that wraps at 40 columns cuts the footer's long lines in pieces.
    wrapped = RECEIPT.replace(
        "Reply to this mail (it goes to orders+7-spain-1-ab@pbem.example) with your orders.",
        "Reply to this mail (it goes to\norders+7-spain-1-ab@pbem.example) with your orders.",
    )
    found = own_text(outlook("9-14", quoted=wrapped), KNOWN)
    assert found.lines == ["9-14"] and found.doubt is None


def test_an_unknown_unmarked_quote_with_nothing_above_is_unmarked_doubt() -> None:
    someone = "Dear all,\nmy orders were 4-3 and DRAW."
    found = own_text(outlook("", "9-14", quoted=someone))
    assert found.lines == [] and found.doubt is Doubt.UNMARKED
    assert found.readings == ((), ("Dear all,", "my orders were 4-3 and DRAW.", "", "9-14"))
    # With text above, the reply is the text above, as it always was.
    assert own_text(outlook("HOLD 9", "9-14", quoted=someone)).lines == ["HOLD 9"]


def test_an_orders_block_below_the_quote_is_taken_verbatim() -> None:
    found = own_text(outlook("thanks!", "ORDERS\n9-14\nEND"), KNOWN)
    assert found.lines == ["9-14"] and found.doubt is None


def test_an_orders_block_in_the_quoted_mail_is_old() -> None:
    asked = RECEIPT.replace("\n--\n", "\n  ORDERS\n  4-3\n  END\n\n--\n")
    found = own_text(outlook("9-14", quoted=asked), [*KNOWN, "  ORDERS", "  4-3", "  END"])
    assert found.lines == ["9-14"] and found.doubt is None


def test_the_footer_ends_the_quoted_mail_with_no_blank_line_below_it() -> None:
    # A reply made from HTML puts no blank line between the quoted footer and the new text.
    joined = outlook("", quoted=RECEIPT).rstrip("\n") + "\n9-14\nNODRAW"
    assert own_text(joined).lines == ["9-14", "NODRAW"]
    revealed = RECEIPT.replace(
        "The seed is revealed when the game ends, so you can check every card and die.",
        f"The seed is now revealed: {'cd' * 32}\nCheck every card and die: https://pbem.example/v",
    )
    joined = outlook("", quoted=revealed).rstrip("\n") + "\n9-14"
    assert own_text(joined).lines == ["9-14"]


def test_a_block_pasted_from_a_receipt_is_left_out_but_a_repeated_order_is_not() -> None:
    pasted = "9-14\nDRAW\n\nLast time:\nYOUR ORDERS AS UNDERSTOOD\n  1. 4-3\n     -> accepted"
    assert own_text(outlook(pasted), KNOWN).lines == ["9-14", "DRAW", "", "Last time:"]
    # The same lines as new orders, short ones, stay the player's.
    assert own_text(outlook("4-3\nDRAW"), KNOWN).lines == ["4-3", "DRAW"]


def test_a_header_block_with_no_blank_line_below_it() -> None:
    # Text made from HTML: the fields, the old mail and the reply under it run on unbroken.
    text = "\n".join(
        ["-----Original Message-----", *HEADER.splitlines(), *RECEIPT.splitlines(), "9-14"]
    )
    text = text.replace("\n\n", "\n")
    assert own_text(text, KNOWN).lines == ["9-14"]
    assert own_text(text).lines == ["9-14"]


def test_an_older_mail_of_the_services_than_those_known_is_no_question() -> None:
    # Its lines are strange to the mails known, yet its footer says where it ends.
    older = "\n".join(
        [
            "You owe your orders for turn 1 by Wed 09 Dec 2026 18:37 UTC (in 48 h).",
            "WHAT YOU CAN DO NOW",
            "  4-3|5|9",
            "  8-5|7|9|14|16",
            "  PLAY MOLINA 10|20",
            "  DRAW",
            "  NODRAW",
            "--",
            f"Fair dice: this game's seed commitment is {MARK}",
            "The seed is revealed when the game ends, so you can check every card and die.",
        ]
    )
    found = own_text(outlook("9-14", quoted=older), KNOWN)
    assert found.lines == ["9-14"] and found.doubt is None
    found = own_text(outlook("", "9-14", quoted=older), KNOWN)
    assert found.lines == ["9-14"] and found.doubt is None
