"""ALS-XZ pinned to a real position, checked for soundness on stuck positions of top-1465 puzzles,
and timed there.

A position is written as the board (81 digits, 0 for empty) and its pencil marks, one token per
cell, '.' for a filled cell.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from puzzles.engine.als import almost_locked_sets, als_figure, als_xz
from puzzles.engine.finders import FINDER_OF, LOGICAL, find_step
from puzzles.engine.grid import BIT, CELL_BIT, DIGITS_OF, PEER_BITS, POPCOUNT, UNITS, as_grid, candidates
from puzzles.engine.solver import solve
from puzzles.engine.steps import Step, apply

from .classic import CLASSIC_MODULES

# The classic techniques only, so the positions walked do not change as the catalogue grows.
CLASSIC = tuple(t for t in LOGICAL if FINDER_OF[t.name].__module__ in CLASSIC_MODULES)

TOP1465 = Path(__file__).resolve().parents[2] / "bench" / "top1465.txt"

# Top-1465 puzzle 2 (1-based), after the classic techniques until none applied (when written).
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


def position(board: str, notes: str) -> tuple[list[int], list[int]]:
    digits = [int(ch) for ch in board]
    cands = [0 if token == "." else sum(BIT[int(d)] for d in token) for token in notes.split()]
    assert len(cands) == 81
    return digits, cands


def test_the_pinned_positions_are_true_to_their_puzzle():
    givens = as_grid(GIVENS)
    solution = solve(givens)
    for board, notes in ((BOARD, NOTES), (BARE_BOARD, BARE_NOTES)):
        digits, cands = position(board, notes)
        assert all(g in (0, d) for g, d in zip(givens, digits))
        assert all(d in (0, s) for d, s in zip(digits, solution))
        assert all(not m or m & BIT[s] for m, s in zip(cands, solution))
        assert all(not m & ~full for m, full in zip(cands, candidates(digits)))


def test_it_finds_an_als_xz_and_says_which_digit_must_be_in_one_of_the_sets():
    digits, cands = position(BOARD, NOTES)
    step = als_xz(digits, cands)
    assert step == Step(
        "als-xz",
        (22, 4),
        (30, 31, 32, 39, 42, 43, 44),
        (7, 9),
        eliminations=((41, 7),),
        explanation=step.explanation,
        difficulty=step.difficulty,
    )
    assert step.explanation.startswith("r4c4, r4c5, r4c6 (3, 5, 7, 9) and r5c4, r5c7, r5c8, r5c9 (1, 4, 5, 7, 9)")
    assert "only one of them can hold 9" in step.explanation
    assert "one of them must hold 7" in step.explanation
    assert step.explanation.endswith("remove 7 from r5c6.")
    # Seven cells and no cell that sees the other six: 5.6 + 3 x 0.7 + 0.4, held at the ceiling.
    assert step.difficulty == 7.4


# A puzzle of bench/se_rated.txt along the rater's path, where ALS-XZ of five cells come in both
# shapes: the finder used to give r1c5, r1c6 (2, 4, 9) and r7c2, r7c6, r7c9 (2, 4, 6, 7), where no
# cell sees all the others.
WING_GIVENS = "000000000706308905004675800097030650058902710000000000009000100000103000010060080"
WING_BOARD = "080000300726318945934675821297831654658942713040756298009000130000103000010060080"
WING_NOTES = (
    "15 . 15 24 29 49 . 67 67 . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . "
    "13 . 13 . . . . . . 458 67 . 245 28 47 . . 267 458 67 25 . 289 . 45 67 29 345 . 235 245 . 79 45 . 79"
)


def test_an_als_xz_is_harder_with_more_cells_and_without_a_cell_that_sees_all_the_others():
    assert [als_figure(n, wingless=False) for n in (3, 4, 5, 6, 7)] == [5.6, 5.6, 6.3, 7.0, 7.4]
    assert [als_figure(n, wingless=True) for n in (4, 5, 6)] == [6.0, 6.7, 7.4]


def _every_als_xz(cands: list[int]) -> list[tuple[int, bool]]:
    """(cells, wingless) of every ALS-XZ of the position that removes something, found by trying
    every pair of sets and every pair of digits."""
    sets = almost_locked_sets(cands)
    found = []
    for a in sets:
        for b in sets:
            if a is b or a.board & b.board:
                continue
            for x in DIGITS_OF[a.mask & b.mask]:
                if b.places[x] & ~a.seen[x]:
                    continue
                for z in DIGITS_OF[a.mask & b.mask]:
                    targets = [c for c in range(81) if z != x and a.seen[z] >> c & 1 and b.seen[z] >> c & 1]
                    if any(cands[c] & BIT[z] for c in targets):
                        cells = a.cells + b.cells
                        hub = any(all(q == p or PEER_BITS[p] >> q & 1 for q in cells) for p in cells)
                        found.append((len(cells), not hub))
    return found


def test_of_the_smallest_patterns_it_gives_one_with_a_cell_that_sees_all_the_others():
    digits, cands = position(WING_BOARD, WING_NOTES)
    every = _every_als_xz(cands)
    assert (5, True) in every and (5, False) in every and min(n for n, _ in every) == 5
    step = als_xz(digits, cands)
    assert step.cells == (57, 75, 55, 59, 62)  # r7c4, r9c4 (2, 4, 5) and r7c2, r7c6, r7c9
    assert any(not sum(CELL_BIT[q] for q in step.cells) & ~(PEER_BITS[p] | CELL_BIT[p]) for p in step.cells)
    assert step.difficulty == als_figure(5, wingless=False) == min(als_figure(n, w) for n, w in every)
    _check_pattern(step, cands)


def test_it_finds_nothing_where_no_pair_of_sets_is_linked_and_leaves_its_inputs_alone():
    digits, cands = position(BARE_BOARD, BARE_NOTES)
    before = (list(digits), list(cands))
    assert als_xz(digits, cands) is None
    assert (digits, cands) == before
    digits, cands = position(BOARD, NOTES)
    before = (list(digits), list(cands))
    als_xz(digits, cands)
    assert (digits, cands) == before


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
