"""Checking a practice answer: every instance of a technique in a position, and a judge.

A finder returns the first instance of its technique it meets. instances() finds the others by
running the finder again on the position with the candidates an instance already found removes
(or the cell it places) cleared, so the finder has to look past it. Clearing candidates can make
a pattern that the real position does not hold (a line left with two places for a digit only
because a third was cleared), so an instance found on a cleared position is kept only when no
cleared candidate lies in its cells, or shares a house with them and carries one of its digits:
then its pattern, and what it removes, are the same in the real position. Forcing chains and
BUG+1 read the whole grid, so for them only the finder's own first instance counts. Singles are
simple enough to list outright.

judge() compares a player's answer (eliminations, or one placement) with those instances.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .catalogue import technique_phrase
from .finders import FINDER_OF
from .grid import BIT, DIGIT_OF_BIT, PEER_BITS, UNITS, UNITS_OF, Grid, cell_name, unit_name
from .steps import Candidates, Pair, Step, cell_houses, digits_text

# Techniques whose pattern reaches over the whole grid: a cleared candidate anywhere may make one.
_WHOLE_GRID = frozenset({"forcing-chain", "nishio", "cell-forcing-chain", "unit-forcing-chain", "bug-plus-one"})
# Techniques whose pattern is only its cells' candidates (a naked subset, a wing, an almost locked
# set, the first two unique rectangles), whose removals are of a digit from the cells that see
# every cell of the pattern holding it.
_MASKS_ONLY = frozenset(
    {
        "naked-pair",
        "naked-triple",
        "naked-quad",
        "xy-wing",
        "xyz-wing",
        "als-xz",
        "unique-rectangle-1",
        "unique-rectangle-2",
    }
)
# Hidden subsets: the pattern is where its digits go in its one house; it removes from its own cells.
_ONE_HOUSE = frozenset({"hidden-pair", "hidden-triple", "hidden-quad"})
# Finder calls one search may make; the instances a practice position has are few.
MAX_SEARCHES = 40


def places(technique: str) -> bool:
    """Whether a technique's steps always place a digit (rather than remove candidates); a
    forcing chain's step may do either, so what it asks depends on the position."""
    return technique in {"hidden-single", "naked-single", "trial-and-error", "bug-plus-one"} or technique.startswith(
        "direct-"
    )


def _key(step: Step) -> tuple[frozenset[Pair], frozenset[Pair]]:
    return frozenset(step.placements), frozenset(step.eliminations)


def _singles(digits: Grid, cands: Candidates, technique: str) -> list[Step]:
    """Every naked or hidden single of a position, one step per placement."""
    found: dict[Pair, Step] = {}
    if technique == "naked-single":
        for cell, mask in enumerate(cands):
            if mask and mask & (mask - 1) == 0:
                digit = DIGIT_OF_BIT[mask]
                found[(cell, digit)] = Step(
                    technique,
                    cell_houses(cell),
                    (cell,),
                    (digit,),
                    placements=((cell, digit),),
                    explanation=f"The only candidate left in {cell_name(cell)} is {digit}, so it goes there.",
                )
        return list(found.values())
    for unit, cells in enumerate(UNITS):
        for digit in range(1, 10):
            where = [c for c in cells if cands[c] & BIT[digit]]
            if len(where) == 1 and (where[0], digit) not in found:
                found[(where[0], digit)] = Step(
                    technique,
                    (unit,),
                    (where[0],),
                    (digit,),
                    placements=((where[0], digit),),
                    explanation=f"In {unit_name(unit)}, {digit} can only go in {cell_name(where[0])}, so it goes there.",
                )
    return list(found.values())


def _untouched(step: Step, cleared: frozenset[Pair], cands: Candidates) -> bool:
    """Whether none of the cleared candidates bears on the step's pattern or its removals.

    A cleared candidate of the pattern's own cells always does. For a hidden subset, so does one
    of its digits in its house; for a pattern of candidates alone, one in a cell that sees every cell of the pattern holding its digit (the step
    would remove it in the real position); for any other, one of the step's digits in a house of
    its cells or of what it removes.
    """
    if any(cell in step.cells or cell in {c for c, _ in step.placements} for cell, _ in cleared):
        return False
    if step.technique in _ONE_HOUSE:
        house = set(UNITS[step.houses[0]])
        return not any(digit in step.digits and cell in house for cell, digit in cleared)
    if step.technique in _MASKS_ONLY:
        for cell, digit in cleared:
            holding = [c for c in step.cells if cands[c] & BIT[digit]]
            if holding and all(PEER_BITS[cell] >> c & 1 for c in holding):
                return False
        return True
    cells = set(step.cells) | {c for c, _ in step.placements} | {c for c, _ in step.eliminations}
    # A removal from the pattern's own cells (a hidden subset's) is covered by those cells; one
    # elsewhere brings its digit, as a cleared candidate of that digit nearby may be one it makes.
    digits = set(step.digits) | {d for _, d in step.placements}
    digits |= {d for c, d in step.eliminations if c not in step.cells}
    houses = set(step.houses) | {u for c in cells for u in UNITS_OF[c]}
    return not any(digit in digits and houses & set(UNITS_OF[cell]) for cell, digit in cleared)


def _true_to(step: Step, solution: Grid | None) -> bool:
    """A step that places only the solution's digits and removes none of them."""
    if solution is None:
        return True
    return all(solution[c] == d for c, d in step.placements) and all(solution[c] != d for c, d in step.eliminations)


def instances(
    digits: Grid, cands: Candidates, technique: str, solution: Grid | None = None, searches: int = MAX_SEARCHES
) -> list[Step]:
    """Every instance of `technique` found in the position (the finder's own first one first), in
    at most `searches` finder calls.

    ValueError for a technique with no finder (trial and error). With a solution, an instance
    that would place a wrong digit or remove the right one is left out (none should exist).
    """
    if technique in {"naked-single", "hidden-single"}:
        return [s for s in _singles(digits, cands, technique) if _true_to(s, solution)]
    finder = FINDER_OF.get(technique)
    if finder is None:
        raise ValueError(f"{technique!r} is not a technique with a finder")
    found: dict[tuple[frozenset[Pair], frozenset[Pair]], Step] = {}
    queue: list[frozenset[Pair]] = [frozenset()]
    tried: set[frozenset[Pair]] = set()
    made = 0
    while queue and made < searches:
        cleared = queue.pop(0)
        if cleared in tried:
            continue
        tried.add(cleared)
        here = list(cands)
        for cell, digit in cleared:
            here[cell] &= ~BIT[digit]
        made += 1
        step = finder(list(digits), here)
        if step is None or step.technique != technique:
            continue
        # One found on a cleared position that the clearing bears on is not an instance of the
        # real position; what it removes is cleared all the same, as it may uncover one.
        if (not cleared or _untouched(step, cleared, cands)) and _key(step) not in found and _true_to(step, solution):
            found[_key(step)] = step
        if technique in _WHOLE_GRID:
            break
        removed = step.eliminations or step.placements
        # Clearing everything found so far comes next, which reaches the instances the finder
        # meets last; clearing one removal at a time, later, finds one that shares the others.
        queue.insert(0, cleared | frozenset(removed))
        if len(removed) > 1:
            queue.extend(cleared | {pair} for pair in removed)
    return list(found.values())


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the judge says of an answer.

    outcome is 'right' (exactly one instance's removals or placement), 'partly' (some of one
    instance's removals and nothing else) or 'wrong'. instance is the instance matched (right and
    partly); left its removals still to mark (partly); wrong each mark that is wrong, with why.
    """

    outcome: str
    message: str
    instance: Step | None = None
    left: tuple[Pair, ...] = ()
    wrong: tuple[tuple[Pair, str], ...] = field(default=())


def spoken(cell: int) -> str:
    """A cell the way a person reads it: 'row 1, column 2'."""
    return f"row {cell // 9 + 1}, column {cell % 9 + 1}"


def _why_wrong(pair: Pair, cands: Candidates, solution: Grid, bare: str) -> str:
    cell, digit = pair
    if not cands[cell] & BIT[digit]:
        return f"{spoken(cell)} has no candidate {digit}."
    if solution[cell] == digit:
        return f"{digit} is the answer in {spoken(cell)}, so it can't be removed."
    return f"{digit} does go from {spoken(cell)} in the end, but no {bare} here removes it."


def judge(
    digits: Grid,
    cands: Candidates,
    technique: str,
    solution: Grid,
    eliminations: Iterable[Pair] = (),
    placement: Pair | None = None,
    found: Sequence[Step] | None = None,
) -> Verdict:
    """Judge a player's answer against every instance of `technique` in the position.

    found may pass the instances already listed for this position.
    """
    phrase = technique_phrase(technique)  # 'an X-wing'
    bare = phrase.split(" ", 1)[1]  # 'X-wing'
    marks = frozenset(eliminations)
    options = list(found) if found is not None else instances(digits, cands, technique, solution)
    if any(s.placements for s in options) if options else places(technique):
        return _judge_placement(cands, solution, phrase, marks, placement, options)
    if placement is not None:
        return Verdict(
            "wrong",
            f"{phrase[0].upper() + phrase[1:]} removes candidates rather than placing a digit: mark what it removes.",
        )
    if not marks:
        return Verdict("wrong", "Mark at least one candidate to remove.")
    best: Step | None = None
    for step in options:
        removals = frozenset(step.eliminations)
        if marks == removals:
            return Verdict("right", f"Right: that is {phrase}.", instance=step)
        if marks < removals and (best is None or len(removals) < len(best.eliminations)):
            best = step
    if best is not None:
        left = tuple(p for p in best.eliminations if p not in marks)
        lost = sorted({d for _, d in left})
        return Verdict(
            "partly",
            f"Right so far: the same {bare} removes {len(left)} more ({digits_text(lost)}). Find the rest.",
            instance=best,
            left=left,
        )
    covered = frozenset(p for step in options for p in step.eliminations)
    # The marks no instance removes are the wrong ones; when every mark is removed by some
    # instance but by no single one, the answer mixes two instances.
    wrong = tuple((p, _why_wrong(p, cands, solution, bare)) for p in sorted(marks - covered))
    if wrong:
        count = len(wrong)
        return Verdict(
            "wrong", f"{count} of your marks {'is' if count == 1 else 'are'} not removed by {phrase}.", wrong=wrong
        )
    return Verdict("wrong", f"Those removals come from more than one {bare}: mark the removals of one.")


def _judge_placement(
    cands: Candidates, solution: Grid, phrase: str, marks: frozenset[Pair], placement: Pair | None, options: list[Step]
) -> Verdict:
    if placement is None:
        if marks:
            return Verdict(
                "wrong", f"{phrase[0].upper() + phrase[1:]} places a digit: choose the cell and the digit it places."
            )
        return Verdict("wrong", "Choose a cell and a digit to place.")
    for step in options:
        if placement in step.placements:
            return Verdict("right", f"Right: that is {phrase}.", instance=step)
    cell, digit = placement
    if not cands[cell] & BIT[digit]:
        why = f"{spoken(cell)} has no candidate {digit}."
    elif solution[cell] != digit:
        why = f"{digit} is not the answer in {spoken(cell)}."
    else:
        why = f"{digit} does go in {spoken(cell)}, but no {phrase.split(' ', 1)[1]} shows it yet."
    return Verdict("wrong", why, wrong=((placement, why),))
