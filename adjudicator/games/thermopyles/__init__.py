"""Thermopyles: 300 Spartans against 28 Persian units, a solitaire card game played by mail."""

from adjudicator.games.thermopyles.game import Thermopyles

GAME = Thermopyles()

__all__ = ["GAME", "Thermopyles"]
