"""The practice pool: for each technique, a few positions where it is the next step.

practice_fill() walks puzzles (engine.walk: each position of a solve with the step the rater
takes there) and keeps positions for the techniques whose pool is short. It walks pool puzzles
that no daily uses first, then puzzles it generates. The Celery task fill_practice runs it on
beat's schedule, so a page only ever reads the pool.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Count, QuerySet

from .. import engine
from ..engine import instances
from ..models import PracticePosition, Puzzle, site_today
from ..models.practice import position_key

log = logging.getLogger(__name__)

# Every technique of the catalogue but trial and error, which is no technique to practise.
PRACTISED: tuple[str, ...] = tuple(t.name for t in engine.TECHNIQUES if t.name != "trial-and-error")
# Pool puzzles one run walks at most before it turns to generating.
POOL_PUZZLES_PER_RUN = 200
FILL_CLAIM = "practice-fill-running"


@dataclass
class PracticeFill:
    """What one run did: puzzles walked (from the pool, generated), positions kept per technique."""

    walked: int = 0
    generated: int = 0
    stored: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    gave_way: bool = False  # stopped early for the dailies' pools


def servable() -> QuerySet[PracticePosition]:
    """Positions a player may be shown: none from a puzzle that is today's or a coming daily."""
    return PracticePosition.objects.exclude(puzzle__daily__date__gte=site_today())


def practice_wanted() -> dict[str, int]:
    """For each technique whose pool is short of settings.PRACTICE_POOL_SIZE, how many it lacks."""
    target = settings.PRACTICE_POOL_SIZE
    have = dict(servable().values_list("technique").annotate(n=Count("id")).values_list("technique", "n"))
    return {name: target - have.get(name, 0) for name in PRACTISED if have.get(name, 0) < target}


def practice_claim_fill() -> bool:
    """Claim the one practice fill that may run at a time; False while another holds it. The
    claim lapses on its own after twice the budget, so a worker killed mid-run frees it."""
    return bool(cache.add(FILL_CLAIM, 1, int(settings.PRACTICE_BUDGET_SECONDS * 2) + 60))


def practice_release_fill() -> None:
    cache.delete(FILL_CLAIM)


def moments_wanted(givens: str, solution: str, wanted: dict[str, int]) -> Iterator[engine.Moment]:
    """The first position of the puzzle's solve for each technique in `wanted`."""
    seen: set[str] = set()
    for moment in engine.walk(givens, [int(d) for d in solution]):
        name = moment.step.technique
        if name in wanted and name not in seen:
            seen.add(name)
            yield moment


def position_store(moment: engine.Moment, givens: str, solution: str, puzzle: Puzzle | None) -> bool:
    """Keep one position (once: a second store of it changes nothing); whether it was new.

    A position is kept only when the checker finds an instance of its technique there, so every
    pool position can be answered right.
    """
    name = moment.step.technique
    if not instances(list(moment.digits), list(moment.cands), name, [int(d) for d in solution]):
        log.warning("no instance of %s found where walk() took one; not kept", name)
        return False
    digits = "".join(map(str, moment.digits))
    cands = list(moment.cands)
    if PracticePosition.objects.filter(technique=name, key=position_key(digits, cands)).exists():
        return False
    row = PracticePosition(
        technique=name,
        digits=digits,
        cands=cands,
        solution=solution,
        givens=givens,
        places=bool(moment.step.placements),
        puzzle=puzzle,
        source=PracticePosition.Source.POOL if puzzle else PracticePosition.Source.GENERATED,
    )
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:  # another run stored the same position meanwhile
        return False
    return True


def _walk_into(report: PracticeFill, wanted: dict[str, int], givens: str, solution: str, puzzle: Puzzle | None) -> None:
    for moment in moments_wanted(givens, solution, wanted):
        name = moment.step.technique
        if position_store(moment, givens, solution, puzzle):
            report.stored[name] = report.stored.get(name, 0) + 1
            wanted[name] -= 1
            if not wanted[name]:
                del wanted[name]


def practice_fill(
    *,
    budget_seconds: float,
    rng: random.Random | None = None,
    generate: bool = True,
    give_way: Callable[[], bool] = lambda: False,
) -> PracticeFill:
    """Walk pool puzzles, then generated ones, until every technique's pool is full or the budget
    is spent (checked between puzzles; one generation may overrun it by its own time).

    `give_way` is asked between generated puzzles: when it says True (the dailies' own pools are
    waiting for the same worker), the run stops there and leaves the rest to the next one.
    """
    started = time.monotonic()
    deadline = started + budget_seconds
    rng = rng or random.Random()
    report = PracticeFill()
    wanted = practice_wanted()
    # Never a published puzzle, so no position gives away a daily, today's or one to come.
    unpublished = Puzzle.objects.filter(used=False, daily__isnull=True).values_list("pk", "givens", "solution")
    for pk, givens, solution in unpublished.order_by("?")[:POOL_PUZZLES_PER_RUN]:
        if not wanted or time.monotonic() >= deadline:
            break
        report.walked += 1
        _walk_into(report, wanted, givens, solution, Puzzle(pk=pk))
    while generate and wanted and time.monotonic() < deadline:
        if give_way():
            report.gave_way = True
            break
        # A tier some wanted technique belongs to, in turn: a rare one's tier must not take every run.
        tier = rng.choice(sorted({engine.tier_of(name) for name in wanted}))
        try:
            made = engine.generate(tier, rng, max_tries=200)
        except engine.GenerationGaveUp:
            continue
        report.generated += 1
        givens = "".join(map(str, made.givens))
        _walk_into(report, wanted, givens, "".join(map(str, made.solution)), None)
    report.seconds = round(time.monotonic() - started, 2)
    log.info("practice pool: walked %d, generated %d, stored %s", report.walked, report.generated, report.stored)
    return report
