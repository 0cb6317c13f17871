"""From game results to per-bot figures with 95% intervals (see ``stats``).

Intervals of means are over duplicate sets: each set gives one value per bot (its mean
over the set's games), so the luck shared by a set's games is not counted as evidence.

Figures per bot:

- Imperial: ``win_rate`` (games won), ``imperial_diff`` (imperials marked minus the mean
  of the opponents', per deal played).
- Emperor: ``mean_total`` (final total of tricks, E11), ``emperor_share`` (games ended as
  Emperor, the first of the final standing, E12).
- Both: ``score``, the mean pairwise score against the other seats of each game (1 for a
  better result than one opponent, ½ for equal, 0 for worse: in Imperial the winner
  beats everyone and the others compare imperials, then loose points; in Emperor the
  final totals compare), and ``elo`` = 400·log10(score/(1-score)), the bot's Elo
  difference to the average of its opponents. With two players ``score`` is the win rate.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kozyr.arena.match import GameResult
from kozyr.arena.stats import Interval, elo_interval, finite, mean_ci, percentile, proportion_ci

METRICS: dict[str, tuple[tuple[str, str], ...]] = {
    "imperial": (
        ("win_rate", "win rate"),
        ("imperial_diff", "imperials/deal"),
        ("score", "pair score"),
        ("elo", "Elo"),
    ),
    "emperor": (
        ("mean_total", "final total"),
        ("emperor_share", "Emperor share"),
        ("score", "pair score"),
        ("elo", "Elo"),
    ),
}
"""Each game's figures in table order: (key, heading)."""

MAIN = {"imperial": "win_rate", "emperor": "mean_total"}
"""The main figure of each game (the chart's first panel)."""


@dataclass(frozen=True, slots=True)
class Timing:
    """Seconds per decision of one bot over all its games."""

    decisions: int
    mean: float
    median: float
    p99: float
    max: float

    def to_json(self) -> dict[str, float | int | None]:
        return {
            "decisions": self.decisions,
            "mean": finite(self.mean, 9),
            "median": finite(self.median, 9),
            "p99": finite(self.p99, 9),
            "max": finite(self.max, 9),
        }


@dataclass(frozen=True, slots=True)
class BotSummary:
    label: str
    games: int
    figures: dict[str, Interval]
    timing: Timing

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "games": self.games,
            **{k: v.to_json() for k, v in self.figures.items()},
            "seconds_per_decision": self.timing.to_json(),
        }


def _imperial_key(outcome: dict[str, Any], seat: int) -> tuple[float, ...]:
    won = 1.0 if outcome["winner"] == seat else 0.0
    return (won, float(outcome["imperials"][seat]), float(outcome["points"][seat]))


def _emperor_key(outcome: dict[str, Any], seat: int) -> tuple[float, ...]:
    return (float(outcome["totals"][seat]),)


def _imperial_own(outcome: dict[str, Any], seat: int, n: int) -> dict[str, float]:
    imps = outcome["imperials"]
    others = (sum(imps) - imps[seat]) / (n - 1)
    return {
        "wins": 1.0 if outcome["winner"] == seat else 0.0,
        "imp_diff": imps[seat] - others,
        "deals": float(outcome["deals"]),
    }


def _emperor_own(outcome: dict[str, Any], seat: int, n: int) -> dict[str, float]:
    standing = outcome["standing"] or []
    return {
        "total": float(outcome["totals"][seat]),
        "emperor": 1.0 if standing and standing[0] == seat else 0.0,
    }


def _imperial_figures(sets: list[dict[str, float]], games: int) -> dict[str, Interval]:
    wins = sum(s["wins"] for s in sets)
    return {
        "win_rate": proportion_ci(wins, games, [s["wins"] / s["games"] for s in sets]),
        "imperial_diff": mean_ci([s["imp_diff"] / s["deals"] for s in sets]),
    }


def _emperor_figures(sets: list[dict[str, float]], games: int) -> dict[str, Interval]:
    emperors = sum(s["emperor"] for s in sets)
    return {
        "mean_total": mean_ci([s["total"] / s["games"] for s in sets]),
        "emperor_share": proportion_ci(emperors, games, [s["emperor"] / s["games"] for s in sets]),
    }


@dataclass(frozen=True, slots=True)
class GameFigures:
    """How the arena measures one game's bots, from the outcomes of ``match.OUTCOMES``."""

    key: Callable[[dict[str, Any], int], tuple[float, ...]]
    """What ranks seats in a game for pairwise scores (higher is better)."""
    own: Callable[[dict[str, Any], int, int], dict[str, float]]
    """A seat's raw numbers from one game (outcome, seat, players), summed over a set."""
    figures: Callable[[list[dict[str, float]], int], dict[str, Interval]]
    """The game's own figures from the per-set sums and the number of games."""


FIGURES: dict[str, GameFigures] = {
    "imperial": GameFigures(_imperial_key, _imperial_own, _imperial_figures),
    "emperor": GameFigures(_emperor_key, _emperor_own, _emperor_figures),
}


def pairwise(game: str, result: GameResult) -> dict[tuple[int, int], float]:
    """Score of bot a against bot b in this game, for every ordered pair of bots."""
    seats = result.slot.seats
    keys = [FIGURES[game].key(result.outcome, s) for s in range(len(seats))]
    out: dict[tuple[int, int], float] = {}
    for s, a in enumerate(seats):
        for t, b in enumerate(seats):
            if s != t:
                out[(a, b)] = 1.0 if keys[s] > keys[t] else 0.5 if keys[s] == keys[t] else 0.0
    return out


def summarize(
    game: str, labels: Sequence[str], results: Sequence[GameResult]
) -> tuple[list[BotSummary], list[list[float | None]]]:
    """Per-bot figures, and the pairwise score matrix (row bot against column bot)."""
    nb = len(labels)
    # per bot: per set: summed raw numbers, games, pairwise score sum and comparisons
    per_set: list[dict[int, dict[str, float]]] = [{} for _ in range(nb)]
    pair_sum = [[0.0] * nb for _ in range(nb)]
    pair_n = [[0] * nb for _ in range(nb)]
    times: list[list[float]] = [[] for _ in range(nb)]
    for r in results:
        scores = pairwise(game, r)
        for seat, b in enumerate(r.slot.seats):
            acc = per_set[b].setdefault(r.slot.set_index, {"games": 0.0, "score": 0.0, "cmp": 0.0})
            acc["games"] += 1
            for k, v in FIGURES[game].own(r.outcome, seat, len(r.slot.seats)).items():
                acc[k] = acc.get(k, 0.0) + v
            times[b].extend(r.times[seat])
        for (a, b), v in scores.items():
            pair_sum[a][b] += v
            pair_n[a][b] += 1
            acc = per_set[a][r.slot.set_index]
            acc["score"] += v
            acc["cmp"] += 1
    summaries: list[BotSummary] = []
    for b, label in enumerate(labels):
        sets = list(per_set[b].values())
        games = int(sum(s["games"] for s in sets))
        figures = FIGURES[game].figures(sets, games)
        cmp = int(sum(s["cmp"] for s in sets))
        score = proportion_ci(
            sum(s["score"] for s in sets), cmp, [s["score"] / s["cmp"] for s in sets if s["cmp"]]
        )
        figures["score"] = score
        figures["elo"] = elo_interval(score)
        summaries.append(BotSummary(label, games, figures, _timing(times[b])))
    matrix: list[list[float | None]] = [
        [finite(pair_sum[a][b] / pair_n[a][b]) if pair_n[a][b] else None for b in range(nb)]
        for a in range(nb)
    ]
    return summaries, matrix


def _timing(ts: Sequence[float]) -> Timing:
    if not ts:
        return Timing(0, math.nan, math.nan, math.nan, math.nan)
    return Timing(
        len(ts), math.fsum(ts) / len(ts), percentile(ts, 0.5), percentile(ts, 0.99), max(ts)
    )
