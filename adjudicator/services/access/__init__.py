"""Who may do what: a seat's signed private links, the game master's login links and sessions,
one-time webhook tokens, and the limits that keep the service from being flooded or flooding
others. May import ``record`` only."""
