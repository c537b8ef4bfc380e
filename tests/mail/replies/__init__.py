"""Replies as mail clients really write them, built from cases.toml (see build.py)."""
