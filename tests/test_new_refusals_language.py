"""A NEW the service cannot do is answered with its reason in the sender's language (a game
unknown, an option or its value unknown, a seat without a player, a bad setting); the stored
verdict, read by operators, stays English."""

from __future__ import annotations

from playbymail import compose, deliver_mail, sent, sent_count, text_of
from sqlalchemy import select
from test_languages import in_language

from adjudicator.models import InboundMessage
from adjudicator.services.runtime import Runtime

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
