"""Rating a puzzle by the human techniques it needs, and hints from a player's position.

rate() solves like a person with full pencil marks: after every step it starts again from the
easiest technique, so the hardest technique needed, and with it the tier, does not depend on
the order techniques are searched in. When nothing applies it records a trial-and-error step
that places the solution's digit and carries on. next_step() gives the one step a player should
take next, after first checking their digits and notes against the solution.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .catalogue import TECHNIQUE_BY_NAME, TECHNIQUES, TIER_RANK, TIERS, Technique, tier_of
from .direct import DIRECT_TECHNIQUES
from .finders import FINDER_OF, LOGICAL, find_step, trial_and_error
from .grid import (
    BIT,
    CELLS,
    PEERS,
    UNITS_OF,
    Grid,
    InvalidGrid,
    Mask,
    as_grid,
    candidates,
    cell_name,
    unit_name,
)
from .singles import naked_single
from .steps import Step, apply, digits_text

__all__ = ["TIERS", "Rating", "Step", "next_step", "rate", "tier_of"]

Notes = Sequence[int | Iterable[int] | str]


@dataclass
class Rating:
    """How hard a puzzle is: its tier, a score to sort puzzles within a tier, and the steps.

    complete is False when rate() stopped at the first step above its max_tier; tier and score
    are then lower bounds.
    """

    tier: str
    score: int
    hardest: str | None
    techniques: dict[str, int]
    steps: list[Step] = field(default_factory=list)
    complete: bool = True

    def to_dict(self, steps: bool = True) -> dict[str, Any]:
        """A JSON-ready form; steps=False leaves out the step list."""
        out = {
            "tier": self.tier,
            "score": self.score,
            "hardest": self.hardest,
            "techniques": dict(self.techniques),
            "complete": self.complete,
        }
        if steps:
            out["steps"] = [s.to_dict() for s in self.steps]
        return out


def _unique_solution(grid: Grid) -> Grid:
    """The grid's only solution; InvalidGrid when it has none or several."""
    from .solver import count_solutions, solve

    count = count_solutions(grid, limit=2)
    if count == 0:
        raise InvalidGrid("this puzzle has no solution")
    if count > 1:
        raise InvalidGrid("this puzzle has more than one solution")
    solution = solve(grid)
    assert solution is not None
    return solution


def rate(givens: str | Sequence[int], max_tier: str | None = None, solution: Grid | None = None) -> Rating:
    """rate(givens, max_tier=None, solution=None) -> Rating; InvalidGrid unless the puzzle has
    exactly one solution.

    The score is in hundredths of the Sudoku Explainer scale: 100 times the difficulty of the
    hardest step (step_difficulty), plus less than 10 for how much of the solve is hard
    (_extra). docs/algorithms.md gives the formula and the evidence for it. With max_tier,
    rating stops at the first point that needs a harder tier and returns that tier with
    complete=False; tier and score are then lower bounds.

    A grid that logic fills needs no solver call when no uniqueness technique was used: every
    other technique is sound for every solution, so reaching a full grid proves it is the one
    solution. The solver confirms uniqueness before a uniqueness step is trusted, and when
    logic is stuck. A caller that has already proved the puzzle has one solution (the
    generator, whose clearer proves it) may pass that solution to save the check.
    """
    if max_tier is not None and max_tier not in TIER_RANK:
        raise ValueError(f"max_tier must be one of {', '.join(TIERS)}")
    grid = as_grid(givens)
    limit = TIER_RANK[max_tier] if max_tier else len(TIERS) - 1
    usable = tuple(t for t in LOGICAL if TIER_RANK[t.tier] <= limit)
    digits = grid[:]
    cands = candidates(grid)
    steps: list[Step] = []
    difficulties: list[float] = []
    while 0 in digits:
        step = easiest_step(digits, cands, usable)
        if step is not None and solution is None and TECHNIQUE_BY_NAME[step.technique].unique:
            solution = _unique_solution(grid)
        if step is None:
            if solution is None:
                solution = _unique_solution(grid)
            if limit < len(TIERS) - 1:
                # Stuck within the allowed tiers: the puzzle needs a harder one. Which step it
                # would take is not worth searching for; the next tier up is a true lower bound.
                return _summarise(steps, difficulties, complete=False, floor=TIERS[limit + 1])
            step = trial_and_error(digits, cands, solution)
            assert step is not None
        difficulties.append(step_difficulty(step))
        steps.append(step)
        apply(step, digits, cands)
    return _summarise(steps, difficulties, complete=True)


def easiest_step(digits: Grid, cands: list[int], usable: Sequence[Technique]) -> Step | None:
    """The first technique that applies gives a step; a later one of the same tier whose
    patterns can be easier replaces it when it finds an easier step, as a solver would take
    the simplest move in sight (a short XY-chain before a large almost locked set)."""
    step = find_step(digits, cands, usable)
    if step is None:
        return None
    first = TECHNIQUE_BY_NAME[step.technique]
    best = step_difficulty(step)
    rest = usable[usable.index(first) + 1 :]
    for technique in rest:
        if technique.tier != first.tier:
            break
        if technique.difficulty >= best:
            continue
        other = FINDER_OF[technique.name](digits, cands)
        if other is not None and (figure := step_difficulty(other)) < best:
            step, best = other, figure
    return step


def step_difficulty(step: Step) -> float:
    """A step's difficulty on the Sudoku Explainer scale.

    A chain or an almost locked set grows harder with its size; a finder may set its own (a
    hidden single, by its house; forcing chains, by their length). A pointing or hidden subset
    that leaves a hidden single at once is a technique of its own, rated lower (direct.py).
    """
    technique = TECHNIQUE_BY_NAME[step.technique]
    if step.difficulty:
        return step.difficulty
    if technique.growth:
        return technique.figure(len(step.cells))
    return technique.difficulty


def _extra(steps: list[Step], difficulties: list[float], hardest: float) -> int:
    """0-9 hundredths for how much of the solve is hard, counting only the steps beyond singles
    and direct placements (each one a point where nothing on the board pointed straight at a
    placement): 2 for each such step after the first within 0.5 of the hardest, and 1 for
    every third of them. A puzzle that needs an extreme step gets instead 1 for each extreme
    step after the first: how often it needs a forcing chain of singles is what orders such
    puzzles on Sukaku Explainer's scale (docs/algorithms.md), more than how many other steps it has."""
    beyond = [
        d
        for s, d in zip(steps, difficulties)
        if tier_of(s.technique) != "easy" and s.technique not in DIRECT_TECHNIQUES
    ]
    if not beyond:
        return 0
    extreme = sum(1 for s in steps if tier_of(s.technique) == "extreme")
    if extreme:
        return min(9, extreme - 1)
    near_top = max(0, sum(1 for d in beyond if d >= hardest - 0.5) - 1)
    return min(9, 2 * near_top + len(beyond) // 3)


def _summarise(steps: list[Step], difficulties: list[float], complete: bool, floor: str | None = None) -> Rating:
    """A Rating from the steps taken and their difficulties (see rate() for the score)."""
    counts: dict[str, int] = {}
    for step in steps:
        counts[step.technique] = counts.get(step.technique, 0) + 1
    ordered = {t.name: counts[t.name] for t in TECHNIQUES if t.name in counts}
    if not steps:
        return Rating(floor or "easy", 0, None, {}, steps, complete)
    top = max(range(len(steps)), key=lambda i: (TIER_RANK[tier_of(steps[i].technique)], difficulties[i]))
    hardest = max(difficulties)
    score = round(hardest * 100) + _extra(steps, difficulties, hardest)
    tier = tier_of(steps[top].technique)
    if floor is not None and TIER_RANK[floor] > TIER_RANK[tier]:
        tier = floor
    return Rating(tier, score, steps[top].technique, ordered, steps, complete)


# --- hints ------------------------------------------------------------------------------------


def next_step(
    givens: str | Sequence[int],
    digits: Sequence[int] | None = None,
    notes: Notes | None = None,
) -> Step | None:
    """next_step(givens, digits=None, notes=None) -> the easiest step from the player's position.

    A wrong digit comes first ('wrong-digit'), then notes that rule out a cell's own digit
    ('missing-candidate': its digits are every candidate those notes leave out that the digits on
    the board do not rule out, so the cell's own digit is never named alone among others), then
    the easiest technique; None when the board is full and right.
    """
    grid = as_grid(givens)
    solution = _unique_solution(grid)
    board = _player_board(grid, digits)
    wrong = [c for c in CELLS if board[c] and board[c] != solution[c]]
    if wrong:
        return _wrong_digit(board, wrong)
    cands = candidates(board)
    if notes is not None:
        marks = _note_masks(notes)
        for cell in CELLS:
            if not board[cell] and marks[cell]:
                narrowed = marks[cell] & cands[cell]
                if not narrowed & BIT[solution[cell]]:
                    return _missing_candidate(cell, cands[cell] & ~marks[cell])
                cands[cell] = narrowed
    if 0 not in board:
        return None
    # A cell the player's own notes have narrowed to one digit is the plainest next step,
    # though the rater looks for hidden singles first.
    if notes is not None and (single := naked_single(board, cands)) is not None:
        return single
    return find_step(board, cands) or trial_and_error(board, cands, solution)


def _player_board(grid: Grid, digits: Sequence[int] | None) -> Grid:
    """The givens with the player's digits in the other cells; InvalidGrid for a malformed board."""
    if digits is None:
        return grid[:]
    if isinstance(digits, str):
        digits = ["0" if ch == "." else ch for ch in "".join(digits.split())]
    try:
        values = [int(d) for d in digits]
    except (TypeError, ValueError):
        raise InvalidGrid("the player's board must be 81 digits") from None
    if len(values) != 81 or any(not 0 <= d <= 9 for d in values):
        raise InvalidGrid("the player's board must be 81 digits from 0 to 9")
    return [g or d for g, d in zip(grid, values)]


def _note_masks(notes: Notes) -> list[Mask]:
    """81 candidate masks from masks, iterables of digits, or strings such as '459'."""
    if len(notes) != 81:
        raise InvalidGrid("notes must have an entry for each of the 81 cells")
    masks = []
    for entry in notes:
        if isinstance(entry, int):
            if not 0 <= entry <= 0x1FF:
                raise InvalidGrid(f"a note mask must be 0-511, not {entry}")
            masks.append(entry)
            continue
        mask = 0
        for d in entry:
            d = int(d)
            if not 1 <= d <= 9:
                raise InvalidGrid(f"a note must be a digit 1-9, not {d}")
            mask |= BIT[d]
        masks.append(mask)
    return masks


def _wrong_digit(board: Grid, wrong: list[int]) -> Step:
    """A step pointing at a wrong digit, preferring one that visibly breaks a rule."""
    clashes = {c: [p for p in PEERS[c] if board[p] == board[c]] for c in wrong}
    cell = next((c for c in wrong if clashes[c]), wrong[0])
    digit = board[cell]
    row, col, box = UNITS_OF[cell]
    if clashes[cell]:
        other = clashes[cell][0]
        unit = next(u for u in UNITS_OF[cell] if u in UNITS_OF[other])
        houses = (unit,) + tuple(u for u in (box, row, col) if u != unit)
        why = f"it repeats the {digit} in {cell_name(other)} in {unit_name(unit)}"
    else:
        houses = (box, row, col)
        why = "it breaks no rule yet, but it isn't the digit that belongs there"
    others = len(wrong) - 1
    more = f" ({others} other digit{'s are' if others > 1 else ' is'} wrong too)" if others else ""
    ordered = [cell] + [c for c in wrong if c != cell]
    return Step(
        "wrong-digit",
        houses,
        tuple(ordered),
        (digit,),
        eliminations=tuple((c, board[c]) for c in ordered),
        explanation=f"The {digit} in {cell_name(cell)} is wrong: {why}{more}.",
    )


def _missing_candidate(cell: int, missing: Mask) -> Step:
    """A step saying the player's notes for a cell leave out digits nothing rules out there.

    Every such digit is named, the cell's own among them: naming only the one it needs would
    give the answer away.
    """
    row, col, box = UNITS_OF[cell]
    digits = tuple(d for d in range(1, 10) if missing & BIT[d])
    them = "it" if len(digits) == 1 else "them"
    return Step(
        "missing-candidate",
        (box, row, col),
        (cell,),
        digits,
        explanation=(
            f"Your notes for {cell_name(cell)} leave out {digits_text(digits)}, but nothing on the board "
            f"rules {them} out there: put {them} back."
        ),
    )
