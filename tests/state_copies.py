"""The checks behind each game's ``test_state_copies.py``: ``clone()`` and
``from_observation`` forget no slot of a state (issue 28). Each game lists what its
clone may share and what ``from_observation`` carries or rebuilds; the checks are one."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Collection, Mapping
from typing import Any

SCALARS = (int, str, float, bool, type(None))


def slots(cls: type) -> list[str]:
    compiled = getattr(cls, "__mypyc_attrs__", None)  # a class of the compiled core
    if compiled is not None:
        return [n for n in compiled if n not in ("__dict__", "__weakref__")]
    names: list[str] = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    return [n for n in names if n not in ("__dict__", "__weakref__")]


def diff(a: Any, b: Any, path: str) -> str | None:
    """Where ``b`` differs from ``a`` (type included, deep), or None."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} {a!r} != {type(b).__name__} {b!r}"
    if isinstance(a, list | tuple):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            d = diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{path}: keys {list(a)} != {list(b)}"
        for k in a:
            d = diff(a[k], b[k], f"{path}[{k!r}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} != {b!r}"


def mutables(value: Any, path: str, out: list[tuple[str, Any]], deep: bool = True) -> None:
    """Every object in ``value`` that can change in place: lists, dicts, sets, dataclasses
    that are not frozen, and objects of any other kind (counted as mutable)."""
    if isinstance(value, SCALARS):
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
        mutables(v, where, out)


def clone_problems(
    state: Any, shares: Mapping[str, str], shares_elements: Mapping[str, str]
) -> list[str]:
    cls = type(state).__name__
    problems: list[str] = []
    if hasattr(state, "__dict__"):
        problems.append(f"{cls} has a __dict__: a field outside __slots__ escapes these checks")
    before = {}
    for name in slots(type(state)):
        value = getattr(state, name)  # every slot is set on a built state
        before[name] = list(value) if name in shares_elements else copy.deepcopy(value)
    twin = state.clone()
    for name in slots(type(state)):
        if not hasattr(twin, name):
            problems.append(f"{cls}.clone() does not carry slot {name!r}: unset on the copy")
            continue
        d = diff(getattr(state, name), getattr(twin, name), name)
        if d:
            problems.append(f"{cls}.clone() changes slot {name!r}: {d}")
            continue
        if name in shares:
            continue
        deep = name not in shares_elements
        mine: list[tuple[str, Any]] = []
        theirs: list[tuple[str, Any]] = []
        mutables(getattr(state, name), name, mine, deep)
        mutables(getattr(twin, name), name, theirs, deep)
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
        d = diff(value, getattr(state, name), name)
        if d:
            problems.append(f"changing {cls}.clone()'s copy changed the original: {d}")
    return problems


def rebuild_problems(
    state: Any,
    seat: int | None,
    seed: int | None,
    carries: Collection[str],
    rebuilds: Mapping[str, Callable[..., bool]],
) -> list[str]:
    cls = type(state).__name__
    obs = state.observation(seat)
    hidden = list(state.hands)
    new = type(state).from_observation(obs, hidden, seed=seed, dealing=state.dealing)
    problems: list[str] = []
    for name in slots(type(state)):
        if not hasattr(new, name):
            problems.append(f"{cls}.from_observation does not set slot {name!r}")
        elif name in carries:
            d = diff(getattr(state, name), getattr(new, name), name)
            if d:
                problems.append(f"{cls}.from_observation does not carry slot {name!r}: {d}")
        elif name in rebuilds:
            if not rebuilds[name](state, new, obs, hidden, seed, state.dealing):
                problems.append(
                    f"{cls}.from_observation rebuilds slot {name!r} wrongly: "
                    f"{getattr(new, name)!r}, the original has {getattr(state, name)!r}"
                )
        else:
            problems.append(unlisted(cls, name))
    if not problems and new.legal_actions() != state.legal_actions():
        problems.append(f"{cls}.from_observation changes the legal actions")
    return problems


def unlisted(cls: str, name: str) -> str:
    return (
        f"slot {name!r} of {cls} is neither in FROM_OBSERVATION_CARRIES nor in "
        "FROM_OBSERVATION_REBUILDS: carry it in from_observation, or list it with a check"
    )
