"""What was checked: each check with its figures, printed as it is made and kept for the table
at the end, and the checks every fault ends with."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from bench.faults.target import Player, Reply, Site, number_of
from bench.harness import percentile


@dataclass
class Check:
    fault: str
    what: str
    passed: bool
    figures: str


CHECKS: list[Check] = []


def check(fault: str, what: str, passed: bool, figures: str) -> None:
    CHECKS.append(Check(fault, what, passed, figures))
    print(f"  [{'pass' if passed else 'FAIL'}] {what}: {figures}", flush=True)


def in_window(replies: list[Reply], start: float, end: float) -> list[Reply]:
    """Requests that were in flight at some moment of [start, end]."""
    return [r for r in replies if r.started <= end and r.ended >= start]


def summary(replies: list[Reply]) -> str:
    counts: dict[str, int] = {}
    for r in replies:
        key = str(r.status) if r.status else "no answer"
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{n} x {k}" for k, n in sorted(counts.items())) or "none"


def p99(replies: list[Reply]) -> float:
    times = [r.seconds * 1000 for r in replies]
    return percentile(times, 0.99) if times else 0.0


def check_nothing_lost(fault: str, label: str, site: Site, players: list[Player]) -> None:
    """Every save answered 200 is in the database: each player's stored board is the one of
    their last acknowledged save (or a later one whose answer was lost), and the versions
    the server answered only ever went up."""
    from django.db import connections

    from puzzles.models import Attempt

    connections.close_all()  # the script's own connection may predate a restart
    lost, unanswered_commits, not_monotonic, acked = [], 0, [], 0
    for p in players:
        acked += len(p.acked)
        versions = [v for _, v in p.acked]
        if any(b <= a for a, b in itertools.pairwise(versions)):
            not_monotonic.append(p.name)
        if not p.acked:
            continue
        attempt = Attempt.objects.get(user_id=p.user_id, daily__puzzle__givens=site.givens)
        last_number, last_version = p.acked[-1]
        stored_number = number_of(site.givens, attempt.digits)
        if attempt.version < last_version or (attempt.version == last_version and stored_number != last_number):
            lost.append(
                f"{p.name}: stored v{attempt.version} save #{stored_number}, answered v{last_version} save #{last_number}"
            )
        elif attempt.version > last_version:
            unanswered_commits += 1  # a later save was stored but its answer never arrived
    check(
        fault,
        f"{label}: every save answered 200 is in the database",
        not lost,
        f"{acked} saves answered 200 by {len(players)} players; lost: {lost or 0}; "
        f"stored without an answer received: {unanswered_commits}",
    )
    check(
        fault,
        f"{label}: the versions answered only go up",
        not not_monotonic,
        f"{acked} versions, out of order for: {not_monotonic or 'nobody'}",
    )
