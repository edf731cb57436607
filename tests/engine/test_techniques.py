"""Each technique pinned to a real position where it is the easiest step, and every step the
rater takes checked against an independent reading of its pattern.

The positions were found by rating top-1465 and randomly dug puzzles and keeping the first
position where each technique was the easiest step. `digits` is the board at that moment and
`notes` the pencil marks (given only where earlier steps removed candidates that the placed
digits alone don't rule out), one token per cell, '.' for a filled cell.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from puzzles.engine.catalogue import (
    TECHNIQUES,
    TIERS,
    technique_about,
    technique_phrase,
    technique_title,
    tier_of,
)
from puzzles.engine.finders import FINDER_OF, LOGICAL, find_step, trial_and_error
from puzzles.engine.grid import BIT, DIGITS_OF, PEERS, UNITS, as_grid, candidates
from puzzles.engine.rater import next_step
from puzzles.engine.solver import solve
from puzzles.engine.steps import Step, apply

from .classic import CLASSIC_MODULES

TOP1465 = Path(__file__).resolve().parents[2] / "bench" / "top1465.txt"


@dataclass(frozen=True)
class Case:
    givens: str
    digits: str
    notes: str | None = None
    placements: tuple = ()
    eliminations: tuple = ()

    def board(self) -> list[int]:
        return [int(ch) for ch in self.digits]

    def note_list(self) -> list[str] | None:
        if self.notes is None:
            return None
        return ["" if token == "." else token for token in self.notes.split()]

    def candidates(self) -> list[int]:
        """The candidate masks of the position: the notes where given, else the computed ones."""
        masks = candidates(self.board())
        for cell, token in enumerate(self.note_list() or []):
            if token:
                masks[cell] &= sum(BIT[int(d)] for d in token)
        return masks


CASES: dict[str, Case] = {
    "naked-single": Case(
        givens="4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        digits="400030000000600800000000001000050090080000600070200000000102700503000040907000000",
        notes=(
            ". 569 1268 5789 . 15789 259 2567 25679 "
            "1237 359 12 . 12479 14579 . 2357 234579 "
            "23678 3569 268 45789 24789 45789 23459 23567 . "
            "1236 346 1246 378 . 13678 123 . 2378 "
            "123 . 59 3479 1479 13479 . 12357 23457 "
            "136 . 59 . 14689 134689 1345 1358 3458 "
            "68 46 468 . 9 . . 35 359 "
            ". 12 . 789 6789 6789 129 . 2689 "
            ". 12 . 3458 468 34568 12 1268 268"
        ),
        placements=[(58, 9)],
    ),
    "hidden-single-box": Case(
        givens="678000000000700030000006000009800024400000003000020800160090000007000190090030058",
        digits="678000000000700030000006000009800024400000003000020800160090000007000190294030058",
        placements=[(25, 8)],
    ),
    "hidden-single-row": Case(
        givens="678000000000700030000006000009800024400000003000020800160090000007000190090030058",
        digits="678300010001780036003016780719863524482571963356020871165298347837600192294137658",
        placements=[(19, 2)],
    ),
    "hidden-single-col": Case(
        givens="087005630490080700000000001020000078003000000060003040000000060004107090200890000",
        digits="187005630496381700002000081020000378043008006060003040000000060604107890200896000",
        placements=[(59, 2)],
    ),
    "pointing": Case(
        givens="000000000003702800060354090089000160070645030000000000040000070200506004000010000",
        digits="024000003003702840060354090489200165172645938000000427040020070200506304000410000",
        eliminations=[(7, 1)],
    ),
    "claiming": Case(
        givens="074000200000035040001062000000000300200803065080000009000500001008001030600000004",
        digits="374189256926735148851462973160904382200813065083000019030500001008001037610300004",
        notes=(
            ". . . . . . . . . "
            ". . . . . . . . . "
            ". . . . . . . . . "
            ". . 57 . 57 . . . . "
            ". 49 79 . . . 47 . . "
            "457 . . 26 257 67 47 . . "
            "47 . 279 . 2479 68 68 29 . "
            "45 49 . 26 249 . 56 . . "
            ". . 2579 . 279 78 58 29 ."
        ),
        eliminations=[(58, 2), (76, 2)],
    ),
    "naked-pair": Case(
        givens="080400000006080930790003000000002150000000200000710040004090002005000800260000507",
        digits="583469721426187935791523486007002150000050270052718640074095302005270804260000507",
        eliminations=[(27, 3), (30, 3), (35, 3)],
    ),
    "hidden-pair": Case(
        givens="074000200000035040001062000000000300200803065080000009000500001008001030600000004",
        digits="374189256900735148851462973100900382200813065083000019030500001008001037610300004",
        notes=(
            ". . . . . . . . . "
            ". 26 26 . . . . . . "
            ". . . . . . . . . "
            ". 46 567 . 457 47 . . . "
            ". 49 79 . . . 47 . . "
            "457 . . 26 2457 467 47 . . "
            "47 . 279 . 2479 4678 68 29 . "
            "45 249 . 26 249 . 56 . . "
            ". . 2579 . 279 78 58 29 ."
        ),
        eliminations=[(59, 4), (59, 7)],
    ),
    "naked-triple": Case(
        givens="007002600008000030094000078006900500000070000800050000000020000930007080001800006",
        digits="007082600068700030094000078006908500000070800800050000685020000932007080001800006",
        notes=(
            "135 15 . 1345 . . . 1459 1459 "
            "125 . . . 149 1459 124 . 1245 "
            "1235 . . 1356 136 1356 12 . . "
            "147 1247 . . 134 . . 124 12347 "
            "145 1245 39 12346 . 1346 . 12469 12349 "
            ". 1247 39 12346 . 1346 123479 12469 123479 "
            ". . . 134 . 1349 13479 149 13479 "
            ". . . 1456 146 . 14 . 145 "
            "47 47 . . 39 359 239 259 ."
        ),
        eliminations=[(51, 1), (51, 2), (51, 4), (60, 1), (60, 4), (78, 2)],
    ),
    "hidden-triple": Case(
        givens="000009080030050001080000000010500040700006050820004900000065410950300060000000200",
        digits="560009380030050601080603500010590040794006150825004906070065410950340060040000205",
        notes=(
            ". . 127 1247 127 . . . 47 "
            "24 . 279 2478 . 278 . 279 . "
            "124 . 1279 . 127 . . 279 479 "
            "36 . 36 . . 278 78 . 278 "
            ". . . 28 238 . . . 238 "
            ". . . 17 137 . . 37 . "
            "23 . 238 289 . . . . 39 "
            ". . 12 . . 12 78 . 78 "
            "136 . 1368 789 78 178 . 39 ."
        ),
        eliminations=[(56, 2), (74, 1)],
    ),
    "x-wing": Case(
        givens="005019000030400000000200900009000070100030040007008010870020000400000087002004600",
        digits="005019000930400020004200900009000070100030040007008010870020000400000287502004600",
        notes=(
            "267 268 . 3678 . . 47 36 348 "
            ". . 168 . 5678 567 17 . 158 "
            "67 168 . . 5678 3567 . 356 1358 "
            "236 24568 . 156 456 1256 358 . 26 "
            ". 2568 68 5679 . 2567 58 . 269 "
            "236 2456 . 569 4569 . 35 . 269 "
            ". . 136 1369 . 136 14 59 145 "
            ". 169 136 13569 569 1356 . . . "
            ". 19 . 78 78 . . 39 13"
        ),
        eliminations=[(17, 1), (62, 1), (64, 1)],
    ),
    "xy-wing": Case(
        givens="080400000006080930790003000000002150000000200000710040004090002005000800260000507",
        digits="583469721426187935791523486007002150000050270052718640074095302005270804260000507",
        notes=(
            ". . . . . . . . . "
            ". . . . . . . . . "
            ". . . . . . . . . "
            "689 34 . 69 34 . . . 89 "
            "13689 134 89 369 . 46 . . 389 "
            "39 . . . . . . . 39 "
            "18 . . 68 . . . 16 . "
            "139 13 . . . 16 . 169 . "
            ". . 89 38 34 14 . 19 ."
        ),
        eliminations=[(63, 1), (64, 1)],
    ),
    "naked-quad": Case(
        givens=".2.4....94..189.......62.5......63..3..94.5.......8.1..........8.2..4...964.....7",
        digits="020400009400189000000062050000006300300940500000008010000000000802004000964000007",
        notes=(
            "167 . 13678 . 357 357 1678 3678 . "
            ". 357 3567 . . . 267 2367 236 "
            "17 13789 13789 37 . . 1478 . 1348 "
            "1257 145789 15789 257 1257 . . 4789 48 "
            ". 178 1678 . . 17 . 2678 268 "
            "2567 4579 5679 2357 2357 . 4679 . 46 "
            "157 1357 1357 23678 12379 137 124689 234689 1234568 "
            ". 1357 . 367 1379 . 169 369 1356 "
            ". . . 2358 1235 135 128 238 ."
        ),
        eliminations=[(57, 3), (57, 7), (58, 1), (58, 3), (58, 7), (60, 1), (61, 3), (62, 1), (62, 3), (62, 5)],
    ),
    "hidden-quad": Case(
        givens=".....17.....6....3.6.4.95.1.2.......3.9.7.......56.....1..4.6.........8.7.2.....9",
        digits="000201700201607003867439521020090000309070000170560000010040602000020180702016009",
        notes=(
            "459 3459 345 . 58 . . 469 468 "
            ". 459 . . 58 . 489 49 . "
            ". . . . . . . . . "
            "456 . 4568 138 . 348 348 13457 4578 "
            ". 458 . 18 . 248 248 1456 4568 "
            ". . 48 . . 23 239 39 48 "
            "59 . 358 79 . 358 . 357 . "
            "4569 3459 3456 79 . 35 . . 457 "
            ". 3458 . 38 . . 34 345 ."
        ),
        eliminations=[(34, 3), (34, 4), (35, 4), (35, 8), (43, 4), (44, 4), (44, 8)],
    ),
    "swordfish": Case(
        givens="000000908318070000000005000072010600090200000005000040000060300000520091007000820",
        digits="054630908318070560069005000072010600090250000005000040921060300000520091507000826",
        notes=(
            "27 . . . . 12 . 17 . "
            ". . . 49 . 249 . . 24 "
            "27 . . 148 48 . 1247 137 2347 "
            "48 . . 348 . 3489 . 358 359 "
            "1468 . 36 . . 34678 17 1378 37 "
            "168 38 . 378 89 36789 12 . 2379 "
            ". . . 478 . 478 . 57 457 "
            "68 348 36 . . 37 47 . . "
            ". 34 . 1349 49 1349 . . ."
        ),
        eliminations=[(21, 4), (26, 4), (75, 4), (77, 4)],
    ),
    "xyz-wing": Case(
        givens="000900000000050100070061000700000500001472080000000200300690001500004302908000060",
        digits="100940620000050100070061400700000500651472983000500200300690801500004392908020760",
        notes=(
            ". 38 35 . . 78 . . 578 "
            "248 4689 469 237 . 378 . 37 789 "
            "28 . 59 23 . . . 35 589 "
            ". 23489 2349 18 138 69 . 14 46 "
            ". . . . . . . . . "
            "48 3489 349 . 138 69 . 147 467 "
            ". 24 247 . . 57 . 45 . "
            ". 16 67 178 18 . . . . "
            ". 14 . 13 . 35 . . 45"
        ),
        eliminations=[(14, 3)],
    ),
    "simple-colouring": Case(
        givens="060904305700006000089000060100070000940502000000000040800340092000100600000020030",
        digits="261984375700206009089700260108470026940562000600800040816345792000190650090620030",
        notes=(
            ". . . . . . . . . "
            ". 35 345 . 135 . 148 18 . "
            "345 . . . 135 13 . . 14 "
            ". 35 . . . 39 59 . . "
            ". . 37 . . . 18 18 37 "
            ". 27 2357 . 13 139 59 . 37 "
            ". . . . . . . . . "
            "34 27 2347 . . 78 . . 48 "
            "45 . 457 . . 78 14 . 148"
        ),
        eliminations=[(72, 4)],
    ),
    "simple-colouring-wrap": Case(
        givens="000800010010207006304000070640500009005000200008600000800100005001070000000306100",
        digits="000850910519207006384961572640512009105708260008600051800129005901475028452386197",
        notes=(
            "27 267 67 . . 34 . . 34 "
            ". . . . 34 . 348 348 . "
            ". . . . . . . . . "
            ". . 37 . . . 378 38 . "
            ". 39 . . 49 . . . 34 "
            "27 279 . . 349 34 47 . . "
            ". 367 367 . . . 346 34 . "
            ". 36 . . . . 36 . . "
            ". . . . . . . . ."
        ),
        eliminations=[(8, 4), (13, 4), (40, 4), (50, 4), (51, 4)],
    ),
    "x-chain": Case(
        givens="4.35...2.....16...7............895.....3..8..2...........4...7..9....6...1.......",
        digits="403590020000016000701000900006089502000300800200600000000400079090000600010900200",
        notes=(
            ". 68 . . . 78 17 . 1678 "
            "589 258 2589 278 . . 347 3458 34578 "
            ". 2568 . 28 34 34 . 568 568 "
            "13 347 . 17 . . . 134 . "
            "159 457 59 . 2457 12457 . 1469 1467 "
            ". 34578 589 . 457 1457 1347 1349 1347 "
            "3568 2358 258 . 356 1358 13 . . "
            "358 . 47 178 2357 123578 . 13458 13458 "
            "3568 . 47 . 3567 3578 . 3458 3458"
        ),
        eliminations=[(44, 1)],
    ),
    "xy-chain": Case(
        givens="8.9...3.....7.1...5.........7.....263...9.......1...4..6.2....4....8.5...........",
        digits="819400375030751089507839000078543026300690058050108043763215894090380500085900030",
        notes=(
            ". . . . 26 26 . . . "
            "246 . 246 . . . 24 . . "
            ". 24 . . . . 246 16 12 "
            "19 . . . . . 19 . . "
            ". 24 124 . . 27 17 . . "
            "269 . 26 . 27 . 79 . . "
            ". . . . . . . . . "
            "124 . 124 . . 467 . 16 17 "
            "14 . . . 67 467 26 . 127"
        ),
        eliminations=[(68, 7)],
    ),
    "jellyfish": Case(
        givens=".....3...8..2..67..6.......51...2.4.......3..47.5....87..4..8....2.1....6..3..4.5",
        digits="000003000830200670060000003510002046000000350470500008700400830342815060600307405",
        notes=(
            "129 259 47 1679 456789 . 125 89 124 "
            ". . 59 . 59 14 . . 14 "
            "129 . 47 179 45789 148 125 89 . "
            ". . 38 79 38 . 79 . . "
            "29 289 689 1679 4678 148 . . 79 "
            ". . 369 . 369 69 12 12 . "
            ". 59 15 . 269 69 . . 12 "
            ". . . . . . 79 . 79 "
            ". 89 189 . 29 . . 12 ."
        ),
        eliminations=[(1, 9), (4, 9), (22, 9), (37, 9), (38, 9)],
    ),
    "trial-and-error": Case(
        givens="006000000380240000000009200000506000000000850090030407840700506000400003007020090",
        digits="006000000380240600000009200000506000000904850090032467840700526000400783007020194",
        notes=(
            "124579 1257 . 138 158 13578 39 1347 1589 "
            ". . 159 . . 157 . 17 159 "
            "1457 157 145 1368 1568 . . 1347 158 "
            "1247 127 1248 . 178 . 39 13 129 "
            "1267 12367 123 . 17 . . . 12 "
            "15 . 158 18 . . . . . "
            ". . 139 . 19 13 . . . "
            "12569 1256 1259 . 1569 15 . . . "
            "56 356 . 368 . 358 . . ."
        ),
        placements=[(6, 9)],
    ),
}


def _technique_of(case_name: str) -> str:
    """The technique a case pins: 'hidden-single-box' pins 'hidden-single'."""
    for variant in ("-wrap", "-box", "-row", "-col"):
        case_name = case_name.removesuffix(variant)
    return case_name


# Positions where a technique is found by its own finder though an easier one also applies:
# a hidden quad is almost never the easiest step of a real puzzle, and the short one-digit
# patterns (skyscraper, kite, turbot fish) now come before simple colouring, and the unique loop
# (hard) before the jellyfish pinned here. Trial and error is pinned on a position where forcing
# chains would also do.
FOUND_ALONE = {"hidden-quad", "jellyfish", "simple-colouring", "simple-colouring-wrap"}


def _step_at(name: str) -> Step:
    """The step next_step gives for a pinned position, after checking nothing easier applies."""
    case = CASES[name]
    technique = _technique_of(name)
    board, cands = case.board(), case.candidates()
    if name == "trial-and-error":
        step = trial_and_error(board, cands, solve(case.givens))
        assert step is not None
    elif name in FOUND_ALONE:
        step = FINDER_OF[technique](board, cands)
        assert step is not None and step.technique == technique
    else:
        step = next_step(case.givens, case.board(), case.note_list())
        assert step is not None and step.technique == technique
        for easier in LOGICAL:
            if easier.name == technique:
                break
            assert FINDER_OF[easier.name](board, cands) is None, f"{easier.name} applies before {technique}"
    assert [tuple(p) for p in step.placements] == [tuple(p) for p in case.placements]
    assert [tuple(e) for e in step.eliminations] == [tuple(e) for e in case.eliminations]
    _assert_sound(step, solve(case.givens))
    return step


def _assert_sound(step: Step, solution: list[int]) -> None:
    """No elimination removes the solution's digit and every placement is the solution's digit."""
    for cell, digit in step.placements:
        assert solution[cell] == digit, step.explanation
    for cell, digit in step.eliminations:
        assert solution[cell] != digit, step.explanation


def test_it_finds_a_naked_single():
    step = _step_at("naked-single")
    assert "r7c5" in step.explanation and step.houses[0] == 25


@pytest.mark.parametrize(
    ("case", "houses"),
    [
        pytest.param("hidden-single-box", (20,), id="box"),
        pytest.param("hidden-single-row", (2,), id="row"),
        pytest.param("hidden-single-col", (14,), id="column"),
    ],
)
def test_it_finds_a_hidden_single_in_each_kind_of_house(case, houses):
    assert _step_at(case).houses == houses


def test_it_says_where_a_hidden_single_in_a_box_goes():
    step = _step_at("hidden-single-box")
    assert step.explanation == "In box 3, 8 can only go in r3c8, so it goes there."


@pytest.mark.parametrize(
    ("case", "kinds"),
    [
        pytest.param("pointing", ("box", "line"), id="a-box-pointing-into-a-line"),
        pytest.param("claiming", ("line", "box"), id="a-line-claiming-a-box"),
    ],
)
def test_it_finds_locked_candidates_with_the_confining_house_first(case, kinds):
    houses = _step_at(case).houses
    assert tuple("box" if h >= 18 else "line" for h in houses[:2]) == kinds


# Each pattern's size, counted where it shows: a subset's cells or digits, a wing's cells or
# digits, a fish's lines (base and cover together).
SIZES = [
    ("naked-pair", "cells", 2),
    ("hidden-pair", "digits", 2),
    ("naked-triple", "cells", 3),
    ("hidden-triple", "digits", 3),
    ("x-wing", "houses", 4),
    ("xy-wing", "cells", 3),
    ("naked-quad", "cells", 4),
    ("hidden-quad", "digits", 4),
    ("swordfish", "houses", 6),
    ("xyz-wing", "digits", 3),
    ("jellyfish", "houses", 8),
]


@pytest.mark.parametrize(("case", "part", "size"), SIZES, ids=[f"{case}-{size}-{part}" for case, part, size in SIZES])
def test_it_finds_a_pattern_of_the_size_its_technique_needs(case, part, size):
    assert len(getattr(_step_at(case), part)) == size


@pytest.mark.parametrize(
    ("case", "words"),
    [
        pytest.param("simple-colouring", "one from each group", id="a-cell-that-sees-both-colours"),
        pytest.param("simple-colouring-wrap", "share", id="a-colour-seen-twice-in-a-house"),
    ],
)
def test_it_finds_a_simple_colouring_and_says_how_the_colours_meet(case, words):
    assert words in _step_at(case).explanation


def test_it_finds_an_x_chain():
    assert len(_step_at("x-chain").cells) % 2 == 0


def test_it_finds_an_xy_chain():
    assert len(_step_at("xy-chain").cells) >= 3


def test_it_falls_back_on_trial_and_error_in_a_cell_with_fewest_candidates():
    step = _step_at("trial-and-error")
    cands = CASES["trial-and-error"].candidates()
    fewest = min(bin(m).count("1") for m in cands if m)
    assert bin(cands[step.cells[0]]).count("1") == fewest


def test_every_technique_has_a_pinned_position():
    """The classic techniques are pinned here; those in a module of their own are pinned in
    that module's test file (tests/engine/test_uniqueness.py and so on)."""
    pinned = {_technique_of(name) for name in CASES}
    for technique in TECHNIQUES:
        finder = FINDER_OF.get(technique.name)
        if finder is None or finder.__module__ in CLASSIC_MODULES:
            assert technique.name in pinned, technique.name
        else:
            module = finder.__module__.rsplit(".", 1)[1]
            tests = (Path(__file__).parent / f"test_{module}.py").read_text()
            assert f'"{technique.name}"' in tests, f"no pinned test names {technique.name}"


# --- the table -------------------------------------------------------------------------------


def test_techniques_run_from_easiest_to_hardest():
    ranks = [TIERS.index(t.tier) for t in TECHNIQUES]
    assert ranks == sorted(ranks)
    for tier in TIERS:
        figures = [t.difficulty for t in TECHNIQUES if t.tier == tier]
        assert figures == sorted(figures), f"{tier} techniques are not searched easiest first"
    assert TECHNIQUES[0].name == "hidden-single" and TECHNIQUES[-1].name == "trial-and-error"


def test_it_gives_each_technique_its_tier():
    assert tier_of("hidden-single") == "easy"
    assert tier_of("claiming") == "medium"
    assert tier_of("x-wing") == "hard"
    assert tier_of("jellyfish") == "expert"
    assert tier_of("trial-and-error") == "extreme"
    with pytest.raises(ValueError, match="unknown technique"):
        tier_of("guessing")


def test_every_technique_has_a_name_and_a_line_for_players():
    for technique in TECHNIQUES:
        assert technique_title(technique.name) != technique.name
        assert technique_about(technique.name)


def test_a_name_outside_the_catalogue_is_tidied_into_a_title_with_nothing_about_it():
    assert technique_title("wrong-digit") == "Wrong digit"
    assert technique_title("missing-candidate") == "Missing candidate"
    assert technique_about("wrong-digit") == ""


def test_no_technique_finds_anything_on_a_solved_grid():
    solution = solve(CASES["x-wing"].givens)
    cands = candidates(solution)
    assert all(FINDER_OF[t.name](solution, cands) is None for t in LOGICAL)
    assert trial_and_error(solution, cands, solution) is None


def test_a_step_turns_into_json_with_cells_as_names_and_indices():
    step = _step_at("x-wing")
    data = json.loads(json.dumps(step.to_dict()))
    assert data["technique"] == "x-wing" and data["tier"] == "hard"
    assert data["cells"][0] == {"index": step.cells[0], "name": f"r{step.cells[0] // 9 + 1}c{step.cells[0] % 9 + 1}"}
    assert data["houses"][0]["name"].startswith("row") or data["houses"][0]["name"].startswith("column")
    assert {e["cell"] for e in data["eliminations"]} == {c for c, _ in step.eliminations}
    assert data["explanation"].endswith(".")


# --- every step read again, independently ---------------------------------------------------


def _places(cands: list[int], house: int, digit: int) -> set[int]:
    return {c for c in UNITS[house] if cands[c] & BIT[digit]}


def _sees(a: int, b: int) -> bool:
    return b in PEERS[a]


def _check_pattern(step: Step, digits: list[int], cands: list[int]) -> None:
    """Read a step's pattern off the position it was found in, without the engine's finders."""
    name = step.technique
    elims = set(step.eliminations)
    for cell, digit in elims:
        assert cands[cell] & BIT[digit], f"{name} removes a candidate that isn't there"
    assert elims or step.placements
    if name == "naked-single":
        ((cell, digit),) = step.placements
        assert DIGITS_OF[cands[cell]] == (digit,)
    elif name == "hidden-single":
        ((cell, digit),) = step.placements
        assert _places(cands, step.houses[0], digit) == {cell}
    elif name.startswith("direct-"):
        ((cell, digit),) = step.placements
        assert not elims and step.cells[-1] == cell
        pattern = set(step.cells[:-1])
        if name == "direct-pointing":
            box, line, other = step.houses
            assert _places(cands, box, digit) == pattern and pattern <= set(UNITS[line])
            assert len(_places(cands, other, digit)) >= 2 and _places(cands, other, digit) - set(UNITS[line]) == {cell}
        else:
            house = step.houses[0]
            spots = set().union(*(_places(cands, house, d) for d in step.digits))
            assert spots == pattern and len(spots) == len(step.digits)
            assert len(_places(cands, house, digit)) >= 2 and _places(cands, house, digit) - spots == {cell}
    elif name in ("pointing", "claiming"):
        home, other = step.houses
        assert (home >= 18) == (name == "pointing")
        (digit,) = step.digits
        inside = _places(cands, home, digit)
        assert inside <= set(UNITS[other]) and inside == set(step.cells)
        assert elims == {(c, digit) for c in _places(cands, other, digit) - set(UNITS[home])}
    elif name.startswith("naked-"):
        size = {"pair": 2, "triple": 3, "quad": 4}[name.split("-")[1]]
        assert len(step.cells) == size
        union = set()
        for c in step.cells:
            union |= set(DIGITS_OF[cands[c]])
        assert union == set(step.digits) and len(union) == size
        assert all(set(step.cells) <= set(UNITS[h]) for h in step.houses)
        others = {c for h in step.houses for c in UNITS[h]} - set(step.cells)
        assert elims == {(c, d) for c in others for d in DIGITS_OF[cands[c]] if d in union}
    elif name.startswith("hidden-"):
        size = {"pair": 2, "triple": 3, "quad": 4}[name.split("-")[1]]
        house = step.houses[0]
        spots = set().union(*(_places(cands, house, d) for d in step.digits))
        assert len(step.digits) == size and spots == set(step.cells) and len(spots) == size
        assert elims == {(c, d) for c in spots for d in DIGITS_OF[cands[c]] if d not in step.digits}
    elif name in ("x-wing", "swordfish", "jellyfish"):
        size = {"x-wing": 2, "swordfish": 3, "jellyfish": 4}[name]
        (digit,) = step.digits
        base, cover = step.houses[:size], step.houses[size:]
        base_cells = {c for h in base for c in UNITS[h]}
        cover_cells = {c for h in cover for c in UNITS[h]}
        assert all(_places(cands, h, digit) <= cover_cells for h in base)
        assert elims == {(c, digit) for h in cover for c in _places(cands, h, digit) - base_cells}
    elif name == "xy-wing":
        pivot, a, b = step.cells
        assert _sees(pivot, a) and _sees(pivot, b)
        p, ma, mb = (set(DIGITS_OF[cands[c]]) for c in (pivot, a, b))
        assert len(p) == len(ma) == len(mb) == 2
        (z,) = (ma & mb) - p
        assert (ma - {z}) | (mb - {z}) == p
        assert all(d == z and _sees(c, a) and _sees(c, b) for c, d in elims)
    elif name == "xyz-wing":
        pivot, a, b = step.cells
        p, ma, mb = (set(DIGITS_OF[cands[c]]) for c in (pivot, a, b))
        assert len(p) == 3 and ma | mb == p and len(ma) == len(mb) == 2
        (z,) = ma & mb
        assert _sees(pivot, a) and _sees(pivot, b)
        assert all(d == z and all(_sees(c, x) for x in (pivot, a, b)) for c, d in elims)
    elif name == "x-chain":
        (digit,) = step.digits
        path = step.cells
        assert len(path) % 2 == 0
        for i in range(len(path) - 1):
            a, b = path[i], path[i + 1]
            assert _sees(a, b) and cands[a] & BIT[digit] and cands[b] & BIT[digit]
            if i % 2 == 0:  # a strong link: the only two places in some house
                assert any(_places(cands, h, digit) == {a, b} for h in range(27) if a in UNITS[h] and b in UNITS[h])
        assert all(d == digit and _sees(c, path[0]) and _sees(c, path[-1]) for c, d in elims)
    elif name == "xy-chain":
        (x,) = step.digits
        path = step.cells
        assert all(len(DIGITS_OF[cands[c]]) == 2 for c in path)
        value = next(d for d in DIGITS_OF[cands[path[0]]] if d != x)  # the start assumed not x
        for a, b in itertools.pairwise(path):
            assert _sees(a, b) and cands[b] & BIT[value]
            value = next(d for d in DIGITS_OF[cands[b]] if d != value)
        assert value == x
        assert all(d == x and _sees(c, path[0]) and _sees(c, path[-1]) for c, d in elims)
    elif name == "simple-colouring":
        (digit,) = step.digits
        colour = _two_colour(cands, digit, step.cells[0])
        assert set(colour) == set(step.cells)
        for cell, _ in elims:
            if cell in colour:  # a colour that meets itself in a house is false everywhere
                mates = [c for c in colour if colour[c] == colour[cell]]
                assert any(_sees(a, b) for a in mates for b in mates)
            else:  # a cell outside the chain that sees both colours
                assert {colour[c] for c in colour if _sees(cell, c)} == {0, 1}
    elif name == "trial-and-error":
        ((cell, _),) = step.placements
        fewest = min(len(DIGITS_OF[m]) for m in cands if m)
        assert len(DIGITS_OF[cands[cell]]) == fewest


def _two_colour(cands: list[int], digit: int, start: int) -> dict[int, int]:
    """Colour the cells joined to `start` by conjugate pairs of `digit`, alternating 0 and 1."""
    colour = {start: 0}
    todo = [start]
    while todo:
        cell = todo.pop()
        for house in range(27):
            spots = _places(cands, house, digit)
            if cell in spots and len(spots) == 2:
                other = (spots - {cell}).pop()
                if other not in colour:
                    colour[other] = 1 - colour[cell]
                    todo.append(other)
                assert colour[other] != colour[cell]
    return colour


def _rated_positions(puzzle: str):
    """Each (step, digits, candidates) along the rater's path through a puzzle."""
    grid = as_grid(puzzle)
    solution = solve(grid)
    digits, cands = grid[:], candidates(grid)
    while 0 in digits:
        step = find_step(digits, cands) or trial_and_error(digits, cands, solution)
        yield step, digits[:], cands[:]
        apply(step, digits, cands)


def test_every_step_on_hard_puzzles_shows_the_pattern_it_names():
    puzzles = [line for line in TOP1465.read_text().split() if line][:120]
    puzzles += [case.givens for case in CASES.values()]
    seen = set()
    for puzzle in puzzles:
        for step, digits, cands in _rated_positions(puzzle):
            _check_pattern(step, digits, cands)
            seen.add(step.technique)
    assert len(seen) >= 15


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        ("naked-pair", "a naked pair"),
        ("x-wing", "an X-wing"),
        ("two-string-kite", "a two-string kite"),
        ("unique-rectangle-1", "a unique rectangle (type 1)"),
        ("als-xz", "an ALS-XZ"),
        ("bug-plus-one", "a BUG+1"),
        ("nishio", "a Nishio forcing chain"),
        ("empty-rectangle", "an empty rectangle"),
    ],
)
def test_a_technique_reads_mid_sentence_with_its_article(name, phrase):
    assert technique_phrase(name) == phrase
