"""Cheat bench: the attacks of issue 15 against a live site, and whether each one ranks.

    python bench/cheat.py [--quick] [--port 8765]
    python bench/cheat.py --days 14 [--honest 50] [--warm-up 30] [--seed 1]

With --days, no live site: simulated days of bots against honest players of known skill
(bench/cheatdays/, whose docstring says how); without it, the live attacks below.

It starts gunicorn with the site's own settings (`-c python:sudokusite.gunicorn`, production
settings less HTTPS, as bench/load.py) on loopback, over a fresh database of its own
(`cheatbench` on the local PostgreSQL, BENCH_CHEAT_DATABASE_URL) and Redis databases 14 (broker)
and 15 (cache), migrated and emptied, with today's easy and medium dailies. Then it runs every
attack at once, each in its own thread, with plain HTTP (urllib, cookies and CSRF as a browser
has them), and prints per attack what the site recorded and whether it ranks:

1. direct submit: open the page, submit the solution at once;
2. one heartbeat, wait just past the easy floor, submit, the moves made up to look spread out;
3. five fresh accounts, signed up through the sign-up form, each solving the medium at a
   person's pace (a digit every 1.2 s) with a perfect record;
4. a bot entering one digit every 0.3 s, saving each, with heartbeats;
5. the same bot at a person's pace: a digit every 1 to 2 s, saved 0.6 s after it, heartbeats
   every 10 s;
6. the same, with every heartbeat blocked and a 40 s thinking pause every 12 digits (until
   issue 43 the server's clock dropped pauses over 30 s; it now counts each up to 3 minutes).

Attacks 1, 2, 4, 5 and 6 play on established accounts (made in the database two days old and
logged in through the log-in form), so that only the record of play can stop them. The target:
none of the first four ranks; the last two rank only with the time they really spent.

A bot at a person's pace has to really wait: a full run takes about four minutes. `--quick`
scales every wait by 0.1 for a smoke run, which changes the verdicts of 3, 5 and 6 (a digit
every 0.1 to 0.2 s is faster than a person).
"""

from __future__ import annotations

import argparse
import datetime
import http.cookiejar
import json
import os
import random
import re
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    daily_path,
    gunicorn,
    make_puzzles,
    markdown_header,
    markdown_row,
    reset_site,
    setup_site,
    stop,
)

DB_URL = os.environ.get("BENCH_CHEAT_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cheatbench")
BROKER_URL = os.environ.get("BENCH_CHEAT_BROKER_URL", "redis://127.0.0.1:6379/14")
CACHE_URL = os.environ.get("BENCH_CHEAT_CACHE_URL", "redis://127.0.0.1:6379/15")
PASSWORD = "a long cheat bench password 7"
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
SAVE_DELAY = 0.6  # the board's debounce (static/js/sync.js)
BEAT_EVERY = 10.0  # the board's heartbeat while visible


# --- a browser without the page: cookies, CSRF, the board's JSON API ----------------------------


class Client:
    def __init__(self, base: str) -> None:
        self.base = base
        # The site's cookies are Secure (production settings); here it is plain HTTP on loopback.
        self.jar = http.cookiejar.CookieJar(http.cookiejar.DefaultCookiePolicy(secure_protocols=("https", "http")))
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next((c.value or "" for c in self.jar if c.name == name), "")

    def request(self, method: str, path: str, body: bytes | None = None, kind: str = "") -> tuple[int, str]:
        headers = {"X-CSRFToken": self.cookie("csrftoken"), "Referer": self.base + path}
        if kind:
            headers["Content-Type"] = kind
        req = urllib.request.Request(self.base + path, data=body, method=method, headers=headers)
        try:
            with self.opener.open(req, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def form(self, path: str, fields: dict[str, str]) -> int:
        """Fill in a form as a browser does: GET it for its CSRF token, POST it (redirects followed)."""
        status, page = self.request("GET", path)
        token = CSRF_INPUT.search(page)
        if status != 200 or not token:
            return status
        body = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token.group(1)}).encode()
        return self.request("POST", path, body, "application/x-www-form-urlencoded")[0]

    def api(self, daily: Daily, name: str, payload: dict) -> tuple[int, dict]:
        body = json.dumps(payload).encode()
        status, text = self.request("POST", f"/api{daily.path}{name}/", body, "application/json")
        try:
            return status, json.loads(text)
        except ValueError:
            return status, {}


@dataclass
class Daily:
    path: str  # /daily/YYYY-MM-DD/<difficulty>/
    givens: str
    solution: str

    @property
    def empty(self) -> list[int]:
        return [cell for cell, given in enumerate(self.givens) if given == "0"]


@dataclass
class Outcome:
    attack: str
    usernames: list[str] = field(default_factory=list)
    wall: dict[str, float] = field(default_factory=dict)  # per player: from opening the page to the submit's answer
    notes: list[str] = field(default_factory=list)  # anything the site refused


class Bot:
    """One player's board without the page: its position, its version, its unsaved moves."""

    def __init__(self, username: str, client: Client, daily: Daily, outcome: Outcome, scale: float):
        self.username, self.client, self.daily, self.outcome, self.scale = username, client, daily, outcome, scale
        self.rng = random.Random(username)
        outcome.usernames.append(username)
        self.board = ["0"] * 81
        self.version = 0
        self.pending: list[tuple[float, int]] = []  # (monotonic time made, cell)
        self.last_beat = 0.0
        self.started = 0.0

    def wait(self, seconds: float) -> None:
        time.sleep(seconds * self.scale)

    def open(self, beat: str | None = "open") -> None:
        self.started = time.monotonic()
        self.client.request("GET", self.daily.path)
        status, text = self.client.request("GET", f"/api{self.daily.path}state/")
        if status == 200:
            self.version = json.loads(text).get("version", 0)
        if beat:
            self.beat(beat)

    def beat(self, phase: str = "tick") -> None:
        self.last_beat = time.monotonic()
        status, _ = self.client.api(self.daily, "beat", {"phase": phase})
        if status != 200:
            self.outcome.notes.append(f"beat {status}")

    def place(self, cell: int) -> None:
        self.board[cell] = self.daily.solution[cell]
        self.pending.append((time.monotonic(), cell))

    def moves(self) -> list:
        now = time.monotonic()
        return [[max(0, int((now - made) * 1000)), "d", [[cell, int(self.board[cell])]]] for made, cell in self.pending]

    def save(self) -> None:
        payload = {"version": self.version, "digits": "".join(self.board), "moves": self.moves()}
        payload.update(corner=[""] * 81, centre=[""] * 81, colours=[""] * 81)
        status, answer = self.client.api(self.daily, "save", payload)
        if status == 200:
            self.version, self.pending = answer["version"], []
        else:
            self.outcome.notes.append(f"save {status}")

    def submit(self, moves: list | None = None) -> None:
        payload = {
            "version": self.version,
            "digits": "".join(self.board),
            "moves": self.moves() if moves is None else moves,
        }
        status, answer = self.client.api(self.daily, "submit", payload)
        self.outcome.wall[self.username] = time.monotonic() - self.started
        if status != 200 or not answer.get("solved"):
            self.outcome.notes.append(f"submit {status} {answer.get('message') or answer.get('error') or ''}".strip())

    def play(self, gaps: tuple[float, float], beats: bool = True, pause_every: int = 0, pause: float = 0) -> None:
        """Fill the grid a digit at a time, `gaps` seconds apart (uniform), saving each digit once
        the board's debounce has passed, the last one with the submit; optional thinking pauses."""
        cells = self.daily.empty
        self.rng.shuffle(cells)
        for number, cell in enumerate(cells, start=1):
            gap = self.rng.uniform(*gaps)
            if pause_every and number % pause_every == 0:
                gap += pause
            if self.pending:  # the debounce ends before the next digit when the gap is long enough
                self.wait(min(SAVE_DELAY, gap))
                self.save()
                gap -= min(SAVE_DELAY, gap)
            self.wait(gap)
            if beats and time.monotonic() - self.last_beat >= BEAT_EVERY * self.scale:
                self.beat()
            self.place(cell)
        self.submit()


# --- the attacks -------------------------------------------------------------------------------


def logged_in(base: str, username: str) -> Client:
    client = Client(base)
    status = client.form("/accounts/login/", {"login": username, "password": PASSWORD})
    if not client.cookie("sessionid"):
        raise RuntimeError(f"log-in of {username} failed: {status}")
    return client


def direct_submit(base: str, dailies: dict[str, Daily], outcome: Outcome, scale: float) -> None:
    bot = Bot("cheat1", logged_in(base, "cheat1"), dailies["easy"], outcome, scale)
    bot.open(beat=None)
    for cell in bot.daily.empty:
        bot.board[cell] = bot.daily.solution[cell]
    bot.submit(moves=[])


def beat_then_submit(base: str, dailies: dict[str, Daily], outcome: Outcome, scale: float, floor: float) -> None:
    bot = Bot("cheat2", logged_in(base, "cheat2"), dailies["easy"], outcome, scale)
    bot.open(beat="tick")
    waited = floor + 0.7
    bot.wait(waited)
    # The whole grid in the submit, its moves made up to look one every so often since the beat.
    cells = bot.daily.empty
    step = int(waited * scale * 1000) // len(cells)
    moves = [
        [step * (len(cells) - 1 - i), "d", [[cell, int(bot.daily.solution[cell])]]] for i, cell in enumerate(cells)
    ]
    for cell in cells:
        bot.board[cell] = bot.daily.solution[cell]
    bot.submit(moves=moves)


def fresh_accounts(base: str, dailies: dict[str, Daily], outcome: Outcome, scale: float) -> None:
    def one(n: int) -> None:
        client = Client(base)
        name = f"fresh{n}"
        fields = {"username": name, "email": "", "password1": PASSWORD, "password2": PASSWORD}
        status = client.form("/accounts/signup/", fields)
        if not client.cookie("sessionid"):
            outcome.notes.append(f"sign-up {status}")
            return
        bot = Bot(name, client, dailies["medium"], outcome, scale)
        bot.open()
        bot.play((1.0, 1.4))

    threads = [threading.Thread(target=one, args=(n,)) for n in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def quick_bot(base: str, dailies: dict[str, Daily], outcome: Outcome, scale: float) -> None:
    bot = Bot("cheat4", logged_in(base, "cheat4"), dailies["easy"], outcome, scale)
    bot.open()
    cells = bot.daily.empty
    for cell in cells[:-1]:
        bot.place(cell)
        bot.save()  # a save per digit, at once: no debounce to wait for
        bot.wait(0.3)
        if time.monotonic() - bot.last_beat >= BEAT_EVERY * scale:
            bot.beat()
    bot.place(cells[-1])
    bot.submit()


def paced_bot(base: str, dailies: dict[str, Daily], outcome: Outcome, scale: float) -> None:
    bot = Bot("cheat5", logged_in(base, "cheat5"), dailies["easy"], outcome, scale)
    bot.open()
    bot.play((1.0, 2.0))


def blocked_beats(base: str, dailies: dict[str, Daily], outcome: Outcome, scale: float) -> None:
    bot = Bot("cheat6", logged_in(base, "cheat6"), dailies["easy"], outcome, scale)
    bot.open(beat=None)
    bot.play((1.0, 2.0), beats=False, pause_every=12, pause=40.0)


# --- the site, and what it made of each attack -------------------------------------------------


def prepare() -> dict[str, Daily]:
    """Migrate and empty the bench's database; today's easy and medium dailies; five established players."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from puzzles.models import site_today

    reset_site("cheat", "fresh")
    made = make_puzzles(15, ("easy", "medium"), day=site_today())
    dailies = {p.tier: Daily(daily_path(site_today(), p.tier), p.givens, p.solution) for p in made}
    two_days_ago = timezone.now() - datetime.timedelta(days=2)
    for n in (1, 2, 4, 5, 6):
        User.objects.create_user(f"cheat{n}", password=PASSWORD, date_joined=two_days_ago)
    return dailies


VERDICT_COLUMNS = ("clock (recorded)", "ranked time", "record", "verdict")


def verdict(username: str) -> tuple[str, str, str, str]:
    """What the site recorded of a player's solve: its clock, its ranked time, the record's size and the verdict."""
    from puzzles.durations import format_duration
    from puzzles.models import PlayEvent, Solve
    from puzzles.record_of_play.moves import unpack
    from puzzles.results.leaderboard import standing_of

    solve = Solve.objects.select_related("daily", "user").filter(user__username=username).first()
    if solve is None:
        return "—", "—", "—", "refused: no solve recorded"
    events = list(PlayEvent.objects.filter(attempt_id=solve.attempt_id))
    moves = sum(len(unpack(e.moves)) for e in events)
    record = f"{len(events)} events, {moves} moves" if events else "no record"
    ranked_time = format_duration(solve.ranked_seconds) if solve.ranked_seconds is not None else "—"
    standing = standing_of(solve)
    if standing.ranked:
        said = f"ranked {standing.rank} of {standing.solvers}"
    elif solve.unranked:
        said = f"not ranked ({solve.unranked})"
    elif solve.flagged:
        said = "held for review"
    else:
        said = "not ranked (" + "; ".join(standing.reasons) + ")"
    return format_duration(solve.seconds), ranked_time, record, said


def attempted(run, base: str, dailies: dict[str, Daily], outcome: Outcome, scale: float, *extra) -> None:
    """Run one attack; what went wrong on the attacker's side goes into its notes, not a traceback."""
    try:
        run(base, dailies, outcome, scale, *extra)
    except Exception as error:  # one attack failing must not hide the others
        outcome.notes.append(f"the attack itself failed: {error!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="scale every wait by 0.1 (a smoke run)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--days", type=int, default=0, help="simulated days of bots against honest players")
    parser.add_argument("--honest", type=int, default=50, help="honest players in the simulated days")
    parser.add_argument("--warm-up", type=int, default=30, help="days of rating history before them")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.days:
        from bench.cheatdays.run import main as simulated

        return simulated(args)
    scale = 0.1 if args.quick else 1.0
    env = setup_site(DB_URL, CACHE_URL, broker=BROKER_URL, RATE_LIMIT_SIGNUP="")
    from django.conf import settings

    dailies = prepare()
    floor = settings.LEADERBOARD_FLOOR_SECONDS["easy"]
    server = gunicorn(args.port, env, site_config=True, timeout=None)
    base = f"http://127.0.0.1:{args.port}"
    try:
        attacks = [
            (Outcome("1. direct submit"), direct_submit, ()),
            (Outcome(f"2. one heartbeat, submit past the {floor:g} s floor"), beat_then_submit, (floor,)),
            (Outcome("3. five fresh accounts (medium)"), fresh_accounts, ()),
            (Outcome("4. bot, a digit every 0.3 s"), quick_bot, ()),
            (Outcome("5. bot at a person's pace"), paced_bot, ()),
            (Outcome("6. heartbeats blocked while thinking"), blocked_beats, ()),
        ]
        started = time.monotonic()
        threads = [threading.Thread(target=attempted, args=(run, base, dailies, o, scale, *x)) for o, run, x in attacks]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(
            f"\nAll attacks done in {time.monotonic() - started:.0f} s{' (--quick: waits x 0.1)' if args.quick else ''}.\n"
        )
        print(markdown_header("attack", "player", "wall time spent", *VERDICT_COLUMNS))
        for outcome, _, _ in attacks:
            for username in outcome.usernames or ["—"]:
                wall = f"{outcome.wall[username]:.1f} s" if username in outcome.wall else "—"
                print(markdown_row(outcome.attack, username, wall, *verdict(username)))
            for note in outcome.notes:
                print(f"|   | (the site answered: {note}) | | | | | |")
    finally:
        stop(server)


if __name__ == "__main__":
    main()
