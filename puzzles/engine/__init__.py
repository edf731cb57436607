"""The Sudoku engine: pure Python, standard library only."""
