"""Soft inference from the cards played: how well a sampled world explains them.

A sampled world gives every seat's hand at the start of this round's play (its hand now
plus the cards it played). Replaying the round's public plays in that world, each card an
opponent played is compared with what the heuristic would have played there: a match
keeps the world's weight, a mismatch multiplies it by ``eps``. Worlds where the others'
play looks sensible count more (against the heuristic bots, far more; ``eps`` keeps the
guess robust against players who think differently).
"""

from __future__ import annotations

from collections.abc import Sequence

from kozyr.cards import CARD_NAMES
from kozyr.games.emperor import EmperorObservation
from kozyr.games.tricks import NO_TRUMP as NT

from .playout import Sim

__all__ = ["round_history", "world_weight"]

_CARD_IDS: dict[str, int] = {name: i for i, name in enumerate(CARD_NAMES)}


def round_history(obs: EmperorObservation) -> list[tuple[int, int]] | None:
    """This round's plays, ``(seat, card)`` in order, read from the public events; None
    when the events do not tell them all (a state rebuilt without its history)."""
    plays: list[tuple[int, int]] = []
    for ev in reversed(obs.events):
        kind = ev.get("type")
        if kind == "play":
            plays.append((int(ev["seat"]), _CARD_IDS[str(ev["card"])]))
        elif kind in ("deal", "trump", "deal_end"):
            break
    plays.reverse()
    total = sum(m.bit_count() for m in obs.played)
    return plays if len(plays) == total else None


def world_weight(
    obs: EmperorObservation,
    hidden: Sequence[int],
    history: Sequence[tuple[int, int]],
    eps: float,
) -> float:
    """How likely the heuristic was to play ``history`` in the world ``hidden``."""
    if not history:
        return 1.0
    n = obs.players
    me = obs.seat
    start = [hidden[t] | obs.played[t] for t in range(n)]
    trump = NT if obs.trump is None else obs.trump
    if obs.round == 1 or obs.title_order is None:
        order = None
        seq = tuple((obs.first_leader + i) % n for i in range(n))
        previous = seq
    else:
        order = tuple(obs.title_order)
        seq = order
        previous = order
    sim = Sim(start, trump, order, seq, [], 0, [0] * n, [0] * n, [0] * n, 1, previous)
    w = 1.0
    for seat, card in history:
        if sim.to_act != seat:
            return 1.0  # the events disagree with the replay: no inference
        if seat != me and sim.policy() != card:
            w *= eps
        sim.play(card)
    return w
