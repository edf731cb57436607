"""One time per solve (play/attempts.py's clock, fairplay/judge.py, fairplay/replays.py): the board,
the ranked time and the replay read the same clock, and digits placed off it earn no rank.

Through the API, as the board and the review's bots play, with the server's clock held still.
"""

from __future__ import annotations

import datetime
import random

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from puzzles.fairplay import ranking
from puzzles.fairplay.replays import timeline_of
from puzzles.models import Solve

from .factories import EASY_SOLUTION, judge_follow_up, post, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def clock():
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        yield traveller


@pytest.fixture
def bot(client: Client) -> Client:
    """A player old enough to be ranked, logged in."""
    joined = timezone.now() - datetime.timedelta(days=3)
    client.force_login(User.objects.create_user("ada", date_joined=joined))
    return client


class Board:
    """A page of the puzzle: its beats and its writes, each move aged as the board ages them."""

    def __init__(self, client: Client, daily) -> None:
        self.client, self.daily, self.version = client, daily, 0
        self.digits = ["0"] * 81
        self.empty = [cell for cell, given in enumerate(daily.puzzle.givens) if given == "0"]

    def beat(self, phase: str) -> None:
        assert post(self.client, url(self.daily, "beat"), {"phase": phase}).status_code == 200

    def ticks(self, clock, seconds: float, every: float = 4.0) -> None:
        for _ in range(int(seconds / every)):
            clock.shift(every)
            self.beat("tick")

    @property
    def left(self) -> int:
        return sum(self.digits[cell] == "0" for cell in self.empty)

    def type(
        self,
        clock,
        count: int,
        gap: float,
        per_save: int = 3,
        send_after: float = 0.0,
        hidden: bool = False,
        reopen: bool = False,
    ) -> None:
        """Place the next `count` digits `gap` s apart, saved `per_save` at a time `send_after` s after
        the last of them (its moves aged by the time since each was made); `hidden`: a "close" just
        after each save, so the page says it is closed while the next digits are typed; `reopen`: an
        "open" just before each save, so the page says it opened only once they were typed."""
        cells = [cell for cell in self.empty if self.digits[cell] == "0"][:count]
        for start in range(0, len(cells), per_save):
            batch = cells[start : start + per_save]
            clock.shift(gap * len(batch) + send_after)
            ages = [int((gap * (len(batch) - 1 - n) + send_after) * 1000) for n in range(len(batch))]
            for cell in batch:
                self.digits[cell] = EASY_SOLUTION[cell]
            moves = [[age, "d", [[cell, int(EASY_SOLUTION[cell])]]] for age, cell in zip(ages, batch)]
            last = not [cell for cell in self.empty if self.digits[cell] == "0"]
            body = {"version": self.version, "digits": "".join(self.digits), "moves": moves}
            if not last:
                body |= {"corner": [""] * 81, "centre": [""] * 81}
            if reopen:
                self.beat("open")
            answer = post(self.client, url(self.daily, "submit" if last else "save"), body)
            assert answer.status_code == 200, answer.content
            self.version += 1
            if hidden and not last:
                self.beat("close")


def the_times(solve: Solve) -> tuple[float, float, float]:
    """The board's clock, the ranked time and the replay's end, in seconds."""
    return solve.seconds, solve.rank_seconds, timeline_of(solve).end_ms / 1000


def test_an_honest_solve_has_one_time_and_is_ranked(bot, daily, clock):
    board = Board(bot, daily)
    board.beat("open")
    board.type(clock, len(board.empty), gap=2.0)
    [solve] = judge_follow_up(daily)
    assert the_times(solve) == pytest.approx((98.0, 98.0, 98.0), abs=0.01)
    assert solve.unranked == "" and Solve.objects.ranked().exists()


def test_a_tab_that_crashed_without_its_close_counts_the_silence_up_to_the_limit_everywhere(
    bot, daily, clock, settings
):
    board = Board(bot, daily)
    board.beat("open")
    board.type(clock, 24, gap=2.0)  # 48 s, then the tab crashed: no close
    clock.shift(settings.HEARTBEAT_GAP_SECONDS + 300)
    board.beat("open")  # the player opened it again
    board.type(clock, len(board.empty) - 24, gap=2.0)  # 50 s more
    seconds, ranked, replay = the_times(Solve.objects.get())
    expected = 98.0 + settings.HEARTBEAT_GAP_SECONDS
    assert seconds == ranked == pytest.approx(replay, abs=0.001) == pytest.approx(expected, abs=0.01)


def test_digits_typed_while_the_page_said_it_was_closed_then_saved_after_an_open_count_in_full(bot, daily, clock):
    # The review's bot (1): some digits typed in the open, then a close, digits typed "closed", an
    # open and their save, its moves aged back into the closed stretch. The open counted nothing
    # and the moves were clamped to it: 57 s counted for 102 s, ranked. Every second counts now.
    board = Board(bot, daily)
    board.beat("open")
    start = timezone.now()
    while board.left:
        board.type(clock, min(6, board.left), gap=1.5)
        if board.left > 3:
            board.beat("close")
            board.type(clock, 3, gap=5.0, reopen=True)  # 15 s "closed", then an open and the save
    [solve] = judge_follow_up(daily)
    wall = (timezone.now() - start).total_seconds()
    assert wall > 100
    assert the_times(solve) == pytest.approx((wall, wall, wall), abs=0.01)
    assert solve.unranked == "" and not solve.flagged  # the judge has nothing to say: the clock saw it all


def test_a_client_that_never_beats_has_minute_long_silences_between_saves_counted_in_full(bot, daily, clock):
    # The review's bot (2): no heartbeat at all, a save every 60 to 90 s, each with the digits typed
    # over the silence before it. Each silence counted 30 s: 128 s counted for 247 s, ranked.
    rng = random.Random(43)
    board = Board(bot, daily)
    board.type(clock, 1, gap=1.0, per_save=1)  # the first save starts the attempt: the clock from here
    start = timezone.now()
    while board.left:
        board.type(clock, min(5, board.left), gap=rng.uniform(12.0, 18.0), per_save=5)
    [solve] = judge_follow_up(daily)
    wall = (timezone.now() - start).total_seconds()
    assert wall > 600
    assert the_times(solve) == pytest.approx((wall, wall, wall), abs=0.01)
    assert solve.unranked == ""  # every move aged into a counted silence is on the clock


def test_typing_while_the_page_says_it_is_closed_counts_on_the_clock(bot, daily, clock):
    # The review's bot: the page "open" 84 s typing nothing, then every digit while "closed".
    board = Board(bot, daily)
    board.beat("open")
    board.ticks(clock, 84)
    board.beat("close")
    board.type(clock, len(board.empty), gap=1.25, hidden=True)  # 61.25 s of typing
    solve = Solve.objects.get()
    assert the_times(solve) == pytest.approx((145.25, 145.25, 145.25), abs=0.01)


def test_digits_placed_off_the_clock_are_not_ranked_and_say_why(bot, daily, clock, settings):
    # The same bot, its saves three times the limit apart with the moves aged back into the
    # silence between: only the last limit's worth of each silence counted, so most are off it.
    gap = settings.HEARTBEAT_GAP_SECONDS / 2
    board = Board(bot, daily)
    board.beat("open")
    board.ticks(clock, 84)
    board.beat("close")
    board.type(clock, len(board.empty), gap=gap, per_save=5, send_after=gap, hidden=True)
    [solve] = judge_follow_up(daily)
    assert solve.unranked == ranking.UNCOUNTED and not Solve.objects.ranked().exists()
    assert the_times(solve)[0] == the_times(solve)[1] == pytest.approx(84 + 10 * settings.HEARTBEAT_GAP_SECONDS)
