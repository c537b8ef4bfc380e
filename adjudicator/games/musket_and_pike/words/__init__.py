"""Musket & Pike in words for players: reading a mail's lines (``lexicon``, ``grammar``), the
receipts that judge them, the step reports and their one-line gists, the position described in
plain text, and the tables written out for the help page.

May import: ``adjudicator.core`` and ``rules``; never ``pictures`` (tests/test_game_layout.py
holds it to that)."""
