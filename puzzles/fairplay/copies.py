"""Copies: a solve whose record of play repeats an earlier solve's of the same puzzle is held for
review (ranking.COPY), the earlier one left alone. judge.held_reason asks here after the floors;
the review queue (review.py) shows the two side by side.

A replay (replays.py) shows every move on its player's clock, so a second account can play it
again move for move with its timing, and tie. What it repeats is the placement sequence: each
digit placed, its cell and digit, in order, with its time on the clock since the first
(judge.placements). It is kept when the solve is judged (models/play.py's Placements, packed), with
two fingerprints of its order, a hash of each half's (cell, digit) pairs (each indexed with the
daily): the candidates are the earlier solves of the same
daily (a puzzle is one daily's, its archive solves are that daily's too) sharing either half, one
query whatever the number of solves. Either half, not the whole: a copier who swaps a few
placements to dodge one hash still shares the other half's unless they touch both; one who
reorders everything (any order completes a grid) dodges any fingerprint of order, and has then
made up a record of their own, which only the other rules judge.

A same order is not a copy: two players who fill an easy grid in the same order (row by row, or
the single after single a logical solver finds) share it. The timing decides. The candidate's
offsets are stretched to the solve's own span (the scale, within COPY_SCALE); a copy has
COPY_SHARE of its placements within COPY_SECONDS of the stretched original's, counted over the
longer of the two sequences. The tolerance is what a copier's replay adds, none of it growing
along the solve once the scale has taken up a steady drift: the replay's own rounding (a
millisecond); the network (a move's time is its write's arrival less the board's age, so a slow
write shifts its moves, by tenths of a second on a poor connection); a script's timers (tens of
milliseconds, up to a second in a background tab; the time a sleep adds to every move is a drift
the scale absorbs, as is a copy played a few percent faster to rank ahead rather than tie); and a
person copying by hand from the replay beside the board, a reaction each time (half a second to a
second). The share lets a few writes that were late (a network hiccup) stray. Simulated
(each placement's gap an exponential of the player's pace, as bench/cheatdays draws its honest
players, all in the same order), no two honest players of 45 placements matched in 5,000 pairs,
while copies with up to 0.3 s of jitter, a speed-up of up to 30%, a script's drift and a person's
reactions (mean 0.8 s) matched in over 90% of cases (the last) and every case (the rest). The
limit: two people typing a grid solved elsewhere in reading order, each at a steady second a digit,
differ by little more than jitter, and about one pair in twenty matches: the later is held for
review, and the admin sees both.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence

from django.db.models import F, Q
from django.db.models.functions import Abs

from ..models import Placements, Solve
from .ranking import COPY

# A placement: (cell 0-80, digit 1-9, seconds on the clock since the attempt started).
Placement = tuple[int, int, float]

COPY_MIN_PLACEMENTS = 20  # fewer, and its halves are too short to tell two orders apart
COPY_SECONDS = 1.0
COPY_SHARE = 0.9
COPY_SCALE = (0.5, 2.0)  # stretched further, any two regular records look alike
COPY_CANDIDATES = 20  # the earlier solves sharing a half compared, nearest in time first

_PLACEMENT = struct.Struct(">BBI")  # cell, digit, milliseconds


def pack(placements: Sequence[Placement]) -> bytes:
    """The placements in their stored form (Placements.placements): 6 bytes each."""
    return b"".join(_PLACEMENT.pack(cell, digit, round(seconds * 1000)) for cell, digit, seconds in placements)


def unpack(data: bytes | memoryview) -> list[Placement]:
    """The placements of their stored form (pack's inverse, to the millisecond)."""
    return [(cell, digit, ms / 1000) for cell, digit, ms in _PLACEMENT.iter_unpack(bytes(data))]


def _hash(placements: Sequence[Placement]) -> str:
    pairs = bytes(value for cell, digit, _ in placements for value in (cell, digit))
    return hashlib.blake2b(pairs, digest_size=8).hexdigest()


def order_keys(placements: Sequence[Placement]) -> tuple[str, str]:
    """The fingerprints of the order of the first and the second half of the placements ("" for
    a record under COPY_MIN_PLACEMENTS)."""
    if len(placements) < COPY_MIN_PLACEMENTS:
        return "", ""
    half = len(placements) // 2
    return _hash(placements[:half]), _hash(placements[half:])


def keep(solve: Solve, placements: Sequence[Placement]) -> None:
    """Store the solve's placements and their fingerprints (models/play.py's Placements), in
    place of any kept before: judging it again keeps what its record shows now."""
    head, tail = order_keys(placements)
    row = Placements(solve=solve, daily_id=solve.daily_id, head=head, tail=tail, placements=pack(placements))
    fields = ["head", "tail", "placements"]
    Placements.objects.bulk_create([row], update_conflicts=True, unique_fields=["solve"], update_fields=fields)
    solve.placed = row  # kept on the solve for held_reason, which judges it next


def placements_of(solve: Solve) -> Placements | None:
    """The solve's stored placements (the one kept on it, else a query), None for a solve judged
    before they were kept."""
    try:
        return solve.placed
    except Placements.DoesNotExist:
        return None


def offsets(placements: Sequence[Placement]) -> list[float]:
    """Each placement's time since the first."""
    return [seconds - placements[0][2] for _, _, seconds in placements] if placements else []


def same_play(mine: Sequence[Placement], theirs: Sequence[Placement]) -> bool:
    """Whether `mine` repeats `theirs` (the module's docstring has the rule): COPY_SHARE of the
    placements, by position, within COPY_SECONDS of theirs stretched to my span."""
    count = min(len(mine), len(theirs))
    if count < COPY_MIN_PLACEMENTS:
        return False
    mine_at, theirs_at = offsets(mine[:count]), offsets(theirs[:count])
    if theirs_at[-1] <= 0:
        return False
    scale = mine_at[-1] / theirs_at[-1]
    if not COPY_SCALE[0] <= scale <= COPY_SCALE[1]:
        return False
    close = sum(1 for a, b in zip(mine_at, theirs_at) if abs(a - scale * b) <= COPY_SECONDS)
    return close >= COPY_SHARE * max(len(mine), len(theirs))


def copied_from(solve: Solve) -> Solve | None:
    """The earlier solve of the same daily whose record this one repeats (same_play), or None:
    one query, through the fingerprints' indexes, over at most COPY_CANDIDATES of them, those
    nearest its time first (a copy's time is its original's, give or take its first move)."""
    kept = placements_of(solve)
    if kept is None or not kept.head:
        return None
    earlier = Q(solve__solved_at__lt=solve.solved_at) | Q(solve__solved_at=solve.solved_at, solve_id__lt=solve.pk)
    candidates = (
        Placements.objects.filter(Q(head=kept.head) | Q(tail=kept.tail), earlier, daily_id=solve.daily_id)
        .exclude(solve_id=solve.pk)
        .select_related("solve")
        .order_by(Abs(F("solve__seconds") - solve.seconds), "solve_id")[:COPY_CANDIDATES]
    )
    mine = unpack(kept.placements)
    return next((other.solve for other in candidates if same_play(mine, unpack(other.placements))), None)


def held_as_copy(solve: Solve) -> str:
    """ranking.COPY when the solve repeats an earlier one's record (copied_from), else ""."""
    return COPY if copied_from(solve) is not None else ""
