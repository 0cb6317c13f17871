"""The JSON game record ``kozyr-record/1``: writing, reading, checking and replaying.

A record is options + how the game started (first dealer or join order) + the deals +
the actions, which fix the whole game (B2). Replaying rebuilds the game through the
engine, so a record that breaks a rule is refused exactly where it breaks it.

>>> from kozyr.games.imperial import ImperialOptions, ImperialState
>>> state = ImperialState.new(ImperialOptions(players=2), seed=12345)
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
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast

from kozyr.cards import CardError, Lang, card_name, cards_in, parse_card
from kozyr.games.base import GameError, GameState, IllegalAction
from kozyr.games.dealing import LEGACY, SCHEMES, SECURE, commitment, parse_seed_hex, seed_hex
from kozyr.games.emperor import EmperorDeal, EmperorOptions, EmperorState
from kozyr.games.emperor.deal import seeded_deal as emperor_seeded_deal
from kozyr.games.imperial import ImperialDeal, ImperialOptions, ImperialState
from kozyr.games.imperial.deal import draw_first_dealer
from kozyr.games.imperial.deal import seeded_deal as imperial_seeded_deal
from kozyr.messages import message

FORMAT = "kozyr-record/1"
GAMES = ("imperial", "emperor")


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


def _deal_json(deal: ImperialDeal | EmperorDeal) -> dict[str, Any]:
    out: dict[str, Any] = {"hands": [_names(h) for h in deal.hands]}
    if isinstance(deal, ImperialDeal) and deal.turnup is not None:
        out["turnup"] = card_name(deal.turnup)
    if deal.trump_card is not None:
        out["trump_card"] = card_name(deal.trump_card)
    return out


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


def to_record(state: GameState, **extra: Any) -> dict[str, Any]:
    """The record of a game so far, with every card dealt and the seed revealed: only
    for after the game (I13, B3).

    ``extra`` adds fields such as ``players`` (names) or ``created``.
    """
    if isinstance(state, ImperialState):
        start: dict[str, Any] = {"first_dealer": state.first_dealer}
        options = state.options.to_json()
    elif isinstance(state, EmperorState):
        start = {"join_order": list(state.join_order)}
        options = state.options.to_json()
    else:
        raise TypeError(f"not a kozyr game state: {type(state).__name__}")
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": state.game,
        "options": options,
        **start,
        **seed_fields(state.seed, state.dealing),
        "deals": [_deal_json(d) for d in state.dealt],
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


def _card(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise RecordError(f'{where}: expected a card like "QS", got {json.dumps(value)}')
    try:
        return parse_card(value)
    except CardError as e:
        raise RecordError(f"{where}: {e}") from e


def _hands(deal: dict[str, Any], where: str, seen: dict[int, str]) -> tuple[int, ...]:
    hands = _field(deal, "hands", list, where)
    masks = []
    for j, hand in enumerate(hands):
        if not isinstance(hand, list):
            raise RecordError(f"{where}hands[{j}]: expected a list of cards")
        mask = 0
        for k, text in enumerate(hand):
            place = f"{where}hands[{j}][{k}]"
            c = _card(text, place)
            _once(c, place, seen)
            mask |= 1 << c
        masks.append(mask)
    return tuple(masks)


def _once(c: int, place: str, seen: dict[int, str]) -> None:
    if c in seen:
        raise RecordError(f"{place}: card {card_name(c)} is dealt twice (also at {seen[c]})")
    seen[c] = place


def _optional_card(deal: dict[str, Any], key: str, where: str) -> int | None:
    if deal.get(key) is None:
        return None
    return _card(deal[key], f"{where}{key}")


def _parse_deals(data: dict[str, Any], game: str) -> list[ImperialDeal | EmperorDeal]:
    deals: list[ImperialDeal | EmperorDeal] = []
    for i, raw in enumerate(_field(data, "deals", list, "")):
        where = f"deals[{i}]."
        if not isinstance(raw, dict):
            raise RecordError(f'deals[{i}]: expected an object with "hands"')
        seen: dict[int, str] = {}
        hands = _hands(raw, where, seen)
        trump_card = _optional_card(raw, "trump_card", where)
        try:
            if game == "imperial":
                turnup = _optional_card(raw, "turnup", where)
                if turnup is not None:
                    _once(turnup, f"{where}turnup", seen)
                deals.append(ImperialDeal(hands=hands, turnup=turnup, trump_card=trump_card))
            else:
                deals.append(EmperorDeal(hands=hands, trump_card=trump_card))
        except GameError as e:
            raise RecordError(f"deals[{i}]: {e}") from e
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
    game = data.get("game")
    if game not in GAMES:
        raise RecordError(f"game: expected one of {', '.join(GAMES)}, got {json.dumps(game)}")
    options_json = data.get("options", {})
    if not isinstance(options_json, dict):
        raise RecordError("options: expected an object")
    scheme, seed = read_seed(data)
    deals = _parse_deals(data, game)
    try:
        if game == "imperial":
            options = ImperialOptions.from_json(options_json)
            dealer = data.get("first_dealer")
            if dealer is not None:
                _field(data, "first_dealer", int, "")
            return ImperialState.new(
                options,
                seed=seed,
                deals=cast(Sequence[ImperialDeal], deals),
                first_dealer=dealer,
                dealing=scheme,
            )
        e_options = EmperorOptions.from_json(options_json)
        order = data.get("join_order")
        if order is not None:
            _field(data, "join_order", list, "")
        return EmperorState.new(
            e_options,
            seed=seed,
            deals=cast(Sequence[EmperorDeal], deals),
            join_order=order,
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


def _deal_problems(
    i: int, deal: ImperialDeal | EmperorDeal, want: ImperialDeal | EmperorDeal
) -> list[str]:
    problems = []
    for s, (got, exp) in enumerate(zip(deal.hands, want.hands, strict=True)):
        if got != exp:
            problems.append(_mismatch(f"deal {i + 1}: seat {s}", got, exp))
    pairs = [("trump card", deal.trump_card, want.trump_card)]
    if isinstance(deal, ImperialDeal) and isinstance(want, ImperialDeal):
        pairs.append(("turn-up", deal.turnup, want.turnup))
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
        deals = _parse_deals(data, state.game)
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
    n = state.players
    if isinstance(state, ImperialState):
        drawn = draw_first_dealer(n, seed, scheme)
        if state.first_dealer != drawn:
            problems.append(
                f"the first dealer is seat {state.first_dealer}; the seed draws seat {drawn}"
            )
    for i, deal in enumerate(deals):
        want: ImperialDeal | EmperorDeal
        if isinstance(state, ImperialState):
            want = imperial_seeded_deal(n, seed, i, (state.first_dealer + i) % n, scheme)
        else:
            want = emperor_seeded_deal(seed, i, n, scheme)
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
