"""Text from outside is bounded where it enters and where it is shown, on SQLite and PostgreSQL,
through the real entry points: a megabyte display name cut on every page, in the JSON API and
in a shared deal's chart; bidi and zero-width characters of a name never shown; a game master's
reason without control or bidi characters, and cut, in the players' mail and the pages; a
Message-ID of 50 KB never the dice's words, nor copied into the other player's start mail."""

from __future__ import annotations

import dataclasses
import html
import io
import time

from PIL import Image
from playbymail import compose, deliver_mail, drain, html_of, reply_to, sent, sent_count, text_of
from sqlalchemy import select
from test_panel import FRANCE, GM, SPAIN, logged_in, started

from adjudicator import limits
from adjudicator.core import picture
from adjudicator.mail.reading import MailIn, read
from adjudicator.models import Game, Player, Turn
from adjudicator.services.reading import queries
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import charts, create_app

LEONIDAS = "leonidas@example.com"
# What no reader may be shown: controls (NUL, BEL, ESC), a bidi override, a zero-width space.
UNSEEN = ("\x00", "\x07", "\x1b", "\u202e", "\u200b")


def raw_mail(sender: str, to: str, body: str, message_id: str = "<m1@example.com>") -> bytes:
    """A mail as bytes, written by hand: the standard library would spend minutes folding a
    megabyte header, and a hostile sender folds nothing."""
    head = f"From: {sender}\r\nTo: {to}\r\nSubject: orders\r\nMessage-ID: {message_id}\r\n"
    return f"{head}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n".encode()


def game_ids(runtime: Runtime) -> list[int]:
    with runtime.db.session() as session:
        return list(session.scalars(select(Game.id).order_by(Game.id)))


def retreat_to_the_end(runtime: Runtime, game_id: int, player: str) -> None:
    """A solo game played to its end by mail, retreating every turn."""
    address = reply_to(runtime, player)
    for _ in range(60):
        with runtime.db.session() as session:
            if session.get_one(Game, game_id).status != "active":
                return
        deliver_mail(runtime, compose(player, address, "RETREAT NODRAW"))
    raise AssertionError(f"game {game_id} did not end")


def shown_everywhere(runtime: Runtime, game_id: int) -> dict[str, bytes]:
    """The bytes of every page and answer that shows the game's players, by path."""
    client = create_app(runtime).test_client()
    paths = ("/", f"/games/{game_id}", f"/api/games/{game_id}", "/api/games", "/challenges/cup")
    answers = {path: client.get(path) for path in paths}
    for path, answer in answers.items():
        assert answer.status_code == 200, path
    return {path: answer.get_data() for path, answer in answers.items()}


def test_a_megabyte_display_name_is_cut_on_every_page_the_api_and_the_chart(
    runtime: Runtime,
) -> None:
    name = "A" * 1_000_000
    body = "NEW THERMOPYLES SHARED cup"
    deliver_mail(runtime, raw_mail(f"{name} <{LEONIDAS}>", "new@pbem.localhost", body))
    [game_id] = game_ids(runtime)
    retreat_to_the_end(runtime, game_id, LEONIDAS)
    shown = shown_everywhere(runtime, game_id)
    sizes = {path: len(page) for path, page in shown.items()}
    print("page bytes with a 1 MB display name:", sizes)
    assert max(sizes.values()) < 60_000, sizes
    cut = "A" * (limits.NAME_LENGTH - 1) + limits.CUT
    with runtime.db.session() as session:
        assert session.scalars(select(Player.name)).one() == cut
    for path in ("/", f"/games/{game_id}", "/challenges/cup"):
        assert cut in shown[path].decode() and "A" * limits.NAME_LENGTH not in shown[path].decode()
    assert cut in shown[f"/api/games/{game_id}"].decode("unicode_escape")
    # The mail the player was sent names them as cut too, and is no bigger for it.
    welcome = sent(runtime)[0]
    assert "A" * limits.NAME_LENGTH not in text_of(welcome) + html_of(welcome)
    chart = create_app(runtime).test_client().get("/challenges/cup/chart.png")
    assert chart.status_code == 200 and chart.mimetype == "image/png"
    assert Image.open(io.BytesIO(chart.get_data())).size[0] == charts.WIDTH


def test_a_chart_cuts_any_name_to_its_row_whatever_the_row_holds(runtime: Runtime) -> None:
    deliver_mail(runtime, compose(LEONIDAS, "new@pbem.localhost", "NEW THERMOPYLES SHARED cup"))
    [game_id] = game_ids(runtime)
    retreat_to_the_end(runtime, game_id, LEONIDAS)
    with runtime.db.session() as session:
        board = queries.challenge_leaderboard(session, "cup")
    assert board is not None
    # A name as long as Pillow refuses to draw (a row stored some other way than by mail).
    huge = [dataclasses.replace(e, player="B" * 1_000_001) for e in board.entries]
    with picture.recording() as drawn:
        png = charts.leaderboard_chart(dataclasses.replace(board, entries=huge))
    assert png is not None and png.startswith(b"\x89PNG")
    [row] = [d for d in drawn if d.text.startswith("1. #")]
    assert row.text.endswith(limits.CUT) and row.box[2] <= 220  # where the bars begin
    face = picture.font(13)
    assert picture.fitted("1. #1 Leonidas", face, 188) == "1. #1 Leonidas"  # fits: whole


def test_bidi_and_zero_width_characters_of_a_name_reach_no_page(runtime: Runtime) -> None:
    deliver_mail(
        runtime,
        compose(
            f"Leo\u202enidas\u200b of\u2066 Sparta <{LEONIDAS}>",
            "new@pbem.localhost",
            "NEW THERMOPYLES",
        ),
    )
    [game_id] = game_ids(runtime)
    client = create_app(runtime).test_client()
    for path in ("/", f"/games/{game_id}", f"/api/games/{game_id}"):
        page = client.get(path).get_data().decode("unicode_escape" if "api" in path else "utf-8")
        assert "Leonidas of Sparta" in html.unescape(page), path
        assert not any(char in page for char in UNSEEN), path
    welcome = sent(runtime)[0]
    assert not any(char in text_of(welcome) + html_of(welcome) for char in UNSEEN)


def test_a_name_joined_with_is_kept_without_its_invisible_characters(runtime: Runtime) -> None:
    game_id = started_with(runtime, f"Joachim\u202e Mu\u200brat <{FRANCE}>")
    with runtime.db.session() as session:
        player = session.scalars(select(Player).where(Player.address == FRANCE)).one()
        assert player.name == "Joachim Murat"
    page = create_app(runtime).test_client().get(f"/games/{game_id}").get_data(as_text=True)
    assert "<td>France</td><td>Joachim Murat</td>" in html.unescape(page)


def started_with(runtime: Runtime, france: str) -> int:
    """A 2 de Mayo game whose France joins from the From line ``france``."""
    new = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", new))
    deliver_mail(runtime, compose(france, reply_to(runtime, FRANCE), "JOIN"))
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "JOIN"))
    [game_id] = game_ids(runtime)
    return game_id


def test_a_rollback_reason_from_the_panel_reaches_mail_and_pages_without_controls(
    runtime: Runtime,
) -> None:
    game_id, _, link = started(runtime)
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "16-14 x2"))
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "9-14"))
    client = logged_in(runtime, link)
    page = client.get(f"/games/{game_id}/manage").get_data(as_text=True)
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    before = sent_count(runtime)
    reason = "France\x00 misread\x07 the\x1b[31m map\u202e txet"
    answer = client.post(
        f"/games/{game_id}/manage/rollback",
        data={"reason": reason, "csrf_token": token, "confirmed": "yes"},
    )
    assert answer.status_code == 302
    drain(runtime)
    clean = "France misread the[31m map txet"
    with runtime.db.session() as session:
        rolled = select(Turn.rollback_note).where(Turn.rolled_back_at.is_not(None))
        assert session.scalars(rolled).all() == [clean]
    told = sent(runtime, before)
    assert {str(mail["To"]) for mail in told} >= {FRANCE, SPAIN}
    for mail in told:
        words = text_of(mail) + html_of(mail)
        assert not any(char in words for char in UNSEEN), str(mail["To"])
    assert any(clean in " ".join(text_of(mail).split()) for mail in told)
    public = create_app(runtime).test_client()
    for path in (f"/games/{game_id}", f"/games/{game_id}/turns/1", f"/api/games/{game_id}"):
        shown = public.get(path).get_data().decode("unicode_escape" if "api" in path else "utf-8")
        assert not any(char in shown for char in UNSEEN), path


def test_a_reason_by_mail_is_cut_to_its_bound_and_says_so(runtime: Runtime) -> None:
    _, gm_address, _ = started(runtime)
    before = sent_count(runtime)
    # Over 200 characters, but a line short enough to read (limits.LINE_WORDS).
    long_reason = "Luis\u202e is travelling " + "farther " * 30
    deliver_mail(runtime, compose(GM, gm_address, f"EXTEND 24h {long_reason}"))
    told = [mail for mail in sent(runtime, before) if str(mail["To"]) == SPAIN]
    assert told
    words = " ".join(text_of(told[-1]).split())
    expected = limits.cut(limits.plain(long_reason), limits.REASON_LENGTH)
    assert expected.endswith(limits.CUT) and expected in words
    assert "\u202e" not in words and "farther " * 29 not in words


def test_a_50_kb_message_id_is_not_the_words_for_the_dice(runtime: Runtime) -> None:
    sizes = []
    for huge in (False, True):
        first = len(game_ids(runtime))
        new = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\n"
        deliver_mail(runtime, compose(GM, "new@pbem.localhost", new))
        message_id = f"<{'x' * 50_000}@example.com>" if huge else "<j1@example.com>"
        join = raw_mail(FRANCE, reply_to(runtime, FRANCE), "JOIN", message_id)
        before = sent_count(runtime)
        deliver_mail(runtime, join)
        receipt = next(m for m in sent(runtime, before) if str(m["To"]) == FRANCE)
        deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "JOIN"))
        [game_id] = game_ids(runtime)[first:]
        start = next(
            m
            for m in reversed(sent(runtime))
            if str(m["To"]) == SPAIN and "game started" in str(m["Subject"])
        )
        sizes.append(len(start.as_bytes()))
        print("Spain's start mail bytes, a plain JOIN then a 50 KB Message-ID:", sizes)
        with runtime.db.session() as session:
            given = session.get_one(Game, game_id).contributions[0]
        assert given["seat"] == "france"
        if huge:
            assert given["source"] == "mail-digest" and len(given["words"]) == 64
            assert "x" * 300 not in text_of(start) and "x" * 300 not in str(receipt)
            assert "SHA-256 digest goes into the dice" in " ".join(text_of(receipt).split())
        else:
            assert given == {**given, "source": "message-id", "words": "<j1@example.com>"}
    assert abs(sizes[1] - sizes[0]) < 1_000, sizes


def test_header_values_are_bounded_where_they_are_read() -> None:
    def mail(message_id: str, subject: str = "hi") -> MailIn:
        raw = f"From: a@example.com\r\nTo: b@example.com\r\nSubject: {subject}\r\n"
        found = read(
            f"{raw}Message-ID: {message_id}\r\nReferences: {message_id}\r\n\r\nx\r\n".encode()
        )
        assert isinstance(found, MailIn)
        return found

    longest = f"<{'i' * (limits.MESSAGE_ID_LENGTH - 14)}@example.com>"
    assert len(longest) == limits.MESSAGE_ID_LENGTH
    assert mail(longest).message_id == longest and mail(longest).references == (longest,)
    over = f"<i{longest[1:]}"
    assert mail(over).message_id is None and mail(over).references == ()
    subject = mail("<s@example.com>", "Orders " * 1000).subject
    assert len(subject) == limits.SUBJECT_LENGTH and subject.endswith(limits.CUT)


def test_a_megabyte_header_of_words_is_read_in_well_under_a_second_or_two() -> None:
    # The standard library's parser takes time growing with the square of a field's words:
    # before the fields were shortened, this From took 125 s to read and this Subject 101 s.
    for field, expected in (
        ("From: " + "Leonidas " * 111_112 + "<leo@example.com>", "leo@example.com"),
        ("Subject: " + "word " * 200_000, ""),
    ):
        head = "From: a@example.com\r\n" if field.startswith("Subject") else ""
        raw = f"{head}{field}\r\nTo: b@example.com\r\nMessage-ID: <m@example.com>\r\n\r\nx\r\n"
        started_at = time.monotonic()
        found = read(raw.encode())
        took = time.monotonic() - started_at
        assert isinstance(found, MailIn) and took < 5, (field[:12], took)
        if expected:
            assert found.sender == expected
            assert found.sender_name == ("Leonidas " * 7)[:59].rstrip() + limits.CUT
        else:
            assert found.subject == limits.cut("word " * 61, limits.SUBJECT_LENGTH)


def test_shortening_the_header_fields_leaves_the_body_as_it_was() -> None:
    # Line feeds alone end this mail's lines; its body holds a CRLF blank line and a long line.
    long_line = "9-14 " * 1200
    raw = (
        f"From: a@example.com\nTo: b@example.com\nSubject: {'x' * 5000}\n"
        f"Message-ID: <m@example.com>\n\nSTATUS\r\n\r\n{long_line}\n"
    ).encode()
    found = read(raw)
    assert isinstance(found, MailIn)
    assert found.subject == "x" * (limits.SUBJECT_LENGTH - 1) + limits.CUT
    assert found.message_id == "<m@example.com>" and long_line.strip() in found.text
