"""The review of a solve where its player reads it: the results (stalls, mistakes, the timeline with
its singles folded), the fragment asked again while it is prepared, the timeline beside the
replay; only ever to the solve's own player. And how a puzzle played, only once its day is over."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from puzzles.fairplay.ranking import CHECKING
from puzzles.models import PuzzleRating, Solve, SolveReview
from puzzles.pipeline import tasks
from puzzles.results import review_part
from puzzles.results.played import played_like, puzzle_played
from puzzles.results.review import runs_of, shown_review

from .coaching_factory import make_rating_change, placement, save_review
from .factories import log_in, make_daily, make_solve

pytestmark = pytest.mark.django_db

FETCH = {"HTTP_SEC_FETCH_MODE": "cors", "HTTP_ACCEPT": "text/html"}


def results_url(daily) -> str:
    return reverse("puzzles:results", args=[daily.date, daily.difficulty])


def review_url(daily) -> str:
    return reverse("puzzles:review", args=[daily.date, daily.difficulty])


def a_review(solve):
    """Twelve quick singles, a long think ending in an X-wing, a wrong 5 put right, one placed ahead."""
    singles = [placement(n, n * 3000, n, 4) for n in range(1, 13)]
    xwing = placement(
        14,
        290_000,
        40,
        7,
        "x-wing",
        think_ms=250_000,
        steps=[
            {"technique": "x-wing", "text": "An X-wing on 6s in rows 2 and 8 clears 6 from row 5, column 5."},
            {"technique": "naked-single", "text": "Then 7 is all row 5, column 5 can hold."},
        ],
    )
    wrong = placement(15, 300_000, 3, 5, verdict="wrong")
    ahead = placement(17, 330_000, 3, 8, verdict="ahead")
    stalls = [
        {
            "from_ms": 40_000,
            "to_ms": 290_000,
            "move": 14,
            "available": [
                {"technique": "hidden-single", "text": "In box 7, 4 can only go in row 8, column 2 (r8c2)."},
                {"technique": "x-wing", "text": "The 6s of rows 2 and 7 are in columns 3 and 8 only."},
            ],
        }
    ]
    mistakes = [{"move": 15, "ms": 300_000, "cell": 3, "digit": 5, "right": 8, "stayed_ms": 30_000}]
    return save_review(solve, [*singles, xwing, wrong, ahead], stalls, mistakes)


def test_the_results_show_the_stall_the_mistake_and_a_timeline_with_the_singles_folded(client, daily):
    solve = make_solve(daily, "ada", 400)
    a_review(solve)
    log_in(client, "ada")
    page = client.get(results_url(daily), **FETCH).content.decode()
    assert "How you solved it" in page and 'data-review-state="ready"' in page
    assert ">4:10 here<" in page and "From 0:40 to 4:50." in page
    assert (
        "A hidden single was there: in box 7, 4 can only go in row 8, column 2 (r8c2). You went on with an X-wing."
        in page
    )
    assert "A 5 in row 1, column 4 at 5:00: it was an 8, and stayed 0:30 on the board." in page
    assert "12 singles, to 0:36" in page  # folded into one line, openable
    replay = reverse("puzzles:replay", args=[daily.date, "easy", solve.pk])
    assert f'href="{replay}?move=14"' in page and f'href="{replay}?move=13"' in page  # the step; the stall's position
    assert f'href="{reverse("puzzles:learn-technique", args=["x-wing"])}">X-wing</a>' in page
    assert "after 4:10" in page and "An X-wing on 6s in rows 2 and 8" in page
    assert ">A wrong digit<" in page and ">Placed ahead<" in page and "guess" not in page
    assert "15 placements: 13 by logic, 1 placed ahead of the logic, 1 wrong digit." in page
    assert "A digit placed ahead of the logic is one no single step on your board made at that moment" in page


@pytest.mark.parametrize(
    ("stayed_ms", "said"),
    [(0, "and was corrected at once."), (999, "and was corrected at once."), (1000, "and stayed 0:01 on the board.")],
)
def test_a_mistake_put_right_within_a_second_was_corrected_at_once(client, daily, stayed_ms, said):
    solve = make_solve(daily, "ada", 400)
    wrong = placement(1, 0, 3, 5, verdict="wrong")
    save_review(solve, [wrong], [], [{"move": 1, "ms": 0, "cell": 3, "digit": 5, "right": 8, "stayed_ms": stayed_ms}])
    log_in(client, "ada")
    page = client.get(results_url(daily), **FETCH).content.decode()
    assert f"A 5 in row 1, column 4 at 0:00: it was an 8, {said}" in page
    assert "stayed 0:00" not in page


def test_a_review_not_made_yet_is_being_prepared_and_its_fragment_arrives_once_it_is(client, daily):
    solve = make_solve(daily, "ada", 400)
    log_in(client, "ada")
    results = client.get(results_url(daily), **FETCH).content.decode()
    assert 'data-review-state="preparing"' in results and "Your review is being prepared" in results
    assert f'data-review-url="{review_url(daily)}"' in results
    page = client.get(results_url(daily), HTTP_SEC_FETCH_MODE="navigate").content.decode()
    assert "js/review.js" in page  # the page asks again by itself
    fragment = client.get(review_url(daily))
    assert fragment.status_code == 200 and "preparing" in fragment.content.decode()
    assert "no-store" in fragment["Cache-Control"]
    a_review(solve)
    ready = client.get(review_url(daily)).content.decode()
    assert ready.lstrip().startswith("<section") and 'data-review-state="ready"' in ready and "12 singles" in ready
    assert "js/review.js" not in client.get(results_url(daily), HTTP_SEC_FETCH_MODE="navigate").content.decode()


def test_an_old_solve_without_a_review_says_so_and_waits_for_none(client, daily):
    make_solve(daily, "ada", 400, solved_at=timezone.now() - datetime.timedelta(hours=2))
    log_in(client, "ada")
    page = client.get(results_url(daily), HTTP_SEC_FETCH_MODE="navigate").content.decode()
    assert 'data-review-state="missing"' in page and "This solve has no review" in page
    assert "being prepared" not in page and "js/review.js" not in page


def test_nobody_reads_another_players_review(client, daily):
    a_review(make_solve(daily, "ada", 400))
    assert client.get(review_url(daily)).status_code == 404  # logged out
    log_in(client, "eve")
    assert client.get(review_url(daily)).status_code == 404  # has not solved it
    make_solve(daily, "eve", 500)
    page = client.get(review_url(daily)).content.decode()
    assert "being prepared" in page and "X-wing" not in page  # her own, not Ada's
    assert client.post(review_url(daily)).status_code == 405


def test_the_replay_shows_its_players_review_beside_it_and_nobody_elses(client, daily):
    ada = make_solve(daily, "ada", 400)
    a_review(ada)
    grace = make_solve(daily, "grace", 300)
    a_review(grace)
    log_in(client, "ada")
    own = client.get(reverse("puzzles:replay", args=[daily.date, "easy", ada.pk])).content.decode()
    assert 'id="review-timeline"' in own and 'href="?move=14" data-move="14"' in own and "css/review.css" in own
    other = client.get(reverse("puzzles:replay", args=[daily.date, "easy", grace.pk])).content.decode()
    assert "review-timeline" not in other and "X-wing" not in other


def test_a_review_of_another_shape_is_shown_as_far_as_it_goes_never_a_500(client, daily):
    solve = make_solve(daily, "ada", 400)
    SolveReview.objects.create(
        solve=solve,
        version=1,
        placements=[{"move": "x"}, "junk", {"cell": 500, "digit": 3}],
        stalls=[None],
        mistakes=[{}],
    )
    log_in(client, "ada")
    assert client.get(results_url(daily), **FETCH).status_code == 200


def test_a_stall_says_its_length_its_span_and_what_was_there():
    stall = shown_review(
        SolveReview(stalls=[{"from_ms": 123_000, "to_ms": 373_000, "move": 9, "available": [{"technique": "x-wing"}]}])
    ).stalls[0]
    assert stall.sentence == "4:10 here, from 2:03 to 6:13. An X-wing was there."


def test_quick_singles_fold_into_runs_and_a_lone_single_stands_alone():
    review = SolveReview(
        placements=[
            placement(1, 1000, 0, 1),
            placement(2, 2000, 1, 2),
            placement(3, 9000, 2, 3, "x-wing"),
            placement(4, 10000, 4, 4),
            placement(5, 90000, 5, 5, think_ms=80_000),  # slow: worth its own line
        ]
    )
    runs = runs_of(shown_review(review).placements)
    assert [(r.folded, r.count) for r in runs] == [(True, 2), (False, 1), (False, 1), (False, 1)]


def test_how_a_puzzle_played_shows_only_after_its_day(client, daily):
    solves = [make_solve(daily, name, seconds) for name, seconds in (("ada", 400), ("bob", 700), ("cy", 760))]
    for n, solve in enumerate(solves):
        make_rating_change(solve, 1500 + n, 1720, deviation=60)
    log_in(client, "ada")
    today = client.get(results_url(daily), **FETCH).content.decode()
    assert "rated 1720" not in today and puzzle_played(daily.puzzle) is None  # today's players would learn it
    tomorrow = daily.date + datetime.timedelta(days=1)
    played = puzzle_played(daily.puzzle, today=tomorrow)
    assert played is not None
    assert played.sentence == "Played: rated 1720 ± 60 from 3 rated solves, median time 11:40."


def test_the_results_of_a_past_puzzle_say_how_it_played(client):
    yesterday = make_daily(datetime.date.today() - datetime.timedelta(days=2))
    make_rating_change(make_solve(yesterday, "ada", 300), 1510, 1650, deviation=90)
    log_in(client, "ada")
    page = client.get(results_url(yesterday), **FETCH).content.decode()
    assert "Played: rated 1650 ± 90 from 1 rated solve, median time 5:00." in page


def test_a_past_puzzle_played_like_the_tier_whose_well_played_puzzles_rate_nearest(db):
    past = datetime.date.today() - datetime.timedelta(days=30)
    for n, (tier, rating) in enumerate([("easy", 1100)] * 3 + [("hard", 1750)] * 3 + [("expert", 2100)] * 2):
        daily = make_daily(past - datetime.timedelta(days=n), tier)
        PuzzleRating.objects.create(puzzle=daily.puzzle, rating=rating + n, solves=3)
    daily = make_daily(past + datetime.timedelta(days=1), "medium")
    make_rating_change(make_solve(daily, "ada", 760), 1500, 1690, deviation=70)
    played = puzzle_played(daily.puzzle)
    assert played is not None and played.like == "hard"  # expert has too few puzzles to count
    assert played.sentence.startswith("Played like a hard puzzle: rated 1690 ± 70 from 1 rated solve")


def test_a_played_rating_is_likened_to_the_tier_whose_puzzles_play_nearest():
    assert played_like(1720, {"easy": 1100, "medium": 1400, "hard": 1750}) == "hard"
    assert played_like(1720, {"hard": 1750}) == ""  # one tier alone is no scale


def test_the_review_is_drawn_once_then_read_from_the_cache_the_same_and_drawn_again_when_made_again(
    client, daily, monkeypatch
):
    solve = make_solve(daily, "ada", 400)
    a_review(solve)
    log_in(client, "ada")
    drawn: list[int] = []
    render = review_part.render_to_string
    monkeypatch.setattr(review_part, "render_to_string", lambda *a, **k: drawn.append(1) or render(*a, **k))
    first = client.get(results_url(daily), **FETCH).content.decode()
    again = client.get(results_url(daily), **FETCH).content.decode()
    assert first == again and len(drawn) == 1  # the second read the kept copy
    assert "How you solved it" in again and "12 singles, to 0:36" in again
    solve.refresh_from_db()
    key = review_part.review_part_key(solve)
    assert key is not None and str(solve.pk) in key and cache.get(key) is not None
    # As the review fragment draws it, the same.
    fragment = client.get(review_url(daily)).content.decode().strip()
    assert fragment in again
    # Made again (a new time): another key, drawn anew.
    SolveReview.objects.filter(solve=solve).update(made_at=timezone.now() + datetime.timedelta(seconds=1))
    client.get(results_url(daily), **FETCH)
    assert len(drawn) == 2


def test_the_sweep_draws_the_review_it_made_so_the_first_look_reads_it_kept(client, daily, monkeypatch):
    solve = make_solve(daily, "ada", 400)
    monkeypatch.setattr(tasks.coaching, "review_store", lambda pk: a_review(solve))
    Solve.objects.filter(pk=solve.pk).update(unranked=CHECKING)
    assert tasks.judge_waiting() == 1
    solve.refresh_from_db()
    assert cache.get(review_part.review_part_key(Solve.objects.select_related("annotated").get(pk=solve.pk)))
    monkeypatch.setattr(review_part, "render_to_string", lambda *a, **k: pytest.fail("drawn on the request"))
    log_in(client, "ada")
    assert "12 singles, to 0:36" in client.get(results_url(daily), **FETCH).content.decode()
