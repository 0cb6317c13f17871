"""Benchmark: determinized playouts per second and bot decisions per second, both games.

A *playout* starts from a position seen by one seat: the hidden cards are sampled (with
the bots' own samplers, or uniformly from the unseen cards respecting hand sizes when
those are missing or ``--sampler uniform``), ``from_observation`` builds the state, and
a policy plays it to the end of the deal (Imperial) or round (Emperor): ``random``,
``heuristic`` (the bots' heuristic through the engine) and, for Emperor, ``sim`` (the
bots' own fast play simulator, play phase only).

*Decisions* are ``make_bot(game, level).choose`` on positions from random games, at each
level 1-5 (levels not registered are skipped with a line saying so). Each measurement
runs for about ``--seconds`` (at least one call), so the runtime is bounded.

    .venv/bin/python bench/bots.py --seconds 2
    .venv/bin/python bench/bots.py --game emperor --seconds 1 --levels 1,2,3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from kozyr.bots.registry import make_bot
from kozyr.cards import card_list
from kozyr.games.base import DealError, GameState
from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.imperial import ImperialOptions, ImperialState

Position = Any
"""An observation of the game (ImperialObservation or EmperorObservation) of the seat to act."""


def _deal_uniform(
    rng: random.Random, players: int, seat: int, pool: int, base: list[int], sizes: Sequence[int]
) -> list[int]:
    """Each other seat: its known cards plus uniform draws from ``pool`` up to its size."""
    cards = card_list(pool)
    rng.shuffle(cards)
    hidden = [0] * players
    for s in range(players):
        if s == seat:
            continue
        need = sizes[s] - base[s].bit_count()
        hidden[s] = base[s]
        for c in cards[:need]:
            hidden[s] |= 1 << c
        del cards[:need]
    return hidden


def uniform_imperial(obs: Any, rng: random.Random) -> list[int]:
    from kozyr.games.imperial.card_tables import deck_for

    n = obs.options.players
    gone = obs.hand
    for m in obs.played:
        gone |= m
    for m in obs.shown:
        gone |= m
    if obs.turnup is not None:
        gone |= 1 << obs.turnup
    pool = deck_for(n) & ~gone
    return _deal_uniform(rng, n, obs.seat, pool, list(obs.shown), obs.hand_sizes)


def uniform_emperor(obs: Any, rng: random.Random) -> list[int]:
    n = obs.players
    gone = obs.hand
    for m in obs.played:
        gone |= m
    base = [obs.known.get(t, 0) & ~obs.hand for t in range(n)]
    for m in base:
        gone |= m
    if n == 3 and obs.round == 1 and obs.trump_card is not None:
        gone |= 1 << obs.trump_card  # E5: the bottom card of the pile
    pool = ((1 << 52) - 1) & ~gone
    return _deal_uniform(rng, n, obs.seat, pool, base, obs.hand_sizes)


def samplers(game: str, which: str) -> tuple[str, Callable[[Position, random.Random], GameState]]:
    """(name, sample(obs, rng) -> state): the bots' sampler if asked and present."""
    if which == "bots":
        try:
            if game == "imperial":
                from kozyr.bots.imperial.sampler import Sampler

                return "bots' sampler", lambda obs, rng: Sampler(obs).world(rng)
            from kozyr.bots.emperor.sampler import sample_hidden

            return "bots' sampler", lambda obs, rng: EmperorState.from_observation(
                obs, sample_hidden(obs, rng)
            )
        except ImportError:
            pass
    if game == "imperial":
        return "uniform", lambda obs, rng: ImperialState.from_observation(
            obs, uniform_imperial(obs, rng)
        )
    return "uniform", lambda obs, rng: EmperorState.from_observation(obs, uniform_emperor(obs, rng))


def new_game(game: str, seed: int) -> GameState:
    if game == "imperial":
        return ImperialState.new(ImperialOptions(players=2), seed=seed)
    return EmperorState.new(EmperorOptions(players=4), seed=seed)


def positions(game: str, count: int, seed: int = 1) -> list[Position]:
    """Observations of the seat to act, at random points of random games."""
    rng = random.Random(seed)
    out: list[Position] = []
    game_seed = 0
    longest = 150 if game == "imperial" else 500
    while len(out) < count:
        game_seed += 1
        state = new_game(game, game_seed)
        for _ in range(rng.randrange(longest)):
            if state.to_act is None:
                break
            state.apply(rng.choice(state.legal_actions()))
        seat = state.to_act
        if seat is not None:
            out.append(state.observation(seat))
    return out


def policies(game: str) -> dict[str, Callable[[GameState, random.Random], None] | None]:
    """Continuations to the end of the deal/round; None where the bots lack one."""

    def random_policy(state: GameState, rng: random.Random) -> None:
        while state.to_act is not None:
            state.apply(rng.choice(state.legal_actions()))

    out: dict[str, Callable[[GameState, random.Random], None] | None] = {"random": random_policy}
    if game == "imperial":
        try:
            from kozyr.bots.imperial.heuristic import playout

            def heuristic(state: GameState, rng: random.Random) -> None:
                assert isinstance(state, ImperialState)
                while state.to_act is not None:  # a seedless world stops after this deal
                    playout(state)

            out["heuristic"] = heuristic
        except ImportError:
            out["heuristic"] = None
        return out
    try:
        from kozyr.bots.emperor.heuristic import decide
        from kozyr.bots.emperor.playout import Sim

        def heuristic_e(state: GameState, rng: random.Random) -> None:
            while (seat := state.to_act) is not None:
                obs = state.observation(seat)
                state.apply(decide(obs, state.legal_actions(), rng))  # type: ignore[arg-type]

        def sim(state: GameState, rng: random.Random) -> None:
            assert isinstance(state, EmperorState)
            seat = state.to_act
            if state.phase != "play" or seat is None:
                random_policy(state, rng)  # the simulator plays cards only
                return
            Sim.from_observation(state.observation(seat), state.hands).run()

        out["heuristic"] = heuristic_e
        out["sim"] = sim
    except ImportError:
        out["heuristic"] = None
    return out


def bench_playouts(
    game: str,
    pool: list[Position],
    policy: Callable[[GameState, random.Random], None],
    sample: Callable[[Position, random.Random], GameState],
    seconds: float,
) -> tuple[int, int, float]:
    """(playouts, failed samples, elapsed seconds)."""
    rng = random.Random(2)
    done = failed = 0
    start = time.perf_counter()
    deadline = start + seconds
    i = 0
    while True:
        obs = pool[i % len(pool)]
        i += 1
        if obs.phase in ("over", "deal") if game == "emperor" else obs.dealer is None:
            continue
        try:
            state = sample(obs, rng)
        except DealError:
            failed += 1
            continue
        policy(state, rng)
        done += 1
        if time.perf_counter() >= deadline:
            break
    return done, failed, time.perf_counter() - start


def bench_level(
    game: str, level: int, pool: list[Position], seconds: float, budget: float
) -> tuple[int, list[float]] | None:
    """(decisions, seconds per decision), or None when the level is not registered."""
    try:
        bot = make_bot(game, level, seed=level)
    except (ValueError, ImportError):
        return None
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    i = 0
    while not times or time.perf_counter() < deadline:
        obs = pool[i % len(pool)]
        i += 1
        legal = list(obs.legal_actions)
        t0 = time.perf_counter()
        action = bot.choose(obs, legal, budget)
        times.append(time.perf_counter() - t0)
        assert action in legal, f"level {level} chose an illegal action"
    return len(times), times


def _ms(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return 1000 * ys[min(len(ys) - 1, round(q * (len(ys) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    parser.add_argument("--game", choices=("imperial", "emperor", "both"), default="both")
    parser.add_argument("--sampler", choices=("bots", "uniform"), default="bots")
    parser.add_argument("--levels", default="1,2,3,4,5", help="levels to time, or none")
    parser.add_argument(
        "--budget", type=float, default=0.0, help="seconds per decision; 0 = the level's own"
    )
    parser.add_argument("--positions", type=int, default=200)
    args = parser.parse_args()
    games = ["imperial", "emperor"] if args.game == "both" else [args.game]
    levels = [] if args.levels == "none" else [int(x) for x in args.levels.split(",")]
    for game in games:
        table = "2 players" if game == "imperial" else "4 players"
        pool = positions(game, args.positions)
        name, sample = samplers(game, args.sampler)
        print(f"{game} ({table}), {len(pool)} positions from random games, {name}:")
        for pname, policy in policies(game).items():
            if policy is None:
                print(f"  playouts {pname:<9}: skipped (the bots' {pname} is not available)")
                continue
            done, failed, elapsed = bench_playouts(game, pool, policy, sample, args.seconds)
            extra = f", {failed} samples rejected" if failed else ""
            print(
                f"  playouts {pname:<9}: {done / elapsed:>9,.0f}/s "
                f"({done} in {elapsed:.2f} s{extra})"
            )
        for level in levels:
            got = bench_level(game, level, pool, args.seconds, args.budget)
            if got is None:
                print(f"  level {level}: not registered for {game} (skipped)")
                continue
            n, times = got
            total = sum(times)
            print(
                f"  level {level}: {n / total:>9,.1f} decisions/s, median "
                f"{statistics.median(times) * 1000:.2f} ms, p99 {_ms(times, 0.99):.2f} ms "
                f"({n} decisions)"
            )


if __name__ == "__main__":
    main()
