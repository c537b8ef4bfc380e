"""Musket & Pike: a two-player hex battle game of the pike-and-shot era (not playable yet)."""
