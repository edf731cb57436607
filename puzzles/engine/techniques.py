"""The catalogue of human solving techniques, and the finders for the classic ones.

Each finder takes a pencil-marked position (see steps.py) and returns one Step, or None.
TECHNIQUES lists every technique easiest first, each with the tier it belongs to, its difficulty
on the Sudoku Explainer scale (the rater's score is built from these; docs/algorithms.md), and
the title and one-line description a player reads. The newer finders live beside this module:
uniqueness.py, patterns.py, als.py and forcing.py.

Every finder here is sound for every solution of the position: it never removes a digit that
some solution puts in that cell. Only the uniqueness techniques rely on the puzzle having a
single solution, and the rater checks that before it trusts them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import als, direct, forcing, patterns, uniqueness
from .grid import (
    BIT,
    CELL_BIT,
    CELLS,
    COL_OF,
    DIGIT_OF_BIT,
    DIGITS_OF,
    PEER_BITS,
    PEERS,
    POPCOUNT,
    ROW_OF,
    UNITS,
    UNITS_OF,
    Cell,
    Digit,
    Grid,
    Mask,
    cell_name,
    unit_name,
)
from .steps import (
    EXPERT_CEILING,
    HOUSE_ORDER,
    TIER_OF,
    TIER_RANK,
    TIERS,
    Candidates,
    Finder,
    Pair,
    Step,
    apply,
    bits,
    cell_houses,
    cells_text,
    common_houses,
    digit_boards,
    digits_text,
    group_text,
    houses_text,
    join_words,
    pencil,
    place,
    removals_text,
    seen_by_all,
    strong_links,
    unions,
)

__all__ = [
    "LOGICAL",
    "TECHNIQUES",
    "TECHNIQUE_BY_NAME",
    "TIERS",
    "TIER_RANK",
    "Candidates",
    "Pair",
    "Step",
    "Technique",
    "apply",
    "article_for",
    "find_step",
    "place",
    "technique_about",
    "technique_phrase",
    "technique_title",
    "tier_of",
    "trial_and_error",
]

# The masks holding exactly one digit: a set lookup is the cheapest naked-single test.
_ONE_DIGIT: frozenset[Mask] = frozenset(BIT[1:])


def _intersections() -> list[tuple[int, int, tuple[Cell, ...], tuple[int, int], tuple[int, int]]]:
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


# --- singles ----------------------------------------------------------------------------------


def naked_single(digits: Grid, cands: Candidates) -> Step | None:
    """The first empty cell with one candidate left."""
    for cell, mask in enumerate(cands):
        if mask in _ONE_DIGIT:
            digit = DIGIT_OF_BIT[mask]
            seen = {digits[p] for p in PEERS[cell]}
            if len(seen - {0}) == 8:
                why = f"{cell_name(cell)} sees every digit but {digit} in its row, column and box"
            else:
                why = f"The only candidate left in {cell_name(cell)} is {digit}"
            return Step(
                "naked-single",
                cell_houses(cell),
                (cell,),
                (digit,),
                placements=((cell, digit),),
                explanation=f"{why}, so it goes there.",
            )
    return None


def hidden_single(digits: Grid, cands: Candidates) -> Step | None:
    """The first house (boxes first) where a digit has one place left."""
    for unit in HOUSE_ORDER:
        cells = UNITS[unit]
        once = twice = 0
        for c in cells:
            mask = cands[c]
            twice |= once & mask
            once |= mask
        only = once & ~twice
        if only:
            bit = only & -only
            digit = DIGIT_OF_BIT[bit]
            cell = next(c for c in cells if cands[c] & bit)
            return Step(
                "hidden-single",
                (unit,),
                (cell,),
                (digit,),
                placements=((cell, digit),),
                explanation=f"In {unit_name(unit)}, {digit} can only go in {cell_name(cell)}, so it goes there.",
                # A box is scanned more easily than a line: 1.2 against 1.5 on the SE scale.
                difficulty=1.2 if unit >= 18 else 1.5,
            )
    return None


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


# --- fish -------------------------------------------------------------------------------------

_FISH_NAMES = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}


def _line_places(cands: Candidates) -> tuple[list[list[Mask]], list[list[Mask]]]:
    """For each digit, each row's columns and each column's rows where it is still possible."""
    by_row = [[0] * 9 for _ in range(10)]
    by_col = [[0] * 9 for _ in range(10)]
    for cell, mask in enumerate(cands):
        if mask:
            r, c = ROW_OF[cell], COL_OF[cell]
            for d in DIGITS_OF[mask]:
                by_row[d][r] |= 1 << c
                by_col[d][c] |= 1 << r
    return by_row, by_col


def _fish(cands: Candidates, size: int) -> Step | None:
    """`size` rows whose places for a digit fall in `size` columns (or the other way round):
    the digit fills those columns from these rows, so it leaves the rest of the columns."""
    by_row, by_col = _line_places(cands)
    for digit in range(1, 10):
        for rows_first in (True, False):
            base, cover = (by_row[digit], by_col[digit]) if rows_first else (by_col[digit], by_row[digit])
            pool = [line for line in range(9) if 2 <= POPCOUNT[base[line]] <= size]
            if len(pool) < size:
                continue
            for chosen, spots in unions([base[line] for line in pool], size):
                lines = tuple(pool[i] for i in chosen)
                inside = 0
                for line in lines:
                    inside |= 1 << line
                covers = tuple(x for x in range(9) if spots >> x & 1)
                elims = []
                for x in covers:
                    for y in range(9):
                        if cover[x] >> y & 1 and not inside >> y & 1:
                            elims.append(((y * 9 + x) if rows_first else (x * 9 + y), digit))
                if not elims:
                    continue
                elims.sort()
                used = tuple(
                    sorted(
                        (ln * 9 + x) if rows_first else (x * 9 + ln)
                        for ln in lines
                        for x in covers
                        if base[ln] >> x & 1
                    )
                )
                base_units = tuple(ln if rows_first else 9 + ln for ln in lines)
                cover_units = tuple(9 + x if rows_first else x for x in covers)
                kind, other = ("rows", "columns") if rows_first else ("columns", "rows")
                return Step(
                    _FISH_NAMES[size],
                    base_units + cover_units,
                    used,
                    (digit,),
                    eliminations=tuple(elims),
                    explanation=(
                        f"In {kind} {join_words([str(ln + 1) for ln in lines])}, {digit} can only go in "
                        f"{other} {join_words([str(x + 1) for x in covers])}, so those {other} get their "
                        f"{digit}s from these {kind}: {removals_text(elims)}."
                    ),
                )
    return None


def x_wing(digits: Grid, cands: Candidates) -> Step | None:
    """A fish on two lines."""
    return _fish(cands, 2)


def swordfish(digits: Grid, cands: Candidates) -> Step | None:
    """A fish on three lines."""
    return _fish(cands, 3)


def jellyfish(digits: Grid, cands: Candidates) -> Step | None:
    """A fish on four lines."""
    return _fish(cands, 4)


# --- wings ------------------------------------------------------------------------------------


def xy_wing(digits: Grid, cands: Candidates) -> Step | None:
    """A two-candidate pivot {x,y} seeing pincers {x,z} and {y,z}: one pincer is z, so cells
    seeing both pincers can't be."""
    bivalue = [c for c in CELLS if POPCOUNT[cands[c]] == 2]
    boards: list[int] | None = None
    for pivot in bivalue:
        held = cands[pivot]
        seen = PEER_BITS[pivot]
        wings = [c for c in bivalue if seen >> c & 1 and POPCOUNT[cands[c] & held] == 1]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                ma, mb = cands[a], cands[b]
                z = ma & mb & ~held
                if not z or ma & held == mb & held:
                    continue
                if boards is None:
                    boards = digit_boards(cands)
                digit = DIGIT_OF_BIT[z]
                targets = seen_by_all((a, b), boards[digit])
                if not targets:
                    continue
                elims = tuple((c, digit) for c in targets)
                x = DIGIT_OF_BIT[ma & held]
                y = DIGIT_OF_BIT[mb & held]
                return Step(
                    "xy-wing",
                    cell_houses(pivot),
                    (pivot, a, b),
                    tuple(sorted((x, y, digit))),
                    eliminations=elims,
                    explanation=(
                        f"{cell_name(pivot)} is {x} or {y}: if {x}, {cell_name(a)} ({pencil(ma)}) is "
                        f"{digit}, and if {y}, {cell_name(b)} ({pencil(mb)}) is {digit}, so a cell "
                        f"that sees both of them can't be {digit}: {removals_text(elims)}."
                    ),
                )
    return None


def xyz_wing(digits: Grid, cands: Candidates) -> Step | None:
    """A pivot {x,y,z} seeing pincers {x,z} and {y,z}: one of the three is z, so cells seeing
    all three can't be."""
    bivalue = [c for c in CELLS if POPCOUNT[cands[c]] == 2]
    boards: list[int] | None = None
    for pivot in CELLS:
        held = cands[pivot]
        if POPCOUNT[held] != 3:
            continue
        seen = PEER_BITS[pivot]
        wings = [c for c in bivalue if seen >> c & 1 and not cands[c] & ~held]
        for i, a in enumerate(wings):
            for b in wings[i + 1 :]:
                ma, mb = cands[a], cands[b]
                if ma == mb:
                    continue
                z = ma & mb
                if boards is None:
                    boards = digit_boards(cands)
                digit = DIGIT_OF_BIT[z]
                targets = seen_by_all((pivot, a, b), boards[digit])
                if not targets:
                    continue
                elims = tuple((c, digit) for c in targets)
                x = DIGIT_OF_BIT[ma & ~z]
                y = DIGIT_OF_BIT[mb & ~z]
                return Step(
                    "xyz-wing",
                    cell_houses(pivot),
                    (pivot, a, b),
                    DIGITS_OF[held],
                    eliminations=elims,
                    explanation=(
                        f"{cell_name(pivot)} is {pencil(held)}: if {x}, {cell_name(a)} ({pencil(ma)}) "
                        f"is {digit}; if {y}, {cell_name(b)} ({pencil(mb)}) is {digit}; otherwise it is "
                        f"{digit} itself, so a cell that sees all three can't be {digit}: "
                        f"{removals_text(elims)}."
                    ),
                )
    return None


# --- single-digit chains ----------------------------------------------------------------------


def simple_colouring(digits: Grid, cands: Candidates) -> Step | None:
    """Two-colour a digit's chain of conjugate pairs: a colour seen twice in a house is false,
    and a cell seeing both colours can't hold the digit."""
    boards = digit_boards(cands)
    for digit in range(1, 10):
        board = boards[digit]
        links = strong_links(board)
        coloured: set[Cell] = set()
        for start in sorted(links):
            if start in coloured:
                continue
            colour = {start: 0}
            order = [start]
            houses: list[int] = []
            for cell in order:  # grows as the walk finds new cells
                for other, unit in links[cell]:
                    if unit not in houses:
                        houses.append(unit)
                    if other not in colour:
                        colour[other] = 1 - colour[cell]
                        order.append(other)
            coloured.update(order)
            groups = (
                tuple(sorted(c for c in order if colour[c] == 0)),
                tuple(sorted(c for c in order if colour[c] == 1)),
            )
            sides = [0, 0]
            for c in order:
                sides[colour[c]] |= CELL_BIT[c]
            step = _colour_wrap(digit, groups, sides, houses) or _colour_trap(digit, board, groups, sides, houses)
            if step:
                return step
    return None


def _colour_wrap(
    digit: Digit, groups: tuple[tuple[Cell, ...], ...], sides: list[int], houses: list[int]
) -> Step | None:
    """Two cells of one colour in a house: that colour can't be the digit."""
    for side in (0, 1):
        for c in groups[side]:
            clash = PEER_BITS[c] & sides[side]
            if clash:
                a, b = sorted((c, (clash & -clash).bit_length() - 1))
                unit = next(u for u in UNITS_OF[a] if u in UNITS_OF[b])
                elims = tuple((x, digit) for x in sorted(groups[side]))
                return Step(
                    "simple-colouring",
                    (unit,) + tuple(h for h in houses if h != unit),
                    groups[0] + groups[1],
                    (digit,),
                    eliminations=elims,
                    explanation=(
                        f"Linking the only two places for {digit} in houses, either "
                        f"{group_text(groups[side], digit)} or {group_text(groups[1 - side], digit)}, "
                        f"but {cell_name(a)} and {cell_name(b)} share {unit_name(unit)}, so the first "
                        f"group can't be: {removals_text(elims)}."
                    ),
                )
    return None


def _colour_trap(
    digit: Digit, board: int, groups: tuple[tuple[Cell, ...], ...], sides: list[int], houses: list[int]
) -> Step | None:
    """A cell outside the chain that sees both colours can't be the digit."""
    seen = [0, 0]
    for side in (0, 1):
        for c in groups[side]:
            seen[side] |= PEER_BITS[c]
    targets = tuple(bits(board & seen[0] & seen[1] & ~(sides[0] | sides[1])))
    if not targets:
        return None
    elims = tuple((c, digit) for c in targets)
    first = targets[0]
    a = next(c for c in groups[0] if PEER_BITS[first] >> c & 1)
    b = next(c for c in groups[1] if PEER_BITS[first] >> c & 1)
    return Step(
        "simple-colouring",
        tuple(houses),
        groups[0] + groups[1],
        (digit,),
        eliminations=elims,
        explanation=(
            f"Linking the only two places for {digit} in houses, either {group_text(groups[0], digit)} "
            f"or {group_text(groups[1], digit)}; {cell_name(first)} sees {cell_name(a)} and "
            f"{cell_name(b)}, one from each group, so it can't be {digit}: {removals_text(elims)}."
        ),
    )


def x_chain(digits: Grid, cands: Candidates) -> Step | None:
    """The shortest chain on one digit that alternates conjugate pairs (=) and cells that see
    each other (-), from a strong link to a strong link: one end holds the digit, so cells
    seeing both ends can't."""
    boards = digit_boards(cands)
    best: tuple[int, Digit, list[Cell], tuple[Cell, ...]] | None = None
    for digit in range(1, 10):
        board = boards[digit]
        links = strong_links(board)
        if len(links) < 4:
            continue
        linked = 0
        for c in links:
            linked |= CELL_BIT[c]
        for start in sorted(links):
            limit = best[0] if best else 99
            found = _x_chain_from(start, board, links, linked, limit)
            if found and (best is None or len(found[0]) < best[0]):
                best = (len(found[0]), digit, found[0], found[1])
    if best is None:
        return None
    _, digit, path, targets = best
    elims = tuple((c, digit) for c in targets)
    words = [cell_name(path[0])]
    for i in range(1, len(path)):
        words.append(("= " if i % 2 else "- ") + cell_name(path[i]))
    houses = tuple(next(u for u in UNITS_OF[path[i]] if u in UNITS_OF[path[i + 1]]) for i in range(len(path) - 1))
    return Step(
        "x-chain",
        houses,
        tuple(path),
        (digit,),
        eliminations=elims,
        explanation=(
            f"Along {' '.join(words)}, where = joins the only two places for {digit} in a house and - "
            f"joins cells that see each other, if {cell_name(path[0])} isn't {digit} then "
            f"{cell_name(path[-1])} is, so a cell that sees both ends can't be {digit}: "
            f"{removals_text(elims)}."
        ),
    )


def _x_chain_from(
    start: Cell, board: int, links: dict[Cell, list[tuple[Cell, int]]], linked: int, limit: int
) -> tuple[list[Cell], tuple[Cell, ...]] | None:
    """A shortest x-chain (as a path of cells, under `limit` cells) from `start` with eliminations."""
    # Breadth first over cells that would hold the digit if `start` did not; each hop is a weak
    # link to a linked cell followed by its strong link, so a path always ends on a strong link.
    parent: dict[Cell, tuple[Cell, Cell] | None] = {}  # on-cell -> (previous on-cell, off-cell)
    layer = []
    for other, _ in links[start]:
        if other not in parent:
            parent[other] = None
            layer.append(other)
    length = 2
    while layer and length < limit:
        for end in layer:
            targets = board & PEER_BITS[start] & PEER_BITS[end]
            if targets and end != start:
                return _x_path(start, end, parent), tuple(bits(targets))
        if length + 2 >= limit:
            return None
        length += 2
        nxt = []
        for on in layer:
            for off in bits(PEER_BITS[on] & linked):
                for other, _ in links[off]:
                    if other not in parent and other != start:
                        parent[other] = (on, off)
                        nxt.append(other)
        layer = nxt
    return None


def _x_path(start: Cell, end: Cell, parent: dict[Cell, tuple[Cell, Cell] | None]) -> list[Cell]:
    """The cells of an x-chain from `start` to `end`, rebuilt from the walk's parents."""
    path = [end]
    hop = parent[end]
    while hop is not None:
        on, off = hop
        path += [off, on]
        hop = parent[on]
    path.append(start)
    return path[::-1]


def xy_chain(digits: Grid, cands: Candidates) -> Step | None:
    """The shortest chain of two-candidate cells, each seeing the next and sharing a digit with
    it: if the first cell isn't x the last one is, so cells seeing both ends can't be x."""
    bivalue = [c for c in CELLS if POPCOUNT[cands[c]] == 2]
    if len(bivalue) < 3:
        return None
    bivalue_bits = 0
    for c in bivalue:
        bivalue_bits |= CELL_BIT[c]
    boards = digit_boards(cands)
    best: list[tuple[Cell, Digit]] | None = None
    for start in bivalue:
        for x in DIGITS_OF[cands[start]]:
            limit = len(best) if best else 99
            path = _xy_chain_from(start, x, cands, bivalue_bits, boards[x], limit)
            if path and (best is None or len(path) < len(best)):
                best = path
    if best is None:
        return None
    start, end = best[0][0], best[-1][0]
    x = DIGIT_OF_BIT[cands[start] & ~BIT[best[0][1]]]
    targets = seen_by_all((start, end), boards[x])
    elims = tuple((c, x) for c in targets)
    cells = tuple(c for c, _ in best)
    chain = " - ".join(f"{cell_name(c)} ({pencil(cands[c])})" for c in cells)
    houses = tuple(next(u for u in UNITS_OF[cells[i]] if u in UNITS_OF[cells[i + 1]]) for i in range(len(cells) - 1))
    return Step(
        "xy-chain",
        houses,
        cells,
        (x,),
        eliminations=elims,
        explanation=(
            f"In the chain {chain}, each cell sees the next, so if {cell_name(start)} isn't {x}, "
            f"each following cell is forced and {cell_name(end)} is {x}; a cell that sees both ends "
            f"can't be {x}: {removals_text(elims)}."
        ),
    )


def _xy_chain_from(
    start: Cell, x: Digit, cands: Candidates, bivalue_bits: int, x_board: int, limit: int
) -> list[tuple[Cell, Digit]] | None:
    """A shortest xy-chain (cells with the digit each would hold) from `start` assumed not x."""
    first = (start, DIGIT_OF_BIT[cands[start] & ~BIT[x]])
    parent: dict[tuple[Cell, Digit], tuple[Cell, Digit] | None] = {first: None}
    layer = [first]
    length = 1
    while layer and length + 1 < limit:
        length += 1
        nxt = []
        for state in layer:
            cell, value = state
            bit = BIT[value]
            for other in bits(PEER_BITS[cell] & bivalue_bits):
                mask = cands[other]
                if not mask & bit or other == start:
                    continue
                now = (other, DIGIT_OF_BIT[mask & ~bit])
                if now in parent:
                    continue
                parent[now] = state
                if now[1] == x and x_board & PEER_BITS[start] & PEER_BITS[other]:
                    path = [now]
                    while parent[path[-1]] is not None:
                        path.append(parent[path[-1]])
                    return path[::-1]
                nxt.append(now)
        layer = nxt
    return None


# --- the table --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Technique:
    """A technique: its name, tier, difficulty and finder (None for trial-and-error, which needs
    the solution and lives in the rater's loop), with a title and one line about it for people.

    difficulty is on the Sudoku Explainer scale (docs/algorithms.md gives the sources), the lowest
    figure any step of the technique gets.
    `unique` marks the techniques that are sound only for a puzzle with one solution.
    """

    name: str  # for machines: 'x-wing'
    tier: str
    difficulty: float
    find: Finder | None
    title: str  # for the page: 'X-wing'
    about: str
    unique: bool = False
    # A pattern that can be larger: `growth` more for each cell beyond `smallest`, never past
    # `ceiling` (which keeps a large expert pattern below the extreme tier's figures).
    growth: float = 0.0
    smallest: int = 0
    ceiling: float = 10.0

    def figure(self, cells: int) -> float:
        """The difficulty of one of this technique's patterns of `cells` cells."""
        if not self.growth:
            return self.difficulty
        return round(min(self.ceiling, self.difficulty + self.growth * max(0, cells - self.smallest)), 1)


TECHNIQUES: tuple[Technique, ...] = (
    Technique(
        "hidden-single",
        "easy",
        1.2,
        hidden_single,
        "Hidden single",
        "A digit that has only one possible cell left in a row, column or box.",
    ),
    Technique(
        "naked-single",
        "easy",
        2.3,
        naked_single,
        "Naked single",
        "A cell whose row, column and box leave it one possible digit.",
    ),
    Technique(
        "direct-pointing",
        "medium",
        1.7,
        direct.direct_pointing,
        "Direct pointing",
        "A digit confined to one line inside a box, which leaves another box on that line one place for it.",
    ),
    Technique(
        "direct-hidden-pair",
        "medium",
        2.0,
        direct.direct_hidden_pair,
        "Direct hidden pair",
        "Two digits that fit only in the same two cells of a house, which leaves a third digit one place there.",
    ),
    Technique(
        "direct-hidden-triple",
        "medium",
        2.5,
        direct.direct_hidden_triple,
        "Direct hidden triple",
        "Three digits that fit only in the same three cells of a house, which leaves a fourth digit one place there.",
    ),
    Technique(
        "pointing",
        "medium",
        2.6,
        pointing,
        "Pointing",
        "A digit confined to one line inside a box can't go elsewhere on that line.",
    ),
    Technique(
        "claiming",
        "medium",
        2.8,
        claiming,
        "Claiming",
        "A digit confined to one box inside a line can't go elsewhere in that box.",
    ),
    Technique(
        "naked-pair",
        "medium",
        3.0,
        naked_pair,
        "Naked pair",
        "Two cells of a house holding the same two digits: no other cell there can.",
    ),
    Technique(
        "hidden-pair",
        "medium",
        3.4,
        hidden_pair,
        "Hidden pair",
        "Two digits that fit only in the same two cells of a house: those cells hold nothing else.",
    ),
    Technique(
        "x-wing",
        "hard",
        3.2,
        x_wing,
        "X-wing",
        "A digit with two places in each of two lines, lined up: it leaves the crossing lines.",
    ),
    Technique(
        "naked-triple",
        "hard",
        3.6,
        naked_triple,
        "Naked triple",
        "Three cells of a house sharing three digits between them: no other cell there can hold them.",
    ),
    Technique(
        "swordfish",
        "hard",
        3.8,
        swordfish,
        "Swordfish",
        "An x-wing across three lines: a digit's places in three lines cover only three crossing lines.",
    ),
    Technique(
        "hidden-triple",
        "hard",
        4.0,
        hidden_triple,
        "Hidden triple",
        "Three digits that fit only in the same three cells of a house: those cells hold nothing else.",
    ),
    Technique(
        "skyscraper",
        "hard",
        4.0,
        patterns.skyscraper,
        "Skyscraper",
        "Two lines each with two places for a digit, one end of each on a common line: a cell seeing both other ends can't hold it.",
    ),
    Technique(
        "two-string-kite",
        "hard",
        4.1,
        patterns.two_string_kite,
        "Two-string kite",
        "A row and a column each with two places for a digit, joined in one box: a cell seeing both free ends can't hold it.",
    ),
    Technique(
        "xy-wing",
        "hard",
        4.2,
        xy_wing,
        "XY-wing",
        "Three two-digit cells that force a digit out of any cell seeing both wings.",
    ),
    Technique(
        "turbot-fish",
        "hard",
        4.2,
        patterns.turbot_fish,
        "Turbot fish",
        "Two only-two-places links on one digit joined end to end: a cell seeing both far ends can't hold it.",
    ),
    Technique(
        "empty-rectangle",
        "hard",
        4.3,
        patterns.empty_rectangle,
        "Empty rectangle",
        "A digit confined to one row and one column of a box, with a link outside it: the cell where they meet can't hold it.",
    ),
    Technique(
        "xyz-wing",
        "hard",
        4.4,
        xyz_wing,
        "XYZ-wing",
        "An xy-wing whose pivot holds three digits: cells seeing all three can't hold the shared one.",
    ),
    Technique(
        "unique-rectangle-1",
        "hard",
        4.5,
        uniqueness.unique_rectangle_1,
        "Unique rectangle (type 1)",
        "Three corners of a rectangle over two boxes hold the same two digits: the fourth can't, or the puzzle would have two solutions.",
        unique=True,
    ),
    Technique(
        "unique-rectangle-2",
        "hard",
        4.6,
        uniqueness.unique_rectangle_2,
        "Unique rectangle (type 2)",
        "Two roof corners hold one extra digit besides the rectangle's pair: one of them must be it, so cells seeing both can't.",
        unique=True,
    ),
    Technique(
        "unique-rectangle-3",
        "hard",
        4.6,
        uniqueness.unique_rectangle_3,
        "Unique rectangle (type 3)",
        "The roof's extra digits act as one cell that forms a naked subset with other cells of their house.",
        unique=True,
    ),
    Technique(
        "unique-rectangle-4",
        "hard",
        4.6,
        uniqueness.unique_rectangle_4,
        "Unique rectangle (type 4)",
        "One of the rectangle's digits is locked into the two roof cells, so the other one can't go in either.",
        unique=True,
    ),
    Technique(
        "naked-quad",
        "expert",
        5.0,
        naked_quad,
        "Naked quad",
        "Four cells of a house sharing four digits between them: no other cell there can hold them.",
    ),
    Technique(
        "jellyfish",
        "expert",
        5.2,
        jellyfish,
        "Jellyfish",
        "An x-wing across four lines: a digit's places in four lines cover only four crossing lines.",
    ),
    Technique(
        "x-chain",
        "expert",
        5.4,
        x_chain,
        "X-chain",
        "A chain of one digit's strong and weak links: a cell seeing both ends can't hold it.",
        growth=0.3,
        smallest=6,
        ceiling=EXPERT_CEILING,
    ),
    Technique(
        "hidden-quad",
        "expert",
        5.4,
        hidden_quad,
        "Hidden quad",
        "Four digits that fit only in the same four cells of a house: those cells hold nothing else.",
    ),
    Technique(
        "simple-colouring",
        "expert",
        5.4,
        simple_colouring,
        "Simple colouring",
        "Colouring a digit's chain of only-two-places links to find cells that can't hold it.",
    ),
    Technique(
        "bug-plus-one",
        "expert",
        5.6,
        uniqueness.bug_plus_one,
        "BUG+1",
        "Every cell but one has two candidates: the odd cell takes the digit that would otherwise leave the puzzle two solutions.",
        unique=True,
    ),
    Technique(
        "als-xz",
        "expert",
        5.6,
        als.als_xz,
        "ALS-XZ",
        "Two almost locked sets that can't both hold a shared digit: one of them holds another digit they share, so cells seeing all of its places can't.",
    ),
    Technique(
        "xy-chain",
        "expert",
        5.9,
        xy_chain,
        "XY-chain",
        "A chain of two-digit cells, each forcing the next: a cell seeing both ends can't hold the end digit.",
        growth=0.5,
        smallest=4,
        ceiling=EXPERT_CEILING,
    ),
    Technique(
        "w-wing",
        "expert",
        6.6,
        patterns.w_wing,
        "W-wing",
        "Two cells with the same two digits joined by a link on one of them: the other digit leaves cells seeing both.",
    ),
    Technique(
        "nishio",
        "extreme",
        7.5,
        forcing.nishio,
        "Nishio forcing chain",
        "Assume a candidate and follow the singles it forces: if they run into a contradiction, the candidate is false.",
    ),
    Technique(
        "cell-forcing-chain",
        "extreme",
        8.0,
        forcing.cell_forcing_chain,
        "Cell forcing chain",
        "Each candidate of one cell, followed through the singles it forces, leads to the same conclusion: that conclusion holds.",
    ),
    Technique(
        "unit-forcing-chain",
        "extreme",
        8.0,
        forcing.unit_forcing_chain,
        "Unit forcing chain",
        "Each place a digit can go in a house, followed through the singles it forces, leads to the same conclusion: that conclusion holds.",
    ),
    Technique(
        "trial-and-error",
        "extreme",
        10.0,
        None,
        "Trial and error",
        "Not even a forcing chain applies: try a candidate and see which one leads to a solution.",
    ),
)
TECHNIQUE_BY_NAME: dict[str, Technique] = {t.name: t for t in TECHNIQUES}
TIER_OF.update({t.name: t.tier for t in TECHNIQUES})
LOGICAL: tuple[Technique, ...] = tuple(t for t in TECHNIQUES if t.find is not None)


def tier_of(technique: str) -> str:
    """tier_of('x-wing') -> 'hard'; ValueError for a name that isn't a technique."""
    try:
        return TECHNIQUE_BY_NAME[technique].tier
    except KeyError:
        raise ValueError(f"unknown technique {technique!r}") from None


def technique_title(name: str) -> str:
    """technique_title('x-wing') -> 'X-wing'; an unknown name (such as 'wrong-digit') is tidied
    up rather than refused."""
    technique = TECHNIQUE_BY_NAME.get(name)
    return technique.title if technique else name.replace("-", " ").capitalize()


def technique_phrase(name: str) -> str:
    """A technique's name for the middle of a sentence, with its article: 'a naked pair',
    'an X-wing', 'an ALS-XZ', 'a Nishio forcing chain', 'a BUG+1'."""
    title = technique_title(name)
    first = title.split()[0]
    if first[1:2].islower() and first not in _PROPER_NAMES:
        title = title[0].lower() + title[1:]
    return f"{article_for(title)} {title}"


def article_for(words: str) -> str:
    """'an' before a vowel sound ('an expert', 'an X-wing', 'an ALS-XZ'), else 'a' ('a unique
    rectangle')."""
    spoken_vowel = words[:1].lower() in "aeiou" and not words.lower().startswith("uni")
    spoken_vowel = spoken_vowel or words.startswith(("X", "ALS"))
    return "an" if spoken_vowel else "a"


# Titles that start with a name, which keeps its capital mid-sentence.
_PROPER_NAMES = frozenset({"Nishio"})


def technique_about(name: str) -> str:
    """One line on what a technique is ('' for a name the catalogue doesn't know)."""
    technique = TECHNIQUE_BY_NAME.get(name)
    return technique.about if technique else ""


def find_step(digits: Grid, cands: Candidates, techniques: Sequence[Technique] = LOGICAL) -> Step | None:
    """The first step found by the easiest technique that applies, or None."""
    for technique in techniques:
        step = technique.find(digits, cands)  # type: ignore[misc]
        if step is not None:
            return step
    return None


def trial_and_error(digits: Grid, cands: Candidates, solution: Grid) -> Step | None:
    """Place the solution's digit in the first empty cell with the fewest candidates; None when full."""
    best_cell, best_count = -1, 10
    for cell, mask in enumerate(cands):
        if mask and POPCOUNT[mask] < best_count:
            best_cell, best_count = cell, POPCOUNT[mask]
    if best_cell < 0:
        return None
    digit = solution[best_cell]
    options = DIGITS_OF[cands[best_cell]]
    return Step(
        "trial-and-error",
        cell_houses(best_cell),
        (best_cell,),
        options,
        placements=((best_cell, digit),),
        explanation=(
            f"No technique here applies; {cell_name(best_cell)} has the fewest candidates "
            f"({pencil(cands[best_cell])}), and trying them shows only {digit} leads to a solution, "
            f"so it goes there."
        ),
    )
