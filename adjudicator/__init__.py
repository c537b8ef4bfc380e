"""pbem: a play-by-email adjudicator service."""

__version__ = "0.1.0"
