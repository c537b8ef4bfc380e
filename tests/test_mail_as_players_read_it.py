"""Whole games played by mail through the service's own SMTP listener, then every mail each player
got read as a player reads it: the subject says which game, what the mail is and which turn; the
first three lines say what the reader owes and by when (or that nothing is owed); no internal
code anywhere; people by their names, never by their addresses; a 2 de Mayo turn's mail within
its size. 2 de Mayo and Thermopyles to their ends; a Musket & Pike battle until a side resigns."""

from __future__ import annotations

import random
import re
import smtplib
from collections import defaultdict
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from conftest import free_port
from playbymail import compose, drain, outbox_files, parsed, text_of
from sqlalchemy import select
from test_mail_sizes import TURN_LIMIT
from test_words_not_codes import Hunt, recorded_codes, source_codes, table_codes

from adjudicator import smtp
from adjudicator.games import registry
from adjudicator.models import Game
from adjudicator.services.record import play, subjects
from adjudicator.services.record.runtime import Runtime

GM = "Gonzalo O'Farrill <gm@example.com>"
PLAYERS = {
    "murat@example.com": "Joachim Murat",
    "daoiz@example.com": "Luis Daoíz",
    "leonidas@example.com": "Leonidas",
    "hopton@example.com": "Ralph Hopton",
    "waller@example.com": "William Waller",
}
GREETINGS = ("Hola,", "Saludos, Luis", "Bonjour !", "Hi all", "Привет!", "Ciao,", "Olá")
SIGN_OFFS = ("Un abrazo", "Cheers", "À bientôt", "Mit freundlichen Grüßen", "Пока")
# What a first line says: the reader owes something, or nothing is owed (services/outbound/asks.py).
ASKS = re.compile(
    r"^(You owe |Your decision: |Your move: |Reply JOIN |Nothing (more )?is owed|"
    r"Your orders for turn \d+ are on file: nothing more is owed)"
)
DUE = re.compile(r"\d\d:\d\d (UTC|[A-Z]{3,4}( = [^()]*UTC)?) \(in \d+\u00a0(min|h|days)\)")
# A subject: the game's tag and title, then one of the phrases of subjects.PHRASES filled in.
FILLED = {"noun": "(turn|step)", "turn": r"\d+", "next": r"\d+", "owes": ".+", "result": ".+"}
PHRASE_SHAPES = [
    re.compile(
        "".join(
            FILLED.get(part, ".+") if index % 2 else re.escape(part)
            for index, part in enumerate(re.split(r"\{(\w+)\}", phrase))
        )
        + "$"
    )
    for phrase in subjects.PHRASES.values()
]


# Wording only a machine writes: a count disagreeing with its noun, "(s)" for either, a heading
# that calls nothing a need, the same word twice running.
MACHINE_WORDING = [
    re.compile(r"(?<![\d.,])\b1 (groups|units|cards|turns|steps|hexes|days|lines|players)\b"),
    re.compile(r"\w\(s\)"),
    re.compile(r"Still needed: no"),
    re.compile(r"\b(the|a|to|of|and) \1\b", re.IGNORECASE),
]


@pytest.fixture
def listener(runtime: Runtime) -> Iterator[int]:
    """The SMTP listener as `pbem serve` starts it, on a free loopback port."""
    port = free_port()
    config = runtime.config.with_overrides(smtp_host="127.0.0.1", smtp_port=port)
    [server] = smtp.listeners(Runtime(config, runtime.db, runtime.enqueue))
    server.start()
    yield port
    server.stop()


class Table:
    """The players' side of the table: mail sent through the listener, then the queued work run
    as the workers would."""

    def __init__(self, runtime: Runtime, port: int) -> None:
        self.runtime, self.port = runtime, port

    def send(self, sender: str, to: str, body: str) -> None:
        name = PLAYERS.get(sender)
        shown = f"{name} <{sender}>" if name else sender
        with smtplib.SMTP("127.0.0.1", self.port, timeout=10) as client:
            client.sendmail(sender, [to], compose(shown, to, body))
        drain(self.runtime)

    def reply_address(self, address: str) -> str:
        for path in reversed(outbox_files(self.runtime.config.outbox_dir)):
            mail = parsed(path)
            if str(mail["To"]) == address and mail["Reply-To"]:
                return str(mail["Reply-To"])
        raise AssertionError(f"no mail to {address}")

    def game(self, key: str) -> Game:
        with self.runtime.db.session() as session:
            return session.scalars(select(Game).where(Game.game_key == key)).one()

    def state(self, game_id: int) -> object:
        with self.runtime.db.session() as session:
            game = session.get_one(Game, game_id)
            if game.status != "active":
                return None
            return play.rules_for(game).load(play.latest_turn(session, game_id).state)


def chatty(orders: str, choose: random.Random) -> str:
    """Orders as a person writes them: a greeting before, a sign-off after."""
    return f"{choose.choice(GREETINGS)}\n\n{orders}\n\n{choose.choice(SIGN_OFFS)}\n"


def play_dos_de_mayo(table: Table) -> int:
    france, spain = "murat@example.com", "daoiz@example.com"
    body = f"NEW 2DEMAYO\nFRANCE {france}\nSPAIN {spain}\nSCHEDULE 48h\nTIMEZONE Europe/Madrid\n"
    table.send("gm@example.com", "new@pbem.localhost", body)
    for address in (france, spain):
        table.send(address, table.reply_address(address), f"JOIN {address}")
    game_id = table.game("2demayo").id
    rules = registry.games()["2demayo"]
    choose = random.Random(11)
    addresses = {"france": table.reply_address(france), "spain": table.reply_address(spain)}
    players = {"france": france, "spain": spain}
    while (state := table.state(game_id)) is not None:
        for seat in ("france", "spain"):
            orders = rules.orders_text(choose.choice(list(rules.legal_orders(state, seat))))
            assert orders is not None
            table.send(players[seat], addresses[seat], chatty(orders, choose))
    return game_id


def play_thermopyles(table: Table) -> int:
    table.send("leonidas@example.com", "new@pbem.localhost", "NEW THERMOPYLES molon labe")
    game_id = table.game("thermopyles").id
    rules = registry.games()["thermopyles"]
    address = table.reply_address("leonidas@example.com")
    choose = random.Random(3)
    while (state := table.state(game_id)) is not None:
        [decision] = rules.pending(state).values()  # type: ignore[arg-type]
        concrete = [form for form in decision.legal if not re.search(r"[<|\[]", form)]
        action = choose.choice(concrete) if concrete else "RETREAT"
        table.send("leonidas@example.com", address, chatty(action, choose))
    return game_id


def play_musket_and_pike(table: Table) -> int:
    royalist, parliament = "hopton@example.com", "waller@example.com"
    body = f"NEW MUSKETPIKE scenario=skirmish\nROYALIST {royalist}\nPARLIAMENT {parliament}\n"
    table.send("gm@example.com", "new@pbem.localhost", body)
    for address in (royalist, parliament):
        table.send(address, table.reply_address(address), f"JOIN {address}")
    game_id = table.game("musketpike").id
    rules = registry.games()["musketpike"]
    players = {"royalist": royalist, "parliament": parliament}
    addresses = {seat: table.reply_address(address) for seat, address in players.items()}
    choose = random.Random(5)
    for _ in range(24):
        state = table.state(game_id)
        assert state is not None
        for seat in sorted(rules.pending(state)):  # type: ignore[arg-type]
            orders = rules.orders_text(choose.choice(list(rules.legal_orders(state, seat))))  # type: ignore[arg-type]
            assert orders is not None
            table.send(players[seat], addresses[seat], chatty(orders, choose))
    table.send(parliament, addresses["parliament"], "RESIGN")
    assert table.state(game_id) is None
    return game_id


def lines_of(mail: EmailMessage) -> list[str]:
    return [line.strip() for line in text_of(mail).replace("\r\n", "\n").splitlines()]


def read_as_a_player(mail: EmailMessage, titles: dict[int, str]) -> list[str]:
    """What a player reading ``mail`` would find wrong with it."""
    wrong = []
    subject = str(mail["Subject"])
    tag = re.match(r"\[pbem #(\d+)\] (.+?) · (.+)$", subject)
    if tag is None or titles.get(int(tag.group(1))) != tag.group(2):
        return [f"subject without its game: {subject}"]
    phrase = tag.group(3)
    if subject.lower().startswith("re:") or not any(shape.match(phrase) for shape in PHRASE_SHAPES):
        wrong.append(f"subject does not say what the mail is: {subject}")
    kind = str(mail["X-Pbem-Kind"])
    if kind in ("report", "receipt") and not re.search(r"\b(turn|step) \d+\b|game over", phrase):
        wrong.append(f"subject without its turn: {subject}")
    first = [line for line in lines_of(mail) if line][:3]
    if not any(ASKS.match(line) for line in first):
        wrong.append(f"{subject}: no ask in the first lines: {first}")
    owing = any(re.match(r"You owe |Your decision: ", line) for line in first)
    if owing and not any(DUE.search(line) for line in first):
        wrong.append(f"{subject}: an ask without its deadline: {first}")
    text = "\n".join(lines_of(mail))
    if re.search(r"\b\w{1,2}…", text):
        wrong.append(f"{subject}: someone named by an address fragment")
    for machine in MACHINE_WORDING:
        found = machine.search(text)
        if found:
            wrong.append(f"{subject}: reads as a machine: {found.group(0)!r}")
    return wrong


@pytest.mark.usefixtures("fixed_seeds")
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_whole_games_by_mail_read_as_players_read_them(runtime: Runtime, listener: int) -> None:
    table = Table(runtime, listener)
    dos = play_dos_de_mayo(table)
    solo = play_thermopyles(table)
    battle = play_musket_and_pike(table)
    titles = {dos: "2 de Mayo", solo: "Thermopyles", battle: "Musket & Pike"}

    paths = outbox_files(runtime.config.outbox_dir)
    mails = [(parsed(path), path.stat().st_size) for path in paths]
    to_players = [(mail, size) for mail, size in mails if str(mail["To"]) in PLAYERS]
    wrong = [problem for mail, _ in to_players for problem in read_as_a_player(mail, titles)]
    assert not wrong, "\n".join(wrong[:20])

    # People by the names they gave: the other side is named in what the game waits for.
    waiting = [
        line
        for mail, _ in to_players
        for line in lines_of(mail)[:4]
        if line.startswith(("Waiting for", "Nothing is owed by you now:"))
    ]
    assert waiting
    assert all(re.search("|".join(PLAYERS.values()), line) for line in waiting), waiting[:5]

    codes, labels = recorded_codes(runtime)
    hunt = Hunt(codes | table_codes() | source_codes(), labels)
    for mail, _ in mails:
        hunt.mail(mail)
    assert not hunt.found, sorted(hunt.found)

    # A 2 de Mayo turn's mail per player (the receipt and the report) within its bound.
    per_turn: dict[tuple[str, str], int] = defaultdict(int)
    for mail, size in to_players:
        turn = re.search(r"· turn (\d+) (results|orders received)", str(mail["Subject"]))
        if f"#{dos}]" in str(mail["Subject"]) and turn:
            number = int(turn.group(1)) - (turn.group(2) == "orders received")
            per_turn[(str(mail["To"]), str(number))] += size
    assert len(per_turn) >= 2 * 9, per_turn
    assert max(per_turn.values()) <= TURN_LIMIT, max(per_turn.values())
    print(
        f"\nmails read: {len(mails)}; 2 de Mayo per player and turn: "
        f"{min(per_turn.values())}-{max(per_turn.values())} bytes"
    )


def test_a_mail_without_its_ask_is_caught(tmp_path: Path) -> None:
    """The reader above finds what it is for: a report that opens with anything but the ask."""
    mail = EmailMessage()
    mail["To"], mail["Subject"] = "murat@example.com", "[pbem #1] 2 de Mayo · turn 3 results"
    mail["X-Pbem-Kind"] = "report"
    mail.set_content("2 de Mayo, game 1: turn 3 resolved.\n\nWHAT HAPPENED\n  france: 16-14\n")
    assert read_as_a_player(mail, {1: "2 de Mayo"}) == [
        "[pbem #1] 2 de Mayo · turn 3 results: no ask in the first lines: "
        "['2 de Mayo, game 1: turn 3 resolved.', 'WHAT HAPPENED', 'france: 16-14']"
    ]
    mail.set_content(
        "You owe your orders for turn 4 by Fri 04 Dec 2026 05:25 UTC (in 48\u00a0h).\n"
        "You have 1 cards and the the deck; join(s).\n"
    )
    assert read_as_a_player(mail, {1: "2 de Mayo"}) == [
        "[pbem #1] 2 de Mayo · turn 3 results: reads as a machine: '1 cards'",
        "[pbem #1] 2 de Mayo · turn 3 results: reads as a machine: 'n(s)'",
        "[pbem #1] 2 de Mayo · turn 3 results: reads as a machine: 'the the'",
    ]
    mail.replace_header("Subject", "Re: turn 3")
    assert read_as_a_player(mail, {1: "2 de Mayo"}) == ["subject without its game: Re: turn 3"]
