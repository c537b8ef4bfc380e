"""The only layer that touches both the database and the rules, in neighbourhoods named for the
flow they hold. Imports go one way, down this list (``tests/test_architecture.py`` checks it):

- ``inbound``: mail coming in, stored first, then read and answered;
- ``game_master``: the game master's commands, panel and notices;
- ``reading``: the read side for the archive, the API, the checker and the operator;
- ``turns``: deadlines, the tick and a game's life on the clock;
- ``outbound``: mail going out, composed into the outbox and delivered;
- ``words``: command words, order lines and a player's settings;
- ``access``: signed links, sessions, one-time tokens and flood limits;
- ``record``: the game as kept, which every neighbourhood stands on.
"""

# Lowest first: a module may import its own neighbourhood and any before it, never one after it.
NEIGHBOURHOODS = (
    "record",
    "access",
    "words",
    "outbound",
    "turns",
    "reading",
    "game_master",
    "inbound",
)
