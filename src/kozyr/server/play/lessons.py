"""The lessons (#29, ``docs/lessons.md``) as the page plays them: stateless.

A lesson is fixed by its file (options, deals, start, script), so the learner's accepted
moves are all it takes to rebuild where he is: each request replays them on a fresh
:class:`~kozyr.games.lessons.LessonRun`, then tries the new move or answer. Nothing is
kept between requests; a move the lesson did not accept at its point is refused
(``lesson_moves``), never played.

What goes back is what the learner may see: his seat's observation (never another seat's
hand), the words of each step, the scripted moves of the others as they happen, and what
is asked now (a move, or the check's question with its choices). The moves the lesson
wants are not sent: finding them is the lesson.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kozyr.games.lessons import Lesson, LessonError, LessonRun, Outcome, Played, Words, load
from kozyr.server.play.games import GAMES, game_of
from kozyr.server.transport.protocol import ProtocolError

__all__ = ["LESSONS", "MAX_MOVES", "lesson_of", "listing", "play"]

MAX_MOVES = 32
"""The most accepted moves a request may carry (the longest lesson has a few)."""

LESSONS: dict[str, tuple[Lesson, ...]] = {name: tuple(load(name)) for name in GAMES}
"""Every game's lessons, in their order, read once from the package."""


def _lessons(game: str) -> tuple[Lesson, ...]:
    """The lessons of ``game``; ``bad_game`` (404) for no such game."""
    try:
        game_of(game)
    except ProtocolError as e:
        e.status = 404
        raise
    return LESSONS[game]


def lesson_of(game: str, lesson_id: str) -> Lesson:
    """The lesson ``lesson_id`` of ``game``: ``bad_game`` or ``no_lesson`` (404) else."""
    for lesson in _lessons(game):
        if lesson.id == lesson_id:
            return lesson
    raise ProtocolError("no_lesson", status=404)


def _words(words: Words | None) -> dict[str, str] | None:
    return None if words is None else {"en": words.en, "ru": words.ru}


def listing(game: str) -> list[dict[str, Any]]:
    """The lessons of ``game`` in order: id, order, title and intro in both languages."""
    return [
        {
            "id": lesson.id,
            "order": lesson.order,
            "title": _words(lesson.title),
            "intro": _words(lesson.intro),
        }
        for lesson in _lessons(game)
    ]


def _played(played: Sequence[Played]) -> list[dict[str, Any]]:
    return [{"seat": p.seat, "move": p.move, "say": _words(p.say)} for p in played]


def _prompt(run: LessonRun) -> dict[str, Any]:
    """What is asked now: a move (of a step or the check), the check's question, or
    nothing (the lesson is done)."""
    check = run.lesson.check
    if run.done:
        return {"kind": "done"}
    if run.step is not None:
        return {"kind": "move", "check": False}
    if check.kind == "move":
        return {"kind": "move", "check": True, "question": _words(check.question)}
    return {
        "kind": "question",
        "check": True,
        "question": _words(check.question),
        "choices": [_words(c) for c in check.choices],
    }


def _replay(lesson: Lesson, moves: Sequence[str]) -> LessonRun:
    """The lesson after the learner's accepted ``moves``; ``lesson_moves`` if one of
    them is not what the lesson accepted at its point."""
    if len(moves) > MAX_MOVES:
        raise ProtocolError("lesson_moves")
    run = LessonRun(lesson)
    for move in moves:
        if run.done or run.expected() == ():
            raise ProtocolError("lesson_moves")
        if not run.try_move(move).accepted:
            raise ProtocolError("lesson_moves")
    return run


def play(
    lesson: Lesson, moves: Sequence[str], move: str | None = None, answer: int | None = None
) -> dict[str, Any]:
    """One step of ``lesson`` for a learner whose accepted moves so far are ``moves``:
    the position alone (neither ``move`` nor ``answer``), or the outcome of trying
    ``move`` (a card or a decision) or ``answer`` (the check's question).

    The answer: ``accepted`` (None when nothing was tried), ``say`` (the step's words,
    the engine's refusal or the lesson's goal words), ``code`` (a refusal's), ``then``
    (the scripted moves played after an accepted move), ``moves`` (the accepted moves
    now), ``played`` (every move played since the setup, with its words), ``view`` (the
    learner's observation), ``prompt`` and ``done``."""
    if move is not None and answer is not None:
        raise ProtocolError("lesson_turn")
    run = _replay(lesson, moves)
    accepted_moves = list(moves)
    outcome: Outcome | None = None
    try:
        if move is not None:
            if run.done or not run.expected():
                raise ProtocolError("lesson_turn")
            outcome = run.try_move(move)
            if outcome.accepted:
                accepted_moves.append(move)
        elif answer is not None:
            if run.done or not (run.at_check and lesson.check.kind == "question"):
                raise ProtocolError("lesson_turn")
            outcome = run.answer(answer)
    except LessonError as e:  # a lesson the engine contradicts: the lesson's fault
        raise ProtocolError("lesson_broken", status=500) from e
    return {
        "game": lesson.game,
        "lesson": lesson.id,
        "learner": lesson.learner,
        # what the lesson's words call each seat (the learner's is null: "you"), with the
        # Russian name's cases for the page's sentences (the genitive after "at", ...)
        "names": [
            None if n is None else {"en": n.en, "ru": n.ru, "cases": dict(n.cases)}
            for n in lesson.names
        ],
        "accepted": None if outcome is None else outcome.accepted,
        "say": None if outcome is None else _words(outcome.say),
        "code": None if outcome is None else outcome.code,
        "then": [] if outcome is None else _played(outcome.then),
        "moves": accepted_moves,
        "played": _played(run.played),
        "view": run.view(),
        "prompt": _prompt(run),
        "done": run.done,
    }
