"""Builders the tests share: games of each kind and their positions (``games``), games started
in the database with their deadlines (``tables``). Mail through the pipeline and the outbox are
read with ``playbymail``, beside this package."""
