"""Imperial search: perfect-information Monte Carlo over determinizations.

Each world deals the hidden cards consistently with the observation (:mod:`.sampler`),
then every legal card is played in it and the deal is finished with the heuristic for
every seat (:func:`.heuristic.playout`); the final position is valued for the observer
(:func:`.value.search_value`: the score sheet, then play points, then tricks, so that
cards are not tied flat). Cards are ranked by their mean value over the same worlds.

Cards that are interchangeable (same suit, no card between them that another player
could hold, neither an honour nor a tombé card) are searched once, which saves much of
the early-deal time. The loop is the shared :func:`kozyr.bots.search.pimc` (one work
unit a world): no world is started that would not finish in time at the mean pace so far,
and one still running at the deadline is dropped.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from kozyr.bots.search import Ranked, Tally, pimc
from kozyr.cards import SUIT_OF
from kozyr.games.base import Observation
from kozyr.games.imperial import ImperialObservation, ImperialState
from kozyr.games.imperial.card_tables import STRENGTH, deck_for

from .heuristic import decide_in_observation, playout
from .sampler import Sampler
from .solver import Solver
from .value import search_value

__all__ = ["SearchBot", "equivalent_groups", "rank_in_worlds", "search_observation"]

# The heuristic's own card gets this much extra, so equal values follow its advice (far
# below one trick's weight in one world of thousands: value.TRICK_TIE).
_TIE_BREAK = 1e-9
# Tricks in a two-player deal (the only deals the solver plays).
_TRICKS = 12
# Time kept back from the budget for the set-up and the return.
_MARGIN = 0.01


def equivalent_groups(
    legal: Sequence[int], hand: int, out: int, trump: int, players: int
) -> list[list[int]]:
    """Legal cards in groups that play the same: same suit, adjacent in order (I2) once the
    cards no other player can hold are skipped. Trump K, Q, J, A and the low honour stay
    alone (honours score and J/A can be captured: I8, I9). The first card of a group is
    the one searched."""
    base = 13 * trump
    low = 5 if players == 2 else 4
    special = {base + 11, base + 10, base + 9, base + 12, base + low}
    groups: list[list[int]] = []
    by_suit: dict[int, list[int]] = {}
    for c in legal:
        if c in special:
            groups.append([c])
        else:
            by_suit.setdefault(SUIT_OF[c], []).append(c)
    for suit, cards in by_suit.items():
        cards.sort(key=STRENGTH.__getitem__)
        group = [cards[0]]
        for c in cards[1:]:
            prev = group[-1]
            between = 0
            for o in range(13 * suit, 13 * suit + 13):
                if STRENGTH[prev] < STRENGTH[o] < STRENGTH[c]:
                    between |= 1 << o
            if between & out or any(STRENGTH[prev] < STRENGTH[s] < STRENGTH[c] for s in special):
                groups.append(group)
                group = [c]
            else:
                group.append(c)
        groups.append(group)
    return groups


def rank_in_worlds(
    legal: Sequence[int],
    seat: int,
    world: Callable[[random.Random], ImperialState],
    rng: random.Random,
    budget: float,
    max_worlds: int | None = None,
    min_worlds: int = 1,
    groups: list[list[int]] | None = None,
    preferred: int | None = None,
    solve_within: int | None = None,
) -> list[Ranked]:
    """Ranks ``legal`` for ``seat`` by mean playout value over worlds, best first, with
    the shared PIMC loop (:func:`kozyr.bots.search.pimc`): at most ``max_worlds`` worlds,
    none started that would not finish within ``budget`` seconds (after at least
    ``min_worlds``); a world that runs past the budget anyway is dropped unfinished.

    With ``solve_within`` (two players), a playout hands over to the double-dummy solver
    once that many tricks or fewer are left: both sides then play the rest perfectly in
    that world (:func:`solve_out`)."""
    if not legal:
        raise ValueError("no legal action to rank")
    if groups is None:
        groups = [[c] for c in legal]
    heads = [g[0] for g in groups]
    solvers: dict[int, Solver] = {}

    def evaluate(w: ImperialState, card: int, _rng: random.Random) -> float:
        child = w.fast_clone()
        points, tricks = child.play_points[:], child.tricks_won[:]
        child.apply_legal(card)
        if solve_within is None or child.trump is None:
            playout(child)
        else:
            playout(child, stop_at=12 - solve_within)
            trump = child.trump
            if trump not in solvers:
                solvers[trump] = Solver(trump, child.options)
            solve_out(child, solvers[trump])
        return search_value(child, seat, points, tricks)

    if len(legal) > 1:
        tally = pimc(
            heads, world, evaluate, rng, seconds=budget, work=max_worlds, min_worlds=min_worlds
        )
    else:
        tally = Tally(dict.fromkeys(heads, 0.0), 0.0, 0, 0)
    ranked: list[Ranked] = []
    for g in groups:
        v = tally.mean(g[0])
        for c in g:
            ranked.append(Ranked(c, v + (_TIE_BREAK if c == preferred else 0.0), tally.worlds))
    ranked.sort(key=lambda r: (-r.value, r.action))
    return ranked


def solve_out(state: ImperialState, solver: Solver) -> None:
    """Plays the rest of the deal with both sides' best cards by ``solver`` (the hands of
    ``state`` known to both: double dummy); the first of equally good cards is played."""
    number = state.deal_number
    while state.to_act is not None and state.deal_number == number:
        seat = state.to_act
        trick = state.trick
        card, _ = solver.best_card(
            state.hands[0],
            state.hands[1],
            trick[0][0] if trick else seat,
            seat,
            trick[0][1] if trick else None,
            state.tricks[0],
            state.tricks[1],
            state.captures[0],
            state.captures[1],
        )
        state.apply(card)


def _out(obs: ImperialObservation) -> int:
    assert obs.hand is not None
    gone = 0
    for m in obs.played:
        gone |= m
    out = deck_for(obs.options.players) & ~obs.hand & ~gone
    if obs.turnup is not None:
        out &= ~(1 << obs.turnup)
    return out


def search_observation(
    obs: ImperialObservation,
    legal: Sequence[int],
    budget: float,
    rng: random.Random,
    max_worlds: int | None = None,
    min_worlds: int = 1,
    solve_within: int | None = None,
) -> list[Ranked]:
    """PIMC for the observer of ``obs`` (who is to act): every legal card, best first.
    ``solve_within``: see :func:`rank_in_worlds` (ignored with three players)."""
    if obs.seat is None or obs.hand is None or obs.trump is None:
        raise ValueError("search needs a seat's observation of a deal in play")
    legal = list(legal)
    preferred = decide_in_observation(obs, legal)
    if len(legal) == 1:
        return [Ranked(legal[0], 0.0, 0)]
    groups = equivalent_groups(legal, obs.hand, _out(obs), obs.trump, obs.options.players)
    if len(groups) == 1:
        return [Ranked(c, _TIE_BREAK if c == preferred else 0.0, 0) for c in legal]
    sampler = Sampler(obs)
    return rank_in_worlds(
        legal,
        obs.seat,
        sampler.world,
        rng,
        budget,
        max_worlds=max_worlds,
        min_worlds=min_worlds,
        groups=groups,
        preferred=preferred,
        solve_within=solve_within if obs.options.players == 2 else None,
    )


class SearchBot:
    """PIMC with heuristic playouts, within ``min(budget, cap)`` seconds per card; with
    ``solve_within``, the last tricks of each playout are played double dummy (two players),
    and with ``solve_from_root`` as well, a decision with that many tricks left or fewer
    has every world's whole rest of the deal played double dummy.

    With ``max_worlds`` the number of worlds is fixed (and the bot deterministic given its
    seed, as long as the time cap is not reached first)."""

    def __init__(
        self,
        seed: int | None = None,
        cap: float = 1.0,
        max_worlds: int | None = None,
        name: str = "search",
        solve_within: int | None = None,
        solve_from_root: int | None = None,
    ) -> None:
        self.name = name
        self.solve_from_root = solve_from_root
        self.cap = cap
        self.max_worlds = max_worlds
        self.solve_within = solve_within
        self.seed = seed
        self._rng = random.Random(seed)

    def _rng_for(self, obs: ImperialObservation) -> random.Random:
        if self.seed is None:
            return self._rng
        # The same position gives the same worlds, whatever was asked before (B2 spirit).
        return random.Random(f"{self.seed}:{obs.deal_number}:{obs.hand}:{obs.played}:{obs.trick}")

    def rank(self, obs: ImperialObservation, legal: Sequence[int], budget: float) -> list[Ranked]:
        limit = self.cap if budget <= 0 else min(budget, self.cap)
        within = self.solve_within
        left = _TRICKS - sum(obs.tricks)
        if within is not None and self.solve_from_root is not None and left <= self.solve_from_root:
            within = max(within, left)
        return search_observation(
            obs,
            legal,
            max(limit - _MARGIN, 0.0),
            self._rng_for(obs),
            self.max_worlds,
            solve_within=within,
        )

    def choose(self, observation: Observation, legal: Sequence[int], budget: float = 0.0) -> int:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        if not isinstance(observation, ImperialObservation):
            raise TypeError("SearchBot plays Imperial observations only")
        return self.rank(observation, legal, budget)[0].action
