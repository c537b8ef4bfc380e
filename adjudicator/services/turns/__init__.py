"""Turns and a game's life on the clock: deadlines set, found due, claimed and adjudicated exactly
once; reminders before them; the periodic tick that queues due work; games set up, joined,
resigned and ended; idle games warned and closed. A deadline only adjudicates: the mail it
makes is composed into the outbox, and sent by whoever ran it once it is committed (a worker's
due turn, ``inbound.due_turn``). May import ``record``, ``access``, ``words`` and ``outbound``."""
