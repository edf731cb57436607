"""The forcing chain of strong and weak links: from one candidate back to itself.

A weak link joins two candidates that can't both be true (two digits of one cell, or one digit
in two cells of a house); a strong link joins two that can't both be false (the two digits of a
cell that has only those, or the only two places of a digit in a house). A chain alternates
them: if A is true, B is false, so C is true, so D is false... When assuming a candidate true
leads along such a chain to the same candidate false, it is false; when assuming it false leads
to it true, it is true. Every link is read off the pencil marks as they stand, never off a
single the assumption would make (that is nishio, in forcing.py), so a player can trace the
chain on the board.

A chain on one digit only (its links all houses) is rated 6.6, one that also crosses between
the digits of a cell 7.0, each plus 0.1 as its length passes 4, 6, 8, 12, 16, 24 ...
(steps.chain_difficulty), its length being the candidates along it less two: the Sudoku
Explainer's 'Forcing X-Chain' and 'Forcing Chain'. The finder gives the chain rated lowest,
the shortest of those, and none rated past the expert tier's ceiling: a puzzle that needs a
longer one is left to nishio and the extreme tier.
"""

from __future__ import annotations

from .catalogue import EXPERT_CEILING
from .grid import (
    BIT,
    CELL_BIT,
    CELLS,
    DIGITS_OF,
    PEERS,
    POPCOUNT,
    UNIT_BITS,
    UNITS,
    UNITS_OF,
    Cell,
    Digit,
    Grid,
    cell_name,
    unit_name,
)
from .steps import Candidates, Step, cell_houses, chain_difficulty, digit_boards, removals_text

X_CHAIN_BASE = 6.6  # every link on one digit
CHAIN_BASE = 7.0  # links between a cell's digits too

# A candidate is a key, cell * 9 + digit - 1; a link list maps a key to the keys it reaches.
Key = int
Links = dict[Key, list[Key]]
# A chain as (key, whether that candidate is true along it), the assumption first.
Chain = list[tuple[Key, bool]]

# A long chain is told by its first links and its last, with the count of those left out.
SHOWN_LINKS = 4


def _pair(key: Key) -> tuple[Cell, Digit]:
    """The (cell, digit) of a key."""
    return key // 9, key % 9 + 1


def _most(base: float, below: float) -> int:
    """The most candidates a chain rated from `base` may hold and be rated below `below`."""
    size = 2
    while chain_difficulty(base, size + 1 - 2) < below:
        size += 1
    return size


# --- finder -----------------------------------------------------------------------------------


def forcing_chain(digits: Grid, cands: Candidates) -> Step | None:
    """The lowest-rated chain of strong and weak links from a candidate to its own opposite, no
    higher than the expert tier's ceiling: a candidate whose truth leads to its falsehood goes,
    one whose falsehood leads to its truth is placed. One-digit chains are searched first, then
    chains across digits when one of those could be rated lower."""
    weak_x, strong_x, weak_y, strong_y = _links(cands)
    figure = round(EXPERT_CEILING + 0.1, 1)  # anything found must be rated lower than this
    best = _shortest(weak_x, strong_x, _most(X_CHAIN_BASE, figure))
    if best is not None:
        figure = chain_difficulty(X_CHAIN_BASE, len(best) - 2)
    if figure > CHAIN_BASE:
        weak = {k: weak_x[k] + weak_y[k] for k in weak_x}
        strong = {k: strong_x[k] + strong_y[k] for k in strong_x}
        mixed = _shortest(weak, strong, _most(CHAIN_BASE, figure))
        if mixed is not None:
            best, figure = mixed, chain_difficulty(CHAIN_BASE, len(mixed) - 2)
    if best is None:
        return None
    return _step(best, cands, figure)


def _links(cands: Candidates) -> tuple[Links, Links, Links, Links]:
    """The position's links: weak and strong on one digit (in houses), then weak and strong
    between the digits of a cell."""
    weak_x: Links = {}
    strong_x: Links = {}
    weak_y: Links = {}
    strong_y: Links = {}
    for cell in CELLS:
        mask = cands[cell]
        for digit in DIGITS_OF[mask]:
            bit = BIT[digit]
            key = cell * 9 + digit - 1
            weak_x[key] = [p * 9 + digit - 1 for p in PEERS[cell] if cands[p] & bit]
            strong_x[key] = []
            others = [cell * 9 + d - 1 for d in DIGITS_OF[mask] if d != digit]
            weak_y[key] = others
            strong_y[key] = others if POPCOUNT[mask] == 2 else []
    for digit in range(1, 10):
        bit = BIT[digit]
        for unit in UNITS:
            places = [c for c in unit if cands[c] & bit]
            if len(places) == 2:
                a, b = (c * 9 + digit - 1 for c in places)
                # A pair that shares a line and a box is linked once.
                if b not in strong_x[a]:
                    strong_x[a].append(b)
                    strong_x[b].append(a)
    return weak_x, strong_x, weak_y, strong_y


def _shortest(weak: Links, strong: Links, limit: int) -> Chain | None:
    """The shortest chain, of at most `limit` candidates, from assuming a candidate true to it
    false or from assuming it false to it true; the first found of the shortest, None if none."""
    best: Chain | None = None
    for key in weak:
        for assumed in (True, False):
            found = _chain_from(key, assumed, weak, strong, len(best) - 1 if best else limit)
            if found is not None:
                best = found
    return best


def _chain_from(start: Key, assumed: bool, weak: Links, strong: Links, limit: int) -> Chain | None:
    """A shortest chain (of at most `limit` candidates) from `start` assumed true (or false) to its
    opposite, or None.

    Breadth first from the assumption: a true candidate makes its weak links false, a false one
    its strong links true. Every link read backwards holds too (if A true makes B false, B true
    makes A false), so a candidate reached both true and false closes a chain: the way to one,
    then the way to the other read backwards, which ends at the assumption's opposite. The
    shortest chain's middle candidate is reached both ways within half its length, so the walk
    stops there.
    """
    # [False], [True]: each candidate reached, to the one before it and how far along it is,
    # packed as one int (previous * 64 + depth; the assumption's previous is -1).
    reached: tuple[dict[Key, int], dict[Key, int]] = ({}, {})
    reached[assumed][start] = -64
    best: tuple[int, Key, bool] | None = None  # links, the candidate reached both ways, its later truth
    layer, truth, depth = [start], assumed, 0
    while layer and 2 * depth < (best[0] if best else limit - 1):
        depth += 1
        links = weak if truth else strong
        truth = not truth
        seen, opposite = reached[truth], reached[not truth]
        nxt = []
        for key in layer:
            packed = key * 64 + depth
            for other in links[key]:
                if other in seen:
                    continue
                seen[other] = packed
                nxt.append(other)
                if other in opposite:
                    total = depth + (opposite[other] & 63)
                    if total < limit and (best is None or total < best[0]):
                        best = (total, other, truth)
        layer = nxt
    if best is None:
        return None
    _, middle, later = best
    there = _path(reached, middle, later)
    back = _path(reached, middle, not later)
    return there + [(key, not truth) for key, truth in reversed(back[:-1])]


def _path(reached: tuple[dict[Key, int], dict[Key, int]], key: Key, truth: bool) -> Chain:
    """The way from the assumption to `key` found `truth`, first to last."""
    path: Chain = []
    while key != -1:
        path.append((key, truth))
        key, truth = reached[truth][key] >> 6, not truth
    return path[::-1]


# --- the step and its words -------------------------------------------------------------------


def _step(chain: Chain, cands: Candidates, difficulty: float) -> Step:
    """The step a chain gives: the assumption's candidate removed, or placed."""
    start, assumed = chain[0]
    cell, digit = _pair(start)
    cells = tuple(dict.fromkeys(_pair(k)[0] for k, _ in chain))
    chain_digits = tuple(sorted({_pair(k)[1] for k, _ in chain}))
    links = _chain_text(chain, digit_boards(cands))
    if assumed:
        elims = ((cell, digit),)
        return Step(
            "forcing-chain",
            cell_houses(cell),
            cells,
            chain_digits,
            eliminations=elims,
            explanation=(
                f"If {cell_name(cell)} is {digit}, {links}. So {cell_name(cell)} can't be {digit}: "
                f"{removals_text(elims)}."
            ),
            difficulty=difficulty,
        )
    return Step(
        "forcing-chain",
        cell_houses(cell),
        cells,
        chain_digits,
        placements=((cell, digit),),
        explanation=(
            f"If {cell_name(cell)} isn't {digit}, {links}. So {cell_name(cell)} is {digit}, and it goes there."
        ),
        difficulty=difficulty,
    )


def _chain_text(chain: Chain, boards: list[int]) -> str:
    """'then r2c4 isn't 5, so r2c7 is 5 (...), so ...': each link after the assumption, a long
    chain cut to its first links and its last, with how many were left out between."""
    words = [_link_text(chain[i - 1][0], chain[i], boards) for i in range(1, len(chain))]
    if len(words) > SHOWN_LINKS + 3:  # leave out three links or more, never just one or two
        left_out = len(words) - SHOWN_LINKS - 1
        shown = ", so ".join(words[:SHOWN_LINKS])
        return f"then {shown}, and after {left_out} more links like these, {words[-1]}"
    return "then " + ", so ".join(words)


def _link_text(before: Key, after: tuple[Key, bool], boards: list[int]) -> str:
    """One link: 'r2c4 isn't 5', 'r2c7 is 5 (the other place for 5 in row 2)', 'r3c3 is 8
    (its other candidate)'."""
    cell_a, _ = _pair(before)
    cell, digit = _pair(after[0])
    if not after[1]:
        return f"{cell_name(cell)} isn't {digit}"
    if cell_a == cell:
        return f"{cell_name(cell)} is {digit} (its other candidate)"
    pair = CELL_BIT[cell_a] | CELL_BIT[cell]
    unit = next(u for u in UNITS_OF[cell] if boards[digit] & UNIT_BITS[u] == pair)
    return f"{cell_name(cell)} is {digit} (the other place for {digit} in {unit_name(unit)})"
