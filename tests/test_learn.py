"""``kozyr learn``: the lessons in the terminal (#29), in English and Russian.

Lesson 1 of each game is played through to its passed check with typed moves (Russian
card names in Russian); a move the rules refuse and one the lesson does not want are
explained and not played; the progress file is written, and the next run starts at
lesson 2 and the list marks lesson 1 done.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from kozyr.games.lessons import LessonRun, load
from kozyr.terminal.learn import PROGRESS_ENV, Learn, Progress, progress_path

KOZYR = [sys.executable, "-m", "kozyr"]
RULING = re.compile(r"\b[IEB]\d+\b")


def _learn(
    game: str, lines: list[str], progress: Path, lang: str = "en"
) -> tuple[Learn, io.StringIO, list[str]]:
    """A Learn whose learner types ``lines`` (then Ctrl-D); what he read, and the
    prompts he was shown."""
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, highlight=False)
    typed: Iterator[str] = iter(lines)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        console.print(prompt, end="")
        try:
            line = next(typed)
        except StopIteration:
            raise EOFError from None
        console.print(line)
        return line

    learn = Learn(game, load(game), console, read, Progress.load(progress), lang)  # type: ignore[arg-type]
    return learn, out, prompts


def _between(text: str, start: str, end: str) -> str:
    return text[text.index(start) : text.index(end, text.index(start))]


def test_imperial_lesson_1_in_english(tmp_path: Path) -> None:
    progress = tmp_path / "lessons.json"
    # K♠ is led; the learner holds no spade and has trumps (hearts).
    lines = ["AD", "10H", "8H", "hand", "KS", "AD", "AC", "9C", "q"]
    learn, out, prompts = _learn("imperial", lines, progress)
    assert learn.run(None) is True
    text = out.getvalue()
    assert "Lesson 1 of 8: Following suit and trumps" in text
    assert "Boris leads the king of spades." in text  # a scripted move's words
    # A card the rules refuse: the rule in words, with what in the hand makes it bite.
    after_ad = _between(text, "Your move> AD", "Your move> 10H")
    assert (
        "Not allowed: you have no spades but you hold a trump (hearts), so you must trump"
        in after_ad
    )
    # A legal card the lesson does not want: the lesson's goal, not played either.
    after_10h = _between(text, "Your move> 10H", "Your move> 8H")
    assert "Not this one. Any trump takes this trick: the eight of hearts is enough." in after_10h
    assert "Trick 1" not in text[: text.index("Your move> 8H")]  # nothing was played before
    assert "Trick 1: Boris K♠, You 8♥ → You" in text
    # K♠ is not in the hand any more; A♣ is legal but the check wants a small club.
    assert "Not allowed: you do not hold K♠" in text
    assert "He follows with the jack of diamonds and takes the trick." in text
    assert "Check: The king of clubs is led. Which card do you play?" in text
    assert "Not this one. Nothing of yours beats the king" in text
    assert "Trick 3: Boris K♣, You 9♣ → Boris" in text
    assert "Right: you must follow suit" in text
    assert "Lesson passed." in text
    assert "Next: lesson 2, “Declarations and honours”." in text
    assert not RULING.search(text), RULING.findall(text)
    assert json.loads(progress.read_text()) == {"imperial": ["follow-suit-and-trumps"]}
    assert prompts[-1] == "> "  # the question between lessons, answered q


def test_imperial_lesson_1_in_russian_with_russian_card_names(tmp_path: Path) -> None:
    progress = tmp_path / "lessons.json"
    # Т is the ace in Russian (Тб: the ace of diamonds), 8ч the eight of hearts.
    lines = ["пас", "Тб", "10ч", "8ч", "Тб", "выход"]
    learn, out, _ = _learn("imperial", lines, progress, "ru")
    assert learn.run(None) is False  # left in the middle of lesson 1
    text = out.getvalue()
    assert "Урок 1 из 8: Масть и козыри" in text
    assert "Так нельзя: «пас» — не карта" in text  # a word typed where a card is due
    assert "Борис ходит королём пик." in text
    assert (
        "Так нельзя: масти хода (пики) у вас нет, а козырь (черви) есть, значит, нужно бить "
        "козырем" in text
    )
    assert "Не то. Эту взятку берёт любой козырь: хватит восьмёрки червей." in text
    assert "Взятка 1: Борис К♠, Вы 8♥ → Вы" in text
    assert "Взятка 2: Вы Т♦, Борис В♦ → Борис" in text
    assert "Проверка: Пошли королём треф. Какую карту вы кладёте?" in text
    assert "Вы вышли из урока." in text
    assert not progress.exists()  # not passed: nothing written
    assert not RULING.search(text), RULING.findall(text)


def test_russian_lesson_1_to_its_passed_check_then_the_next_run_starts_at_lesson_2(
    tmp_path: Path,
) -> None:
    progress = tmp_path / "lessons.json"
    learn, out, _ = _learn("imperial", ["8ч", "10б", "9т", "q"], progress, "ru")
    assert learn.run(None) is True
    text = out.getvalue()
    assert "Верно: ходить нужно в масть" in text and "Урок пройден." in text
    learn, out, _ = _learn("imperial", [], progress, "ru")
    learn.run(None)
    assert "Урок 2 из 8: Объявления и онёры" in out.getvalue()
    assert "Урок 1 из 8" not in out.getvalue()


def test_emperor_lesson_1_question_check(tmp_path: Path) -> None:
    progress = tmp_path / "lessons.json"
    # Clubs are led; the learner (seat 1) holds A♣ and 2♣: a heart must follow suit.
    lines = ["4H", "2C", "AC", "5", "x", "2", "1", "q"]
    learn, out, _ = _learn("emperor", lines, progress)
    assert learn.run(None) is True
    text = out.getvalue()
    assert "Lesson 1 of 8:" in text
    assert "Not allowed: you hold clubs, the suit led, so you must follow suit" in text
    assert "Your answer (1-3)> 5" in text
    assert "Type the number of an answer, from 1 to 3" in text
    assert "Your answer (1-3)> 2" in text
    assert "Lesson passed." in text
    assert text.index("Your answer (1-3)> 1") < text.index("Lesson passed.")
    assert json.loads(progress.read_text()) == {"emperor": ["round-one"]}


def test_emperor_lesson_1_in_russian(tmp_path: Path) -> None:
    progress = tmp_path / "lessons.json"
    learn, out, _ = _learn("emperor", ["4ч", "тт", "1", "q"], progress, "ru")
    assert learn.run(None) is True
    text = out.getvalue()
    assert "Урок 1 из 8:" in text
    assert "Так нельзя: масть хода — трефы, и она у вас есть, значит, нужно ходить в масть" in text
    assert "Урок пройден." in text and "Дальше урок 2:" in text
    assert not RULING.search(text), RULING.findall(text)
    # The others by the lesson's names, declined where the sentence needs a case.
    assert "Первый ход у Глеба" in text and "Вам известны карты Глеба: 2♥" in text
    assert "Взятка 1: Глеб К♣, Анна 2♠, Вы Т♣, Вера 2♦ → Вы" in text
    assert "Компьютер" not in text


def test_progress_marks_the_list_and_a_broken_file_is_no_progress(tmp_path: Path) -> None:
    progress = tmp_path / "lessons.json"
    progress.write_text('{"imperial": ["follow-suit-and-trumps", 7], "chess": ["x"]}')
    learn, out, _ = _learn("imperial", [], progress)
    assert learn.progress.done == {"imperial": ["follow-suit-and-trumps"]}
    learn.show_list()
    rows = [line for line in out.getvalue().splitlines() if "│" in line]
    first = next(r for r in rows if "Following suit and trumps" in r)
    second = next(r for r in rows if "Declarations and honours" in r)
    assert "✓" in first and "✓" not in second
    progress.write_text("not json")
    assert Progress.load(progress).done == {}
    assert Progress.load(tmp_path / "missing.json").done == {}


def test_every_lesson_done_shows_the_list(tmp_path: Path) -> None:
    progress = tmp_path / "lessons.json"
    progress.write_text(json.dumps({"emperor": [lesson.id for lesson in load("emperor")]}))
    learn, out, prompts = _learn("emperor", [], progress)
    assert learn.run(None) is True
    assert "You have finished every lesson of Emperor." in out.getvalue()
    assert prompts == []


def test_progress_path_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PROGRESS_ENV, "/tmp/x/lessons.json")
    assert progress_path() == Path("/tmp/x/lessons.json")
    monkeypatch.delenv(PROGRESS_ENV)
    monkeypatch.setenv("XDG_CONFIG_HOME", "/cfg")
    assert progress_path() == Path("/cfg/kozyr/lessons.json")


def _run(args: list[str], stdin: str, progress: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*KOZYR, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={"LANG": "C", "PATH": "/usr/bin:/bin", "COLUMNS": "100", PROGRESS_ENV: str(progress)},
    )


def test_the_command_in_russian_keeps_progress_between_runs(tmp_path: Path) -> None:
    progress = tmp_path / "kozyr" / "lessons.json"
    first = _run(["learn", "imperial", "--lang", "ru"], "8ч\nТб\n9т\nq\n", progress)
    assert first.returncode == 0, first.stderr
    assert "Урок пройден." in first.stdout
    assert json.loads(progress.read_text()) == {"imperial": ["follow-suit-and-trumps"]}
    second = _run(["learn", "imperial", "--lang", "ru"], "", progress)
    assert second.returncode == 0, second.stderr
    assert "Урок 2 из 8: Объявления и онёры" in second.stdout
    listed = _run(["learn", "imperial", "--list", "--lang", "ru"], "", progress)
    assert "Империал: уроки" in listed.stdout
    row = next(x for x in listed.stdout.splitlines() if "Масть и козыри" in x)
    assert "✓" in row
    picked = _run(["learn", "imperial", "--lesson", "3"], "", progress)
    assert "Lesson 3 of 8" in picked.stdout


def test_the_command_refuses_a_bad_game_or_lesson(tmp_path: Path) -> None:
    progress = tmp_path / "lessons.json"
    bad = _run(["learn", "chess"], "", progress)
    assert bad.returncode == 2 and "There is no game “chess”" in bad.stderr
    bad = _run(["learn", "emperor", "--lesson", "9", "--lang", "ru"], "", progress)
    assert bad.returncode == 2 and "Урока 9 нет" in bad.stderr


@pytest.mark.parametrize("game", ["imperial", "emperor"])
def test_every_lesson_plays_through_in_the_terminal(game: str, tmp_path: Path) -> None:
    """Typing each lesson's first accepted move at every turn and the right answer passes
    every lesson in turn, each one's scripted words shown, and the file lists them all."""
    lines: list[str] = []
    for lesson in load(game):
        run = LessonRun(lesson)  # to find, at each turn, a move the lesson accepts now
        while run.expected():
            move = next(m for m in run.expected() if run.try_move(m).accepted)
            lines.append(move)
        if lesson.check.kind == "question":
            lines.append(str(lesson.check.answer + 1))
        lines.append("")  # Enter: on to the next lesson
    progress = tmp_path / "lessons.json"
    learn, out, _ = _learn(game, lines, progress, "ru")
    assert learn.run(None) is True
    text = out.getvalue()
    assert text.count("Урок пройден.") == len(load(game)) == 8
    for lesson in load(game):
        for step in lesson.steps:
            if step.say is not None and not step.learner:
                assert step.say.ru in text, step.say.ru
    assert not RULING.search(text), RULING.findall(text)
    assert json.loads(progress.read_text()) == {game: [lesson.id for lesson in load(game)]}


def test_progress_that_cannot_be_saved_is_said_and_the_lesson_still_passes(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    learn, out, _ = _learn("emperor", ["AC", "1", "q"], blocker / "lessons.json")
    assert learn.run(None) is True
    text = out.getvalue()
    assert "Lesson passed." in text
    assert "Your progress could not be saved:" in text
    assert "Next: lesson 2" in text
