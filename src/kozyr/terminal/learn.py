"""``kozyr learn GAME``: the lessons (``kozyr.games.lessons``) in the terminal.

The learner sees what his seat may see, drawn by the game's own terminal view (hand,
trick, trump, scores), every scripted move of the other players, called by the names the
lesson gives them (:meth:`Lesson.seat_name`), with the lesson's words,
and types his moves as in a game (:func:`kozyr.terminal.commands.to_engine` reads the
Russian words). A move the rules refuse, or one the lesson does not want, is not played:
he reads why (the engine's refusal in words, or the lesson's goal) and tries again. The
lesson ends with its check: one more move to find, or a question with numbered answers.

Finished lessons are kept in a small JSON file (:class:`Progress`), so that the next run
starts at the first lesson not done.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kozyr.cards import CardError, Lang, parse_card
from kozyr.games import GAMES
from kozyr.games.base import GameState
from kozyr.games.lessons import Lesson, LessonRun, Outcome, Played, Words
from kozyr.i18n import t
from kozyr.terminal.commands import HAND, HELP, QUIT, SCORE, latin_t, to_engine
from kozyr.terminal.session import View, in_sentence
from kozyr.terminal.style import card_markup
from kozyr.terminal.views import view_for
from kozyr.texts import text

__all__ = ["PROGRESS_ENV", "Learn", "Progress", "progress_path"]

PROGRESS_ENV = "KOZYR_LESSONS_FILE"
"""The environment variable naming the progress file (tests set it)."""

_MAX_PROGRESS_BYTES = 1 << 16  # a file bigger than this is not ours: it is ignored


def progress_path() -> Path:
    """``$KOZYR_LESSONS_FILE``, else ``lessons.json`` in the XDG config folder
    (``$XDG_CONFIG_HOME/kozyr``, by default ``~/.config/kozyr``)."""
    given = os.environ.get(PROGRESS_ENV)
    if given:
        return Path(given)
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "kozyr" / "lessons.json"


@dataclass
class Progress:
    """The lessons finished, by game: ``{"imperial": ["follow-suit-and-trumps", ...]}``.

    A missing, unreadable or malformed file is no progress (the learner starts at lesson
    1); only lesson ids of the right shape are kept."""

    path: Path
    done: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> Progress:
        try:
            if path.stat().st_size > _MAX_PROGRESS_BYTES:
                return cls(path)
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls(path)
        done: dict[str, list[str]] = {}
        if isinstance(raw, dict):
            for game, ids in raw.items():
                if game in GAMES and isinstance(ids, list):
                    done[game] = [i for i in ids if isinstance(i, str) and 0 < len(i) <= 64]
        return cls(path, done)

    def is_done(self, lesson: Lesson) -> bool:
        return lesson.id in self.done.get(lesson.game, [])

    def mark(self, lesson: Lesson) -> None:
        """Records ``lesson`` as finished and writes the file (OSError if it cannot)."""
        ids = self.done.setdefault(lesson.game, [])
        if lesson.id not in ids:
            ids.append(lesson.id)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        part = self.path.with_name(self.path.name + ".part")
        part.write_text(json.dumps(self.done, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        part.replace(self.path)

    def first_not_done(self, lessons: Sequence[Lesson]) -> int | None:
        """The index of the first lesson not finished; None when all are."""
        return next((i for i, lesson in enumerate(lessons) if not self.is_done(lesson)), None)


class Quit(Exception):
    """The learner asked to leave."""


@dataclass
class Learn:
    """The lessons of one game in the terminal, for one learner."""

    game: str
    lessons: Sequence[Lesson]
    console: Console
    read: Callable[[str], str]
    progress: Progress
    lang: Lang = "en"
    helped: bool = field(default=False)  # the typing help is shown once a run

    @property
    def title(self) -> str:
        en, ru = GAMES[self.game].title
        return ru if self.lang == "ru" else en

    def _say(self, words: Words | None, style: str = "cyan") -> None:
        if words is not None:
            self.console.print(f"[{style}]{escape(words.get(self.lang))}[/{style}]")

    def _input(self, prompt: str) -> str:
        try:
            return self.read(prompt).strip()
        except (EOFError, KeyboardInterrupt) as e:
            self.console.print()  # the prompt line was left open
            raise Quit from e

    # ------------------------------------------------------------------ the list

    def show_list(self) -> None:
        table = Table(title=text("learn.list_title", self.lang, title=self.title))
        table.add_column(text("learn.list_number", self.lang), justify="right")
        table.add_column(text("learn.list_lesson", self.lang))
        table.add_column(text("learn.list_done", self.lang), justify="center")
        for lesson in self.lessons:
            done = "✓" if self.progress.is_done(lesson) else ""
            table.add_row(str(lesson.order), escape(lesson.title.get(self.lang)), done)
        self.console.print(table)
        self.console.print(text("learn.list_hint", self.lang, game=self.game), markup=False)

    # ------------------------------------------------------------------ lessons

    def run(self, start: int | None) -> bool:
        """Runs the lessons from index ``start`` (None: the first not done), one after the
        other while the learner goes on. False when he left in the middle of a lesson."""
        if start is None:
            start = self.progress.first_not_done(self.lessons)
            if start is None:
                self.show_list()
                self.console.print(
                    text("learn.all_done", self.lang, title=self.title, game=self.game),
                    markup=False,
                )
                return True
        index = start
        try:
            while True:
                self.lesson(self.lessons[index])
                if index + 1 >= len(self.lessons):
                    words = text("learn.last_done", self.lang, title=self.title, game=self.game)
                    self.console.print(f"\n[bold]{escape(words)}[/bold]")
                    return True
                index += 1
                nxt = self.lessons[index]
                ask = text("learn.next", self.lang, n=nxt.order, title=nxt.title.get(self.lang))
                self.console.print(f"\n{escape(ask)}")
                try:
                    answer = self._input("> ")
                except Quit:
                    return True  # between lessons: nothing is left half done
                if " ".join(answer.lower().split()) in QUIT:
                    return True
        except Quit:
            self.console.print(text("learn.left", self.lang))
            return False

    def lesson(self, lesson: Lesson) -> None:
        """One lesson, through its check (:class:`Quit` if the learner leaves)."""
        run = LessonRun(lesson)
        lang = self.lang
        names = lesson.seat_names(lang)  # "You", and the lesson's names for the others
        view = view_for(lesson.game, self.console, names, lang)
        heading = text(
            "learn.heading",
            lang,
            n=lesson.order,
            total=len(self.lessons),
            title=lesson.title.get(lang),
        )
        self.console.print()
        self.console.rule(style="dim")
        self.console.print(f"[bold]{escape(heading)}[/bold]")
        self.console.print(escape(lesson.intro.get(lang)))
        if not self.helped:
            self.console.print(f"[dim]{escape(text('learn.help', lang))}[/dim]")
            self.helped = True
        shown = _Shown(lesson, view, self.console, names, lang)
        shown.scripted(run.played)
        while not run.done:
            if run.at_check and lesson.check.kind == "question":
                self._question(run)
                continue
            self._move(run, view, shown)
        self.console.print(f"[bold green]{escape(text('learn.passed', lang))}[/bold green]")
        try:
            self.progress.mark(lesson)
        except OSError as e:
            self.console.print(text("learn.not_saved", lang, error=e.strerror or e), markup=False)

    def _move(self, run: LessonRun, view: View, shown: _Shown) -> None:
        """The learner's turn: a step or a check of kind "move"."""
        lang = self.lang
        obs = run.state.observation(run.lesson.learner)
        self.console.print()
        view.show_table(obs)
        if run.at_check:
            label = text("learn.check", lang)
            question = run.lesson.check.question.get(lang)
            self.console.print(f"[bold]{escape(label)}: {escape(question)}[/bold]")
        while True:
            typed = self._input(f"{text('learn.your_move', lang)}> ")
            low = " ".join(typed.lower().split())
            if not typed:
                continue
            if low in QUIT:
                raise Quit
            if low in HELP:
                self.console.print(text("learn.help", lang), markup=False)
                continue
            if low in HAND:
                view.show_table(obs)
                continue
            if low in SCORE:
                view.show_scores(obs)
                continue
            if latin_t(typed, lang):
                self._no(t("latin_t", lang))
                continue
            move = to_engine(typed)
            out = run.try_move(move)
            if not out.accepted:
                self._refused(typed, out)
                continue
            shown.learner(Played(run.lesson.learner, move, None), out)
            shown.scripted(out.then)
            return

    def _no(self, reason: str) -> None:
        line = t("illegal", self.lang, reason=in_sentence(reason))
        self.console.print(f"[red]{escape(line)}[/red]")

    def _refused(self, typed: str, out: Outcome) -> None:
        """Why a move was not played: the rules' words, or the lesson's goal."""
        if out.code is None:
            words = text("learn.goal", self.lang, words=out.say.get(self.lang))
            self.console.print(f"[yellow]{escape(words)}[/yellow]")
            return
        if out.code == "bad_card_text":
            # Named as typed, not as read (a Russian word such as "pass" in Russian).
            self._no(CardError("bad_card_text", {"text": typed}).message(self.lang))
            return
        if self.lang == "ru" and out.code == "must_play_card" and not _is_card(typed):
            # A Russian command word ("pass" in Russian) typed when a card is due.
            self._no(t("play_a_card", "ru"))
            return
        self._no(out.say.get(self.lang))

    def _question(self, run: LessonRun) -> None:
        lang = self.lang
        check = run.lesson.check
        label = text("learn.check", lang)
        self.console.print(f"\n[bold]{escape(label)}: {escape(check.question.get(lang))}[/bold]")
        for i, choice in enumerate(check.choices, start=1):
            self.console.print(f"  {i}. {escape(choice.get(lang))}")
        n = len(check.choices)
        while True:
            typed = self._input(f"{text('learn.answer_prompt', lang, n=n)}> ")
            low = " ".join(typed.lower().split())
            if not typed:
                continue
            if low in QUIT:
                raise Quit
            if not (low.isdigit() and 1 <= int(low) <= n):
                self.console.print(text("learn.pick_a_number", lang, n=n), markup=False)
                continue
            out = run.answer(int(low) - 1)
            if out.accepted:
                self._say(out.say, "green")
                return
            self._say(out.say, "yellow")


def _is_card(typed: str) -> bool:
    try:
        parse_card(typed)
    except CardError:
        return False
    return True


class _Shown:
    """What the learner has been shown of the lesson's events: the runner plays the
    scripted moves in one go, so a mirror of its state replays them one by one, and each
    move's events are narrated before the lesson's words about it."""

    def __init__(
        self, lesson: Lesson, view: View, console: Console, names: Sequence[str], lang: Lang
    ) -> None:
        self.view = view
        self.console = console
        self.names = list(names)
        self.lang = lang
        self.mirror: GameState = lesson.new_state()
        for move in lesson.setup:
            self.mirror.play(move)
        # The setup is silent, but the current deal's events (trump, titles, swaps,
        # declarations) are the position: they are shown from the deal on, without the
        # tricks played in it (the table shows the tricks each seat took).
        events = self.mirror.events
        deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
        for event in events[deals[-1] if deals else 0 :]:
            if event["type"] not in ("play", "trick"):
                line = self.view.narrate(event)
                if line:
                    self.console.print(line)
        self.shown = len(events)

    def _flush(self) -> None:
        events = self.mirror.events
        while self.shown < len(events):
            line = self.view.narrate(events[self.shown])
            self.shown += 1
            if line:
                self.console.print(line)

    def _play(self, played: Played) -> None:
        action = self.mirror.parse_action(played.move)
        if action < 52:
            name = self.names[played.seat]
            self.console.print(f"{escape(name)}: {card_markup(action, self.lang)}")
        self.mirror.apply(action)
        self._flush()

    def scripted(self, moves: Sequence[Played]) -> None:
        for played in moves:
            self._play(played)
            if played.say is not None:
                self.console.print(f"  [cyan]{escape(played.say.get(self.lang))}[/cyan]")

    def learner(self, played: Played, out: Outcome) -> None:
        self._play(played)
        self.console.print(f"  [green]{escape(out.say.get(self.lang))}[/green]")
