"""Interactive lessons (#29): short scripted positions on the real rules engines.

A lesson is data, one JSON file under ``kozyr/games/<game>/lessons/`` (``docs/lessons.md``
has the format). It fixes a position with the engine's own ``new`` (options, fixed deals,
the first dealer or the join order), may play some ``setup`` moves silently, then runs a
list of steps: a scripted move of another seat, or the learner's turn with the move(s)
the lesson expects. It ends with a check: a move the learner must find, or a question on
the position whose answer the lesson's ``claims`` about the state confirm.

:class:`LessonRun` steps through one lesson on the engine. A move the engine refuses is
never played: the learner gets the engine's own words (``IllegalAction.message``). A move
the engine allows but the lesson does not want is not played either: the learner gets
the lesson's words for it (a goal hint), or the lesson's general words. Everything is
pure: the only input is the package's lesson files, read with :mod:`importlib.resources`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from kozyr.cards import CardError
from kozyr.games import GAMES
from kozyr.games.base import GameError, GameState, IllegalAction
from kozyr.texts import LANGS, Lang, text
from kozyr.texts.render import CASES, Name

__all__ = [
    "Check",
    "Claim",
    "Hint",
    "Lesson",
    "LessonError",
    "LessonRun",
    "Outcome",
    "Played",
    "SeatName",
    "Step",
    "Words",
    "facts",
    "load",
    "parse_lesson",
]


class LessonError(ValueError):
    """A lesson file that does not make a lesson, or a lesson the engine contradicts."""


@dataclass(frozen=True, slots=True)
class Words:
    """One text a person reads, in English and Russian."""

    en: str
    ru: str

    def get(self, lang: Lang = "en") -> str:
        return self.ru if lang == "ru" else self.en

    @classmethod
    def key(cls, key: str, **params: Any) -> Words:
        """A text of the catalogue (:mod:`kozyr.texts`) in both languages."""
        return cls(text(key, "en", **params), text(key, "ru", **params))


@dataclass(frozen=True, slots=True)
class SeatName:
    """The name of a seat the learner plays with: English, Russian, and the Russian
    name's forms by case (``gen``, ``dat``, ``ins``: the genitive, dative and
    instrumental, as the lesson file gives them), so that the terminal's sentences
    decline it."""

    en: str
    ru: str
    cases: Mapping[str, str]

    def get(self, lang: Lang = "en") -> Name:
        """The name in ``lang``; in Russian it knows its cases (:class:`Name`)."""
        return Name(self.ru, self.cases) if lang == "ru" else Name(self.en)


@dataclass(frozen=True, slots=True)
class Claim:
    """``fact`` of the public view (``observation(None).to_json()``, plus the facts of
    :func:`facts`), or its entry for ``seat``, equals ``value``."""

    fact: str
    value: Any
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Hint:
    """Words for legal moves the lesson does not want (a goal hint): they are not played."""

    moves: tuple[str, ...]
    say: Words


@dataclass(frozen=True, slots=True)
class Step:
    """A scripted move of ``seat`` (``learner`` False), or the learner's turn: any of
    ``moves`` is accepted, ``say`` is shown after it. ``claims`` hold after the step."""

    seat: int
    moves: tuple[str, ...]
    learner: bool
    say: Words | None = None
    hints: tuple[Hint, ...] = ()
    otherwise: Words | None = None
    claims: tuple[Claim, ...] = ()


@dataclass(frozen=True, slots=True)
class Check:
    """The check that ends a lesson. ``kind`` "move": the learner must find one of
    ``moves`` (a last learner step); "question": he picks one of ``choices`` and
    ``answer`` is the right one's index. ``claims`` hold after the script (they make the
    question's answer true on the engine)."""

    kind: str
    question: Words
    say: Words
    moves: tuple[str, ...] = ()
    hints: tuple[Hint, ...] = ()
    otherwise: Words | None = None
    choices: tuple[Words, ...] = ()
    answer: int = 0
    claims: tuple[Claim, ...] = ()


@dataclass(frozen=True, slots=True)
class Lesson:
    id: str
    game: str
    order: int
    title: Words
    intro: Words
    teaches: tuple[str, ...]
    options: Mapping[str, Any]
    deals: tuple[Mapping[str, Any], ...]
    start: Mapping[str, Any]
    learner: int
    setup: tuple[str, ...]
    steps: tuple[Step, ...]
    check: Check
    names: tuple[SeatName | None, ...] = ()
    raw: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)

    def seat_name(self, seat: int, lang: Lang = "en") -> Name:
        """What the lesson calls ``seat``: the learner is the catalogue's "You", every
        other seat has the name the lesson gives it (:attr:`names`)."""
        if seat == self.learner:
            return Name(text("grammar.you", lang))
        if not 0 <= seat < len(self.names):
            raise LessonError(f"{self.id}: no seat {seat}")
        name = self.names[seat]
        if name is None:  # parse_lesson names every seat but the learner's
            raise LessonError(f"{self.id}: seat {seat} has no name")
        return name.get(lang)

    def seat_names(self, lang: Lang = "en") -> list[str]:
        """Every seat's :meth:`seat_name` (each a :class:`Name`), in seat order."""
        return [self.seat_name(seat, lang) for seat in range(len(self.names))]

    def new_state(self) -> GameState:
        """The lesson's position: the engine's new game on the fixed deals, before setup."""
        game = GAMES[self.game]
        try:
            options = game.options_from_json(dict(self.options))
            deals = [game.deal_from_json(d, f"deals[{i}]") for i, d in enumerate(self.deals)]
            return game.new_state(
                options,
                None,
                first_dealer=self.start.get("first_dealer"),
                join_order=self.start.get("join_order"),
                deals=deals,
            )
        except GameError as e:
            raise LessonError(f"{self.id}: {e}") from e


@dataclass(frozen=True, slots=True)
class Played:
    """A move the runner played for another seat (or for the learner), with its words."""

    seat: int
    move: str
    say: Words | None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of a learner's move. ``accepted``: it was played, ``say`` explains
    it, ``then`` are the scripted moves that followed. Otherwise nothing was played and
    ``say`` gives the reason: the engine's refusal (``code``, ``rule``) for an illegal
    move, the lesson's goal words for a legal one it does not want (``code`` None)."""

    accepted: bool
    say: Words
    code: str | None = None
    rule: str = ""
    then: tuple[Played, ...] = ()


def _words(raw: Any, where: str) -> Words:
    if not isinstance(raw, Mapping) or set(raw) != set(LANGS):
        raise LessonError(f"{where}: expected {{'en': ..., 'ru': ...}}")
    for lang in LANGS:
        if not isinstance(raw[lang], str) or not raw[lang].strip():
            raise LessonError(f"{where}.{lang}: expected a text")
    return Words(raw["en"], raw["ru"])


_MAX_NAME = 24  # characters of a seat's name


def _names(raw: Any, seats: int, learner: int, where: str) -> tuple[SeatName | None, ...]:
    """One name per seat: every seat but the learner's named (his entry may be null),
    in both languages, with the Russian name's cases; no two seats alike."""
    if not isinstance(raw, list) or len(raw) != seats:
        raise LessonError(f"{where}: expected one name per seat ({seats})")
    out: list[SeatName | None] = []
    for seat, entry in enumerate(raw):
        at = f"{where}[{seat}]"
        if entry is None and seat == learner:
            out.append(None)
            continue
        if not isinstance(entry, Mapping) or set(entry) != {*LANGS, "cases"}:
            raise LessonError(f"{at}: expected {{'en': ..., 'ru': ..., 'cases': ...}}")
        cases = entry["cases"]
        if not isinstance(cases, Mapping) or set(cases) != set(CASES):
            raise LessonError(f"{at}.cases: expected the Russian forms {', '.join(CASES)}")
        for key, value in [*((lang, entry[lang]) for lang in LANGS), *cases.items()]:
            if not isinstance(value, str) or not 0 < len(value.strip()) <= _MAX_NAME:
                raise LessonError(f"{at}.{key}: expected a name of 1 to {_MAX_NAME} characters")
        out.append(SeatName(entry["en"], entry["ru"], dict(cases)))
    for lang in LANGS:
        seen = [n.get(lang).casefold() for n in out if n is not None]
        if len(set(seen)) != len(seen):
            raise LessonError(f"{where}: two seats have the same name ({lang})")
    return tuple(out)


def _maybe_words(raw: Mapping[str, Any], key: str, where: str) -> Words | None:
    return None if raw.get(key) is None else _words(raw[key], f"{where}.{key}")


def _moves(raw: Any, where: str) -> tuple[str, ...]:
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list) or not raw or not all(isinstance(m, str) for m in raw):
        raise LessonError(f"{where}: expected a move or a list of moves")
    return tuple(raw)


def _claims(raw: Any, where: str) -> tuple[Claim, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise LessonError(f"{where}: expected a list of claims")
    out = []
    for i, c in enumerate(raw):
        if not isinstance(c, Mapping) or not isinstance(c.get("fact"), str) or "value" not in c:
            raise LessonError(f"{where}[{i}]: expected {{'fact': ..., 'value': ...}}")
        seat = c.get("seat")
        if seat is not None and not isinstance(seat, int):
            raise LessonError(f"{where}[{i}].seat: expected a seat")
        out.append(Claim(c["fact"], c["value"], seat))
    return tuple(out)


def _hints(raw: Any, where: str) -> tuple[Hint, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise LessonError(f"{where}: expected a list of hints")
    hints = []
    for i, h in enumerate(raw):
        if not isinstance(h, Mapping):
            raise LessonError(f"{where}[{i}]: expected an object")
        moves = _moves(h.get("moves"), f"{where}[{i}].moves")
        hints.append(Hint(moves, _words(h.get("say"), f"{where}[{i}].say")))
    return tuple(hints)


def _step(raw: Any, where: str, learner: int) -> Step:
    if not isinstance(raw, Mapping):
        raise LessonError(f"{where}: expected an object")
    if "learner" in raw:
        return Step(
            seat=learner,
            moves=_moves(raw["learner"], f"{where}.learner"),
            learner=True,
            say=_words(raw.get("say"), f"{where}.say"),
            hints=_hints(raw.get("hints"), f"{where}.hints"),
            otherwise=_maybe_words(raw, "otherwise", where),
            claims=_claims(raw.get("claims"), f"{where}.claims"),
        )
    seat = raw.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat == learner:
        raise LessonError(f"{where}.seat: expected another seat than the learner's")
    move = raw.get("move")
    if not isinstance(move, str):
        raise LessonError(f"{where}.move: expected a move")
    return Step(
        seat=seat,
        moves=(move,),
        learner=False,
        say=_maybe_words(raw, "say", where),
        claims=_claims(raw.get("claims"), f"{where}.claims"),
    )


def _check(raw: Any, where: str) -> Check:
    if not isinstance(raw, Mapping):
        raise LessonError(f"{where}: expected an object")
    kind = raw.get("kind")
    question = _words(raw.get("question"), f"{where}.question")
    say = _words(raw.get("say"), f"{where}.say")
    claims = _claims(raw.get("claims"), f"{where}.claims")
    if kind == "move":
        return Check(
            kind="move",
            question=question,
            say=say,
            moves=_moves(raw.get("moves"), f"{where}.moves"),
            hints=_hints(raw.get("hints"), f"{where}.hints"),
            otherwise=_maybe_words(raw, "otherwise", where),
            claims=claims,
        )
    if kind == "question":
        choices = raw.get("choices")
        if not isinstance(choices, list) or len(choices) < 2:
            raise LessonError(f"{where}.choices: expected two or more choices")
        answer = raw.get("answer")
        if not isinstance(answer, int) or not 0 <= answer < len(choices):
            raise LessonError(f"{where}.answer: expected the index of a choice")
        if not claims:
            raise LessonError(f"{where}.claims: a question needs claims that prove its answer")
        return Check(
            kind="question",
            question=question,
            say=say,
            choices=tuple(_words(c, f"{where}.choices[{i}]") for i, c in enumerate(choices)),
            answer=answer,
            otherwise=_maybe_words(raw, "otherwise", where),
            claims=claims,
        )
    raise LessonError(f"{where}.kind: expected 'move' or 'question'")


def parse_lesson(raw: Any, game: str, where: str = "lesson") -> Lesson:
    """A lesson from its JSON; :class:`LessonError` names the first fault. The engine is
    not asked here: :class:`LessonRun` (and the tests) replay it."""
    if not isinstance(raw, Mapping):
        raise LessonError(f"{where}: expected an object")
    if game not in GAMES:
        raise LessonError(f"{where}: no game {game!r}")
    lid = raw.get("id")
    if not isinstance(lid, str) or not lid:
        raise LessonError(f"{where}.id: expected a name")
    where = f"{game}/{lid}"
    order = raw.get("order")
    if not isinstance(order, int) or isinstance(order, bool) or order < 1:
        raise LessonError(f"{where}.order: expected a whole number from 1")
    teaches = raw.get("teaches", [])
    if not isinstance(teaches, list) or not all(isinstance(t, str) for t in teaches):
        raise LessonError(f"{where}.teaches: expected a list of rulings")
    options = raw.get("options", {})
    deals = raw.get("deals")
    start = raw.get("start", {})
    if not isinstance(options, Mapping) or not isinstance(start, Mapping):
        raise LessonError(f"{where}: options and start must be objects")
    if not isinstance(deals, list) or not deals:
        raise LessonError(f"{where}.deals: expected a list of deals")
    learner = raw.get("learner")
    if not isinstance(learner, int) or isinstance(learner, bool) or learner < 0:
        raise LessonError(f"{where}.learner: expected a seat")
    setup = raw.get("setup", [])
    if not isinstance(setup, list) or not all(isinstance(m, str) for m in setup):
        raise LessonError(f"{where}.setup: expected a list of moves")
    steps = raw.get("steps")
    if not isinstance(steps, list):
        raise LessonError(f"{where}.steps: expected a list")
    hands = deals[0].get("hands") if isinstance(deals[0], Mapping) else None
    if not isinstance(hands, list) or not hands:
        raise LessonError(f"{where}.deals[0].hands: expected one hand per seat")
    if learner >= len(hands):
        raise LessonError(f"{where}.learner: expected a seat")
    return Lesson(
        id=lid,
        game=game,
        order=order,
        title=_words(raw.get("title"), f"{where}.title"),
        intro=_words(raw.get("intro"), f"{where}.intro"),
        teaches=tuple(teaches),
        options=dict(options),
        deals=tuple(deals),
        start=dict(start),
        learner=learner,
        setup=tuple(setup),
        steps=tuple(_step(s, f"{where}.steps[{i}]", learner) for i, s in enumerate(steps)),
        check=_check(raw.get("check"), f"{where}.check"),
        names=_names(raw.get("names"), len(hands), learner, f"{where}.names"),
        raw=raw,
    )


def load(game: str) -> list[Lesson]:
    """Every lesson of ``game`` shipped with the package, in their order."""
    if game not in GAMES:
        raise LessonError(f"no game {game!r}")
    folder = resources.files(f"kozyr.games.{game}").joinpath("lessons")
    lessons = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            raw = json.loads(entry.read_text(encoding="utf-8"))
            lessons.append(parse_lesson(raw, game, f"{game}/{entry.name}"))
    return sorted(lessons, key=lambda lesson: lesson.order)


def facts(state: GameState) -> dict[str, Any]:
    """The public facts a claim may name: the public view's JSON (``scores``, ``tricks``,
    ``trump``, ``titles``, ``totals`` ...) and ``last_trick_winner``, ``marks`` (each
    seat's imperials marked by reason, Imperial) and ``swaps_done`` (Emperor's swaps as
    [taker, target] pairs)."""
    out: dict[str, Any] = dict(state.observation(None).to_json())
    events = out.pop("events", [])
    tricks = [e for e in events if e["type"] == "trick"]
    out["last_trick_winner"] = tricks[-1]["winner"] if tricks else None
    marks: list[list[str]] = [[] for _ in range(state.players)]
    for e in events:
        if e["type"] == "mark":
            marks[e["seat"]].append(e["reason"])
    out["marks"] = marks
    swaps: list[list[int]] = []
    for e in events:
        if e["type"] == "swap" and e.get("happened"):
            swaps.append([e["taker"], e["target"]])
        elif e["type"] == "yield":
            swaps.append([e["taker"], e["seat"]])
    out["swaps_done"] = swaps
    return out


def claim_holds(state: GameState, claim: Claim) -> tuple[bool, Any]:
    """Whether ``claim`` is true of ``state``, and the value the state has."""
    known = facts(state)
    if claim.fact not in known:
        raise LessonError(f"no fact {claim.fact!r}: known are {', '.join(sorted(known))}")
    value = known[claim.fact]
    if claim.seat is not None:
        value = value[claim.seat] if isinstance(value, list) else value.get(str(claim.seat))
    return value == claim.value, value


class LessonRun:
    """One learner's way through a lesson, on the real engine.

    The runner plays the setup and every scripted move itself; at a learner's turn it
    waits for :meth:`try_move`. At the end, a check of kind "move" is one more learner
    turn; a check of kind "question" is answered with :meth:`answer`. :attr:`done` is
    true once the check is passed.
    """

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.state = lesson.new_state()
        self.index = 0
        self.passed = False
        self.played: list[Played] = []
        for k, move in enumerate(lesson.setup):
            self._apply(move, f"setup[{k}]")
        self._advance()

    # What the learner is asked.
    @property
    def step(self) -> Step | None:
        """The learner's step now awaited (None: the check, or the end)."""
        steps = self.lesson.steps
        return steps[self.index] if self.index < len(steps) else None

    @property
    def at_check(self) -> bool:
        return self.index >= len(self.lesson.steps) and not self.passed

    @property
    def done(self) -> bool:
        return self.passed

    def expected(self) -> tuple[str, ...]:
        """The moves the lesson accepts now (empty at a question or at the end)."""
        step = self.step
        if step is not None:
            return step.moves
        if self.at_check and self.lesson.check.kind == "move":
            return self.lesson.check.moves
        return ()

    def view(self) -> dict[str, Any]:
        """What the learner's seat may see now (the engine's observation, JSON)."""
        return self.state.observation(self.lesson.learner).to_json()

    # Moves.
    def try_move(self, move: str) -> Outcome:
        """The learner's move: played if the lesson expects it; refused, and not played,
        with the engine's words if the rules forbid it, with the lesson's words if the
        rules allow it but the lesson wants another."""
        step = self.step
        check = self.lesson.check
        if step is None and not (self.at_check and check.kind == "move"):
            raise LessonError(f"{self.lesson.id}: no move is awaited now")
        try:
            action = self.state.parse_action(move)
            self.state.clone().apply(action)
        except IllegalAction as e:
            return Outcome(False, Words(e.message("en"), e.message("ru")), e.code, e.rule)
        except CardError as e:
            words = Words(e.message("en"), e.message("ru"))
            return Outcome(False, words, e.code)
        wanted = step.moves if step is not None else check.moves
        if action not in {self.state.parse_action(m) for m in wanted}:
            hints = step.hints if step is not None else check.hints
            for hint in hints:
                if action in {self.state.parse_action(m) for m in hint.moves}:
                    return Outcome(False, hint.say)
            otherwise = step.otherwise if step is not None else check.otherwise
            return Outcome(False, otherwise or Words.key("lessons.not_this_move"))
        self.state.apply(action)
        mover = self.lesson.learner
        if step is not None:
            self.played.append(Played(mover, self.state.action_text(action), step.say))
            self.index += 1
            then = self._advance()
            return Outcome(True, step.say or Words.key("lessons.well_done"), then=then)
        self.passed = True
        return Outcome(True, check.say)

    def answer(self, choice: int) -> Outcome:
        """The learner's answer to the check's question (a choice's index)."""
        check = self.lesson.check
        if not self.at_check or check.kind != "question":
            raise LessonError(f"{self.lesson.id}: no question is asked now")
        if choice == check.answer:
            self.passed = True
            return Outcome(True, check.say)
        return Outcome(False, check.otherwise or Words.key("lessons.not_this_answer"))

    def check(self) -> list[str]:
        """The lesson's claims about the state that do not hold now (empty: all hold);
        the check's claims once the script is through."""
        claims: list[Claim] = []
        if self.index >= len(self.lesson.steps):
            claims.extend(self.lesson.check.claims)
        return self._failed(claims)

    def _failed(self, claims: Sequence[Claim]) -> list[str]:
        out = []
        for claim in claims:
            holds, value = claim_holds(self.state, claim)
            if not holds:
                seat = "" if claim.seat is None else f"[{claim.seat}]"
                out.append(f"{claim.fact}{seat} is {value!r}, not {claim.value!r}")
        return out

    def _apply(self, move: str, where: str) -> None:
        try:
            self.state.play(move)
        except (IllegalAction, CardError) as e:
            raise LessonError(f"{self.lesson.id}.{where}: {move} is refused: {e}") from e

    def _advance(self) -> tuple[Played, ...]:
        """Plays the scripted steps up to the next learner's turn; checks every claim."""
        then = []
        if self.index > 0:
            self._require(self.lesson.steps[self.index - 1], self.index - 1)
        while self.index < len(self.lesson.steps) and not self.lesson.steps[self.index].learner:
            step = self.lesson.steps[self.index]
            if self.state.to_act != step.seat:
                raise LessonError(
                    f"{self.lesson.id}.steps[{self.index}]: seat {step.seat} scripted, "
                    f"but seat {self.state.to_act} is to act"
                )
            self._apply(step.moves[0], f"steps[{self.index}]")
            played = Played(step.seat, step.moves[0], step.say)
            self.played.append(played)
            then.append(played)
            self._require(step, self.index)
            self.index += 1
        awaited = self.step is not None or self.lesson.check.kind == "move"
        if awaited and self.state.to_act != self.lesson.learner:
            raise LessonError(
                f"{self.lesson.id}.steps[{self.index}]: the learner (seat {self.lesson.learner})"
                f" is asked, but seat {self.state.to_act} is to act"
            )
        return tuple(then)

    def _require(self, step: Step, index: int) -> None:
        failed = self._failed(step.claims)
        if failed:
            raise LessonError(f"{self.lesson.id}.steps[{index}]: {'; '.join(failed)}")
