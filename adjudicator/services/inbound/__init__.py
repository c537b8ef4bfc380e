"""Mail coming in: stored raw before anything else (``inbox``), then processed as an ordered table
of steps (``pipeline``), a seat's or game master's reply address read (``seat_mail``), and mail
that comes back to our return path matched to its outbox row (``bounces``). The top of the
house: it may import every other neighbourhood, and none imports it."""
