"""The interactive lessons (#29): every lesson loads, and its script replays on the real
engine: every scripted and expected move is legal, every claim holds, every goal hint is
for a legal move that the runner does not play, an illegal move gets the engine's words."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from kozyr.games.lessons import (
    Lesson,
    LessonError,
    LessonRun,
    Words,
    claim_holds,
    load,
    parse_lesson,
)
from kozyr.texts import LANGS

GAMES = ("imperial", "emperor")
LESSONS = [lesson for game in GAMES for lesson in load(game)]
IDS = [f"{lesson.game}/{lesson.id}" for lesson in LESSONS]
CYRILLIC = set("абвгдеёжзийклмнопрстуфхцчшщъыьэюя")


def _texts(lesson: Lesson) -> list[Words]:
    out = [lesson.title, lesson.intro, lesson.check.question, lesson.check.say]
    out += list(lesson.check.choices)
    for step in lesson.steps:
        out += [w for w in (step.say, step.otherwise) if w is not None]
        out += [hint.say for hint in step.hints]
    out += [hint.say for hint in lesson.check.hints]
    if lesson.check.otherwise is not None:
        out.append(lesson.check.otherwise)
    return out


def _legal_texts(run: LessonRun) -> set[str]:
    return {run.state.action_text(a) for a in run.state.legal_actions()}


def _play_through(run: LessonRun) -> None:
    """Plays the lesson as a learner who always finds the first expected legal move, and
    answers the check right; fails if an expected move is not legal."""
    while not run.at_check:
        step = run.step
        assert step is not None
        legal = _legal_texts(run)
        moves = [m for m in step.moves if run.state.action_text(run.state.parse_action(m)) in legal]
        assert moves, f"{run.lesson.id}: no expected move {step.moves} is legal"
        assert run.try_move(moves[0]).accepted
    assert run.check() == []
    if run.lesson.check.kind == "move":
        assert run.try_move(run.expected()[0]).accepted
    else:
        assert run.answer(run.lesson.check.answer).accepted
    assert run.done


@pytest.mark.parametrize("game", GAMES)
def test_lessons_of_each_game_are_numbered_and_unique(game: str) -> None:
    lessons = load(game)
    assert len(lessons) >= 1
    assert [lesson.order for lesson in lessons] == list(range(1, len(lessons) + 1))
    assert len({lesson.id for lesson in lessons}) == len(lessons)
    assert all(lesson.game == game for lesson in lessons)


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_text_is_in_both_languages(lesson: Lesson) -> None:
    for words in _texts(lesson):
        for lang in LANGS:
            assert words.get(lang).strip()
        assert CYRILLIC & set(words.ru.lower()), words.ru
        assert not CYRILLIC & set(words.en.lower()), words.en


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_expected_move_is_legal_and_every_claim_holds(lesson: Lesson) -> None:
    """Each learner step: every move it accepts is legal at its point (tried on a fresh
    run each), and the first one leads through the script to a check whose claims hold."""
    _play_through(LessonRun(lesson))
    for index, step in enumerate(lesson.steps):
        if not step.learner:
            continue
        for move in step.moves:
            run = LessonRun(lesson)
            while run.index < index:
                first = next(m for m in run.expected() if m in _legal_texts(run))
                run.try_move(first)
            assert run.index == index
            legal = {run.state.parse_action(m) for m in _legal_texts(run)}
            if run.state.parse_action(move) not in legal:
                # A card the learner played at an earlier step of the same lesson.
                assert lesson.steps[index].moves != (move,)
                continue
            assert run.try_move(move).accepted


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_goal_hints_are_legal_moves_that_are_not_played(lesson: Lesson) -> None:
    run = LessonRun(lesson)
    while True:
        step = run.step
        hints = step.hints if step is not None else lesson.check.hints
        if step is None and lesson.check.kind != "move":
            break
        for hint in hints:
            for move in hint.moves:
                before = list(run.state.actions)
                action = run.state.parse_action(move)
                assert action in run.state.legal_actions(), f"hint for an illegal {move}"
                outcome = run.try_move(move)
                assert not outcome.accepted and outcome.say == hint.say
                assert outcome.code is None
                assert run.state.actions == before
        if step is None:
            break
        run.try_move(next(m for m in step.moves if m in _legal_texts(run)))


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_an_illegal_move_gets_the_engines_words_and_is_not_played(lesson: Lesson) -> None:
    run = LessonRun(lesson)
    if not run.expected():
        pytest.skip("no move is asked of the learner")
    before = list(run.state.actions)
    illegal = [a for a in range(68) if a not in run.state.legal_actions()]
    for action in illegal[:12]:
        try:
            text = run.state.action_text(action)
        except (ValueError, KeyError, IndexError):
            continue
        outcome = run.try_move(text)
        assert not outcome.accepted
        assert outcome.code is not None
        assert outcome.say.en and CYRILLIC & set(outcome.say.ru.lower())
        assert run.state.actions == before
    outcome = run.try_move("XYZ")
    assert not outcome.accepted and outcome.code is not None


def test_a_refusal_says_the_rule_in_both_languages() -> None:
    """Imperial lesson 1: the king of spades is led and the learner holds no spade; a
    diamond is refused because he must trump, in the engine's own words."""
    lesson = load("imperial")[0]
    run = LessonRun(lesson)
    outcome = run.try_move("AD")
    assert not outcome.accepted
    assert outcome.code == "must_trump" and outcome.rule == "I7"
    assert "trump" in outcome.say.en and "коз" in outcome.say.ru
    outcome = run.try_move("AH")
    assert not outcome.accepted and outcome.code is None
    assert outcome.say.en.startswith("Any trump takes this trick")
    assert run.try_move("8H").accepted


def _raw(game: str, lesson_id: str) -> dict[str, Any]:
    lesson = next(lesson for lesson in load(game) if lesson.id == lesson_id)
    return copy.deepcopy(dict(lesson.raw))


def test_a_wrong_claim_in_a_check_fails() -> None:
    raw = _raw("imperial", "tombe")
    raw["check"]["claims"][0]["value"][1]["points"] = 8  # as if the tombé wiped nothing
    run = LessonRun(parse_lesson(raw, "imperial"))
    _advance_to_check(run)
    assert run.check() == [
        "scores is [{'imperials': 1, 'points': 16}, {'imperials': 0, 'points': 0}], "
        "not [{'imperials': 1, 'points': 16}, {'imperials': 0, 'points': 8}]"
    ]


def test_a_wrong_claim_in_a_step_stops_the_lesson() -> None:
    raw = _raw("imperial", "declarations-and-honours")
    raw["steps"][0]["claims"][0]["value"]["points"] = 12  # as if a led honour scored nothing
    run = LessonRun(parse_lesson(raw, "imperial"))
    with pytest.raises(LessonError, match="steps\\[0\\]: scores\\[0\\] is"):
        run.try_move("KH")


def test_an_illegal_scripted_move_stops_the_lesson() -> None:
    raw = _raw("imperial", "follow-suit-and-trumps")
    raw["steps"][3]["move"] = "KC"  # he must follow the diamond led
    run = LessonRun(parse_lesson(raw, "imperial"))
    run.try_move("8H")
    with pytest.raises(LessonError, match="KC is refused"):
        run.try_move("7D")


def test_a_text_in_one_language_only_is_refused() -> None:
    raw = _raw("imperial", "follow-suit-and-trumps")
    del raw["title"]["ru"]
    with pytest.raises(LessonError, match="title"):
        parse_lesson(raw, "imperial")


def test_a_claim_names_a_known_fact() -> None:
    lesson = load("imperial")[0]
    run = LessonRun(lesson)
    from kozyr.games.lessons import Claim

    assert claim_holds(run.state, Claim("trump", "H")) == (True, "H")
    with pytest.raises(LessonError, match="no fact"):
        claim_holds(run.state, Claim("nonsense", 1))


def _advance_to_check(run: LessonRun) -> None:
    while run.step is not None:
        run.try_move(next(m for m in run.expected() if m in _legal_texts(run)))


def test_lesson_files_are_json_objects() -> None:
    for lesson in LESSONS:
        assert json.loads(json.dumps(lesson.raw))["id"] == lesson.id


def test_an_offer_over_the_total_gets_the_engines_words() -> None:
    """Emperor, a refused offer: the Prince has 1 trick in his total (round 1), so after
    the King refuses his 1 he may not offer 2 (E8); the runner gives the engine's words."""
    lesson = next(lesson for lesson in load("emperor") if lesson.id == "bargain-refused")
    run = LessonRun(lesson)
    assert run.try_move("offer 1").accepted
    before = list(run.state.actions)
    outcome = run.try_move("offer 2")
    assert not outcome.accepted
    assert (outcome.code, outcome.rule) == ("offer_over_total", "E8")
    assert "1" in outcome.say.en and "1" in outcome.say.ru
    assert run.state.actions == before
    assert run.try_move("yield").accepted


def test_both_games_have_eight_lessons() -> None:
    assert [len(load(game)) for game in GAMES] == [8, 8]
