"""Turns and a game's life on the clock: deadlines set, found due, claimed and adjudicated exactly
once; the periodic tick that queues due work; games set up, joined, resigned and ended; idle
games warned and closed. A deadline only adjudicates: the mail it makes is composed into the
outbox and delivered by its own task. May import ``record``, ``access``, ``words`` and
``outbound``."""
