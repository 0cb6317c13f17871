"""The driver behind each game's ``test_fast_path.py``: one random game played on the
public path and on a fast copy side by side (issue 32). Both engines number their actions
so that ``legal_actions()`` is the ascending list of ``legal_mask()``'s bits."""

from __future__ import annotations

import random
from typing import Any

from tests.state_copies import slots

NOT_WRITTEN = frozenset({"events", "actions", "_writes"})
"""What the fast path does not write, by design; every other slot must agree."""


def mask_actions(mask: int) -> list[int]:
    return [a for a in range(mask.bit_length()) if mask >> a & 1]


def play_both_paths(public: Any, seed: int) -> tuple[Any, int]:
    """Plays ``public`` (a new game) to its end with random legal actions through
    ``apply``, and a :meth:`fast_clone` of it through ``apply_legal``; after every
    action the two must agree on every slot but :data:`NOT_WRITTEN`. Returns the fast
    copy and the number of actions."""
    compared = [name for name in slots(type(public)) if name not in NOT_WRITTEN]
    rng = random.Random(seed)
    fast = public.fast_clone()
    assert fast.events == [] and fast.actions == []
    steps = 0
    while not public.over:
        legal = public.legal_actions()
        assert mask_actions(fast.legal_mask()) == legal
        action = rng.choice(legal)
        public.apply(action)
        fast.apply_legal(action)
        steps += 1
        problems = [
            f"{name}: {getattr(public, name)!r} != {getattr(fast, name)!r}"
            for name in compared
            if getattr(public, name) != getattr(fast, name)
        ]
        assert not problems, f"seed {seed}, action {steps}: " + "; ".join(problems)
    assert fast.over and fast.legal_mask() == 0
    assert fast.events == [] and fast.actions == []
    return fast, steps
