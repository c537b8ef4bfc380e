"""The game as kept: the floor every other neighbourhood stands on.

What a service call needs (``runtime``), a game started, played and finished (``play``), its
changes as one table (``transitions``), its dice, the rows a transaction reads once, why a turn
was resolved, what a rollback replaces, the position every mail shows and the orders on file, and
the Subject every mail about a game carries. Imports nothing of the other neighbourhoods."""
