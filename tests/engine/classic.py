"""The classic techniques: singles, locked candidates, subsets, fish, wings and the chains.

Their finders once shared one module; the tests that walk positions with "the classic techniques
only" keep that set, so the positions they walk stay the same as the catalogue grows.
"""

CLASSIC_MODULES = frozenset(f"puzzles.engine.{family}" for family in ("singles", "subsets", "fish", "wings", "chains"))
