"""The ranking rule in words: why a solve is not ranked, said to its player ("you") or about
someone else's solve ("they", on a league's board), and how ranking works. One table, so the
leaderboard, the results page, the leagues and the admin never word a reason two ways.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from ..durations import format_duration
from ..models import Solve
from . import copies, ranking
from .ranking import (
    CHECKING,
    DISQUALIFIED,
    HELD,
    HELPED,
    IN_SUBMIT,
    LARGE_WRITES,
    LATE,
    MIN_MEDIAN_GAP_SECONDS,
    NEW_ACCOUNT,
    NO_RECORD,
    TOO_FAST,
    UNCOUNTED,
    UNCOUNTED_DIGITS,
    large_write_digits,
)


def _you() -> dict[str, str]:
    """To the player, after "Not on the leaderboard:"; built when asked, with the numbers in force."""
    return {
        LATE: "you played it after its day",
        HELPED: "you used hints or checks",
        NO_RECORD: (
            "the server has no record of your moves, or only part of it (an old page or a script, or a puzzle "
            f"left unsolved for over {settings.ABANDONED_RECORD_DAYS} days, whose record is deleted), so the time "
            "cannot be checked"
        ),
        # The fact alone: what to do about it depends on the solve's other reasons and on the
        # player's address (verify_step).
        NEW_ACCOUNT: (
            f"your account was under {settings.RANKED_ACCOUNT_MIN_HOURS:g} hours old when you solved it, "
            "and its email address is not verified"
        ),
        IN_SUBMIT: "most of the digits arrived with the final submit, not as they were placed",
        LARGE_WRITES: (
            f"most of the digits arrived in saves of over {large_write_digits()} digits at once "
            "(as after playing offline), not as they were placed"
        ),
        UNCOUNTED: (
            f"over {UNCOUNTED_DIGITS} digits were placed while the page said it was closed or sent no sign of "
            "life, so the clock did not count the time they took"
        ),
        TOO_FAST: (
            f"digits went in faster than a person enters them (under {MIN_MEDIAN_GAP_SECONDS:g} s apart "
            "for most of the solve)"
        ),
        DISQUALIFIED: "it was disqualified after review",
        CHECKING: "your time is still being checked",
    }


# About someone else's solve, in a few words (a league's board).
THEY = {
    LATE: "late",
    HELPED: "with hints or checks",
    NO_RECORD: "not ranked: no record of the moves",
    NEW_ACCOUNT: "not ranked: new account",
    IN_SUBMIT: "not ranked: digits sent at the end",
    LARGE_WRITES: "not ranked: digits sent in bulk",
    UNCOUNTED: "not ranked: played off the clock",
    TOO_FAST: "not ranked: faster than a person",
    DISQUALIFIED: "disqualified",
    HELD: "held for review",
    CHECKING: "being checked",
}


@dataclass(frozen=True)
class Step:
    """What a player can do next, as a sentence around one link: `before`, the link's words, `after`."""

    before: str
    link: str
    after: str
    href: str


# What verifying the address does, said after the step (verify_step): for a solve whose only
# reason is the new account's, for a late one (archive solves are rated, never ranked), and for
# every later solve while the account is new.
RANKS_THIS = ", and this solve is ranked."
RATES_THIS = ", and this solve counts towards your rating."
RANKS_YOURS = ", to have your solves ranked and rated."


def verify_step(pending: str | None, then: str, href: str) -> Step:
    """The step that verifies a player's address, true for where they are: an address added and
    waiting for its link (`pending`) is sent again, not added again; `href` is the email page."""
    if pending:
        return Step(f"Open the link we sent to {pending}, or ", "send it again", then, href)
    return Step("", "Add your email address", f" and open the link we send to it{then}", href)


def verify_then(codes: list[str]) -> str:
    """What verifying the address does for a solve with these codes (NEW_ACCOUNT among them)."""
    if codes == [NEW_ACCOUNT]:
        return RANKS_THIS
    if codes == [LATE, NEW_ACCOUNT]:
        return RATES_THIS
    return RANKS_YOURS  # something else keeps this solve off: only the next ones gain


# After a solve's reasons, when the day is all that keeps it off the leaderboard.
LATE_BUT_RATED = "It counts towards your rating all the same."

# The stats page's rating card, for a player without a rating (results/unrated.py says which).
GUEST_UNRATED = "You play as a guest, and a guest has no rating."
RATING_ON_ITS_WAY = "Your first rated solve is in: your rating shows here within a few minutes."
NO_RATING_YET = "You have no rating yet: solve a puzzle without hints or checks to get one."


def sign_up_step(href: str) -> Step:
    """A guest's step to a rating: the sign-up page at `href`."""
    return Step("", "Sign up", " to get one.", href)


def last_solve_unrated(solve: Solve) -> str:
    """Why a player without a rating has none, said of their last solve (solve.daily read)."""
    codes = ranking.not_rated_codes(solve)
    day = solve.daily.date
    which = f"Your last solve, the {solve.daily.difficulty} puzzle of {day.day} {day:%B %Y},"
    if not codes:
        return RATING_ON_ITS_WAY
    if codes == [CHECKING]:
        return f"You have no rating yet. {which} is still being checked; if it is rated, your rating shows here soon."
    why = "; ".join(held_because(solve) if code == HELD else reason(code) for code in codes)
    said = f"You have no rating yet. {which} is not rated: {why}."
    if HELPED in codes:
        said += " Solve one without hints or checks to get a rating."
    return said


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
    """Why a held solve waits for review, for its player (Solve.held's code; a solve held before
    the codes were kept is said by its floor)."""
    code = solve.held or ranking.floor_of(solve)[1]
    if code == ranking.UNDER_DAY:
        share = f"{settings.DAY_FLOOR_FRACTION:.0%}"
        return f"it was under {share} of the day's {nth_fastest()} time, so it is held until an admin checks it"
    if code == ranking.OFF_CLOCK:
        return (
            f"the clock counted under {wall_share()} of the time from your first move to the solve (a pause counts "
            f"only up to {pause_limit()}), so it is held until an admin checks it"
        )
    if code == ranking.PAST_HISTORY:
        return "it was far faster than your own recent solves, so it is held until an admin checks it"
    if code == ranking.PAST_FIELD:
        return f"your rating is still new and it was {field_bound()}, so it is held until an admin checks it"
    if code == ranking.COPY:
        return "its record of play matches another solve's, so it is held until an admin checks it"
    if code == ranking.UNDER_REVIEW:
        return (
            "it was the day's fastest time while another of your recent solves waits for an admin's check, "
            "so it is held until an admin checks it"
        )
    if code == ranking.FIRST_MONTH:
        return (
            f"it was the day's fastest time in your first {settings.RANK_ONE_SEASON_DAYS} days of rated play, "
            "so it is held until an admin checks it"
        )
    floor, _ = ranking.floor_of(solve)
    return f"it was under {format_duration(floor)}, so it is held until an admin checks it"


def held_for_admin(code: str) -> str:
    """Why a solve is held, for an admin (the review queue), by Solve.held's code, with the numbers in force."""
    return {
        ranking.UNDER_FLOOR: "under the difficulty's floor",
        ranking.UNDER_DAY: f"under the day's floor (a share of the established players' {nth_fastest()} time)",
        ranking.OFF_CLOCK: (
            f"its clock is under {wall_share()} of the time from its first move to the solve, and it would rank "
            f"in the day's top {settings.WALL_HOLD_TOP}: play the clock did not count"
        ),
        ranking.PAST_HISTORY: (
            f"its time implies a performance over {settings.HOLD_DEVIATIONS:g} of the player's rating deviations "
            f"and {settings.HOLD_MIN_POINTS:g} points above their rating (the lower of now and "
            f"{settings.HOLD_HISTORY_DAYS} days before; a puzzle nobody had solved at its difficulty's expected rating)"
        ),
        ranking.PAST_FIELD: f"a provisional player {field_bound()}",
        ranking.UNDER_REVIEW: (
            f"the day's fastest time, by a player with another solve of the last {settings.HOLD_HISTORY_DAYS} days "
            "held and not approved"
        ),
        ranking.FIRST_MONTH: (
            f"the day's fastest time, by a player whose first rated solve is under {settings.RANK_ONE_SEASON_DAYS} "
            "days old"
        ),
        ranking.COPY: (
            f"its record of play repeats an earlier solve's of this puzzle (below, side by side): {copy_rule()}"
        ),
    }.get(code, code)


def wall_share() -> str:
    """The share of a solve's wall time its clock must reach not to be held (CLOCK_WALL_RATIO)."""
    named = {0.5: "half", 0.75: "three quarters"}
    return named.get(settings.CLOCK_WALL_RATIO, f"{settings.CLOCK_WALL_RATIO:.0%}")


def pause_limit() -> str:
    """The longest silence the clock counts (HEARTBEAT_GAP_SECONDS), in words: "3 minutes", "45 s"."""
    seconds = settings.HEARTBEAT_GAP_SECONDS
    if seconds % 60:
        return f"{seconds} s"
    return "1 minute" if seconds == 60 else f"{seconds // 60} minutes"


def nth_fastest() -> str:
    """Which of the established players' times the day's floor is a share of (DAY_FLOOR_RANK)."""
    rank = settings.DAY_FLOOR_RANK
    return {1: "fastest", 2: "second-fastest", 3: "third-fastest"}.get(rank, f"{rank}th-fastest")


def field_bound() -> str:
    """The field's rule for a provisional player's solve (FIELD_MARGIN), as words after "it was"."""
    if settings.FIELD_MARGIN == 1:
        return "faster than the day's fastest time by an established player"
    return f"under {settings.FIELD_MARGIN:.0%} of the day's fastest time by an established player"


def copy_rule() -> str:
    """When a record repeats another (copies.same_play), in words with its numbers."""
    return (
        "the same digits in the same cells in the same order, for at least half of the solve, and "
        f"{copies.COPY_SHARE:.0%} of them within {copies.COPY_SECONDS:g} s of the other's times (stretched to "
        "the same length)"
    )


def rules(difficulty: str) -> list[str]:
    """The ranking rules as the leaderboard writes them, with the numbers in force."""
    floor = settings.LEADERBOARD_FLOOR_SECONDS.get(difficulty, 0)
    return [
        "Only solves made on the puzzle's day, without hints or checks, by players with an account are ranked.",
        "A solve has one time, the clock's, as the board, the results, the leaderboard and the replay show it: "
        "time counts between the page's signs of life (its heartbeats, its saves, pausing and reopening it), "
        f"each silence, a pause too, counting up to {pause_limit()}.",
        "The record of play must show the grid filled over time: a solve is not ranked when most of its "
        f"digits arrive in the final submit, or in saves of over {large_write_digits()} digits at once, or when "
        f"its digits go in under {MIN_MEDIAN_GAP_SECONDS:g} s apart for most of the solve, or when over "
        f"{UNCOUNTED_DIGITS} of them were placed while the clock did not count.",
        f"A solve by an account under {settings.RANKED_ACCOUNT_MIN_HOURS:g} hours old is ranked once the "
        "account's email address is verified.",
        f"A solve under {format_duration(floor)} on this puzzle, or, once the day has {settings.DAY_FLOOR_MIN_SOLVES} "
        f"ranked solves by established players, under {settings.DAY_FLOOR_FRACTION:.0%} of the {nth_fastest()} of "
        "their times, is "
        "held until an admin has checked it; an admin may also disqualify a solve.",
        f"A solve in the day's top {settings.WALL_HOLD_TOP} whose clock is under {wall_share()} of the time from its "
        "first move to the solve is held until an admin has checked it.",
        "A solve far faster than its player's own rating allows is held too: one whose time implies a "
        f"performance more than {settings.HOLD_DEVIATIONS:g} of the player's rating deviations, and at least "
        f"{settings.HOLD_MIN_POINTS:g} points, above their rating (the lower of their rating now and "
        f"{settings.HOLD_HISTORY_DAYS} days before; a puzzle nobody has solved yet counts at its difficulty's "
        "expected rating).",
        f"A rating is new until it rests on {settings.ESTABLISHED_SOLVES} solves of dailies made on their day, "
        f"on {settings.ESTABLISHED_DAYS} different days, and on at least as many of those as of archive solves; "
        f"until then a solve {field_bound()} is held.",
        f"The day's fastest time by a player whose first rated solve is under {settings.RANK_ONE_SEASON_DAYS} "
        f"days old, or who has another solve of the last {settings.HOLD_HISTORY_DAYS} days waiting for review or "
        "disqualified, is held until an admin has checked it.",
        "Archive solves are never ranked, but they move a rating, so they pass the same floors and holds, "
        "and a held one moves nothing until an admin approves it.",
        "A solve whose record of play repeats an earlier solve's of the same puzzle is held until an admin has "
        f"checked it: {copy_rule()}.",
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
