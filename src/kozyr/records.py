"""The JSON game record ``kozyr-record/1``: writing, reading, checking and replaying.

A record is options + how the game started (first dealer or join order) + the deals +
the actions, which fix the whole game (B2). Replaying rebuilds the game through the
engine, so a record that breaks a rule is refused exactly where it breaks it.

>>> from kozyr.games import GAMES
>>> imperial = GAMES["imperial"]
>>> state = imperial.new_state(imperial.options_from_json({"players": 2}), seed=12345)
>>> for _ in range(5):
...     state.apply(state.legal_actions()[0])
>>> again = replay(to_record(state))
>>> again.events == state.events
True

The record carries the dealing scheme and the commitment; a finished record reveals the
seed, and :func:`verify` recomputes every deal from it:

>>> record = to_record(state)
>>> record["dealing"], record["commitment"] == commitment(12345)
('hmac-sha256', True)
>>> verify(record)["ok"]
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

from kozyr.cards import CardError, Lang, card_name, cards_in
from kozyr.games import GAMES, Game
from kozyr.games.base import GameError, GameState, IllegalAction
from kozyr.games.dealing import LEGACY, SCHEMES, SECURE, commitment, parse_seed_hex, seed_hex
from kozyr.messages import message

FORMAT = "kozyr-record/1"


class RecordError(ValueError):
    """A record that cannot be read or does not make a valid game; says where.

    An action the rules refuse carries the engine's refusal: ``code`` and ``params`` (of
    :mod:`kozyr.messages`), ``rule`` and ``action_index``; any other problem has the code
    ``bad_record`` and its (English) text as the detail.
    """

    def __init__(
        self,
        text: str,
        *,
        code: str = "bad_record",
        params: dict[str, Any] | None = None,
        rule: str | None = None,
        action_index: int | None = None,
    ) -> None:
        super().__init__(text)
        self.code = code
        self.params = {"detail": text} if params is None else params
        self.rule = rule
        self.action_index = action_index

    def message(self, lang: Lang = "en") -> str:
        return message(self.code, lang, **self.params)

    def to_json(self) -> dict[str, Any]:
        """What ``kozyr replay --json`` prints under ``"error"``."""
        return {
            "code": self.code,
            "rule": self.rule,
            "message": self.message("en"),
            "message_ru": self.message("ru"),
            "action_index": self.action_index,
        }

    def within(self, prefix: str) -> RecordError:
        """The same error, its text prefixed with where it happened (a file name)."""
        params = {"detail": f"{prefix}: {self}"} if self.code == "bad_record" else self.params
        return RecordError(
            f"{prefix}: {self}",
            code=self.code,
            params=params,
            rule=self.rule,
            action_index=self.action_index,
        )


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_in(mask)]


def seed_fields(seed: int | None, scheme: str) -> dict[str, Any]:
    """How a record names its seed: the scheme, the commitment, and the seed itself (64
    hex digits for the secure scheme; an integer in old records, which have no
    ``dealing`` field and no commitment)."""
    if scheme == LEGACY:
        return {"seed": seed}
    return {
        "dealing": scheme,
        "commitment": None if seed is None else commitment(seed),
        "seed": None if seed is None else seed_hex(seed),
    }


def _game_of(state: GameState) -> Game:
    game = GAMES.get(getattr(state, "game", None) or "")
    if game is None:
        raise TypeError(f"not a kozyr game state: {type(state).__name__}")
    return game


def to_record(state: GameState, **extra: Any) -> dict[str, Any]:
    """The record of a game so far, with every card dealt and the seed revealed: only
    for after the game (I13, B3).

    ``extra`` adds fields such as ``players`` (names) or ``created``.
    """
    game = _game_of(state)
    # Both engines keep their options and deals; the GameState protocol leaves them out
    # because their types are the game's own.
    built = cast(Any, state)
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": state.game,
        "options": built.options.to_json(),
        **game.start_json(state),
        **seed_fields(state.seed, state.dealing),
        "deals": [game.deal_to_json(d) for d in built.dealt],
        "actions": list(state.actions),
    }
    record["result"] = state.summary()
    record.update(extra)
    return record


def save(state: GameState, path: Path, **extra: Any) -> Path:
    """Writes the record atomically (a crash never leaves half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(to_record(state, **extra), ensure_ascii=False, indent=1) + "\n")
    tmp.replace(path)
    return path


def load(path: Path) -> dict[str, Any]:
    """Reads a record file as JSON (not yet checked: :func:`replay` checks it)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"{path}: cannot read: {e.strerror}") from e
    except UnicodeDecodeError as e:
        raise RecordError(f"{path}: not UTF-8 text at byte {e.start}") from e
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{path}: not JSON: {e.msg} at line {e.lineno} column {e.colno}") from e
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record is a JSON object, not {type(data).__name__}")
    return cast(dict[str, Any], data)


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = data.get(key)
    # bool is an int in Python, but never a valid count or seat in a record.
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _kinds(kind)):
        raise RecordError(f"{where}{key}: expected {_kind_name(kind)}, got {json.dumps(value)}")
    return value


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {int: "an integer", str: "a string", list: "a list", dict: "an object"}
    names[type(None)] = "null"
    return " or ".join(names.get(k, k.__name__) for k in _kinds(kind))


def _parse_deals(data: dict[str, Any], game: Game) -> list[Any]:
    deals = []
    for i, raw in enumerate(_field(data, "deals", list, "")):
        try:
            deals.append(game.deal_from_json(raw, f"deals[{i}]"))
        except (GameError, CardError) as e:
            raise RecordError(str(e)) from e
    return deals


def read_seed(data: dict[str, Any]) -> tuple[str, int | None]:
    """The record's dealing scheme and seed. A record without ``dealing`` is an old one
    (Mersenne Twister, integer seed); the secure scheme's seed is 64 hex digits."""
    scheme = data.get("dealing", LEGACY)
    if scheme not in SCHEMES:
        raise RecordError(
            f"dealing: expected one of {', '.join(SCHEMES)}, got {json.dumps(scheme)}"
        )
    seed = data.get("seed")
    if seed is None:
        return scheme, None
    if scheme == SECURE and isinstance(seed, str):
        try:
            return scheme, parse_seed_hex(seed)
        except ValueError as e:
            raise RecordError(f"seed: {e}") from None
    if not isinstance(seed, int) or isinstance(seed, bool):
        kind = "64 hex digits, an integer or null" if scheme == SECURE else "an integer or null"
        raise RecordError(f"seed: expected {kind}, got {json.dumps(seed)}")
    if scheme == SECURE and not 0 <= seed < 1 << 256:
        raise RecordError(f"seed: {seed} is outside 0 to 2**256 - 1")
    return scheme, seed


def start(data: dict[str, Any]) -> GameState:
    """Checks a record's header and deals and builds the game before its first action."""
    if data.get("format") != FORMAT:
        raise RecordError(f"format: expected {FORMAT!r}, got {json.dumps(data.get('format'))}")
    name = data.get("game")
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise RecordError(f"game: expected one of {', '.join(GAMES)}, got {json.dumps(name)}")
    options_json = data.get("options", {})
    if not isinstance(options_json, dict):
        raise RecordError("options: expected an object")
    scheme, seed = read_seed(data)
    deals = _parse_deals(data, game)
    try:
        return game.new_state(
            game.options_from_json(options_json, stored=True),
            seed=seed,
            deals=deals,
            first_dealer=data.get("first_dealer"),
            join_order=data.get("join_order"),
            dealing=scheme,
        )
    except GameError as e:
        raise RecordError(str(e)) from e


def replay_steps(data: dict[str, Any]) -> Iterator[tuple[GameState, int | None]]:
    """Replays a record one action at a time (B2): yields the game before its first action
    (with seat None), then after each action with the seat that took it. The same state
    object is yielded each time, moved on.

    It stops where the actions run out or, without error, where a deal is needed that is
    neither listed nor seeded (``state.waiting_for_deal`` then tells so).
    """
    state = start(data)
    actions = _field(data, "actions", list, "")
    yield state, None
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise RecordError(f"actions[{i}]: expected an action text, got {json.dumps(text)}")
        if state.waiting_for_deal:
            return
        if state.over:
            raise RecordError(
                f"actions[{i}] {text!r}: the game is already over",
                code="game_over",
                params={},
                action_index=i,
            )
        seat = state.to_act
        try:
            state.play(text)
        except (IllegalAction, CardError) as e:
            raise RecordError(
                f"actions[{i}] {text!r}: {e}",
                code=e.code,
                params=e.params,
                rule=getattr(e, "rule", None),
                action_index=i,
            ) from e
        except GameError as e:
            raise RecordError(f"actions[{i}] {text!r}: {e}", action_index=i) from e
        yield state, seat


def replay(data: dict[str, Any]) -> GameState:
    """Replays a whole record and returns the game where its actions run out (B2)."""
    steps = replay_steps(data)
    state, _ = next(steps)
    for _ in steps:
        pass  # the same state object moves on with every step
    return state


def replay_file(path: Path) -> GameState:
    try:
        return replay(load(path))
    except RecordError as e:
        if str(e).startswith(str(path)):
            raise
        raise e.within(str(path)) from e


def _mismatch(where: str, got: int, want: int) -> str:
    extra, missing = got & ~want, want & ~got
    return (
        f"{where} holds {' '.join(_names(extra))} where the seed deals {' '.join(_names(missing))}"
    )


_SHOWN_CARDS = (("trump card", "trump_card"), ("turn-up", "turnup"))
"""The cards a deal may show apart from the hands, as they are named in a problem."""


def _deal_problems(i: int, deal: Any, want: Any) -> list[str]:
    problems = []
    for s, (got, exp) in enumerate(zip(deal.hands, want.hands, strict=True)):
        if got != exp:
            problems.append(_mismatch(f"deal {i + 1}: seat {s}", got, exp))
    pairs = [
        (what, getattr(deal, key), getattr(want, key))
        for what, key in _SHOWN_CARDS
        if hasattr(want, key)
    ]
    for what, got_card, want_card in pairs:
        if got_card != want_card:
            shown = "none" if got_card is None else card_name(got_card)
            dealt = "none" if want_card is None else card_name(want_card)
            problems.append(f"deal {i + 1}: the {what} is {shown}; the seed deals {dealt}")
    return problems


def verify(data: dict[str, Any]) -> dict[str, Any]:
    """Checks a finished record's fairness: that its seed matches the commitment
    published before the first deal, that every deal (and Imperial's first dealer) is
    the one the seed deals, and that the actions replay. JSON-ready; ``ok`` only when
    everything holds. ``problems`` name each mismatch in English.
    """
    out: dict[str, Any] = {
        "ok": False,
        "dealing": data.get("dealing", LEGACY),
        "commitment": data.get("commitment"),
        "commitment_ok": None,
        "deals": 0,
        "deals_ok": 0,
        "problems": [],
    }
    problems: list[str] = out["problems"]
    try:
        state = start(data)
        game = GAMES[state.game]
        deals = _parse_deals(data, game)
    except RecordError as e:
        problems.append(f"the record cannot be read: {e}")
        return out
    out["deals"] = len(deals)
    seed, scheme = state.seed, state.dealing
    if scheme == LEGACY:
        problems.append(
            "dealt by the old mt19937 scheme, before commitments existed: nothing was "
            "published before the game to check the seed against"
        )
    elif out["commitment"] is None:
        problems.append("the record has no commitment")
    elif seed is None:
        problems.append("the record does not reveal the seed (is the game over?)")
    else:
        out["commitment_ok"] = commitment(seed) == out["commitment"]
        if not out["commitment_ok"]:
            problems.append("the seed does not match the commitment: sha256(seed) differs")
    if seed is None:
        if scheme == LEGACY:
            problems.append("the record has no seed: its deals were given, not dealt")
        return out
    drawn = game.draw_start(state.players, seed, scheme)
    if drawn is not None:
        dealer = game.start_json(state).get("first_dealer")
        if dealer != drawn:
            problems.append(f"the first dealer is seat {dealer}; the seed draws seat {drawn}")
    for i, deal in enumerate(deals):
        want = game.seeded_deal(state, i)
        found = _deal_problems(i, deal, want)
        problems.extend(found)
        if not found:
            out["deals_ok"] += 1
    try:
        replay(data)
    except RecordError as e:
        problems.append(f"the actions do not replay: {e}")
    out["ok"] = not problems
    return out
