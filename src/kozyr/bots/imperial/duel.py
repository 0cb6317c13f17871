"""Duplicate matches between Imperial bots, for tuning and for the figures in docs/bots.md.

Each game seed is played twice with the seats swapped, so both bots get the same deals
(luck of the cards cancels out). Whole games: two players only.

    .venv/bin/python -m kozyr.bots.imperial.duel heuristic random --games 100
    .venv/bin/python -m kozyr.bots.imperial.duel search heuristic --games 50 --worlds 20
    .venv/bin/python -m kozyr.bots.imperial.duel search heuristic --deals --players 3

``--deals`` measures the points scored in card play per deal instead (the declarations
are the same for both bots): a much finer measure than whole games, whose outcome the
deal's declarations mostly decide.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from kozyr.bots.base import Bot
from kozyr.bots.random_bot import RandomBot
from kozyr.games.imperial import ImperialOptions, ImperialState

from .heuristic import HeuristicBot
from .levels import level_bot
from .oracle import OracleBot
from .search import SearchBot

__all__ = ["DuelResult", "duplicate_match", "make", "play_points_match"]

_PLAY_REASONS = frozenset({"honour led", "honour heads the trick", "tricks", "capot"})


@dataclass
class DuelResult:
    games: int = 0
    wins_a: int = 0
    deals: int = 0
    pairs_a: int = 0
    """Seeds where A won with both seatings (the deals' luck did not decide)."""
    pairs_b: int = 0
    margin: int = 0
    """A's imperials minus B's at the end of the games, summed."""
    times_a: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.wins_a / self.games if self.games else 0.0


def make(kind: str, seed: int, worlds: int | None, cap: float) -> Bot:
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot(seed)
    if kind == "search":
        return SearchBot(seed, cap=cap, max_worlds=worlds)
    if kind == "oracle":
        return OracleBot(seed)
    if kind.startswith("level"):
        return level_bot(int(kind[5:]), seed, max_worlds=worlds)
    raise ValueError(f"unknown kind {kind!r}")


def play_game(
    bots: list[Bot], seed: int, budget: float, times: dict[int, list[float]]
) -> tuple[int, int, list[int]]:
    """Plays one 2-player game; returns (winner seat, deals played, imperials per seat)."""
    state = ImperialState.new(ImperialOptions(players=2), seed=seed)
    while not state.over:
        seat = state.to_act
        assert seat is not None
        bot = bots[seat]
        legal = state.legal_actions()
        t0 = time.perf_counter()
        if isinstance(bot, OracleBot):
            action = bot.choose_state(state, budget)
        else:
            action = bot.choose(state.observation(seat), legal, budget)
        times.setdefault(seat, []).append(time.perf_counter() - t0)
        state.apply(action)
    assert state.winner is not None
    return state.winner, state.deal_number, list(state.imperials)


def duplicate_match(
    make_a: Callable[[int], Bot],
    make_b: Callable[[int], Bot],
    seeds: range,
    budget: float = 1.0,
    progress: bool = False,
) -> DuelResult:
    result = DuelResult()
    for seed in seeds:
        won = 0
        for a_seat in (0, 1):
            bots = [make_b(seed), make_b(seed)]
            bots[a_seat] = make_a(seed)
            times: dict[int, list[float]] = {}
            winner, deals, imperials = play_game(bots, seed, budget, times)
            result.games += 1
            result.deals += deals
            result.wins_a += winner == a_seat
            won += winner == a_seat
            result.margin += imperials[a_seat] - imperials[1 - a_seat]
            result.times_a += times.get(a_seat, [])
        result.pairs_a += won == 2
        result.pairs_b += won == 0
        if progress:
            print(f"seed {seed}: {result.wins_a}/{result.games}", flush=True)
    return result


def play_points_match(
    make_a: Callable[[int], Bot],
    make_b: Callable[[int], Bot],
    seeds: range,
    players: int = 2,
    budget: float = 1.0,
) -> tuple[float, float, int]:
    """The first deal of each seed, once with A in every seat (B in the others): A's points
    scored in play (I8 honours, I10 tricks and capot, a tombé as 24) minus the opponents'
    mean, per deal. Returns (mean, standard error, deals)."""
    diffs: list[float] = []
    for seed in seeds:
        for a_seat in range(players):
            state = ImperialState.new(ImperialOptions(players=players), seed=seed)
            bots = [make_b(seed + 1 + s) for s in range(players)]
            bots[a_seat] = make_a(seed)
            first = len(state.events)
            number = state.deal_number
            while state.deal_number == number and state.to_act is not None:
                seat = state.to_act
                bot = bots[seat]
                if isinstance(bot, OracleBot):
                    action = bot.choose_state(state, budget)
                else:
                    action = bot.choose(state.observation(seat), state.legal_actions(), budget)
                state.apply(action)
            points = [0.0] * players
            for e in state.events[first:]:
                if e["type"] == "score" and e["reason"] in _PLAY_REASONS:
                    points[e["seat"]] += e["points"]
                elif e["type"] == "mark" and e["reason"] == "imperial tombé":
                    points[e["seat"]] += 24 * e["imperials"]
            others = sum(points[s] for s in range(players) if s != a_seat) / (players - 1)
            diffs.append(points[a_seat] - others)
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
    return mean, se, len(diffs)


def main() -> None:
    parser = argparse.ArgumentParser(description="duplicate Imperial match, two players")
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--games", type=int, default=50, help="seeds (each played twice)")
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--worlds", type=int, default=None, help="fixed worlds per search")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per card")
    parser.add_argument("--progress", action="store_true")
    parser.add_argument(
        "--deals", action="store_true", help="play points per deal instead of whole games"
    )
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    args = parser.parse_args()
    t0 = time.perf_counter()
    if args.deals:
        mean, se, deals = play_points_match(
            lambda s: make(args.a, s, args.worlds, args.budget),
            lambda s: make(args.b, s, args.worlds, args.budget),
            range(args.first_seed, args.first_seed + args.games),
            args.players,
            args.budget,
        )
        print(
            f"{args.a} vs {args.b} ({args.players}p): play points/deal {mean:+.2f} "
            f"± {se:.2f} (s.e.) over {deals} deals; worlds={args.worlds}, "
            f"budget={args.budget}s; wall {time.perf_counter() - t0:.0f} s"
        )
        return
    r = duplicate_match(
        lambda s: make(args.a, s, args.worlds, args.budget),
        lambda s: make(args.b, s + 1, args.worlds, args.budget),
        range(args.first_seed, args.first_seed + args.games),
        args.budget,
        args.progress,
    )
    t = sorted(r.times_a) or [0.0]
    print(
        f"{args.a} vs {args.b}: {r.wins_a}/{r.games} games won = {100 * r.rate:.1f}% "
        f"(seeds won with both seatings: {r.pairs_a} vs {r.pairs_b}; "
        f"imperial margin/game {r.margin / max(r.games, 1):+.2f}; "
        f"{r.deals / max(r.games, 1):.1f} deals/game; worlds={args.worlds}, "
        f"budget={args.budget}s; {args.a} time/card median {1000 * statistics.median(t):.1f} ms, "
        f"p99 {1000 * t[int(0.99 * (len(t) - 1))]:.1f} ms, max {1000 * t[-1]:.1f} ms; "
        f"wall {time.perf_counter() - t0:.0f} s)"
    )


if __name__ == "__main__":
    main()
