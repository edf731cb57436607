"""What made a digit go where a player put it, on the board they had: a single there, or one
step of a technique that places it or leaves the single; or nothing (it was placed ahead of the
board).

A board is the digits on it and the player's notes: a cell's candidates are what the digits leave
there, narrowed by its notes where it has any (the caller passes only the notes it trusts). On
that board a placement is made by the easiest single that places it; failing that, by one step
of the simplest technique that places it or leaves such a single. Every instance of each
technique is tried (practice.instances), the techniques in the order of the lowest figure they
can earn, until no later one can beat the best found. A pointing or a hidden pair or triple that
leaves a hidden single at once counts as the direct technique it then is, rated lower (direct.py).
A placement that needs two steps or more, or a digit written in the head first, is no longer
what the board showed: it was worked out ahead of it, or known.

Where the notes make the placement a single that the digits alone do not, the notes are where the
work was done: the candidates those notes took out for that single are put back, and the one
step that takes them out again, if there is one, is what made it; otherwise the single is.

Only techniques of the puzzle's tier or easier make a placement (usable_for): one that only a
harder technique makes was more likely worked out from elsewhere than found by a technique the
puzzle never needs. Forcing chains and Nishio never do: following a digit until it breaks is
trying it, and a record of play cannot tell that from knowing it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .catalogue import TECHNIQUE_BY_NAME, TIER_RANK, TIERS, Technique
from .finders import LOGICAL
from .grid import BIT, POPCOUNT, UNITS, UNITS_OF, Cell, Digit, Grid, Mask, candidates
from .practice import MAX_SEARCHES, instances
from .rater import easiest_step, step_difficulty
from .singles import hidden_step, naked_step
from .steps import Candidates, Pair, Step

# Finder calls spent listing a technique's instances: as practice does, but for the almost locked
# sets, so many and so slow to list (docs/algorithms.md) that only the first is tried.
_SEARCHES = {"als-xz": 1}
# Patterns of one digit, which read nothing but that digit's places: looked for on a board of the
# digits that can matter alone, a placement's digit (and its cell's other one, when it has one
# other), they are found sooner and the same.
_ONE_DIGIT = frozenset(
    {"pointing", "claiming", "direct-pointing", "x-wing", "swordfish", "jellyfish", "skyscraper"}
    | {"two-string-kite", "turbot-fish", "empty-rectangle", "x-chain", "simple-colouring"}
    | {"grouped-skyscraper", "grouped-two-string-kite", "grouped-x-chain"}
)
# A pointing or a hidden subset seen with the single it leaves at once is a direct technique.
_DIRECT = {"pointing": "direct-pointing", "hidden-pair": "direct-hidden-pair", "hidden-triple": "direct-hidden-triple"}
# The techniques a step is looked for in: all but the singles (looked for directly) and those that
# try a digit.
_TRYING = frozenset({"forcing-chain", "nishio", "cell-forcing-chain", "unit-forcing-chain"})
_STEPPING = tuple(t for t in LOGICAL if t.name not in _TRYING | {"hidden-single", "naked-single"})


def _lowest(technique: Technique) -> float:
    """The lowest figure a step of the technique can earn here: its direct one, if it has one."""
    return TECHNIQUE_BY_NAME[_DIRECT[technique.name]].difficulty if technique.name in _DIRECT else technique.difficulty


_USABLE: dict[str, tuple[Technique, ...]] = {
    tier: tuple(sorted((t for t in _STEPPING if TIER_RANK[t.tier] <= TIER_RANK[tier]), key=_lowest)) for tier in TIERS
}


@dataclass(frozen=True, slots=True)
class Justification:
    """The steps that made a placement, ending in the single that places it, and the technique
    credited with it; None and '' for a placement made ahead of the board."""

    steps: tuple[Step, ...] | None
    technique: str = ""


def usable_for(tier: str | None) -> tuple[Technique, ...]:
    """The techniques that may make a placement in a puzzle of `tier` (None: any), beyond the
    singles, in the order they are tried."""
    return _USABLE[tier or TIERS[-1]]


def single_for(digits: Grid, cands: Candidates, cell: Cell, digit: Digit) -> Step | None:
    """The easiest single that places `digit` in `cell` now (a hidden single in a box, a naked
    single, a hidden single in a line), or None."""
    bit = BIT[digit]
    if digits[cell] or not cands[cell] & bit:
        return None
    row, col, box = UNITS_OF[cell]
    lines = []
    for unit in (box, row, col):
        if not any(cands[c] & bit for c in UNITS[unit] if c != cell):
            if unit == box:
                return hidden_step(unit, cell, digit)
            lines.append(unit)
    if cands[cell] == bit:
        return naked_step(digits, cell, digit)
    return hidden_step(lines[0], cell, digit) if lines else None


def board_candidates(digits: Sequence[int], notes: Sequence[Mask] | None = None) -> Candidates:
    """Each cell's candidates on a player's board: what the digits leave, narrowed by the cell's
    notes (a mask, 0 for none) where that leaves any."""
    cands = candidates(list(digits))
    if notes is not None:
        cands = [mask & mark or mask for mask, mark in zip(cands, notes)]
    return cands


def justify(
    digits: Sequence[int], cell: Cell, digit: Digit, tier: str | None = None, notes: Sequence[Mask] | None = None
) -> Justification:
    """justify(digits, cell, digit, tier=None, notes=None) -> what made `digit` in `cell` on the
    board (digits placed, 0 for empty; the player's notes as masks, 0 where none), with the
    techniques of `tier` or easier; steps None when nothing there did (the module's docstring
    has the rules)."""
    grid = list(digits)
    board = board_candidates(grid, notes)
    single = single_for(grid, board, cell, digit)
    if single is None:
        return _one_step(grid, board, cell, digit, tier)
    bare = candidates(grid)
    taken_out = [(c, d) for c, d in _premise(single) if bare[c] & BIT[d] and not board[c] & BIT[d]]
    if taken_out:  # the notes made it a single: the step that takes out what they took out for it
        before = list(board)
        for c, d in taken_out:
            before[c] |= BIT[d]
        if single_for(grid, before, cell, digit) is None:
            found = _one_step(grid, before, cell, digit, tier)
            if found.steps:
                return found
    return Justification((single,), single.technique)


def easiest(digits: Sequence[int], notes: Sequence[Mask] | None = None) -> Step | None:
    """The easiest step on a player's board, single or not (what a hint would give), or None."""
    return easiest_step(list(digits), board_candidates(digits, notes), LOGICAL)


def _one_step(digits: Grid, cands: Candidates, cell: Cell, digit: Digit, tier: str | None) -> Justification:
    """The simplest step of a technique of `tier` or easier that places `digit` in `cell`, or
    leaves a single that does (then with that single); Justification(None) when none does."""
    best: tuple[float, Justification] | None = None
    # A step of one digit leaves this single only by taking that digit out of the rest of a house,
    # or the cell's one other digit out of it.
    others = cands[cell] & ~BIT[digit]
    wanted = BIT[digit] | (others if POPCOUNT[others] == 1 else 0)
    alone = [mask & wanted for mask in cands]
    for technique in usable_for(tier):
        if best is not None and _lowest(technique) >= best[0]:
            break
        board = alone if technique.name in _ONE_DIGIT else cands
        searches = _SEARCHES.get(technique.name, MAX_SEARCHES)
        for step in instances(digits, board, technique.name, searches=searches):
            if (cell, digit) in step.placements:
                found = Justification((step,), step.technique)
                figure = step_difficulty(step)
            else:
                after = list(cands)
                for c, d in step.eliminations:
                    after[c] &= ~BIT[d]
                single = single_for(digits, after, cell, digit) if not step.placements else None
                if single is None:
                    continue
                name = _credited(step, single, cands)
                found = Justification((step, single), name)
                figure = TECHNIQUE_BY_NAME[name].difficulty if name != step.technique else step_difficulty(step)
            if best is None or figure < best[0]:
                best = (figure, found)
    return best[1] if best is not None else Justification(None)


def _credited(step: Step, single: Step, cands: Candidates) -> str:
    """The technique a step and the single it leaves are credited to: the direct one when a
    pointing leaves a hidden single in another box along its line, or a hidden subset one in its
    own house (direct.py); else the step's own."""
    if step.technique not in _DIRECT or single.technique != "hidden-single":
        return step.technique
    ((cell, digit),) = single.placements
    if step.technique == "pointing":
        box = single.houses[0]
        direct = (digit,) == step.digits and box >= 18 and box != step.houses[0]
    else:
        house = step.houses[0]
        places = [c for c in UNITS[house] if cands[c] & BIT[digit] and c not in step.cells]
        direct = digit not in step.digits and places == [cell]
    return _DIRECT[step.technique] if direct else step.technique


def _premise(single: Step) -> set[Pair]:
    """The candidates whose absence a single rests on: the cell's other digits for a naked one,
    the digit elsewhere in its house for a hidden one."""
    (cell,), (digit,) = single.cells, single.digits
    if single.technique == "naked-single":
        return {(cell, d) for d in range(1, 10) if d != digit}
    return {(c, digit) for c in UNITS[single.houses[0]] if c != cell}
