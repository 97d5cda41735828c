"""API adapters: parse, authorize, call the game service, shape the answer. No rules here."""
