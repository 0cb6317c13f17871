"""The interactive lessons (#29): every lesson loads, and its script replays on the real
engine: every scripted and expected move is legal, every claim holds, every goal hint is
for a legal move that the runner does not play, an illegal move gets the engine's words."""

from __future__ import annotations

import copy
import json
import re
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
from kozyr.texts.render import fill

GAMES = ("imperial", "emperor")
LESSONS = [lesson for game in GAMES for lesson in load(game)]
IDS = [f"{lesson.game}/{lesson.id}" for lesson in LESSONS]
# The lessons that ask the learner for a move at their start (one asks only a question).
MOVING = [lesson for lesson in LESSONS if LessonRun(lesson).expected()]
assert len(MOVING) >= len(LESSONS) - 2  # the question-only lessons are the exception
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


@pytest.mark.parametrize("lesson", MOVING, ids=[f"{x.game}/{x.id}" for x in MOVING])
def test_an_illegal_move_gets_the_engines_words_and_is_not_played(lesson: Lesson) -> None:
    run = LessonRun(lesson)
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


# The names of the other players (#29): nobody is "seat 2".

SEAT_NUMBER = re.compile(r"\b(seats?|мест[оауе]?|игрок\w*|player)\s*\d", re.IGNORECASE)
RULING_CODE = re.compile(r"\b[IEB]\d{1,2}\b")
DEVELOPER_WORD = re.compile(
    r"\w_\w|\b\w+\.(json|md|py|txt)\b|\b(seat|seats|action|observation|option|program)\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_no_lesson_text_numbers_the_players_or_talks_like_a_developer(lesson: Lesson) -> None:
    texts = _texts(lesson)
    assert len(texts) >= 5
    for words in texts:
        for lang in LANGS:
            said = words.get(lang)
            for pattern in (SEAT_NUMBER, RULING_CODE, DEVELOPER_WORD):
                assert not pattern.search(said), f"{lesson.id}: {pattern.pattern} in {said!r}"


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_lessons_say_imperials_are_written_down_as_the_table_does(lesson: Lesson) -> None:
    # The table says an imperial is written down (записывает, запись); the old word
    # «маркировать» is explained once, in the rules for players, and used nowhere else.
    for words in _texts(lesson):
        said = words.get("ru")
        assert "маркир" not in said.lower(), f"{lesson.id}: {said!r}"


def test_the_developer_text_patterns_catch_what_they_are_for() -> None:
    for bad in ("Seat 3 leads", "У места 0 нет треф", "Место 2", "игрок 1", "seats 0 and 2"):
        assert SEAT_NUMBER.search(bad), bad
    for bad in ("the rule E8", "see I13", "B1"):
        assert RULING_CODE.search(bad), bad
    for bad in ("bargain_from is 2", "see RULINGS.md", "the next action", "a seat"):
        assert DEVELOPER_WORD.search(bad), bad
    for good in ("Gleb leads the king of clubs", "Они делят место", "K Q J A 10 9 8 7"):
        assert not any(p.search(good) for p in (SEAT_NUMBER, RULING_CODE, DEVELOPER_WORD))


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_other_player_has_a_name_in_both_languages(lesson: Lesson) -> None:
    seats = LessonRun(lesson).state.players
    assert len(lesson.names) == seats
    for lang in LANGS:
        names = lesson.seat_names(lang)
        assert len(set(names)) == seats
        assert names[lesson.learner] == ("Вы" if lang == "ru" else "You")
    for seat, name in enumerate(lesson.names):
        if seat == lesson.learner:
            continue
        assert name is not None
        assert CYRILLIC & set(name.ru.lower()) and not CYRILLIC & set(name.en.lower())
        assert all(CYRILLIC & set(form.lower()) for form in name.cases.values())


@pytest.mark.parametrize("game", GAMES)
def test_a_game_keeps_one_cast_across_its_lessons(game: str) -> None:
    """The same seat is the same person in every lesson of a game (Boris dealt in one
    lesson and leads in the next), unless the learner sits there."""
    cast: dict[int, tuple[str, str]] = {}
    for lesson in load(game):
        for seat, name in enumerate(lesson.names):
            if name is not None:
                assert cast.setdefault(seat, (name.en, name.ru)) == (name.en, name.ru)


def test_seat_name_gives_the_lessons_names_and_their_russian_cases() -> None:
    """Emperor lesson 1: the learner is seat 1; Anna, Vera and Gleb are seats 0, 2, 3."""
    lesson = load("emperor")[0]
    assert lesson.learner == 1
    assert [lesson.seat_name(s, "en") for s in range(4)] == ["Anna", "You", "Vera", "Gleb"]
    assert [lesson.seat_name(s, "ru") for s in range(4)] == ["Анна", "Вы", "Вера", "Глеб"]
    assert fill("у {who:gen}", who=lesson.seat_name(3, "ru")) == "у Глеба"
    assert fill("{who:dat}", who=lesson.seat_name(2, "ru")) == "Вере"
    assert fill("с {who:ins}", who=lesson.seat_name(0, "ru")) == "с Анной"
    assert fill("у {who:gen}", who=lesson.seat_name(1, "ru")) == "у вас"
    with pytest.raises(LessonError, match="no seat 4"):
        lesson.seat_name(4, "en")


BORIS = {
    "en": "Boris",
    "ru": "Борис",
    "cases": {"gen": "Бориса", "dat": "Борису", "ins": "Борисом"},
}


@pytest.mark.parametrize(
    ("names", "fault"),
    [
        (None, "one name per seat"),
        ([None], "one name per seat"),
        ([None, BORIS, BORIS], "one name per seat"),
        ([None, None], "names\\[1\\]"),  # only the learner may go unnamed
        ([BORIS, BORIS], "same name"),  # the learner's entry may be named, not twice
        ([None, {"en": "Boris", "ru": "Борис"}], "names\\[1\\]"),
        ([None, {**BORIS, "ru": ""}], "names\\[1\\].ru"),
        ([None, {**BORIS, "cases": {"gen": "Бориса"}}], "names\\[1\\].cases"),
        ([None, {**BORIS, "en": "B" * 25}], "names\\[1\\].en"),
    ],
)
def test_bad_names_are_refused(names: Any, fault: str) -> None:
    raw = _raw("imperial", "follow-suit-and-trumps")
    raw["names"] = names
    with pytest.raises(LessonError, match=fault):
        parse_lesson(raw, "imperial")


def test_the_learner_may_be_named_but_two_seats_may_not_share_a_name() -> None:
    raw = _raw("imperial", "follow-suit-and-trumps")
    anna = {"en": "Anna", "ru": "Анна", "cases": {"gen": "Анны", "dat": "Анне", "ins": "Анной"}}
    raw["names"] = [anna, BORIS]
    lesson = parse_lesson(raw, "imperial")
    assert lesson.seat_names("en") == ["You", "Boris"]  # the learner is "you" all the same
    raw["names"] = [anna, {**BORIS, "en": "anna"}]
    with pytest.raises(LessonError, match="same name \\(en\\)"):
        parse_lesson(raw, "imperial")
