"""ALS-XZ (a two-candidate cell and an almost locked set of three or four cells) pinned to real positions, checked for soundness on stuck positions of top-1465 puzzles,
and timed there.

A position is written as the board (81 digits, 0 for empty) and its pencil marks, one token per
cell, '.' for a filled cell.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from puzzles.engine.als import almost_locked_sets, als_xz, wing_figure
from puzzles.engine.finders import FINDER_OF, LOGICAL, find_step
from puzzles.engine.grid import BIT, DIGITS_OF, PEER_BITS, POPCOUNT, UNITS, as_grid, candidates
from puzzles.engine.solver import solve
from puzzles.engine.steps import Step, apply

from .classic import CLASSIC_MODULES

# The classic techniques only, so the positions walked do not change as the catalogue grows.
CLASSIC = tuple(t for t in LOGICAL if FINDER_OF[t.name].__module__ in CLASSIC_MODULES)

TOP1465 = Path(__file__).resolve().parents[2] / "bench" / "top1465.txt"

# Top-1465 puzzle 2 (1-based), after the classic techniques until none applied (when written):
# two sets of three and four cells are linked there, which makes no step (Sukaku Explainer has no
# such pattern and reaches the position by chains).
GIVENS = "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5..........."
BOARD = "708000300000201000500000000040000026300080000000100093090600004000070500000000000"
NOTES = (
    ". 126 . 459 4569 4569 . 1456 1259 469 36 3469 . 34569 . 4679 45678 5789 . 1236 123469 78 3469 78 "
    "12469 146 129 189 . 1579 3579 59 3579 178 . . . 1267 12679 479 . 24679 147 1457 157 268 25678 2567 "
    ". 2456 24567 478 . . 128 . 12357 . 125 2358 127 1378 . 12468 12368 12346 3489 . 23489 . 1368 1289 "
    "12468 1235678 1234567 34589 12459 234589 12679 13678 12789"
)
# The same puzzle further on, where no ALS-XZ of up to four cells a side is left.
BARE_BOARD = BOARD
BARE_NOTES = (
    ". 126 . 459 4569 4569 . 1456 125 49 36 3469 . 3456 . 467 4578 578 . 1236 12346 78 346 78 269 146 "
    "129 189 . 1579 3579 59 3579 178 . . . 1267 1269 479 . 2469 147 1457 157 268 578 2567 . 2456 2467 "
    "478 . . 128 . 1357 . 125 2358 127 1378 . 12468 12368 12346 3489 . 23489 . 1368 1289 12468 3578 "
    "1234567 34589 1249 234589 2679 13678 12789"
)
# Top-1465 puzzle 12 (1-based) along the rater's walk, step 52: a cell and a set of three cells
# (Sukaku Explainer's WXYZ-wing).
THREE_GIVENS = "8.9...3.....7.1...5.........7.....263...9.......1...4..6.2....4....8.5..........."
THREE_BOARD = "819400375030751089507839000078543026300690058050108043763215894090380500085900030"
THREE_NOTES = (
    ". . . . 26 26 . . . 246 . 246 . . . 24 . . . 24 . . . . 246 16 12 19 . . . . . 19 . . . 24 124 . . 27 "
    "17 . . 269 . 26 . 27 . 79 . . . . . . . . . . . 124 . 124 . . 467 . 16 127 124 . . . 67 467 26 . 127"
)
# Top-1465 puzzle 1 along the rater's walk, step 43: a cell and a set of four cells (Sukaku
# Explainer's VWXYZ-wing).
FOUR_GIVENS = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
FOUR_BOARD = "400030000000600800000000001000050090080000600070200000000192700513000942927040100"
FOUR_NOTES = (
    ". 569 1268 5789 . 178 25 2567 5679 1237 359 12 . 127 49 . 2357 3459 23678 3569 268 45789 278 578 34 "
    "23567 . 1236 346 1246 378 . 13678 23 . 78 23 . 59 49 17 349 . 12357 357 16 . 59 . 168 13689 345 158 "
    "458 68 46 468 . . . . 35 35 . . . 78 678 678 . . . . . . 35 . 35 . 68 68"
)
PINNED = (
    (GIVENS, BOARD, NOTES),
    (GIVENS, BARE_BOARD, BARE_NOTES),
    (THREE_GIVENS, THREE_BOARD, THREE_NOTES),
    (FOUR_GIVENS, FOUR_BOARD, FOUR_NOTES),
)


def position(board: str, notes: str) -> tuple[list[int], list[int]]:
    digits = [int(ch) for ch in board]
    cands = [0 if token == "." else sum(BIT[int(d)] for d in token) for token in notes.split()]
    assert len(cands) == 81
    return digits, cands


def test_the_pinned_positions_are_true_to_their_puzzle():
    for given_text, board, notes in PINNED:
        givens = as_grid(given_text)
        solution = solve(givens)
        digits, cands = position(board, notes)
        assert all(g in (0, d) for g, d in zip(givens, digits))
        assert all(d in (0, s) for d, s in zip(digits, solution))
        assert all(not m or m & BIT[s] for m, s in zip(cands, solution))
        assert all(not m & ~full for m, full in zip(cands, candidates(digits)))


def test_it_finds_a_cell_and_a_set_of_three_and_says_which_digit_must_be_in_one_of_them():
    digits, cands = position(THREE_BOARD, THREE_NOTES)
    step = als_xz(digits, cands)
    assert step == Step(
        "als-xz",
        (20, 8),
        (26, 76, 78, 80),
        (1, 2),
        eliminations=((71, 2),),
        explanation=step.explanation,
        difficulty=5.6,
    )
    assert step.explanation.startswith("r3c9 (1, 2) and r9c5, r9c7, r9c9 (1, 2, 6, 7)")
    assert "only one of them can hold 1" in step.explanation
    assert "one of them must hold 2" in step.explanation
    assert step.explanation.endswith("remove 2 from r8c9.")
    _check_pattern(step, cands)


def test_it_finds_a_cell_and_a_set_of_four():
    digits, cands = position(FOUR_BOARD, FOUR_NOTES)
    step = als_xz(digits, cands)
    assert step.cells == (33, 27, 28, 29, 45)  # r4c7 (2, 3) and r4c1, r4c2, r4c3, r6c1 in box 4
    assert step.houses == (23, 21) and step.digits == (2, 3)
    assert step.eliminations == ((30, 3), (32, 3))
    # The set's fullest cell, r4c3, has four candidates: 6.2 + 0.1.
    assert step.difficulty == 6.3 == wing_figure(4, 4)
    assert step.difficulty == min(figure for _, figure in _every_wing(cands))
    _check_pattern(step, cands)


def test_a_pattern_is_rated_as_sukaku_explainer_rates_its_wings():
    # WXYZ-wing 5.5 to 5.6 and VWXYZ-wing 6.2 to 6.4, highest when the set's fullest cell has three.
    assert [wing_figure(3, n) for n in (2, 3, 4)] == [5.5, 5.6, 5.5]
    assert [wing_figure(4, n) for n in (2, 3, 4, 5)] == [6.3, 6.4, 6.3, 6.2]


def _every_wing(cands: list[int]) -> list[tuple[int, float]]:
    """(cells, figure) of every cell and set of three or four cells making a removal, found by
    trying every two-candidate cell with every set and both its digits as x."""
    found = []
    for b in almost_locked_sets(cands):
        if len(b.cells) < 3:
            continue
        for cell in range(81):
            if POPCOUNT[cands[cell]] != 2 or b.board >> cell & 1 or cands[cell] & ~b.mask:
                continue
            for x in DIGITS_OF[cands[cell]]:
                (z,) = [d for d in DIGITS_OF[cands[cell]] if d != x]
                if any(not PEER_BITS[cell] >> q & 1 for q in b.cells if cands[q] & BIT[x]):
                    continue
                z_places = [cell] + [q for q in b.cells if cands[q] & BIT[z]]
                targets = [
                    c
                    for c in range(81)
                    if cands[c] & BIT[z]
                    and c not in z_places
                    and c not in b.cells
                    and all(PEER_BITS[c] >> q & 1 for q in z_places)
                ]
                if targets:
                    found.append(
                        (len(b.cells) + 1, wing_figure(len(b.cells), max(POPCOUNT[cands[q]] for q in b.cells)))
                    )
    return found


def test_it_finds_nothing_where_no_cell_is_linked_to_a_set_and_leaves_its_inputs_alone():
    for board, notes in ((BARE_BOARD, BARE_NOTES), (BOARD, NOTES)):
        digits, cands = position(board, notes)
        before = (list(digits), list(cands))
        assert als_xz(digits, cands) is None
        assert (digits, cands) == before
    # Sets of three and four cells are linked there, but neither is a single cell.
    assert any(len(a.cells) == 3 and len(b.cells) == 4 for a, b in _linked(cands))


def _linked(cands: list[int]):
    """Pairs of sets with a restricted common digit and another common digit whose every place
    in both some cell outside them sees with that digit still in it."""
    sets = almost_locked_sets(cands)
    for a in sets:
        for b in sets:
            if a.board & b.board:
                continue
            for x in DIGITS_OF[a.mask & b.mask]:
                if b.places[x] & ~a.seen[x]:
                    continue
                for z in DIGITS_OF[a.mask & b.mask]:
                    if z != x and any(
                        cands[c] & BIT[z] and a.seen[z] >> c & 1 and b.seen[z] >> c & 1 for c in range(81)
                    ):
                        yield a, b


def test_every_almost_locked_set_has_one_digit_more_than_cells_in_one_house():
    _, cands = position(BOARD, NOTES)
    sets = almost_locked_sets(cands)
    assert sets and [len(s.cells) for s in sets] == sorted(len(s.cells) for s in sets)
    assert len({s.board for s in sets}) == len(sets)
    for s in sets:
        assert 1 <= len(s.cells) <= 4 and set(s.cells) <= set(UNITS[s.house])
        assert POPCOUNT[s.mask] == len(s.cells) + 1
        assert s.mask == _union(cands, s.cells)


def _union(cands: list[int], cells) -> int:
    mask = 0
    for c in cells:
        mask |= cands[c]
    return mask


def _check_pattern(step: Step, cands: list[int]) -> None:
    """Read the step again without the finder: its cells split into two disjoint ALSs, each in one
    house, with a restricted common digit x and a digit z whose every place in both is seen by
    every eliminated cell."""
    cells = step.cells
    readings = []
    for k in range(1, len(cells)):
        a, b = cells[:k], cells[k:]
        if all(POPCOUNT[_union(cands, part)] == len(part) + 1 and _in_one_house(part) for part in (a, b)):
            readings.append((a, b))
    assert readings, step
    x, z = step.digits if step.eliminations[0][1] == step.digits[1] else step.digits[::-1]
    assert {d for _, d in step.eliminations} == {z}

    def sees(p: int, q: int) -> bool:
        return bool(PEER_BITS[p] >> q & 1)

    def fits(a, b) -> bool:
        ax = [c for c in a if cands[c] & BIT[x]]
        bx = [c for c in b if cands[c] & BIT[x]]
        z_places = [c for c in a + b if cands[c] & BIT[z]]
        return (
            not set(a) & set(b)
            and ax
            and bx
            and all(sees(p, q) for p in ax for q in bx)
            and all(
                cands[c] & BIT[z] and c not in a + b and all(sees(c, q) for q in z_places) for c, _ in step.eliminations
            )
        )

    assert any(fits(a, b) for a, b in readings), step


def _in_one_house(cells) -> bool:
    return any(set(cells) <= set(unit) for unit in UNITS)


@pytest.fixture(scope="module")
def stuck_run():
    """Solve the first 300 top-1465 puzzles with the classic techniques and ALS-XZ, checking every
    ALS-XZ step against the solution and its pattern; the positions where ALS-XZ was asked, its
    steps and the time of each call."""
    puzzles = TOP1465.read_text().split()[:300]
    asked = fired = 0
    times: list[float] = []
    for puzzle in puzzles:
        digits = as_grid(puzzle)
        cands = candidates(digits)
        solution = solve(digits)
        while True:
            step = find_step(digits, cands, CLASSIC)
            if step is None:
                asked += 1
                before = (list(digits), list(cands))
                start = time.perf_counter()
                step = als_xz(digits, cands)
                times.append(time.perf_counter() - start)
                assert (digits, cands) == before
                if step is None:
                    break
                fired += 1
                assert step.eliminations and not step.placements
                for cell, digit in step.eliminations:
                    assert solution[cell] != digit, (puzzle, step)
                _check_pattern(step, cands)
            apply(step, digits, cands)
    return asked, fired, times


def test_als_xz_never_removes_a_solution_digit_on_stuck_top1465_positions(stuck_run):
    asked, fired, _ = stuck_run
    print(f"\nals-xz: asked on {asked} stuck positions, fired {fired} times")
    assert asked >= 200 and fired >= 1


def test_als_xz_time_per_call_on_stuck_positions(stuck_run):
    _, _, times = stuck_run
    times = sorted(times)
    print(
        f"\nals-xz: {len(times)} calls, median {times[len(times) // 2] * 1000:.2f} ms, "
        f"mean {sum(times) / len(times) * 1000:.2f} ms, worst {times[-1] * 1000:.2f} ms"
    )
