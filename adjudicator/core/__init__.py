"""Game-agnostic, pure building blocks: the game contract, chance, the registry."""
