"""The shared reading of a mail's lines: blank, quoted, overlong, chat, refused and read lines."""

from __future__ import annotations

from adjudicator.core.contract import LineReport, LineStatus
from adjudicator.core.lines import (
    CHAT,
    QUOTED,
    Complaint,
    MailLines,
    Numbered,
    overlong,
    quoted,
    read_mail,
    shouted,
)


def _reader(raw: str) -> int | Complaint | None:
    """A toy grammar: GO <n> is an order, GO alone a complaint, anything else chat."""
    words = raw.split()
    if words[:1] != ["GO"]:
        return None
    if len(words) != 2 or not words[1].isdigit():
        return Complaint("malformed", "GO takes a number", "GO 1")
    return int(words[1])


def test_every_kind_of_line() -> None:
    seen: list[str] = []

    def reader(raw: str) -> int | Complaint | None:
        seen.append(raw)
        return _reader(raw)

    text = "Hello,\n\n  \nGO 4\n> GO 5\nGO\nGO 123456789012345678901\n  GO 7  \nBye"
    mail = read_mail(text, reader)
    assert mail.read == (Numbered(4, "GO 4", 4), Numbered(8, "  GO 7  ", 7))
    assert [(line.number, line.reading.code) for line in mail.refused] == [
        (6, "malformed"),
        (7, "malformed"),
    ]
    assert "21 digits" in mail.refused[1].reading.reason
    assert [(r.number, r.reason) for r in mail.ignored] == [(1, CHAT), (5, QUOTED), (9, CHAT)]
    # The reader never sees a blank, quoted or overlong line, and gets the others as written.
    assert seen == ["Hello,", "GO 4", "GO", "  GO 7  ", "Bye"]


def test_receipts_come_in_the_order_of_the_mail() -> None:
    mail = read_mail("GO\nHi\n> x\nGO 1\nGO x", _reader)
    receipts = mail.receipts
    assert [r.number for r in receipts] == [1, 2, 3, 5]
    no, why = LineStatus.REJECTED, "GO takes a number"
    assert receipts[0] == LineReport(1, "GO", no, code="malformed", reason=why, suggestion="GO 1")
    assert receipts[1].status is LineStatus.IGNORED and receipts[1].reason == CHAT
    assert receipts[2].status is LineStatus.IGNORED and receipts[2].reason == QUOTED


def test_an_empty_mail() -> None:
    assert read_mail("", _reader) == MailLines((), (), ())
    assert read_mail("\n \n\t\n", _reader).receipts == []


def test_the_line_tests() -> None:
    assert quoted("  > earlier") and not quoted("a > b")
    assert overlong("9" * 20) is None
    complaint = overlong("move 1-" + "9" * 30)
    assert complaint is not None and complaint.code == "malformed"
    assert shouted("PLAY bogus") and shouted("  GO")
    assert not shouted("Play nice") and not shouted("")


def test_a_complaint_as_a_receipt() -> None:
    receipt = Complaint("unknown-area", "no area 99", "did you mean 9?").receipt(3, "99-1")
    assert receipt == LineReport(
        3,
        "99-1",
        LineStatus.REJECTED,
        code="unknown-area",
        reason="no area 99",
        suggestion="did you mean 9?",
    )
