"""A game in the terminal: one person against computer players, line by line.

The session is the "master" of the game (as the server will be): it holds the State,
asks bots and the person for actions, validates them through the engine, and shows the
person only what their observation and the public events hold.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from rich.console import Console
from rich.markup import escape

from kozyr.bots.base import Bot
from kozyr.cards import CardError, Lang, card_name, parse_card
from kozyr.games.base import Event, GameError, GameState, IllegalAction, Observation
from kozyr.i18n import t
from kozyr.terminal.commands import HAND, HELP, QUIT, SCORE, latin_t, russian, to_engine
from kozyr.terminal.style import sort_cards


class View(Protocol):
    """How one game is drawn for the person: from observations and events only."""

    def narrate(self, event: Event) -> str | None: ...

    def show_table(self, obs: Observation) -> None: ...

    def prompt(self, obs: Observation) -> str: ...

    def show_scores(self, obs: Observation) -> None: ...

    def show_end(self, state_summary: Mapping[str, object]) -> None: ...


def in_sentence(reason: str) -> str:
    """A refusal inside the sentence "Not allowed: ...": its first word in lower case,
    unless that word is a card or a name ("Q♠ ...", "Computer 2 ..."), as the page does
    (``web/static/js/refusal.js``).

    >>> in_sentence("You hold spades, the suit led"), in_sentence("You are the King: name")
    ('you hold spades, the suit led', 'you are the King: name')
    >>> in_sentence("Q♠ is not in the deck"), in_sentence("Computer 2 leads")
    ('Q♠ is not in the deck', 'Computer 2 leads')
    >>> in_sentence("“ZZ” is not a card"), in_sentence("T is a Latin letter")
    ('“ZZ” is not a card', 'T is a Latin letter')
    >>> in_sentence("It is not your turn")
    'it is not your turn'
    """
    word = reason.split(" ", 1)[0]
    rest = reason[len(word) + 1 : len(word) + 2]
    if not word.isalpha() or not word[0].isupper() or rest.isdigit() or not rest:
        return reason
    if word[1:].islower() or unicodedata.name(word[0]).startswith("CYRILLIC"):
        # A word, or a one-letter Russian word (the preposition "u": "u vas net ...").
        return word[0].lower() + reason[1:]
    return reason


class Quit(Exception):
    """The person asked to leave."""


@dataclass
class Session:
    state: GameState
    human: int
    bots: Mapping[int, Bot]
    view: View
    console: Console
    read: Callable[[str], str]
    lang: Lang = "en"
    bot_budget: float = 0.0
    shown: int = field(default=0)

    def _flush_events(self) -> None:
        events = self.state.events
        while self.shown < len(events):
            line = self.view.narrate(events[self.shown])
            self.shown += 1
            if line:
                self.console.print(line)

    def _say_no(self, reason: object) -> None:
        line = t("illegal", self.lang, reason=in_sentence(str(reason)))
        self.console.print(f"[red]{escape(line)}[/red]")

    def _human_turn(self) -> None:
        obs = self.state.observation(self.human)
        self.view.show_table(obs)
        while True:
            try:
                text = self.read(self.view.prompt(obs)).strip()
            except (EOFError, KeyboardInterrupt) as e:
                # Ctrl-D and Ctrl-C both leave the game; the record is saved either way.
                self.console.print()  # the prompt line was left open
                raise Quit from e
            low = " ".join(text.lower().split())
            if not text:
                continue
            if low in QUIT:
                raise Quit
            if low in HELP:
                self.console.print(t(f"help_{self.state.game}", self.lang))
                continue
            if low in HAND:
                self.view.show_table(obs)
                continue
            if low in SCORE:
                self.view.show_scores(obs)
                continue
            if latin_t(text, self.lang):
                self._say_no(t("latin_t", self.lang))
                continue
            try:
                # The engine explains a refusal (naming the ruling) and changes nothing.
                self.state.apply(self.state.parse_action(to_engine(text)))
                return
            except CardError as e:
                # Named as typed, not as read (a Russian word such as "pass" in Russian).
                typed = CardError(e.code, {**e.params, "text": text})
                self._say_no((typed if e.code == "bad_card_text" else e).message(self.lang))
            except IllegalAction as e:
                self._say_no(self._why_not(text, e))
                self.console.print(f"{t('legal', self.lang)}: {self._legal_texts(obs)}")
            except GameError as e:
                self._say_no(e)

    def _why_not(self, text: str, e: IllegalAction) -> str:
        """The catalogue's message in the player's language: the rule in words, never its
        ruling's code. A Russian command word (such as "pass") typed when a card is due
        gets a plain hint instead."""
        try:
            parse_card(text)
        except CardError:
            if self.lang == "ru" and e.code in ("must_play_card", "not_an_action"):
                return t("play_a_card", "ru")
        return e.message(self.lang)

    def _legal_texts(self, obs: Observation) -> str:
        legal = self.state.legal_actions()
        cards = [a for a in legal if a < 52]
        trump = getattr(obs, "trump", None)
        texts = [
            card_name(c, self.lang, symbols=self.lang == "ru")
            for c in sort_cards(cards, self.state.game, trump if isinstance(trump, int) else None)
        ]
        for a in legal:
            if a >= 52:
                text = self.state.action_text(a)
                texts.append(russian(text) if self.lang == "ru" else text)
        return ", ".join(texts)

    def run(self) -> bool:
        """Plays until the game ends (True) or the person quits (False)."""
        try:
            while not self.state.over and not self.state.waiting_for_deal:
                self._flush_events()
                seat = self.state.to_act
                if seat is None:
                    break
                if seat == self.human:
                    self._human_turn()
                else:
                    obs = self.state.observation(seat)
                    legal = self.state.legal_actions()
                    try:
                        action = self.bots[seat].choose(obs, legal, self.bot_budget)
                    except KeyboardInterrupt as e:
                        # Ctrl-C while a bot thinks: nothing was applied yet, so the
                        # game so far is whole and is saved like any other quit.
                        self.console.print()
                        raise Quit from e
                    self.state.apply(action)
        except Quit:
            self._flush_events()
            self.console.print(t("quit", self.lang))
            return False
        self._flush_events()
        if self.state.waiting_for_deal:
            self.console.print(t("waiting_deal", self.lang))
        self.view.show_end(self.state.summary())
        return self.state.over


def record_path(directory: Path, game: str, seed: int | None, stamp: str) -> Path:
    return directory / f"{game}-{stamp}-seed{seed}.json"
