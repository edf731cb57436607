"""The ranking rule in words: why a solve is not ranked, said to its player ("you") or about
someone else's solve ("they", on a league's board), and how ranking works. One table, so the
leaderboard, the results page, the leagues and the admin never word a reason two ways.
"""

from __future__ import annotations

from django.conf import settings

from ..durations import format_duration
from ..models import Solve
from . import ranking
from .ranking import (
    DISQUALIFIED,
    HELD,
    HELPED,
    IN_SUBMIT,
    LARGE_WRITE_DIGITS,
    LARGE_WRITES,
    LATE,
    MIN_MEDIAN_GAP_SECONDS,
    NEW_ACCOUNT,
    NO_RECORD,
    TOO_FAST,
)


def _you() -> dict[str, str]:
    """To the player, after "Not on the leaderboard:"; built when asked, with the numbers in force."""
    return {
        LATE: "you played it after its day",
        HELPED: "you used hints or checks",
        NO_RECORD: "the server has no record of your moves (an old page or a script), so the time cannot be checked",
        NEW_ACCOUNT: (
            f"your account was under {settings.RANKED_ACCOUNT_MIN_HOURS:g} hours old when you solved it: "
            "verify your email address and it is ranked"
        ),
        IN_SUBMIT: "most of the digits arrived with the final submit, not as they were placed",
        LARGE_WRITES: (
            f"most of the digits arrived in saves of over {LARGE_WRITE_DIGITS} digits at once "
            "(as after playing offline), not as they were placed"
        ),
        TOO_FAST: (
            f"digits went in faster than a person enters them (under {MIN_MEDIAN_GAP_SECONDS:g} s apart "
            "for most of the solve)"
        ),
        DISQUALIFIED: "it was disqualified after review",
    }


# About someone else's solve, in a few words (a league's board).
THEY = {
    LATE: "late",
    HELPED: "with hints or checks",
    NO_RECORD: "not ranked: no record of the moves",
    NEW_ACCOUNT: "not ranked: new account",
    IN_SUBMIT: "not ranked: digits sent at the end",
    LARGE_WRITES: "not ranked: digits sent in bulk",
    TOO_FAST: "not ranked: faster than a person",
    DISQUALIFIED: "disqualified",
    HELD: "held for review",
}


# The step that ranks a new account's solve, as the link beside its reason (the email page).
VERIFY_STEP = "Add and verify your email address"


def ranking_asks() -> str:
    """What ranking asks of an account, said on the sign-up form before anyone is told no."""
    return (
        "To be ranked on the leaderboards, an account needs a verified email address, or to be "
        f"{settings.RANKED_ACCOUNT_MIN_HOURS:g} hours old when it solves the puzzle."
    )


def reason(code: str) -> str:
    """The sentence the results page shows a player for one code (after "Not on the leaderboard:")."""
    return _you().get(code, code)


def reasons_for_you(solve: Solve) -> list[str]:
    """Why the player's own solve is not ranked, a sentence a reason; [] when it is."""
    return [held_because(solve) if code == HELD else reason(code) for code in ranking.not_ranked_codes(solve)]


def reasons_for_them(solve: Solve) -> list[str]:
    """Why someone else's solve is not ranked, a few words a reason; [] when it is."""
    return [THEY.get(code, f"not ranked: {code}") for code in ranking.not_ranked_codes(solve)]


def held_because(solve: Solve) -> str:
    """Why a held solve waits for review, for its player."""
    floor, which = ranking.floor_of(solve)
    if which == "day":
        share = f"{settings.DAY_FLOOR_FRACTION:.0%}"
        return f"it was under {share} of the day's median time, so it is held until an admin checks it"
    return f"it was under {format_duration(floor)}, so it is held until an admin checks it"


def rules(difficulty: str) -> list[str]:
    """The ranking rules as the leaderboard writes them, with the numbers in force."""
    floor = settings.LEADERBOARD_FLOOR_SECONDS.get(difficulty, 0)
    return [
        "Only solves made on the puzzle's day, without hints or checks, by players with an account are ranked.",
        "The ranked time is the whole time the puzzle's page was open, as the server recorded it: a pause "
        "or a closed page stops it, a missing heartbeat does not. It is never less than the clock's time.",
        "The record of play must show the grid filled over time: a solve is not ranked when most of its "
        f"digits arrive in the final submit, or in saves of over {LARGE_WRITE_DIGITS} digits at once, or when "
        f"its digits go in under {MIN_MEDIAN_GAP_SECONDS:g} s apart for most of the solve.",
        f"A solve by an account under {settings.RANKED_ACCOUNT_MIN_HOURS:g} hours old is ranked once the "
        "account's email address is verified.",
        f"A solve under {format_duration(floor)} on this puzzle, or, once the day has {settings.DAY_FLOOR_MIN_SOLVES} "
        f"ranked solves, under {settings.DAY_FLOOR_FRACTION:.0%} of their median time, is held until an admin has "
        "checked it; an admin may also disqualify a solve.",
        *PROMISES,
    ]


# What the rules above can and cannot promise, said after them.
PROMISES = [
    "What the site checks is how a solve was played here: the time, the digits arriving one by one at a "
    "person's pace while the page was open, the account, and a time far below the day's. It cannot see "
    "where a player found the digits.",
    "The givens are public, so a player can solve a puzzle elsewhere first, or with a program, and type it "
    "in at a person's pace: no leaderboard of a puzzle anyone can read can promise that every time was "
    "earned, and a result that looks like that is held or disqualified only once someone checks it.",
]
# After the rules, with a mailto link to settings.REPORT_EMAIL.
REPORT = "To report a result you think was not fair play, name the puzzle and the player in an email to"


def report_address() -> str:
    """Where a player reports a result: settings.REPORT_EMAIL (by default the site's own sender)."""
    return settings.REPORT_EMAIL
