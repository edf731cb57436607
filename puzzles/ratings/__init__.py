"""Ratings from real play: Glicko-2 for players and puzzles, a solve being a contest between the
two (docs/ratings.md), kept in solve order; and the time a player is expected to take on a puzzle."""
