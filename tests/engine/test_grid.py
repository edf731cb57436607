import pytest

from puzzles.engine.grid import PEERS, UNITS, InvalidGrid, as_grid, format_grid, parse

EASY = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def test_every_cell_has_twenty_peers_and_every_unit_nine_cells():
    assert all(len(p) == 20 for p in PEERS)
    assert len(UNITS) == 27 and all(len(u) == 9 for u in UNITS)


def test_it_parses_dots_and_zeros_alike_and_formats_zeros():
    dotted = EASY.replace("0", ".")
    assert parse(dotted) == parse(EASY)
    assert format_grid(parse(dotted)) == EASY


def test_it_accepts_a_grid_written_over_nine_lines():
    lines = "\n".join(EASY[i : i + 9] for i in range(0, 81, 9))
    assert parse(lines) == parse(EASY)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (EASY[:80], "81 cells, this one has 80"),
        (EASY + "1", "81 cells, this one has 82"),
        ("x" + EASY[1:], "unexpected character 'x' at row 1, column 1"),
        ("33" + EASY[2:], "two 3s in row 1: r1c1 and r1c2"),
        ("7" + EASY[1:], "two 7s in column 1: r1c1 and r5c1"),
        (EASY[:10] + "3" + EASY[11:], "two 3s in box 1"),
    ],
)
def test_it_rejects_bad_grids_saying_what_and_where(text, message):
    with pytest.raises(InvalidGrid, match=message):
        parse(text)


def test_it_checks_grids_given_as_lists_too():
    assert as_grid(parse(EASY)) == parse(EASY)
    with pytest.raises(InvalidGrid, match="unexpected value 10"):
        as_grid([10] + [0] * 80)
    with pytest.raises(InvalidGrid, match="81 cells"):
        as_grid([0] * 5)
