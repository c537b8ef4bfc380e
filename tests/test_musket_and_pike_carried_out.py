"""What a Musket & Pike receipt says of each line of a mail that played at once: a line reads
"accepted" only when it was carried out; the unit actions sent with an order change the dice
refused are listed as not carried out, each with the reason. On SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace

from playbymail import compose, deliver_mail, reply_to, sent, sent_count, text_of
from sqlalchemy import select
from test_musket_and_pike_by_mail import PARLIAMENT, PLAYERS, RULES, fix_dice, owed, start

from adjudicator.games.musket_and_pike.state import Position
from adjudicator.models import Game
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime

# P-A (Receive Charge) tries for Charge and sends its unit actions along: P-HI-1 two hexes
# forward, which Receive Charge does not allow.
MAIL = "CHANGE TO CHARGE\nP-HI-1 MOVE 2.2 2.3\nP-CAV-1 MOVE 1.2\nP-LI-1 MOVE 3.2"


def at_the_order_change(opening: Position) -> Position:
    return replace(
        opening,
        phase="activation",
        step="order_change",
        active="parliament",
        current="P-A",
        initiative="parliament",
    )


def test_unit_actions_after_a_failed_order_change_are_listed_as_not_carried_out(
    runtime: Runtime,
) -> None:
    assert RULES is not None
    game_id = start(runtime)
    addresses = {seat: reply_to(runtime, address) for seat, address in PLAYERS.items()}
    with runtime.db.session() as session:
        game = session.scalars(select(Game).where(Game.id == game_id)).one()
        latest = play.latest_turn(session, game_id)
        position = at_the_order_change(RULES.load(latest.state))
        latest.state = RULES.dump(position)
        orders = RULES.parse_orders(position, "parliament", MAIL).orders
        # The first of a few fixed seeds whose die refuses the change.
        fix_dice(
            game,
            latest.number + 1,
            lambda chance: (
                RULES.resolve(position, {"parliament": orders}, chance).state.wings[2].order
                == "receive_charge"
            ),
            b"no change",
            50,
        )
    before = sent_count(runtime)
    deliver_mail(runtime, compose(PARLIAMENT, addresses["parliament"], MAIL))
    receipt = text_of(sent(runtime, before)[0]).replace("\r\n", "\n")
    flat = " ".join(receipt.split())
    # The change was tried (and the die said no): that line was carried out.
    assert "1. CHANGE TO CHARGE -> accepted: change to charge 2." in flat, receipt
    # No unit action was played: none of them reads accepted, each says why: P-HI-1's line its
    # own reason, the others that the activation is played whole.
    reason = "P-HI-1: under receive charge a unit moves at most 1 hex"
    expected = f"2. P-HI-1 MOVE 2.2 2.3 -> understood, not carried out ({reason}) 3."
    assert expected in flat, (expected, receipt)
    held = f"not played, as the activation is played whole: {reason}"
    for number, text in ((3, "P-CAV-1 MOVE 1.2"), (4, "P-LI-1 MOVE 3.2")):
        expected = f"{number}. {text} -> understood, not carried out ({held})"
        assert expected in flat, (expected, receipt)
    assert "fails to change its order to charge" in receipt
    # The unit actions are owed again, under the order kept.
    seats, state = owed(runtime, game_id)
    assert seats == ["parliament"] and getattr(state, "step", None) == "actions"


def test_a_mail_shows_no_heading_with_nothing_under_it(runtime: Runtime) -> None:
    # A mail of standing instructions alone plays nothing the other side may read: the other
    # side's mail has no WHAT HAPPENED (nor any heading) with nothing under it.
    game_id = start(runtime)
    addresses = {seat: reply_to(runtime, address) for seat, address in PLAYERS.items()}
    before = sent_count(runtime)
    deliver_mail(runtime, compose(PARLIAMENT, addresses["parliament"], "STANDING PREEMPT NEVER"))
    for mail in sent(runtime, before):
        for alternative in ("plain", "html"):
            shown = text_of(mail) if alternative == "plain" else _html(mail)
            _no_empty_heading(shown, alternative)
    assert game_id


def _html(mail: object) -> str:
    import re

    for part in mail.walk():  # type: ignore[attr-defined]
        if part.get_content_type() == "text/html":
            text = part.get_content()
            text = re.sub(r"</(h3|li|pre|p)>", "\n", text)
            # Headings of the html mail marked so the check reads them as the plain text's.
            text = re.sub(r"<h3>(.*?)\n", lambda m: m.group(1).upper() + "\n", text)
            return re.sub(r"<[^>]+>", "", text)
    return ""


def _no_empty_heading(text: str, alternative: str) -> None:
    lines = text.replace("\r\n", "\n").split("\n")
    for index, line in enumerate(lines):
        if line.strip() == "WHAT HAPPENED":
            following = [rest for rest in lines[index + 1 :] if rest.strip()]
            nxt = following[0].strip() if following else ""
            # What follows is what happened, not the next heading.
            headings = ("POSITION AFTER", "DEADLINE", "THE GAME IS OVER", "WHAT YOU CAN DO")
            assert nxt and not nxt.startswith(headings), (alternative, text)
