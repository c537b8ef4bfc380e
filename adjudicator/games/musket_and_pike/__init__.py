"""Musket & Pike: a two-player hex battle game of the pike-and-shot era, one small decision at a
time, answered by mail.

Three layers, each importing only those before it: ``rules`` (pure, typed rules and the data they
read), ``words`` (text for players), ``pictures`` (the map, its key, the preview); ``game`` on top
implements the game contract by joining them. The data files (``ruleset.toml``, ``scenarios/``,
``art.toml``, ``words.toml``, ``help*.txt``) stay here, read by name by their loaders."""
