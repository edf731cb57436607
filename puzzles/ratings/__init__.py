"""Ratings from real play: Glicko-2 for players and puzzles, a solve being a contest between the
two (docs/ratings.md), kept in solve order; and the time a player is expected to take on a puzzle."""

from .contest import expected_seconds, expected_seconds_for, fresh_rating
from .ledger import ratings_catch_up

__all__ = ["expected_seconds", "expected_seconds_for", "fresh_rating", "ratings_catch_up"]
