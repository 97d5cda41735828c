"""Portable game records: their format (format.py), their step-by-step replay (replay.py), the
documents exported and verified (documents.py), and the service's requests for them, off the
event loop (requests.py)."""
