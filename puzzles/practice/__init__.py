"""Practice: a pool of positions per technique (pool.py) and a player's answers to them (answers.py)."""
