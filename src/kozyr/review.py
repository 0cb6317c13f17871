"""The post-game review (driver): for each decision of a seat, what the move played was worth and
what the best move was worth, from what that seat could see at that moment.

The review replays a record (B2) and, before each action of a reviewed seat that had a
choice, gives that seat's *observation* (never the state: I13) to its game's ranker, which
values every legal action by determinized search (:mod:`kozyr.bots.search`). The loss of
a move is the best value minus the played one's; a loss of at least the game's
``MISTAKE`` is a mistake, of at least ``BLUNDER`` a blunder. Imperial counts play points
(an honour is 4, an imperial 24), Emperor tricks.

Like the arena, this driver holds the game (it replays the record) and hands each bot's
ranker only the reviewed seat's observation.

A review is reproducible: the search stops on a number of worlds, and the same ``seed``
samples the same worlds (the clock limit only guards against a very slow machine).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from kozyr.bots.search import Ranked
from kozyr.games.base import GameState, Observation
from kozyr.records import replay_steps, start

__all__ = ["Decision", "Review", "SeatSummary", "review"]


class _Ranker(Protocol):
    UNIT: tuple[str, str]
    MISTAKE: float
    BLUNDER: float

    def rank(
        self, observation: Observation, worlds: int, seconds: float, seed: int
    ) -> list[Ranked]: ...

    def hindsight(self, state: GameState, seed: int) -> int: ...

    def hint(self, observation: Observation, seconds: float) -> list[Ranked]: ...


_RANKERS = {"imperial": "kozyr.bots.imperial.review", "emperor": "kozyr.bots.emperor.review"}


def ranker(game: str) -> _Ranker:
    """The review half of ``game``'s bots (also the hints during a game), imported only
    when asked for."""
    return cast(_Ranker, importlib.import_module(_RANKERS[game]))


@dataclass(frozen=True, slots=True)
class Decision:
    index: int
    """The action's position in the record's ``actions``."""
    seat: int
    deal: int
    """The deal (Emperor: round) it was taken in, from 1."""
    played: str
    best: str
    played_value: float
    best_value: float
    worlds: int
    verdict: str
    """``""``, ``"mistake"`` or ``"blunder"``."""
    hindsight: str | None = None
    """What the oracle, seeing every card, would have played (asked for: after the game
    every card is public, B3); None when not asked for."""

    @property
    def loss(self) -> float:
        return max(0.0, self.best_value - self.played_value)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": self.seat,
            "deal": self.deal,
            "played": self.played,
            "best": self.best,
            "played_value": round(self.played_value, 2),
            "best_value": round(self.best_value, 2),
            "loss": round(self.loss, 2),
            "worlds": self.worlds,
            "verdict": self.verdict,
            **({} if self.hindsight is None else {"hindsight": self.hindsight}),
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    decisions: int
    mistakes: int
    blunders: int
    lost: float
    deals: int

    @property
    def accuracy(self) -> float:
        """The share of decisions (in %) that lost less than a mistake's worth."""
        if not self.decisions:
            return 100.0
        return 100.0 * (self.decisions - self.mistakes - self.blunders) / self.decisions

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
            "accuracy": round(self.accuracy, 1),
            "lost": round(self.lost, 2),
            "lost_per_deal": round(self.lost / self.deals, 2) if self.deals else 0.0,
        }


@dataclass(slots=True)
class Review:
    game: str
    unit: tuple[str, str]
    decisions: list[Decision] = field(default_factory=list)
    summaries: list[SeatSummary] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "kozyr-review/1",
            "game": self.game,
            "unit": self.unit[0],
            "unit_ru": self.unit[1],
            "decisions": [d.to_json() for d in self.decisions],
            "summaries": [s.to_json() for s in self.summaries],
        }


def _deal_of(events: Sequence[Any]) -> int:
    return sum(1 for e in events if e.get("type") == "deal")


def review(
    record: dict[str, Any],
    *,
    seats: Sequence[int] | None = None,
    worlds: int = 40,
    seconds: float = 5.0,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    hindsight: bool = False,
    earlier: Sequence[Decision] = (),
    on_decision: Callable[[Decision], None] | None = None,
) -> Review:
    """Reviews the decisions of ``seats`` (default: every seat) in a game record.

    ``progress(done, total)`` is called as the actions are gone through. ``hindsight``:
    each decision also says what the game's oracle, which sees every card, would have
    played (the values stay those of the seat's own observation). A bad record raises
    :class:`kozyr.records.RecordError` naming the problem.

    ``earlier``: the decisions an interrupted review of the same record, seats, worlds and
    seed had made, in order; they are taken as they are, and the search goes on from the
    action after the last of them. Each decision has its own seed (``seed`` + its index),
    so the result is the one a review in one go gives. ``on_decision`` is called with each
    decision as it is made (the server saves them so that a review can be resumed).
    """
    first = start(record)  # checks the header before any search starts
    game = first.game
    rk = ranker(game)
    wanted = set(range(first.players) if seats is None else seats)
    bad = sorted(s for s in wanted if not 0 <= s < first.players)
    if bad:
        raise ValueError(f"seat {bad[0]}: the game has seats 0 to {first.players - 1}")
    out = Review(game, rk.UNIT)
    actions = record.get("actions") or []
    total = len(actions)
    steps = replay_steps(record)
    state, _ = next(steps)
    out.decisions.extend(earlier)
    resume = earlier[-1].index + 1 if earlier else 0
    for i in range(total):
        seat = state.to_act
        if i >= resume and seat is not None and seat in wanted and len(state.legal_actions()) > 1:
            obs = state.observation(seat)
            ranked = rk.rank(obs, worlds, seconds, seed + i)
            values = {r.action: r.value for r in ranked}
            played = state.parse_action(actions[i])
            best = ranked[0]
            loss = best.value - values[played]
            verdict = "blunder" if loss >= rk.BLUNDER else "mistake" if loss >= rk.MISTAKE else ""
            oracle = rk.hindsight(state.clone(), seed + i) if hindsight else None
            decision = Decision(
                i,
                seat,
                _deal_of(state.events),
                state.action_text(played),
                state.action_text(best.action),
                values[played],
                best.value,
                best.visits,
                verdict,
                None if oracle is None else state.action_text(oracle),
            )
            out.decisions.append(decision)
            if on_decision is not None:
                on_decision(decision)
        try:
            state, _ = next(steps)
        except StopIteration:
            break
        if progress is not None:
            progress(i + 1, total)
    deals = _deal_of(state.events)
    for s in sorted(wanted):
        mine = [d for d in out.decisions if d.seat == s]
        out.summaries.append(
            SeatSummary(
                s,
                len(mine),
                sum(d.verdict == "mistake" for d in mine),
                sum(d.verdict == "blunder" for d in mine),
                sum(d.loss for d in mine),
                deals,
            )
        )
    return out
