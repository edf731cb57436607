"""Fault a: Redis (broker and cache) stopped for a few seconds and started again while players
save and solve."""

from __future__ import annotations

import time

from bench.faults.checks import check, check_nothing_lost, in_window, p99, summary
from bench.faults.services import PrivateRedis
from bench.faults.target import Player, Reply, Site, run_load


def fault_redis(
    site: Site, redis_server: PrivateRedis, players: list[Player], solvers: list[Player], outage: float
) -> None:
    from puzzles.models import Solve

    print(f"\n(a) Redis (broker and cache) stopped for {outage:.0f} s and started again during play", flush=True)
    solves: list[tuple[str, Reply]] = []

    def solve(player: Player, when: str) -> None:
        site.refresh_version(player)
        reply = site.api(player, "submit", {"version": player.version, "digits": site.solution})
        solves.append((when, reply))

    def during() -> dict:
        time.sleep(3)
        for p in solvers[0::3]:
            solve(p, "before")
        down = time.monotonic()
        redis_server.stop()
        time.sleep(1)
        for p in solvers[1::3]:
            solve(p, "during")
        time.sleep(max(0.0, outage - (time.monotonic() - down)))
        up = time.monotonic()
        redis_server.start()
        time.sleep(2)
        for p in solvers[2::3]:
            solve(p, "after")
        time.sleep(2)
        return {"down": down, "up": up}

    saves, health, report = run_load(site, players, 0.05, during, start_number=10_000)
    down, up = report["down"], report["up"]
    outage_saves = in_window(saves, down, up)
    everything = saves + [r for _, r in solves]
    unclean = [r for r in everything if r.status not in (200, 409) and not (r.status and r.clean_failure)]
    server_errors = [r for r in everything if r.status >= 500]
    check(
        "a",
        "no 500, no HTML and no traceback while Redis was down or coming back",
        not server_errors and not unclean,
        f"{len(saves)} saves ({summary(saves)}), {len(solves)} submits; 5xx: {len(server_errors)}; "
        f"unclear failures: {len(unclean)}{' e.g. ' + repr(unclean[0].body[:120] or unclean[0].error) if unclean else ''}",
    )
    ok = [r for r in outage_saves if r.status == 200]
    check(
        "a",
        "saves keep working while Redis is down",
        bool(outage_saves) and len(ok) == len(outage_saves),
        f"{len(ok)}/{len(outage_saves)} saves in the {up - down:.1f} s outage answered 200, "
        f"p99 {p99(outage_saves):.0f} ms, slowest {max((r.seconds for r in outage_saves), default=0) * 1000:.0f} ms",
    )
    recorded = {s.user_id for s in Solve.objects.filter(user_id__in=[p.user_id for p in solvers])}
    by_name = {p.name: p for p in solvers}
    solved_ok = [
        (when, r)
        for when, r in solves
        if r.status == 200 and (r.json() or {}).get("solved") and by_name[r.player].user_id in recorded
    ]
    during_total = sum(1 for when, _ in solves if when == "during")
    during_ok = sum(1 for when, _ in solved_ok if when == "during")
    check(
        "a",
        "solves are recorded before, during and after the outage",
        len(solved_ok) == len(solves),
        f"{len(solved_ok)}/{len(solves)} submits solved and recorded ({during_ok}/{during_total} during the outage)",
    )
    cache_states = [((r.json() or {}).get("cache"), r.started) for r in health]
    # Asked after Redis stopped and answered before it started again: the outage is all they can see.
    inside = [state for state, t in cache_states if down + 0.1 <= t <= up - 0.6]
    down_seen = any(state == "unreachable" and down <= t <= up for state, t in cache_states)
    back = [state for state, t in cache_states if t > up + 1]
    check(
        "a",
        "the outage was real and the site saw Redis come back (/health/)",
        down_seen and bool(back) and back[-1] == "ok",
        f"/health/ cache: {'unreachable' if down_seen else 'never unreachable'} during the outage "
        f"({inside.count('unreachable')} of {len(inside)} answers asked well inside it), "
        f"{back[-1] if back else 'no answer'} at the end ({back.count('ok')} of {len(back)} ok from 1 s after); "
        f"health answered {summary(health)}",
    )
    check_nothing_lost("a", "Redis down", site, players)
