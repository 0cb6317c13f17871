"""The lessons as the page plays them (#29, ``kozyr.server.play.lessons``): rebuilt from
the learner's accepted moves on every step, a wrong move refused with its reason and not
played, bad input coded, and never a card the learner may not see in any answer."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kozyr.games.lessons import Lesson, LessonRun
from kozyr.server.play.lessons import LESSONS, MAX_MOVES, lesson_of, listing, play
from kozyr.server.transport.protocol import ProtocolError

ALL = [lesson for lessons in LESSONS.values() for lesson in lessons]
IDS = [f"{lesson.game}/{lesson.id}" for lesson in ALL]
CARD = re.compile(r"^(10|[2-9JQKA])[SHDC]$")
# Words a person reads (lesson texts) are not positions: cards named there are the
# lesson author's to show.
WORDS = {"say", "question", "choices", "title", "intro"}


def _cards(value: Any, out: set[str]) -> set[str]:
    """Every card text in a JSON value, outside the words."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in WORDS:
                _cards(v, out)
    elif isinstance(value, list):
        for v in value:
            _cards(v, out)
    elif isinstance(value, str):
        for token in re.split(r"[\s,]+", value):
            if CARD.match(token):
                out.add(token)
    return out


def _seen(run: LessonRun, held: set[str]) -> set[str]:
    """What the learner may see now, by the engine: his seat's observation (his hand, the
    cards played, the cards others showed or he knows of) and every card he has held."""
    mine = run.state.observation(run.lesson.learner).to_json()
    held |= set(mine["hand"])
    return _cards(mine, set()) | held


def _no_hidden_card(answer: dict[str, Any], run: LessonRun, held: set[str]) -> None:
    learner = run.lesson.learner
    assert answer["view"]["seat"] == learner
    assert "hands" not in answer["view"]
    assert answer["view"] == run.state.observation(learner).to_json()
    extra = _cards(answer, set()) - _seen(run, held)
    assert not extra, f"cards the learner may not see: {sorted(extra)}"


def _right_move(run: LessonRun) -> str:
    legal = {run.state.action_text(a) for a in run.state.legal_actions()}
    return next(m for m in run.expected() if m in legal)


@pytest.mark.parametrize("lesson", ALL, ids=IDS)
def test_every_lesson_plays_through_step_by_step_and_never_shows_a_hidden_card(
    lesson: Lesson,
) -> None:
    shadow = LessonRun(lesson)  # the learner's way, kept beside the stateless server
    held: set[str] = set()
    answer = play(lesson, [])
    assert answer["accepted"] is None and answer["moves"] == []
    _no_hidden_card(answer, shadow, held)
    moves: list[str] = []
    while answer["prompt"]["kind"] == "move":
        # a wrong legal move first, where there is one: refused, nothing changes
        legal = {shadow.state.action_text(a) for a in shadow.state.legal_actions()}
        wrong = sorted(legal - set(shadow.expected()))
        if wrong:
            refused = play(lesson, moves, move=wrong[0])
            assert refused["accepted"] is False and refused["say"]["en"] and refused["say"]["ru"]
            assert refused["moves"] == moves and refused["view"] == answer["view"]
            _no_hidden_card(refused, shadow, held)
        move = _right_move(shadow)
        outcome = shadow.try_move(move)
        answer = play(lesson, moves, move=move)
        moves.append(move)
        assert answer["accepted"] is True and answer["moves"] == moves
        assert answer["say"] == {"en": outcome.say.en, "ru": outcome.say.ru}
        assert [p["move"] for p in answer["then"]] == [p.move for p in outcome.then]
        _no_hidden_card(answer, shadow, held)
    if answer["done"]:
        assert lesson.check.kind == "move" and answer["prompt"] == {"kind": "done"}
        return
    prompt = answer["prompt"]
    assert prompt["kind"] == "question" and len(prompt["choices"]) == len(lesson.check.choices)
    wrong = (lesson.check.answer + 1) % len(lesson.check.choices)
    missed = play(lesson, moves, answer=wrong)
    assert missed["accepted"] is False and not missed["done"] and missed["say"]["ru"]
    passed = play(lesson, moves, answer=lesson.check.answer)
    assert passed["accepted"] is True and passed["done"] and passed["prompt"] == {"kind": "done"}
    assert passed["say"] == {"en": lesson.check.say.en, "ru": lesson.check.say.ru}
    _no_hidden_card(passed, shadow, held)


def test_a_wrong_card_is_explained_by_the_engine_and_not_played() -> None:
    lesson = lesson_of("imperial", "follow-suit-and-trumps")
    start = play(lesson, [])
    # The opponent led the king of spades; the learner has no spades and holds hearts
    # (trumps): a diamond is refused by the rules (I7), in both languages.
    assert start["view"]["trick"] == [[1, "KS"]]
    # the opponent's hand is his: none of it but what he declared is in the answer
    assert _cards(start, set()).isdisjoint({"QS", "10S", "9S", "8S", "KD", "QD", "JD", "KC"})
    refused = play(lesson, [], move="AD")
    assert refused["accepted"] is False and refused["code"] == "must_trump"
    assert "must trump" in refused["say"]["en"] and "козырем" in refused["say"]["ru"]
    assert refused["moves"] == [] and refused["then"] == []
    assert refused["view"]["trick"] == [[1, "KS"]] and "AD" in refused["view"]["hand"]
    # A legal trump the lesson does not want gets the lesson's words, and is not played.
    higher = play(lesson, [], move="AH")
    assert higher["accepted"] is False and higher["code"] is None
    assert "eight of hearts" in higher["say"]["en"]
    assert "AH" in higher["view"]["hand"] and higher["view"]["trick"] == [[1, "KS"]]
    # The right one: played, the trick taken, the learner leads.
    right = play(lesson, [], move="8H")
    assert right["accepted"] is True and right["moves"] == ["8H"]
    assert right["view"]["tricks"] == [1, 0] and right["view"]["trick"] == []
    assert "8H" not in right["view"]["hand"]


def test_the_lesson_list_is_in_order_with_both_languages() -> None:
    for game, lessons in LESSONS.items():
        listed = listing(game)
        assert [x["order"] for x in listed] == list(range(1, len(lessons) + 1))
        assert [x["id"] for x in listed] == [lesson.id for lesson in lessons]
        for x in listed:
            assert set(x["title"]) == {"en", "ru"} and set(x["intro"]) == {"en", "ru"}


def _refused(code: str, status: int, call: Any) -> None:
    with pytest.raises(ProtocolError) as caught:
        call()
    assert caught.value.code == code and caught.value.status == status
    assert caught.value.message and caught.value.message_ru != caught.value.message


def test_bad_input_is_coded_and_plays_nothing() -> None:
    first = lesson_of("imperial", "follow-suit-and-trumps")
    _refused("bad_game", 404, lambda: lesson_of("preferans", "x"))
    _refused("bad_game", 404, lambda: listing("preferans"))
    _refused("no_lesson", 404, lambda: lesson_of("imperial", "no-such-lesson"))
    # a move the lesson did not accept, or one it refuses, in the accepted list
    _refused("lesson_moves", 400, lambda: play(first, ["AD"]))
    _refused("lesson_moves", 400, lambda: play(first, ["AH"]))
    _refused("lesson_moves", 400, lambda: play(first, ["8H"] * (MAX_MOVES + 1)))
    # more moves than the lesson asks for
    done = ["8H", "AD", "9C"]
    assert play(first, done[:2], move="9C")["done"]
    _refused("lesson_moves", 400, lambda: play(first, [*done, "8C"]))
    _refused("lesson_turn", 400, lambda: play(first, done, move="8C"))
    # an answer where a move is awaited, a move where a question is asked
    _refused("lesson_turn", 400, lambda: play(first, [], answer=0))
    _refused("lesson_turn", 400, lambda: play(first, [], move="8H", answer=0))
    asked = lesson_of("imperial", "white-imperial")  # no learner's move: a question at once
    assert play(asked, [])["prompt"]["kind"] == "question"
    _refused("lesson_turn", 400, lambda: play(asked, [], move="KH"))
    # a card that is not a card: the engine's words, nothing played
    garbled = play(first, [], move="ZZ")
    assert garbled["accepted"] is False and garbled["code"] and garbled["say"]["ru"]


def test_the_others_are_named_as_the_lessons_words_name_them() -> None:
    # Imperial lesson 1: you (seat 0) against Boris; Emperor lesson 1: you sit in seat 1,
    # Anna, Vera and Gleb in the others (the cast of docs/lessons.md), Russian cases given
    imperial = play(lesson_of("imperial", "follow-suit-and-trumps"), [])
    assert imperial["learner"] == 0
    assert imperial["names"][0] is None
    assert imperial["names"][1]["en"] == "Boris" and imperial["names"][1]["ru"] == "Борис"
    assert imperial["names"][1]["cases"]["gen"] == "Бориса"
    emperor = play(lesson_of("emperor", "round-one"), [])
    assert emperor["learner"] == 1 and emperor["names"][1] is None
    assert [n["en"] for n in emperor["names"] if n] == ["Anna", "Vera", "Gleb"]
    assert emperor["names"][2]["cases"]["dat"] == "Вере"
