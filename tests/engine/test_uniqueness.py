"""The uniqueness techniques, each pinned to a real position, and checked against the solution
of every top-1465 puzzle position where the classic techniques stall.

The positions were found by solving top-1465 puzzles with the classic techniques until they
stalled (for the BUG+1, the first position where it applies). `digits` is the board at that
moment and `notes` every open cell's candidates, one token per cell, '.' for a filled cell.
All of top-1465 have one solution, which is what these techniques rely on.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from puzzles.engine.finders import FINDER_OF, LOGICAL, find_step, trial_and_error
from puzzles.engine.grid import BIT, as_grid, candidates
from puzzles.engine.solver import solve
from puzzles.engine.steps import Step, apply
from puzzles.engine.uniqueness import (
    _RECTANGLES,
    bug_plus_one,
    unique_rectangle_1,
    unique_rectangle_2,
    unique_rectangle_3,
    unique_rectangle_4,
)

from .classic import CLASSIC_MODULES

TOP1465 = Path(__file__).resolve().parents[2] / "bench" / "top1465.txt"
FINDERS = (unique_rectangle_1, unique_rectangle_2, unique_rectangle_3, unique_rectangle_4, bug_plus_one)
# The classic techniques only, so the positions stay the same once the catalogue lists these finders.
CLASSIC = tuple(t for t in LOGICAL if FINDER_OF[t.name].__module__ in CLASSIC_MODULES)


@dataclass(frozen=True)
class Position:
    givens: str
    digits: str
    notes: str

    def board(self) -> list[int]:
        return [int(ch) for ch in self.digits]

    def candidates(self) -> list[int]:
        return [0 if token == "." else sum(BIT[int(d)] for d in token) for token in self.notes.split()]

    def solution(self) -> list[int]:
        solution = solve(as_grid(self.givens))
        assert solution is not None
        return solution


POSITIONS: dict[str, Position] = {
    "ur1": Position(
        givens="4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        digits="400030000000600800000000001000050090080000600070200000000192700503000040907040000",
        notes=(
            ". 569 1268 5789 . 15789 259 2567 25679 "
            "1237 359 12 . 127 14579 . 2357 234579 "
            "23678 3569 268 45789 278 45789 23459 23567 . "
            "1236 346 1246 378 . 13678 23 . 2378 "
            "123 . 59 3479 17 13479 . 12357 2357 "
            "136 . 59 . 168 13689 345 1358 3458 "
            "68 46 468 . . . . 35 35 "
            ". 12 . 78 678 678 129 . 29 "
            ". 12 . 35 . 35 12 68 68"
        ),
    ),
    "ur2": Position(
        givens="......41.9..3.....3...5.....48..7..........52.1.......6..2....5.7....8......9....",
        digits="857000413900300500300050000048007000700000052010000700600200005070000800000090000",
        notes=(
            ". . . 69 26 269 . . . "
            ". 26 14 . 1478 148 . 2678 678 "
            ". 26 14 1478 . 148 269 2689 6789 "
            "25 . . 1569 1236 . 1369 369 169 "
            ". 39 369 14689 13468 134689 1369 . . "
            "25 . 369 569 236 23569 . 48 48 "
            ". 389 39 . 13478 1348 13 347 . "
            "14 . 25 1456 1346 13456 . 23469 1469 "
            "14 38 25 145678 . 134568 1236 23467 1467"
        ),
    ),
    "ur3a": Position(
        givens="4.1.6....3.....2........8..15.2.....6......1....9......2.7.8..........43.7.......",
        digits="401062000300000200000000800150200000600000010000900000020708106816529743070600000",
        notes=(
            ". 89 . 38 . . 359 3579 579 "
            ". 689 57 148 45789 457 . 69 14 "
            "27 69 257 134 34579 3457 . 369 14 "
            ". . 789 . 3478 3467 3469 3789 789 "
            ". 34 2789 348 34578 3457 3459 . 25789 "
            "27 34 278 . 134578 134567 3456 23578 2578 "
            "59 . 34 . 34 . . 59 . "
            ". . . . . . . . . "
            "59 . 34 . 134 134 59 28 28"
        ),
    ),
    "ur3b": Position(
        givens="...8...3...5...7.....1.........5.9..18.......3..4.......7..2..6....7.5...4.....1.",
        digits="000805030005900700000107000000250980180700000350400070597312846000674500040500017",
        notes=(
            "24679 1267 146 . 246 . 1246 . 1249 "
            "2468 1236 . . 2346 36 . 26 1248 "
            "24689 236 3468 . 2346 . 246 2569 24589 "
            "467 67 46 . . 13 . . 13 "
            ". . 29 . 369 369 2346 256 2345 "
            ". . 29 . 689 1689 126 . 12 "
            ". . . . . . . . . "
            "28 123 138 . . . . 29 239 "
            "26 . 36 . 89 89 23 . ."
        ),
    ),
    "ur4": Position(
        givens="8.9...3.....7.1...5.........7.....263...9.......1...4..6.2....4....8.5...........",
        digits="819000300000751000507030000070040026300090000000100043060200004000080500000000000",
        notes=(
            ". . . 46 26 246 . 57 57 "
            "246 234 2346 . . . 24 89 89 "
            ". 24 . 89 . 89 246 16 12 "
            "19 . 18 35 . 35 189 . . "
            ". 248 12468 68 . 2678 178 1578 1578 "
            "269 2589 2568 . 267 2678 789 . . "
            "179 . 1358 . 17 3579 178 13789 . "
            "12479 2349 1234 3469 . 34679 . 13679 1279 "
            "12479 234589 123458 34569 167 345679 26 136789 12789"
        ),
    ),
    "bug": Position(
        givens="..9..63...72..........17..51..3..9..........86.84....1.6.........1.2....9.3...45.",
        digits="819256374572843169346917285150300906200000008608400001465739812781524693923000457",
        notes=(
            ". . . . . . . . . "
            ". . . . . . . . . "
            ". . . . . . . . . "
            ". . 47 . 78 28 . 24 . "
            ". 39 47 16 679 15 57 34 . "
            ". 39 . . 79 25 57 23 . "
            ". . . . . . . . . "
            ". . . . . . . . . "
            ". . . 16 68 18 . . ."
        ),
    ),
}


def run(finder, name: str) -> Step:
    """The finder's step on a pinned position, checked to be sound and to leave its input alone."""
    position = POSITIONS[name]
    digits, cands = position.board(), position.candidates()
    before = (digits[:], cands[:])
    step = finder(digits, cands)
    assert (digits, cands) == before
    assert step is not None
    solution = position.solution()
    assert all(solution[c] != d for c, d in step.eliminations)
    assert all(solution[c] == d for c, d in step.placements)
    return step


def test_the_pinned_positions_are_real_positions_of_their_puzzles():
    for position in POSITIONS.values():
        solution = position.solution()
        board, cands = position.board(), position.candidates()
        assert len(cands) == 81
        for cell in range(81):
            if board[cell]:
                assert board[cell] == solution[cell] and not cands[cell]
            else:
                assert cands[cell] & BIT[solution[cell]]
                assert cands[cell] & ~candidates(board)[cell] == 0


def test_a_rectangle_spans_two_rows_two_columns_and_two_boxes():
    assert len(_RECTANGLES) == 486
    for a, b, c, d in _RECTANGLES:
        assert a // 9 == b // 9 and c // 9 == d // 9 and a % 9 == c % 9 and b % 9 == d % 9
        assert len({(r // 27, r % 9 // 3) for r in (a, b, c, d)}) == 2


def test_it_finds_a_type_1_unique_rectangle():
    step = run(unique_rectangle_1, "ur1")
    assert step.technique == "unique-rectangle-1"
    assert step.cells == (64, 69, 73, 78)  # r8c2, r8c7, r9c2, r9c7
    assert step.digits == (1, 2)
    assert step.eliminations == ((69, 1), (69, 2))
    assert step.houses[0] == 26  # box 9, where r8c7 is
    assert step.explanation == (
        "r8c2, r9c2 and r9c7 can only be 1 or 2. If r8c7 were 1 or 2 too, the four cells could swap "
        "their 1s and 2s and the puzzle would have two solutions; it has one, so remove 1 and 2 from r8c7."
    )


def test_it_finds_a_type_2_unique_rectangle():
    step = run(unique_rectangle_2, "ur2")
    assert step.technique == "unique-rectangle-2"
    assert step.cells == (11, 14, 20, 23)  # r2c3, r2c6, r3c3, r3c6
    assert step.digits == (1, 4, 8)
    assert step.eliminations == ((13, 8), (21, 8), (41, 8), (59, 8), (77, 8))
    assert step.houses[0] == 14  # column 6, which holds both roof cells
    assert "r2c6 and r3c6 only 1, 4 or 8" in step.explanation
    assert "the puzzle would have two solutions; it has one, so one of them is 8" in step.explanation
    assert step.explanation.endswith("remove 8 from r2c5, r3c4, r5c6, r7c6 and r9c6.")


def test_it_finds_a_type_3_unique_rectangle_with_a_pair():
    step = run(unique_rectangle_3, "ur3a")
    assert step.technique == "unique-rectangle-3"
    assert step.cells == (12, 17, 21, 26, 3)  # the rectangle, then r1c4
    assert step.eliminations == ((13, 8), (22, 3), (23, 3), (39, 3), (39, 8))
    assert step.houses[:2] == (19, 12)  # box 2 and column 4 both lose 3 and 8
    assert step.difficulty == 4.6
    assert "it has one, so one of them is 3 or 8. That cell and r1c4 (3 or 8) hold 3 and 8" in step.explanation


def test_it_finds_a_type_3_unique_rectangle_with_a_triple_and_rates_it_harder():
    step = run(unique_rectangle_3, "ur3b")
    assert step.cells == (49, 50, 76, 77, 51, 53)  # the rectangle, then r6c7 and r6c9
    assert step.digits == (1, 2, 6, 8, 9)
    assert step.eliminations == ((47, 2),)
    assert step.houses[0] == 5  # row 6
    assert step.difficulty == 4.7
    assert "That cell, r6c7 (1, 2 or 6) and r6c9 (1 or 2) hold 1, 2 and 6 between them" in step.explanation


def test_it_finds_a_type_4_unique_rectangle():
    step = run(unique_rectangle_4, "ur4")
    assert step.technique == "unique-rectangle-4"
    assert step.cells == (7, 8, 43, 44)  # r1c8, r1c9, r5c8, r5c9
    assert step.digits == (5, 7)
    assert step.eliminations == ((43, 7), (44, 7))
    assert step.houses[0] == 23  # box 6, where 5 has only the two roof cells
    assert step.explanation == (
        "r1c8 and r1c9 can only be 5 or 7, and in box 6, 5 can only go in r5c8 or r5c9, so one of "
        "them is 5. If the other were 7, the four cells could swap their 5s and 7s and the puzzle "
        "would have two solutions; it has one, so remove 7 from r5c8 and r5c9."
    )


def test_it_finds_a_bug_plus_one():
    step = run(bug_plus_one, "bug")
    assert step.technique == "bug-plus-one"
    assert step.cells == (40,)
    assert step.placements == ((40, 7),)
    assert step.houses == (22, 4, 13)
    assert "except 7, which has three in row 5, column 5 and box 5" in step.explanation
    assert step.explanation.endswith("the puzzle has one, so r5c5 is 7.")


def test_every_explanation_gives_the_one_solution_as_its_reason():
    for finder, name in zip(FINDERS[:4], ("ur1", "ur2", "ur3a", "ur4")):
        assert "it has one" in run(finder, name).explanation
    assert "the puzzle has one" in run(bug_plus_one, "bug").explanation


def test_the_other_finders_take_no_step_on_a_type_1_rectangle_alone():
    # The ur1 position has no other pattern; its rectangle has three two-candidate corners.
    position = POSITIONS["ur1"]
    for finder in FINDERS[1:]:
        assert finder(position.board(), position.candidates()) is None


@pytest.mark.parametrize("finder", FINDERS)
def test_it_finds_nothing_on_a_fresh_puzzle(finder):
    grid = as_grid(POSITIONS["ur1"].givens)
    cands = candidates(grid)
    assert finder(grid, cands) is None


def test_a_bug_needs_every_digit_twice_in_every_other_house():
    position = POSITIONS["bug"]
    cands = position.candidates()
    # Giving one two-candidate cell a third candidate breaks the pattern.
    cands[29] |= BIT[9]  # r4c3: 4 or 7 -> 4, 7 or 9
    assert bug_plus_one(position.board(), cands) is None


def solving_positions(count: int):
    """(digits, candidates, solution, stalled) for every position met solving the first `count`
    puzzles of top-1465 with the classic techniques; where they stall, a uniqueness step, else
    the solution's digit, moves the solve on."""
    puzzles = [line.strip() for line in TOP1465.read_text().splitlines() if line.strip()][:count]
    for givens in puzzles:
        digits = as_grid(givens)
        solution = solve(digits)
        cands = candidates(digits)
        while 0 in digits:
            step = find_step(digits, cands, CLASSIC)
            yield digits, cands, solution, step is None
            if step is None:
                step = next((s for f in FINDERS if (s := f(digits, cands))), None)
                step = step or trial_and_error(digits, cands, solution)
            apply(step, digits, cands)


def test_no_step_contradicts_the_solution_of_a_top1465_puzzle():
    stalled = 0
    fired = dict.fromkeys((f.__name__ for f in FINDERS), 0)
    for digits, cands, solution, stuck in solving_positions(400):
        stalled += stuck
        before = (digits[:], cands[:])
        # A BUG+1 is cheap to rule out, so it is tried everywhere; the rectangles where logic stalls.
        for finder in FINDERS if stuck else (bug_plus_one,):
            step = finder(digits, cands)
            assert (digits, cands) == before
            if step is None:
                continue
            fired[finder.__name__] += 1
            assert step.eliminations or step.placements
            assert all(solution[c] != d for c, d in step.eliminations), step
            assert all(solution[c] == d for c, d in step.placements), step
    print(f"\n{stalled} stalled positions; steps found: {fired}")
    assert stalled >= 200
    assert all(fired.values())


def test_how_long_a_call_takes_on_a_stalled_position():
    digits, cands = next((d, c) for d, c, _, stuck in solving_positions(1) if stuck)
    bug = POSITIONS["bug"]
    cases = [(f, digits, cands) for f in FINDERS] + [(bug_plus_one, bug.board(), bug.candidates())]
    for finder, board, marks in cases:
        runs = 200
        start = time.perf_counter()
        for _ in range(runs):
            finder(board, marks)
        took = (time.perf_counter() - start) / runs * 1000
        print(f"\n{finder.__name__}: {took:.4f} ms per call")
