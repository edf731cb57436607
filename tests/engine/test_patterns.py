"""The short one-digit patterns (skyscraper, two-string kite, turbot fish, empty rectangle) and
the w-wing: each pinned to a real position, each step checked against an independent reading
of its pattern and against the solution on positions from hard puzzles.

The positions come from walking top-1465 puzzles with the classic techniques (named in CLASSIC,
so the walk doesn't change when the catalogue gains the finders tested here), placing the
solution's digit wherever they are stuck. A pinned position is written as its digits and its
pencil marks, one token per cell, '.' for a filled cell.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path

import pytest

from puzzles.engine import patterns
from puzzles.engine.finders import LOGICAL, find_step, trial_and_error
from puzzles.engine.grid import BIT, BOX_OF, COL_OF, ROW_OF, UNITS, UNITS_OF, as_grid, candidates
from puzzles.engine.solver import solve
from puzzles.engine.steps import apply

TOP1465 = Path(__file__).resolve().parents[2] / "bench" / "top1465.txt"

CLASSIC_NAMES = (
    "naked-single",
    "hidden-single",
    "pointing",
    "claiming",
    "naked-pair",
    "hidden-pair",
    "naked-triple",
    "hidden-triple",
    "x-wing",
    "xy-wing",
    "naked-quad",
    "hidden-quad",
    "swordfish",
    "xyz-wing",
    "simple-colouring",
    "x-chain",
    "xy-chain",
    "jellyfish",
)
CLASSIC = tuple(t for t in LOGICAL if t.name in CLASSIC_NAMES)
# Singles, locked candidates, subsets and the small fish and wings: none of them applies at the
# pinned positions.
BASIC = tuple(t for t in CLASSIC if t.name not in ("simple-colouring", "x-chain", "xy-chain", "jellyfish"))

FINDERS = {
    "skyscraper": patterns.skyscraper,
    "two-string-kite": patterns.two_string_kite,
    "turbot-fish": patterns.turbot_fish,
    "empty-rectangle": patterns.empty_rectangle,
    "w-wing": patterns.w_wing,
}
CHAINS = ("skyscraper", "two-string-kite", "turbot-fish")


def _position(digits: str, notes: str) -> tuple[list[int], list[int]]:
    """A position from its digits and its pencil marks."""
    grid = [int(ch) for ch in digits]
    cands = [0 if token == "." else sum(BIT[int(d)] for d in token) for token in notes.split()]
    assert len(cands) == 81
    return grid, cands


# top1465 #1 part way along the classic walk, where nothing in BASIC applies: all four
# one-digit patterns do, on 4.
FIRST_GIVENS = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
FIRST = _position(
    "400030000000600800000000001000050090080000600070200000000192700503000040907040000",
    ". 569 1268 5789 . 15789 259 2567 25679 "
    "1237 359 12 . 127 14579 . 2357 234579 "
    "23678 3569 268 45789 278 45789 23459 23567 . "
    "1236 346 1246 378 . 13678 23 . 2378 "
    "123 . 59 3479 17 13479 . 12357 23457 "
    "136 . 59 . 168 134689 345 1358 3458 "
    "68 46 468 . . . . 35 35 "
    ". 12 . 78 678 678 129 . 29 "
    ". 12 . 35 . 35 12 68 68",
)

# top1465 #36 part way along the classic walk, where nothing in BASIC applies: a w-wing on 3
# and 4, and none of the one-digit patterns.
W_WING_GIVENS = ".......71.2.8........5.3...7.9.6.......2..8..1.........3...25..6...1..4.........."
W_WING = _position(
    "000000071026871000917503000709160000000200810102000000031002500600010040200000100",
    "3458 45 348 469 249 469 234 . . "
    "34 . . . . . 349 359 3459 "
    ". . . . 24 . 246 268 2468 "
    ". 458 . . . 458 234 235 2345 "
    "345 456 34 . 459 4579 . . 45679 "
    ". 4568 . 349 34589 45789 4679 569 45679 "
    "48 . . 4679 489 . . 689 6789 "
    ". 79 58 379 . 589 2379 . 23789 "
    ". 79 458 34679 34589 45689 . 3689 36789",
)


# --- pinned positions -------------------------------------------------------------------------


def test_the_pinned_positions_are_real_positions_of_their_puzzles():
    for givens, (digits, cands) in ((FIRST_GIVENS, FIRST), (W_WING_GIVENS, W_WING)):
        solution = solve(as_grid(givens))
        assert all(d in (0, solution[c]) for c, d in enumerate(digits))
        assert all(cands[c] >> (solution[c] - 1) & 1 for c in range(81) if not digits[c])
        assert find_step(digits, cands, BASIC) is None


def test_it_finds_a_skyscraper_on_two_columns_with_their_bases_in_row_3():
    step = patterns.skyscraper(*FIRST)
    assert step.technique == "skyscraper"
    assert step.cells == (39, 21, 24, 51)  # r5c4 = r3c4 - r3c7 = r6c7
    assert step.houses == (12, 2, 15)
    assert step.digits == (4,)
    assert step.eliminations == ((44, 4), (50, 4))
    assert step.difficulty == 0.0
    assert "r3c4 and r3c7 share row 3" in step.explanation
    assert step.explanation.endswith("remove 4 from r5c9 and r6c6.")


def test_it_finds_a_two_string_kite_whose_row_and_column_meet_in_box_3():
    step = patterns.two_string_kite(*FIRST)
    assert step.technique == "two-string-kite"
    assert step.cells == (14, 17, 24, 51)  # r2c6 = r2c9 - r3c7 = r6c7
    assert step.houses == (1, 20, 15)
    assert step.eliminations == ((50, 4),)
    assert "r2c9 and r3c7 share box 3" in step.explanation
    assert step.explanation.endswith("remove 4 from r6c6.")


def test_it_finds_a_turbot_fish_with_a_strong_link_in_a_box():
    step = patterns.turbot_fish(*FIRST)
    assert step.technique == "turbot-fish"
    assert step.cells == (17, 24, 21, 39)  # r2c9 = r3c7 - r3c4 = r5c4
    assert step.houses == (20, 2, 12)
    assert step.eliminations == ((44, 4),)
    assert step.explanation.startswith("Box 3 has only two places for 4 (r2c9 and r3c7)")
    assert step.explanation.endswith("remove 4 from r5c9.")


def test_it_finds_an_empty_rectangle_and_says_why_the_box_would_be_left_empty():
    step = patterns.empty_rectangle(*FIRST)
    assert step.technique == "empty-rectangle"
    assert step.cells == (14, 21, 23, 24, 51)  # box 2's r2c6, r3c4, r3c6; column 7's r3c7 = r6c7
    assert step.houses[:2] == (19, 15)
    assert step.eliminations == ((50, 4),)
    assert step.explanation == (
        "In box 2, 4 can only go in row 3 or column 6 (r2c6, r3c4 or r3c6), and column 7 has only "
        "two places for 4, r3c7 and r6c7. If r6c6 were 4, r6c7 couldn't be, so r3c7 would be, which "
        "rules out row 3 in box 2, while r6c6 rules out column 6, leaving box 2 no place for 4: "
        "remove 4 from r6c6."
    )


def test_it_finds_a_w_wing_joined_by_a_strong_link_in_a_box():
    step = patterns.w_wing(*W_WING)
    assert step.technique == "w-wing"
    assert step.cells == (9, 38, 54, 74)  # r2c1 and r5c3 (3 or 4), box 7's 4s at r7c1 and r9c3
    assert step.houses[0] == 24
    assert step.digits == (4, 3)
    assert step.eliminations == ((2, 3), (36, 3))
    assert "If r2c1 isn't 3 it is 4" in step.explanation
    assert step.explanation.endswith("remove 3 from r1c3 and r5c1.")


@pytest.mark.parametrize("name", list(FINDERS))
def test_it_finds_nothing_where_the_pattern_is_absent(name):
    grid = as_grid(FIRST_GIVENS)
    assert FINDERS[name](grid, candidates(grid)) is None
    assert FINDERS[name](*(FIRST if name == "w-wing" else W_WING)) is None


# --- independent readings ---------------------------------------------------------------------


def _places(cands: list[int], house: int, digit: int) -> set[int]:
    return {c for c in UNITS[house] if cands[c] >> (digit - 1) & 1}


def _sees(a: int, b: int) -> bool:
    return a != b and bool(set(UNITS_OF[a]) & set(UNITS_OF[b]))


def _strong(cands: list[int], a: int, b: int, digit: int) -> set[str]:
    """The kinds of house ('row', 'col', 'box') where a and b are the digit's only two places."""
    kinds = set()
    for kind, house in zip(("row", "col", "box"), UNITS_OF[a]):
        if house in UNITS_OF[b] and _places(cands, house, digit) == {a, b}:
            kinds.add(kind)
    return kinds


def _chain_name(cands: list[int], cells: tuple[int, ...], digit: int) -> str:
    """What players call a four-cell chain a = b - c = d, read from the houses it uses."""
    a, b, c, d = cells
    first, second = _strong(cands, a, b, digit), _strong(cands, c, d, digit)
    assert first and second and _sees(b, c) and len(set(cells)) == 4
    if "row" in first & second and COL_OF[b] == COL_OF[c]:
        return "x-wing" if COL_OF[a] == COL_OF[d] else "skyscraper"
    if "col" in first & second and ROW_OF[b] == ROW_OF[c]:
        return "x-wing" if ROW_OF[a] == ROW_OF[d] else "skyscraper"
    lines = ({"row"} <= first and {"col"} <= second) or ({"col"} <= first and {"row"} <= second)
    if lines and BOX_OF[b] == BOX_OF[c] and BOX_OF[a] != BOX_OF[b] and BOX_OF[d] != BOX_OF[c]:
        return "two-string-kite"
    return "turbot-fish"


def _check_pattern(step, digits: list[int], cands: list[int]) -> None:
    """The step's cells form the pattern it names, and every cell it clears sees what it must."""
    targets = {c for c, _ in step.eliminations}
    assert step.eliminations and not step.placements and step.difficulty == 0.0
    assert all(cands[c] >> (d - 1) & 1 for c, d in step.eliminations)
    if step.technique in CHAINS:
        (digit,) = step.digits
        a, _, _, d = step.cells
        assert _chain_name(cands, step.cells, digit) == step.technique
        assert all(_sees(t, a) and _sees(t, d) for t in targets)
    elif step.technique == "empty-rectangle":
        (digit,) = step.digits
        *held, near, far = step.cells
        box = step.houses[0]
        assert set(held) == _places(cands, box, digit)
        assert len({ROW_OF[c] for c in held}) > 1 and len({COL_OF[c] for c in held}) > 1
        assert _places(cands, step.houses[1], digit) == {near, far}
        ((target, _),) = step.eliminations
        assert BOX_OF[target] != box - 18 and BOX_OF[near] != box - 18
        # The box's places lie on the near end's line and the target's line of the other kind.
        if ROW_OF[near] == ROW_OF[far]:
            assert COL_OF[target] == COL_OF[far]
            assert {ROW_OF[c] for c in held if COL_OF[c] != COL_OF[near]} == {ROW_OF[target]}
        else:
            assert ROW_OF[target] == ROW_OF[far]
            assert {COL_OF[c] for c in held if ROW_OF[c] != ROW_OF[near]} == {COL_OF[target]}
    else:
        x, y = step.digits
        a, b, p, q = step.cells
        assert cands[a] == cands[b] == BIT[x] | BIT[y] and not _sees(a, b)
        assert _places(cands, step.houses[0], x) == {p, q} and _sees(a, p) and _sees(b, q)
        assert all(_sees(t, a) and _sees(t, b) for t in targets)


@functools.cache
def _walked_positions(count: int) -> tuple:
    """(digits, candidates, solution, classic step) before each step of the classic walks
    through the first `count` top-1465 puzzles, leaving out positions where a single is next."""
    found = []
    for puzzle in TOP1465.read_text().split()[:count]:
        grid = as_grid(puzzle)
        solution = solve(grid)
        digits, cands = grid[:], candidates(grid)
        while 0 in digits:
            step = find_step(digits, cands, CLASSIC)
            if step is None or not step.technique.endswith("single"):
                found.append((tuple(digits), tuple(cands), tuple(solution), step))
            apply(step or trial_and_error(digits, cands, solution), digits, cands)
    return tuple(found)


def test_every_step_on_hard_puzzles_keeps_the_solution_and_shows_its_pattern():
    positions = _walked_positions(60)
    assert len(positions) >= 200
    fired = dict.fromkeys(FINDERS, 0)
    spent = dict.fromkeys(FINDERS, 0.0)
    for digits, cands, solution, _ in positions:
        for name, finder in FINDERS.items():
            board, marks = list(digits), list(cands)
            started = time.perf_counter()
            step = finder(board, marks)
            spent[name] += time.perf_counter() - started
            assert (board, marks) == (list(digits), list(cands)), f"{name} changed its inputs"
            if step is None:
                continue
            fired[name] += 1
            assert step.technique == name
            assert all(solution[c] != d for c, d in step.eliminations), step.explanation
            _check_pattern(step, board, marks)
    print(f"\n{len(positions)} positions; steps found: {fired}")
    print("ms per call: " + ", ".join(f"{n} {spent[n] / len(positions) * 1000:.2f}" for n in FINDERS))
    assert all(fired.values())


def test_where_the_x_chain_takes_four_cells_the_pattern_of_that_name_fires():
    short = []
    for digits, cands, _, step in _walked_positions(60):
        if step is not None and step.technique == "x-chain" and len(step.cells) == 4:
            short.append((list(digits), list(cands), step))
    assert short
    for digits, cands, step in short:
        name = _chain_name(cands, step.cells, step.digits[0])
        assert name in CHAINS
        found = FINDERS[name](digits, cands)
        assert found is not None and found.technique == name


def test_it_takes_well_under_a_few_milliseconds_on_a_stuck_position():
    stuck = [(list(d), list(c)) for d, c, _, step in _walked_positions(60) if step is None][:20]
    assert stuck
    for name, finder in FINDERS.items():
        started = time.perf_counter()
        for digits, cands in stuck:
            finder(digits, cands)
        print(f"{name}: {(time.perf_counter() - started) / len(stuck) * 1000:.2f} ms per call")
