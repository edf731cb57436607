"""The catalogue of human solving techniques, as data: TECHNIQUES lists each one easiest first,
with its tier, its difficulty on the Sudoku Explainer scale (docs/algorithms.md gives the
sources), its title and one line about it; then the words a sentence uses for it. The finders
are in the modules that import this one (finders.py binds them by name), so it needs none.
"""

from __future__ import annotations

from dataclasses import dataclass

TIERS: tuple[str, ...] = ("easy", "medium", "hard", "expert", "extreme")
TIER_RANK: dict[str, int] = {tier: rank for rank, tier in enumerate(TIERS)}

# A pattern whose difficulty grows with its size stops here, below the extreme tier's figures.
EXPERT_CEILING = 7.4


@dataclass(frozen=True, slots=True)
class Technique:
    """A technique: its name, tier and difficulty, with a title and one line about it for people.

    difficulty is on the Sudoku Explainer scale, the lowest figure any step of the technique gets;
    `unique` marks the techniques that are sound only for a puzzle with one solution.
    """

    name: str  # for machines: 'x-wing'
    tier: str
    difficulty: float
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
        "Hidden single",
        "A digit that has only one possible cell left in a row, column or box.",
    ),
    Technique(
        "naked-single",
        "easy",
        2.3,
        "Naked single",
        "A cell whose row, column and box leave it one possible digit.",
    ),
    Technique(
        "direct-pointing",
        "medium",
        1.7,
        "Direct pointing",
        "A digit confined to one line inside a box, which leaves another box on that line one place for it.",
    ),
    Technique(
        "direct-hidden-pair",
        "medium",
        2.0,
        "Direct hidden pair",
        "Two digits that fit only in the same two cells of a house, which leaves a third digit one place there.",
    ),
    Technique(
        "direct-hidden-triple",
        "medium",
        2.5,
        "Direct hidden triple",
        "Three digits that fit only in the same three cells of a house, which leaves a fourth digit one place there.",
    ),
    Technique(
        "pointing",
        "medium",
        2.6,
        "Pointing",
        "A digit confined to one line inside a box can't go elsewhere on that line.",
    ),
    Technique(
        "claiming",
        "medium",
        2.8,
        "Claiming",
        "A digit confined to one box inside a line can't go elsewhere in that box.",
    ),
    Technique(
        "naked-pair",
        "medium",
        3.0,
        "Naked pair",
        "Two cells of a house holding the same two digits: no other cell there can.",
    ),
    Technique(
        "hidden-pair",
        "medium",
        3.4,
        "Hidden pair",
        "Two digits that fit only in the same two cells of a house: those cells hold nothing else.",
    ),
    Technique(
        "x-wing",
        "hard",
        3.2,
        "X-wing",
        "A digit with two places in each of two lines, lined up: it leaves the crossing lines.",
    ),
    Technique(
        "naked-triple",
        "hard",
        3.6,
        "Naked triple",
        "Three cells of a house sharing three digits between them: no other cell there can hold them.",
    ),
    Technique(
        "swordfish",
        "hard",
        3.8,
        "Swordfish",
        "An x-wing across three lines: a digit's places in three lines cover only three crossing lines.",
    ),
    Technique(
        "hidden-triple",
        "hard",
        4.0,
        "Hidden triple",
        "Three digits that fit only in the same three cells of a house: those cells hold nothing else.",
    ),
    Technique(
        "skyscraper",
        "hard",
        4.0,
        "Skyscraper",
        "Two lines each with two places for a digit, one end of each on a common line: a cell seeing both other ends can't hold it.",
    ),
    Technique(
        "two-string-kite",
        "hard",
        4.1,
        "Two-string kite",
        "A row and a column each with two places for a digit, joined in one box: a cell seeing both free ends can't hold it.",
    ),
    Technique(
        "xy-wing",
        "hard",
        4.2,
        "XY-wing",
        "Three two-digit cells that force a digit out of any cell seeing both wings.",
    ),
    Technique(
        "turbot-fish",
        "hard",
        4.2,
        "Turbot fish",
        "Two only-two-places links on one digit joined end to end: a cell seeing both far ends can't hold it.",
    ),
    Technique(
        "empty-rectangle",
        "hard",
        4.3,
        "Empty rectangle",
        "A digit confined to one row and one column of a box, with a link outside it: the cell where they meet can't hold it.",
    ),
    Technique(
        "grouped-skyscraper",
        "hard",
        4.3,
        "Grouped skyscraper",
        "A skyscraper in which a group of cells (the digit's places in one box along the line) stands for one of the cells.",
    ),
    Technique(
        "grouped-two-string-kite",
        "hard",
        4.3,
        "Grouped two-string kite",
        "A two-string kite in which a group of cells (the digit's places in one box along a line) stands for one of the cells.",
    ),
    Technique(
        "xyz-wing",
        "hard",
        4.4,
        "XYZ-wing",
        "An xy-wing whose pivot holds three digits: cells seeing all three can't hold the shared one.",
    ),
    Technique(
        "unique-rectangle-1",
        "hard",
        4.5,
        "Unique rectangle (type 1)",
        "Three corners of a rectangle over two boxes hold the same two digits: the fourth can't, or the puzzle would have two solutions.",
        unique=True,
    ),
    Technique(
        "unique-rectangle-2",
        "hard",
        4.6,
        "Unique rectangle (type 2)",
        "Two roof corners hold one extra digit besides the rectangle's pair: one of them must be it, so cells seeing both can't.",
        unique=True,
    ),
    Technique(
        "unique-rectangle-3",
        "hard",
        4.6,
        "Unique rectangle (type 3)",
        "The roof's extra digits act as one cell that forms a naked subset with other cells of their house.",
        unique=True,
    ),
    Technique(
        "unique-rectangle-4",
        "hard",
        4.6,
        "Unique rectangle (type 4)",
        "One of the rectangle's digits is locked into the two roof cells, so the other one can't go in either.",
        unique=True,
    ),
    Technique(
        "unique-loop",
        "hard",
        4.6,
        "Unique loop",
        "A unique rectangle stretched to a loop of six or eight cells, each of its houses holding two of them: the cells that hold more than its two digits keep it from being a second solution.",
        unique=True,
    ),
    Technique(
        "naked-quad",
        "expert",
        5.0,
        "Naked quad",
        "Four cells of a house sharing four digits between them: no other cell there can hold them.",
    ),
    Technique(
        "jellyfish",
        "expert",
        5.2,
        "Jellyfish",
        "An x-wing across four lines: a digit's places in four lines cover only four crossing lines.",
    ),
    Technique(
        "x-chain",
        "expert",
        5.4,
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
        "Hidden quad",
        "Four digits that fit only in the same four cells of a house: those cells hold nothing else.",
    ),
    Technique(
        "simple-colouring",
        "expert",
        5.4,
        "Simple colouring",
        "Colouring a digit's chain of only-two-places links to find cells that can't hold it.",
    ),
    Technique(
        "als-xz",
        "expert",
        5.5,
        "ALS-XZ",
        "A two-digit cell and an almost locked set of three or four cells that can't both hold one of its digits: one of them holds the other, so cells seeing all of its places can't.",
    ),
    Technique(
        "bug-plus-one",
        "expert",
        5.6,
        "BUG+1",
        "Every cell but one has two candidates: the odd cell takes the digit that would otherwise leave the puzzle two solutions.",
        unique=True,
    ),
    Technique(
        "bug-plus-n",
        "expert",
        5.7,
        "BUG+n",
        "Every cell but a few has two candidates: one of the few takes its extra digit, so cells seeing them all can't hold it, or with other cells it makes a naked subset.",
        unique=True,
    ),
    Technique(
        "grouped-x-chain",
        "expert",
        5.7,
        "Grouped X-chain",
        "An X-chain in which groups of cells (a digit's places in one box along a line) stand for some of the cells.",
        growth=0.3,
        smallest=6,
        ceiling=EXPERT_CEILING,
    ),
    Technique(
        "xy-chain",
        "expert",
        6.3,
        "XY-chain",
        "A chain of two-digit cells, each forcing the next: a cell seeing both ends can't hold the end digit.",
        growth=0.1,
        smallest=4,
        ceiling=EXPERT_CEILING,
    ),
    Technique(
        "w-wing",
        "expert",
        6.6,
        "W-wing",
        "Two cells with the same two digits joined by a link on one of them: the other digit leaves cells seeing both.",
    ),
    Technique(
        "forcing-chain",
        "expert",
        6.6,
        "Forcing chain",
        "Assume a candidate and follow a chain of strong and weak links on the pencil marks: if it comes back to the same candidate with the opposite answer, the assumption was wrong.",
    ),
    Technique(
        "nishio",
        "extreme",
        7.5,
        "Nishio forcing chain",
        "Assume a candidate and follow the singles it forces: if they run into a contradiction, the candidate is false.",
    ),
    Technique(
        "cell-forcing-chain",
        "extreme",
        7.5,
        "Cell forcing chain",
        "Each candidate of one cell, followed through the singles it forces, leads to the same conclusion: that conclusion holds.",
    ),
    Technique(
        "unit-forcing-chain",
        "extreme",
        7.5,
        "Unit forcing chain",
        "Each place a digit can go in a house, followed through the singles it forces, leads to the same conclusion: that conclusion holds.",
    ),
    Technique(
        "trial-and-error",
        "extreme",
        10.0,
        "Trial and error",
        "Not even a forcing chain applies: try a candidate and see which one leads to a solution.",
    ),
)

TECHNIQUE_BY_NAME: dict[str, Technique] = {t.name: t for t in TECHNIQUES}


def tier_of(technique: str) -> str:
    """tier_of('x-wing') -> 'hard'; ValueError for a name that isn't a technique."""
    try:
        return TECHNIQUE_BY_NAME[technique].tier
    except KeyError:
        raise ValueError(f"unknown technique {technique!r}") from None


# --- words ------------------------------------------------------------------------------------

# Titles that start with a name, which keeps its capital mid-sentence.
_PROPER_NAMES = frozenset({"Nishio"})


def technique_title(name: str) -> str:
    """technique_title('x-wing') -> 'X-wing'; an unknown name ('wrong-digit') is tidied, not refused."""
    technique = TECHNIQUE_BY_NAME.get(name)
    return technique.title if technique else name.replace("-", " ").capitalize()


def technique_phrase(name: str) -> str:
    """A technique's name mid-sentence, with its article: 'a naked pair', 'an X-wing', 'a BUG+1'."""
    title = technique_title(name)
    first = title.split()[0]
    if first[1:2].islower() and first not in _PROPER_NAMES:
        title = title[0].lower() + title[1:]
    return f"{article_for(title)} {title}"


def article_for(words: str) -> str:
    """'an' before a vowel sound ('an expert', 'an X-wing', 'an ALS-XZ'), else 'a' ('a unique loop')."""
    spoken_vowel = words[:1].lower() in "aeiou" and not words.lower().startswith("uni")
    spoken_vowel = spoken_vowel or words.startswith(("X", "ALS"))
    return "an" if spoken_vowel else "a"


def technique_about(name: str) -> str:
    """One line on what a technique is ('' for a name the catalogue doesn't know)."""
    technique = TECHNIQUE_BY_NAME.get(name)
    return technique.about if technique else ""
