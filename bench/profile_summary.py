"""Sums up a py-spy profile in collapsed-stack form (``py-spy record -f raw``, as
``bench/server_throughput.py --profile`` and ``bench/load.py --profile`` write them):
the share of samples spent in each function (inclusive: the function and what it
called), for the functions of kozyr and of the libraries it calls.

    .venv/bin/python bench/profile_summary.py prof/sqlite.txt --top 40
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path


def frame_name(frame: str) -> str:
    """``func (path/to/module.py:12)`` as ``module.py:func``."""
    match = re.match(r"^(.*?) \((.*?)(?::(\d+))?\)$", frame)
    if match is None:
        return frame
    func, path = match.group(1), match.group(2)
    parts = Path(path).parts
    short = "/".join(parts[-2:]) if "kozyr" in parts else parts[-1]
    return f"{short}:{func}"


def summarise(text: str) -> tuple[int, Counter[str], Counter[str]]:
    """(total samples, inclusive samples by function, exclusive samples by function)."""
    total = 0
    inclusive: Counter[str] = Counter()
    exclusive: Counter[str] = Counter()
    for line in text.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [frame_name(f) for f in stack.split(";")]
        for name in set(frames):
            inclusive[name] += n
        exclusive[frames[-1]] += n
    return total, inclusive, exclusive


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("profile", type=Path)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--match", default="", help="only functions whose name holds this")
    args = parser.parse_args()
    total, inclusive, exclusive = summarise(args.profile.read_text())
    print(f"{total} samples")
    print(f"{'inclusive':>9} {'self':>6}  function")
    shown = 0
    for name, n in inclusive.most_common():
        if args.match not in name:
            continue
        print(f"{100 * n / total:8.1f}% {100 * exclusive[name] / total:5.1f}%  {name}")
        shown += 1
        if shown >= args.top:
            break


if __name__ == "__main__":
    main()
