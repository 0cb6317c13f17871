"""The terminal in Russian, as a new player reads it: words, plurals, declined names, card
order, Russian commands, the Latin T, Ctrl-C, and Emperor's final places (E12)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from itertools import count as counter
from itertools import pairwise

import pytest
from rich.console import Console
from rich.text import Text

from kozyr.cards import Suit, card, card_name, parse_card, parse_cards, rank_of, suit_of
from kozyr.games.base import Event, GameState, Observation
from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.emperor.actions import ACCEPT, OFFER, PASS, REFUSE, SWAP, TRUMP, TRUMP_NT, YIELD
from kozyr.games.imperial import ImperialOptions, ImperialState
from kozyr.i18n import count, ru_case, ru_plural
from kozyr.terminal import emperor_view, imperial_view
from kozyr.terminal.commands import latin_t, russian, to_engine
from kozyr.terminal.emperor_view import EmperorView
from kozyr.terminal.imperial_view import ImperialView
from kozyr.terminal.session import Session, in_sentence
from kozyr.terminal.style import sort_cards

COMPUTERS = ["Вы", "Компьютер 1", "Компьютер 2", "Компьютер 3"]


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200, color_system=None, highlight=False), out


def plain(line: str | None) -> str | None:
    """A narrated line without its Rich markup, as the reader sees it."""
    return None if line is None else Text.from_markup(line).plain


class FirstLegal:
    """A bot that always plays the first legal action: fast and repeatable."""

    def choose(self, obs: Observation, legal: Sequence[int], budget: float = 0.0) -> int:
        return legal[0]


# --------------------------------------------------------------------- plurals and names


@pytest.mark.parametrize(
    ("n", "point", "trick"),
    [
        (1, "очко", "взятка"),
        (2, "очка", "взятки"),
        (4, "очка", "взятки"),
        (5, "очков", "взяток"),
        (11, "очков", "взяток"),
        (12, "очков", "взяток"),
        (14, "очков", "взяток"),
        (20, "очков", "взяток"),
        (21, "очко", "взятка"),
        (22, "очка", "взятки"),
        (25, "очков", "взяток"),
        (111, "очков", "взяток"),
        (112, "очков", "взяток"),
        (121, "очко", "взятка"),
        (0, "очков", "взяток"),
    ],
)
def test_one_plural_rule(n: int, point: str, trick: str) -> None:
    assert ru_plural(n, "очко", "очка", "очков") == point
    assert count(n, "point", "ru") == f"{n} {point}"
    assert count(n, "trick", "ru") == f"{n} {trick}"


def test_english_counts() -> None:
    assert count(1, "trick", "en") == "1 trick"
    assert count(2, "trick", "en") == "2 tricks"
    assert count(21, "point", "en") == "21 points"


def test_declined_names() -> None:
    assert ru_case("Компьютер 3", "gen") == "Компьютера 3"
    assert ru_case("Игрок 2", "gen") == "Игрока 2"
    assert ru_case("Вы", "gen") == "вас"
    assert ru_case("Компьютер 1", "dat") == "Компьютеру 1"
    assert ru_case("Вы", "dat") == "вам"
    assert ru_case("Компьютер 2", "ins") == "Компьютером 2"
    assert ru_case("Вы", "ins") == "вами"
    # A person's own name is not guessed at.
    assert ru_case("Маша", "gen") == "Маша"
    assert ru_case("Компьютерщик", "gen") == "Компьютерщик"


# --------------------------------------------------------------------- rank order


def test_imperial_cards_in_the_seeds_order() -> None:
    # The seed: "К, Д, В, Т, 10, 9, 8, 7, (6)"; I2.
    hand = parse_cards("7S AS 10S KS 6S JS QS 9S 8S")
    assert [card_name(c, "ru") for c in sort_cards(hand, "imperial")] == [
        "К♠",
        "Д♠",
        "В♠",
        "Т♠",
        "10♠",
        "9♠",
        "8♠",
        "7♠",
        "6♠",
    ]


def test_emperor_cards_in_ordinary_order_trumps_first() -> None:
    hand = parse_cards("2S JH AH 10D KH QH 3H")
    names = [card_name(c) for c in sort_cards(hand, "emperor", trump=Suit.DIAMONDS)]
    assert names == ["10D", "2S", "AH", "KH", "QH", "JH", "3H"]


def test_declared_cards_are_listed_in_rank_order() -> None:
    names = COMPUTERS[:2]
    honours: Event = {"type": "declare", "kind": "honours", "seat": 1, "cards": ["7H", "QH"]}
    assert plain(imperial_view.narrate(honours, "ru", names)) == "Компьютер 1: онеры Д♥ 7♥"
    one: Event = {"type": "declare", "kind": "honours", "seat": 0, "cards": ["JS"]}
    assert plain(imperial_view.narrate(one, "ru", names)) == "Вы: онер В♠"
    imperials: Event = {
        "type": "declare",
        "kind": "imperials",
        "seat": 0,
        "count": 1,
        "marked": True,
        "imperials": [{"kind": "suit", "count": 1, "cards": ["AD", "JD", "QD", "KD"]}],
    }
    line = plain(imperial_view.narrate(imperials, "ru", names))
    assert line == "Вы: хвалёж империалами — империал в масти: К♦ Д♦ В♦ Т♦"


# --------------------------------------------------------------------- Imperial words


def test_imperial_scores_marks_and_wipes_in_russian() -> None:
    names = COMPUTERS[:2]
    score: Event = {
        "type": "score",
        "seat": 1,
        "points": 4,
        "reason": "point",
        "rule": "I6",
        "total": 21,
    }
    assert plain(imperial_view.narrate(score, "ru", names)) == (
        "  Компьютер 1: +4 очка (хвалёж мастью); всего 21 очко"
    )
    mark: Event = {"type": "mark", "seat": 0, "imperials": 2, "total": 3, "reason": "imperials"}
    line = plain(imperial_view.narrate(mark, "ru", names))
    assert line is not None and "Вы: записано 2 империала" in line and "всего 3 империала" in line
    mark1: Event = {"type": "mark", "seat": 0, "imperials": 1, "total": 5, "reason": "24 points"}
    line = plain(imperial_view.narrate(mark1, "ru", names))
    assert line is not None and "записан 1 империал" in line and "всего 5 империалов" in line
    wipe: Event = {"type": "wipe", "seat": 1, "points": 22, "by": 0}
    line = plain(imperial_view.narrate(wipe, "ru", names))
    assert line is not None and "У Компьютера 1 сгорело 22 очка: империал у вас" in line
    wipe_you: Event = {"type": "wipe", "seat": 0, "points": 5, "by": 1}
    line = plain(imperial_view.narrate(wipe_you, "ru", names))
    assert line is not None and "У вас сгорело 5 очков: империал у Компьютера 1" in line


def test_imperial_capture_has_no_broken_gender() -> None:
    capture: Event = {
        "type": "capture",
        "seat": 0,
        "card": "AH",
        "from": 1,
        "by": "KH",
        "rule": "I9",
    }
    line = plain(imperial_view.narrate(capture, "ru", COMPUTERS[:2]))
    assert line == "  Вы: К♥ берёт Т♥ (томбе)"
    assert "взят(" not in (line or "")


def test_imperial_status_line_is_labelled() -> None:
    state = ImperialState.new(ImperialOptions(players=2), seed=3)
    console, out = _console()
    view = ImperialView(console, COMPUTERS[:2], "ru")
    obs = state.observation(0)
    view.show_table(obs)
    (i0, p0), (i1, p1) = obs.scores
    text = out.getvalue()
    assert f"Вы: империалы {i0}, очки {p0}; Компьютер 1: империалы {i1}, очки {p1}" in text
    assert "/" not in text.split("Счёт:")[1].splitlines()[0]


# --------------------------------------------------------------------- Emperor words


def test_emperor_bargaining_in_russian() -> None:
    names = ["Игрок 1", "Игрок 2", "Игрок 3", "Вы"]
    accept: Event = {"type": "accept", "seat": 1, "target": 2, "tricks": 2}
    assert plain(emperor_view.narrate(accept, "ru", names)) == (
        "Игрок 2: откуп принят — 2 взятки переходят от Игрока 3 к Игроку 2"
    )
    accept1: Event = {"type": "accept", "seat": 3, "target": 0, "tricks": 1}
    assert plain(emperor_view.narrate(accept1, "ru", names)) == (
        "Вы: откуп принят — 1 взятка переходит от Игрока 1 к вам"
    )
    offer: Event = {"type": "offer", "seat": 3, "tricks": 3}
    assert plain(emperor_view.narrate(offer, "ru", names)) == "Вы предлагаете откуп: 3 взятки"
    named: Event = {"type": "swap", "taker": 0, "target": 3, "happened": False}
    assert plain(emperor_view.narrate(named, "ru", names)) == "Игрок 1 хочет забрать карты у вас"
    refuse: Event = {"type": "refuse", "seat": 3}
    assert plain(emperor_view.narrate(refuse, "ru", names)) == "Вы отказываетесь от откупа"
    no_trumps: Event = {"type": "trump", "seat": 0, "trump": "NT"}
    assert plain(emperor_view.narrate(no_trumps, "ru", names)) == "Игрок 1 объявляет бескозырку"


def test_emperor_final_table_shows_the_final_places_not_the_last_titles() -> None:
    # E12: Игрок 3 was King after round 10 but ends second by game total: Принц.
    names = ["Игрок 1", "Игрок 2", "Игрок 3", "Игрок 4"]
    console, out = _console()
    view = EmperorView(console, names, "ru")
    over: Event = {
        "type": "game_over",
        "totals": [39, 30, 38, 23],
        "places": [0, 2, 1, 3],
        "ranks": ["emperor", "soldier", "prince", "jester"],
        "why": [],
    }
    line = view.narrate(over)
    assert line is not None and "Принц — Игрок 3 (38)" in line
    view.show_end({"totals": [39, 30, 38, 23], "titles": ["prince", "soldier", "king", "jester"]})
    rows = [r for r in out.getvalue().splitlines() if "Игрок" in r and "│" in r]
    cells = [[c.strip() for c in r.split("│")[1:-1]] for r in rows]
    assert cells == [
        ["1", "Игрок 1", "Император", "39"],
        ["2", "Игрок 3", "Принц", "38"],
        ["3", "Игрок 2", "Солдат", "30"],
        ["4", "Игрок 4", "Скоморох", "23"],
    ]


# --------------------------------------------------------------------- commands


def test_russian_commands_read_as_the_engines_texts() -> None:
    state = EmperorState.new(EmperorOptions(players=4), seed=1)
    assert state.parse_action(to_engine("пас")) == PASS
    assert state.parse_action(to_engine("обмен 2")) == SWAP + 2
    assert state.parse_action(to_engine("Откуп 3")) == OFFER + 3
    assert state.parse_action(to_engine("принять")) == ACCEPT
    assert state.parse_action(to_engine("отказать")) == REFUSE
    assert state.parse_action(to_engine("уступить")) == YIELD
    assert state.parse_action(to_engine("козырь ч")) == TRUMP + Suit.HEARTS
    assert state.parse_action(to_engine("козырь п")) == TRUMP + Suit.SPADES
    assert state.parse_action(to_engine("козырь б")) == TRUMP + Suit.DIAMONDS
    assert state.parse_action(to_engine("козырь т")) == TRUMP + Suit.CLUBS
    assert state.parse_action(to_engine("козырь трефы")) == TRUMP + Suit.CLUBS
    assert state.parse_action(to_engine("козырь бк")) == TRUMP_NT
    assert state.parse_action(to_engine("козырь бескозырка")) == TRUMP_NT
    # The English texts are still read as they are.
    assert state.parse_action(to_engine("swap 1")) == SWAP + 1
    assert state.parse_action(to_engine("trump NT")) == TRUMP_NT
    # And the engine's texts are shown in the Russian words one types.
    assert [russian(x) for x in ("pass", "swap 2", "offer 1", "accept", "refuse", "yield")] == [
        "пас",
        "обмен 2",
        "откуп 1",
        "принять",
        "отказать",
        "уступить",
    ]
    assert russian("trump NT") == "козырь бк"


def test_latin_t_is_flagged_and_the_shared_parser_is_unchanged() -> None:
    # kozyr.cards reads a Latin T as the ten (English notation, TH = 10H); tests of the
    # card module rely on it, so the terminal handles the Latin T itself.
    assert parse_card("TH") == card(10, Suit.HEARTS)
    assert parse_card("ТЧ") == card(14, Suit.HEARTS)  # Cyrillic Т: the ace
    assert latin_t("TП", "ru") and latin_t("tч", "ru") and latin_t("TH", "ru")
    assert latin_t("TЧ", "en")  # a Cyrillic suit: a Russian reader, even in English
    assert not latin_t("TH", "en")
    assert not latin_t("ТП", "ru") and not latin_t("10п", "ru")
    assert not latin_t("accept", "ru") and not latin_t("trump S", "ru")
    assert not latin_t("trump NT", "ru") and not latin_t("козырь nt", "ru")  # no trumps


# --------------------------------------------------------------------- sessions


def test_latin_t_is_refused_and_nothing_is_played() -> None:
    state = ImperialState.new(ImperialOptions(players=2), seed=3)
    console, out = _console()
    typed: list[str] = []

    def read(prompt: str) -> str:
        if not typed:
            typed.append("TП")
            return "TП"
        raise EOFError

    view = ImperialView(console, COMPUTERS[:2], "ru")
    session = Session(state, 0, {1: FirstLegal()}, view, console, read, "ru")
    assert session.run() is False
    assert "T — латинская буква; туз — русская Т или A" in out.getvalue()
    # The person played nothing: neither the ten (Latin T) nor the ace of spades.
    assert all(e["seat"] == 1 for e in state.events if e["type"] == "play")


def test_refusal_lists_the_legal_cards_in_rank_order() -> None:
    state = ImperialState.new(ImperialOptions(players=2), seed=3)
    console, out = _console()
    bots = {1: FirstLegal()}
    asked: list[int] = []

    def read(prompt: str) -> str:
        asked.append(1)
        if len(asked) > 1:
            raise EOFError
        obs = state.observation(0)
        assert obs.hand is not None
        illegal = [
            c
            for c in sort_cards(parse_cards_of(obs.hand), "imperial")
            if c not in obs.legal_actions
        ]
        assert illegal, "seed 3 starts with a trick to follow"
        return card_name(illegal[0], "ru")

    view = ImperialView(console, COMPUTERS[:2], "ru")
    Session(state, 0, bots, view, console, read, "ru").run()
    line = next(x for x in out.getvalue().splitlines() if x.startswith("Можно: "))
    shown = [parse_card(x) for x in line.removeprefix("Можно: ").split(", ")]
    order = ["К", "Д", "В", "Т", "10", "9", "8", "7", "6"]
    for a, b in pairwise(shown):
        if suit_of(a) == suit_of(b):
            ra, rb = card_name(a, "ru")[:-1], card_name(b, "ru")[:-1]
            assert order.index(ra) < order.index(rb), line
    # the catalog's Russian message, the rule in words and no ruling's code
    assert (
        "Так нельзя: масть хода — пики, и она у вас есть, значит, нужно ходить в масть"
        in out.getvalue()
    )
    assert "(I7)" not in out.getvalue()


def parse_cards_of(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


def test_ctrl_c_at_the_prompt_leaves_cleanly() -> None:
    state = ImperialState.new(ImperialOptions(players=2), seed=1)
    console, out = _console()

    def read(prompt: str) -> str:
        raise KeyboardInterrupt

    view = ImperialView(console, COMPUTERS[:2], "ru")
    assert Session(state, 0, {1: FirstLegal()}, view, console, read, "ru").run() is False
    assert "Вы вышли из игры." in out.getvalue()
    assert not state.over


def test_ctrl_c_while_the_computer_thinks_leaves_cleanly() -> None:
    class Interrupted:
        def choose(self, obs: Observation, legal: Sequence[int], budget: float = 0.0) -> int:
            raise KeyboardInterrupt

    state = EmperorState.new(EmperorOptions(players=4), seed=1)
    console, out = _console()
    bots = {s: Interrupted() for s in (1, 2, 3)}
    view = EmperorView(console, COMPUTERS, "ru")
    human = 0 if state.to_act != 0 else 1
    if human == 1:
        bots = {s: Interrupted() for s in (0, 2, 3)}

    def read(prompt: str) -> str:
        raise AssertionError("a computer moves first, and Ctrl-C stops the game there")

    session = Session(state, human, bots, view, console, read, "ru")
    assert session.run() is False
    assert "Вы вышли из игры." in out.getvalue()


def _is_card(text: str) -> bool:
    try:
        parse_card(text)
    except ValueError:
        return False
    return True


def _typed_russian(state: GameState, legal: Sequence[int], turn: int) -> str:
    """What a Russian player types for one choice, alternating between the choices."""
    legal_set = set(legal)
    if TRUMP_NT in legal_set:
        return ("козырь бк", "козырь ч", "козырь п", "козырь б", "козырь т")[turn % 5]
    if PASS in legal_set:
        swaps = [a for a in legal if SWAP <= a < PASS]
        return f"обмен {swaps[0] - SWAP}" if swaps and turn % 3 else "пас"
    if YIELD in legal_set:
        offers = [a for a in legal if OFFER < a < ACCEPT]
        return f"откуп {offers[0] - OFFER}" if offers and turn % 2 else "уступить"
    if ACCEPT in legal_set:
        return "отказать" if turn % 2 else "принять"
    c = legal[0]
    return (
        card_name(c, "ru")
        .lower()
        .replace("♠", "п")
        .replace("♥", "ч")
        .replace("♦", "б")
        .replace("♣", "т")
    )


def test_a_whole_emperor_game_in_russian_words() -> None:
    state = EmperorState.new(EmperorOptions(players=4), seed=2)
    console, out = _console()
    bots = {s: FirstLegal() for s in (1, 2, 3)}
    turns = counter()
    typed: list[str] = []

    def read(prompt: str) -> str:
        text = _typed_russian(state, state.legal_actions(), next(turns))
        typed.append(text)
        return text

    view = EmperorView(console, COMPUTERS, "ru")
    assert Session(state, 0, bots, view, console, read, "ru").run() is True
    text = out.getvalue()
    assert "Так нельзя" not in text  # every Russian word was understood
    verbs = {x.split()[0] for x in typed if not _is_card(x)}
    # The game asked for (and took) every kind of Russian command at least once.
    assert {"пас", "обмен", "откуп", "принять", "отказать", "уступить", "козырь"} <= verbs
    assert "Итоговые места" in text
    # No card named in English notation and no English words in the narration.
    for word in ("swap", "pass", "offer", "yield", "trump", "accept", "refuse"):
        assert word not in text
    assert rank_of(parse_card("дп")) == 12


def test_a_word_when_a_card_is_due_is_explained() -> None:
    state = EmperorState.new(EmperorOptions(players=4), seed=3)
    console, out = _console()
    answers = iter(["пас"])

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    bots = {s: FirstLegal() for s in (1, 2, 3)}
    Session(state, 0, bots, EmperorView(console, COMPUTERS, "ru"), console, read, "ru").run()
    assert "Так нельзя: сейчас ваш ход: сыграйте карту" in out.getvalue()


def test_a_refusal_reads_as_part_of_the_sentence() -> None:
    """ "Так нельзя: ..." goes on in lower case, a one-letter word included; a card or a
    seat's name keeps its capital."""
    assert in_sentence("У вас нет Д♠") == "у вас нет Д♠"
    assert in_sentence("Вы — Король: назовите козырь") == "вы — Король: назовите козырь"
    assert in_sentence("Д♠ указана дважды") == "Д♠ указана дважды"
    assert in_sentence("Компьютер 2 ходит") == "Компьютер 2 ходит"
