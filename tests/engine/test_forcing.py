"""Forcing chains (nishio, cell and unit forcing chains) pinned to real positions, checked against
an independent following of singles and against the solution while solving top-1465 puzzles, and
timed there.

A position is written as the puzzle, the board (81 digits, 0 for empty) and its pencil marks, one
token per cell, '.' for a filled cell; each was reached from its puzzle by the classic
techniques, ALS-XZ and these finders (when written).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from puzzles.engine import forcing
from puzzles.engine.als import als_xz
from puzzles.engine.finders import FINDER_OF, LOGICAL, find_step
from puzzles.engine.forcing import cell_forcing_chain, nishio, unit_forcing_chain
from puzzles.engine.grid import BIT, DIGITS_OF, PEERS, UNITS, as_grid, candidates
from puzzles.engine.solver import solve
from puzzles.engine.steps import Step, apply

from .classic import CLASSIC_MODULES

# The classic techniques only, so the positions walked do not change as the catalogue grows.
CLASSIC = tuple(t for t in LOGICAL if FINDER_OF[t.name].__module__ in CLASSIC_MODULES)

TOP1465 = Path(__file__).resolve().parents[2] / "bench" / "top1465.txt"
FINDERS = (nishio, cell_forcing_chain, unit_forcing_chain)


@dataclass(frozen=True)
class Case:
    givens: str
    board: str
    notes: str

    def position(self) -> tuple[list[int], list[int]]:
        digits = [int(ch) for ch in self.board]
        cands = [0 if token == "." else sum(BIT[int(d)] for d in token) for token in self.notes.split()]
        return digits, cands


NISHIO = Case(
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    "708000300000201000500000000040000026300080000000100093090600004000070500000000000",
    (
        ". 126 . 459 4569 4569 . 1456 1259 469 36 3469 . 34569 . 4679 45678 5789 . 1236 123469 78 3469 78 "
        "12469 146 129 189 . 1579 3579 59 3579 178 . . . 1267 12679 479 . 2469 147 1457 157 268 25678 "
        "2567 . 2456 24567 478 . . 128 . 12357 . 125 2358 127 1378 . 12468 12368 12346 3489 . 23489 . "
        "1368 1289 12468 1235678 1234567 34589 12459 234589 12679 13678 12789"
    ),
)
NISHIO_LONG = Case(
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    "708000300000201000500000000040000026300080000000100093090600004000070500000000000",
    (
        ". 126 . 459 4569 4569 . 1456 1259 469 36 3469 . 34569 . 4679 45678 578 . 1236 123469 78 3469 78 "
        "12469 146 129 189 . 1579 3579 59 3579 178 . . . 1267 1269 479 . 2469 147 1457 157 268 25678 2567 "
        ". 2456 24567 478 . . 128 . 12357 . 125 2358 127 1378 . 12468 12368 12346 3489 . 23489 . 1368 "
        "1289 12468 135678 1234567 34589 12459 234589 12679 13678 12789"
    ),
)
CELL = Case(
    ".4..1.2.......9.7..1..........43.6..8......5....2.....7.5..8......6..3..9........",
    "040010200000009070010000000000430600800000050000280000705008000000600300900000000",
    (
        "356 . 79 3578 . 367 . 3689 35689 2356 2568 268 35 2456 . 145 . 13456 2356 . 79 3578 24567 2346 "
        "4589 34689 345689 125 2579 12 . . 57 . 1289 12789 . 2367 2346 179 679 167 147 . 12347 1456 5679 "
        "1346 . . 1567 1479 1349 13479 . 236 . 139 249 . 149 12469 12469 124 28 1248 . 24579 1247 . 12489 "
        "15789 . 2368 123468 1357 2457 1234 1578 12468 1245678"
    ),
)
UNIT = Case(
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    "708000300000201000500000000040000026300080000000100093090600004000070500000000000",
    (
        ". 126 . 459 4569 4569 . 1456 125 49 36 3469 . 3456 . 4679 4578 578 . 1236 123469 78 346 78 2469 "
        "146 129 189 . 1579 3579 59 3579 178 . . . 1267 1269 479 . 2469 147 1457 157 268 578 2567 . 2456 "
        "2467 478 . . 128 . 1357 . 125 2358 127 1378 . 12468 12368 12346 3489 . 23489 . 1368 1289 12468 "
        "3578 1234567 34589 1249 234589 12679 13678 12789"
    ),
)
BARE = Case(
    "7.8...3.....2.1...5.........4.....263...8.......1...9..9.6....4....7.5...........",
    "708000300000201000500000000040000026300080000000100093090600004000070500000000000",
    (
        ". 126 . 459 4569 4569 . 1456 125 49 36 3469 . 3456 . 467 4578 578 . 1236 12346 78 346 78 269 146 "
        "129 189 . 1579 3579 59 3579 178 . . . 1267 1269 479 . 2469 147 1457 157 268 578 2567 . 2456 2467 "
        "478 . . 128 . 1357 . 125 2358 127 1378 . 12468 12368 12346 3489 . 23489 . 1368 1289 12468 3578 "
        "1234567 34589 1249 234589 2679 13678 12789"
    ),
)


def fresh(finder, digits, cands):
    """The finder's answer with the shared work thrown away first."""
    forcing._last = None
    return finder(digits, cands)


@pytest.mark.parametrize("case", [NISHIO, NISHIO_LONG, CELL, UNIT, BARE])
def test_the_pinned_positions_are_true_to_their_puzzle(case):
    givens = as_grid(case.givens)
    solution = solve(givens)
    digits, cands = case.position()
    assert len(cands) == 81
    assert all(g in (0, d) for g, d in zip(givens, digits))
    assert all(d in (0, s) for d, s in zip(digits, solution))
    assert all(not m or m & BIT[s] for m, s in zip(cands, solution))
    assert all(not m & ~full for m, full in zip(cands, candidates(digits)))


def test_nishio_follows_a_candidate_to_a_contradiction_and_removes_it():
    step = fresh(nishio, *NISHIO.position())
    assert step == Step(
        "nishio",
        (24, 8, 10),
        (73, 8, 45, 68),
        (2,),
        eliminations=((73, 2),),
        explanation=(
            "If r9c2 is 2, then r1c9 is 2 (the only place for 2 in row 1), then r6c1 is 2 (the only "
            "place for 2 in column 1), then r8c6 is 2 (the only place for 2 in row 8), then row 5 has "
            "no place left for 2. So r9c2 can't be 2: remove 2 from r9c2."
        ),
        # On one digit, Sukaku Explainer's Nishio: 7.5, and 17 candidates set and struck on the
        # two sides of the contradiction, less two, pass 4, 6, 8 and 12.
        difficulty=7.9,
    )


def test_a_long_chain_is_told_by_its_first_and_last_links_and_rated_harder():
    step = fresh(nishio, *NISHIO_LONG.position())
    assert step.eliminations == ((73, 1),) and len(step.cells) == 9
    assert step.explanation.startswith("If r9c2 is 1, then r6c2 is 5 (the only place for 5 in column 2), ")
    assert "then 4 more steps like these, then r6c7 is 7 (the only place for 7 in box 6)" in step.explanation
    assert step.explanation.endswith("then r7c7 has no candidate left. So r9c2 can't be 1: remove 1 from r9c2.")
    # Across digits, through singles that earlier links made: 8.5, and 32 candidates less two
    # pass 4, 6, 8, 12, 16 and 24.
    assert step.difficulty == 9.1


def test_a_cell_forcing_chain_follows_each_candidate_to_the_same_elimination():
    step = fresh(cell_forcing_chain, *CELL.position())
    assert (step.technique, step.houses, step.cells, step.digits) == (
        "cell-forcing-chain",
        (21, 3, 9),
        (27, 44),
        (1, 2, 5),
    )
    assert step.eliminations == ((44, 1),) and not step.placements
    assert step.explanation.startswith(
        "r4c1 is 1, 2 or 5. If it is 1, then r4c3 is 2 (its only candidate left), then r5c9 is 2 "
        "(the only place for 2 in row 5), so r5c9 can't be 1. If it is 2, "
    )
    assert step.explanation.endswith("Either way r5c9 can't be 1: remove 1 from r5c9.")
    # Through singles that earlier links made: 8.5, and 7 + 5 + 15 candidates set and struck
    # over the three cases, less two, pass 4, 6, 8, 12, 16 and 24.
    assert step.difficulty == 9.1


def test_a_unit_forcing_chain_follows_each_place_of_a_digit_to_the_same_elimination():
    step = fresh(unit_forcing_chain, *UNIT.position())
    assert (step.technique, step.houses[0], step.cells, step.digits) == (
        "unit-forcing-chain",
        1,
        (13, 16, 17, 15),
        (5,),
    )
    assert step.eliminations == ((15, 9),) and not step.placements
    assert step.explanation.startswith("In row 2, 5 can only go in r2c5, r2c8 or r2c9. If r2c5 is 5, then ")
    assert step.explanation.endswith("Either way r2c7 can't be 9: remove 9 from r2c7.")
    # 8.5, and 6 + 7 + 7 candidates less two pass 4, 6, 8, 12 and 16.
    assert step.difficulty == 9.0


@pytest.mark.parametrize("finder", [*FINDERS, als_xz])
def test_it_finds_nothing_where_singles_lead_nowhere_and_leaves_its_inputs_alone(finder):
    digits, cands = BARE.position()
    before = (list(digits), list(cands))
    assert fresh(finder, digits, cands) is None
    assert finder(digits, cands) is None
    assert (digits, cands) == before


def test_the_shared_work_gives_the_same_steps_as_fresh_work_and_follows_a_changed_position():
    digits, cands = NISHIO.position()
    first = [fresh(f, digits, cands) for f in FINDERS]
    forcing._last = None
    assert [f(digits, cands) for f in FINDERS] == first
    apply(first[0], digits, cands)
    again = nishio(digits, cands)
    assert again != first[0] and again == fresh(nishio, digits, cands)


# --- an independent reading ---------------------------------------------------------------------


def _singles(digits: list[int], cands: list[int], cell: int, digit: int) -> tuple[list[int], list[int]] | None:
    """Place `digit` in `cell` and then every naked and hidden single, plainly, until none is left;
    None when the position breaks (a cell without candidates, a house without a place for a digit
    it lacks)."""
    digits, cands = list(digits), list(cands)
    todo = [(cell, digit)]
    while todo:
        for c, d in todo:
            if digits[c] == d:
                continue
            if digits[c] or not cands[c] & BIT[d]:
                return None
            digits[c], cands[c] = d, 0
            for p in PEERS[c]:
                cands[p] &= ~BIT[d]
        todo = []
        for c in range(81):
            if not digits[c]:
                if not cands[c]:
                    return None
                if len(DIGITS_OF[cands[c]]) == 1:
                    todo.append((c, DIGITS_OF[cands[c]][0]))
        for unit in UNITS:
            for d in range(1, 10):
                if any(digits[c] == d for c in unit):
                    continue
                places = [c for c in unit if cands[c] & BIT[d]]
                if not places:
                    return None
                if len(places) == 1:
                    todo.append((places[0], d))
    return digits, cands


def _holds(result: tuple[list[int], list[int]], step: Step) -> bool:
    digits, cands = result
    return all(digits[c] == d for c, d in step.placements) and all(
        digits[c] not in (0, d) or (not digits[c] and not cands[c] & BIT[d]) for c, d in step.eliminations
    )


def _check_pattern(step: Step, digits: list[int], cands: list[int]) -> None:
    """Follow the step's assumptions without the finder: nishio's breaks the position, and each
    case of a forcing chain leads to its conclusion or breaks the position (so is not the case)."""
    if step.technique == "nishio":
        ((cell, digit),) = step.eliminations
        assert _singles(digits, cands, cell, digit) is None, step
        return
    if step.technique == "cell-forcing-chain":
        cell = step.cells[0]
        cases = [(cell, d) for d in DIGITS_OF[cands[cell]]]
    else:
        digit = step.digits[0]
        unit = step.houses[0]
        cases = [(c, digit) for c in UNITS[unit] if cands[c] & BIT[digit]]
    assert len(cases) >= 2
    results = [_singles(digits, cands, cell, digit) for cell, digit in cases]
    for (cell, digit), result in zip(cases, results):
        assert result is None or _holds(result, step), (step, cell, digit)
    assert any(result is not None for result in results), step


# --- solving top-1465 ----------------------------------------------------------------------------


@dataclass
class Run:
    positions: int = 0
    complete: int = 0
    found: Counter = field(default_factory=Counter)  # technique -> stuck positions where it gave a step
    used: Counter = field(default_factory=Counter)  # technique -> steps applied
    times: dict[str, list[float]] = field(default_factory=lambda: {"nishio": [], "cached": [], "alone": []})


@pytest.fixture(scope="module")
def run() -> Run:
    """Solve the first 100 top-1465 puzzles with the classic techniques, then ALS-XZ, nishio, the
    cell and the unit forcing chain; at every stuck position ask all four, check each answer
    against the solution (and the forcing chains against an independent following of singles),
    and apply the first."""
    result = Run()
    for n, puzzle in enumerate(TOP1465.read_text().split()[:100]):
        digits = as_grid(puzzle)
        cands = candidates(digits)
        solution = solve(digits)
        while True:
            step = find_step(digits, cands, CLASSIC)
            if step is None:
                result.positions += 1
                before = (list(digits), list(cands))
                steps = [als_xz(digits, cands)]
                start = time.perf_counter()
                steps.append(nishio(digits, cands))
                middle = time.perf_counter()
                steps += [cell_forcing_chain(digits, cands), unit_forcing_chain(digits, cands)]
                result.times["nishio"].append(middle - start)
                result.times["cached"].append((time.perf_counter() - middle) / 2)
                if result.positions % 4 == 0:
                    for finder in (cell_forcing_chain, unit_forcing_chain):
                        start = time.perf_counter()
                        fresh(finder, digits, cands)
                        result.times["alone"].append(time.perf_counter() - start)
                assert (digits, cands) == before
                for found in steps:
                    if found is not None:
                        result.found[found.technique] += 1
                        assert found.placements or found.eliminations
                        for cell, digit in found.eliminations:
                            assert solution[cell] != digit, (n, puzzle, found)
                        for cell, digit in found.placements:
                            assert solution[cell] == digit, (n, puzzle, found)
                        if found.technique != "als-xz":
                            _check_pattern(found, digits, cands)
                step = next((s for s in steps if s is not None), None)
                if step is None:
                    break
                result.used[step.technique] += 1
            apply(step, digits, cands)
        result.complete += all(digits)
    return result


def test_the_finders_never_remove_a_solution_digit_while_solving_top1465(run):
    print(
        f"\n{run.positions} stuck positions; gave a step: {dict(run.found)}; steps applied: {dict(run.used)}; "
        f"{run.complete} of the first 100 puzzles solved without guessing"
    )
    assert run.positions >= 200
    assert run.found["nishio"] and run.found["unit-forcing-chain"]
    assert run.complete >= 1


def test_time_per_call_on_stuck_top1465_positions(run):
    for label, what in (
        ("nishio", "nishio, following every assumption of a new position"),
        ("cached", "cell or unit forcing chain right after nishio, sharing its work"),
        ("alone", "cell or unit forcing chain on its own"),
    ):
        times = sorted(run.times[label])
        print(
            f"\n{what}: {len(times)} calls, median {times[len(times) // 2] * 1000:.2f} ms, "
            f"mean {sum(times) / len(times) * 1000:.2f} ms, worst {times[-1] * 1000:.2f} ms",
            end="",
        )
