"""Which finder looks for each technique of the catalogue, and the search the rater runs.

Each finder takes a pencil-marked position (see steps.py) and returns one Step, or None. The
finders live in a module for each family; this one binds them to the catalogue's names, so the
catalogue (data) and the steps import no finder, and the imports run one way: rater -> finders
-> the families -> steps -> catalogue, each importing only what comes after it.
"""

from __future__ import annotations

from collections.abc import Sequence

from . import (
    als,
    chains,
    direct,
    fish,
    forcing,
    grave,
    grouped,
    linked,
    loops,
    patterns,
    singles,
    subsets,
    uniqueness,
    wings,
)
from .catalogue import TECHNIQUES, Technique
from .grid import DIGITS_OF, POPCOUNT, Grid, cell_name
from .steps import Candidates, Finder, Step, cell_houses, pencil

FINDER_OF: dict[str, Finder] = {
    "hidden-single": singles.hidden_single,
    "naked-single": singles.naked_single,
    "direct-pointing": direct.direct_pointing,
    "direct-hidden-pair": direct.direct_hidden_pair,
    "direct-hidden-triple": direct.direct_hidden_triple,
    "pointing": subsets.pointing,
    "claiming": subsets.claiming,
    "naked-pair": subsets.naked_pair,
    "hidden-pair": subsets.hidden_pair,
    "x-wing": fish.x_wing,
    "naked-triple": subsets.naked_triple,
    "swordfish": fish.swordfish,
    "hidden-triple": subsets.hidden_triple,
    "skyscraper": patterns.skyscraper,
    "two-string-kite": patterns.two_string_kite,
    "xy-wing": wings.xy_wing,
    "turbot-fish": patterns.turbot_fish,
    "empty-rectangle": patterns.empty_rectangle,
    "grouped-skyscraper": grouped.grouped_skyscraper,
    "grouped-two-string-kite": grouped.grouped_two_string_kite,
    "xyz-wing": wings.xyz_wing,
    "unique-rectangle-1": uniqueness.unique_rectangle_1,
    "unique-rectangle-2": uniqueness.unique_rectangle_2,
    "unique-rectangle-3": uniqueness.unique_rectangle_3,
    "unique-rectangle-4": uniqueness.unique_rectangle_4,
    "unique-loop": loops.unique_loop,
    "naked-quad": subsets.naked_quad,
    "jellyfish": fish.jellyfish,
    "x-chain": chains.x_chain,
    "hidden-quad": subsets.hidden_quad,
    "simple-colouring": chains.simple_colouring,
    "bug-plus-one": uniqueness.bug_plus_one,
    "bug-plus-n": grave.bug_plus_n,
    "als-xz": als.als_xz,
    "grouped-x-chain": grouped.grouped_x_chain,
    "xy-chain": chains.xy_chain,
    "w-wing": patterns.w_wing,
    "forcing-chain": linked.forcing_chain,
    "nishio": forcing.nishio,
    "cell-forcing-chain": forcing.cell_forcing_chain,
    "unit-forcing-chain": forcing.unit_forcing_chain,
}

# The techniques a finder looks for, easiest first: all but trial and error, which needs the
# solution and lives in the rater's loop.
LOGICAL: tuple[Technique, ...] = tuple(t for t in TECHNIQUES if t.name in FINDER_OF)


def find_step(digits: Grid, cands: Candidates, techniques: Sequence[Technique] = LOGICAL) -> Step | None:
    """The first step found by the easiest technique that applies, or None."""
    for technique in techniques:
        step = FINDER_OF[technique.name](digits, cands)
        if step is not None:
            return step
    return None


def trial_and_error(digits: Grid, cands: Candidates, solution: Grid) -> Step | None:
    """Place the solution's digit in the first empty cell with the fewest candidates; None when full."""
    best_cell, best_count = -1, 10
    for cell, mask in enumerate(cands):
        if mask and POPCOUNT[mask] < best_count:
            best_cell, best_count = cell, POPCOUNT[mask]
    if best_cell < 0:
        return None
    digit = solution[best_cell]
    options = DIGITS_OF[cands[best_cell]]
    return Step(
        "trial-and-error",
        cell_houses(best_cell),
        (best_cell,),
        options,
        placements=((best_cell, digit),),
        explanation=(
            f"No technique here applies; {cell_name(best_cell)} has the fewest candidates "
            f"({pencil(cands[best_cell])}), and trying them shows only {digit} leads to a solution, "
            f"so it goes there."
        ),
    )
