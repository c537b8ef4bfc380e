"""Words, not codes: whole games of 2 de Mayo, Thermopyles and Musket & Pike played by mail
through the real pipeline, and then every mail the service sent (text and HTML parts) and every
public page (the archive, the help, the fairness pages, the order checker public and private with
good and bad orders) read for an internal code: a turn's reason ("all-submitted"), a result
("spain-holds"), a die's label ("f-col-discard", or "f col discard"), a refusal or receipt code
("unknown-order"), an outcome code. The codes come from the code tables themselves (the games'
and the services'), and from what the games played recorded, so a new code is covered at once."""

from __future__ import annotations

import ast
import html
import random
import re
from collections.abc import Iterable
from datetime import timedelta
from email.message import EmailMessage
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from dos_de_mayo_by_mail import DOS, FRANCE, GM, SPAIN, position, start_dos_de_mayo
from playbymail import compose, deliver_mail, drain, gm_command, reply_to, sent
from sqlalchemy import select
from test_help_pages import check
from test_leak_crawl import crawl

import adjudicator
from adjudicator import statuses
from adjudicator.core.contract import LineStatus
from adjudicator.games import registry
from adjudicator.games.dos_de_mayo import checks as dos_checks
from adjudicator.games.dos_de_mayo.adjudicate import ending as dos_ending
from adjudicator.games.dos_de_mayo.cards import card_data
from adjudicator.games.musket_and_pike import outcomes as mp_outcomes
from adjudicator.games.musket_and_pike import receipts as mp_receipts
from adjudicator.games.musket_and_pike import state as mp_state
from adjudicator.games.thermopyles import orders as th_orders
from adjudicator.games.thermopyles import rules as th_rules
from adjudicator.games.thermopyles import strategy
from adjudicator.models import Game, Turn
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.turns import deadlines, idle
from adjudicator.web import create_app

LEONIDAS = "leonidas@example.com"
ROYALIST, PARLIAMENT = "hopton@example.com", "ruthin@example.com"
THERMOPYLES = registry.games()["thermopyles"]
MUSKET = registry.games()["musketpike"]
CHECK_LINK = re.compile(r"https?://[^\s/]+(/games/\d+/check/[a-z0-9-]+/[0-9a-f]+)")

# One-word codes that are ordinary English: a person writes them, so finding one in a sentence
# says nothing. Any other one-word code is looked for like a hyphenated one.
ORDINARY = {
    *(status.value for kind in (statuses.GameStatus, statuses.InboundStatus) for status in kind),
    *(status.value for status in statuses.OutboxStatus),
    *(status.value for status in LineStatus),
    "orders", "deadline", "forced", "start", "refused", "malformed", "pinned", "illegal",
    "duplicate", "activate", "pass", "preempt", "actions", "continuation", "standing", "nothing",
    "graveyard", "front", "support", "replaced", "done", "drawn", "moved", "played", "fought",
    "won", "lost", "held", "attack", "retreat", "fight", "discard", "draw", "nodraw", "take",
    "resign", "join", "wait", "status", "help", "drew", "form", "passed", "zone", "shape",
    "disconnected",
}  # fmt: skip
# Hyphenated words a person writes, which a code may happen to be.
HYPHENATED_WORDS = {"tie-break", "pre-emption", "one-way"}


def _string_arguments(tree: ast.AST) -> Iterable[str]:
    """Codes the source gives a refusal (``Refusal(reason, "code")``), a problem mail
    (``replies.problem(reply, "kind", ...)``, ``context.problem("kind")``) or a line report
    (``code="..."``)."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        given: list[ast.expr] = [kw.value for kw in node.keywords if kw.arg == "code"]
        if name == "Refusal" and len(node.args) > 1:
            given.append(node.args[1])
        if name == "problem":
            given += node.args[:2]
        for value in given:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                yield value.value


def source_codes() -> set[str]:
    root = Path(adjudicator.__file__).parent
    found: set[str] = set()
    for path in root.rglob("*.py"):
        found.update(_string_arguments(ast.parse(path.read_text(encoding="utf-8"))))
    return {code for code in found if re.fullmatch(r"[a-z][a-z0-9_-]*", code)}


def table_codes() -> set[str]:
    """The games' own closed sets: receipt and outcome codes, ways a game ends, dice labels."""
    discard_dice = {
        f"{card.id.lower()}-discard"
        for card in card_data().cards
        if card.effect.kind == "discard_random"
    }
    return {
        *dos_checks.CODES,
        *dos_ending.END_REASONS,
        *discard_dice,
        "france-deck",
        "spain-deck",
        *th_orders.CODES,
        *th_rules.END_SENTENCES,
        "support",
        "free-die",
        "spartan-deck",
        "persian-deck",
        *mp_receipts.CODES,
        *mp_outcomes.OUTCOME_CODES,
        # A wing's stored order (make_ready); a player writes it in words (make ready).
        *(order for order in mp_state.ORDERS if "_" in order),
        # The reasons the service stores for a turn.
        "start",
        "orders",
        "deadline",
        "all-submitted",
        "forced",
    }


def recorded_codes(runtime: Runtime) -> tuple[set[str], set[str]]:
    """What the games played recorded: turn reasons and outcome codes; and the dice labels."""
    codes: set[str] = set()
    labels: set[str] = set()
    with runtime.db.session() as session:
        for turn in session.scalars(select(Turn)):
            codes.add(turn.reason)
            codes.update(str(outcome.get("code") or "") for outcome in turn.outcomes)
            labels.update(str(event["label"]) for event in turn.events)
    return codes - {""}, labels


def option_words() -> set[str]:
    """The games' option names and values: what a game master writes on a NEW line
    (win_when=all-beaten), which the help and the mails name as such."""
    return {
        word
        for rules in registry.games().values()
        for option in rules.options
        for word in (option.key, option.default, *option.choices)
    }


def hunted(codes: set[str]) -> set[str]:
    written = option_words()
    return {
        code
        for code in codes
        if code not in HYPHENATED_WORDS
        and code not in written
        and (("-" in code or "_" in code) or code not in ORDINARY)
        and " " not in code
    }


class Visible(HTMLParser):
    """The text a reader sees (and hears: alt text, titles), never markup or attributes a
    browser does not show."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skipping += 1
        for name, value in attrs:
            if name in ("alt", "title", "aria-label") and value:
                self.parts.append(f" {value} ")
        self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skipping -= 1
        self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)


def visible(markup: str) -> str:
    parser = Visible()
    parser.feed(markup)
    parser.close()
    return "".join(parser.parts)


def readable(text: str) -> str:
    """The text less addresses and links, which carry names a reader does not read as words."""
    text = re.sub(r"\S+@\S+", " ", text)
    return re.sub(r"(https?://|/)\S+", " ", text)


class Hunt:
    def __init__(self, codes: set[str], labels: set[str]) -> None:
        self.patterns = {
            code: re.compile(rf"(?<![\w-]){re.escape(code)}(?![\w-])", re.IGNORECASE)
            for code in hunted(codes | labels)
        }
        # A label written out with spaces for its hyphens ("f col discard") is no word either,
        # where it is made of three parts or more (a card's code and what the die was for).
        for label in labels:
            parts = label.split("-")
            if " " not in label and len(parts) >= 3:
                spaced = " ".join(parts)
                self.patterns[spaced] = re.compile(rf"(?<![\w-]){re.escape(spaced)}(?![\w-])")
        self.found: dict[str, set[str]] = {}
        self.read = 0

    def look(self, where: str, text: str) -> None:
        self.read += 1
        text = readable(text)
        for code, pattern in self.patterns.items():
            match = pattern.search(text)
            if match:
                start = max(0, match.start() - 50)
                context = " ".join(text[start : match.end() + 50].split())
                self.found.setdefault(code, set()).add(f"{where}: …{context}…")

    def mail(self, message: EmailMessage) -> None:
        where = f"mail {message['Subject']!s} to {message['To']!s}"
        self.look(where + " (subject)", str(message["Subject"]))
        plain = message.get_body(preferencelist=("plain",))
        if plain is not None:
            self.look(where + " (text)", str(plain.get_content()))
        rich = message.get_body(preferencelist=("html",))
        if rich is not None:
            self.look(where + " (html)", visible(str(rich.get_content())))

    def page(self, where: str, body: str, kind: str) -> None:
        if kind == "text/html":
            self.look(where, visible(body))
        elif kind.endswith("xml"):
            # A feed's entries are HTML, escaped inside the XML.
            self.look(where, visible(html.unescape(visible(body))))
        elif kind.startswith("text/"):
            self.look(where, body)


# --- playing -------------------------------------------------------------------------------


def private_checks(
    runtime: Runtime, url: str, seat: str, orders: Iterable[str]
) -> list[tuple[str, str]]:
    """A seat's private checker page, empty and with each of ``orders`` checked, while its game
    runs."""
    client = create_app(runtime).test_client()
    pages = [(url, client.get(url).get_data(as_text=True))]
    return pages + [(url, check(client, url, text, seat)) for text in orders]


def deadline_of(runtime: Runtime, game_id: int) -> Any:
    with runtime.db.session() as session:
        return session.get_one(Game, game_id).deadline


def status_of(runtime: Runtime, game_id: int) -> str:
    with runtime.db.session() as session:
        return str(session.get_one(Game, game_id).status)


def latest_number(runtime: Runtime, game_id: int) -> int:
    with runtime.db.session() as session:
        turns = session.scalars(select(Turn.number).where(Turn.game_id == game_id)).all()
        return max(turns)


def random_orders(rules: Any, state: Any, seat: str, choose: random.Random) -> str:
    legal = list(rules.legal_orders(state, seat))
    text = rules.orders_text(choose.choice(legal))
    assert text is not None
    return str(text)


def play_dos_de_mayo(runtime: Runtime) -> int:
    """A 2 de Mayo game played to its end with random legal orders, bad orders and commands on
    the way, and its game master's commands by mail."""
    game_id, addresses = start_dos_de_mayo(runtime, gm_address=GM)
    seats = {"france": FRANCE, "spain": SPAIN}
    choose = random.Random(11)
    # Bad orders first, and the commands that only read: a receipt with every kind of line.
    deliver_mail(
        runtime,
        compose(FRANCE, addresses[FRANCE], "TAKE NOBODY\n16-99 x1\n16-2 x1\nFLY\nSTATUS\nHELP"),
    )
    deliver_mail(runtime, compose(SPAIN, addresses[SPAIN], "HISTORY\nORDERS\nSTAUTS"))
    # The game master moves the deadline, pauses and resumes.
    for line in ("EXTEND 24h", "PAUSE", "RESUME", "STATUS"):
        deliver_mail(runtime, compose(GM, addresses[GM], line))
    # A reminder before the deadline.
    deadline = deadline_of(runtime, game_id)
    deadlines.send_reminders(runtime, deadline - timedelta(minutes=30))
    drain(runtime)
    for turn in range(40):
        if status_of(runtime, game_id) != "active":
            break
        number = latest_number(runtime, game_id)
        state = position(runtime, game_id)
        owed = sorted(DOS.pending(state))
        for seat in owed:
            if turn == 2 and seat == "spain":
                continue  # left to the deadline: the default is played
            text = random_orders(DOS, state, seat, choose)
            deliver_mail(runtime, compose(seats[seat], addresses[seats[seat]], text))
        if turn == 4:
            deliver_mail(runtime, compose(GM, addresses[GM], "PROCESS NOW"))
        if latest_number(runtime, game_id) == number:
            deadline = deadline_of(runtime, game_id)
            if deadline is not None:
                deadlines.adjudicate(runtime, game_id, now=deadline + timedelta(seconds=1))
            else:
                deadlines.adjudicate(runtime, game_id, force=True)
            drain(runtime)
    else:
        raise AssertionError("the game did not end")
    return game_id


def dos_checks_in_progress(runtime: Runtime, check_pages: list[tuple[str, str]]) -> int:
    """A second 2 de Mayo game left running, whose private checker takes good and bad orders."""
    game_id, _ = start_dos_de_mayo(runtime)
    welcome = next(
        str(m.get_body(preferencelist=("plain",)).get_content())  # type: ignore[union-attr]
        for m in reversed(sent(runtime))
        if str(m["To"]) == FRANCE
    )
    link = CHECK_LINK.search(welcome)
    assert link is not None
    state = position(runtime, game_id)
    good = random_orders(DOS, state, "france", random.Random(3))
    orders = (good, "TAKE NOBODY\n16-99 x1\n16-2 x9\nFLY", good + "\n3-4 x1")
    check_pages += private_checks(runtime, link.group(1), "france", orders)
    return game_id


def play_thermopyles(runtime: Runtime, check_pages: list[tuple[str, str]]) -> int:
    deliver_mail(runtime, compose(LEONIDAS, "new@pbem.localhost", "NEW THERMOPYLES molon labe"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert game is not None and game.game_key == "thermopyles"
        game_id = game.id
    address = reply_to(runtime, LEONIDAS)
    welcome = next(
        str(m.get_body(preferencelist=("plain",)).get_content())  # type: ignore[union-attr]
        for m in reversed(sent(runtime))
        if str(m["To"]) == LEONIDAS
    )
    link = CHECK_LINK.search(welcome)
    assert link is not None
    orders = ("FIGHT NOBODY", "DISCARD X\nFLY", "RETREAT\nRETREAT", "RETREAT")
    check_pages += private_checks(runtime, link.group(1), "spartans", orders)
    deliver_mail(runtime, compose(LEONIDAS, address, "FIGHT NOBODY\nHELP"))
    idle.warn_idle(runtime, game_id)
    drain(runtime)
    for _ in range(200):
        state = position(runtime, game_id)
        if state.over:
            break
        deliver_mail(runtime, compose(LEONIDAS, address, strategy.choose(state).text()))
    else:
        raise AssertionError("the Thermopyles game did not end")
    return game_id


def play_musket_and_pike(runtime: Runtime, check_pages: list[tuple[str, str]]) -> int:
    body = f"NEW MUSKETPIKE scenario=skirmish\nROYALIST {ROYALIST}\nPARLIAMENT {PARLIAMENT}\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", body))
    for address in (ROYALIST, PARLIAMENT):
        deliver_mail(runtime, compose(address, reply_to(runtime, address), f"JOIN {address}"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game).where(Game.game_key == "musketpike")).one()
        game_id = game.id
    seats = {"royalist": ROYALIST, "parliament": PARLIAMENT}
    addresses = {seat: reply_to(runtime, address) for seat, address in seats.items()}
    choose = random.Random(5)
    deliver_mail(runtime, compose(ROYALIST, addresses["royalist"], "CHARGE X\nACTIVATE NOWHERE"))
    for step in range(14):
        state = position(runtime, game_id)
        owed = sorted(MUSKET.pending(state))
        if not owed:
            break
        if step == 8:
            deadline = deadline_of(runtime, game_id)
            deadlines.adjudicate(runtime, game_id, now=deadline + timedelta(seconds=1))
            drain(runtime)
            continue
        for seat in owed:
            text = random_orders(MUSKET, state, seat, choose)
            deliver_mail(runtime, compose(seats[seat], addresses[seat], text))
    welcome = next(
        str(m.get_body(preferencelist=("plain",)).get_content())  # type: ignore[union-attr]
        for m in reversed(sent(runtime))
        if str(m["To"]) == PARLIAMENT
    )
    link = CHECK_LINK.search(welcome)
    assert link is not None
    state = position(runtime, game_id)
    orders = ("CHARGE X\nACTIVATE NOWHERE", "PASS")
    if "parliament" in MUSKET.pending(state):
        orders += (random_orders(MUSKET, state, "parliament", choose),)
    check_pages += private_checks(runtime, link.group(1), "parliament", orders)
    deliver_mail(runtime, compose(PARLIAMENT, addresses["parliament"], "RESIGN"))
    assert status_of(runtime, game_id) != "active"
    return game_id


def stray_mail(runtime: Runtime, dos_id: int) -> None:
    """Mail that draws the problem answers and help@'s answer."""
    deliver_mail(runtime, compose(FRANCE, "help@pbem.localhost", "HELP"))
    deliver_mail(runtime, compose(FRANCE, "new@pbem.localhost", "NEW CHESS"))
    deliver_mail(runtime, compose(FRANCE, "new@pbem.localhost", "NEW 2DEMAYO\nFRANCE nobody"))
    deliver_mail(runtime, compose(FRANCE, f"g{dos_id}-france-0000@pbem.localhost", "16-14 x1"))
    deliver_mail(runtime, compose(FRANCE, "noreply@pbem.localhost", "hello"))
    deliver_mail(runtime, compose("mallory@example.net", reply_to(runtime, SPAIN), "9-14"))


# Fixed seeds, so that every run plays the same games.
@pytest.mark.usefixtures("fixed_seeds")
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_no_mail_and_no_page_shows_an_internal_code(runtime: Runtime) -> None:
    check_pages: list[tuple[str, str]] = []
    dos = play_dos_de_mayo(runtime)
    running = dos_checks_in_progress(runtime, check_pages)
    solo = play_thermopyles(runtime, check_pages)
    musket = play_musket_and_pike(runtime, check_pages)
    stray_mail(runtime, running)
    gm_command(runtime, running, "EXTEND 12h")

    codes, labels = recorded_codes(runtime)
    hunt = Hunt(codes | table_codes() | source_codes(), labels | {"f-col-discard"})
    # The hunt looks for the codes that matter here.
    for code in ("all-submitted", "spain-holds", "unknown-order", "f-col-discard"):
        assert code in hunt.patterns, code
    assert "f col discard" in hunt.patterns

    mails = sent(runtime)
    kinds = {str(m["X-PBEM-Kind"] or "") for m in mails}
    for message in mails:
        hunt.mail(message)

    client = create_app(runtime).test_client()
    site = crawl(client, runtime.config.base_url)
    for path, kind in site.kinds.items():
        if kind == "text/html" or kind.startswith("text/") or kind.endswith("xml"):
            hunt.page(path, client.get(path).get_data(as_text=True), kind)
    for game_id in (dos, solo, musket):
        for path in (f"/games/{game_id}/fairness", f"/games/{game_id}/verify"):
            response = client.get(path, follow_redirects=True)
            assert response.status_code == 200, path
            hunt.page(path, response.get_data(as_text=True), "text/html")
    # The public checkers, with each game's examples and with lines that fail.
    bad = {
        "2demayo": ("TAKE NOBODY\n16-99 x1\n16-2 x9\nFLY", "france"),
        "thermopyles": ("FIGHT NOBODY\nDISCARD X", "spartans"),
        "musketpike": ("CHARGE X\nACTIVATE NOWHERE", "royalist"),
    }
    for key, (orders, seat) in bad.items():
        url = f"/help/{key}/check"
        hunt.page(url, check(client, url, orders, seat), "text/html")
        examples = re.findall(r'href="(/help/[^"]+/check\?[^"]+)"', client.get(url).get_data(True))
        assert examples, key
        for example in examples[:3]:
            hunt.page(
                example, client.get(html.unescape(example)).get_data(as_text=True), "text/html"
            )
    assert len(check_pages) >= 10
    for url, body in check_pages:
        hunt.page(url, body, "text/html")

    # Every kind of mail and page was read.
    paths = set(site.kinds)
    for expected in ("/", f"/games/{dos}", f"/games/{dos}/turns/1", "/help/2demayo", "/help"):
        assert expected in paths, (expected, sorted(paths))
    assert len(mails) > 60 and hunt.read > 200, (len(mails), hunt.read)
    expected_kinds = {"invitation", "start", "receipt", "report", "reminder", "problem", "help"}
    assert expected_kinds <= kinds, kinds

    found = "\n".join(
        f"{code}:\n  " + "\n  ".join(sorted(places)[:4])
        for code, places in sorted(hunt.found.items())
    )
    assert not hunt.found, f"internal codes shown to players:\n{found}"
