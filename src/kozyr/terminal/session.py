"""A game in the terminal: one person against computer players, line by line.

The session is the "master" of the game (as the server will be): it holds the State,
asks bots and the person for actions, validates them through the engine, and shows the
person only what their observation and the public events hold.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from rich.console import Console

from kozyr.bots.base import Bot
from kozyr.cards import CardError, Lang, card_name, parse_card
from kozyr.games.base import Event, GameError, GameState, IllegalAction, Observation
from kozyr.i18n import t


class View(Protocol):
    """How one game is drawn for the person: from observations and events only."""

    def narrate(self, event: Event) -> str | None: ...

    def show_table(self, obs: Observation) -> None: ...

    def prompt(self, obs: Observation) -> str: ...

    def show_scores(self, obs: Observation) -> None: ...

    def show_end(self, state_summary: Mapping[str, object]) -> None: ...


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

    def _human_turn(self) -> None:
        obs = self.state.observation(self.human)
        self.view.show_table(obs)
        while True:
            try:
                text = self.read(self.view.prompt(obs)).strip()
            except EOFError as e:
                raise Quit from e
            low = text.lower()
            if not text:
                continue
            if low in ("q", "quit", "exit", "выход"):
                raise Quit
            if low in ("h", "help", "?", "помощь"):
                self.console.print(t("prompt_help", self.lang))
                continue
            if low in ("hand", "table", "t", "карты"):
                self.view.show_table(obs)
                continue
            if low in ("score", "scores", "s", "счёт", "счет"):
                self.view.show_scores(obs)
                continue
            try:
                # The engine explains a refusal (naming the ruling) and changes nothing.
                self.state.apply(self.state.parse_action(text))
                return
            except CardError as e:
                reason = e.message(self.lang)
                self.console.print(f"[red]{t('illegal', self.lang, reason=reason)}[/red]")
            except IllegalAction as e:
                # The catalog's message in the player's language, the ruling as a detail.
                reason = f"{e.message(self.lang)} ({e.rule})"
                self.console.print(f"[red]{t('illegal', self.lang, reason=reason)}[/red]")
                self.console.print(f"{t('legal', self.lang)}: {self._legal_texts()}")
            except GameError as e:
                self.console.print(f"[red]{t('illegal', self.lang, reason=e)}[/red]")

    def _legal_texts(self) -> str:
        texts = []
        for a in self.state.legal_actions():
            text = self.state.action_text(a)
            if self.lang == "ru":
                # Cards in Russian notation; other actions ("swap 2") are typed as they are.
                with contextlib.suppress(CardError):
                    text = card_name(parse_card(text), "ru")
            texts.append(text)
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
                    self.state.apply(self.bots[seat].choose(obs, legal, self.bot_budget))
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
