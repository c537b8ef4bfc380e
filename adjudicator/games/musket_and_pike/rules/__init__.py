"""Musket & Pike's rules: the position and its stored form, the ruleset and scenario data and their
loaders, hex geometry, the sequence of play (initiative, turn, decisions, standing instructions)
and the unit-level rules (movement, fire, close combat, morale, rout), as pure typed functions.

Owns everything that decides what happens. The events and refusals it returns carry their own
lazy sentences (``core.said``), so a rule names its cause once, where it is decided.

May import: ``adjudicator.core`` and this package only; never ``words`` nor ``pictures``
(tests/test_game_layout.py holds it to that)."""
