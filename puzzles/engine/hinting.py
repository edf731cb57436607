"""What a hint shows beside its step: the candidates of a player's position, and the single a step
leaves behind, so a hint can end in something the player can do.

A player's candidates are their centre notes narrowed by the digits on the board, or, in a cell
where they keep no notes, the digits nothing on the board rules out (what next_step reads too).
"""

from __future__ import annotations

from collections.abc import Sequence

from .grid import (
    BIT,
    DIGITS_OF,
    POPCOUNT,
    UNITS,
    UNITS_OF,
    Digit,
    Grid,
    Mask,
    as_grid,
    candidates,
    cell_name,
    unit_name,
)
from .rater import Notes, _note_masks, _player_board, _unique_solution
from .steps import Step, apply

__all__ = ["position_candidates", "single_after"]


def _position(
    givens: str | Sequence[int], digits: Sequence[int] | None, notes: Notes | None
) -> tuple[Grid, list[Mask]]:
    """The board (givens and the player's digits) and each cell's candidates as the player has them."""
    board = _player_board(as_grid(givens), digits)
    cands = candidates(board)
    if notes is not None:
        for cell, mark in enumerate(_note_masks(notes)):
            if mark and not board[cell]:
                cands[cell] &= mark
    return board, cands


def position_candidates(
    givens: str | Sequence[int], digits: Sequence[int] | None = None, notes: Notes | None = None
) -> list[tuple[Digit, ...]]:
    """position_candidates(givens, digits=None, notes=None) -> each cell's candidates, () when filled."""
    _, cands = _position(givens, digits, notes)
    return [DIGITS_OF[mask] for mask in cands]


def single_after(
    givens: str | Sequence[int], digits: Sequence[int] | None, notes: Notes | None, step: Step
) -> Step | None:
    """The placement a step leads to: its own, or a single its eliminations leave in one of the
    cells they touch (one candidate left) or in one of those cells' houses (one place left for a
    digit removed there); None when it leaves none. InvalidGrid as next_step's.

    Only a placement the solution agrees with is given, though every sound step's single is one.
    """
    if step.placements:
        cell, digit = step.placements[0]
        return Step(step.technique, step.houses, (cell,), (digit,), placements=((cell, digit),))
    board, cands = _position(givens, digits, notes)
    apply(step, board, cands)
    solution = _unique_solution(as_grid(givens))
    touched = list(dict.fromkeys(cell for cell, _ in step.eliminations))
    for cell in touched:
        mask = cands[cell]
        if not board[cell] and POPCOUNT[mask] == 1:
            digit = DIGITS_OF[mask][0]
            if digit == solution[cell]:
                why = f"That leaves {digit} as the only candidate in {cell_name(cell)}."
                return Step("naked-single", UNITS_OF[cell][::-1], (cell,), (digit,), ((cell, digit),), (), why)
    for cell, digit in step.eliminations:
        for unit in UNITS_OF[cell][::-1]:  # boxes first, as people scan
            places = [c for c in UNITS[unit] if not board[c] and cands[c] & BIT[digit]]
            taken = any(board[c] == digit for c in UNITS[unit])
            if len(places) == 1 and not taken and solution[places[0]] == digit:
                (there,) = places
                why = f"That leaves {cell_name(there)} as the only place for {digit} in {unit_name(unit)}."
                return Step("hidden-single", (unit,), (there,), (digit,), ((there, digit),), (), why)
    return None
