"""One game: as loaded and seen by one viewer (loaded_game.py), created (creation.py), on its
turn clock (clocks.py), as of an earlier version (past_versions.py), and its history folded
into its record once it is over (folding.py)."""
