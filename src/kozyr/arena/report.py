"""The arena's outputs: a Rich table, a JSON file with every game, a PNG chart."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.table import Table

from kozyr.arena.stats import Interval
from kozyr.arena.summary import MAIN, METRICS, BotSummary

FORMAT = "kozyr-arena/1"

_PERCENT = {"win_rate", "emperor_share", "score"}


def _num(key: str, x: float, unit: bool = True) -> str:
    if math.isnan(x):
        return "-"
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    if key in _PERCENT:
        return f"{100 * x:.1f}{'%' if unit else ''}"
    if key == "elo":
        return f"{x:+.0f}"
    if key == "imperial_diff":
        return f"{x:+.3f}"
    return f"{x:.2f}"


def cell(key: str, iv: Interval) -> str:
    """``value [low, high]`` in the figure's unit.

    >>> cell("win_rate", Interval(0.75, 0.6, 0.9, 10))
    '75.0% [60.0%, 90.0%]'
    """
    return f"{_num(key, iv.value)} [{_num(key, iv.low)}, {_num(key, iv.high)}]"


def _two_line(key: str, iv: Interval) -> str:
    low, high = _num(key, iv.low, unit=False), _num(key, iv.high, unit=False)
    return f"{_num(key, iv.value)}\n[dim]{low}..{high}[/dim]"


def _ms(x: float) -> str:
    if math.isnan(x):
        return "-"
    ms = 1000 * x
    return f"{ms:.3f}" if ms < 1 else f"{ms:.1f}" if ms < 100 else f"{ms:.0f}"


def table(game: str, summaries: Sequence[BotSummary], title: str) -> Table:
    """One row per bot: each figure over its 95% interval, then decision times.

    With two players the pairwise score is the win rate, so it is left out.
    """
    keys = [
        (key, heading)
        for key, heading in METRICS[game]
        if not (key == "score" and len(summaries) == 2 and MAIN[game] == "win_rate")
    ]
    t = Table(title=title, title_justify="left", caption="each figure over its 95% interval")
    t.add_column("bot", style="bold")
    t.add_column("games", justify="right")
    for _, heading in keys:
        t.add_column(heading, justify="right")
    t.add_column("ms/move median", justify="right")
    t.add_column("ms p99", justify="right")
    for s in summaries:
        t.add_row(
            s.label,
            str(s.games),
            *(_two_line(key, s.figures[key]) for key, _ in keys),
            _ms(s.timing.median),
            _ms(s.timing.p99),
        )
    return t


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")


def _errors(ivs: Sequence[Interval], clip: float) -> tuple[list[float], list[list[float]]]:
    """Values and (below, above) error lengths; infinite ends are drawn at ``clip``."""
    values: list[float] = []
    below: list[float] = []
    above: list[float] = []
    for iv in ivs:
        v = max(-clip, min(clip, iv.value)) if not math.isnan(iv.value) else 0.0
        lo = max(-clip, min(clip, iv.low)) if not math.isnan(iv.low) else v
        hi = max(-clip, min(clip, iv.high)) if not math.isnan(iv.high) else v
        values.append(v)
        below.append(max(0.0, v - lo))
        above.append(max(0.0, hi - v))
    return values, [below, above]


def write_png(path: Path, game: str, summaries: Sequence[BotSummary], title: str) -> None:
    """Two panels with 95% error bars: the game's main figure and Elo vs the field."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [s.label for s in summaries]
    main = MAIN[game]
    heading = dict(METRICS[game])[main]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4.2), constrained_layout=True)
    try:
        xs = list(range(len(labels)))
        scale = 100.0 if main in _PERCENT else 1.0
        values, err = _errors([s.figures[main] for s in summaries], math.inf)
        ax1.bar(
            xs,
            [v * scale for v in values],
            yerr=[[e * scale for e in side] for side in err],
            capsize=6,
            color="#4c72b0",
        )
        if main == "win_rate":
            ax1.axhline(100.0 / len(labels), color="grey", linestyle="--", linewidth=1)
            ax1.set_ylabel("games won (%)")
            ax1.set_ylim(0, 100)
        else:
            par = sum(values) / len(values)  # every game hands out the same tricks
            ax1.axhline(par, color="grey", linestyle="--", linewidth=1)
            ax1.set_ylabel("final total (tricks)")
        ax1.set_title(f"{heading}, 95% CI")
        ax1.set_xticks(xs, labels, rotation=20)
        elo_values, elo_err = _errors([s.figures["elo"] for s in summaries], 800.0)
        ax2.bar(xs, elo_values, yerr=elo_err, capsize=6, color="#dd8452")
        ax2.axhline(0.0, color="grey", linewidth=1)
        ax2.set_ylabel("Elo vs the average opponent")
        ax2.set_title("Elo (from pairwise score), 95% CI")
        ax2.set_xticks(xs, labels, rotation=20)
        fig.suptitle(title)
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=110)
    finally:
        plt.close(fig)
