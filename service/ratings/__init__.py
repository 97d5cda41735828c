"""Ratings per tenant and kind (docs/architecture.md, "Ratings"): a finished game's standing
(standings.py) applied once in PostgreSQL, and the leaderboards read there (ledger.py)."""
