"""The Sudoku engine: pure Python, standard library only.

The names below are the engine's public interface; the site, the tasks and the benchmarks use
only these. The modules behind them are the engine's own business and may move.
"""

from .catalogue import (
    TECHNIQUE_BY_NAME,
    TECHNIQUES,
    TIERS,
    Technique,
    article_for,
    technique_about,
    technique_phrase,
    technique_title,
    tier_of,
)
from .clearer import SYMMETRIES, clear, symmetry_of
from .families import AIM_SHARE, FAMILIES, family_keeps, family_stock
from .fillers import DEFAULT_FILLER, FILLERS, FillStats, fill
from .generator import Generated, GenerationGaveUp, check_options, generate, generate_stream
from .grid import UNITS, InvalidGrid, as_grid, cell_name, conflicts, format_grid, parse, unit_name
from .hinting import position_candidates, single_after
from .justify import Justification, board_candidates, easiest, justify, single_for, usable_for
from .practice import Verdict, instances, judge, places, spoken
from .rater import Rating, next_step, rate
from .solver import count_solutions, solve
from .steps import Step
from .walk import Moment, walk

__all__ = [
    "AIM_SHARE",
    "DEFAULT_FILLER",
    "FAMILIES",
    "FILLERS",
    "SYMMETRIES",
    "TECHNIQUES",
    "TECHNIQUE_BY_NAME",
    "TIERS",
    "UNITS",
    "FillStats",
    "Generated",
    "GenerationGaveUp",
    "InvalidGrid",
    "Justification",
    "Moment",
    "Rating",
    "Step",
    "Technique",
    "Verdict",
    "article_for",
    "as_grid",
    "board_candidates",
    "cell_name",
    "check_options",
    "clear",
    "conflicts",
    "count_solutions",
    "easiest",
    "family_keeps",
    "family_stock",
    "fill",
    "format_grid",
    "generate",
    "generate_stream",
    "instances",
    "judge",
    "justify",
    "next_step",
    "parse",
    "places",
    "position_candidates",
    "rate",
    "single_after",
    "single_for",
    "solve",
    "spoken",
    "symmetry_of",
    "technique_about",
    "technique_phrase",
    "technique_title",
    "tier_of",
    "unit_name",
    "usable_for",
    "walk",
]
