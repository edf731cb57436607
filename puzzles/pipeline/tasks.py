"""Celery tasks: thin interfaces onto the pipeline's services and the accounts' (guests, reminders,
retention): plain values in, one service call.

Each task keeps the name it had when this module was puzzles/tasks.py: the name travels in every
queued message and in the beat schedule, so renaming it would strand the tasks already queued.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from celery import shared_task
from django.conf import settings
from django.core.cache import cache

from ..accounts import guests, reminders, retention
from ..coaching import services as coaching
from ..fairplay import judge
from ..practice import pool as practice_pool
from ..ratings import ledger
from ..results.review_part import review_part_keep
from . import pools, publishing

log = logging.getLogger(__name__)


@shared_task(name="puzzles.tasks.fill_pool")
def fill_pool(tier: str) -> dict:
    """Make puzzles of one tier until its pool is full or this task's time budget is spent."""
    try:
        report = pools.pool_fill(tier, budget_seconds=settings.GENERATION_BUDGET_SECONDS)
    finally:
        pools.pool_release_fill(tier)
    # Fresh puzzles go straight into any empty slot of their own tier; borrowing from another
    # tier is left to the scheduled publisher.
    if report.stored and publishing.dailies_missing():
        publishing.dailies_publish_ahead(substitutes=False)
    return vars(report)


@shared_task(name="puzzles.tasks.refill_pools")
def refill_pools() -> list[str]:
    """Enqueue a fill task for each tier below target that has none queued or running."""
    queued = []
    for tier in pools.pools_needing_puzzles():
        if pools.pool_claim_fill(tier):
            try:
                fill_pool.delay(tier)
            except Exception:
                pools.pool_release_fill(tier)
                raise
            queued.append(tier)
    return queued


def seed_batch_enqueue(batch_id: int) -> None:
    """Start a seed batch on up to settings.SEED_BATCH_WORKERS generation workers at once.

    Each task hands on what is left when its budget runs out, so the batch keeps that many
    tasks in the queue until it is done; claims stop it from ever making more than it asked.
    """
    for _ in range(settings.SEED_BATCH_WORKERS):
        work_seed_batch.delay(batch_id)


@shared_task(name="puzzles.tasks.work_seed_batch")
def work_seed_batch(batch_id: int) -> int:
    """Make puzzles for an admin's seed batch within one task's budget, then hand on the rest."""
    batch = pools.seed_batch_work(batch_id, budget_seconds=settings.GENERATION_BUDGET_SECONDS)
    if not batch.done:
        work_seed_batch.delay(batch_id)
    return batch.made


@shared_task(name="puzzles.tasks.publish_dailies")
def publish_dailies() -> dict:
    """Publish today's and the next days' puzzles where a slot is still empty."""
    reports = publishing.dailies_publish_ahead()
    return {
        str(r.day): {
            "published": r.published,
            "substitutes": r.substitutes,
            "missing": r.missing,
            "outside_band": r.outside_band,
        }
        for r in reports
    }


@shared_task(name="puzzles.tasks.apply_retention")
def apply_retention() -> dict:
    """Delete what the site no longer needs, each kind after its period (accounts/retention.py),
    starting no new batch past three quarters of the task's soft limit: the rest waits for the
    next day's run, and a second run deletes nothing more."""
    removed = retention.retention_apply(budget_seconds=settings.CELERY_TASK_SOFT_TIME_LIMIT * 0.75)
    return vars(removed)


@shared_task(name="puzzles.tasks.delete_idle_guests")
def delete_idle_guests() -> int:
    """Delete guests idle for settings.GUEST_TTL_DAYS, with their records; how many went. Beat
    sends apply_retention instead now, which does this too; kept for a message queued before."""
    return guests.guests_delete_idle()


@shared_task(name="puzzles.tasks.send_reminders")
def send_reminders() -> dict:
    """Send the reminders due now (accounts/reminders.py), batch by batch, until none is left or
    three quarters of the task's soft limit is spent: the next run picks up the rest, since a
    player stays due for the rest of their day, and the claims make a second run harmless."""
    report = reminders.reminders_send(budget_seconds=settings.CELERY_TASK_SOFT_TIME_LIMIT * 0.75)
    return vars(report)


PRACTICE_RETRY = "practice-fill-retry"  # a retry of fill_practice is queued (cache key)
PRACTICE_RETRY_SECONDS = 10  # cheap: it only looks whether the pools still fill


@shared_task(name="puzzles.tasks.fill_practice")
def fill_practice() -> dict:
    """Keep a few practice positions ready per technique, within one task's budget; a run
    queued while another is under way (a busy worker, beat ticking on), or while a daily pool's
    fill is queued or running, returns at once."""
    # The dailies' pools share the generation worker and come first: a run waits for their
    # fills, and stops between puzzles when one is queued behind it. Waiting, it asks again in a
    # little while (one such retry at a time) rather than at beat's next tick, minutes away: on a
    # site's first start the pools fill for a few minutes and practice would wait behind them.
    if pools.pools_filling():
        if cache.add(PRACTICE_RETRY, 1, PRACTICE_RETRY_SECONDS):
            fill_practice.apply_async(countdown=PRACTICE_RETRY_SECONDS)
        return {"skipped": True}
    if not practice_pool.practice_claim_fill():
        return {"skipped": True}
    try:
        report = practice_pool.practice_fill(
            budget_seconds=settings.PRACTICE_BUDGET_SECONDS, give_way=pools.pools_filling
        )
    finally:
        practice_pool.practice_release_fill()
    return vars(report)


@shared_task(name="puzzles.tasks.review_solve")
def review_solve(solve_id: int) -> bool:
    """Make (or make again) one solve's annotated review; False when the solve is gone."""
    return coaching.review_store(solve_id) is not None


@shared_task(name="puzzles.tasks.review_missing")
def review_missing() -> int:
    """Review the recent solves that have no review yet (their task was lost), then older ones
    whose review older rules made (coaching.reviews_missing); how many."""
    return sum(coaching.review_store(solve_id) is not None for solve_id in coaching.reviews_missing())


@shared_task(name="puzzles.tasks.rate_solves")
def rate_solves() -> int:
    """Apply the rated solves not yet in the ratings, in solve order (ratings/ledger.py), then decide
    today's held solves again from the ratings as they now stand; how many solves were rated."""
    rated = ledger.ratings_catch_up()
    judge.held_again_today()
    return rated


@shared_task(name="puzzles.tasks.judge_waiting")
def judge_waiting() -> int:
    """Every solve's follow-up, from the beat every JUDGE_SWEEP_SECONDS: the solves their submits
    left being checked, oldest first, each followed up (follow_ups); how many.

    The submit sends no message of its own: the solve's row, being checked, is what the sweep looks
    for (one indexed query when there is none), so a submit costs no round trip to the broker and
    a broker that is away loses nothing."""
    done = follow_ups(judge.waiting())
    if done:  # Celery's own lines about this sweep are not logged (sudokusite/logfilters.py)
        log.info("followed up %d solve%s", done, "" if done == 1 else "s")
    return done


@shared_task(name="puzzles.tasks.follow_up_solve")
def follow_up_solve(solve_id: int) -> bool:
    """One solve's follow-up (follow_ups) on demand, all of it even if it was judged before;
    whether it is reviewed (False when it is gone). Harmless to run again."""
    return follow_ups([solve_id], judged_before=True) == 1


def follow_ups(solve_ids: Iterable[int], *, judged_before: bool = False) -> int:
    """What a solve sets going, for each of `solve_ids`: its verdict (the submit left it to be
    checked), then the day's other held solves decided again (its floors may have moved) and its
    review, drawn as its results show it (results/review_part.py); then, once for all, the ratings brought up to them. The rest of a solve judged before
    is left alone unless `judged_before`, so sweeps that overlap never do it twice; one solve's
    failure stops no other's (each is logged, and the first raised at the end). How many were
    followed up (a solve that is gone never is)."""
    done, failures = 0, []
    for solve_id in solve_ids:
        try:
            if not judge.judge_waiting_one(solve_id) and not judged_before:
                continue  # gone, or judged already (by another sweep, or before)
            try:
                judge.held_again_after(solve_id)
            finally:
                done += coaching.review_store(solve_id) is not None
            review_part_keep(solve_id)  # drawn once here, not by the player's first look
        except Exception as exc:  # the next solves are followed up all the same
            log.exception("the follow-up of solve %s failed", solve_id)
            failures.append(exc)
    try:
        ledger.ratings_catch_up()
    finally:
        if failures:
            raise failures[0]
    return done
