"""A mail whose From names no single sender is refused with an answer in its sender's language,
the reason (how many From lines or addresses, or a group) in that language too; the stored
verdict, read by operators, stays English."""

from __future__ import annotations

from playbymail import compose, deliver_mail, sent, sent_count, text_of
from sqlalchemy import select
from test_attacks import FRANCE, STRANGER, assert_one_polite_reply, dos_game, row

from adjudicator.models import Player
from adjudicator.services.record.runtime import Runtime


def answer(runtime: Runtime, raw: bytes, to: str, address: str) -> str:
    before = sent_count(runtime)
    inbound = deliver_mail(runtime, raw, [to])
    found = row(runtime, inbound)
    assert found.status == "rejected" and found.reason.startswith("not from one address: ")
    mail = assert_one_polite_reply(sent(runtime, before), address, "")
    return " ".join(text_of(mail).split())


def test_the_reason_is_in_the_senders_language(runtime: Runtime) -> None:
    _game_id, seats = dos_game(runtime)
    france = seats[FRANCE]
    with runtime.db.session() as session:
        player = session.scalars(select(Player).where(Player.address == FRANCE)).one()
        player.language = "ru"
    orders = "TAKE MURAT\n16-14 x1"
    cases = [
        (compose(f"{FRANCE}, {STRANGER}", france, orders), "в его строке From указаны 2 адреса"),
        (
            compose(f"{FRANCE}, {STRANGER}, third@example.com", france, orders),
            "в его строке From указаны 3 адреса",
        ),
        (
            b"From: " + FRANCE.encode() + b"\n" + compose(STRANGER, france, orders),
            "в письме 2 строки From",
        ),
        (compose(f"team: {FRANCE};", france, orders), "в его строке From указана группа адресов"),
    ]
    for raw, why in cases:
        text = answer(runtime, raw, france, FRANCE)
        assert f"В нём не сказано, кто его отправил: {why}, а сервис принимает" in text, text
        assert "names" not in text and "From lines" not in text
    with runtime.db.session() as session:
        player = session.scalars(select(Player).where(Player.address == FRANCE)).one()
        player.language = "es"
    text = answer(runtime, compose(f"{FRANCE}, {STRANGER}", france, orders), france, FRANCE)
    assert "No dice quién lo envió: su línea From nombra 2 direcciones, y el servicio" in text, text
    # In English as ever for a sender who reads English; the stored reason is English.
    with runtime.db.session() as session:
        player = session.scalars(select(Player).where(Player.address == FRANCE)).one()
        player.language = "en"
    before = sent_count(runtime)
    inbound = deliver_mail(runtime, compose(f"{FRANCE}, {STRANGER}", france, orders), [france])
    assert row(runtime, inbound).reason == "not from one address: its From line names 2 addresses"
    assert_one_polite_reply(
        sent(runtime, before),
        FRANCE,
        "It does not say who sent it: its From line names 2 addresses",
    )
