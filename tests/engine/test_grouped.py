"""The grouped one-digit patterns (grouped skyscraper, two-string kite and x-chain):
each pinned to a real position, kept apart from the plain patterns, and checked against the
solution on positions from hard puzzles.

Three pinned positions come from puzzles of bench/se_rated.txt that Sukaku Explainer solves
with the same technique as its hardest step (its names and ratings in the comments, checked
with its serate on 2026-11-26); a fourth, from bench/se_holdout.txt, holds a grouped chain
through two boxes (Sukaku Explainer's grouped turbot crane), which is left out. A position is
written as its digits and its pencil marks, one token per cell, '.' for a filled cell.
"""

from __future__ import annotations

import pytest

from puzzles.engine import chains, grouped, rate
from puzzles.engine.grid import BIT, CELL_BIT, as_grid
from puzzles.engine.solver import solve
from puzzles.engine.steps import digit_boards

from .test_patterns import _position, _walked_positions

FINDERS = {
    "grouped-skyscraper": grouped.grouped_skyscraper,
    "grouped-two-string-kite": grouped.grouped_two_string_kite,
    "grouped-x-chain": grouped.grouped_x_chain,
}

# Sukaku Explainer: 4.3, "Grouped 2-String Kite".
KITE_GIVENS = "000000000305904601040010030200000007007163400000207000020801070806000302009000100"
KITE = _position(
    "100300004375924681040010030200000007087163420000207003020801076816000302709602108",
    ". 69 28 . 578 568 27 59 . "
    ". . . . . . . . . "
    "69 . 28 57 . 568 27 . 59 "
    ". 36 13 45 4589 589 58 16 . "
    "59 . . . . . . . 59 "
    "456 569 14 . 58 . 589 16 . "
    "45 . 34 . 359 . 59 . . "
    ". . . 457 4579 59 . 459 . "
    ". 35 . . 345 . . 45 .",
)

# Sukaku Explainer: 4.3, "Grouped Skyscraper".
SKYSCRAPER_GIVENS = "709020000030906000200040003170000500090705080006000024900070002000201090000050406"
SKYSCRAPER = _position(
    "709020000030916200200047903170402509492705081006190724900674002600201090020059406",
    ". 146 . 358 . 38 16 146 58 "
    "58 . 458 . . . . 457 578 "
    ". 1568 158 58 . . . 156 . "
    ". . 38 . 68 . . 36 . "
    ". . . . 36 . 36 . . "
    "358 58 . . . 38 . . . "
    ". 158 1358 . . . 18 135 . "
    ". 45 457 . 38 . 38 . 57 "
    "38 . 17 38 . . . 17 .",
)

# Sukaku Explainer: 5.7, "Grouped 3 Strong links".
X_CHAIN_GIVENS = "000905100140020005002006000006000002400802009800000400000500700700080054009204000"
X_CHAIN = _position(
    "608945120140028965002006040006400002400802009825090400204500790700089254009274000",
    ". 37 . . . . . . 37 "
    ". . 37 37 . . . . . "
    "59 59 . 137 13 . 38 . 378 "
    "39 179 . . 135 137 58 1378 . "
    ". 17 137 . 56 . 56 137 . "
    ". . . 136 . 137 . 137 16 "
    ". 1368 . . 136 13 . . 138 "
    ". 136 13 136 . . . . . "
    "35 158 . . . . 368 18 136",
)

BOX_CHAIN_GIVENS = "000060000000407000060531090620904018070000060850010034010000070005000600706000502"
BOX_CHAIN = _position(
    "007060003000407006060531097623954718070000965859716234010605379005070601706100502",
    "12459 489 . 28 . 289 148 2458 . "
    "12359 389 128 . 289 . 18 258 . "
    "24 . 248 . . . 48 . . "
    ". . . . . . . . . "
    "14 . 14 238 28 238 . . . "
    ". . . . . . . . . "
    "24 . 248 . 248 . . . . "
    "2349 3489 . 238 . 2389 . 48 . "
    ". 3489 . . 489 389 . 48 .",
)

PINNED = {
    "grouped-two-string-kite": (KITE_GIVENS, KITE),
    "grouped-skyscraper": (SKYSCRAPER_GIVENS, SKYSCRAPER),
    "grouped-x-chain": (X_CHAIN_GIVENS, X_CHAIN),
}


def _plain_chain() -> tuple[list[int], list[int]]:
    """A position of one digit (1) whose places form an x-chain of three plain strong links,
    r1c1 = r1c5 - r4c5 = r4c8 - r9c8 = r9c2, and r3c2, which sees both ends (and closes other
    chains); no box holds two places on one line, so there is no group anywhere."""
    cells = (0, 4, 31, 34, 79, 73, 19)
    cands = [BIT[1] if c in cells else 0 for c in range(81)]
    return [0] * 81, cands


# --- pinned positions -------------------------------------------------------------------------


@pytest.mark.parametrize("name", [*PINNED, "box chain"])
def test_the_pinned_positions_are_real_positions_of_their_puzzles(name):
    givens, (digits, cands) = PINNED.get(name, (BOX_CHAIN_GIVENS, BOX_CHAIN))
    solution = solve(as_grid(givens))
    assert all(d in (0, solution[c]) for c, d in enumerate(digits))
    assert all(cands[c] >> (solution[c] - 1) & 1 for c in range(81) if not digits[c])


def test_it_finds_a_grouped_two_string_kite_with_a_group_at_the_columns_near_end():
    step = grouped.grouped_two_string_kite(*KITE)
    assert step.technique == "grouped-two-string-kite"
    assert step.cells == (36, 44, 33, 51, 60)  # r5c1 = r5c9 - r4c7+r6c7 = r7c7
    assert step.houses == (4, 23, 15)  # row 5, box 6, column 7
    assert step.digits == (5,)
    assert step.eliminations == ((54, 5),)
    assert step.explanation == (
        "Row 5 has 5 only in r5c1 or r5c9, and column 7 only in the group r4c7+r6c7 or r7c7. As "
        "r5c9 and the group r4c7+r6c7 lie in box 6, they can't both hold 5, so r5c1 or r7c7 does, "
        "and a cell that sees all their cells can't be 5: remove 5 from r7c1."
    )


def test_it_finds_a_grouped_skyscraper_whose_top_is_a_group():
    step = grouped.grouped_skyscraper(*SKYSCRAPER)
    assert step.technique == "grouped-skyscraper"
    assert step.cells == (19, 20, 21, 75, 72)  # r3c2+r3c3 = r3c4 - r9c4 = r9c1
    assert step.houses == (2, 12, 8)  # row 3, column 4, row 9
    assert step.eliminations == ((9, 8),)
    assert "As r3c4 and r9c4 lie in column 4" in step.explanation
    assert step.explanation.endswith(
        "so the group r3c2+r3c3 or r9c1 does, and a cell that sees all their cells can't be 8: remove 8 from r2c1."
    )


def test_a_four_node_chain_with_a_strong_link_in_a_box_is_left_out():
    # Box 2 = r1c4+r1c6 = r2c5, r2c5 - r2c8 in row 2, box 3 = r2c8 = r1c8 would remove 2 from r1c1.
    assert grouped.grouped_skyscraper(*BOX_CHAIN) is None
    assert grouped.grouped_two_string_kite(*BOX_CHAIN) is None


def test_it_finds_a_grouped_x_chain_of_three_strong_links_rated_as_sukaku_explainer_does():
    step = grouped.grouped_x_chain(*X_CHAIN)
    assert step.technique == "grouped-x-chain"
    assert step.cells == (11, 12, 66, 64, 65, 72, 27)  # r2c3 = r2c4 - r8c4 = r8c2+r8c3 - r9c1 = r4c1
    assert step.eliminations == ((38, 3),)
    assert step.difficulty == 5.7
    assert step.explanation.startswith("Along r2c3 = r2c4 - r8c4 = r8c2+r8c3 - r9c1 = r4c1, where")
    assert step.explanation.endswith("remove 3 from r5c3.")


@pytest.mark.parametrize("name", list(PINNED))
def test_each_pinned_position_holds_no_other_four_node_shape(name):
    _, position = PINNED[name]
    for other in ("grouped-skyscraper", "grouped-two-string-kite"):
        if other != name:
            assert FINDERS[other](*position) is None, other


def test_a_chain_without_a_group_is_left_to_the_plain_patterns():
    digits, cands = _plain_chain()
    plain = chains.x_chain(digits, cands)
    assert plain is not None and plain.technique == "x-chain"
    for name, finder in FINDERS.items():
        assert finder(digits, cands) is None, name


def test_without_its_group_the_skyscraper_is_gone():
    digits, cands = SKYSCRAPER
    cands = cands[:]
    cands[25] |= BIT[8]  # an 8 in r3c8 puts row 3's places in three boxes
    assert grouped.grouped_skyscraper(digits, cands) is None


def test_a_box_on_one_row_and_one_column_links_its_row_part_with_its_column_part():
    # Box 2 of the box chain's position holds its 2s at r1c4, r1c6 and r2c5 (row 1 and column 5).
    board = digit_boards(BOX_CHAIN[1])[2]
    links = {(a, b) for a, b, house in grouped.grouped_links(board) if house == 19}
    assert links == {(CELL_BIT[3] | CELL_BIT[5], CELL_BIT[13])}


# --- the rater --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("givens", "technique", "score"),
    [(KITE_GIVENS, "grouped-two-string-kite", 430), (SKYSCRAPER_GIVENS, "grouped-skyscraper", 430)],
)
def test_a_puzzle_sukaku_explainer_rates_4_3_for_a_grouped_pattern_is_hard_here(givens, technique, score):
    rating = rate(givens)
    assert rating.tier == "hard" and rating.hardest == technique
    assert score <= rating.score < score + 10


def test_a_grouped_x_chain_of_three_strong_links_decides_an_expert_puzzle_at_5_7():
    rating = rate(X_CHAIN_GIVENS)
    assert rating.tier == "expert" and rating.hardest == "grouped-x-chain"
    assert 570 <= rating.score < 580


# --- on hard puzzles --------------------------------------------------------------------------


def test_every_grouped_step_on_hard_puzzles_keeps_the_solution_and_has_a_group():
    positions = _walked_positions(60)
    fired = dict.fromkeys(FINDERS, 0)
    for digits, cands, solution, _ in positions:
        for name, finder in FINDERS.items():
            board, marks = list(digits), list(cands)
            step = finder(board, marks)
            assert (board, marks) == (list(digits), list(cands)), f"{name} changed its inputs"
            if step is None:
                continue
            fired[name] += 1
            assert step.technique == name and not step.placements and step.eliminations
            assert all(solution[c] != d for c, d in step.eliminations), step.explanation
            assert all(marks[c] & BIT[d] for c, d in step.eliminations)
            assert all(c not in step.cells for c, _ in step.eliminations)
            # More cells than nodes (one more than the links it names): a group among them.
            assert len(step.cells) > len(step.houses) + 1, step.explanation
    print(f"\n{len(positions)} positions; steps found: {fired}")
    assert all(fired.values())
