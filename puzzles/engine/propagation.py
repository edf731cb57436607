"""Following an assumption by singles: what placing one digit forces, and on which earlier
placements each forced placement rests, so a forcing chain can be told step by step.

The assumption (digit d in cell c) is followed on a copy of the position by placing naked and
hidden singles, breadth first, until none is left or the position breaks: a cell with no
candidate, or a house with no place for a digit (two equal digits in a house show up as one of
these, since placing the first strikes the digit from the second). Every placement remembers
which single it was and which earlier placements struck the candidates it needed gone.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from .grid import (
    BIT,
    CELL_BIT,
    DIGIT_OF_BIT,
    DIGITS_OF,
    PEER_BITS,
    POPCOUNT,
    UNIT_BITS,
    UNITS,
    UNITS_OF,
    Cell,
    Digit,
    Grid,
)
from .steps import Candidates, bits, digit_boards

NAKED, HIDDEN = "naked", "hidden"

# How a position broke: ('cell', cell, 0) for a cell left with no candidate, ('house', unit,
# digit) for a house with no place for a digit.
Broken = tuple[str, int, int]


@dataclass(slots=True)
class Branch:
    """What one assumption forces by singles.

    `placed` lists the placements in order, the assumption first, each as (cell, digit, kind,
    house); `where` maps a placed cell to its index there; `struck` maps (cell, digit) to the
    index of the placement that ruled it out. `broken` is the contradiction, if any (see
    Broken). `start` is the position's candidates, which say what each single needed struck.
    """

    start: Candidates
    placed: list[tuple[Cell, Digit, str, int]]
    where: dict[Cell, int]
    struck: dict[tuple[Cell, Digit], int]
    broken: Broken | None
    _reach: list[int] = field(default_factory=list)
    _gone: list[int] = field(default_factory=list)

    def needed(self, index: int) -> list[tuple[Cell, Digit]]:
        """The candidates placement `index` (or, at len(placed), the contradiction) needed gone."""
        if index == len(self.placed):
            assert self.broken is not None, "only a broken branch has a contradiction to trace"
            kind, where, digit = self.broken
            if kind == "cell":
                return [(where, d) for d in DIGITS_OF[self.start[where]]]
            return [(r, digit) for r in UNITS[where] if self.start[r] & BIT[digit]]
        cell, digit, kind, unit = self.placed[index]
        if kind == NAKED:
            return [(cell, d) for d in DIGITS_OF[self.start[cell] & ~BIT[digit]]]
        if kind == HIDDEN:
            return [(r, digit) for r in UNITS[unit] if r != cell and self.start[r] & BIT[digit]]
        return []

    def needs(self, index: int) -> list[int]:
        """The placements that struck what placement `index` (or, at len(placed), the
        contradiction) needed gone."""
        return [self.struck[pair] for pair in self.needed(index)]

    def reach(self, index: int) -> int:
        """The placements (a bit set of indexes) that placement `index`, or the contradiction at
        len(placed), rests on, back to the assumption; `index` itself included."""
        if len(self._reach) <= index:
            self._grow(index)
        return self._reach[index]

    def length(self, index: int, elimination: bool = False) -> int:
        """Implications from the assumption to placement `index` (or the contradiction at
        len(placed)), and one more for an elimination that placement makes."""
        return self.reach(index).bit_count() - 1 + elimination

    def gone(self, index: int) -> int:
        """The struck candidates (bits cell * 9 + digit - 1) that placement `index` rests on, back
        to the assumption."""
        if len(self._gone) <= index:
            self._grow(index)
        return self._gone[index]

    def _grow(self, index: int) -> None:
        """reach() and gone() up to `index`, each built on a copy and swapped in whole, so two
        threads reading one branch can't mix."""
        reach, gone = list(self._reach), list(self._gone)
        struck = self.struck
        for i in range(len(reach), index + 1):
            on, off = 1 << i, 0
            for pair in self.needed(i):
                j = struck[pair]
                on |= reach[j]
                off |= gone[j] | 1 << (pair[0] * 9 + pair[1] - 1)
            reach.append(on)
            gone.append(off)
        self._reach, self._gone = reach, gone

    def potentials(self, index: int) -> int:
        """Sukaku Explainer's count of what placement `index` rests on: the candidates its chain
        sets and strikes (its 'potentials' on and off) back to the assumption, itself included."""
        return self.reach(index).bit_count() + self.gone(index).bit_count()

    def struck_potentials(self, pair: tuple[Cell, Digit]) -> int:
        """The same count for a struck candidate: the placement that struck it, and itself."""
        return 1 + self.potentials(self.struck[pair])

    def contradiction_potentials(self) -> int:
        """The same count for the contradiction, as Sukaku Explainer counts one: the candidate
        struck last is both set (the others gone, by a single) and struck, and each side counts
        all it rests on."""
        pairs = self.needed(len(self.placed))
        last = max(pairs, key=self.struck.__getitem__)
        on = gone = 0
        for pair in pairs:
            if pair != last:
                on |= self.reach(self.struck[pair])
                gone |= _key_bit(pair) | self.gone(self.struck[pair])
        return 1 + on.bit_count() + gone.bit_count() + self.struck_potentials(last)


def _key_bit(pair: tuple[Cell, Digit]) -> int:
    """A candidate's bit in a set of candidates."""
    cell, digit = pair
    return 1 << (cell * 9 + digit - 1)


# --- propagation ------------------------------------------------------------------------------


def follow(
    cands: Candidates, boards: list[int], done: list[int], cell: Cell, digit: Digit, static: bool = False
) -> Branch:
    """Place `digit` in `cell` on a copy of the position and then every single that follows,
    stopping at the first contradiction. A static following takes only the singles of a cell
    that had two candidates or a digit that had two places in a house before the assumption:
    the links a player reads off the pencil marks as they stand."""
    start, start_boards = cands, boards
    cands = list(cands)
    boards = list(boards)
    done = list(done)
    placed: list[tuple[Cell, Digit, str, int]] = []
    where: dict[Cell, int] = {}
    struck: dict[tuple[Cell, Digit], int] = {}
    queue: deque[tuple[Cell, Digit, str, int]] = deque([(cell, digit, "assumed", -1)])
    while queue:
        cell, digit, kind, house = queue.popleft()
        bit = BIT[digit]
        mask = cands[cell]
        if not mask & bit:
            # Queued twice (as a naked and a hidden single) and placed already. It can't have been
            # struck since it was queued: that strike would have emptied its cell or its house.
            continue
        index = len(placed)
        placed.append((cell, digit, kind, house))
        where[cell] = index
        cands[cell] = 0
        here = CELL_BIT[cell]
        for u in UNITS_OF[cell]:
            done[u] |= bit
        boards[digit] &= ~here
        for other in DIGITS_OF[mask & ~bit]:
            struck[cell, other] = index
            boards[other] &= ~here
            for u in UNITS_OF[cell]:
                left = boards[other] & UNIT_BITS[u]
                if not left:
                    return Branch(start, placed, where, struck, ("house", u, other))
                if not left & (left - 1) and (not static or (start_boards[other] & UNIT_BITS[u]).bit_count() == 2):
                    queue.append((left.bit_length() - 1, other, HIDDEN, u))
        hits = boards[digit] & PEER_BITS[cell]
        if not hits:
            continue
        boards[digit] &= ~hits
        houses: set[int] = set()
        for p in bits(hits):
            struck[p, digit] = index
            left = cands[p] & ~bit
            cands[p] = left
            if not left:
                return Branch(start, placed, where, struck, ("cell", p, 0))
            if not left & (left - 1) and (not static or POPCOUNT[start[p]] == 2):
                queue.append((p, DIGIT_OF_BIT[left], NAKED, -1))
            houses.update(UNITS_OF[p])
        for u in sorted(houses):
            if done[u] & bit:
                continue
            left = boards[digit] & UNIT_BITS[u]
            if not left:
                return Branch(start, placed, where, struck, ("house", u, digit))
            if not left & (left - 1) and (not static or (start_boards[digit] & UNIT_BITS[u]).bit_count() == 2):
                queue.append((left.bit_length() - 1, digit, HIDDEN, u))
    return Branch(start, placed, where, struck, None)


def follow_digit(cands: Candidates, boards: list[int], done: list[int], cell: Cell, digit: Digit) -> Branch:
    """Place `digit` in `cell` and follow that digit alone: its places struck by each placement,
    and each house left one place for it filled, until none is left or a house has no place."""
    bit = BIT[digit]
    places = boards[digit]
    filled = sum(1 << u for u in range(27) if done[u] & bit)
    placed: list[tuple[Cell, Digit, str, int]] = []
    where: dict[Cell, int] = {}
    struck: dict[tuple[Cell, Digit], int] = {}
    queue: deque[tuple[Cell, str, int]] = deque([(cell, "assumed", -1)])
    while queue:
        cell, kind, house = queue.popleft()
        if cell in where:
            continue
        index = len(placed)
        placed.append((cell, digit, kind, house))
        where[cell] = index
        places &= ~CELL_BIT[cell]
        for u in UNITS_OF[cell]:
            filled |= 1 << u
        hits = places & PEER_BITS[cell]
        places &= ~hits
        houses: set[int] = set()
        for p in bits(hits):
            struck[p, digit] = index
            houses.update(UNITS_OF[p])
        for u in sorted(houses):
            if filled >> u & 1:
                continue
            left = places & UNIT_BITS[u]
            if not left:
                return Branch(cands, placed, where, struck, ("house", u, digit))
            if not left & (left - 1):
                queue.append((left.bit_length() - 1, HIDDEN, u))
    return Branch(cands, placed, where, struck, None)


# --- the shared work --------------------------------------------------------------------------


class Position:
    """One position's assumptions, each followed once, on demand."""

    def __init__(self, digits: Grid, cands: Candidates) -> None:
        self.cands = list(cands)
        self.boards = digit_boards(cands)
        self.done = [0] * 27
        for unit, cells in enumerate(UNITS):
            for c in cells:
                self.done[unit] |= BIT[digits[c]]
        self.branches: dict[tuple[Cell, Digit], Branch] = {}
        self.digit_branches: dict[tuple[Cell, Digit], Branch] = {}
        self.static_branches: dict[tuple[Cell, Digit], Branch] = {}

    def branch(self, cell: Cell, digit: Digit) -> Branch:
        """What placing `digit` in `cell` forces."""
        found = self.branches.get((cell, digit))
        if found is None:
            found = follow(self.cands, self.boards, self.done, cell, digit)
            self.branches[cell, digit] = found
        return found

    def digit_branch(self, cell: Cell, digit: Digit) -> Branch:
        """What placing `digit` in `cell` forces on that digit alone."""
        found = self.digit_branches.get((cell, digit))
        if found is None:
            found = follow_digit(self.cands, self.boards, self.done, cell, digit)
            self.digit_branches[cell, digit] = found
        return found

    def static_branch(self, cell: Cell, digit: Digit) -> Branch:
        """What placing `digit` in `cell` forces through the links of the pencil marks as they stand."""
        found = self.static_branches.get((cell, digit))
        if found is None:
            found = follow(self.cands, self.boards, self.done, cell, digit, static=True)
            self.static_branches[cell, digit] = found
        return found
