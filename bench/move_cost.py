"""Micro-benchmark: the server's CPU for one move, without sockets or a database.

Drives a :class:`~kozyr.server.play.match.Match` (with a store that commits at once) and its
:class:`~kozyr.server.tables.broadcast.Broadcaster` (two seated clients and ``--spectators``
spectators, fake queues drained after every move) through whole games: each move is a
random legal card sent as text, as a client sends it, then checked, committed, acked
and broadcast to every role, as ``Table._act`` does. Prints microseconds per move in
total and for the check-and-commit (``submit``) and the broadcast (``update``) parts.

To compare two versions of the code on a shared machine, run it alternately under each
(``PYTHONPATH=<other worktree>/src`` picks the other version's ``kozyr``):

    .venv/bin/python bench/move_cost.py --game imperial --moves 20000
    PYTHONPATH=/tmp/base/src .venv/bin/python bench/move_cost.py --game imperial
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from typing import Any, cast

import kozyr
from kozyr.server.play.match import Match
from kozyr.server.runtime.metrics import Metrics
from kozyr.server.storage.store import Seat, TableRow, User
from kozyr.server.tables.broadcast import Broadcaster
from kozyr.server.transport.protocol import Client


class InstantStore:
    """Commits at once: the bench measures the event loop's share of a move."""

    async def save_table(self, row: TableRow, *, started: bool = False) -> None:
        return None

    async def append_action(self, *args: Any, **kwargs: Any) -> None:
        return None


class Watchers:
    """The part of Presence the broadcaster reads."""

    def __init__(self, watchers: dict[Client, int | None]) -> None:
        self.watchers = watchers


def new_table(game: str, players: int, seed: int) -> TableRow:
    seats = [Seat(user_id=10 + i, name=f"p{i}") for i in range(players)]
    return TableRow(
        id=f"t{seed % 1000}",
        game=game,
        players=players,
        options={"players": players},
        seed=seed,
        seats=seats,
        join_order=list(range(players)),
        creator_id=10,
    )


async def run(game: str, players: int, moves: int, spectators: int) -> dict[str, float]:
    metrics = Metrics()
    rng = random.Random(1)
    seats = [Client(User(i, f"p{i}", False)) for i in range(players)]
    others = [Client(User(100 + i, f"s{i}", False)) for i in range(spectators)]
    roles: dict[Client, int | None] = {c: i for i, c in enumerate(seats)}
    roles.update({c: None for c in others})
    everyone = [*seats, *others]
    submit_s = update_s = 0.0
    done = games = 0
    started = time.perf_counter()
    while done < moves:
        games += 1
        table = new_table(game, players, rng.getrandbits(256))
        match = Match(table, InstantStore(), metrics)
        await match.start()
        frames = Broadcaster(match, cast(Any, Watchers(roles)), lambda _p: {}, lambda: None)
        while match.playing and done < moves:
            state = match.state
            assert state is not None and state.to_act is not None
            seat = state.to_act
            text = state.action_text(rng.choice(state.legal_actions()))
            cid = f"a{done}"
            t0 = time.perf_counter()
            move = await match.submit(seat, text, cid, "person", match.seq)
            t1 = time.perf_counter()
            seats[seat].send(frames.ack_frame(cid, move.seq, duplicate=False))
            frames.update(move.seq)
            t2 = time.perf_counter()
            submit_s += t1 - t0
            update_s += t2 - t1
            for c in everyone:
                c.take()
                c.pending_bytes = 0
            done += 1
    total = time.perf_counter() - started
    return {
        "moves": done,
        "games": games,
        "us_per_move": 1e6 * total / done,
        "submit_us": 1e6 * submit_s / done,
        "update_us": 1e6 * update_s / done,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=["imperial", "emperor"], default="imperial")
    parser.add_argument("--players", type=int, default=None, help="2 or 3 (Imperial), 3 or 4")
    parser.add_argument("--moves", type=int, default=20000)
    parser.add_argument("--spectators", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best is printed")
    args = parser.parse_args()
    players = args.players or (2 if args.game == "imperial" else 4)
    best: dict[str, float] | None = None
    for _ in range(args.repeat):
        r = asyncio.run(run(args.game, players, args.moves, args.spectators))
        if best is None or r["us_per_move"] < best["us_per_move"]:
            best = r
    assert best is not None
    print(
        f"{args.game} {players}p ({kozyr.__file__.rsplit('/src/', 1)[0]}): "
        f"{best['us_per_move']:.1f} us/move (submit {best['submit_us']:.1f}, "
        f"ack+update {best['update_us']:.1f}), {best['moves']:.0f} moves in "
        f"{best['games']:.0f} games, best of {args.repeat}"
    )


if __name__ == "__main__":
    main()
