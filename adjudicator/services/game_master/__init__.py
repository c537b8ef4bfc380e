"""The game master: commands by mail, panel or CLI (move deadlines, pause, force, replace a player,
roll back, end), the web panel, the notices a change sends to every seat, and a game's life as
the panel shows it. May import every neighbourhood but ``inbound``."""
