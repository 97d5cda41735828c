"""A decision from the request to its commit, in order: the game opened for the caller's seat
(opening.py), a move applied (applying.py) or an ending that is no move (endings.py), and
what every decision does to a record, a bot's and a clock's too (decisions.py)."""
