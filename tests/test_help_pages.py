"""The order-syntax help pages and the order checker, on SQLite and PostgreSQL.

The checker must answer exactly as the receipt mail does, so the tests send the same text by mail
through the real pipeline and compare with the mail actually produced; and it must never store or
send anything, show anything hidden, or run script a visitor pasted.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from dos_de_mayo_by_mail import FRANCE, GM, SPAIN, start_dos_de_mayo
from flask.testing import FlaskClient
from playbymail import compose, deliver_mail, drain, sent, text_of
from sqlalchemy import func, select

from adjudicator.core.chance import Chance
from adjudicator.core.contract import LineStatus
from adjudicator.games import registry
from adjudicator.games.dos_de_mayo.cards import card_data as dos_cards
from adjudicator.games.thermopyles.cards import card_data as thermopyles_cards
from adjudicator.models import Game, InboundMessage, OutboxMessage, Seat, Submission, Turn
from adjudicator.services.reading import checker
from adjudicator.services.record import play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.words import commands
from adjudicator.web import create_app, csrf

GAMES = registry.games()
LEONIDAS = "leonidas@example.com"
CHECK_LINK = re.compile(r"https?://[^\s/]+(/games/\d+/check/[a-z0-9-]+/[0-9a-f]+)")


def plain(message: Any) -> str:
    """A mail's text part with the line ends the templates wrote (the wire form has CRLF)."""
    return text_of(message).replace("\r\n", "\n")


def client_for(runtime: Runtime) -> FlaskClient:
    return create_app(runtime).test_client()


def page(client: FlaskClient, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.get_data(as_text=True)


def token(client: FlaskClient, url: str) -> str:
    found = re.search(rf'name="{csrf.FIELD}" value="([^"]+)"', page(client, url))
    assert found is not None, "the form carries no CSRF token"
    return found.group(1)


def check(client: FlaskClient, url: str, orders: str, seat: str | None = None) -> str:
    """The checker's page for ``orders`` posted as a browser would (token from the form)."""
    data = {csrf.FIELD: token(client, url), "orders": orders}
    if seat is not None:
        data["seat"] = seat
    response = client.post(url, data=data)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


def receipt(checked: str) -> str:
    """The receipt block of a checker page, as text."""
    found = re.search(r'<pre class="receipt">(.*?)</pre>', checked, re.S)
    assert found is not None, "no receipt on the page"
    return html.unescape(found.group(1))


def codes(checked: str) -> dict[int, str]:
    """The rejection codes the checker shows, by line number."""
    rows = re.findall(r'<tr class="line" data-code="([^"]*)"><td[^>]*>(\d+)</td>', checked)
    return {int(number): code for code, number in rows if code}


def counts(runtime: Runtime) -> tuple[int, ...]:
    with runtime.db.session() as session:
        return tuple(
            session.scalar(select(func.count()).select_from(model)) or 0
            for model in (InboundMessage, Submission, Turn, OutboxMessage, Game, Seat)
        )


def start_thermopyles(runtime: Runtime) -> tuple[int, str, str]:
    """A Thermopyles game started by mail: its id, reply address and private checker path (from
    the welcome mail's footer, where players find it)."""
    deliver_mail(runtime, compose(LEONIDAS, "new@pbem.localhost", "NEW THERMOPYLES"))
    welcome = plain(sent(runtime)[-1])
    link = CHECK_LINK.search(welcome)
    assert link is not None, "the mail's footer has no checker link"
    with runtime.db.session() as session:
        game = session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert game is not None
        return game.id, play.seat_address(runtime, game, game.seats[0]), link.group(1)


def mail_reply(runtime: Runtime, sender: str, address: str, body: str) -> str:
    """The text of the service's answer to a mail of orders."""
    before = len(sent(runtime))
    deliver_mail(runtime, compose(sender, address, body))
    mails = sent(runtime)[before:]
    assert len(mails) == 1, [str(m["Subject"]) for m in mails]
    return plain(mails[0])


def report_codes(runtime: Runtime) -> dict[int, str]:
    """The rejection codes of the last stored submission by line number, as the pipeline kept
    them."""
    with runtime.db.session() as session:
        last = session.scalars(select(Submission).order_by(Submission.id.desc())).first()
        assert last is not None
        return {line["number"]: line["code"] for line in last.report if line.get("code")}


def state_of(runtime: Runtime, game_id: int) -> Any:
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        return play.rules_for(game).load(play.latest_turn(session, game_id).state)


def test_every_example_parses_clean_against_the_opening_position() -> None:
    for rules in GAMES.values():
        examples = checker.samples(rules).examples
        assert {example.seat for example in examples} == set(rules.seats), rules.key
        opening = checker.opening(rules)
        for example in examples:
            report = rules.parse_orders(opening, example.seat, example.text)
            assert report.ok, (rules.key, example.text, report.lines)
            assert all(line.status is LineStatus.ACCEPTED for line in report.lines), example
            assert example.note, example


def test_the_public_opening_is_no_real_game(runtime: Runtime) -> None:
    game_id, _, _ = start_thermopyles(runtime)
    rules = GAMES["thermopyles"]
    with runtime.db.session() as session:
        seed = session.get_one(Game, game_id).seed
        real = session.scalars(select(Turn).where(Turn.game_id == game_id)).one().state
    public = checker.samples(rules)
    assert public.seed != seed
    # The checker's deal comes from the public seed alone: the same for every visitor, and no
    # real game's position, so nothing hidden in a game can show through it.
    dealt = rules.new_game(rules.option_defaults(), Chance(public.seed, "help-thermopyles", 0))
    assert rules.dump(checker.opening(rules)) == rules.dump(dealt) != real


def test_help_lists_the_games_and_how_to_start(runtime: Runtime) -> None:
    client = client_for(runtime)
    index = html.unescape(page(client, "/help"))
    for rules in GAMES.values():
        assert rules.title in index and f'href="/help/{rules.key}"' in index
        assert f'href="/help/{rules.key}/check"' in index
    assert "new@pbem.localhost" in index and "NEW THERMOPYLES" in index
    assert client.get("/help/chess").status_code == 404
    assert client.get("/help/chess/check").status_code == 404


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_game_page_shows_syntax_examples_cards_and_commands(runtime: Runtime, key: str) -> None:
    rules = GAMES[key]
    shown = html.unescape(page(client_for(runtime), f"/help/{key}"))
    assert rules.page_help_text() in shown
    assert f"NEW {key.upper()}" in shown and "new@pbem.localhost" in shown
    for example in checker.samples(rules).examples:
        assert f'<pre class="example">{example.text}</pre>' in shown, example.text
        assert example.note in shown
    for word in commands.WORDS:
        assert re.search(rf"^  {word}\b", shown, re.M), word
    if key == "thermopyles":
        data = thermopyles_cards()
        names = [f"Spartan {value}" for value in set(data.spartans)]
        names += [f"Persian {card.id}" for card in data.persians]
        texts = [f"reach {card.red} to send it to the Graveyard" for card in data.persians]
    elif key == "2demayo":
        cards = dos_cards().cards
        names = [name for card in cards for name in (card.en, card.es)]
        # The page lists the cards once, in its table: a card's keyword is shown where a player
        # writes it (a card drawn takes effect without one).
        names += [f"keyword {card.keyword}" for card in cards if card.window != "on-draw"]
        texts = [card.help for card in cards]
    else:  # a game without card data of its own here: whatever card_texts() lists
        names = [card.name for card in rules.card_texts()]
        texts = [card.text for card in rules.card_texts()]
    for name in names:
        assert name in shown, name
    for text in texts:
        assert text in shown, text


def test_the_commands_read_as_the_mail_words_them(runtime: Runtime) -> None:
    shown = html.unescape(page(client_for(runtime), "/help/thermopyles"))
    help_mail = mail_reply(runtime, LEONIDAS, "help@pbem.localhost", "HELP")
    start = help_mail.index("COMMANDS (one per line")
    block = help_mail[start : help_mail.index("Archive of every game")].strip()
    assert block in shown


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_example_is_accepted_by_the_checker(runtime: Runtime, key: str) -> None:
    client = client_for(runtime)
    url = f"/help/{key}/check"
    examples = checker.samples(GAMES[key]).examples
    for example in examples:
        checked = check(client, url, example.text, example.seat)
        assert '<span class="ok">Accepted</span>' in checked, example.text
        lines = receipt(checked)
        assert "-> accepted" in lines and "-> rejected" not in lines, lines
    # The help page's "try it" links fill the form with each example, for its seat.
    links = re.findall(rf'href="({url}\?[^"]+)">try it', page(client, f"/help/{key}"))
    filled = set()
    for link in links:
        form = page(client, html.unescape(link))
        text = re.search(r"<textarea[^>]*>(.*?)</textarea>", form, re.S)
        seat = re.search(r'<option value="([a-z]+)" selected>|name="seat" value="([a-z]+)"', form)
        assert text is not None and seat is not None
        filled.add((seat.group(1) or seat.group(2), html.unescape(text.group(1))))
    assert filled == {(example.seat, example.text) for example in examples}


def test_a_wrong_order_reads_as_the_mail_receipt_does(runtime: Runtime) -> None:
    """Public checker and private link against the mail the pipeline sends for the same text."""
    text = "9-99\nPLAY BOGUS\n9 to 14\nSTAUTS\nhello there"
    client = client_for(runtime)
    public = check(client, "/help/2demayo/check", text, "spain")
    _, addresses = start_dos_de_mayo(runtime, gm_address=GM)
    welcome = next(plain(m) for m in sent(runtime) if str(m["To"]) == SPAIN)
    link = CHECK_LINK.search(welcome)
    assert link is not None
    private = check(client, link.group(1), text)
    mailed = mail_reply(runtime, SPAIN, addresses[SPAIN], text)
    block = receipt(public)
    # The mail's words, line by line: reasons, "did you mean", the sections.
    assert "there is no area 99" in block and "did you mean 15?" in block
    assert "'bogus' is not a card name" in block and "did you mean STATUS?" in block
    assert block in mailed, (block, mailed)
    assert receipt(private) == block
    # And the codes, which the mail does not print, as the pipeline stored them.
    assert codes(public) == codes(private) == report_codes(runtime)
    assert codes(public) == {1: "unknown-area", 2: "unknown-card"}


def test_the_private_checker_reads_the_current_position(runtime: Runtime) -> None:
    game_id, address, path = start_thermopyles(runtime)
    client = client_for(runtime)
    mail_reply(runtime, LEONIDAS, address, "RETREAT")  # turn 1: a card drawn, the marker moves
    state = state_of(runtime, game_id)
    shown = html.unescape(page(client, path))
    assert "your orders for turn 2" in shown
    hand = ", ".join(str(card) for card in state.hand)
    assert f"your hand: {hand}" in shown
    missing = next(value for value in range(10, 21) if value not in state.hand)
    text = f"FIGHT {missing}\nFIGHT {state.hand[0]}"
    checked = check(client, path, text)
    mailed = mail_reply(runtime, LEONIDAS, address, f"FIGHT {missing}")
    assert receipt(check(client, path, f"FIGHT {missing}")) in mailed
    assert codes(checked) == {1: "card-not-in-hand"}
    # A game that acts on receipt refuses such a set whole: its good line is not carried out.
    assert receipt(checked).endswith(
        f"  2. FIGHT {state.hand[0]}\n     -> understood, not carried out"
    )
    assert "понято, не выполнено" in check(client, path + "?lang=ru", text)


def test_a_private_link_must_be_signed_for_the_seat_now(runtime: Runtime) -> None:
    game_id, _, path = start_thermopyles(runtime)
    client = client_for(runtime)
    assert client.get(path).status_code == 200
    signature = path.rsplit("/", 1)[1]
    forged = "0" * len(signature) if signature != "0" * len(signature) else "1" * len(signature)
    for wrong in (
        path.replace(signature, forged),
        path.replace(signature, signature[:-1]),
        path.replace(f"/games/{game_id}/", f"/games/{game_id + 1}/"),
        path.replace("/spartans/", "/persians/"),
    ):
        assert client.get(wrong).status_code == 404, wrong
        assert client.post(wrong, data={"orders": "RETREAT"}).status_code == 404, wrong
    # A 2 de Mayo seat's link is no other seat's.
    dos_id, _ = start_dos_de_mayo(runtime, gm_address=GM)
    spain = next(plain(m) for m in sent(runtime) if str(m["To"]) == SPAIN)
    link = CHECK_LINK.search(spain)
    assert link is not None and f"/games/{dos_id}/check/spain/" in link.group(1)
    assert client.get(link.group(1).replace("/spain/", "/france/")).status_code == 404
    # The seat handed to another player: the old player's link stops working.
    with runtime.db.session() as session:
        seat = session.scalars(select(Seat).where(Seat.game_id == game_id)).one()
        seat.key_version += 1
    assert client.get(path).status_code == 404


def test_a_finished_game_takes_no_orders_to_check(runtime: Runtime) -> None:
    _, address, path = start_thermopyles(runtime)
    mail_reply(runtime, LEONIDAS, address, "RESIGN")
    client = client_for(runtime)
    shown = page(client, path)
    assert "is over" in shown and "<textarea" not in shown
    response = client.post(path, data={"orders": "RETREAT"})
    assert response.status_code == 200 and 'class="receipt"' not in response.get_data(as_text=True)


def test_checking_stores_and_sends_nothing(runtime: Runtime) -> None:
    game_id, _, path = start_thermopyles(runtime)
    start_dos_de_mayo(runtime, gm_address=GM)
    france = CHECK_LINK.search(next(plain(m) for m in sent(runtime) if str(m["To"]) == FRANCE))
    assert france is not None
    state = state_of(runtime, game_id)
    client = client_for(runtime)
    before, mails = counts(runtime), len(sent(runtime))
    # Accepted orders included: in a mail these would be stored, and resolved at once.
    check(client, path, f"FIGHT {state.hand[0]} SUPPORT 1\nSTATUS\nVACATION UNTIL 2030-01-01")
    check(client, path, "RETREAT")
    check(client, "/help/thermopyles/check", "FIGHT 17")
    check(client, "/help/2demayo/check", "TAKE MURAT\n16-14\nWAIT", "france")
    check(client, france.group(1), "TAKE MURAT\n16-14\nWAIT\nJOIN")
    drain(runtime)
    assert counts(runtime) == before and len(sent(runtime)) == mails
    assert GAMES["thermopyles"].dump(state_of(runtime, game_id)) == GAMES["thermopyles"].dump(state)
    with runtime.db.session() as session:
        player = session.get_one(Game, game_id).seats[0].player
        assert player.vacation_end is None  # the command was named, not run


def test_a_post_without_the_form_token_is_refused(runtime: Runtime) -> None:
    _, _, path = start_thermopyles(runtime)
    client = client_for(runtime)
    for url in ("/help/thermopyles/check", path):
        token(client, url)  # the session has a token; the post must carry it
        assert client.post(url, data={"orders": "RETREAT"}).status_code == 400
        wrong = {csrf.FIELD: "not-the-token", "orders": "RETREAT"}
        assert client.post(url, data=wrong).status_code == 400
    # A token from another browser's session is no good in this one.
    other = client_for(runtime)
    stolen = {csrf.FIELD: token(other, "/help/thermopyles/check"), "orders": "RETREAT"}
    fresh = client_for(runtime)
    assert fresh.post("/help/thermopyles/check", data=stolen).status_code == 400


def test_script_in_the_orders_is_shown_as_text(runtime: Runtime) -> None:
    client = client_for(runtime)
    payload = '</textarea><script>alert("x")</script><img src=x onerror=alert(1)>'
    checked = check(client, "/help/thermopyles/check", f"FIGHT 17\n{payload}")
    prefilled = page(client, f"/help/thermopyles/check?orders={payload}")
    for shown in (checked, prefilled):
        assert "<script>alert" not in shown and "<img src=x" not in shown
        assert "&lt;script&gt;alert(" in shown
    assert payload in receipt(checked)  # the player's text, intact, as text


def test_an_oversized_text_is_refused_politely(runtime: Runtime) -> None:
    client = client_for(runtime)
    url = "/help/thermopyles/check"
    good = token(client, url)
    before = counts(runtime)
    for size in (checker.LIMIT_BYTES + 1, 20 * checker.LIMIT_BYTES):
        response = client.post(url, data={csrf.FIELD: good, "orders": "RETREAT\n" + "x" * size})
        assert response.status_code == 413, size
        assert "paste only your orders" in response.get_data(as_text=True)
    assert counts(runtime) == before
    # Just under the limit, the text is read as usual.
    under = receipt(check(client, url, "RETREAT\n" + "x" * 19_000))
    assert "  1. RETREAT\n     -> accepted\n" in under
