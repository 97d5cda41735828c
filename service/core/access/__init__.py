"""Who may do what: seat tokens, API keys and the tenants they name (keys.py), and which seat
of a game a caller is (callers.py)."""
