from pathlib import Path

import pytest

from puzzles.engine.grid import InvalidGrid, format_grid, parse
from puzzles.engine.solver import boards_of, count_solutions, has_other_solution, solve

from . import independent

TOP1465 = Path(__file__).resolve().parents[2] / "bench" / "top1465.txt"
EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
# A 17-clue puzzle (the minimum possible number of clues for a unique Sudoku).
SEVENTEEN = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"


def hardest(n: int) -> list[str]:
    lines = [line.strip() for line in TOP1465.read_text().splitlines() if line.strip()]
    return lines[:n]


def test_it_solves_an_easy_puzzle_keeping_the_givens():
    grid = parse(EASY)
    solution = solve(grid)
    assert independent.is_valid_solution(solution)
    assert all(g in (0, s) for g, s in zip(grid, solution))


def test_it_solves_a_seventeen_clue_puzzle():
    solution = solve(SEVENTEEN)
    assert independent.is_valid_solution(solution)
    assert count_solutions(SEVENTEEN) == 1


@pytest.mark.parametrize("text", hardest(40))
def test_it_solves_top1465_puzzles_and_finds_them_unique(text):
    grid = parse(text)
    solution = solve(grid)
    assert independent.is_valid_solution(solution)
    assert all(g in (0, s) for g, s in zip(grid, solution))
    assert count_solutions(grid, limit=2) == 1


def test_the_empty_grid_has_many_solutions_and_counting_stops_at_the_limit():
    assert count_solutions([0] * 81, limit=2) == 2
    assert count_solutions([0] * 81, limit=25) == 25
    assert independent.is_valid_solution(solve([0] * 81))


def test_it_counts_the_solutions_of_a_grid_with_a_known_number():
    # Clearing two cells that form a swappable rectangle in a solved grid gives exactly two.
    grid = list(solve(EASY))
    # Find a "deadly pattern": cells (r1,c1),(r1,c2),(r2,c1),(r2,c2) in two boxes holding x,y,y,x.
    found = None
    for r1 in range(9):
        for r2 in range(r1 + 1, 9):
            if r1 // 3 != r2 // 3:
                continue
            for c1 in range(9):
                for c2 in range(c1 + 1, 9):
                    x, y = grid[r1 * 9 + c1], grid[r1 * 9 + c2]
                    if grid[r2 * 9 + c1] == y and grid[r2 * 9 + c2] == x:
                        found = (r1, r2, c1, c2)
    if found is None:
        pytest.skip("this solution has no swappable rectangle")
    r1, r2, c1, c2 = found
    for r in (r1, r2):
        for c in (c1, c2):
            grid[r * 9 + c] = 0
    assert count_solutions(grid, limit=5) == independent.count(grid, limit=5) == 2


def test_a_grid_with_no_solution_counts_zero_and_solves_to_none():
    # Valid givens, but r1c9 can hold nothing: row 1 has 1-8 and column 9 has the 9.
    grid = [0] * 81
    for i in range(8):
        grid[i] = i + 1
    grid[9 * 4 + 8] = 9
    assert count_solutions(grid) == 0
    assert solve(grid) is None


def test_it_agrees_with_the_independent_counter_on_partly_cleared_grids():
    import random

    rng = random.Random(7)
    solution = solve(EASY)
    for _ in range(30):
        grid = list(solution)
        for cell in rng.sample(range(81), rng.randint(45, 60)):
            grid[cell] = 0
        assert count_solutions(grid, limit=3) == independent.count(grid, limit=3)


@pytest.mark.parametrize("text", [EASY, SEVENTEEN, *hardest(5)])
def test_the_clearers_question_agrees_with_the_full_search(text):
    # has_other_solution searches with a lighter propagation than count_solutions. Asked of a
    # clue of a unique puzzle, with up to four other clues taken out first, it must say what
    # the full search says: another digit fits the cell exactly when putting one of the other
    # eight digits there (one its peers do not hold) still leaves a solution.
    import random

    rng = random.Random(text)
    givens = parse(text)
    solution = solve(givens)
    answers = set()
    for turn in range(16):
        # Half the turns start from the solution with many cells emptied, where the answer is
        # often no; the others from the puzzle, where it is often yes.
        grid = list(givens) if turn % 2 else list(solution)
        for cell in rng.sample([c for c in range(81) if grid[c]], rng.randint(0, 4) if turn % 2 else 40):
            grid[cell] = 0
        cell = rng.choice([c for c in range(81) if grid[c]])
        digit = grid[cell]
        grid[cell] = 0
        seen = {grid[p] for p in independent.PEERS[cell]}
        others = sum(
            count_solutions(grid[:cell] + [d] + grid[cell + 1 :], limit=1) for d in set(range(1, 10)) - seen - {digit}
        )
        answer = has_other_solution(boards_of(grid), cell, digit)
        assert answer == bool(others)
        answers.add(answer)
    assert answers == {True, False}


def test_it_rejects_bad_input_with_the_parsers_error():
    with pytest.raises(InvalidGrid):
        count_solutions("12")
    with pytest.raises(InvalidGrid):
        solve("11" + "0" * 79)


def test_the_solution_round_trips_through_text():
    assert len(format_grid(solve(EASY))) == 81


# Recorded from the solver of efab83b, before propagation learned to skip what it had looked at
# (h/speed): grids with many solutions, whose first solution found depends on the search's
# order, so these hold that the search still visits the same nodes in the same order.
FIRST_FOUND = [
    (
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000",
        "123457689689123457457689123214735896968214735735896214341572968896341572572968341",
    ),
    (
        "400030000000000800000000001000000090000000600070200000000100700500000040900000000",
        "489731256136952874752684931321576498895413627674298513243169785568327149917845362",
    ),
    (
        "708000000000200000500000000040000026300000000000100090090600000000070500000000000",
        "728591634916243875534786219145938726379462158682157493497625381861379542253814967",
    ),
    (
        "700000300000600000500000000040000026300080000000000090090200004000000500000000000",
        "762549318934618275518372649845193726329786451176425893693257184281964537457831962",
    ),
]


@pytest.mark.parametrize(("givens", "first"), FIRST_FOUND)
def test_a_grid_with_many_solutions_still_solves_to_the_same_first_one(givens, first):
    assert format_grid(solve(givens)) == first
    assert count_solutions(givens, limit=50) == 50


def test_propagation_that_remembers_what_it_looked_at_ends_where_a_fresh_one_does():
    from puzzles.engine.solver import _SEEN, _UNSOLVED, _branch_cell, _place, _propagate, initial_state

    checked = 0
    for text in hardest(30):
        state = initial_state(parse(text))
        for _ in range(6):  # down one path of guesses, comparing at every step
            ok = _propagate(state)
            if not ok or not state[_UNSOLVED]:
                break
            cell = _branch_cell(state)
            digit = next(d for d in range(9) if state[d] >> cell & 1)
            remembering = state[:]
            fresh = state[:_SEEN] + [-1] * 9
            assert _place(remembering, digit, 1 << cell) and _place(fresh, digit, 1 << cell)
            assert _propagate(remembering) == _propagate(fresh)
            assert remembering[:_SEEN] == fresh[:_SEEN]
            checked += 1
            state = remembering
    assert checked > 30
