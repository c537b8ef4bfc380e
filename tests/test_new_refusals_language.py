"""A NEW the service cannot do is answered with its reason in the sender's language (a game
unknown, an option or its value unknown, a seat without a player, a bad setting), and so are a
NAME refused and a stale panel link; the stored verdict, read by operators, stays English."""

from __future__ import annotations

import html
from datetime import timedelta

from playbymail import compose, deliver_mail, reply_to, sent, sent_count, text_of
from sqlalchemy import select
from test_languages import in_language
from test_panel import formed

from adjudicator.models import Game, InboundMessage, utcnow
from adjudicator.services.access import panel_links
from adjudicator.services.record.runtime import Runtime
from adjudicator.web import create_app

GM = "gm@example.com"


def refused(runtime: Runtime, body: str, lang: str) -> tuple[str, str]:
    """The answer's text, run together, and the stored verdict of a NEW in ``lang``."""
    before = sent_count(runtime)
    deliver_mail(runtime, in_language(lang, compose(GM, "new@pbem.localhost", body)))
    [answer] = sent(runtime, before)
    with runtime.db.session() as session:
        last = session.scalars(select(InboundMessage).order_by(InboundMessage.id.desc())).first()
        assert last is not None and last.status == "rejected"
        reason = last.reason
    return " ".join(text_of(answer).split()), reason


def test_a_refused_new_says_why_in_russian_and_spanish(runtime: Runtime) -> None:
    text, reason = refused(runtime, "NEW CHESS", "ru")
    assert "игры с названием 'chess' нет" in text, text
    assert reason == "there is no game called 'chess'"
    text, reason = refused(
        runtime, "NEW MUSKETPIKE scenario=nowhere\nROYALIST me\nPARLIAMENT a@b.org", "ru"
    )
    assert "параметр scenario принимает braddock-down" in text and ", а не 'nowhere'" in text, text
    assert reason.startswith("option scenario takes braddock-down")
    text, _reason = refused(runtime, "NEW 2DEMAYO half=ceil\nFRANCE me\nSPAIN a@b.org", "es")
    assert "opción desconocida 'half'; las que hay: half_stays, setup" in text, text
    text, _reason = refused(runtime, "NEW 2DEMAYO\nFRANCE me\nSPAIN a@b.org\nLANGUAGE xx", "es")
    assert "LANGUAGE admite uno de en, es, ru" in text, text
    text, _reason = refused(runtime, "NEW 2DEMAYO\nFRANCE me", "ru")
    assert "назовите игрока для каждого из мест france, spain" in text, text
    for english in ("there is no game", "option", "takes", "name a player"):
        assert english not in text


def test_a_refused_name_says_why_in_the_players_language(runtime: Runtime) -> None:
    deliver_mail(runtime, in_language("ru", compose(GM, "new@pbem.localhost", "NEW THERMOPYLES")))
    address = reply_to(runtime, GM)
    for line, why in (
        ("NAME leonidas@example.com", "в имени не может быть «@»: его видят другие игроки"),
        ("NAME " + "Leonidas " * 10, "имя может быть не длиннее 60 символов, а не 89"),
    ):
        before = sent_count(runtime)
        deliver_mail(runtime, compose(GM, address, line))
        [answer] = sent(runtime, before)
        text = " ".join(text_of(answer).split())
        assert why in text, text
        assert "a name" not in text


def test_an_expired_panel_link_is_refused_in_the_pages_language(runtime: Runtime) -> None:
    _game_id, _address, link = formed(runtime)
    with runtime.db.session() as session:
        game = session.scalars(select(Game)).one()
        old = panel_links.issue(session, runtime, game, utcnow() - timedelta(hours=25))
    assert isinstance(old, panel_links.Issued)
    client = create_app(runtime).test_client()
    path = old.url.removeprefix(runtime.config.base_url)
    for lang, said in (
        ("ru", "Срок действия ссылки истёк: ссылки действуют 24 ч."),
        ("es", "Este enlace ha caducado: los enlaces sirven durante 24 h."),
        ("en", "This link has expired: links work for 24 h."),
    ):
        response = client.get(f"{path}?lang={lang}")
        assert response.status_code == 403
        assert said in html.unescape(response.get_data(as_text=True)), lang
    assert link
