"""Mail going out: what the service tells players and game masters (reports, replies, answers,
what a reader owes), composed into the outbox inside the caller's transaction, then delivered to
the Maildir or over SMTP to the relay; and where a turn's picture is on the web. May import
``record``, ``access`` and ``words``."""
