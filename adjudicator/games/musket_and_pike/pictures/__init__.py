"""Musket & Pike in pictures: the map as a PNG (``render``), its pieces and key (``pieces``,
``legend``), the art file's colours and layout (``look``), and the order checker's preview.

May import: ``adjudicator.core``, ``rules`` and ``words`` (a preview reads a mail's orders as
``words.grammar`` does); nothing imports this package but ``game``."""
