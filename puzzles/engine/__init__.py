"""The Sudoku engine: pure Python, standard library only.

The names below are the engine's public interface; the site, the tasks and the benchmarks use
only these.
"""

from .clearer import SYMMETRIES, clear, symmetry_of
from .families import FAMILIES, family_stock
from .fillers import DEFAULT_FILLER, FILLERS, FillStats, fill
from .generator import Generated, GenerationGaveUp, generate, generate_varied
from .grid import InvalidGrid, as_grid, format_grid, parse
from .rater import TIERS, Rating, next_step, rate
from .solver import count_solutions, solve
from .techniques import Step, technique_about, technique_phrase, technique_title

__all__ = [
    "DEFAULT_FILLER",
    "FAMILIES",
    "FILLERS",
    "SYMMETRIES",
    "TIERS",
    "FillStats",
    "Generated",
    "GenerationGaveUp",
    "InvalidGrid",
    "Rating",
    "Step",
    "as_grid",
    "clear",
    "count_solutions",
    "family_stock",
    "fill",
    "format_grid",
    "generate",
    "generate_varied",
    "next_step",
    "parse",
    "rate",
    "solve",
    "symmetry_of",
    "technique_about",
    "technique_phrase",
    "technique_title",
]
