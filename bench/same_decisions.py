"""Does a search level decide as it did at an older commit?

A strength figure measured at an older commit stays true of a level whose decisions have
not changed, even when the code its row imports has (a module it imports but never runs,
or a constant of another level). This script answers that for the Imperial levels: it
plays ``--deals`` deals (two players, seeds from ``--first-seed``) with the heuristic for
both seats and, at every decision with more than one legal card, asks a level's bot for its
ranking with a fixed number of worlds and no time limit (so it is deterministic given its
seed). It does that once with the current tree and once with the tree of ``--rev`` (a
temporary ``git worktree``), each in its own interpreter, and prints how many decisions
(the card chosen) and rankings (every card's value) are the same.

    .venv/bin/python bench/same_decisions.py --rev a754176 --level 3 --deals 20

``--dump`` (used by the script itself) prints one JSON line a decision for the tree on
``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def dump(level: int, first_seed: int, deals: int, worlds: int) -> None:
    from kozyr.bots.imperial.heuristic import HeuristicBot
    from kozyr.bots.imperial.levels import level_bot
    from kozyr.games.imperial import ImperialOptions, ImperialState

    for seed in range(first_seed, first_seed + deals):
        state = ImperialState.new(ImperialOptions(players=2), seed=seed)
        drivers = [HeuristicBot(seed * 10 + s) for s in range(2)]
        number = state.deal_number
        step = 0
        while state.deal_number == number and state.to_act is not None:
            seat = state.to_act
            legal = state.legal_actions()
            obs = state.observation(seat)
            if len(legal) > 1:
                bot = level_bot(level, seed=7, max_worlds=worlds)
                bot.cap = 1e9  # type: ignore[attr-defined]
                ranked = bot.rank(obs, legal, 0.0)  # type: ignore[attr-defined]
                line = {
                    "seed": seed,
                    "step": step,
                    "card": ranked[0].action,
                    "values": sorted([r.action, repr(r.value)] for r in ranked),
                }
                print(json.dumps(line), flush=True)
            state.apply(drivers[seat].choose(obs, legal, 0.0))
            step += 1


def run(src: Path, args: argparse.Namespace) -> list[dict[str, object]]:
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--dump",
            *("--level", str(args.level), "--first-seed", str(args.first_seed)),
            *("--deals", str(args.deals), "--worlds", str(args.worlds)),
        ],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [json.loads(line) for line in out.splitlines()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default="HEAD~1", help="the older commit")
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=7000)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=40)
    parser.add_argument("--dump", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.dump:
        dump(args.level, args.first_seed, args.deals, args.worlds)
        return
    with tempfile.TemporaryDirectory() as tmp:
        old_tree = Path(tmp) / "old"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(old_tree), args.rev],
            check=True,
        )
        try:
            old = run(old_tree / "src", args)
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old_tree)],
                check=True,
            )
    new = run(ROOT / "src", args)
    if [(d["seed"], d["step"]) for d in old] != [(d["seed"], d["step"]) for d in new]:
        print("the deals went differently: the heuristic that plays them changed")
        sys.exit(1)
    cards = sum(a["card"] == b["card"] for a, b in zip(old, new, strict=True))
    values = sum(a["values"] == b["values"] for a, b in zip(old, new, strict=True))
    print(
        f"level {args.level}, {args.worlds} worlds a decision, {args.deals} deals "
        f"(seeds {args.first_seed}-{args.first_seed + args.deals - 1}), {args.rev} against "
        f"the working tree: {len(new)} decisions; the same card {cards}, "
        f"the same value of every card {values}"
    )


if __name__ == "__main__":
    main()
