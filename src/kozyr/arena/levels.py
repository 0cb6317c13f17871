"""The bot levels on the players' rating scale (#31): arena games between the levels at
their own time caps, rated with openskill exactly as the server rates people, anchored so
that the levels' mean skill is a new player's (mu 25).

The games are whole games with the game's default options, as rated quick play plays
them, each seat placed by the Game spec's ``places`` (Imperial I12, Emperor E12), the
seats' order fixed by duplicate sets (every level of a pairing holds every seat's cards
once). The games are kept one JSON line each in a games file, so that samples grow over
several runs (on a quiet machine: the search levels stop on the wall clock, and a busy
machine makes them weaker than the ones shipped); the ratings are fitted from every game in
the file and written to the game's bots package (``bots/<game>/level_ratings.json``),
where :mod:`kozyr.bots.level_ratings` reads them for the page.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from kozyr.arena.duplicate import Slot, derive_seed
from kozyr.arena.match import BotSpec, Task, play
from kozyr.bots.level_ratings import FORMAT, LEVELS, LevelRating
from kozyr.games import GAMES

__all__ = [
    "ANCHOR",
    "LevelGame",
    "fit",
    "pairings",
    "play_level_game",
    "ratings_json",
    "run_levels",
    "tasks",
]

MODEL = PlackettLuce()
"""openskill's defaults, as the server's ratings (mu 25, sigma 25/3, beta 25/6, tau 25/300).
The arena may not import the server (ARCHITECTURE.md); tests/test_level_ratings.py holds
the two models equal."""
ANCHOR = MODEL.mu
"""The levels' mean mu after the fit: a new player's mu. The arena fixes only the levels'
distances from each other; a person who beats the levels as often as he loses to them, on
average, settles at the same mu."""


def pairings(players: int) -> list[tuple[int, ...]]:
    """The level line-ups an arena sweep plays, one duplicate set each: neighbours on the
    ladder (where the rating is most in doubt), and for two players the levels two apart
    too, so that no level's place rests on one pairing alone. A level is never in two seats.

    >>> pairings(2)
    [(1, 2), (2, 3), (3, 4), (4, 5), (1, 3), (2, 4), (3, 5)]
    >>> pairings(3)
    [(1, 2, 3), (2, 3, 4), (3, 4, 5)]
    >>> pairings(4)
    [(1, 2, 3, 4), (2, 3, 4, 5)]
    """
    out = [tuple(range(low, low + players)) for low in LEVELS[: len(LEVELS) - players + 1]]
    if players == 2:
        out += [(low, low + 2) for low in LEVELS[:-2]]
    return out


@dataclass(frozen=True, slots=True)
class LevelGame:
    """One finished arena game between levels."""

    sweep: int
    pairing: int
    rotation: int
    levels: tuple[int, ...]
    """The level in each seat."""
    places: tuple[int, ...]
    """Seats, best first."""

    def ranks(self) -> list[int]:
        """Each seat's place, 1 = first (openskill's ``ranks``).

        >>> LevelGame(0, 0, 0, (3, 4, 5), (2, 0, 1)).ranks()
        [2, 3, 1]
        """
        ranks = [0] * len(self.places)
        for place, seat in enumerate(self.places):
            ranks[seat] = place + 1
        return ranks

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> LevelGame:
        return cls(
            int(raw["sweep"]),
            int(raw["pairing"]),
            int(raw["rotation"]),
            tuple(int(x) for x in raw["levels"]),
            tuple(int(x) for x in raw["places"]),
        )


def tasks(game: str, players: int, seed: int, first_sweep: int) -> Iterator[Task]:
    """The games of sweep after sweep, from ``first_sweep`` on, without end: each pairing's
    duplicate set (its cyclic rotations) in turn. A game's cards and bot seeds come from
    ``seed``, its sweep and pairing alone."""
    lineups = pairings(players)
    options = GAMES[game].options_from_json({"players": players}).to_json()
    index = 0
    sweep = first_sweep
    while True:
        for k, lineup in enumerate(lineups):
            deal_seed = derive_seed(seed, "levels", players, sweep, k)
            bots = tuple(BotSpec(str(level), None, f"level{level}") for level in lineup)
            for r in range(players):
                seats = tuple((s + r) % players for s in range(players))
                bot_seeds = tuple(derive_seed(seed, "bot", sweep, k, r, s) for s in seats)
                slot = Slot(index, sweep * len(lineups) + k, r, seats, deal_seed, bot_seeds)
                index += 1
                yield Task(game, options, slot, bots, 0.0)
        sweep += 1


def play_level_game(task: Task) -> dict[str, Any]:
    """Plays one task (in a worker process) and returns its games-file line."""
    load_before = os.getloadavg()[0]
    result, state = play(task)
    sweep, pairing = divmod(task.slot.set_index, len(pairings(len(task.slot.seats))))
    return {
        "sweep": sweep,
        "pairing": pairing,
        "rotation": task.slot.rotation,
        "deal_seed": task.slot.deal_seed,
        "levels": [int(task.bots[b].kind) for b in task.slot.seats],
        "places": list(GAMES[task.game].result(state).places),
        "decisions": [len(t) for t in result.times],
        "think_seconds": [round(sum(t), 3) for t in result.times],
        "max_decision": [round(max(t, default=0.0), 3) for t in result.times],
        "load": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "utc": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def fit(games: Iterable[LevelGame]) -> dict[int, LevelRating]:
    """Every level's rating from the games, in their order, as the server rates a rated
    game (one team per seat, ranked by place), then shifted so that the levels' mean mu is
    :data:`ANCHOR`. A level in no game keeps a new player's rating.

    >>> r = fit([LevelGame(0, 0, 0, (1, 2), (1, 0))] * 20)
    >>> r[2].mu > r[1].mu and r[1].games == r[2].games == 20 and r[3].games == 0
    True
    >>> round(sum(x.mu for x in r.values()) / 5, 9) == ANCHOR
    True
    """
    skills = {level: MODEL.rating() for level in LEVELS}
    counts = dict.fromkeys(LEVELS, 0)
    for g in games:
        teams = [[skills[level]] for level in g.levels]
        rated = MODEL.rate(teams, ranks=[float(r) for r in g.ranks()])
        for level, team in zip(g.levels, rated, strict=True):
            skills[level] = team[0]
            counts[level] += 1
    shift = ANCHOR - sum(s.mu for s in skills.values()) / len(skills)
    return {
        level: LevelRating(skills[level].mu + shift, skills[level].sigma, counts[level])
        for level in LEVELS
    }


def read_games(path: Path, players: int) -> list[LevelGame]:
    """The games of ``players`` players kept in a games file (none if there is no file)."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            raw = json.loads(line)
            if len(raw["levels"]) == players:
                out.append(LevelGame.from_json(raw))
    return out


def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return done.stdout.strip()


def ratings_json(
    previous: dict[str, Any] | None, players: int, games: Sequence[LevelGame]
) -> dict[str, Any]:
    """The game's ratings file with this player count's entry (re)written from ``games``."""
    data: dict[str, Any] = {"format": FORMAT}
    if previous and previous.get("format") == FORMAT:
        data = previous
    variants: dict[str, Any] = dict(data.get("players", {}))
    fitted = fit(games)
    variants[str(players)] = {
        "games": len(games),
        "computed": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": _commit(),
        "levels": {str(level): r.to_json() for level, r in fitted.items()},
    }
    return {**data, "players": dict(sorted(variants.items()))}


def run_levels(
    game: str,
    players: int,
    games_file: Path,
    minutes: float,
    jobs: int,
    seed: int,
    progress: Callable[[dict[str, Any]], None] | None = None,
) -> int:
    """Plays sweeps of level games for ``minutes`` (the games under way when the time is
    up are finished), appending each to ``games_file``; returns how many were played.
    Sweeps go on from the last one in the file, so a second run adds new cards."""
    known = read_games(games_file, players)
    first = max((g.sweep for g in known), default=-1) + 1
    deadline = time.monotonic() + 60 * minutes
    source = tasks(game, players, seed, first)
    played = 0
    games_file.parent.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(max_workers=jobs) as pool, games_file.open("a") as out:
        running: set[Future[dict[str, Any]]] = set()
        while True:
            while len(running) < jobs and time.monotonic() < deadline:
                running.add(pool.submit(play_level_game, next(source)))
            if not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for f in done:
                line = f.result()
                out.write(json.dumps(line, sort_keys=True) + "\n")
                out.flush()
                played += 1
                if progress:
                    progress(line)
    return played
