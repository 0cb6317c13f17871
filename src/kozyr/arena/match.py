"""Playing one arena game: bots by name, the state from the deal seed, the timed loop.

Everything a worker process needs is in a :class:`Task` (plain, picklable data): the
worker builds its own bots from their names and seeds, so games may be played in any
process, in any order, with the same results (for bots that are deterministic given
their seed and budget).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from kozyr.arena.duplicate import Slot
from kozyr.bots.base import Bot
from kozyr.bots.registry import LEVEL_NAMES
from kozyr.bots.registry import make_bot as registry_bot
from kozyr.games import GAMES as SPECS
from kozyr.games.base import GameError, GameState

GAMES = tuple(SPECS)
PLAYERS = {name: spec.player_counts for name, spec in SPECS.items()}
"""How many bots each game seats (the number of ``--bots`` is the number of players)."""


class ArenaError(ValueError):
    """A bad arena request, or a bot that broke the rules."""


class StateBot(Protocol):
    """A bot that sees the whole state (the oracle): it has ``needs_state = True``."""

    name: str
    needs_state: bool

    def choose_state(self, state: GameState, budget: float) -> int: ...


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One entry of ``--bots``: a registry kind or level, an optional budget (seconds)."""

    kind: str
    budget: float | None = None
    label: str = ""

    @property
    def text(self) -> str:
        return self.kind if self.budget is None else f"{self.kind}@{self.budget:g}"

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "kind": self.kind, "budget": self.budget}


def parse_bot(text: str) -> BotSpec:
    """``kind`` or ``kind@seconds``: ``random``, ``search@0.1``, ``3``, ``level3@0.5``.

    >>> parse_bot("search@0.1")
    BotSpec(kind='search', budget=0.1, label='search@0.1')
    """
    text = text.strip()
    kind, at, budget_text = text.partition("@")
    kind = kind.strip().lower()
    if not kind:
        raise ArenaError(f"empty bot name in {text!r}")
    if kind.startswith("level") and kind[5:].isdigit():
        kind = kind[5:]
    if kind.isdigit() and int(kind) not in LEVEL_NAMES:
        raise ArenaError(f"bot level must be 1-5, not {kind}")
    budget: float | None = None
    if at:
        try:
            budget = float(budget_text)
        except ValueError:
            raise ArenaError(f"bad budget in {text!r}: expected seconds, like search@0.1") from None
        if not budget >= 0:
            raise ArenaError(f"budget in {text!r} must be >= 0 seconds")
    spec = BotSpec(kind, budget)
    return BotSpec(kind, budget, spec.text)


def parse_bots(text: str) -> list[BotSpec]:
    """The comma-separated ``--bots`` list; equal names get ``#1``, ``#2``... labels.

    >>> [b.label for b in parse_bots("random,search@0.1,random")]
    ['random#1', 'search@0.1', 'random#2']
    """
    specs = [parse_bot(part) for part in text.split(",")]
    counts: dict[str, int] = {}
    for s in specs:
        counts[s.label] = counts.get(s.label, 0) + 1
    seen: dict[str, int] = {}
    out: list[BotSpec] = []
    for s in specs:
        if counts[s.label] > 1:
            seen[s.label] = seen.get(s.label, 0) + 1
            out.append(BotSpec(s.kind, s.budget, f"{s.label}#{seen[s.label]}"))
        else:
            out.append(s)
    return out


def make_bot(game: str, spec: BotSpec, seed: int) -> Bot:
    """The registry's bot for ``spec`` (the registry says when one, such as ``ismcts``
    without OpenSpiel, is not available)."""
    try:
        return registry_bot(game, spec.kind, seed)
    except ValueError as e:
        raise ArenaError(str(e)) from e


def check_bots(game: str, specs: Sequence[BotSpec]) -> None:
    """Fails early (before any worker starts) on a bot the registry cannot make."""
    for s in specs:
        make_bot(game, s, 0)


def make_options(game: str, players: int, given: dict[str, Any]) -> Any:
    """The game's options from ``--option`` values; ``players`` comes from ``--bots``."""
    if game not in GAMES:
        raise ArenaError(f"unknown game {game!r}: expected {' or '.join(GAMES)}")
    if players not in PLAYERS[game]:
        low, high = PLAYERS[game]
        raise ArenaError(f"{game} needs {low} or {high} bots, not {players}")
    if "players" in given and given["players"] != players:
        raise ArenaError(f"--option players={given['players']} but {players} bots are given")
    data = {**given, "players": players}
    try:
        return SPECS[game].options_from_json(data)
    except (GameError, TypeError) as e:
        raise ArenaError(f"bad option: {e}") from e


def new_state(game: str, options: dict[str, Any], seed: int) -> GameState:
    """A new game from its deal seed; the first dealer / join order is drawn from it too."""
    spec = SPECS[game]
    return spec.new_state(spec.options_from_json(options), seed=seed)


@dataclass(frozen=True, slots=True)
class Task:
    """One game to play: everything a worker needs, picklable."""

    game: str
    options: dict[str, Any]
    slot: Slot
    bots: tuple[BotSpec, ...]
    """All bots of the arena, in ``--bots`` order; ``slot.seats`` indexes this."""
    budget: float
    """Seconds per decision for bots without their own ``@`` budget."""


@dataclass(slots=True)
class GameResult:
    """What one game gave: the outcome by seat and each seat's decision times."""

    slot: Slot
    outcome: dict[str, Any]
    times: list[list[float]] = field(default_factory=list)
    """Seconds of each decision, per seat."""

    def to_json(self, labels: Sequence[str]) -> dict[str, Any]:
        s = self.slot
        return {
            "index": s.index,
            "set": s.set_index,
            "rotation": s.rotation,
            "deal_seed": s.deal_seed,
            "seats": [labels[b] for b in s.seats],
            "bot_seeds": list(s.bot_seeds),
            **self.outcome,
            "decisions": [len(t) for t in self.times],
            "think_seconds": [round(sum(t), 4) for t in self.times],
        }


def _imperial_outcome(summary: dict[str, Any]) -> dict[str, Any]:
    return {
        "winner": summary["winner"],
        "imperials": [s["imperials"] for s in summary["scores"]],
        "points": [s["points"] for s in summary["scores"]],
        "deals": summary["deal"],
    }


def _emperor_outcome(summary: dict[str, Any]) -> dict[str, Any]:
    return {
        "totals": summary["totals"],
        "standing": summary["standing"],
        "titles": summary["titles"],
        "rounds": summary["round"],
    }


OUTCOMES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "imperial": _imperial_outcome,
    "emperor": _emperor_outcome,
}
"""What the arena keeps of each game's summary (the figures of ``summary.py`` read it)."""


def outcome_of(state: GameState) -> dict[str, Any]:
    """The result of a finished game, by seat."""
    return OUTCOMES[state.game](state.summary())


def play(task: Task) -> tuple[GameResult, GameState]:
    """Plays ``task`` to the end; returns the result and the final state."""
    slot = task.slot
    state = new_state(task.game, task.options, slot.deal_seed)
    bots: list[Bot] = []
    budgets: list[float] = []
    for seat, b in enumerate(slot.seats):
        spec = task.bots[b]
        bots.append(make_bot(task.game, spec, slot.bot_seeds[seat]))
        budgets.append(task.budget if spec.budget is None else spec.budget)
    times: list[list[float]] = [[] for _ in slot.seats]
    clock = time.perf_counter
    while not state.over:
        actor = state.to_act
        if actor is None:
            raise ArenaError(f"game {slot.index} stopped before its end (waiting for a deal?)")
        legal = state.legal_actions()
        bot = bots[actor]
        if getattr(bot, "needs_state", False):
            oracle = cast(StateBot, bot)
            view = state.clone()
            start = clock()
            action = oracle.choose_state(view, budgets[actor])
        else:
            obs = state.observation(actor)
            start = clock()
            action = bot.choose(obs, legal, budgets[actor])
        times[actor].append(clock() - start)
        if action not in legal:
            label = task.bots[slot.seats[actor]].label
            raise ArenaError(
                f"bot {label} (seat {actor}) chose {action!r}, not a legal action, in game "
                f"{slot.index} (deal seed {slot.deal_seed}, move {len(state.actions) + 1})"
            )
        state.apply(action)
    return GameResult(slot, outcome_of(state), times), state


def play_task(task: Task) -> GameResult:
    """The worker's entry point (top level, so spawn-started processes can import it)."""
    return play(task)[0]
