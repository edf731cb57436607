"""Puzzles a player brings: checked and rated by the engine (checking.py), played on the daily's
board with its tools, hints and review, and never ranked (attempts.py, review.py)."""
