"""Games for the browser tests, played through the real services as mail would play them."""

from __future__ import annotations

from email.headerregistry import Address

from dos_de_mayo_by_mail import FRANCE, GM, SPAIN, start_dos_de_mayo
from playbymail import compose, deliver_mail, sent
from sqlalchemy import select

from adjudicator.models import Game
from adjudicator.services.record.runtime import Runtime

NEW = "new@pbem.localhost"
# Script payloads, as a player might put them in a name, an order, a subject or a reason.
SCRIPT = "<script>window.__pwned=1</script>"
SVG = '"><svg onload=alert(2)>'
IMG = "<img src=x onerror=alert(1)>"
LINK = '<a href="javascript:alert(3)">click me</a>'


def named(name: str, address: str) -> str:
    """A From header value with a display name, quoted as a mail program would."""
    local, domain = address.split("@")
    return str(Address(display_name=name, username=local, domain=domain))


def start_dos(runtime: Runtime, france: str = FRANCE, spain: str = SPAIN) -> tuple[int, dict]:
    """A 2 de Mayo game made by the game-master service; each player's reply address."""
    return start_dos_de_mayo(runtime, france, spain, timezone="Europe/Madrid", gm_address=GM)


def start_thermopyles(runtime: Runtime, sender: str, subject: str = "new game") -> int:
    deliver_mail(runtime, compose(sender, NEW, "NEW THERMOPYLES", subject=subject))
    with runtime.db.session() as session:
        game_id = session.scalars(select(Game.id).order_by(Game.id.desc())).first()
        assert game_id is not None
        return game_id


ROYALIST, PARLIAMENT = "hopton@example.com", "ruthin@example.com"


def start_musket(runtime: Runtime, gm: str = GM) -> tuple[int, dict[str, str]]:
    """A Musket & Pike skirmish both players have joined; each player's reply address."""
    body = (
        f"NEW MUSKETPIKE scenario=skirmish decision_hours=12\nROYALIST {ROYALIST}\n"
        f"PARLIAMENT {PARLIAMENT}\n"
    )
    deliver_mail(runtime, compose(gm, NEW, body))
    replies: dict[str, str] = {}
    for address in (ROYALIST, PARLIAMENT):
        invite = next(m for m in reversed(sent(runtime)) if address in str(m["To"]))
        replies[address] = str(invite["Reply-To"])
        # The royalist gives a name in the From line; the other player gives none.
        sender = named("Ralph Hopton", address) if address == ROYALIST else address
        deliver_mail(runtime, compose(sender, replies[address], "JOIN"))
    with runtime.db.session() as session:
        game_id = session.scalars(select(Game.id).order_by(Game.id.desc())).first()
        assert game_id is not None
        return game_id, replies
