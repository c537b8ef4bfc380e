"""A receipt says what was done with each line, and leaves out nothing the set on file covers: a
good line of a mail refused as a whole is not "accepted", a HOLD is no group left without orders,
and a mail of chatter does not list what a set on file already says."""

from __future__ import annotations

from dos_de_mayo_by_mail import FRANCE, SPAIN, start_dos_de_mayo
from playbymail import compose, deliver_mail, sent
from test_help_pages import mail_reply, plain, start_thermopyles

from adjudicator.services.record.runtime import Runtime


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


def test_a_thermopyles_welcome_says_how_to_read_the_position(runtime: Runtime) -> None:
    """White and red, support dice, the free die and the track, explained once, at the start."""
    deliver_mail(runtime, compose("leonidas@example.com", "new@pbem.localhost", "NEW THERMOPYLES"))
    welcome = sent(runtime)[-1]
    text = " ".join(plain(welcome).split())
    assert "HOW TO READ THE POSITION" in text
    assert "the white one is the strength that beats it" in text
    assert "one die (1 to 6) for each support card you add (SUPPORT n: 4 for the whole game" in text
    assert "a free die while the marker stands on 3 / 6" in text
    assert "12 Persians in the Graveyard win the game" in text
    html = welcome.get_body(("html",))
    assert html is not None and "How to read the position" in html.get_content()
    # A game whose position explains itself has no such section.
    before = len(sent(runtime))
    start_dos_de_mayo(runtime)
    starts = sent(runtime)[before:]
    assert starts and all("HOW TO READ THE POSITION" not in plain(mail) for mail in starts)
