"""bench/load.py's players and meter: a player plays a daily as the board does against a small
fake of the site's API (no gunicorn, no database), and the meter's arithmetic."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import time

from aiohttp import web

from bench.harness.crowd import Client, Daily, Pace, Player, Ticket, pooled_client
from bench.harness.meter import Meter

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
GIVENS = "0" * 6 + SOLUTION[6:]
DAILY = Daily("easy", "/daily/2026-11-26/easy/", GIVENS, SOLUTION)
SESSION = ("s" * 32, "c" * 32)


def fake_site(seen: list) -> tuple[web.Application, dict]:
    """The site as a player sees it: another device saves first once (a 409 with its version),
    and every write must carry the CSRF token of its cookie."""
    stored = {"version": 0, "digits": GIVENS}

    async def page(request: web.Request) -> web.Response:
        seen.append(("GET", request.path, None))
        return web.Response(text="<html></html>", content_type="text/html")

    async def state(request: web.Request) -> web.Response:
        seen.append(("GET", request.path, None))
        return web.json_response(stored)

    async def write(request: web.Request) -> web.Response:
        body = await request.json()
        seen.append(("POST", request.path, body))
        if request.headers["X-CSRFToken"] != request.cookies["csrftoken"]:
            return web.json_response({"error": "CSRF"}, status=403)
        if request.path.endswith("/beat/"):
            return web.json_response({"elapsed": 0})
        if request.path.endswith("/submit/"):
            return web.json_response({"solved": body["digits"] == solved_digits()})
        if stored["version"] == 0:  # another device's save came first
            stored["version"] = 7
            return web.json_response({"state": {"version": 7}}, status=409)
        if body["version"] != stored["version"]:
            return web.json_response({"state": {"version": stored["version"]}}, status=409)
        stored.update(version=stored["version"] + 1, digits=body["digits"])
        return web.json_response({"version": stored["version"], "elapsed": 0})

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_get(DAILY.path, page)
    app.router.add_get(DAILY.path + "results/", page)
    app.router.add_get(DAILY.api + "state/", state)
    app.router.add_post(DAILY.api + "{kind}/", write)
    return app, stored


def solved_digits() -> str:
    """The digits a submit sends: the player's own, the givens as zeros."""
    return "".join("0" if g != "0" else s for g, s in zip(GIVENS, SOLUTION))


async def play_one_daily(seen: list) -> tuple:
    app, stored = fake_site(seen)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    samples: list = []
    try:
        async with pooled_client(connections=2) as http:
            client = Client(http, f"http://127.0.0.1:{port}", samples)
            # No pauses: every save and beat is due at once, and the day never ends.
            player = Player(Ticket(0, "player0", session=SESSION), client, [DAILY], Pace(0.0, 1000.0, 3))
            outcome = await player.run(time.monotonic(), time.monotonic() + 3600)
    finally:
        await runner.cleanup()
    return outcome, samples, stored


def test_a_player_plays_a_daily_as_the_board_does_and_adopts_the_version_of_a_conflict():
    seen: list = []
    # A loop of its own in a thread of its own: after the browser tests, Playwright's loop is still
    # the running one in this thread, and asyncio.run() refuses to start inside it.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        outcome, samples, stored = pool.submit(asyncio.run, play_one_daily(seen)).result()
    assert outcome.failures == []
    assert outcome.finished and outcome.solved == {"easy"}
    assert outcome.conflicts == 1
    # The last acknowledged save is what the site stored: its version and its digits.
    assert outcome.saved["easy"] == (stored["version"], SOLUTION[:6] + GIVENS[6:])
    assert stored["digits"] == SOLUTION
    kinds = [s[0] for s in samples]
    assert kinds == ["home", "page", "state", "beat", "save", "save", "save", "save", "submit", "results"]
    assert [s[3] for s in samples if s[0] == "save"] == [409, 200, 200, 200]
    # Each save carries the moves of the cells it fills, oldest first.
    saves = [body for method, path, body in seen if path.endswith("/save/")]
    assert [len(body["moves"]) for body in saves] == [2, 2, 2, 2]
    assert all(a[0] >= b[0] for body in saves for a, b in zip(body["moves"], body["moves"][1:]))


def test_the_meter_counts_a_process_new_in_the_window_from_zero_and_one_gone_as_nothing():
    start = ({"web": {1: 10.0, 2: 5.0}}, (100.0, 400.0))
    end = ({"web": {1: 12.5, 3: 0.75}}, (103.0, 404.0))
    used = Meter.used(start, end)
    assert used["web"] == 2.5 + 0.75
    assert used["machine"] == 3.0
    assert used["capacity"] == 4.0


def test_a_reading_finds_the_cpu_this_process_has_used():
    meter = Meter({"me": lambda: [os.getpid()]})
    snapshot, (busy, total) = meter.read()
    assert snapshot["me"][os.getpid()] > 0  # importing Django and aiohttp alone takes CPU
    assert 0 < busy < total
