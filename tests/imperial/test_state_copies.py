"""``clone()`` and ``from_observation`` forget no field of the state (issue 28).

The state declares ``__slots__`` and has no ``__dict__``, so every field is a slot and
these tests see every field. A slot added to :class:`ImperialState` but not carried by
``clone()``, or in neither list below for ``from_observation``, fails a test that names
it. The checks run at many points of seeded random games of 2 and 3 players.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from kozyr.games.imperial import ImperialOptions, ImperialState

S = ImperialState

# ---------------------------------------------------------------- clone()

CLONE_SHARES: dict[str, str] = {}
"""Slots whose mutable value a clone may share with the original, and why."""

CLONE_SHARES_ELEMENTS = {
    "events": "an event dict is never changed once logged; the list is copied",
}
"""Slots whose container a clone copies but whose elements it may share, and why."""

# ---------------------------------------------------------------- from_observation

FROM_OBSERVATION_CARRIES = frozenset(
    {
        "_first_dealer",
        "_honours",
        "_leader",
        "_led",
        "_must_head",
        "_to_act",
        "_tombe_cards",
        "_tombe_winners",
        "_trick",
        "_trump",
        "_white",
        "captures",
        "deal_number",
        "dealer",
        "game",
        "imperials",
        "loose",
        "options",
        "played",
        "players",
        "shown",
        "tricks",
        "tricks_done",
        "voids",
        "waiting_for_deal",
        "winner",
    }
)
"""Slots a rebuilt state holds exactly as the original: public (or derived from public)."""


def _own_hands(obs: Any, hidden: Sequence[int]) -> list[int]:
    return [obs.hand if s == obs.seat else h for s, h in enumerate(hidden)]


def _before_trick_or_same(name: str) -> Any:
    def check(orig: S, new: S, obs: Any, hidden: Sequence[int], seed: Any, dealing: str) -> bool:
        # Only read while a trick is on the table; between tricks the original keeps the
        # last trick's value and the rebuilt state its blank one.
        return not orig._trick or getattr(new, name) == getattr(orig, name)

    return check


FROM_OBSERVATION_REBUILDS: dict[str, Any] = {
    # sampled: the observer's own hand and the caller's guesses for the others
    "hands": lambda o, n, obs, hidden, seed, dealing: n.hands == _own_hands(obs, hidden),
    # the current deal only, rebuilt from the hands and the played cards
    "dealt": lambda o, n, obs, hidden, seed, dealing: n.dealt == o.dealt[-1:],
    # no history before the observed point: the state knows only this deal
    "events": lambda o, n, obs, hidden, seed, dealing: n.events == [],
    "actions": lambda o, n, obs, hidden, seed, dealing: n.actions == [],
    "_given": lambda o, n, obs, hidden, seed, dealing: n._given == [],
    # the caller's arguments: later deals come from this seed, by this scheme
    "seed": lambda o, n, obs, hidden, seed, dealing: n.seed == seed,
    "dealing": lambda o, n, obs, hidden, seed, dealing: n.dealing == dealing,
    # derived from the trick on the table
    "_best": _before_trick_or_same("_best"),
    "_best_seat": _before_trick_or_same("_best_seat"),
}
"""Slots ``from_observation`` samples, rebuilds or derives: each with its own check of
(original, rebuilt, observation, hidden, seed, dealing)."""

# ---------------------------------------------------------------- the checks

_SCALARS = (int, str, float, bool, type(None))


def _slots(cls: type) -> list[str]:
    names: list[str] = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    return [n for n in names if n not in ("__dict__", "__weakref__")]


def _diff(a: Any, b: Any, path: str) -> str | None:
    """Where ``b`` differs from ``a`` (type included, deep), or None."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} {a!r} != {type(b).__name__} {b!r}"
    if isinstance(a, list | tuple):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            d = _diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{path}: keys {list(a)} != {list(b)}"
        for k in a:
            d = _diff(a[k], b[k], f"{path}[{k!r}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def _mutables(value: Any, path: str, out: list[tuple[str, Any]], deep: bool = True) -> None:
    """Every object in ``value`` that can change in place: lists, dicts, sets, dataclasses
    that are not frozen, and objects of any other kind (counted as mutable)."""
    if isinstance(value, _SCALARS):
        return
    items: list[tuple[str, Any]]
    if isinstance(value, list | dict | set):
        out.append((path, value))
    if not deep:
        return
    if isinstance(value, dict):
        items = [(f"{path}[{k!r}]", v) for k, v in value.items()]
    elif isinstance(value, list | tuple):
        items = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
    elif isinstance(value, set | frozenset):
        items = []  # hashable elements
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        params: Any = getattr(type(value), "__dataclass_params__")  # noqa: B009
        if not params.frozen:
            out.append((path, value))
        items = [(f"{path}.{f.name}", getattr(value, f.name)) for f in dataclasses.fields(value)]
    else:
        out.append((path, value))
        return
    for where, v in items:
        _mutables(v, where, out)


def _clone_problems(state: S) -> list[str]:
    cls = type(state).__name__
    problems: list[str] = []
    if hasattr(state, "__dict__"):
        problems.append(f"{cls} has a __dict__: a field outside __slots__ escapes these checks")
    before = {}
    for name in _slots(type(state)):
        value = getattr(state, name)  # every slot is set on a built state
        before[name] = list(value) if name in CLONE_SHARES_ELEMENTS else copy.deepcopy(value)
    twin = state.clone()
    for name in _slots(type(state)):
        if not hasattr(twin, name):
            problems.append(f"{cls}.clone() does not carry slot {name!r}: unset on the copy")
            continue
        d = _diff(getattr(state, name), getattr(twin, name), name)
        if d:
            problems.append(f"{cls}.clone() changes slot {name!r}: {d}")
            continue
        if name in CLONE_SHARES:
            continue
        deep = name not in CLONE_SHARES_ELEMENTS
        mine: list[tuple[str, Any]] = []
        theirs: list[tuple[str, Any]] = []
        _mutables(getattr(state, name), name, mine, deep)
        _mutables(getattr(twin, name), name, theirs, deep)
        ids = {id(obj) for _, obj in mine}
        for path, obj in theirs:
            if id(obj) in ids:
                problems.append(
                    f"{cls}.clone() shares the mutable {type(obj).__name__} at {path} with "
                    f"the original: copy it, or list {name!r} in CLONE_SHARES with the reason"
                )
            # Mutating the clone must leave the original untouched.
            elif isinstance(obj, list):
                obj.append(object())
            elif isinstance(obj, dict):
                obj[object()] = None
            elif isinstance(obj, set):
                obj.add(object())
    if problems:
        return problems
    for name, value in before.items():
        d = _diff(value, getattr(state, name), name)
        if d:
            problems.append(f"changing {cls}.clone()'s copy changed the original: {d}")
    return problems


def _rebuild_problems(state: S, seat: int | None, seed: int | None) -> list[str]:
    cls = type(state).__name__
    obs = state.observation(seat)
    hidden = list(state.hands)
    new = type(state).from_observation(obs, hidden, seed=seed, dealing=state.dealing)
    problems: list[str] = []
    for name in _slots(type(state)):
        if not hasattr(new, name):
            problems.append(f"{cls}.from_observation does not set slot {name!r}")
        elif name in FROM_OBSERVATION_CARRIES:
            d = _diff(getattr(state, name), getattr(new, name), name)
            if d:
                problems.append(f"{cls}.from_observation does not carry slot {name!r}: {d}")
        elif name in FROM_OBSERVATION_REBUILDS:
            if not FROM_OBSERVATION_REBUILDS[name](state, new, obs, hidden, seed, state.dealing):
                problems.append(
                    f"{cls}.from_observation rebuilds slot {name!r} wrongly: "
                    f"{getattr(new, name)!r}, the original has {getattr(state, name)!r}"
                )
        else:
            problems.append(_unlisted(cls, name))
    if not problems and new.legal_actions() != state.legal_actions():
        problems.append(f"{cls}.from_observation changes the legal actions")
    return problems


def _unlisted(cls: str, name: str) -> str:
    return (
        f"slot {name!r} of {cls} is neither in FROM_OBSERVATION_CARRIES nor in "
        "FROM_OBSERVATION_REBUILDS: carry it in from_observation, or list it with a check"
    )


# ---------------------------------------------------------------- the states


def _states(players: int, must_head: bool, games: int) -> Iterator[ImperialState]:
    """States at many points of seeded random games (every deal to the end of the game,
    a game over, and a state that waits for a deal)."""
    options = ImperialOptions(players=players, must_head=must_head, target=3)
    for seed in range(games):
        rng = random.Random(seed * 7 + players)
        state = ImperialState.new(options, seed=seed)
        yield state
        while not state.over:
            state.apply(rng.choice(state.legal_actions()))
            if rng.random() < 0.04 or not state.trick:
                yield state
        yield state
        # The same deals without a seed: the state waits for a deal after the last one.
        waiting = ImperialState.new(options, deals=state.dealt[:2], first_dealer=state.first_dealer)
        for text in state.actions:
            if waiting.waiting_for_deal:
                break
            waiting.play(text)
        assert waiting.waiting_for_deal or waiting.over
        yield waiting


CASES = [(2, False), (2, True), (3, False), (3, True)]


def test_the_state_keeps_every_field_in_its_slots() -> None:
    state = ImperialState.new(ImperialOptions(), seed=1)
    assert not hasattr(state, "__dict__")
    with pytest.raises(AttributeError):
        state.not_a_field = 1  # type: ignore[attr-defined]
    for name in _slots(ImperialState):
        getattr(state, name)  # set by new()


@pytest.mark.parametrize(("players", "must_head"), CASES)
def test_clone_carries_every_slot_and_shares_nothing_mutable(players: int, must_head: bool) -> None:
    points = 0
    for state in _states(players, must_head, 12):
        problems = _clone_problems(state)
        assert not problems, "\n".join(problems)
        points += 1
    assert points > 200


def test_from_observation_lists_every_slot_once() -> None:
    slots = set(_slots(ImperialState))
    both = FROM_OBSERVATION_CARRIES & set(FROM_OBSERVATION_REBUILDS)
    assert not both, f"slots both carried and rebuilt: {sorted(both)}"
    stale = (FROM_OBSERVATION_CARRIES | set(FROM_OBSERVATION_REBUILDS)) - slots
    assert not stale, f"listed but not slots of ImperialState: {sorted(stale)}"
    unlisted = slots - FROM_OBSERVATION_CARRIES - set(FROM_OBSERVATION_REBUILDS)
    assert not unlisted, "\n".join(_unlisted("ImperialState", n) for n in sorted(unlisted))


@pytest.mark.parametrize(("players", "must_head"), CASES)
def test_from_observation_carries_every_public_slot(players: int, must_head: bool) -> None:
    points = 0
    for i, state in enumerate(_states(players, must_head, 12)):
        if state.to_act is None:
            continue  # no deal in play: nothing to rebuild
        seed = state.seed if i % 2 else None
        for seat in [None, *range(players)]:
            problems = _rebuild_problems(state, seat, seed)
            assert not problems, "\n".join(problems)
        points += 1
    assert points > 200
