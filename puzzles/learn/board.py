"""A worked example drawn as a board: each cell's digit or candidates, the pattern's cells and
candidates marked, what the step removes struck through and what it places marked, and the same
in words for a reader who does not see the board."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import UNITS, Step, cell_name, unit_name
from .examples import Example

# Techniques whose pattern is whole cells (every candidate of the pattern's cells matters, as in
# the two-digit cells of a wing), and those whose step names a chain of which only the first cell
# carries the assumption; the others mark the step's digits in the pattern's cells.
WHOLE_CELLS = frozenset(
    {
        "xy-wing",
        "xyz-wing",
        "w-wing",
        "xy-chain",
        "als-xz",
        "bug-plus-one",
        "bug-plus-n",
        "unique-rectangle-1",
        "unique-rectangle-2",
        "unique-rectangle-3",
        "unique-rectangle-4",
        "unique-loop",
        "cell-forcing-chain",
    }
)
FIRST_CELL_ONLY = frozenset({"nishio"})
# The part each cell of a pattern plays, in the order the engine gives its cells, where the words
# name the parts.
ROLES: dict[str, tuple[str, ...]] = {
    "xy-wing": ("pivot", "wing", "wing"),
    "xyz-wing": ("pivot", "wing", "wing"),
    "w-wing": ("pair cell", "pair cell", "link end", "link end"),
}
# The fish, by how many lines they are built on: their step names those lines first.
FISH = {"x-wing": 2, "swordfish": 3, "jellyfish": 4}
# Techniques about one house, shaded on the board (a naked single is about all three of its cell's).
ONE_HOUSE = frozenset(
    {
        "hidden-single",
        "direct-pointing",
        "direct-hidden-pair",
        "direct-hidden-triple",
        "pointing",
        "claiming",
        "naked-pair",
        "hidden-pair",
        "naked-triple",
        "hidden-triple",
        "naked-quad",
        "hidden-quad",
    }
)


@dataclass(frozen=True)
class Candidate:
    digit: int  # 0 for a slot of the cell's 3x3 that holds no candidate
    mark: str = ""  # '', 'pattern', 'other' (a colouring's second colour), 'removed' or 'placed'


@dataclass(frozen=True)
class Square:
    name: str  # 'r1c2'
    digit: int  # 0 for an empty cell
    given: bool
    candidates: tuple[Candidate, ...]  # nine slots, for an empty cell
    in_pattern: bool
    in_house: bool
    edge: str  # the classes that draw a box's edge


@dataclass(frozen=True)
class Drawing:
    rows: list[tuple[int, list[Square]]]
    pattern: list[str]  # 'r6c4 (2 or 8)', the pattern's cells in words
    removes: list[str]  # '8 from r6c2'
    places: list[str]  # '5 in r4c4'
    look_in: str  # 'box 5', or '' when the step is about no one house


def digits_of(mask: int) -> list[int]:
    return [d for d in range(1, 10) if mask >> (d - 1) & 1]


def marked(step: Step, cands: tuple[int, ...]) -> set[tuple[int, int]]:
    """The (cell, digit) candidates that make up the step's pattern."""
    if step.technique in WHOLE_CELLS:
        return {(c, d) for c in step.cells for d in digits_of(cands[c])}
    cells = step.cells[:1] if step.technique in FIRST_CELL_ONLY else step.cells
    return {(c, d) for c in cells for d in step.digits if cands[c] >> (d - 1) & 1}


def colours(step: Step, cands: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """A colouring's cells in its two colours: the pattern's cells two-coloured along the digit's
    strong links (houses with exactly two places for it), from the first cell."""
    (digit,) = step.digits
    bit = 1 << (digit - 1)
    cells = set(step.cells)
    links: dict[int, set[int]] = {c: set() for c in cells}
    for house in UNITS:
        places = [c for c in house if cands[c] & bit]
        if len(places) == 2 and set(places) <= cells:
            a, b = places
            links[a].add(b)
            links[b].add(a)
    colour = {step.cells[0]: 0}
    waiting = [step.cells[0]]
    while waiting:
        cell = waiting.pop()
        for other in links[cell] - colour.keys():
            colour[other] = 1 - colour[cell]
            waiting.append(other)
    return [c for c in step.cells if colour.get(c) == 0], [c for c in step.cells if colour.get(c) == 1]


def shaded(step: Step) -> set[int]:
    """The cells of the house (or houses) the step is about, shaded on the board."""
    if step.technique == "naked-single":
        return {c for h in step.houses for c in UNITS[h]}
    if step.technique in FISH:
        return {c for h in step.houses[: FISH[step.technique]] for c in UNITS[h]}
    if step.technique in ONE_HOUSE and step.houses:
        return set(UNITS[step.houses[0]])
    return set()


def look_in(step: Step) -> str:
    """The houses shaded, in words: 'box 5', 'rows 2, 3, 5 and 8', 'box 2, row 1 and column 6'."""
    if step.technique == "naked-single":
        names = [unit_name(h) for h in step.houses]
        return ", ".join(names[:-1]) + " and " + names[-1]
    if step.technique in FISH:
        lines = [unit_name(h) for h in step.houses[: FISH[step.technique]]]
        kind = lines[0].split()[0]
        return f"{kind}s " + and_words([int(line.split()[1]) for line in lines])
    return unit_name(step.houses[0])


def by_cell(pairs: tuple[tuple[int, int], ...]) -> dict[int, list[int]]:
    grouped: dict[int, list[int]] = {}
    for cell, digit in pairs:
        grouped.setdefault(cell, []).append(digit)
    return grouped


def or_words(digits: list[int]) -> str:
    """'7', '2 or 8', '2, 7 or 8'."""
    words = [str(d) for d in digits]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def and_words(digits: list[int]) -> str:
    words = [str(d) for d in digits]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def drawing_of(example: Example) -> Drawing:
    """The board of a worked example, and its marks in words."""
    step, digits, cands = example.step, example.digits, example.cands
    pattern = marked(step, cands)
    removed, placed = set(step.eliminations), set(step.placements)
    house = shaded(step)
    other: set[int] = set()
    if step.technique == "simple-colouring":
        first, second = colours(step, cands)
        other = set(second)
    rows = []
    for r in range(9):
        squares = []
        for c in range(9):
            cell = r * 9 + c
            slots = []
            for d in range(1, 10):
                if not cands[cell] >> (d - 1) & 1:
                    slots.append(Candidate(0))
                    continue
                mark = ""
                if (cell, d) in placed:
                    mark = "placed"
                elif (cell, d) in removed:
                    mark = "removed"
                elif (cell, d) in pattern:
                    mark = "other" if cell in other else "pattern"
                slots.append(Candidate(d, mark))
            edge = " ".join(name for name, on in (("edge-right", c in (2, 5)), ("edge-bottom", r in (2, 5))) if on)
            squares.append(
                Square(
                    cell_name(cell),
                    digits[cell],
                    example.givens[cell] not in ".0",
                    tuple(slots) if not digits[cell] else (),
                    cell in step.cells,
                    cell in house,
                    edge,
                )
            )
        rows.append((r + 1, squares))
    marks = by_cell(tuple(sorted(pattern)))
    if step.technique in ROLES:
        words = [
            f"{role} {cell_name(c)} ({or_words(digits_of(cands[c]))})"
            for role, c in zip(ROLES[step.technique], step.cells)
        ]
    elif step.technique in WHOLE_CELLS:
        words = [f"{cell_name(c)} ({or_words(digits_of(cands[c]))})" for c in step.cells if not digits[c]]
    elif other:
        words = [
            f"{name} colour, {step.digits[0]} in {', '.join(cell_name(c) for c in group)}"
            for name, group in (("Ringed", first), ("Boxed", second))
        ]
    else:
        words = [f"{cell_name(c)} ({or_words(marks[c])})" for c in step.cells if c in marks]
    return Drawing(
        rows=rows,
        pattern=words,
        removes=[f"{and_words(ds)} from {cell_name(c)}" for c, ds in by_cell(step.eliminations).items()],
        places=[f"{d} in {cell_name(c)}" for c, d in step.placements],
        look_in=look_in(step) if house else "",
    )
