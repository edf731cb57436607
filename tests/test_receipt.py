"""The receipt after a solve: what receipt.py works out, and the results fragment (views/pages.py)
that shows it with the day's leaderboard and the player's percentile."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from puzzles import engine
from puzzles.models import Attempt, Solve, site_today
from puzzles.results import receipt

from .factories import (
    EASY_SOLUTION,
    log_in,
    make_daily,
    make_puzzle,
    make_solve,
    solve_through_api,
    url,
)

pytestmark = pytest.mark.django_db

SOLUTION = EASY_SOLUTION


def results_url(daily):
    return reverse("puzzles:results", args=[daily.date, daily.difficulty])


# --- the receipt ----------------------------------------------------------------------------


def test_the_receipt_names_the_hardest_technique_in_engine_order_and_why(daily):
    medium = make_daily(daily.date, "medium", make_puzzle("medium", 1))
    made = receipt.receipt_for(medium)
    names = [t.name for t in made.techniques]
    assert names == [t.name for t in engine.TECHNIQUES if t.name in medium.puzzle.techniques]
    assert made.hardest.name == medium.puzzle.hardest and made.hardest.explanation
    rating = engine.rate(medium.puzzle.givens)
    assert made.hardest.explanation == next(s.explanation for s in rating.steps if s.technique == made.hardest.name)
    assert "Medium" in made.why and "medium technique" in made.why
    assert made.steps == sum(medium.puzzle.techniques.values())


def test_the_hardest_step_is_cached_per_puzzle_and_the_page_survives_a_broken_cache(daily, monkeypatch):
    first = receipt.hardest_step(daily.puzzle)

    def no_rating(*args, **kwargs):
        raise AssertionError("rated again instead of using the cache")

    monkeypatch.setattr(receipt.engine, "rate", no_rating)
    assert receipt.hardest_step(daily.puzzle) == first
    monkeypatch.undo()

    class BrokenCache:
        def get(self, *args, **kwargs):
            raise ConnectionError("cache is down")

        set = get

    monkeypatch.setattr(receipt, "cache", BrokenCache())
    assert receipt.hardest_step(daily.puzzle) == first


# --- the results fragment -------------------------------------------------------------------


def test_the_results_are_a_404_until_the_player_has_solved_the_puzzle(client, daily):
    anonymous = client.get(results_url(daily))
    assert anonymous.status_code == 404 and b"Solve the puzzle first" in anonymous.content
    make_solve(daily, "someone-else", 100)  # another player's solve unlocks nothing for us
    log_in(client, "ada")
    client.get(url(daily))  # started, not solved
    response = client.get(results_url(daily))
    assert response.status_code == 404
    body = response.content.decode()
    assert "Solve the puzzle first" in body
    for secret in ("Hardest", "single", "someone-else", "leaderboard</h3>", SOLUTION):
        assert secret not in body


def test_the_results_show_the_receipt_leaderboard_and_percentile_after_the_solve(client, daily):
    make_solve(daily, "rival", 400)
    make_solve(daily, "ace", 100)
    me = log_in(client, "ada")
    make_solve(daily, "ada", 200)
    response = client.get(results_url(daily))
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith("<section") and "<html" not in body and 'id="sudoku-results"' in body
    assert 'Solved in <span class="results-time">3:20</span>' in body
    assert "Faster than 33% of today&#x27;s solvers." in body
    # The techniques as stored, with friendly names and counts, and the hardest step's wording.
    assert "Naked single" in body and "used</span> 49<span" in body
    # A singles-only puzzle's hardest step is the hardest single the engine takes.
    rating = engine.rate(daily.puzzle.givens)
    hardest = next(s for s in rating.steps if s.technique == rating.hardest)
    assert "Hardest step" in body and escape(hardest.explanation) in body
    assert "median time for easy: <strong>3:20</strong> (3 ranked solves)" in body
    # The leaderboard, with the player's own row marked.
    assert "<caption>" in body and body.index("ace") < body.index("ada") < body.index("rival")
    assert 'class="is-player" aria-current="true"><td>2</td>' in body
    assert response["Cache-Control"].startswith("max-age=0")
    assert Solve.objects.get(user=me).seconds == 200


def test_the_results_explain_why_an_unranked_solve_is_not_on_the_board(client, daily):
    me = log_in(client, "ada")
    attempt = Attempt.objects.create(user=me, daily=daily)
    Solve.objects.create(attempt=attempt, user=me, daily=daily, seconds=500, assisted=True)
    body = client.get(results_url(daily)).content.decode()
    assert "Not on the leaderboard: you used hints or checks." in body
    assert "No ranked solves yet" in body


def test_the_results_say_why_the_record_of_play_earns_no_rank(client, daily):
    # Through the board's API without moves, as a script submits: recorded, judged, not ranked.
    log_in(client, "ada")
    assert solve_through_api(client, daily, 200)["solved"] is True
    body = client.get(results_url(daily)).content.decode()
    assert "Not on the leaderboard: the server has no record of your moves" in body


def test_a_disqualified_player_is_told_on_their_results(client, daily):
    me = log_in(client, "ada")
    solve = make_solve(daily, "ada", 200)
    Solve.objects.filter(pk=solve.pk).update(review=Solve.Review.DISQUALIFIED)
    body = client.get(results_url(daily)).content.decode()
    assert "Not on the leaderboard: it was disqualified after review." in body
    assert Solve.objects.get(user=me).review == "disqualified"


def test_the_results_say_the_ranked_time_when_it_reads_otherwise_than_the_clock(client, daily):
    log_in(client, "ada")
    solve = make_solve(daily, "ada", 200)
    Solve.objects.filter(pk=solve.pk).update(ranked_seconds=345)
    body = client.get(results_url(daily)).content.decode()
    assert 'Solved in <span class="results-time">3:20</span>' in body
    assert "Ranked by <strong>5:45</strong>" in body


def test_the_leaderboard_says_how_ranking_works_with_the_numbers_in_force(client, daily, settings):
    settings.LEADERBOARD_FLOOR_SECONDS = {"easy": 25}
    settings.RANKED_ACCOUNT_MIN_HOURS, settings.DAY_FLOOR_FRACTION, settings.DAY_FLOOR_MIN_SOLVES = 8, 0.3, 15
    settings.BOARD_SAVE_EVERY_SECONDS = 6  # a large save: twice its window's digits
    log_in(client, "ada")
    make_solve(daily, "ada", 200)
    body = client.get(results_url(daily)).content.decode()
    rules = body[body.index('<details class="results-rules">') : body.index("</details>")]
    assert "<summary>How ranking works</summary>" in rules
    for number in ("0:25", "8 hours", "30%", "15 ranked solves", "over 12 digits", "over 9 of them", "0.75 s apart"):
        assert number in rules


def test_results_of_a_puzzle_that_is_not_served_are_a_404(client, daily):
    log_in(client, "ada")
    tomorrow = site_today() + datetime.timedelta(days=1)
    assert client.get(f"/daily/{tomorrow.isoformat()}/easy/results/").status_code == 404
    assert client.get(f"/daily/{daily.date.isoformat()}/nonsense/results/").status_code == 404
    assert client.post(results_url(daily)).status_code == 405


def test_the_receipt_links_each_technique_and_the_hardest_step_to_the_guide(client, daily):
    log_in(client, "ada")
    make_solve(daily, "ada", 200)
    body = client.get(results_url(daily)).content.decode()
    for name in daily.puzzle.techniques:
        title = engine.technique_title(name)
        assert f'<a href="{reverse("puzzles:learn-technique", args=[name])}">{title}</a>' in body
    hardest = receipt.hardest_step(daily.puzzle)
    assert hardest is not None
    link = reverse("puzzles:learn-technique", args=[hardest.name])
    assert f'<strong>Hardest step: <a href="{link}">{hardest.title}</a>.</strong>' in body
    assert f'<a href="{reverse("puzzles:learn")}">Every technique explained' in body


def test_a_technique_the_engine_does_not_know_is_named_without_a_link():
    (known, unknown) = receipt._ordered_counts({"naked-single": 3, "made-up-technique": 1})
    assert known.in_guide and not unknown.in_guide


def test_the_kept_receipt_is_each_boards_own_and_moves_with_a_new_ranked_solve(daily):
    """The receipt and the ranking rules are drawn once per day's board and kept (views/pages.py):
    two players of one board read the same, and a new ranked solve, which moves the median, is
    shown at once."""
    make_solve(daily, "rival", 400)
    make_solve(daily, "ada", 200)
    clients = {}
    for name in ("ada", "rival"):
        clients[name] = Client()
        log_in(clients[name], name)

    def receipt(name: str) -> str:
        body = clients[name].get(results_url(daily)).content.decode()
        return body.split('<section class="results-receipt"', 1)[1].split("</section>", 1)[0]

    first = receipt("ada")
    assert "<strong>5:00</strong> (2 ranked solves)" in first and "Hardest step" in first
    assert receipt("rival") == first == receipt("ada")
    make_solve(daily, "ace", 100)
    assert "<strong>3:20</strong> (3 ranked solves)" in receipt("rival")
