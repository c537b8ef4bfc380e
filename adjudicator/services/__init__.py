"""The only layer that touches both the database and the rules."""
