"""Exact solving and counting: per-digit bitboards, singles propagation, fewest-candidates search.

The state of a search is nine 81-bit integers, one per digit, each holding the unsolved cells
where that digit is still possible, plus the cells already placed for each digit. One Python
integer operation then acts on the whole board at once, which is what makes this fast enough
in pure Python: naked singles, empty cells and bivalue cells all fall out of a few passes over
the nine boards.
"""

from __future__ import annotations

from collections.abc import Callable

from .grid import BOXES, CELL_BIT, COLS, FULL_BOARD, PEER_BITS, ROWS, UNIT_BITS, UNITS_OF, Grid, as_grid

Boards = list[int]  # nine bitboards, index d - 1 for digit d

# A state is [cand_1..cand_9, placed_1..placed_9, unsolved, seen_1..seen_9]: one flat list so a
# branch copies it with a single slice. seen_d is digit d's board as the house rules last found
# it (-1 before they ever looked): a board that has not changed since holds nothing new for them.
State = list[int]
_UNSOLVED = 18
_SEEN = 19


def _locked_table() -> dict[int, int]:
    """Map each set of 2-3 cells lying in one box-line intersection to the cells it clears.

    When a digit's only places in a box (or in a row or column) are such a set, the digit can
    be removed from the rest of the line (or of the box): pointing and claiming. A set that is
    the whole of a digit's places in either unit makes both removals safe, so one table serves
    both, and one dictionary probe per unit finds them.
    """
    table: dict[int, int] = {}
    for box in BOXES:
        box_bits = sum(1 << c for c in box)
        for line in ROWS + COLS:
            line_bits = sum(1 << c for c in line)
            shared = [c for c in box if line_bits >> c & 1]
            if len(shared) != 3:
                continue
            clears = (box_bits | line_bits) & ~(box_bits & line_bits)
            for subset in range(1, 8):
                bits = [shared[i] for i in range(3) if subset >> i & 1]
                if len(bits) >= 2:
                    table[sum(1 << c for c in bits)] = clears
    return table


_LOCKED = _locked_table()
_BOX_BITS = UNIT_BITS[18:]
_UNIT_BITS_OF: tuple[tuple[int, ...], ...] = tuple(tuple(UNIT_BITS[u] for u in UNITS_OF[c]) for c in range(81))
_BOX_BITS_OF: tuple[tuple[int, ...], ...] = tuple((UNIT_BITS[UNITS_OF[c][2]],) for c in range(81))
# Up to this many changed cells in a board, the house rules look at those cells' units alone.
_FEW_CHANGED = 3


def _place(state: State, d: int, cells: int) -> bool:
    """Place digit index d in every cell of `cells`; False when two of them see each other."""
    cand = state[d]
    if cells & ~cand:
        return False  # a cell that can no longer take this digit
    if cells & (cells - 1):
        seen = 0
        rest = cells
        while rest:
            low = rest & -rest
            peers = PEER_BITS[low.bit_length() - 1]
            if peers & cells:
                return False
            seen |= peers
            rest ^= low
    else:
        seen = PEER_BITS[cells.bit_length() - 1]  # one cell, the usual case: no loop
    keep = ~cells
    # Written out: a comprehension over the nine boards costs noticeably more, and this runs
    # for every placement of every search (bench/engine.py shows it).
    state[0] &= keep
    state[1] &= keep
    state[2] &= keep
    state[3] &= keep
    state[4] &= keep
    state[5] &= keep
    state[6] &= keep
    state[7] &= keep
    state[8] &= keep
    state[d] = cand & ~seen & keep
    state[9 + d] |= cells
    state[_UNSOLVED] &= keep
    return True


def _naked_singles(state: State) -> bool:
    """Place naked singles, every one found at once, until none is left; False on a contradiction.

    A single's cell has one candidate, so the singles of different digits lie in different
    cells and only singles of one digit can clash: all of them are placed in one pass over the
    nine boards, which leaves the state _place would leave placing them a digit at a time.
    """
    while True:
        unsolved = state[_UNSOLVED]
        if not unsolved:
            return True
        ones = twos = 0
        for b in state[:9]:
            twos |= ones & b
            ones |= b
        if unsolved & ~ones:
            return False  # an empty cell with no candidate left
        singles = ones & ~twos
        if not singles:
            return True
        keep = ~singles
        for d in range(9):
            b = state[d]
            cells = singles & b
            if not cells:
                state[d] = b & keep
                continue
            if cells & (cells - 1):
                seen = 0
                rest = cells
                while rest:
                    low = rest & -rest
                    peers = PEER_BITS[low.bit_length() - 1]
                    if peers & cells:
                        return False  # two singles of one digit that see each other
                    seen |= peers
                    rest ^= low
            else:
                seen = PEER_BITS[cells.bit_length() - 1]
            state[d] = b & ~seen & keep
            state[9 + d] |= cells
        state[_UNSOLVED] = unsolved & keep


def _propagate(
    state: State,
    units: tuple[int, ...] = UNIT_BITS,
    units_of: tuple[tuple[int, ...], ...] = _UNIT_BITS_OF,
    locked: Callable[[int], int | None] | None = _LOCKED.get,
) -> bool:
    """Apply naked singles, hidden singles in `units` and, with `locked`, locked candidates
    until nothing changes; False on a contradiction. `units_of` gives each cell's units.

    The house rules look at one digit's board at a time, so a board that is as they last left
    it (its seen_d) is skipped, and within a board so is a unit whose cells have not changed:
    what they found there is placed or cleared already. When only a few cells changed, only
    their units are looked at. Skipping reaches the same fixed point, so the search visits the
    same nodes, only with fewer steps.
    """
    while True:
        if not _naked_singles(state):
            return False
        if not state[_UNSOLVED]:
            return True
        progress = False
        for d in range(9):
            b = state[d]
            before = state[_SEEN + d]
            if b == before:
                continue
            placed = state[9 + d]
            if not b:
                if placed.bit_count() != 9:
                    return False  # a digit with nowhere left to go
                state[_SEEN + d] = 0
                continue
            start = b
            hidden = 0
            look = units
            changed = -1  # every cell, when the rules have never looked at this board
            if before >= 0:
                changed = before ^ b
                if changed.bit_count() <= _FEW_CHANGED:
                    look = ()
                    rest = changed
                    while rest:
                        low = rest & -rest
                        look += units_of[low.bit_length() - 1]
                        rest ^= low
            for unit in look:
                if not changed & unit:
                    continue  # as last time: its single is placed, its locked cells cleared
                x = b & unit
                if x:
                    if not x & (x - 1):
                        hidden |= x
                    elif locked is not None:
                        clears = locked(x)
                        if clears and b & clears:
                            b &= ~clears
                            progress = True
                elif not placed & unit:
                    return False  # a unit with nowhere left for this digit
            state[d] = b
            if hidden:
                if not _place(state, d, hidden):
                    return False
                progress = True
            # Every unit was looked at as it stood in `start` or smaller: a unit still as in
            # `start` next time has nothing new, one that lost cells since is looked at again.
            state[_SEEN + d] = start
        if not progress:
            return True


def _propagate_quick(state: State) -> bool:
    """Naked singles, and hidden singles in boxes only, until nothing changes; False on a contradiction.

    The clearer's searches start from nearly full grids and mostly end within a few placements;
    there the rows' and columns' hidden singles and locked candidates cost more than they prune,
    and clearing is quicker with this propagation (the same puzzles made). On hard puzzles it is
    the other way round (count_solutions over top-1465 is slower with it), so only
    has_other_solution uses it; bench/engine.py measures both. Any pruning here is sound and
    _place refuses a clash, so the search stays exact either way.
    """
    return _propagate(state, _BOX_BITS, _BOX_BITS_OF, None)


def _branch_cell(state: State) -> int:
    """A cell to guess in: the fewest candidates, then the most unsolved peers.

    Among bivalue cells, the one that sees the most open cells prunes the most when its guess
    is placed; on top-1465 that choice alone visits clearly fewer nodes than the first bivalue
    cell would.
    """
    ones = twos = threes = fours = 0
    for b in state[:9]:
        fours |= threes & b
        threes |= twos & b
        twos |= ones & b
        ones |= b
    unsolved = state[_UNSOLVED]
    pool = twos & ~threes or threes & ~fours or unsolved
    best = -1
    best_cell = 0
    while pool:
        low = pool & -pool
        cell = low.bit_length() - 1
        seen = (PEER_BITS[cell] & unsolved).bit_count()
        if seen > best:
            best = seen
            best_cell = cell
        pool ^= low
    return best_cell


def _search(state: State, limit: int, found: list[State], propagate: Callable[[State], bool] = _propagate) -> None:
    """Append solved states to `found` until it holds `limit` of them."""
    if not propagate(state):
        return
    if not state[_UNSOLVED]:
        found.append(state)
        return
    cell = _branch_cell(state)
    bit = CELL_BIT[cell]
    for d in range(9):
        if state[d] & bit:
            child = state[:]
            if _place(child, d, bit):
                _search(child, limit, found, propagate)
                if len(found) >= limit:
                    return


def reach_of(board: int) -> int:
    """The cells that see any cell of `board`: its cells' peers, joined."""
    seen = 0
    while board:
        low = board & -board
        seen |= PEER_BITS[low.bit_length() - 1]
        board ^= low
    return seen


def state_from_boards(placed: Boards, reach: dict[int, int] | None = None) -> State | None:
    """The search state for givens held as nine per-digit bitboards, or None on a clash.

    `reach`, when given, remembers each board's reach_of between calls: the clearer asks about
    givens that differ from the last ones in a cell or two, so most boards are known already.
    """
    filled = 0
    for board in placed:
        filled |= board
    state = [0] * 19 + [-1] * 9
    empty = FULL_BOARD & ~filled
    for d, board in enumerate(placed):
        if reach is None:
            seen = reach_of(board)
        else:
            seen = reach.get(board, -1)
            if seen < 0:
                seen = reach[board] = reach_of(board)
        if seen & board:
            return None  # the same digit twice in one unit
        state[d] = empty & ~seen
        state[9 + d] = board
    state[_UNSOLVED] = empty
    return state


def boards_of(grid: Grid) -> Boards:
    """Nine bitboards, one per digit, of the cells holding it."""
    placed = [0] * 9
    for cell, d in enumerate(grid):
        if d:
            placed[d - 1] |= CELL_BIT[cell]
    return placed


def initial_state(grid: Grid) -> State | None:
    """The search state for a grid's givens, or None when the givens contradict each other."""
    return state_from_boards(boards_of(grid))


def to_grid(state: State) -> Grid:
    """The digits of a state's placed cells (0 elsewhere)."""
    grid = [0] * 81
    for d in range(9):
        b = state[9 + d]
        while b:
            low = b & -b
            grid[low.bit_length() - 1] = d + 1
            b ^= low
    return grid


def solutions(grid: Grid, limit: int = 2) -> list[Grid]:
    """Up to `limit` solutions of a grid (a checked list of 81 ints)."""
    state = initial_state(grid)
    if state is None:
        return []
    found: list[State] = []
    _search(state, limit, found)
    return [to_grid(s) for s in found]


def count_solutions(grid: Grid | str, limit: int = 2) -> int:
    """count_solutions(grid, limit=2) -> int: how many solutions, stopping once `limit` are found."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    state = initial_state(as_grid(grid))
    if state is None:
        return 0
    found: list[State] = []
    _search(state, limit, found)
    return len(found)


def solve(grid: Grid | str) -> Grid | None:
    """solve(grid) -> the first solution found, or None when the grid has none."""
    found = solutions(as_grid(grid), limit=1)
    return found[0] if found else None


def solved_by_propagation(grid: Grid) -> bool:
    """Whether singles and locked candidates (pointing, claiming) alone fill the grid, no guess."""
    state = initial_state(grid)
    return state is not None and _propagate(state) and not state[_UNSOLVED]


def has_other_solution(placed: Boards, cell: int, digit: int, reach: dict[int, int] | None = None) -> bool:
    """Whether the givens (as bitboards) allow a solution with something other than `digit` in `cell`.

    This is the clearer's uniqueness test: a clue may go exactly when, without it, no solution
    puts another digit in its cell. `reach` is state_from_boards' memory, kept by the caller.
    """
    state = state_from_boards(placed, reach)
    if state is None:
        return False
    state[digit - 1] &= ~CELL_BIT[cell]
    found: list[State] = []
    _search(state, 1, found, _propagate_quick)
    return bool(found)
