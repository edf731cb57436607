"""Fault d: a client replays an old save, and two saves race from the same version."""

from __future__ import annotations

import threading

from bench.faults.checks import check
from bench.faults.target import TIMEOUT, Reply, Site, number_of, numbered_digits, prepare_players


def fault_replay_and_race(site: Site, rounds: int) -> None:
    from puzzles.models import Attempt

    print("\n(d) a client replays an old save; two saves race from the same version", flush=True)
    player = prepare_players(1, "replay")[0]
    site.refresh_version(player)
    first_version = player.version
    a = site.save(player, 1)
    player.version = (a.json() or {}).get("version", -1)
    b = site.save(player, 2)
    player.version = first_version
    replayed = site.save(player, 1)
    state = (replayed.json() or {}).get("state", {})
    stored = Attempt.objects.get(user_id=player.user_id)
    check(
        "d",
        "a replayed old save is refused with 409 and the newer board kept",
        a.status == b.status == 200
        and replayed.status == 409
        and state.get("version") == (b.json() or {}).get("version") == stored.version
        and stored.digits == numbered_digits(site.givens, 2)
        and state.get("digits") == numbered_digits(site.givens, 2),
        f"saves {a.status}, {b.status}; replay of the first {replayed.status} "
        f"({(replayed.json() or {}).get('error', replayed.body[:80])!r}); stored v{stored.version} = save #"
        f"{number_of(site.givens, stored.digits)}",
    )

    racer = prepare_players(1, "race")[0]
    outcomes, wrong = {"one 200, one 409": 0}, []
    for r in range(rounds):
        site.refresh_version(racer)
        version = racer.version
        barrier = threading.Barrier(2)
        replies: list[Reply | None] = [None, None]
        numbers = [1000 + 2 * r + k for k in (0, 1)]

        def tab(k: int) -> None:
            barrier.wait(timeout=5)
            replies[k] = site.save(racer, numbers[k])

        tabs = [threading.Thread(target=tab, args=(k,)) for k in (0, 1)]
        for t in tabs:
            t.start()
        for t in tabs:
            t.join(timeout=TIMEOUT + 5)
        got = [x for x in replies if x is not None]  # a save still running after the join is missing
        statuses = sorted(x.status for x in got)
        stored = Attempt.objects.get(user_id=racer.user_id)
        if statuses != [200, 409]:
            wrong.append(f"round {r}: {statuses}")
            continue
        winner = 0 if got[0].status == 200 else 1
        loser_state = (got[1 - winner].json() or {})["state"]
        if not (
            stored.digits == numbered_digits(site.givens, numbers[winner]) == loser_state["digits"]
            and stored.version == version + 1 == loser_state["version"]
        ):
            wrong.append(f"round {r}: stored save #{number_of(site.givens, stored.digits)} v{stored.version}")
            continue
        outcomes["one 200, one 409"] += 1
    check(
        "d",
        "two saves from one version: one wins, the other gets 409, the winner's board is stored",
        not wrong,
        f"{outcomes['one 200, one 409']}/{rounds} rounds exactly so; otherwise: {wrong or 'none'}",
    )
