"""The game-master web panel, on SQLite and PostgreSQL: a game made by mail, its mailed login
link, every form run through the same commands as mail, and the guards (CSRF, rate limits,
single-use expiring links, sessions scoped to one game, read-only when the game is over)."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from flask.testing import FlaskClient
from itsdangerous import URLSafeSerializer
from playbymail import compose, deliver_mail, drain, reply_to, row_count, sent, text_of
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from adjudicator.core.refusal import Refusal
from adjudicator.models import Game, OutboxMessage, PanelLink, Player, Turn, utcnow
from adjudicator.services.access import panel_links
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

GM, FRANCE, SPAIN = "gm@example.com", "murat@example.com", "daoiz@example.com"
NEW = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE 48h\nTIMEZONE Europe/Madrid\n"
LINK = re.compile(r"http://127\.0\.0\.1:8000(/gm/[A-Za-z0-9_.\-]+)")


def last_to(runtime: Runtime, address: str) -> str:
    mails = [mail for mail in sent(runtime) if str(mail["To"]) == address]
    assert mails, f"nothing was sent to {address}"
    return text_of(mails[-1]).replace("\r\n", "\n")


def words(markup: str) -> str:
    """A page's text as a reader sees it: tags dropped, entities read."""
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def count_to(runtime: Runtime, address: str) -> int:
    return sum(str(mail["To"]) == address for mail in sent(runtime))


def formed(runtime: Runtime) -> tuple[int, str, str]:
    """A game made by mail: its id, the GM's command address and the welcome's panel link."""
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW))
    welcome = last_to(runtime, GM)
    assert "is formed, with you as its game master" in welcome
    found = LINK.search(welcome)
    assert found, welcome
    with runtime.db.session() as session:
        game_id = session.scalars(select(Game.id)).one()
    return game_id, reply_to(runtime, GM), found.group(1)


def started(runtime: Runtime) -> tuple[int, str, str]:
    game_id, gm_address, link = formed(runtime)
    for player in (FRANCE, SPAIN):
        deliver_mail(runtime, compose(player, reply_to(runtime, player), "JOIN"))
    with runtime.db.session() as session:
        assert session.get_one(Game, game_id).status == "active"
    return game_id, gm_address, link


def press_open(client: FlaskClient, link: str) -> TestResponse:
    """What the game master does with the mailed link: open its page, press its button (the
    button's form carries the page's CSRF token)."""
    shown = client.get(link).get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', shown)
    assert found, shown
    return client.post(link, data={"csrf_token": found.group(1)})


def logged_in(runtime: Runtime, link: str) -> FlaskClient:
    client = create_app(runtime).test_client()
    opened = press_open(client, link)
    assert opened.status_code == 302, opened.get_data(as_text=True)
    return client


def page(client: FlaskClient, game_id: int) -> str:
    response = client.get(f"/games/{game_id}/manage")
    assert response.status_code == 200, response.status_code
    return html.unescape(response.get_data(as_text=True))


def csrf_of(client: FlaskClient, game_id: int) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page(client, game_id))
    assert found
    return found.group(1)


def post(client: FlaskClient, game_id: int, action: str, **form: str) -> str:
    """Post a panel form as a browser would (with the page's CSRF token), follow to the panel."""
    form.setdefault("csrf_token", csrf_of(client, game_id))
    response = client.post(f"/games/{game_id}/manage/{action}", data=form)
    assert response.status_code == 302, (response.status_code, response.get_data(as_text=True))
    return page(client, game_id)


def ask(client: FlaskClient, game_id: int, action: str, **form: str) -> str:
    """Post a form whose change cannot be undone, without its confirmation: the question page."""
    form.setdefault("csrf_token", csrf_of(client, game_id))
    response = client.post(f"/games/{game_id}/manage/{action}", data=form)
    assert response.status_code == 200, (response.status_code, response.get_data(as_text=True))
    return response.get_data(as_text=True)


def game_of(runtime: Runtime, game_id: int) -> Game:
    with runtime.db.session() as session:
        return session.get_one(Game, game_id)


def test_the_welcome_link_opens_the_panel_once(runtime: Runtime) -> None:
    game_id, _, link = formed(runtime)
    client = create_app(runtime).test_client()
    # Opening the mailed link spends nothing (mail scanners fetch links before people do): it
    # shows a button, and only its POST opens the session.
    for _ in range(2):
        shown_first = client.get(link)
        assert shown_first.status_code == 200 and 'form id="open"' in shown_first.get_data(
            as_text=True
        )
    assert client.get(f"/games/{game_id}/manage").status_code == 302  # no session yet
    opened = press_open(client, link)
    assert opened.status_code == 302
    assert opened.headers["Location"].endswith(f"/games/{game_id}/manage")
    cookie = opened.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert opened.headers["Referrer-Policy"] == "same-origin"
    shown = page(client, game_id)
    assert "2 de Mayo, game 1: game master" in shown.replace(str(game_id), "1")
    # The game master sees the players' addresses, and that they have not joined yet.
    assert f"<td>{FRANCE}</td>" in shown and f"<td>{SPAIN}</td>" in shown
    assert "invited, waiting" in shown and '<form id="logout"' in shown
    assert "no-store" in client.get(f"/games/{game_id}/manage").headers["Cache-Control"]
    # The same link again, even from the same browser: refused, with the way to a new one.
    again = create_app(runtime).test_client().get(link)
    assert again.status_code == 403
    text = words(again.get_data(as_text=True))
    assert "has been used already" in text and "mail the word PANEL" in text


def test_forged_and_expired_links_are_refused(runtime: Runtime) -> None:
    game_id, _, link = formed(runtime)
    client = create_app(runtime).test_client()
    token = link.removeprefix("/gm/")
    payload = URLSafeSerializer("test-secret-key", salt=panel_links.SALT).loads(token)
    # Signed with another key, or with one character of the signature changed.
    forged = URLSafeSerializer("another-key", salt=panel_links.SALT).dumps(payload)
    # The signature's first character carries six whole bits (its last may be only padding).
    body, _, signature = token.rpartition(".")
    flipped = f"{body}.{'A' if signature[0] != 'A' else 'B'}{signature[1:]}"
    for bad in (forged, flipped, "nonsense"):
        response = client.get(f"/gm/{bad}")
        assert response.status_code == 403
        assert "not one this service sent" in response.get_data(as_text=True)
    # A link issued 25 hours ago (links last 24 h) is expired, though never used.
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        old = panel_links.issue(session, runtime, game, utcnow() - timedelta(hours=25))
    assert isinstance(old, panel_links.Issued)
    response = client.get(old.url.removeprefix(runtime.config.base_url))
    assert response.status_code == 403 and "This link has expired" in response.get_data(
        as_text=True
    )
    assert client.get(f"/games/{game_id}/manage").status_code == 302  # no session was made
    # The untouched welcome link still works: none of the refusals spent it.
    assert press_open(client, link).status_code == 302
    assert client.get(f"/games/{game_id}/manage").status_code == 200


def test_without_a_session_the_panel_sends_you_to_get_a_link(runtime: Runtime) -> None:
    game_id, _, link = started(runtime)
    stranger = create_app(runtime).test_client()
    response = stranger.get(f"/games/{game_id}/manage")
    assert response.status_code == 302 and "/gm?game=" in response.headers["Location"]
    followed = words(stranger.get(response.headers["Location"]).get_data(as_text=True))
    assert "mail the word PANEL to your game's game-master address" in followed
    before = game_of(runtime, game_id).deadline
    posted = stranger.post(f"/games/{game_id}/manage/extend", data={"hours": "5"})
    assert posted.status_code == 302 and game_of(runtime, game_id).deadline == before
    # A session for one game is no key to another.
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", NEW))
    with runtime.db.session() as session:
        other = session.scalars(select(Game.id).where(Game.id != game_id)).one()
    client = logged_in(runtime, link)
    assert client.get(f"/games/{other}/manage").status_code == 403
    assert client.post(f"/games/{other}/manage/pause", data={}).status_code == 403
    assert not game_of(runtime, other).paused


def test_panel_by_mail_answers_only_the_gm_within_the_hourly_limit(runtime: Runtime) -> None:
    runtime.config = runtime.config.with_overrides(panel_links_per_hour=3)
    game_id, gm_address, _ = started(runtime)  # the welcome used one link of the hour
    players_mail = count_to(runtime, FRANCE) + count_to(runtime, SPAIN)
    deliver_mail(runtime, compose(GM, gm_address, "PANEL"))
    answer = last_to(runtime, GM)
    assert "PANEL\n     -> done: open http://127.0.0.1:8000/gm/" in answer
    fresh = LINK.search(answer)
    assert fresh is not None
    # Someone else mailing PANEL to the address gets no link; the GM is not mailed either.
    gm_mails = count_to(runtime, GM)
    deliver_mail(runtime, compose(FRANCE, gm_address, "PANEL"))
    assert "/gm/" not in last_to(runtime, FRANCE) and count_to(runtime, GM) == gm_mails
    deliver_mail(runtime, compose(GM, gm_address, "PANEL"))
    assert "-> done: open" in last_to(runtime, GM)
    deliver_mail(runtime, compose(GM, gm_address, "PANEL"))
    refused = last_to(runtime, GM)
    assert re.search(r"-> not done: too many links requested, try again in \d+ min", refused)
    assert "/gm/" not in refused
    # Players heard nothing of any of it (France got only the answer to its own mail).
    assert count_to(runtime, FRANCE) + count_to(runtime, SPAIN) == players_mail + 1
    with runtime.db.session() as session:
        links = session.scalar(select(func.count()).select_from(PanelLink))
        assert links == 3
    # The link mailed on request opens the panel.
    assert "game master" in page(logged_in(runtime, fresh.group(1)), game_id)


def test_extend_pause_resume_by_panel_do_what_the_mail_commands_do(runtime: Runtime) -> None:
    game_id, gm_address, link = started(runtime)
    client = logged_in(runtime, link)
    before = game_of(runtime, game_id)
    assert before.deadline is not None
    shown = post(client, game_id, "extend", hours="24")
    assert "EXTEND 24h: done — deadline now" in shown
    after = game_of(runtime, game_id)
    assert after.deadline == before.deadline + timedelta(hours=24)
    assert after.deadline_sequence == before.deadline_sequence + 1
    drain(runtime)
    for player in (FRANCE, SPAIN):
        assert "The deadline has moved (extended)" in last_to(runtime, player)
    # The same command by mail moves the deadline by the same amount, told the same way.
    deliver_mail(runtime, compose(GM, gm_address, "EXTEND 24h"))
    assert game_of(runtime, game_id).deadline == before.deadline + timedelta(hours=48)
    assert "The deadline has moved (extended)" in last_to(runtime, FRANCE)
    # Pause and resume.
    assert 'id="pause"' in page(client, game_id)
    shown = post(client, game_id, "pause")
    assert "PAUSE: done — paused" in shown and 'id="resume"' in shown
    assert game_of(runtime, game_id).paused
    drain(runtime)
    assert "The game master has paused the game" in last_to(runtime, SPAIN)
    post(client, game_id, "resume")
    assert not game_of(runtime, game_id).paused
    drain(runtime)
    assert "The game master has resumed the game" in last_to(runtime, FRANCE)
    # A form the command would refuse is refused before it runs, and says why.
    shown = post(client, game_id, "extend", hours="0")
    assert "Not done: extend by a whole number of hours" in shown


def test_replace_and_process_now_by_panel(runtime: Runtime) -> None:
    game_id, _, link = started(runtime)
    client = logged_in(runtime, link)
    shown = post(client, game_id, "replace", seat="spain", address="Palafox@Example.com")
    assert "Spain: daoiz@example.com replaced by palafox@example.com" in shown
    assert "<td>palafox@example.com</td>" in shown
    drain(runtime)
    # Players read names, never addresses: the new player has given none yet.
    assert "Spain is now played by a new player" in last_to(runtime, FRANCE)
    # The new player is told too, from the seat's new reply address.
    assert "Spain is now played by a new player" in last_to(runtime, "palafox@example.com")
    # An address with a second word cannot smuggle anything into the command.
    shown = post(client, game_id, "replace", seat="spain", address="a@b.org END")
    assert "Not done: give the new player's mail address" in shown
    assert game_of(runtime, game_id).status == "active"
    question = words(ask(client, game_id, "process"))
    assert f"Process turn 1 of game {game_id} now?" in question
    assert "No orders are on file for France, Spain: those seats get the defaults." in question
    assert game_of(runtime, game_id).forced_at is None
    shown = post(client, game_id, "process", confirmed="yes")
    assert "PROCESS NOW: done — the turn will be processed at once" in shown
    drain(runtime)
    assert "turn 1 resolved (forced by the game master)" in last_to(runtime, FRANCE)
    with runtime.db.session() as session:
        turn = session.scalars(select(Turn).where(Turn.game_id == game_id, Turn.number == 1)).one()
        assert turn.reason == "forced"


def test_the_zone_picker_reads_the_time_on_the_chosen_clock(runtime: Runtime) -> None:
    game_id, _, link = started(runtime)
    with runtime.db.session() as session:
        gm = session.scalars(select(Player).where(Player.address == GM)).one()
        gm.timezone = "Asia/Tokyo"
    client = logged_in(runtime, link)
    shown = page(client, game_id)
    # The game's zone and the game master's own are offered first; the GM's is preselected.
    options = re.findall(r'<option value="([^"]+)"( selected)?>', shown)
    assert [zone for zone, _ in options[:2]] == ["Europe/Madrid", "Asia/Tokyo"]
    assert [zone for zone, chosen in options if chosen] == ["Asia/Tokyo"]
    assert "America/New_York" in [zone for zone, _ in options]
    today = datetime.now(UTC)
    year = today.year if today < datetime(today.year, 12, 20, tzinfo=UTC) else today.year + 1
    shown = post(
        client, game_id, "deadline", date=f"{year}-12-24", time="20:00", zone="America/New_York"
    )
    # 20:00 on the New York clock in December (EST, UTC-5) is 01:00 UTC the next day.
    assert game_of(runtime, game_id).deadline == datetime(year, 12, 25, 1, 0, tzinfo=UTC)
    assert f"SET DEADLINE {year}-12-24 20:00 America/New_York: done" in shown
    # Shown on the game's clock (Madrid, UTC+1 in winter), with UTC beside it.
    christmas = datetime(year, 12, 25, 2, 0)
    assert f"{christmas:%a %d %b %Y} 02:00 CET = 01:00 UTC" in shown
    drain(runtime)
    assert "The deadline has moved (set by the game master)" in last_to(runtime, SPAIN)
    for bad in ({"zone": "Mars/Olympus"}, {"time": "25:00"}, {"date": "2026-02-30"}):
        form = {"date": f"{year}-12-24", "time": "20:00", "zone": "UTC", **bad}
        assert "Not done:" in post(client, game_id, "deadline", **form)
    assert game_of(runtime, game_id).deadline == datetime(year, 12, 25, 1, 0, tzinfo=UTC)


def test_rollback_asks_for_confirmation_first(runtime: Runtime) -> None:
    game_id, _, link = started(runtime)
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "16-14 x2"))
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "9-14"))
    with runtime.db.session() as session:
        assert session.scalar(select(func.max(Turn.number)).where(Turn.game_id == game_id)) == 1
    client = logged_in(runtime, link)
    assert 'id="rollback"' in page(client, game_id)
    mails = row_count(runtime, OutboxMessage)
    token = csrf_of(client, game_id)
    reason = "France <script>alert(1)</script> misread"
    body = ask(client, game_id, "rollback", reason=reason, csrf_token=token)
    assert 'id="confirm"' in body and "Roll back turn 1" in body
    assert "<script>alert" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    # Nothing has happened yet.
    with runtime.db.session() as session:
        assert session.scalar(select(func.count()).where(Turn.rolled_back_at.is_not(None))) == 0
    assert row_count(runtime, OutboxMessage) == mails
    confirmed = client.post(
        f"/games/{game_id}/manage/rollback",
        data={"reason": reason, "csrf_token": token, "confirmed": "yes"},
    )
    assert confirmed.status_code == 302
    assert "turn 1 rolled back" in page(client, game_id)
    with runtime.db.session() as session:
        rolled = session.scalars(select(Turn).where(Turn.rolled_back_at.is_not(None))).one()
        assert rolled.number == 1 and rolled.rollback_note == reason
    drain(runtime)
    assert "rolled back turn 1 (France" in last_to(runtime, SPAIN).replace("\n", " ")


@pytest.mark.parametrize("token", [None, "wrong", ""])
def test_a_post_without_the_right_csrf_token_changes_nothing(
    runtime: Runtime, token: str | None
) -> None:
    game_id, _, link = started(runtime)
    client = logged_in(runtime, link)
    csrf_of(client, game_id)  # the session has a token; the post must carry it
    before, mails = game_of(runtime, game_id), row_count(runtime, OutboxMessage)
    data = {"hours": "24"} if token is None else {"hours": "24", "csrf_token": token}
    assert client.post(f"/games/{game_id}/manage/extend", data=data).status_code == 400
    # A confirmed change is checked the same: the "yes" alone opens nothing.
    for action in ("rollback", "process", "end"):
        confirmed = {"reason": "x", "confirmed": "yes"}
        if token is not None:
            confirmed["csrf_token"] = token
        path = f"/games/{game_id}/manage/{action}"
        assert client.post(path, data=confirmed).status_code == 400, action
    assert game_of(runtime, game_id).status == "active"
    after = game_of(runtime, game_id)
    assert after.deadline == before.deadline and after.deadline_sequence == before.deadline_sequence
    assert row_count(runtime, OutboxMessage) == mails


def test_form_posts_are_limited_per_minute(runtime: Runtime) -> None:
    runtime.config = runtime.config.with_overrides(panel_posts_per_minute=3)
    game_id, _, link = started(runtime)
    client = logged_in(runtime, link)
    token = csrf_of(client, game_id)
    for _ in range(3):  # refused forms count too: each is a post
        response = client.post(
            f"/games/{game_id}/manage/extend", data={"hours": "x", "csrf_token": token}
        )
        assert response.status_code == 302
    limited = client.post(f"/games/{game_id}/manage/pause", data={"csrf_token": token})
    assert limited.status_code == 429 and 1 <= int(limited.headers["Retry-After"]) <= 60
    assert not game_of(runtime, game_id).paused
    # The counter is durable and per session: the next minute's window opens again.
    with runtime.db.session() as session:
        row = session.scalars(select(PanelLink).where(PanelLink.used_at.is_not(None))).one()
        assert row.posts == 3
        nonce = row.nonce
    assert panel_links.count_post(runtime, nonce, utcnow() + timedelta(minutes=1)) == 0


def test_an_ended_game_shows_read_only(runtime: Runtime) -> None:
    game_id, gm_address, link = started(runtime)
    client = logged_in(runtime, link)
    token = csrf_of(client, game_id)
    deliver_mail(runtime, compose(GM, gm_address, "END"))
    shown = page(client, game_id)
    assert "nothing can change, so the panel only shows it" in words(shown)
    assert 'id="extend"' not in shown and 'id="deadline"' not in shown
    posted = client.post(f"/games/{game_id}/manage/resume", data={"csrf_token": token})
    assert posted.status_code == 302
    assert "the panel is read-only" in page(client, game_id)
    game = game_of(runtime, game_id)
    assert game.status == "finished" and game.deadline is None


def test_logout_ends_the_session_even_for_a_kept_cookie(runtime: Runtime) -> None:
    game_id, _, link = started(runtime)
    client = logged_in(runtime, link)
    page(client, game_id)
    kept = client.get_cookie("session")
    assert kept is not None
    out = client.post(
        f"/games/{game_id}/manage/logout", data={"csrf_token": csrf_of(client, game_id)}
    )
    assert out.status_code == 302
    assert client.get(f"/games/{game_id}/manage").status_code == 302
    replay = create_app(runtime).test_client()
    replay.set_cookie("session", kept.value)
    response = replay.get(f"/games/{game_id}/manage")
    assert response.status_code == 302 and "/gm?game=" in response.headers["Location"]


def test_a_session_lasts_only_its_hours(runtime: Runtime) -> None:
    game_id, _, link = started(runtime)
    logged_in(runtime, link)
    with runtime.db.session() as session:
        row = session.scalars(select(PanelLink).where(PanelLink.used_at.is_not(None))).one()
        nonce, opened = row.nonce, row.used_at
    assert opened is not None
    hours = runtime.config.panel_session_hours
    assert panel_links.check_session(runtime, game_id, nonce, opened + timedelta(hours=1)) is None
    late = panel_links.check_session(runtime, game_id, nonce, opened + timedelta(hours=hours + 1))
    assert isinstance(late, Refusal) and "session has ended" in late.reason
    wrong = panel_links.check_session(runtime, game_id + 1, nonce, opened)
    assert isinstance(wrong, Refusal)


def test_the_panel_shows_the_deadline_on_the_games_clock_from_now_and_in_utc(
    runtime: Runtime,
) -> None:
    # The zone comes from the schedule alone: no TIMEZONE line.
    new = f"NEW 2DEMAYO\nFRANCE {FRANCE}\nSPAIN {SPAIN}\nSCHEDULE Mon, Thu 20:00 Europe/Madrid\n"
    deliver_mail(runtime, compose(GM, "new@pbem.localhost", new))
    found = LINK.search(last_to(runtime, GM))
    assert found, last_to(runtime, GM)
    for player in (FRANCE, SPAIN):
        deliver_mail(runtime, compose(player, reply_to(runtime, player), "JOIN"))
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        game_id, deadline = game.id, game.deadline
    assert deadline is not None
    client = logged_in(runtime, found.group(1))
    shown = words(page(client, game_id))
    madrid = deadline.astimezone(ZoneInfo("Europe/Madrid"))
    assert f"{madrid:%a %d %b %Y %H:%M} {madrid.tzname()} = " in shown
    hours = round((deadline - utcnow()).total_seconds() / 3600)
    utc = deadline.astimezone(UTC)
    in_utc = f"{utc:%H:%M}" if utc.date() == madrid.date() else f"{utc:%a %d %b %H:%M}"
    ahead = f"in {hours}\u00a0h" if hours < 72 else f"in {round(hours / 24)}\u00a0days"
    assert f"= {in_utc} UTC ({ahead})" in shown, shown
    assert f'datetime="{utc:%Y-%m-%dT%H:%M:%SZ}"' in page(client, game_id)
    assert "the game's zone: Europe/Madrid" in shown
    # A game master whose own clock is another zone also reads it there.
    with runtime.db.session() as session:
        session.scalars(select(Player).where(Player.address == GM)).one().timezone = "Asia/Tokyo"
    tokyo = deadline.astimezone(ZoneInfo("Asia/Tokyo"))
    assert f"on your clock {tokyo:%a %d %b %Y %H:%M} JST" in words(page(client, game_id))


@pytest.mark.parametrize("action", ["process", "rollback", "end"])
def test_a_change_that_cannot_be_undone_asks_first_and_does_nothing_until_yes(
    runtime: Runtime, action: str
) -> None:
    game_id, _, link = started(runtime)
    deliver_mail(runtime, compose(FRANCE, reply_to(runtime, FRANCE), "16-14 x2"))
    deliver_mail(runtime, compose(SPAIN, reply_to(runtime, SPAIN), "9-14"))
    client = logged_in(runtime, link)
    panel_page = page(client, game_id)
    # On the panel these forms stand apart, in the warning style, and say they will ask.
    assert re.search(rf'<form id="{action}" class="danger"', panel_page)
    assert "Changes that cannot be undone" in panel_page
    before, mails = game_of(runtime, game_id), row_count(runtime, OutboxMessage)
    turns = row_count(runtime, Turn)
    token = csrf_of(client, game_id)
    # The same post with anything but "yes" in the confirmation field only asks again.
    for confirmed in ({}, {"confirmed": "no"}, {"confirmed": ""}):
        question = ask(client, game_id, action, csrf_token=token, reason="a slip", **confirmed)
        assert 'id="confirm"' in question and 'name="confirmed" value="yes"' in question
        assert f'name="csrf_token" value="{token}"' in question
        assert f'id="keep" class="button" href="/games/{game_id}/manage"' in question
    heading = {
        "process": f"Process turn 2 of game {game_id} now?",
        "rollback": f"Roll back turn 1 of game {game_id}?",
        "end": f"Really end game {game_id}?",
    }[action]
    assert f"<h1>{heading}</h1>" in question
    after = game_of(runtime, game_id)
    assert (after.status, after.paused, after.forced_at, after.deadline) == (
        before.status,
        before.paused,
        before.forced_at,
        before.deadline,
    )
    with runtime.db.session() as session:
        assert session.scalar(select(func.count()).where(Turn.rolled_back_at.is_not(None))) == 0
    assert row_count(runtime, OutboxMessage) == mails and row_count(runtime, Turn) == turns
    # Yes: done, as the same command by mail.
    done = post(client, game_id, action, csrf_token=token, reason="a slip", confirmed="yes")
    said = {
        "process": "PROCESS NOW: done",
        "rollback": "ROLLBACK a slip: done — turn 1 rolled back",
        "end": "END: done — ended; the seed is revealed",
    }[action]
    assert said in done, done
    if action == "end":
        assert game_of(runtime, game_id).status == "finished"
        assert "nothing can change, so the panel only shows it" in words(done)
