"""The board's heartbeat, before and after ticks were folded into writes and saves were spaced to
one every 10 s at play (static/js/sync.js), replayed through the API on a held clock: a typical
solve counts the same time each way: all of it, the page's hidden 30 s too (a silence counts up to
HEARTBEAT_GAP_SECONDS, minutes).

Before, the board sent a tick every BEAT seconds while time counted, whatever else it sent; now a
tick goes only after BEAT seconds without a write (a save, a submit or a beat), since every write
is a sign of life to the server's clock (play/attempts.py). tests/js/sync.test.mjs holds the
board to that rule; here the two patterns it makes meet the server.
"""

from __future__ import annotations

import datetime
import itertools
import random

import pytest
import time_machine
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from puzzles.models import Solve

from .factories import EASY_GIVENS, EASY_SOLUTION, post, url

pytestmark = pytest.mark.django_db

BEAT = 10.0  # sync.js's BEAT_MS, in seconds
SAVE_DELAY = 0.6  # a save goes this long after the move (sync.js's debounce)
SAVE_EVERY = 10.0  # sync.js's SAVE_EVERY_MS, in seconds
HIDDEN_AT, HIDDEN_FOR = 20, 30.0  # the tab is hidden 30 s before the 21st digit

# (seconds since the page opened, "open" | "tick" | "close" | "save" | "submit"); a save carrying
# several digits is "save*N".
Request = tuple[float, str]


def typical_solve(seed: int = 5) -> tuple[list[Request], tuple[float, float]]:
    """The writes of a solve without its ticks: an open, a save after each digit (the last one a
    save and the submit at once), and a stretch hidden (a close, then an open); and that stretch."""
    rng = random.Random(seed)
    writes: list[Request] = [(0.0, "open")]
    now, hidden = 0.0, (0.0, 0.0)
    empty = [cell for cell, given in enumerate(EASY_GIVENS) if given == "0"]
    for k in range(len(empty)):
        now += 2 + 8 * rng.random() ** 2 + (10 if rng.random() < 0.1 else 0)  # thinking
        if k == HIDDEN_AT:
            hidden = (now, now + HIDDEN_FOR)
            writes += [(now, "close"), (now + HIDDEN_FOR, "open")]
            now += HIDDEN_FOR + 1
        if k == len(empty) - 1:
            writes += [(now, "save"), (now + 0.05, "submit")]
        else:
            writes.append((now + SAVE_DELAY, "save"))
    return writes, hidden


def with_ticks(writes: list[Request], hidden: tuple[float, float], *, folded: bool) -> list[Request]:
    """The writes with the ticks the board sends while visible: every BEAT s from the open
    (before), or BEAT s after the last write (now)."""
    end = writes[-1][0]
    visible = lambda t: not hidden[0] <= t <= hidden[1]  # noqa: E731
    if not folded:
        ticks = [BEAT * n for n in range(1, int(end / BEAT) + 1)]
        return sorted(writes + [(t, "tick") for t in ticks if visible(t) and t < end])
    out: list[Request] = []
    for (t, kind), (after, _) in zip(writes, writes[1:] + [(end, "")]):
        out.append((t, kind))
        tick = t + BEAT
        while kind != "close" and tick < after:
            out.append((tick, "tick"))
            tick += BEAT
    return out


def spaced(writes: list[Request]) -> list[Request]:
    """The same solve with saves at most every SAVE_EVERY s (sync.js's saveDelay): the first digit
    after a quiet spell is saved SAVE_DELAY s after it, the ones after wait for the next save; a
    close and the submit take what is waiting with them."""
    out: list[Request] = []
    last_save, waiting, since, due = -1e9, 0, 0.0, 0.0

    def flush(at: float) -> None:
        nonlocal last_save, waiting
        if waiting:
            out.append((at, f"save*{waiting}"))
            last_save, waiting = at, 0

    for at, kind in writes:
        if kind == "save" and waiting and due <= at - SAVE_DELAY:
            flush(due)
        if kind == "save":
            entered = at - SAVE_DELAY  # when the digit was typed (the last one's submit flushes it)
            since = entered if not waiting else since
            waiting += 1
            due = min(max(entered + SAVE_DELAY, last_save + SAVE_EVERY), since + SAVE_EVERY)
        elif kind in ("close", "submit"):
            if waiting and due < at:
                flush(due)
            flush(at if kind == "close" else at - 0.05)
            out.append((at, kind))
        else:
            if waiting and due <= at:
                flush(due)
            out.append((at, kind))
    return out


def counted(requests: list[Request], hidden: tuple[float, float]) -> float:
    """The time the server counts for a solve's requests: all of it but the hidden stretch's part
    past the limit (HEARTBEAT_GAP_SECONDS), given a sign of life at most that far apart elsewhere."""
    return requests[-1][0] - max(0.0, hidden[1] - hidden[0] - settings.HEARTBEAT_GAP_SECONDS)


def replay(client: Client, daily, requests: list[Request]) -> float:
    """Send `requests` at their moments on a held clock; the solve's time, as the server counted it."""
    cells = [cell for cell, given in enumerate(EASY_GIVENS) if given == "0"]
    digits, version, placed = ["0"] * 81, 0, 0
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        for at, kind in requests:
            clock.move_to(start + datetime.timedelta(seconds=at))
            if kind in ("open", "tick", "close"):
                answer = post(client, url(daily, "beat"), {"phase": kind})
            else:
                for _ in range(int(kind.partition("*")[2] or 1) if kind.startswith("save") else 0):
                    digits[cells[placed]] = EASY_SOLUTION[cells[placed]]
                    placed += 1
                kind = kind.partition("*")[0]
                body = {"version": version, "digits": "".join(digits)}
                if kind == "save":
                    body |= {"corner": [""] * 81, "centre": [""] * 81}
                answer = post(client, url(daily, kind), body)
                version += 1
            assert answer.status_code == 200, (at, kind, answer.content)
    user = User.objects.get(pk=client.session["_auth_user_id"])
    return Solve.objects.get(user=user, daily=daily).seconds


def test_a_typical_solve_counts_the_same_time_with_ticks_folded_into_writes(daily):
    writes, hidden = typical_solve()
    before = with_ticks(writes, hidden, folded=False)
    after = with_ticks(writes, hidden, folded=True)
    times = []
    for name, requests in (("before", before), ("after", after)):
        client = Client()
        client.force_login(User.objects.create_user(name))
        times.append(replay(client, daily, requests))
    expected = counted(writes, hidden)
    assert abs(times[0] - times[1]) <= 1 and abs(times[1] - expected) <= 1, (times, expected)
    ticks = [sum(kind == "tick" for _, kind in requests) for requests in (before, after)]
    assert ticks[1] < ticks[0] / 2, ticks  # and far fewer requests


def test_a_typical_solve_counts_the_same_time_with_saves_every_ten_seconds(daily):
    writes, hidden = typical_solve()
    folded = with_ticks(writes, hidden, folded=True)
    now = with_ticks(spaced(writes), hidden, folded=True)
    saves = [kind for _, kind in now if kind.startswith("save")]
    assert sum(int(kind.partition("*")[2]) for kind in saves) == len(EASY_GIVENS) - sum(g != "0" for g in EASY_GIVENS)
    gaps = [b - a for (a, _), (b, kind) in itertools.pairwise(now) if kind.startswith("save") or kind == "tick"]
    assert max(gaps) <= BEAT + 1e-9, max(gaps)  # never longer than a beat between signs of life
    client = Client()
    client.force_login(User.objects.create_user("spaced"))
    expected = counted(writes, hidden)
    assert abs(replay(client, daily, now) - expected) <= 1, expected
    assert len(now) < 0.6 * len(folded), (len(now), len(folded))  # and far fewer requests


def test_without_the_ticks_the_same_writes_would_lose_time(daily):
    """The control: the replay can tell. A solve's writes alone leave silences past the server's
    limit (HEARTBEAT_GAP_SECONDS), which the folded ticks fill."""
    writes, hidden = typical_solve(seed=6)
    slow = [(at * 20, kind) for at, kind in writes]  # a slow player: a minute or more for most digits
    client = Client()
    client.force_login(User.objects.create_user("slow"))
    hidden_slow = (hidden[0] * 20, hidden[1] * 20)
    expected = counted(slow, hidden_slow)
    assert replay(client, daily, slow) < expected - 10
    client = Client()
    client.force_login(User.objects.create_user("slow-ticking"))
    assert abs(replay(client, daily, with_ticks(slow, hidden_slow, folded=True)) - expected) <= 1
