"""A receipt says what was done with each line, and leaves out nothing the set on file covers: a
good line of a mail refused as a whole is not "accepted", a HOLD is no group left without orders,
and a mail of chatter does not list what a set on file already says."""

from __future__ import annotations

from dos_de_mayo_by_mail import FRANCE, SPAIN, start_dos_de_mayo
from test_help_pages import mail_reply, start_thermopyles

from adjudicator.services.runtime import Runtime


def test_a_good_line_of_a_mail_refused_as_a_whole_is_not_accepted(runtime: Runtime) -> None:
    _, address, _ = start_thermopyles(runtime)
    text = mail_reply(runtime, "leonidas@example.com", address, "FIGHT 99\nRETREAT")
    assert "Nothing was changed" in text
    assert "-> understood, not carried out" in text
    assert "-> accepted" not in text
    assert "NOT IN YOUR ORDERS" not in text


def test_a_hold_is_no_group_left_without_orders(runtime: Runtime) -> None:
    _, replies = start_dos_de_mayo(runtime)
    text = mail_reply(runtime, SPAIN, replies[SPAIN], "HOLD 15\nNODRAW")
    assert "HOLD 15\n     -> accepted" in text
    left = text.split("NOT IN YOUR ORDERS", 1)[1].split("\n\n", 1)[0]
    assert "no orders for the groups in" in left  # Spain's other groups
    assert "15" not in left.split("no orders for the groups in", 1)[1], left


def test_a_mail_of_chatter_lists_nothing_the_set_on_file_covers(runtime: Runtime) -> None:
    _, replies = start_dos_de_mayo(runtime)
    mail_reply(runtime, FRANCE, replies[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW")
    text = mail_reply(runtime, FRANCE, replies[FRANCE], "See you on the battlefield, my friend.")
    assert "NOT IN YOUR ORDERS" not in text
    assert "DRAW or NODRAW" not in text


def test_a_solo_games_help_names_no_command_for_other_players(runtime: Runtime) -> None:
    _, address, _ = start_thermopyles(runtime)
    text = mail_reply(runtime, "leonidas@example.com", address, "HELP")
    commands = text.split("COMMANDS (one per line", 1)[1]
    assert "RESIGN" in commands and "PREFERENCES TIMEZONE" in commands
    for word in ("WAIT ", "JOIN ", "JOIN tiger", "VACATION", "the others are told"):
        assert word not in commands, word
    _, replies = start_dos_de_mayo(runtime)
    both = mail_reply(runtime, FRANCE, replies[FRANCE], "HELP").split("COMMANDS (one per line")[1]
    assert "WAIT " in both and "VACATION UNTIL" in both and "JOIN tiger" in both
