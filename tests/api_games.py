"""A small real archive for the JSON API's tests: games of every kind, started and played by mail
as their players would, in every state the API shows (forming, running, paused, finished, a
shared deal, a rolled-back turn)."""

from __future__ import annotations

from dataclasses import astuple, dataclass

from dos_de_mayo_by_mail import GM, start_dos_de_mayo
from dos_de_mayo_by_mail import play_turn_one as play_dos_de_mayo_turn_one
from fairness_games import finished_thermopyles
from playbymail import compose, deliver_mail, gm_command, sent
from sqlalchemy import select

from adjudicator.models import Game
from adjudicator.services.record.runtime import Runtime

NEW = "new@pbem.localhost"
CHALLENGE = "api-cup"
ROYALIST, PARLIAMENT = "hopton@example.com", "ruthin@example.com"


@dataclass(frozen=True)
class Archive:
    """The games made, by what each shows."""

    finished: int
    shared: int
    rolled_back: int
    forming: int
    paused: int
    battle: int

    @property
    def ids(self) -> tuple[int, ...]:
        return astuple(self)


def _newest(runtime: Runtime) -> int:
    with runtime.db.session() as session:
        found = session.scalars(select(Game.id).order_by(Game.id.desc())).first()
        assert found is not None
        return found


def shared_thermopyles(runtime: Runtime, player: str = "xerxes@example.com") -> int:
    """A Thermopyles game of a shared deal, one turn in."""
    deliver_mail(runtime, compose(player, NEW, f"NEW THERMOPYLES SHARED {CHALLENGE}"))
    welcome = [m for m in sent(runtime) if str(m["To"]) == player][-1]
    deliver_mail(runtime, compose(player, str(welcome["Reply-To"]), "FIGHT"))
    return _newest(runtime)


def musket_and_pike(runtime: Runtime) -> int:
    """A Musket & Pike skirmish set by a game master by mail, both players joined."""
    body = f"NEW MUSKETPIKE scenario=skirmish\nROYALIST {ROYALIST}\nPARLIAMENT {PARLIAMENT}\n"
    deliver_mail(runtime, compose(GM, NEW, body))
    for address in (ROYALIST, PARLIAMENT):
        invite = next(m for m in reversed(sent(runtime)) if str(m["To"]) == address)
        deliver_mail(runtime, compose(address, str(invite["Reply-To"]), "JOIN"))
    return _newest(runtime)


def archive(runtime: Runtime) -> Archive:
    finished = finished_thermopyles(runtime)
    shared = shared_thermopyles(runtime)
    rolled_back, addresses = start_dos_de_mayo(runtime, gm_address=GM)
    play_dos_de_mayo_turn_one(runtime, addresses)
    gm_command(runtime, rolled_back, "ROLLBACK France misread the map")
    forming, _ = start_dos_de_mayo(runtime, gm_address=GM, invite=True)
    paused, _ = start_dos_de_mayo(runtime, gm_address=GM)
    gm_command(runtime, paused, "PAUSE")
    return Archive(finished, shared, rolled_back, forming, paused, musket_and_pike(runtime))
