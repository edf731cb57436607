"""A player's position on the board: digits, corner and centre notes, colours, as a write sends it.

Checked and normalised at the edge, against the puzzle's givens, on every write and on every hint
or check (a payload the board cannot have sent is a BadPosition, with a message that says what is
wrong); fingerprinted for the hints (position_key).
"""

from __future__ import annotations

import hashlib
import re


class BadPosition(ValueError):
    """A payload the board cannot have sent: not a position, a version or a clock phase; the
    message says what is wrong."""


NOTE = re.compile(r"[1-9]{0,9}")
DIGITS = re.compile(r"[0-9]{81}")

# A position as a save stores it: digits, corner notes, centre notes, colours.
Position = tuple[str, list[str], list[str], list[str]]


def _check_marks(marks: object, givens: str | None, name: str) -> list[str]:
    """Notes or colours, checked and sorted; with `givens`, blanked on the given cells."""
    if not isinstance(marks, list) or len(marks) != 81:
        raise BadPosition(f"{name} must be a list of 81 strings")
    clean = []
    for cell, mark in enumerate(marks):
        # Every save checks 243 of these, so the common case (an empty mark) is the quick one.
        if mark == "":
            clean.append("")
            continue
        if not isinstance(mark, str) or not NOTE.fullmatch(mark):
            raise BadPosition(f"{name} of cell {cell + 1} must be digits 1-9")
        if len(set(mark)) != len(mark):
            raise BadPosition(f"{name} of cell {cell + 1} repeat a digit")
        clean.append("" if givens is not None and givens[cell] != "0" else "".join(sorted(mark)))
    return clean


def position_clean(
    givens: str, digits: object, corner: object = None, centre: object = None
) -> tuple[str, list[str], list[str]]:
    """Check and normalise a player's position against the puzzle's givens.

    Given cells must be empty or repeat the given; they are stored empty, since the givens
    belong to the puzzle, not to the player.
    """
    digits = digits_clean(givens, digits)
    corner = _check_marks(corner if corner is not None else [""] * 81, givens, "corner notes")
    centre = _check_marks(centre if centre is not None else [""] * 81, givens, "centre notes")
    return digits, corner, centre


def digits_clean(givens: str, digits: object) -> str:
    """A player's digits checked against the givens as position_clean checks them, and stored
    as it stores them (the givens' cells empty)."""
    if not isinstance(digits, str) or not DIGITS.fullmatch(digits):
        raise BadPosition("digits must be 81 characters, 0-9")
    for cell, (given, mine) in enumerate(zip(givens, digits)):
        if given != "0" and mine not in ("0", given):
            raise BadPosition(f"cell {cell + 1} holds a given, which cannot be changed")
    return "".join("0" if given != "0" else mine for given, mine in zip(givens, digits))


def colours_clean(colours: object) -> list[str]:
    """Check and normalise a player's colours: per cell, colour indices 1-9 (givens too), sorted."""
    return _check_marks(colours if colours is not None else [""] * 81, None, "colours")


def position_key(digits: str, centre: list[str]) -> str:
    """A fixed-length fingerprint of a position (the player's digits and centre notes)."""
    text = digits + "|" + ",".join(centre)
    return hashlib.sha256(text.encode()).hexdigest()  # 64 characters: Attempt.hint_position
