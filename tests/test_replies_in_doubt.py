"""A reply that quotes the service's mail without ">" marks, the way Outlook writes it, with new
text both above and below the quoted mail: the service cannot tell which is meant, so it stores
nothing, shows the lines each reading would take and asks for them again inside ORDERS … END.
The player's answer in such a block is filed; without one, the deadline plays the set on file.
Through the real mail path, in each language the service speaks."""

from __future__ import annotations

import pytest
from builders.clock import played_late
from dos_de_mayo_by_mail import SPAIN, start_dos_de_mayo
from playbymail import compose, deliver_mail, html_of, last_mail_to, sent, sent_count, text_of
from sqlalchemy import func, select

from adjudicator.models import Game, Submission
from adjudicator.services.record import on_file, play
from adjudicator.services.record.runtime import Runtime

# What each language's receipt says, so the test reads it as its player would.
WORDS = {
    "en": ("Nothing was changed", "READING 1", "READING 2", "a line ORDERS and a line END"),
    "es": ("No ha cambiado nada", "LECTURA 1", "LECTURA 2", "una línea ORDERS y una línea END"),
    "ru": ("Ничего не изменено", "ПРОЧТЕНИЕ 1", "ПРОЧТЕНИЕ 2", "строкой ORDERS и строкой END"),
}


def outlook_reply(above: str, previous: str, address: str, below: str = "") -> str:
    """Outlook's reply: the new text, the header block, the earlier mail without ">" marks,
    and (bottom-posted) more new text under it."""
    header = (
        f"From: PBEM Judge <{address}>\nSent: Monday, March 4, 2024 10:12 AM\n"
        f"To: Daoiz <{SPAIN}>\nSubject: [pbem] 2 de Mayo"
    )
    text = f"{above}\n\n{header}\n\n{previous}\n"
    return f"{text}\n{below}\n" if below else text


def spain_moves(runtime: Runtime, game_id: int) -> list[list[str]]:
    with runtime.db.session() as session:
        filed = on_file.current_orders(session, session.get_one(Game, game_id), 1)
        return [move["path"] for move in filed["spain"]["moves"]]


def submissions(runtime: Runtime) -> int:
    with runtime.db.session() as session:
        return int(session.scalar(select(func.count()).select_from(Submission)) or 0)


def in_doubt(runtime: Runtime, language: str) -> tuple[int, str, str]:
    """A game whose Spanish player has 4-3 on file for turn 1 and then answers its receipt
    from Outlook with 9-14 above the quote and 4-3 9-14 below it: the game, the seat's address
    and the receipt of that answer."""
    game_id, addresses = start_dos_de_mayo(runtime, language=language)
    spain = addresses[SPAIN]
    deliver_mail(runtime, compose(SPAIN, spain, "4-3"))
    first = last_mail_to(runtime, SPAIN)
    assert spain_moves(runtime, game_id) == [["4", "3"]]
    stored = submissions(runtime)
    before = sent_count(runtime)
    body = outlook_reply("9-14", text_of(first), spain, below="4-3\n9-14")
    deliver_mail(runtime, compose(SPAIN, spain, body, in_reply_to=str(first["Message-ID"])))
    [answer] = sent(runtime, before)
    assert submissions(runtime) == stored, "a mail read in doubt stored a set"
    assert spain_moves(runtime, game_id) == [["4", "3"]]
    # The HTML alternative shows the same readings and the same block.
    markup = html_of(answer).replace("\r\n", "\n")
    assert "<pre>ORDERS" in markup and "4-3\n9-14\n</pre>" in markup, markup
    return game_id, spain, text_of(answer).replace("\r\n", "\n")


@pytest.mark.parametrize("language", ["en", "es", "ru"])
def test_text_above_and_below_an_unmarked_quote_is_asked_about(
    runtime: Runtime, language: str
) -> None:
    game_id, spain, receipt = in_doubt(runtime, language)
    nothing, first, second, block = WORDS[language]
    assert nothing in receipt, receipt
    # Each reading's lines, exactly, in the order they stand in the mail.
    assert f"{first}" in receipt and f"{second}" in receipt, receipt
    one = receipt.split(first, 1)[1].split("\n\n", 1)[0]
    two = receipt.split(second, 1)[1].split("\n\n", 1)[0]
    assert one.splitlines()[1:] == ["  9-14"], receipt
    assert two.splitlines()[1:] == ["  4-3", "  9-14"], receipt
    assert block in receipt and "\n  ORDERS\n" in receipt and "\n  END\n" in receipt, receipt
    # The set on file is shown as what stays.
    assert "\n  4-3\n" in receipt.split(block, 1)[1], receipt
    # The answer inside ORDERS … END, above Outlook's quote of that receipt, is filed.
    answer = outlook_reply("ORDERS\n9-14\nEND", receipt, spain)
    deliver_mail(runtime, compose(SPAIN, spain, answer))
    assert spain_moves(runtime, game_id) == [["9", "14"]]


def test_with_no_answer_the_deadline_plays_the_set_on_file(runtime: Runtime) -> None:
    game_id, _, _ = in_doubt(runtime, "en")
    done = played_late(runtime, game_id)
    assert done.turn == 1 and "spain" not in done.defaulted, done
    with runtime.db.session() as session:
        played = play.latest_turn(session, game_id)
        # The turn was played on the set on file before the mail in doubt: 4-3 alone.
        assert played.number == 1 and played.reason == "deadline"
        assert [move["path"] for move in played.orders["spain"]["moves"]] == [["4", "3"]]


def test_a_reply_below_the_quoted_receipt_is_read(runtime: Runtime) -> None:
    """Bottom-posting under the unmarked quote: the new lines below are the orders, and the
    receipt's own lines in the quote (its echo of 4-3) are not read again."""
    game_id, addresses = start_dos_de_mayo(runtime)
    spain = addresses[SPAIN]
    deliver_mail(runtime, compose(SPAIN, spain, "4-3"))
    first = last_mail_to(runtime, SPAIN)
    body = outlook_reply("", text_of(first), spain, below="9-14")
    deliver_mail(runtime, compose(SPAIN, spain, body))  # no In-Reply-To: the recent mails count
    assert spain_moves(runtime, game_id) == [["9", "14"]]


def test_chatter_on_one_side_is_no_question(runtime: Runtime) -> None:
    """Thanks above the quote and the orders below it: only one side holds orders, so that
    side is read and filed, and the chatter is no reason to ask."""
    game_id, addresses = start_dos_de_mayo(runtime)
    spain = addresses[SPAIN]
    deliver_mail(runtime, compose(SPAIN, spain, "4-3"))
    first = last_mail_to(runtime, SPAIN)
    body = outlook_reply("Thanks! My new orders are below.", text_of(first), spain, below="9-14")
    deliver_mail(runtime, compose(SPAIN, spain, body, in_reply_to=str(first["Message-ID"])))
    assert spain_moves(runtime, game_id) == [["9", "14"]]


def test_an_order_written_inside_the_quoted_mail_is_asked_about(runtime: Runtime) -> None:
    """A line the service never wrote, standing inside its quoted receipt: it may be a new
    order or the client's change of the old mail; nothing is stored and both readings shown."""
    game_id, addresses = start_dos_de_mayo(runtime)
    spain = addresses[SPAIN]
    deliver_mail(runtime, compose(SPAIN, spain, "4-3"))
    first = last_mail_to(runtime, SPAIN)
    previous = text_of(first).replace(
        "\nYOUR ORDERS AS UNDERSTOOD", "\nHOLD 9\n\nYOUR ORDERS AS UNDERSTOOD"
    )
    assert "HOLD 9" in previous
    before = sent_count(runtime)
    body = outlook_reply("9-14", previous, spain)
    deliver_mail(runtime, compose(SPAIN, spain, body, in_reply_to=str(first["Message-ID"])))
    assert spain_moves(runtime, game_id) == [["4", "3"]]
    [answer] = sent(runtime, before)
    receipt = text_of(answer).replace("\r\n", "\n")
    assert "Some lines inside the quoted mail were not written by this service." in receipt
    one = receipt.split("READING 1", 1)[1].split("\n\n", 1)[0]
    two = receipt.split("READING 2", 1)[1].split("\n\n", 1)[0]
    assert one.splitlines()[1:] == ["  9-14"], receipt
    assert two.splitlines()[1:] == ["  9-14", "  HOLD 9"], receipt
