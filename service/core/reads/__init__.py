"""Answers that change nothing: a move's dry run, a hint and history (answers.py), a tenant's
listing (listing.py), and a subscriber's versions of one game (following.py)."""
