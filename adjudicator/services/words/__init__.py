"""What a player writes besides orders and how a mail's lines are sorted among them: the command
words in each language (``command_words.toml``), the order lines read into the set a mail files
(one reader shared by mail and web), and a player's own settings. May import ``record`` and
``access``."""
