"""Every refusal the two engines can raise names the rule in words, in both languages,
never by a ruling's code (issue 29, item 3).

The sweep plays random games of every kind (Imperial with two and three players and with
heading the trick, Emperor with three and four) and, at every position, tries every
action that is not legal and a few malformed action texts; then a finished game and one
that waits for a deal it does not hold. Each refusal's message is checked in English and
Russian, as the engine gives it and as the terminal shows it; and the sweep must meet
every refusal code the engines' source raises.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from kozyr.cards import CardError
from kozyr.games import GAMES
from kozyr.games.base import GameState, IllegalAction
from kozyr.games.emperor.actions import NUM_ACTIONS
from kozyr.terminal.session import Session

GAMES_DIR = Path(__file__).parents[1] / "src" / "kozyr" / "games"
RULING = re.compile(r"\b[IEB]\d+\b")
KINDS: list[tuple[str, dict[str, Any]]] = [
    ("imperial", {"players": 2}),
    ("imperial", {"players": 3}),
    ("imperial", {"players": 2, "must_head": True}),
    ("emperor", {"players": 3}),
    ("emperor", {"players": 4}),
    # Bargaining from round 2, offers of one trick at most: offers too high, and offers
    # beyond a game total still small.
    ("emperor", {"players": 4, "bargain_from": 2, "max_offer": 1}),
    ("emperor", {"players": 3, "bargain_from": 2}),
]
# Texts the engines read as actions but refuse as written (a seat, an offer, a suit that
# is no such thing), and a card a short deck lacks.
BAD_TEXTS = ["swap 9", "swap x", "offer 7", "offer", "trump X", "trump", "2H", "6S"]
SEEDS = range(2)


def _new(game: str, options: dict[str, Any], seed: int) -> GameState:
    spec = GAMES[game]
    return spec.new_state(spec.options_from_json(options), seed=seed)


def _actions(state: GameState) -> range:
    # Every card, and for Emperor every action; one past the last is no action at all.
    return range(53) if state.game == "imperial" else range(NUM_ACTIONS + 1)


def _refusals(state: GameState) -> Iterator[tuple[str, IllegalAction]]:
    """Every refusal of ``state``: each action not legal now, and the bad texts; as
    (what was typed, the refusal)."""
    legal = set(state.legal_actions())
    for action in _actions(state):
        if action in legal:
            continue
        try:
            state.apply(action)  # refused: the state is left as it was
        except IllegalAction as e:
            last = action == len(_actions(state)) - 1
            yield (str(action) if last else state.action_text(action)), e
        else:
            raise AssertionError(f"{state.game}: {action} is not legal but was played")
    for typed in BAD_TEXTS:
        try:
            action = state.parse_action(typed)
            if action in legal:
                continue
            state.apply(action)
        except IllegalAction as e:
            yield typed, e
        except CardError:
            pass


def _walk(game: str, options: dict[str, Any], seed: int) -> Iterator[GameState]:
    """The positions of a random game to its end, the finished game last."""
    state = _new(game, options, seed)
    rng = random.Random(seed)
    while not state.over:
        yield state
        state.apply(rng.choice(state.legal_actions()))
    yield state


def _waiting(game: str, options: dict[str, Any]) -> GameState:
    """A game given one deal only, played until it waits for the next (a deal that
    ends the game at once, as four imperials can, is passed over)."""
    spec = GAMES[game]
    for seed in range(20):
        seeded = _new(game, options, seed)
        state = spec.new_state(
            spec.options_from_json(options),
            None,
            deals=[spec.seeded_deal(seeded, 0)],
            **spec.start_json(seeded),  # the first dealer, or the join order
        )
        rng = random.Random(seed)
        while not state.waiting_for_deal and not state.over:
            state.apply(rng.choice(state.legal_actions()))
        if state.waiting_for_deal:
            return state
    raise AssertionError("no game waited for a deal")


def _codes_in_source() -> set[str]:
    """The refusal codes the engines' source raises (as test_messages finds them)."""
    codes: set[str] = set()
    for path in GAMES_DIR.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes.update(re.findall(r'IllegalAction\(\s*"(\w+)"', text))
        codes.update(re.findall(r'return "(\w+)", \{', text))  # kozyr.games.tricks.refusal
    return codes


def _terminal(state: GameState, lang: Any) -> Session:
    """A terminal session, for its words of a refusal (``Session._why_not``)."""
    console = Console(file=io.StringIO())
    return Session(state, 0, {}, None, console, input, lang)  # type: ignore[arg-type]


def test_every_refusal_names_the_rule_in_words_in_both_languages() -> None:
    seen: dict[str, tuple[str, str]] = {}
    rendered: set[tuple[str, str, str]] = set()
    checked = 0
    for game, options in KINDS:
        states: list[GameState] = []
        for seed in SEEDS:
            states.extend(s.clone() for s in _walk(game, options, seed))
        states.append(_waiting(game, options))
        terminals = [_terminal(states[0], lang) for lang in ("en", "ru")]
        for state in states:
            for typed, e in _refusals(state):
                checked += 1
                key = (e.code, repr(sorted(e.params.items())), typed)
                if key in rendered:
                    continue  # the same refusal as before: the same words
                rendered.add(key)
                en, ru = e.message("en"), e.message("ru")
                where = f"{game} {options} {e.code} {typed!r}"
                assert en.strip() and ru.strip(), where
                assert en != ru, where
                assert re.search("[а-яё]", ru, re.I), where
                for words in (en, ru):
                    assert not RULING.search(words), (where, words)
                for terminal in terminals:
                    shown = terminal._why_not(typed, e)
                    assert shown.strip() and not RULING.search(shown), (where, shown)
                seen.setdefault(e.code, (en, ru))
    assert checked > 100_000 and len(rendered) > 1_000  # the sweep did sweep
    assert _codes_in_source() <= set(seen), sorted(_codes_in_source() - set(seen))


def test_the_concrete_words_of_the_card_rules() -> None:
    """Where it helps, a refusal says what in the position makes the rule bite: the suit
    led that the player holds, the trump he holds, the card to beat, his title."""
    spec = GAMES["imperial"]
    deal = {
        "hands": [
            ["8H", "10H", "AH", "AD", "10D", "9D", "8D", "7D", "AC", "JC", "9C", "8C"],
            ["KS", "QS", "10S", "9S", "8S", "7H", "KD", "QD", "JD", "KC", "QC", "10C"],
        ],
        "turnup": "9H",
    }
    options = spec.options_from_json({"players": 2})
    state = spec.new_state(options, None, first_dealer=0, deals=[spec.deal_from_json(deal, "deal")])
    state.play("KS")  # seat 1 leads a spade; seat 0 has none and holds hearts, trumps
    with pytest.raises(IllegalAction) as refused:
        state.play("AD")
    assert refused.value.message("en") == (
        "You have no spades but you hold a trump (hearts), so you must trump"
    )
    assert refused.value.message("ru") == (
        "Масти хода (пики) у вас нет, а козырь (черви) есть, значит, нужно бить козырем"
    )
    state.play("8H")  # seat 0 takes the trick and leads
    state.play("AD")
    with pytest.raises(IllegalAction) as refused:
        state.play("QS")  # seat 1 holds diamonds
    assert refused.value.message("en") == "You hold diamonds, the suit led, so you must follow suit"
    assert refused.value.message("ru") == (
        "Масть хода — бубны, и она у вас есть, значит, нужно ходить в масть"
    )
