"""Glicko-2, as Glickman's "Example of the Glicko-2 system" (2013) writes it: pure, standard library.

A rating is (rating, deviation, volatility) on Glicko's scale (1500 and 350 for a newcomer); the
steps below work on Glicko-2's own scale (mu, phi), 173.7178 times smaller. A rating period
updates one side from every game it played in that period; the site makes each solve a period
of its own for both sides (contest).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Rating = tuple[float, float, float]  # (rating, deviation, volatility)
Game = tuple[Rating, float]  # (the opponent's rating before the period, the score 0 to 1)

SCALE = 173.7178  # Glicko's scale over Glicko-2's (Glickman's step 2)
CENTRE = 1500.0
TAU = 0.5  # the system constant: how far the volatility may move (Glickman suggests 0.3 to 1.2)
EPSILON = 0.000001  # the convergence tolerance of step 5


def g(phi: float) -> float:
    """How much an opponent's uncertainty dulls a game's weight (Glickman's g)."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def expected_score(mu: float, mu_opponent: float, phi_opponent: float) -> float:
    """The expected score against an opponent, on Glicko-2's scale (Glickman's E)."""
    return 1 / (1 + math.exp(-g(phi_opponent) * (mu - mu_opponent)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the volatility that solves Glickman's f(x) = 0, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(player: Rating, games: Sequence[Game], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with `games`; with none only the deviation grows."""
    rating, deviation, sigma = player
    mu, phi = (rating - CENTRE) / SCALE, deviation / SCALE
    if not games:
        return rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma
    weights = []
    for (opp_rating, opp_deviation, _), score in games:
        mu_j, phi_j = (opp_rating - CENTRE) / SCALE, opp_deviation / SCALE
        weights.append((g(phi_j), expected_score(mu, mu_j, phi_j), score))
    v = 1 / sum(gj * gj * e * (1 - e) for gj, e, _ in weights)
    improvement = sum(gj * (s - e) for gj, e, s in weights)
    new_sigma = _new_volatility(sigma, phi, v, v * improvement, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return CENTRE + SCALE * new_mu, SCALE * new_phi, new_sigma


def contest(player: Rating, puzzle: Rating, score: float, tau: float = TAU) -> tuple[Rating, Rating]:
    """Both sides after one game, a period of its own: the player scored `score`, the puzzle the rest."""
    return rate(player, [(puzzle, score)], tau), rate(puzzle, [(player, 1 - score)], tau)


def expected(player: Rating, opponent: Rating) -> float:
    """The player's expected score against the opponent, on Glicko's scale."""
    return expected_score((player[0] - CENTRE) / SCALE, (opponent[0] - CENTRE) / SCALE, opponent[1] / SCALE)
