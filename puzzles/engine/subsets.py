"""Locked candidates (pointing and claiming) and naked and hidden subsets: a few digits confined
to a few cells of a house, so they leave the houses those cells share.

Each finder takes a pencil-marked position (see steps.py) and returns its first Step, or None.
Every finder here is sound for every solution of the position: it never removes a digit that
some solution puts in that cell.
"""

from __future__ import annotations

from .grid import BIT, DIGIT_OF_BIT, DIGITS_OF, POPCOUNT, UNITS, Cell, Grid, Mask, unit_name
from .steps import (
    HOUSE_ORDER,
    Candidates,
    Step,
    cells_text,
    common_houses,
    digits_text,
    houses_text,
    removals_text,
    unions,
)


def _intersections() -> list[tuple[int, int, tuple[Cell, ...], tuple[int, ...], tuple[int, ...]]]:
    """The 54 box-line crossings: (box unit, line unit, its 3 cells, the line's other two
    crossings, the box's other two crossings along the same direction)."""
    found = []
    for box in range(18, 27):
        for line in range(18):
            cells = tuple(c for c in UNITS[box] if c in UNITS[line])
            if cells:
                found.append((box, line, cells))
    index = {(box, line): i for i, (box, line, _) in enumerate(found)}
    table = []
    for box, line, cells in found:
        along_line = tuple(i for (b, ln), i in index.items() if ln == line and b != box)
        same_way = range(9) if line < 9 else range(9, 18)
        in_box = tuple(i for (b, ln), i in index.items() if b == box and ln != line and ln in same_way)
        table.append((box, line, cells, along_line, in_box))
    return table


_CROSSINGS = _intersections()


# --- locked candidates ------------------------------------------------------------------------


def _crossing_masks(cands: Candidates) -> list[Mask]:
    """The candidates of each box-line crossing's three cells together."""
    return [cands[a] | cands[b] | cands[c] for _, _, (a, b, c), _, _ in _CROSSINGS]


def _locked(cands: Candidates, pointing: bool) -> Step | None:
    """Pointing (a box's digit confined to one line) or claiming (a line's digit confined to one box)."""
    seg = _crossing_masks(cands)
    for i, (box, line, cells, along_line, in_box) in enumerate(_CROSSINGS):
        here = seg[i]
        if not here:
            continue
        line_rest = seg[along_line[0]] | seg[along_line[1]]
        box_rest = seg[in_box[0]] | seg[in_box[1]]
        confined = here & ~box_rest & line_rest if pointing else here & ~line_rest & box_rest
        if not confined:
            continue
        bit = confined & -confined
        digit = DIGIT_OF_BIT[bit]
        home, other = (box, line) if pointing else (line, box)
        used = tuple(c for c in cells if cands[c] & bit)
        elims = tuple((c, digit) for c in UNITS[other] if c not in cells and cands[c] & bit)
        if pointing:
            text = (
                f"In {unit_name(box)}, {digit} can only go in {unit_name(line)} "
                f"({cells_text(used, 'or')}), so no other cell in {unit_name(line)} can hold {digit}: "
            )
        else:
            text = (
                f"In {unit_name(line)}, {digit} can only go in {unit_name(box)} "
                f"({cells_text(used, 'or')}), so no other cell in {unit_name(box)} can hold {digit}: "
            )
        return Step(
            "pointing" if pointing else "claiming",
            (home, other),
            used,
            (digit,),
            eliminations=elims,
            explanation=text + removals_text(elims) + ".",
        )
    return None


def pointing(digits: Grid, cands: Candidates) -> Step | None:
    """A digit whose places in a box all lie in one row or column leaves the rest of that line."""
    return _locked(cands, pointing=True)


def claiming(digits: Grid, cands: Candidates) -> Step | None:
    """A digit whose places in a row or column all lie in one box leaves the rest of that box."""
    return _locked(cands, pointing=False)


# --- naked and hidden subsets -----------------------------------------------------------------

_SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def _naked_subset(cands: Candidates, size: int) -> Step | None:
    """`size` cells of a house holding only `size` digits between them: those digits leave the rest."""
    for unit in HOUSE_ORDER:
        open_cells = [c for c in UNITS[unit] if cands[c]]
        if len(open_cells) <= size:
            continue
        pool = [c for c in open_cells if 2 <= POPCOUNT[cands[c]] <= size]
        if len(pool) < size:
            continue
        for chosen, union in unions([cands[c] for c in pool], size):
            subset = tuple(pool[i] for i in chosen)
            houses = common_houses(subset, unit)
            touched = sorted({c for h in houses for c in UNITS[h] if c not in subset and cands[c] & union})
            if not touched:
                continue
            elims = tuple((c, d) for c in touched for d in DIGITS_OF[cands[c] & union])
            held = DIGITS_OF[union]
            between = "" if size == 2 else " between them"
            return Step(
                f"naked-{_SUBSET_NAMES[size]}",
                houses,
                subset,
                held,
                eliminations=elims,
                explanation=(
                    f"{cells_text(subset)} can only hold {digits_text(held)}{between}, so no other "
                    f"cell in {houses_text(houses)} can hold {digits_text(held, 'or')}: "
                    f"{removals_text(elims)}."
                ),
            )
    return None


def _hidden_subset(cands: Candidates, size: int) -> Step | None:
    """`size` digits of a house confined to `size` cells: those cells hold nothing else."""
    for unit in HOUSE_ORDER:
        cells = UNITS[unit]
        places = [0] * 10
        open_count = 0
        for i, c in enumerate(cells):
            mask = cands[c]
            if mask:
                open_count += 1
                for d in DIGITS_OF[mask]:
                    places[d] |= 1 << i
        if open_count <= size:
            continue
        pool = [d for d in range(1, 10) if 2 <= POPCOUNT[places[d]] <= size]
        if len(pool) < size:
            continue
        for chosen, spots in unions([places[d] for d in pool], size):
            held = tuple(pool[i] for i in chosen)
            keep = 0
            for d in held:
                keep |= BIT[d]
            subset = tuple(cells[i] for i in range(9) if spots >> i & 1)
            elims = tuple((c, d) for c in subset for d in DIGITS_OF[cands[c] & ~keep])
            if not elims:
                continue
            return Step(
                f"hidden-{_SUBSET_NAMES[size]}",
                (unit,),
                subset,
                held,
                eliminations=elims,
                explanation=(
                    f"In {unit_name(unit)}, {digits_text(held)} can only go in {cells_text(subset)}, "
                    f"so those cells hold nothing else: {removals_text(elims)}."
                ),
            )
    return None


def naked_pair(digits: Grid, cands: Candidates) -> Step | None:
    """Two cells of a house with the same two candidates."""
    return _naked_subset(cands, 2)


def hidden_pair(digits: Grid, cands: Candidates) -> Step | None:
    """Two digits of a house with the same two places."""
    return _hidden_subset(cands, 2)


def naked_triple(digits: Grid, cands: Candidates) -> Step | None:
    """Three cells of a house holding three digits between them."""
    return _naked_subset(cands, 3)


def hidden_triple(digits: Grid, cands: Candidates) -> Step | None:
    """Three digits of a house confined to three cells."""
    return _hidden_subset(cands, 3)


def naked_quad(digits: Grid, cands: Candidates) -> Step | None:
    """Four cells of a house holding four digits between them."""
    return _naked_subset(cands, 4)


def hidden_quad(digits: Grid, cands: Candidates) -> Step | None:
    """Four digits of a house confined to four cells."""
    return _hidden_subset(cands, 4)
