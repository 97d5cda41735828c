"""Players: player tokens (tokens.py), open seats (seating.py) and join codes and seat changes
in Redis (lobby.py). docs/api.md, "Players", says what clients see."""
