"""``kozyr arena GAME --bots A,B[,C,D]``: bots against each other on duplicate deals."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from kozyr.arena.duplicate import Mode, schedule, seatings
from kozyr.arena.match import (
    ArenaError,
    BotSpec,
    GameResult,
    Task,
    check_bots,
    make_options,
    parse_bots,
    play_task,
)
from kozyr.arena.report import FORMAT, table, write_json, write_png
from kozyr.arena.summary import BotSummary, summarize


class GameChoice(StrEnum):
    imperial = "imperial"
    emperor = "emperor"


class ScheduleChoice(StrEnum):
    rotations = "rotations"
    permutations = "permutations"


def parse_options(items: Sequence[str]) -> dict[str, Any]:
    """``name=value`` pairs; values are JSON (``2``, ``true``) or else plain text.

    >>> parse_options(["target=2", "must_head=true"])
    {'target': 2, 'must_head': True}
    """
    out: dict[str, Any] = {}
    for item in items:
        name, eq, text = item.partition("=")
        name = name.strip()
        if not eq or not name:
            raise ArenaError(f"bad --option {item!r}: expected name=value, like target=2")
        try:
            out[name] = json.loads(text)
        except json.JSONDecodeError:
            out[name] = text.strip()
    return out


@dataclass(slots=True)
class ArenaRun:
    """A finished arena: what was asked, every game, and the per-bot figures."""

    game: str
    bots: list[BotSpec]
    options: dict[str, Any]
    seed: int
    mode: Mode
    budget: float
    jobs: int
    results: list[GameResult]
    summaries: list[BotSummary]
    matrix: list[list[float | None]]
    elapsed: float

    @property
    def labels(self) -> list[str]:
        return [b.label for b in self.bots]

    @property
    def title(self) -> str:
        sets = len({r.slot.set_index for r in self.results})
        return (
            f"{self.game}: {' vs '.join(self.labels)} - {len(self.results)} games "
            f"({sets} duplicate sets), seed {self.seed}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "options": self.options,
            "bots": [b.to_json() for b in self.bots],
            "seed": self.seed,
            "schedule": self.mode,
            "seatings": [list(s) for s in seatings(len(self.bots), self.mode)],
            "budget": self.budget,
            "games": len(self.results),
            "sets": len({r.slot.set_index for r in self.results}),
            "jobs": self.jobs,
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            "elapsed_seconds": round(self.elapsed, 3),
            "summary": [s.to_json() for s in self.summaries],
            "pairwise_score": {
                "rows_against_columns": self.labels,
                "matrix": self.matrix,
            },
            "results": [r.to_json(self.labels) for r in self.results],
        }


def run_arena(
    game: str,
    bots: list[BotSpec],
    games: int,
    seed: int,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    budget: float = 0.0,
    mode: Mode = "rotations",
    progress: Callable[[int, int], None] | None = None,
) -> ArenaRun:
    """Plays the schedule (in ``jobs`` worker processes when > 1) and sums it up.

    ``progress(done, total)`` is called after each game.
    """
    opts = make_options(game, len(bots), options or {}).to_json()
    check_bots(game, bots)
    slots = schedule(len(bots), games, seed, mode)
    tasks = [Task(game, opts, s, tuple(bots), budget) for s in slots]
    total = len(tasks)
    start = time.perf_counter()
    results: list[GameResult] = []
    if jobs <= 1:
        for task in tasks:
            results.append(play_task(task))
            if progress:
                progress(len(results), total)
    else:
        results = _parallel(tasks, jobs, progress)
    results.sort(key=lambda r: r.slot.index)
    summaries, matrix = summarize(game, [b.label for b in bots], results)
    return ArenaRun(
        game,
        bots,
        opts,
        seed,
        mode,
        budget,
        jobs,
        results,
        summaries,
        matrix,
        time.perf_counter() - start,
    )


def _parallel(
    tasks: list[Task], jobs: int, progress: Callable[[int, int], None] | None
) -> list[GameResult]:
    # spawn: workers start clean (no forked threads or locks) and behave the same on
    # every platform; each imports kozyr and builds its own bots from the task.
    context = multiprocessing.get_context("spawn")
    results: list[GameResult] = []
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        pending: set[Future[GameResult]] = {pool.submit(play_task, t) for t in tasks}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_EXCEPTION)
                for f in done:
                    results.append(f.result())  # re-raises a worker's error
                    if progress:
                        progress(len(results), len(tasks))
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    return results


def output_paths(out: Path | None, game: str) -> tuple[Path, Path]:
    """``<out>/<game>-<UTC timestamp>.json`` and ``.png``, not overwriting earlier runs."""
    folder = out if out is not None else Path("arena-results")
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    base = f"{game}-{stamp}"
    n = 1
    while (folder / f"{base}.json").exists() or (folder / f"{base}.png").exists():
        n += 1
        base = f"{game}-{stamp}-{n}"
    return folder / f"{base}.json", folder / f"{base}.png"


def _matrix_table(run: ArenaRun) -> Table:
    t = Table(title="pairwise score, row against column", title_justify="left")
    t.add_column("")
    for label in run.labels:
        t.add_column(label, justify="right")
    for label, row in zip(run.labels, run.matrix, strict=True):
        t.add_row(label, *("-" if v is None else f"{100 * v:.1f}%" for v in row))
    return t


def arena(
    game: Annotated[GameChoice, typer.Argument(help="imperial or emperor.")],
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Comma-separated bots, one per seat: random, heuristic, search, oracle, "
            "ismcts or a level 1-5; a budget in seconds per decision may follow an @ "
            "(search@0.1). Imperial takes 2 or 3 bots, Emperor 3 or 4.",
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            min=1,
            help="Games in total, rotations included; rounded up to whole duplicate sets "
            "(a set is one seed played with the bots in every seat).",
        ),
    ] = 800,
    seed: Annotated[
        int | None,
        typer.Option(help="Arena seed: fixes every deal and bot seed (random if left out)."),
    ] = None,
    jobs: Annotated[int, typer.Option(min=0, help="Worker processes (0 = one per CPU).")] = 1,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="A game option as name=value, repeatable (--option target=2).",
        ),
    ] = None,
    budget: Annotated[
        float,
        typer.Option(
            min=0.0,
            help="Seconds per decision for bots without an @ budget; 0 = each bot's own "
            "limit (levels 3/4/5: 0.25/0.8/2 s). A budget lowers a bot's limit, never raises it.",
        ),
    ] = 0.0,
    schedule_mode: Annotated[
        ScheduleChoice,
        typer.Option(
            "--schedule",
            help="Seatings of a duplicate set: cyclic rotations (n games) or all "
            "permutations (n! games).",
        ),
    ] = ScheduleChoice.rotations,
    out: Annotated[
        Path | None,
        typer.Option(help="Folder for the JSON and PNG results (default ./arena-results)."),
    ] = None,
    chart: Annotated[bool, typer.Option(help="Write the PNG chart.")] = True,
) -> None:
    """Bots against each other on duplicate deals: win rates, scores and Elo with 95% CIs."""
    console = Console(highlight=False)
    err = Console(stderr=True, highlight=False)
    try:
        specs = parse_bots(bots)
        options = parse_options(option or [])
        seed = random.randrange(1 << 31) if seed is None else seed
        workers = jobs or os.cpu_count() or 1
        # Validate before the progress bar starts.
        make_options(game.value, len(specs), options)
        check_bots(game.value, specs)
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=err,
        ) as bar:
            task_id = bar.add_task(f"{game.value}: {' vs '.join(b.label for b in specs)}")

            def advance(done: int, total: int) -> None:
                bar.update(task_id, completed=done, total=total)

            result = run_arena(
                game.value,
                specs,
                games,
                seed,
                workers,
                options,
                budget,
                schedule_mode.value,
                advance,
            )
    except ArenaError as e:
        err.print(f"error: {e}")
        raise typer.Exit(2) from e
    console.print(table(result.game, result.summaries, result.title))
    if len(specs) > 2:
        console.print(_matrix_table(result))
    console.print(
        "95% intervals over duplicate sets (proportions: the wider of that and Wilson). "
        "Elo: 400·log10(s/(1-s)) of the pairwise score s, against the average opponent."
    )
    json_path, png_path = output_paths(out, result.game)
    write_json(json_path, result.to_json())
    console.print(f"results: {json_path}")
    if chart:
        write_png(png_path, result.game, result.summaries, result.title)
        console.print(f"chart: {png_path}")
