"""The order checker: a mail's orders read exactly as the pipeline reads them, nothing stored.

The public checker reads against a game's opening position dealt from a public seed (no game's),
so it can show nothing hidden about a real game. The private checker reads against a real game's
current position for one seat, reached by a signed link only that seat's mail carries
(``addresses.check_signature``), so its answer is the receipt the coming turn's mail would get.

Reading a text is the pipeline's own reading: the player's own lines (``extract.order_lines``),
commands sorted out (``commands.read``), then ``orders.read`` (chatter beside commands set aside,
ADD joined to the set on file), the report shown as the receipt shows it (``lookalikes.sift`` and
``replies.receipt_lines``). Commands are named, never run: the checker changes nothing.
tests/test_help_pages.py compares its answer with the mail actually sent.
"""

from __future__ import annotations

import base64
import functools
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from adjudicator import i18n
from adjudicator.core import datafile, said
from adjudicator.core.chance import Chance
from adjudicator.core.contract import Game as Rules
from adjudicator.games import registry
from adjudicator.mail import addresses, extract
from adjudicator.models import Game, Seat
from adjudicator.services.outbound import replies
from adjudicator.services.record import on_file, play
from adjudicator.services.record.runtime import Runtime
from adjudicator.services.words import commands, lookalikes, orders
from adjudicator.statuses import GameStatus
from adjudicator.templating import in_language, text_environment

LIMIT_BYTES = 20_000  # a long order set is a few hundred bytes; anything near this is a mistake
RECEIPT_TEMPLATE = "web/_receipt.txt"
ZOOM = 2  # the preview's second picture, for dense screens: twice the width and height


@dataclass(frozen=True)
class Example:
    """One example mail for one seat, with a sentence saying what it does."""

    seat: str
    text: str
    note: str


@dataclass(frozen=True)
class Samples:
    """A game's examples and the public seed of the opening position they are checked against,
    and what the checker's picture of checked orders shows, in a sentence under it."""

    seed: bytes
    examples: tuple[Example, ...]
    preview_caption: str = ""


@dataclass(frozen=True)
class Checked:
    """What the checker made of a text: the receipt's context and its text as the mail words it."""

    accepted: bool
    orders: bool  # False when the text held no order line at all (commands or chatter only)
    context: dict[str, Any]
    text: str
    # The accepted orders drawn on the map as a data: URI (``preview``); None where the game
    # draws no preview or nothing was accepted. ``picture_2x`` is the same at twice the size,
    # for a dense screen or a zoom.
    picture: str | None = None
    picture_2x: str | None = None


@dataclass(frozen=True)
class SeatCheck:
    """A real game's seat behind a valid private link, and what its orders are read against."""

    game_id: int
    title: str
    game_key: str
    seat: str
    status: GameStatus
    turn: int  # the turn the next orders are for
    prompt: str
    state: Any
    earlier: str | None  # the accepted set on file for that turn, which ADD joins


def samples(rules: Rules[Any]) -> Samples:
    """The game's examples.toml (beside its parser), or none when the game has no such file."""
    return _samples(type(rules).__module__.rsplit(".", 1)[0])


@functools.cache
def _samples(package: str) -> Samples:
    source = resources.files(package).joinpath("examples.toml")
    if not source.is_file():
        return Samples(b"pbem public order checker", ())
    return read_samples(tomllib.loads(source.read_text(encoding="utf-8")), f"{package} examples")


def read_samples(raw: dict[str, Any], what: str) -> Samples:
    """A game's examples.toml as read: each note and the caption a sentence in the reader's
    language (the file's ``note_<lang>`` beside each English ``note``, ``said.named``'s form);
    raises DataError naming every text missing in a language the file lists (``translated``)."""
    read = datafile.Reader()
    languages = read.languages(raw)

    def text(entry: dict[str, Any], key: str, where: str) -> str:
        # TOML's multi-line strings start after a newline: each text is read as one line.
        texts = {
            code: " ".join(words.split())
            for code, words in read.texts(entry, key, where, languages).items()
        }
        with i18n.speaking(i18n.SOURCE):  # made in English; the page writes it anew
            return said.named(texts.pop(""), **texts)

    examples = tuple(
        # An example's text keeps its lines (a whole mail); its first line is its own.
        Example(str(entry["seat"]), str(entry["text"]).strip("\n"), text(entry, "note", where))
        for index, entry in enumerate(raw.get("examples", []))
        for where in [f"examples[{index}]"]
    )
    caption = text(raw, "preview_caption", "file") if "preview_caption" in raw else ""
    if read.problems:
        raise datafile.DataError(what, read.problems)
    seed = str(raw.get("seed", "pbem public order checker")).encode()
    return Samples(seed, examples, caption)


def opening(rules: Rules[Any]) -> Any:
    """The public checker's position: a new game with default options from the public seed."""
    return _opening(rules.key)


@functools.cache
def _opening(key: str) -> Any:
    rules = registry.get(key)
    assert rules is not None  # only called with a registered game's key
    state = rules.new_game(rules.option_defaults(), Chance(samples(rules).seed, f"help-{key}", 0))
    # Stored states are dumps; going through dump/load gives the parser what a real game gives it.
    return rules.load(rules.dump(state))


def prompt(rules: Rules[Any], state: Any, seat: str) -> str:
    """What the seat is asked now, in the current reader's language."""
    decision = rules.pending(state).get(seat)
    return said.anew(decision.prompt) if decision else ""


def check(
    rules: Rules[Any],
    state: Any,
    seat: str,
    text: str,
    earlier: str | None = None,
    viewer: str | None = None,
    lang: str | None = None,
) -> Checked:
    """Read ``text`` as the body of a mail from ``seat`` (see the module's docstring); its
    picture is drawn over what ``viewer`` may see (None: the public view); the receipt in
    ``lang``, else in the current reader's (a page holds ``i18n.speaking`` for its reader)."""
    lang = lang or said.language()
    with i18n.speaking(lang):
        return _check(rules, state, seat, text, (earlier, viewer), lang)


def _check(
    rules: Rules[Any],
    state: Any,
    seat: str,
    text: str,
    against: tuple[str | None, str | None],
    lang: str,
) -> Checked:
    earlier, viewer = against
    own = extract.own_text(text)
    body = [line for line in own.lines if line.strip()]
    games = registry.titles()
    reading = commands.with_unread(commands.read(body, None, games), own)
    sections = commands.Sections(ignored=list(reading.ignored))
    for command in reading.commands:
        sections.did(
            command,
            i18n.gettext("a command: it is run when you mail it, never by this checker", lang),
        )
    got = orders.read(rules, state, seat, list(reading.others), reading, sections, earlier)
    found = got.report is not None
    context: dict[str, Any] = {"lines": [], "missing": [], "accepted": False}
    if got.report is not None:
        shown = lookalikes.sift(got.report, sections)
        context = replies.receipt_lines(shown, orders.files(rules, shown))
    context["sections"] = sections.json()
    template = text_environment().get_template(RECEIPT_TEMPLATE)
    rendered = template.render({**context, **in_language(lang)})
    pictures: tuple[str | None, str | None] = (None, None)
    if got.report is not None and got.report.orders is not None:
        pictures = preview(rules, state, seat, got.report.orders, viewer)
    accepted = bool(context["accepted"])
    return Checked(accepted, found, context, rendered.strip("\n"), *pictures)


def preview(
    rules: Rules[Any], state: Any, seat: str, orders: Any, viewer: str | None
) -> tuple[str | None, str | None]:
    """Parsed orders drawn by the game's own renderer over ``viewer``'s view, as data: URIs at
    the mail's size and at twice it: the page carries its pictures, so nothing is stored and no
    order travels in an address. (None, None) where the game draws no preview."""
    facts = rules.preview_facts(state, seat, orders)
    if facts is None:
        return None, None
    view = rules.view(state, viewer)
    one, two = (rules.render(view, facts, scale) for scale in (1, ZOOM))
    return _data_uri(one), _data_uri(two)


def _data_uri(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def seat_check(runtime: Runtime, game_id: int, seat: str, signature: str) -> SeatCheck | None:
    """The seat behind a private checker link, or None when the link is not (or no longer) valid:
    unknown game or seat, a wrong signature, or a seat handed to another player since."""
    with runtime.db.session() as session:
        game = session.get(Game, game_id)
        found = next((row for row in game.seats if row.seat == seat), None) if game else None
        if game is None or found is None or not _signed(runtime, game, found, signature):
            return None
        rules = play.rules_for(game)
        turn = play.latest_turn(session, game.id)
        state = rules.load(turn.state)
        return SeatCheck(
            game_id=game.id,
            title=rules.title,
            game_key=rules.key,
            seat=found.seat,
            status=game.status,
            turn=turn.number + 1,
            prompt=prompt(rules, state, found.seat) if game.status == GameStatus.ACTIVE else "",
            state=state,
            earlier=on_file.orders_text_on_file(session, game, found.seat, turn.number + 1),
        )


def _signed(runtime: Runtime, game: Game, seat: Seat, signature: str) -> bool:
    config = runtime.config
    return addresses.check_signature_ok(
        config.secret_key, game.id, seat.seat, seat.key_version, signature, config.previous_keys
    )
