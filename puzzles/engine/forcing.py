"""Forcing chains: assume a digit, follow the singles it forces, and see where they lead.

Each assumption is followed by singles until none is left or the position breaks
(propagation.py), and every placement remembers what it rests on, so a conclusion can be traced
back to the assumption and told as a chain.

- nishio: an assumption that breaks the position is false.
- cell forcing chain: every candidate of a cell leads to the same placement or elimination, which
  must hold.
- unit forcing chain: every place of a digit in a house leads to the same placement or
  elimination.

They are rated as Sukaku Explainer rates the chains it finds (Chaining.java, ChainingHint.java):
a base by the kind of chain, and 0.1 more each time the candidates it sets and strikes, less two,
pass 4, 6, 8, 12, 16, 24 ... Nishio on the assumed digit alone is 7.5; an assumption followed
only through the links of the pencil marks as they stand (a cell of two candidates, a digit with
two places in a house) is a forcing chain when it has two cases or ends in a contradiction (7.0)
and a cell or region forcing chain with three cases or more (8.0); one that needs a single an
earlier link made is a dynamic chain (8.5). Every figure is at least 7.5, above the expert tier.
Each finder gives its lowest-rated chain, the shortest of those.

The three finders share their work: every assumption's consequences are worked out at most once
per position and kept in a small cache keyed on the position, since the rater calls them one
after the other on the same stuck position.
"""

from __future__ import annotations

from .grid import CELLS, DIGITS_OF, POPCOUNT, UNIT_BITS, Cell, Digit, Grid, cell_name, unit_name
from .propagation import HIDDEN, Branch, Broken, Position
from .steps import (
    HOUSE_ORDER,
    Candidates,
    Step,
    bits,
    cell_houses,
    cells_text,
    chain_difficulty,
    pencil,
    removals_text,
)

NISHIO_BASE = 7.5  # a contradiction on the assumed digit alone
STATIC_BASE = 8.0  # three cases, each chain read off the pencil marks as they stand
DYNAMIC_BASE = 8.5  # a chain through singles that earlier links made
LINKED_BASE = 7.0  # two cases or a contradiction, read off the pencil marks: a forcing chain
FLOOR = 7.5  # an extreme step is rated above the expert tier's ceiling


def _figure(base: float, potentials: int) -> float:
    """Sukaku Explainer's figure for a chain of `potentials` candidates set and struck."""
    return max(FLOOR, chain_difficulty(base, potentials - 2))


# A long chain is told by its first few links and its last, with the count of those left out.
SHOWN_LINKS = 3

# The last position seen, with its followed assumptions: the rater asks nishio, then the cell and
# then the unit forcing chain about the same position, and each would otherwise follow the same
# assumptions again. One entry is enough, since a step changes the position. It is one tuple,
# read and replaced whole, so threads sharing it never pair one position with another's work.
_last: tuple[tuple[int, ...], Position] | None = None


def _position(digits: Grid, cands: Candidates) -> Position:
    """The shared work for a position, from the cache when it is the last one seen."""
    global _last
    key = (*digits, *cands)
    last = _last
    if last is not None and last[0] == key:
        return last[1]
    position = Position(digits, cands)
    _last = (key, position)
    return position


# --- finders ----------------------------------------------------------------------------------


def nishio(digits: Grid, cands: Candidates) -> Step | None:
    """The lowest-rated chain of singles from a candidate to a contradiction: the candidate goes."""
    position = _position(digits, cands)
    best: tuple[float, int, Cell, Digit, Branch] | None = None
    for cell in CELLS:
        for digit in DIGITS_OF[cands[cell]]:
            for branch, base in (
                (position.static_branch(cell, digit), LINKED_BASE),
                (position.digit_branch(cell, digit), NISHIO_BASE),
                (position.branch(cell, digit), DYNAMIC_BASE),
            ):
                end = len(branch.placed)
                # A static contradiction is a forcing chain's only when two links meet there.
                if branch.broken is None or (base == LINKED_BASE and len(branch.needed(end)) != 2):
                    continue
                figure = _figure(base, branch.contradiction_potentials())
                length = branch.length(end)
                if best is None or (figure, length) < best[:2]:
                    best = (figure, length, cell, digit, branch)
    if best is None:
        return None
    figure, length, cell, digit, branch = best
    end = len(branch.placed)
    assert branch.broken is not None
    chain = _chain_text(branch, end, _broken_text(branch.broken))
    elims = ((cell, digit),)
    return Step(
        "nishio",
        cell_houses(cell),
        (cell,) + _chain_cells(branch, end),
        (digit,),
        eliminations=elims,
        explanation=(
            f"If {cell_name(cell)} is {digit}, {chain}. So {cell_name(cell)} can't be {digit}: {removals_text(elims)}."
        ),
        difficulty=figure,
    )


def cell_forcing_chain(digits: Grid, cands: Candidates) -> Step | None:
    """A cell with two or three candidates, each leading by singles to the same placement or
    elimination elsewhere: the shortest such conclusion holds."""
    position = _position(digits, cands)
    best = None
    for cell in CELLS:
        if POPCOUNT[cands[cell]] >= 2:
            found = _common(position, [(cell, d) for d in DIGITS_OF[cands[cell]]])
            if found and (best is None or found[:2] < best[:2]):
                best = found + (cell,)
    if best is None:
        return None
    figure, _, target, placement, branches, cell = best
    opening = f"{cell_name(cell)} is {pencil(cands[cell])}."
    cases = [f"If it is {d}, {_conclusion_text(b, target, placement)}." for (_, d), b in branches]
    return _forcing_step(
        "cell-forcing-chain",
        cell_houses(cell),
        (cell,),
        DIGITS_OF[cands[cell]],
        target,
        placement,
        " ".join([opening, *cases]),
        figure,
    )


def unit_forcing_chain(digits: Grid, cands: Candidates) -> Step | None:
    """A digit with two or three places in a house, each leading by singles to the same placement
    or elimination: the shortest such conclusion holds."""
    position = _position(digits, cands)
    best = None
    for unit in HOUSE_ORDER:
        for digit in range(1, 10):
            places = position.boards[digit] & UNIT_BITS[unit]
            if places.bit_count() >= 2:
                found = _common(position, [(c, digit) for c in bits(places)])
                if found and (best is None or found[:2] < best[:2]):
                    best = found + (unit,)
    if best is None:
        return None
    figure, _, target, placement, branches, unit = best
    digit = branches[0][0][1]
    cells = tuple(c for (c, _), _ in branches)
    opening = f"In {unit_name(unit)}, {digit} can only go in {cells_text(cells, 'or')}."
    cases = [f"If {cell_name(c)} is {digit}, {_conclusion_text(b, target, placement)}." for (c, _), b in branches]
    return _forcing_step(
        "unit-forcing-chain",
        (unit,) + tuple(u for u in cell_houses(target[0]) if u != unit),
        cells,
        (digit,),
        target,
        placement,
        " ".join([opening, *cases]),
        figure,
    )


Found = tuple[float, int, tuple[Cell, Digit], bool, list[tuple[tuple[Cell, Digit], Branch]]]


def _common(position: Position, assumptions: list[tuple[Cell, Digit]]) -> Found | None:
    """The lowest-rated conclusion all the assumptions lead to (one of them must hold), the
    shortest of those: (figure, length, (cell, digit), True for a placement or False for an
    elimination, the branches); None when there is none. Placements win ties. Each assumption is
    followed through the links of the pencil marks as they stand and through every single; one
    that breaks the position is false, and what it led to before it broke counts like the rest."""
    best = _conclusion([(a, position.branch(*a)) for a in assumptions], DYNAMIC_BASE)
    static = [(a, position.static_branch(*a)) for a in assumptions]
    found = _conclusion(static, LINKED_BASE if len(static) == 2 else STATIC_BASE)
    if found is not None and (best is None or found[:2] <= best[:2]):
        best = found
    return best


def _conclusion(branches: list[tuple[tuple[Cell, Digit], Branch]], base: float) -> Found | None:
    """The lowest-rated conclusion common to the branches, rated from `base`; see _common."""
    first = branches[0][1]
    rest = [b for _, b in branches[1:]]
    best: Found | None = None
    cells = first.where.keys() & set.intersection(*(set(b.where) for b in rest))
    for cell, digit, _, _ in first.placed[1:]:
        if cell not in cells:
            continue
        indexes = [b.where[cell] for _, b in branches]
        if any(b.placed[i][1] != digit for (_, b), i in zip(branches, indexes)):
            continue
        ends = [(b, i) for (_, b), i in zip(branches, indexes)]
        figure = _figure(base, sum(b.potentials(i) for b, i in ends))
        length = sum(b.length(i) for b, i in ends)
        if best is None or (figure, length) < best[:2]:
            best = (figure, length, (cell, digit), True, branches)
    struck = first.struck.keys() & set.intersection(*(set(b.struck) for b in rest))
    for pair in first.struck:
        if pair not in struck:
            continue
        ends = [(b, b.struck[pair]) for _, b in branches]
        figure = _figure(base, sum(b.struck_potentials(pair) for b, _ in ends))
        length = sum(b.length(i, elimination=True) for b, i in ends)
        if best is None or (figure, length) < best[:2]:
            best = (figure, length, pair, False, branches)
    return best


def _forcing_step(
    technique: str,
    houses: tuple[int, ...],
    cells: tuple[Cell, ...],
    digits: tuple[Digit, ...],
    target: tuple[Cell, Digit],
    placement: bool,
    cases: str,
    difficulty: float,
) -> Step:
    """A forcing chain's step: the cases, then what holds either way."""
    cell, digit = target
    if cell not in cells:
        cells += (cell,)
    if placement:
        return Step(
            technique,
            houses,
            cells,
            digits,
            placements=(target,),
            explanation=f"{cases} Either way {cell_name(cell)} is {digit}, so it goes there.",
            difficulty=difficulty,
        )
    elims = (target,)
    return Step(
        technique,
        houses,
        cells,
        digits,
        eliminations=elims,
        explanation=f"{cases} Either way {cell_name(cell)} can't be {digit}: {removals_text(elims)}.",
        difficulty=difficulty,
    )


# --- wording ----------------------------------------------------------------------------------


def _link_text(link: tuple[Cell, Digit, str, int]) -> str:
    """'r1c5 is 7 (the only place for 7 in row 1)'."""
    cell, digit, kind, unit = link
    if kind == HIDDEN:
        return f"{cell_name(cell)} is {digit} (the only place for {digit} in {unit_name(unit)})"
    return f"{cell_name(cell)} is {digit} (its only candidate left)"


def _broken_text(broken: Broken) -> str:
    """'r4c4 has no candidate left' or 'row 2 has no place left for 5'."""
    kind, where, digit = broken
    if kind == "cell":
        return f"{cell_name(where)} has no candidate left"
    return f"{unit_name(where)} has no place left for {digit}"


def _chain_indexes(branch: Branch, index: int) -> list[int]:
    """The placements after the assumption that `index` rests on, in the order they were made."""
    return [i for i in bits(branch.reach(index) & ~1) if i < len(branch.placed)]


def _chain_cells(branch: Branch, index: int) -> tuple[Cell, ...]:
    """The cells placed along the chain to `index`."""
    return tuple(branch.placed[i][0] for i in _chain_indexes(branch, index))


def _chain_text(branch: Branch, index: int, ending: str = "", joint: str = "then") -> str:
    """'then r1c5 is 7 (...), then ..., then <ending>': the links to `index`, a long chain cut to
    its first links and its last, with how many were left out; `joint` leads into the ending."""
    links = [_link_text(branch.placed[i]) for i in _chain_indexes(branch, index)]
    if len(links) > SHOWN_LINKS + 3:  # leave out three links or more, never just one or two
        left_out = len(links) - SHOWN_LINKS - 1
        links = links[:SHOWN_LINKS] + [f"{left_out} more steps like these", links[-1]]
    text = "then " + ", then ".join(links) if links else ""
    if ending:
        text = f"{text}, {joint} {ending}" if links else f"then {ending}"
    return text


def _conclusion_text(branch: Branch, target: tuple[Cell, Digit], placement: bool) -> str:
    """One case of a forcing chain: the chain to the placement, or to the placement that rules
    the candidate out, and then the candidate ruled out."""
    if placement:
        return _chain_text(branch, branch.where[target[0]])
    cell, digit = target
    return _chain_text(branch, branch.struck[target], f"{cell_name(cell)} can't be {digit}", "so")
