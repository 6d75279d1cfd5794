#!/usr/bin/env python3
"""Fits the 関ヶ原大作戦 evaluation's weights (``bot::WEIGHTS``) to self-play outcomes.

The positions come from the ignored test ``dump_fit_data`` (``bot_tests.rs``), which plays
games between two search bots and writes, for every few decisions, the game, the turn, the
ten terms of ``bot::features`` and the East's final return (+1, 0 for a draw at the cap, -1):

    FIT_OUT=fit.csv FIT_GAMES=150 FIT_SPEC=ismcts:easy cargo test --release -p kassen-core \\
        --lib dump_fit_data -- --ignored
    python3 core/src/games/sekigahara_daisakusen/fit_weights.py fit.csv [more.csv ...]

The model is the evaluation's own: the East's expected return is ``tanh(SQUASH * w . f)``,
i.e. the East wins with probability ``sigmoid(2 * SQUASH * w . f)`` (a draw counts half). The
fit is logistic regression by Newton's method with a little L2; the log loss of the current
weights, of a constant, and of each fitted subset of terms is printed, the latter
cross-validated over five folds of whole games (positions of one game are not independent).
Weights are printed as the code writes them (before ``SQUASH``), ready for config
``"eval_weights"`` and ``duel``'s ``DUEL_CONFIG_A``. Needs numpy.
"""

from __future__ import annotations

import sys

import numpy as np

#: Copies of bot.rs's SQUASH and WEIGHTS (the CSV holds the terms, not the estimate): change
#: them with it.
SQUASH = 0.4
NAMES = ["marker", "material", "threat", "entry", "plots", "approach", "sortie", "marker*progress", "arrived", "bias"]
CURRENT = np.array([4.0, 1.0, 0.3, 1.0, 4.0, 6.0, -1.0, 0.0, 0.0, 0.0])
SUBSETS = {
    "the seven weighted terms": [1, 1, 1, 1, 1, 1, 1, 0, 0, 0],
    "without material": [1, 0, 1, 1, 1, 1, 1, 0, 0, 0],
    "all ten": [1] * 10,
}


def log_loss(v: np.ndarray, x: np.ndarray, t: np.ndarray) -> float:
    p = np.clip(1 / (1 + np.exp(-2 * x @ v)), 1e-9, 1 - 1e-9)
    return float(-np.mean(t * np.log(p) + (1 - t) * np.log(1 - p)))


def fit(x: np.ndarray, t: np.ndarray, keep: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    xs = x[:, keep]
    v = np.zeros(xs.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-2 * xs @ v))
        grad = 2 * xs.T @ (p - t) / len(t) + l2 * v
        hess = 4 * (xs.T * (p * (1 - p))) @ xs / len(t) + l2 * np.eye(len(v))
        v -= np.linalg.solve(hess, grad)
    out = np.zeros(x.shape[1])
    out[keep] = v
    return out


def main(paths: list[str]) -> int:
    rows = np.vstack([np.loadtxt(p, delimiter=",", ndmin=2) for p in paths])
    game, x, y = rows[:, 0].astype(int), rows[:, 2:12], rows[:, 12]
    t = (1 + y) / 2
    print(f"{len(y)} positions of {len(set(game))} games: East won {np.mean(y > 0):.3f}, drawn {np.mean(y == 0):.3f}")
    base = np.log(t.mean() / (1 - t.mean())) / 2
    print(f"log loss: current weights {log_loss(SQUASH * CURRENT, x, t):.4f}, a constant "
          f"{log_loss(np.eye(10)[9] * base, x, t):.4f}")
    games = np.array(sorted(set(game)))
    np.random.default_rng(0).shuffle(games)
    folds = np.array_split(games, 5)
    for name, keep in SUBSETS.items():
        keep = np.array(keep, bool)
        held = sum(log_loss(fit(x[~np.isin(game, f)], t[~np.isin(game, f)], keep), x[np.isin(game, f)], t[np.isin(game, f)])
                   * np.isin(game, f).sum() for f in folds) / len(t)
        w = fit(x, t, keep) / SQUASH
        print(f"{name}: cross-validated log loss {held:.4f}; eval_weights [{', '.join(f'{v:.2f}' for v in w)}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
