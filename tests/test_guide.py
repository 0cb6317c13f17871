"""How to play (#29): each game's guide for players (``kozyr/games/<game>/guide``), in both
languages with the same sections, every special rule there, nothing a player should not
read (file names, option names, ruling codes, seat numbers), every picture made of real
cards of the game's deck, and the ids the page's links use (the table's Rules link by
phase, the glossary tips' terms) present."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kozyr.cards import DECK_32, DECK_52, card_name, parse_card
from kozyr.games import GAMES
from kozyr.games.emperor.options import RANGES as EMPEROR_OPTIONS
from kozyr.games.guide import Guide, GuideError, card_groups, load, parse
from kozyr.games.imperial.options import RANGES as IMPERIAL_OPTIONS
from kozyr.texts import LANGS
from kozyr.web import STATIC

GAME_DIR = Path(__file__).resolve().parents[1] / "src" / "kozyr" / "games"
SCRIPTS = STATIC / "js"

# What the issue asks of each guide: the deck and ranks, dealing, following suit and
# trumps, scoring, each special rule, a worked example, a glossary.
REQUIRED = {
    "imperial": {
        "deck",
        "dealing",
        "play",
        "scoring",
        "declarations",  # declarations and honours (I6)
        "honours",  # I4, I8
        "imperials",  # imperials and how they are marked (I6)
        "wipes",  # every mark wipes the others' points
        "tombe",  # I9
        "white",  # I11
        "turned",  # the turned-up imperial (I6)
        "players",  # 2 and 3 players (I1, I5)
        "example",
        "glossary",
    },
    "emperor": {
        "deck",
        "dealing",
        "play",
        "scoring",  # scoring a round and the game (E11, E12)
        "titles",  # E3, E6
        "swaps",  # the blind swaps down the ranks (E7)
        "bargaining",  # E8
        "king",  # the King names trump and leads (E9, E10)
        "players",  # 3 and 4 players (E2, E3, E7)
        "example",
        "glossary",
    },
}

OPTION_NAMES = set(IMPERIAL_OPTIONS) | set(EMPEROR_OPTIONS)
# Words a player must never read in the guide.
FORBIDDEN = [
    (re.compile(r"\b[\w-]+\.(md|txt|py|js|json|toml|html)\b"), "a file name"),
    (re.compile(r"`"), "code"),
    (re.compile(r"\b[A-Za-z]+_[A-Za-z_]+\b"), "an option or code name"),
    (re.compile(r"\b[IEB]\d{1,2}\b"), "a ruling code"),
    (re.compile(r"\b(seat|место|места|месте)\s*\d", re.IGNORECASE), "a seat number"),
    (re.compile(r"\bseats?\b", re.IGNORECASE), "seats"),
    (re.compile(r"kozyr|RULINGS|seeds?/", re.IGNORECASE), "the project's own names"),
    (re.compile(r"\b(option|engine|ruling)s?\b", re.IGNORECASE), "developers' words"),
    (re.compile(r"\b(опци|движ|параметр)", re.IGNORECASE), "developers' words"),
]
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def _guides() -> list[Guide]:
    return [load(game, lang) for game in GAMES for lang in LANGS]


def test_every_game_has_a_guide_in_both_languages_with_the_same_sections() -> None:
    for game in GAMES:
        en, ru = load(game, "en"), load(game, "ru")
        assert en.ids() == ru.ids(), game
        assert [t.id for t in en.terms()] == [t.id for t in ru.terms()], game
        assert en.title != ru.title
        for a, b in zip(en.sections, ru.sections, strict=True):
            assert a.title != b.title, (game, a.id)  # translated, not copied
            assert len(a.pictures()) == len(b.pictures()), (game, a.id)
            assert a.pictures() == b.pictures(), (game, a.id)  # the same cards shown


def test_every_required_section_is_there() -> None:
    for game, wanted in REQUIRED.items():
        for lang in LANGS:
            ids = set(load(game, lang).ids())
            assert wanted <= ids, (game, lang, wanted - ids)
            # the page's own target for its table of contents is not a section's id
            assert "contents" not in ids
    assert set(REQUIRED) == set(GAMES)


def test_the_special_rules_have_a_picture() -> None:
    pictured = {
        "imperial": {"deck", "play", "honours", "imperials", "tombe", "white", "turned", "example"},
        "emperor": {"deck", "dealing", "play", "swaps", "king", "example"},
    }
    for game, ids in pictured.items():
        guide = load(game, "en")
        for section_id in ids:
            assert guide.section(section_id).pictures(), (game, section_id)


def test_a_player_reads_no_file_option_code_or_seat() -> None:
    for guide in _guides():
        for s in guide.sections:
            text = f"{s.title}\n{s.body}"
            # the pictures are card texts, drawn as cards: not read as words
            words = re.sub(r"```cards\n.*?```", "", text, flags=re.DOTALL)
            for pattern, what in FORBIDDEN:
                m = pattern.search(words)
                assert m is None, f"{guide.game}/{guide.lang}#{s.id}: {what}: {m and m[0]!r}"
            for name in OPTION_NAMES:
                if "_" in name:
                    assert name not in words, (guide.game, guide.lang, s.id, name)


def test_each_language_is_written_in_its_own_script() -> None:
    for guide in _guides():
        for s in guide.sections:
            text = re.sub(r"```cards\n.*?```", "", s.body, flags=re.DOTALL)
            if guide.lang == "ru":
                assert CYRILLIC.search(s.title) and CYRILLIC.search(text), (guide.game, s.id)
            else:
                assert not CYRILLIC.search(s.title + text), (guide.game, s.id)


def test_every_picture_is_made_of_cards_of_the_games_deck() -> None:
    # worked out by hand: Imperial draws from six to ace (36 cards, the 32 of two players
    # among them), Emperor the whole deck
    sixes_up = sum(1 << (suit * 13 + rank - 2) for suit in range(4) for rank in range(6, 15))
    assert sixes_up & DECK_32 == DECK_32 and bin(sixes_up).count("1") == 36
    decks = {"imperial": sixes_up, "emperor": DECK_52}
    count = 0
    for guide in _guides():
        for s in guide.sections:
            for block in s.pictures():
                for group in card_groups(block):
                    assert group, (guide.game, s.id)
                    cards = [parse_card(c) for c in group]
                    assert [card_name(c) for c in cards] == group  # the engine's notation
                    assert len(set(cards)) == len(cards)
                    assert all(decks[guide.game] >> c & 1 for c in cards), (guide.game, group)
                    count += len(group)
    assert count > 100  # the pictures are there to be checked


GOOD = """# Title

## First {#first}

Some words.

```cards
KH QH | 7H
```

## Glossary {#glossary}

### A term {#term-a}

Its words.
"""


def test_a_good_guide_parses() -> None:
    guide = parse("imperial", "en", GOOD)
    assert guide.title == "Title"
    assert guide.ids() == ("first", "glossary")
    assert guide.section("first").pictures() == ["KH QH | 7H"]
    assert [t.id for t in guide.terms()] == ["term-a"]
    assert card_groups("KH QH | 7H") == [["KH", "QH"], ["7H"]]


@pytest.mark.parametrize(
    ("game", "change", "why"),
    [
        ("imperial", ("KH QH | 7H", "KH QH | 5H"), "not in this game's deck"),  # 32/36 cards
        ("imperial", ("KH QH | 7H", "KH QH | 1H"), "is not a card"),
        ("imperial", ("KH QH | 7H", "kh QH"), "notation"),
        ("imperial", ("KH QH | 7H", "TH QH"), "notation"),  # "T" reads as ten; write 10H
        ("imperial", ("KH QH | 7H", "KH QH KH"), "twice in one group"),
        ("imperial", ("KH QH | 7H", "KH QH |"), "1 to 16 cards"),
        ("emperor", ("KH QH | 7H", "KH QH | 7H 7X"), "is not a card"),
        ("imperial", ("## First {#first}", "## First"), "needs an id"),
        ("imperial", ("## Glossary {#glossary}", "## Glossary {#first}"), "unique ids"),
        ("imperial", ("### A term {#term-a}", "### A term {#a}"), "bad term heading"),
        ("imperial", ("# Title\n", "Title\n"), "must start"),
        ("imperial", ("7H\n```", "7H\n"), "not closed"),
    ],
)
def test_a_broken_guide_is_refused(game: str, change: tuple[str, str], why: str) -> None:
    assert change[0] in GOOD
    with pytest.raises(GuideError, match=re.escape(why)):
        parse(game, "en", GOOD.replace(*change, 1))


def test_no_guide_for_an_unknown_game_or_language() -> None:
    with pytest.raises(GuideError):
        load("durak", "en")
    with pytest.raises(GuideError):
        load("imperial", "de")  # type: ignore[arg-type]
    with pytest.raises(GuideError):
        load("../imperial", "en")


def _js_object(source: str, name: str) -> dict[str, str]:
    m = re.search(rf"const {name} = \{{(.*?)\}};", source, re.DOTALL)
    assert m, name
    pairs = re.findall(r"""["']?(\w[\w ]*?)["']?\s*:\s*["']([\w-]+)["']""", m[1])
    return {k.strip(): v for k, v in pairs}


def test_the_tables_rules_link_opens_sections_that_exist() -> None:
    for game in GAMES:
        source = (SCRIPTS / "games" / f"{game}.js").read_text(encoding="utf-8")
        sections = _js_object(source, "GUIDE")
        assert sections, game
        for lang in LANGS:
            ids = set(load(game, lang).ids())
            assert set(sections.values()) <= ids, (game, lang)


def test_the_glossary_tips_terms_are_in_the_guides_glossaries() -> None:
    terms = _js_object((SCRIPTS / "glossary.js").read_text(encoding="utf-8"), "TERM_OF")
    assert {"tombe", "wipe", "white", "swap", "bargain"} <= set(terms.values())
    glossaries = {g: {t.id for t in load(g, "en").terms()} for g in GAMES}
    for key in set(terms.values()):
        assert any(f"term-{key}" in ids for ids in glossaries.values()), key
    for game in GAMES:
        # every word the game's engine emits (a score's reason, an event) that has a tip
        engine = "".join(p.read_text(encoding="utf-8") for p in (GAME_DIR / game).glob("*.py"))
        module = (SCRIPTS / "games" / f"{game}.js").read_text(encoding="utf-8")
        used = {terms[w] for w in terms if f'"{w}"' in engine}
        used |= {terms[w] for w in re.findall(r'termHtml\("([\w ]+)"', module)}
        assert used, game
        missing = {k for k in used if f"term-{k}" not in glossaries[game]}
        assert not missing, (game, missing)


def test_imperials_worked_example_plays_as_written() -> None:
    """The example deal's two hands are its first two pictures; played on the engine with
    the tricks the text tells, it ends as the text says: declarations Anna 1 imperial and
    12 points, Boris 8; Boris's jack of trumps heads the fourth trick (12); Anna's eight
    tricks bring her to 24, her second imperial, and Boris's 12 points are wiped."""
    example = load("imperial", "en").section("example")
    anna, boris = ([c for g in card_groups(p) for c in g] for p in example.pictures()[:2])
    assert example.pictures() == load("imperial", "ru").section("example").pictures()
    game = GAMES["imperial"]
    deck = [r + s for s in "SHDC" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")]
    stock = [c for c in deck if c not in {*anna, *boris, "9H"}]
    deal = game.deal_from_json({"hands": [anna, boris], "turnup": "9H", "stock": stock}, "d")
    state = game.new_state(
        game.options_from_json({"players": 2}), None, first_dealer=1, deals=[deal]
    )
    assert state.observation(None).to_json()["scores"] == [
        {"imperials": 1, "points": 12},
        {"imperials": 0, "points": 8},
    ]
    tricks = "KH 7H QH AH AC 7C KC JH KS 10S QS AS JS 8H QC 8D JC 9S 10C JD 10H QD 9D KD"
    for move in tricks.split():
        state.apply(state.parse_action(move))
    events = state.events
    assert [e["points"] for e in events if e["type"] == "score" and e["seat"] == 1] == [8, 4]
    assert {"type": "wipe", "seat": 1, "points": 12, "by": 0} in events
    assert next(e for e in events if e["type"] == "deal_end")["tricks"] == [8, 4]
    assert state.observation(None).to_json()["scores"] == [
        {"imperials": 2, "points": 0},
        {"imperials": 0, "points": 0},
    ]


# Emperor's worked round, card by card. The text gives the totals and titles before it,
# the bargaining, the swaps, the trump, the second trick and the tricks each took; these
# hands (worked out by hand to fit it: Anna long in spades, Vera without hearts, every
# card following suit) fill in the rest. Seats: Anna 0 (King), Boris 1 (Prince), Vera 2
# (Soldier), Gleb 3 (Jester); after the titles' fixed order Anna leads every trick.
_ROUND_4_PLAY = {
    # what each plays, trick 1 to 13 (after Boris and Vera swapped hands)
    0: "AS AH KS QS 2D 3D 4D 2C 3C 2H 4C JS 10S",
    1: "3S KH 6S 9S AD KD 5D AC 5C JH 6C 3H 4H",
    2: "4S 2S 7S 10D 6D 7D QD 7C KC 8D 8C 9D 9C",
    3: "5S 5H 8S 6H JD 7H 8H 10C JC QH QC 9H 10H",
}
_ROUND_4_WINNERS = [0, 2, 0, 0, 1, 1, 2, 1, 2, 3, 3, 0, 0]  # by the rules, worked out


def test_emperors_worked_example_plays_as_written() -> None:
    """Round four of the guide, played on the engine from the titles and totals the text
    starts from: Gleb's offer of one trick refused and of two accepted (E8: Anna 14, Gleb
    6), Vera yields to Boris (E7), Vera passes, Anna names spades (E9); Anna leads every
    trick (E10); the second trick is the picture (A♥ K♥ 2♠ 5♥, Vera trumps and wins it);
    5, 3, 3 and 2 tricks; Vera becomes Prince over Boris by her earlier first trick (E6);
    the totals 19, 13, 12, 8 (E11)."""
    import dataclasses

    from kozyr.games.emperor import EmperorOptions, EmperorState

    example = load("emperor", "en").section("example")
    assert example.pictures() == load("emperor", "ru").section("example").pictures()
    assert [c for g in card_groups(example.pictures()[0]) for c in g] == ["AH", "KH", "2S", "5H"]
    # Any game at the start of its fourth round's swaps, then the text's titles and totals.
    game = EmperorState.new(EmperorOptions(players=4, rounds=10), seed=4)
    while not (game.round == 4 and game.phase == "exchange"):
        game.apply(game.legal_actions()[0])
    start = dataclasses.replace(
        game.observation(None),
        totals=(12, 10, 9, 8),
        title_order=(0, 1, 2, 3),
        titles=("king", "prince", "soldier", "jester"),
        to_act=0,
    )
    play = {s: [parse_card(c) for c in cards.split()] for s, cards in _ROUND_4_PLAY.items()}
    assert sorted(c for cards in play.values() for c in cards) == list(range(52))
    hands = [sum(1 << c for c in play[s]) for s in range(4)]
    dealt = [hands[0], hands[2], hands[1], hands[3]]  # Boris and Vera swap, blind
    state = EmperorState.from_observation(start, dealt)
    for move in ("swap 3", "offer 1", "refuse", "offer 2", "accept"):
        state.apply(state.parse_action(move))
    assert state.totals == [14, 10, 9, 6]
    assert state.observation(1).hand == dealt[1]
    for move in ("swap 2", "yield", "pass", "trump S"):
        state.apply(state.parse_action(move))
    assert [state.observation(s).hand for s in range(4)] == hands
    assert state.phase == "play"
    for trick in range(13):
        before = list(state.tricks)
        for seat in range(4):
            assert state.to_act == seat
            state.apply(play[seat][trick])
        won = [s for s in range(4) if state.tricks[s] != before[s]] if trick < 12 else None
        if won is not None:
            assert won == [_ROUND_4_WINNERS[trick]], trick
    assert state.totals == [19, 13, 12, 8]
    assert state.titles == ["king", "soldier", "prince", "jester"]
    assert state.title_order == [0, 2, 1, 3]
