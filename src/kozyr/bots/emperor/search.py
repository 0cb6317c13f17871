"""The search player: perfect-information Monte Carlo over determinizations.

Each *world* is a guess of the hidden hands (:func:`sampler.sample_hidden`). In a world
every legal action is tried and the round is played out with the heuristic, then
valued for the observer (:meth:`playout.Sim.value`: this round's tricks, the worth of
the title they earn (E6), in the last round the final standing (E12), plus any tricks
moved by bargaining (E8)). Actions are ranked by their mean over the worlds; all actions
share each world (common random numbers), which keeps the comparison fair with few worlds.

* Card play: the world goes straight into the light simulator (:class:`playout.Sim`).
* Exchange, bargaining, trump: the world becomes an engine state via
  ``EmperorState.from_observation``; the rest of the exchange and the trump are decided
  by the heuristic from each seat's own observation (nobody peeks in the playout), then
  the play is simulated.

The loop is the shared :func:`kozyr.bots.search.pimc`. Budget: work is counted in
simulated card plays (cards left in all hands times the actions tried, per world), so a
search with a seed and a work limit is reproducible; the time cap stops it earlier on a
slow or busy machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import cast

from kozyr.bots.search import Ranked, pimc
from kozyr.games.base import Observation
from kozyr.games.emperor import EmperorObservation, EmperorState

from .evidence import TRIES, read_evidence, sample_informed
from .heuristic import decide
from .inference import round_history, world_weight
from .playout import Sim
from .sampler import sample_hidden

__all__ = ["EmperorSearch", "finish_value", "rank_actions"]

PRIOR = 0.05  # a nudge towards the heuristic's own choice, to break ties sensibly
# Exchange and bargaining: one playout per world values a whole unknown hand, which is
# noisy; paired games showed no gain of the search over the heuristic there (40 games,
# +0.3 +- 1.4 tricks a game), so the search must beat the heuristic's choice clearly.
PRIOR_DEAL = 0.5
EPS = 0.25  # weight kept by a world for each card the heuristic would not have played
MIN_BUDGET = 0.004  # below this there is no time to search: the heuristic answers
SAFETY = 0.8  # share of the time limit the search may use (the rest is overhead, jitter)
HARD = 0.95  # past this share of the limit even a world under way is dropped


def finish_value(state: EmperorState, seat: int, base_total: int, rng: random.Random) -> float:
    """Plays ``state`` (in this round's exchange, bargain or trump phase) to the end of
    the round with the heuristic and values it for ``seat``; ``base_total`` is his game
    total before the decision, so tricks moved by bargaining (E8) count."""
    while state.phase != "play":
        s = state.to_act
        assert s is not None
        o = state.observation(s)
        state.apply(decide(o, o.legal_actions, rng))
    sim = Sim.from_state(state)
    totals = state.totals
    sim.run()
    return sim.value(seat, state.round, state.options.rounds, totals) + (totals[seat] - base_total)


def rank_actions(
    obs: EmperorObservation,
    legal: Sequence[int],
    limit: float,
    rng: random.Random,
    work: int | None = None,
    eps: float = EPS,
    tries: int = TRIES,
) -> list[Ranked]:
    """Ranks ``legal`` for the observer, best first, within ``limit`` seconds and (if
    given) ``work`` simulated card plays, with the shared PIMC loop
    (:func:`kozyr.bots.search.pimc`). In the play, worlds are weighted by how well they
    explain the others' cards so far (:mod:`inference`; ``eps`` 1 turns that off).

    The round's public exchange, bargaining and trump are soft evidence too
    (:mod:`evidence`; ``tries`` 1 turns it off): in the play a world is weighted by its
    likelihood (one likelihood a world, cheap next to its playouts; measured, 80% of the
    worlds' weight stays effective); in the exchange, bargaining and trump, where the
    evidence is sharper (half the weight effective) and a world costs more, each world is
    the one kept of ``tries`` drawn (:func:`evidence.sample_informed`)."""
    if not legal:
        raise ValueError("no legal action to rank")
    if len(legal) == 1:
        return [Ranked(legal[0], 0.0, 0)]
    me = obs.seat
    assert me is not None
    guide = decide(obs, legal, random.Random(rng.random()))
    rounds = obs.options.rounds
    evidence = read_evidence(obs) if tries > 1 else None
    history = round_history(obs) if obs.phase == "play" and eps < 1.0 else None
    weigh: Callable[[list[int]], float] | None = None
    if obs.phase == "play" and (history or evidence is not None):
        known_history = history or []
        play_evidence = evidence

        def weigh(hidden: list[int]) -> float:
            w = world_weight(obs, hidden, known_history, eps) if known_history else 1.0
            if play_evidence is not None:
                w *= play_evidence.likelihood(obs, hidden)
            return w

    if obs.phase == "play":

        def play_value(hidden: list[int], a: int, _rng: random.Random) -> float:
            sim = Sim.from_observation(obs, hidden)
            sim.play(a)
            sim.run()
            return sim.value(me, obs.round, rounds, obs.totals)

        tally = pimc(
            legal,
            lambda r: sample_hidden(obs, r),
            play_value,
            rng,
            seconds=limit * SAFETY,
            hard_seconds=limit * HARD,
            work=work,
            world_work=sum(obs.hand_sizes) * len(legal),
            min_worlds=0,
            weigh=weigh,
        )
    else:

        def deal_value(base: EmperorState, a: int, r: random.Random) -> float:
            st = base.clone()
            st.apply(a)
            return finish_value(st, me, obs.totals[me], r)

        tally = pimc(
            legal,
            lambda r: EmperorState.from_observation(obs, sample_informed(obs, r, evidence, tries)),
            deal_value,
            rng,
            seconds=limit * SAFETY,
            hard_seconds=limit * HARD,
            work=work,
            world_work=sum(obs.hand_sizes) * len(legal),
            min_worlds=0,
        )
    if not tally.worlds:
        # Out of time inside the first world (a slow or busy machine): the heuristic's
        # order is the answer.
        return _heuristic_order(guide, legal)
    prior = PRIOR if obs.phase in ("play", "trump") else PRIOR_DEAL
    ranked = [
        Ranked(a, tally.mean(a) + (prior if a == guide else 0.0), tally.worlds) for a in legal
    ]
    ranked.sort(key=lambda r: -r.value)
    return ranked


def _heuristic_order(guide: int, legal: Sequence[int]) -> list[Ranked]:
    return [Ranked(guide, 1.0, 0)] + [Ranked(b, 0.0, 0) for b in legal if b != guide]


class EmperorSearch:
    """PIMC with heuristic playouts. ``tries``: the public evidence (:mod:`evidence`):
    worlds drawn for each one kept in the exchange, bargaining and trump; 1 turns the
    evidence off (hard facts only, the search before issue #15). ``cap``: seconds per
    decision at most (the ``budget`` given to :meth:`choose` may lower it, never raise
    it; a budget <= 0 means "no limit of the caller's"); ``work``: simulated card plays
    per decision at most (makes the bot reproducible when the clock is not the limit)."""

    needs_state = False

    def __init__(
        self,
        seed: int | None = None,
        cap: float = 0.8,
        work: int | None = None,
        name: str = "search",
        eps: float = EPS,
        tries: int = TRIES,
    ) -> None:
        self.name = name
        self.tries = tries
        self.cap = cap
        self.work = work
        self.eps = eps
        self._rng = random.Random(seed)

    def limit(self, budget: float) -> float:
        return self.cap if budget <= 0 else min(self.cap, budget)

    def rank(self, observation: Observation, legal: Sequence[int], budget: float) -> list[Ranked]:
        obs = cast(EmperorObservation, observation)
        limit = self.limit(budget)
        if limit < MIN_BUDGET:
            return _heuristic_order(decide(obs, legal, self._rng), legal)
        return rank_actions(obs, legal, limit, self._rng, self.work, self.eps, self.tries)

    def choose(self, observation: Observation, legal: Sequence[int], budget: float = 0.0) -> int:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        return self.rank(observation, legal, budget)[0].action
