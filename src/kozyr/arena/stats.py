"""Small statistics for the arena: 95% intervals and Elo, with no dependency but ``math``.

Duplicate games are correlated (the same cards with the bots swapped), so intervals of
means are taken over *duplicate sets* (one value per set), never over single games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The 0.975 quantile of the standard normal distribution."""

# The 0.975 quantiles of Student's t for 1..30 degrees of freedom.
_T975 = (
    12.706204736,
    4.302652730,
    3.182446305,
    2.776445105,
    2.570581836,
    2.446911851,
    2.364624252,
    2.306004135,
    2.262157163,
    2.228138852,
    2.200985160,
    2.178812830,
    2.160368656,
    2.144786688,
    2.131449546,
    2.119905299,
    2.109815578,
    2.100922040,
    2.093024054,
    2.085963447,
    2.079613845,
    2.073873068,
    2.068657610,
    2.063898562,
    2.059538553,
    2.055529439,
    2.051830516,
    2.048407142,
    2.045229642,
    2.042272456,
)


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with its 95% confidence interval ``[low, high]`` and sample size ``n``."""

    value: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, float | int | None]:
        return {
            "value": finite(self.value),
            "low": finite(self.low),
            "high": finite(self.high),
            "n": self.n,
        }


def finite(x: float, digits: int = 6) -> float | None:
    """``x`` rounded for JSON, or None for an infinity or NaN (JSON has neither)."""
    return round(x, digits) if math.isfinite(x) else None


def t975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom.

    >>> round(t975(1), 3), round(t975(10), 3), round(t975(100), 3), round(t975(10**9), 3)
    (12.706, 2.228, 1.984, 1.96)
    """
    if df < 1:
        raise ValueError("t needs at least 1 degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    # Cornish-Fisher expansion around the normal quantile: < 1e-6 off for df > 30.
    z, v = Z95, float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4)
    )


def wilson(successes: float, n: int, z: float = Z95) -> Interval:
    """The proportion ``successes / n`` with its Wilson score interval.

    ``successes`` may be fractional (draws counted as halves).

    >>> w = wilson(8, 10)
    >>> round(w.value, 4), round(w.low, 4), round(w.high, 4)
    (0.8, 0.4902, 0.9433)
    """
    if n <= 0:
        return Interval(math.nan, 0.0, 1.0, 0)
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return Interval(p, low, high, n)


def mean_ci(values: Sequence[float]) -> Interval:
    """The mean of ``values`` with a Student t interval (a point when there is one value).

    >>> m = mean_ci([1.0, 2.0, 3.0, 4.0])
    >>> m.value, round(m.low, 4), round(m.high, 4)
    (2.5, 0.4457, 4.5543)
    """
    n = len(values)
    if n == 0:
        return Interval(math.nan, math.nan, math.nan, 0)
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, math.nan, math.nan, 1)  # no spread from one value
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = t975(n - 1) * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half, n)


def proportion_ci(successes: float, trials: int, per_set: Sequence[float]) -> Interval:
    """A proportion from duplicate games: the wider of two 95% intervals.

    The Wilson interval treats the ``trials`` games as independent; the t interval over
    ``per_set`` (the proportion within each duplicate set) allows for the correlation
    inside a set. Duplicate play usually makes the second one narrower (luck cancels);
    taking the wider keeps the interval honest when a set's games are alike.
    """
    w = wilson(successes, trials)
    if len(per_set) < 2:
        return w
    t = mean_ci(per_set)
    low = min(w.low, max(0.0, t.low))
    high = max(w.high, min(1.0, t.high))
    return Interval(w.value, low, high, trials)


def elo(p: float) -> float:
    """The Elo difference that makes an expected score of ``p``; ±inf at 1 and 0.

    >>> round(elo(0.75), 1), elo(0.5), elo(1.0)
    (190.8, 0.0, inf)
    """
    if math.isnan(p):
        return math.nan
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return 400.0 * math.log10(p / (1.0 - p))


def elo_interval(score: Interval) -> Interval:
    """An expected score and its interval, as Elo (``elo`` is increasing, so the ends map)."""
    return Interval(elo(score.value), elo(score.low), elo(score.high), score.n)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` by linear interpolation (numpy's default).

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([5.0], 0.99)
    (2.5, 5.0)
    """
    if not values:
        return math.nan
    xs = sorted(values)
    pos = q * (len(xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)
