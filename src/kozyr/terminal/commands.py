"""What the person types, in English or Russian, read into the engine's action texts.

The engines read only their own texts (``pass``, ``swap 2``, ``trump NT``, cards such as
``QS``; docs/engine-api.md); Russian words are translated here, in the terminal, and the
engines' action texts stay as they are.

>>> to_engine("Обмен 2"), to_engine("откуп 1"), to_engine("козырь ч"), to_engine("козырь бк")
('swap 2', 'offer 1', 'trump ч', 'trump NT')
>>> to_engine("пас"), to_engine("козырь Пики"), russian("swap 3"), russian("trump NT")
('pass', 'trump п', 'обмен 3', 'козырь бк')
>>> russian("trump H"), russian("offer 2"), russian("QS")
('козырь черви', 'откуп 2', 'QS')
"""

from __future__ import annotations

import re

from kozyr.cards import Lang, parse_suit, suit_name

# Commands of the terminal itself (not game actions).
QUIT = frozenset({"q", "quit", "exit", "выход", "выйти"})
HELP = frozenset({"h", "help", "?", "помощь", "справка"})
HAND = frozenset({"hand", "table", "t", "карты", "стол"})
SCORE = frozenset({"score", "scores", "s", "счёт", "счет"})

# Emperor's action words: Russian -> the engine's text.
_WORDS = {
    "пас": "pass",
    "принять": "accept",
    "принимаю": "accept",
    "отказать": "refuse",
    "отказ": "refuse",
    "уступить": "yield",
    "уступаю": "yield",
}
_VERBS = {"обмен": "swap", "откуп": "offer", "козырь": "trump"}
_NO_TRUMPS = frozenset({"бк", "бескозырка", "без козыря", "безкозырка", "nt"})
_VERB = re.compile(r"^(\S+)\s*(.*)$")

# The engine's texts in Russian, for the lists of choices.
_RUSSIAN = {
    "pass": "пас",
    "accept": "принять",
    "refuse": "отказать",
    "yield": "уступить",
    "swap": "обмен",
    "offer": "откуп",
}


def to_engine(text: str) -> str:
    """The engine's text for a typed Russian action; any other text as it was typed."""
    t = " ".join(text.strip().lower().split())
    if t in _WORDS:
        return _WORDS[t]
    m = _VERB.match(t)
    if m is not None and m.group(1) in _VERBS:
        verb, arg = _VERBS[m.group(1)], m.group(2)
        if verb == "trump" and arg in _NO_TRUMPS:
            return "trump NT"
        if verb == "trump" and len(arg) > 1 and arg[0] in "пчбтк" and arg.isalpha():
            # A suit's word (пики, черви, бубны, трефы, крести): its first letter.
            arg = arg[0]
        return f"{verb} {arg}".strip()
    return text.strip()


def russian(action: str) -> str:
    """An Emperor action text in the words a Russian player types; cards unchanged."""
    verb, _, arg = action.partition(" ")
    if verb == "trump":
        if arg == "NT":
            return "козырь бк"
        return f"козырь {suit_name(parse_suit(arg), 'ru', long=True)}"
    word = _RUSSIAN.get(verb)
    if word is None:
        return action
    return f"{word} {arg}".strip()


_LATIN_T = re.compile("[Tt]")
_CYRILLIC = re.compile("[а-яёА-ЯЁ]")


def latin_t(text: str, lang: Lang) -> bool:
    """Whether the typed text holds a Latin T where a Russian player means a Cyrillic Т.

    Т is the ace (and, as a suit, trefy) only in Cyrillic; the shared card parser reads a
    Latin T as the ten (``TH`` = ``10H``, English notation). A Russian reader who typed a
    Latin T almost surely meant the ace, so the terminal refuses it with an explanation
    rather than play a ten: always in Russian, and in English when the rest of the text
    is Cyrillic (``TЧ``).

    >>> latin_t("TЧ", "en"), latin_t("TH", "en"), latin_t("TH", "ru"), latin_t("ТЧ", "ru")
    (True, False, True, False)
    >>> latin_t("trump S", "ru"), latin_t("козырь t", "ru"), latin_t("accept", "ru")
    (False, True, False)
    >>> latin_t("trump NT", "ru"), latin_t("козырь nt", "ru")
    (False, False)
    """
    t = text.strip()
    m = _VERB.match(t.lower())
    if m is not None and m.group(1) in ("trump", "козырь", "swap", "обмен", "offer", "откуп"):
        t = m.group(2)
        if t.lower() == "nt":
            return False  # "trump NT": no trumps, in English
    if len(t) > 3 or not _LATIN_T.search(t):
        # Longer words ("accept", "exit") are commands, not a card or a suit.
        return False
    return lang == "ru" or bool(_CYRILLIC.search(text))
