"""2 de Mayo: France against the Madrid rising of 2 May 1808, ten turns of simultaneous orders."""

from adjudicator.games.dos_de_mayo.game import DosDeMayo

GAME = DosDeMayo()

__all__ = ["GAME", "DosDeMayo"]
