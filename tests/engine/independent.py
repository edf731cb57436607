"""A deliberately plain checker, written apart from the engine, that the tests trust instead.

Lists of sets and straightforward backtracking: slow, but simple enough to read at a glance.
"""

from __future__ import annotations


def _peers(i: int) -> set[int]:
    r, c = divmod(i, 9)
    box_r, box_c = r - r % 3, c - c % 3
    cells = {r * 9 + k for k in range(9)} | {k * 9 + c for k in range(9)}
    cells |= {(box_r + a) * 9 + box_c + b for a in range(3) for b in range(3)}
    cells.discard(i)
    return cells


PEERS = [_peers(i) for i in range(81)]


def is_valid_solution(grid: list[int]) -> bool:
    """Every row, column and box holds 1..9 exactly once."""
    want = set(range(1, 10))
    for k in range(9):
        row = {grid[k * 9 + j] for j in range(9)}
        col = {grid[j * 9 + k] for j in range(9)}
        box = {grid[(k // 3 * 3 + a) * 9 + k % 3 * 3 + b] for a in range(3) for b in range(3)}
        if row != want or col != want or box != want:
            return False
    return True


def count(grid: list[int], limit: int = 2) -> int:
    """Count solutions by trying each digit in the first-emptiest cell, up to `limit`."""
    grid = list(grid)
    for i, d in enumerate(grid):
        if d and any(grid[p] == d for p in PEERS[i]):
            return 0

    def options(i: int) -> list[int]:
        used = {grid[p] for p in PEERS[i]}
        return [d for d in range(1, 10) if d not in used]

    found = 0

    def walk() -> None:
        nonlocal found
        best, best_opts = -1, None
        for i in range(81):
            if not grid[i]:
                opts = options(i)
                if best_opts is None or len(opts) < len(best_opts):
                    best, best_opts = i, opts
                    if len(opts) <= 1:
                        break
        if best < 0:
            found += 1
            return
        for d in best_opts:
            grid[best] = d
            walk()
            grid[best] = 0
            if found >= limit:
                return

    walk()
    return found


def is_minimal(givens: list[int]) -> bool:
    """Removing any single clue leaves more than one solution."""
    for i, d in enumerate(givens):
        if d:
            trial = list(givens)
            trial[i] = 0
            if count(trial, 2) < 2:
                return False
    return True
