"""The read side: lists, a game's turns and public views for the archive and the CLI, the order
checker (a mail's orders read as the pipeline reads them, nothing stored), the replay of a game's
recorded chance, and what an operator watches. Stores nothing. May import every neighbourhood
below it: ``record``, ``access``, ``words``, ``outbound``, ``turns``."""
