"""Games for the browser tests, played through the real services as mail would play them."""

from __future__ import annotations

from email.headerregistry import Address

from playbymail import compose, deliver_mail, drain, sent
from sqlalchemy import select

from adjudicator.models import Game, utcnow
from adjudicator.services import gm, lifecycle
from adjudicator.services.lifecycle import GameSettings
from adjudicator.services.runtime import Runtime

FRANCE, SPAIN, GM = "murat@example.com", "daoiz@example.com", "gm@example.com"
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
    before = len(sent(runtime))
    with runtime.db.session() as session:
        game = lifecycle.start_game(
            session,
            runtime,
            GameSettings(
                "2demayo",
                {"france": france, "spain": spain},
                {},
                "48h",
                "Europe/Madrid",
                gm_address=GM,
            ),
        )
        assert isinstance(game, Game), game
        game_id = game.id
    drain(runtime)
    mails = sent(runtime)[before:]
    return game_id, {str(mail["To"]): str(mail["Reply-To"]) for mail in mails}


def play_turn_one(runtime: Runtime, addresses: dict[str, str]) -> None:
    """France takes its start card and moves; Spain moves; the turn is resolved."""
    deliver_mail(runtime, compose(FRANCE, addresses[FRANCE], "TAKE MURAT\n16-14 x1\nDRAW"))
    deliver_mail(runtime, compose(SPAIN, addresses[SPAIN], "9-14\nNODRAW"))


def start_thermopyles(runtime: Runtime, sender: str, subject: str = "new game") -> int:
    deliver_mail(runtime, compose(sender, NEW, "NEW THERMOPYLES", subject=subject))
    with runtime.db.session() as session:
        game_id = session.scalars(select(Game.id).order_by(Game.id.desc())).first()
        assert game_id is not None
        return game_id


def gm_command(runtime: Runtime, game_id: int, line: str) -> str:
    with runtime.db.session() as session:
        game = session.get_one(Game, game_id)
        [result] = gm.run(session, runtime, game, [line], f"test:{line}", utcnow())
        assert result.done, result.message
    drain(runtime)
    return result.message
