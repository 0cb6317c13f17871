"""User names that cannot pass for someone else's.

A name is normalised to NFKC before it is checked (so "ℊuest-abc" is "guest-abc", and
full-width or ligature letters become plain ones); it may not mix alphabets (Latin with
Cyrillic, Greek, ...); and it may not have the same confusable *skeleton* as an existing
user's name (Unicode TR39's idea: Cyrillic "а" looks like Latin "a", "0" like "O").

The skeleton of two names' comparison here is a small table of Latin, Cyrillic and
Greek look-alikes plus the digits 0/1, not TR39's full ``confusables.txt``: names stored
before carry it (``users.name_skeleton``), and a name wholly in another script cannot look
like a Latin one letter for letter, save rare cases this table does not know. Other
scripts are covered by the mixed-script rule, which refuses a Latin name with one Armenian
"օ" in it.

Look-alikes are folded *before* case is folded, as the capitals decide: Cyrillic "В"
looks like "B" but "в" does not look like "b", and "I" looks like "l" but "i" does not.

Names that read as a bot, a guest, the system or a seat's label (:func:`reserved_word`)
are read with Unicode's whole table (``lookalikes``), which knows the small capitals
("ʙᴏᴛ") and every other script's look-alikes.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import select, update

from kozyr.server.accounts import lookalikes
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store
from kozyr.texts import text

# cased look-alike -> the Latin letter (or digit's letter) it passes for
_LOOKALIKES = {
    # Cyrillic capitals and small letters
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
    "С": "C", "Т": "T", "Х": "X", "У": "Y", "Ү": "Y", "Ѕ": "S", "І": "l", "Ј": "J",
    "Ԛ": "Q", "Ԝ": "W", "Ӏ": "l",
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "ү": "y", "х": "x",
    "і": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l",
    # Greek capitals and small letters
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    "α": "a", "ο": "o", "ρ": "p", "ι": "i", "ν": "v", "υ": "u", "γ": "y", "ϲ": "c",
    "ϳ": "j",
    # within Latin and digits: TR39 puts I, l and 1 together, and 0 with O
    "I": "l", "1": "l", "0": "O",
}  # fmt: skip
_FOLD = str.maketrans(_LOOKALIKES)

# the scripts that are written together (Japanese mixes Han with kana, Korean Han with
# Hangul): counted as one
_SCRIPT_GROUPS = {"CJK": "Han", "HIRAGANA": "Han", "KATAKANA": "Han", "HANGUL": "Han"}


def normalise(name: str) -> str:
    """NFKC, outer spaces dropped.

    >>> normalise(" ℊuest-ａｂｃ ")
    'guest-abc'
    """
    return unicodedata.normalize("NFKC", name).strip()


def scripts_of(name: str) -> set[str]:
    """The scripts of a name's letters (digits, spaces and punctuation belong to none),
    by the first word of each letter's Unicode name.

    >>> sorted(scripts_of("Olga_1")), sorted(scripts_of("Оlga")), sorted(scripts_of("東京たワ"))
    (['LATIN'], ['CYRILLIC', 'LATIN'], ['Han'])
    """
    found: set[str] = set()
    for c in name:
        if not unicodedata.category(c).startswith("L"):
            continue
        script = unicodedata.name(c, "UNKNOWN").split(" ", 1)[0]
        found.add(_SCRIPT_GROUPS.get(script, script))
    return found


def mixes_scripts(name: str) -> bool:
    return len(scripts_of(name)) > 1


def skeleton(name: str) -> str:
    """What a name looks like: equal skeletons are names a reader can mistake for each
    other (of the same NFKC form, case aside).

    >>> skeleton("admin") == skeleton("аdmin") == skeleton("ADMIN".lower())  # Cyrillic а
    True
    >>> skeleton("Bob0"), skeleton("ВОВО"), skeleton("Ivan"), skeleton("ivan")
    ('bobo', 'bobo', 'lvan', 'ivan')
    """
    return normalise(name).translate(_FOLD).casefold()


async def skeleton_taken(store: Store, skel: str) -> bool:
    async with store.engine.connect() as conn:
        row = (
            await conn.execute(select(m.users.c.id).where(m.users.c.name_skeleton == skel).limit(1))
        ).first()
    return row is not None


async def set_skeleton(store: Store, user_id: int, skel: str) -> None:
    async with store._write() as conn:
        await conn.execute(
            update(m.users).where(m.users.c.id == user_id).values(name_skeleton=skel)
        )


async def backfill_skeletons(store: Store, batch: int = 500) -> int:
    """Fills ``users.name_skeleton`` where it is NULL (users from before migration 0002,
    or a crash between creating a user and storing the skeleton); returns how many."""
    done = 0
    while True:
        async with store.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(m.users.c.id, m.users.c.name)
                    .where(m.users.c.name_skeleton.is_(None))
                    .limit(batch)
                )
            ).all()
        if not rows:
            return done
        async with store._write() as conn:
            for row in rows:
                await conn.execute(
                    update(m.users)
                    .where(m.users.c.id == row.id)
                    .values(name_skeleton=skeleton(row.name)[:200])
                )
        done += len(rows)


# -- names that read as the server's own (bots, guests, the system) --------------------

# Digits that pass for letters inside a word ("B0t", "Gue5t", "6от"); outside a reserved
# word a digit is a number, which ends the word ("bot5" is "bot" and 5). A digit also
# stands for whatever Unicode's table makes of it (0 for O, 1 for l).
_DIGIT_LETTERS: dict[str, str] = {
    "0": "o", "1": "li", "2": "z", "3": "eз", "4": "aч", "5": "s", "6": "bб", "7": "t",
    "8": "b", "9": "g",
}  # fmt: skip

RESERVED_WORDS: tuple[str, ...] = (
    # bots ("bot 3" is how the server names a bot's seat) and guests ("guest-1a2b3c")
    "bot", "бот", "guest", "гость",
    # the house of the chip ledger, and the server itself
    "house", "casino", "казино", "kozyr", "козырь", "server", "сервер",
    "system", "система", "admin", "админ", "administrator", "администратор",
    "moderator", "модератор",
)  # fmt: skip
"""Words a person's name may not hold as a word of its own (see :func:`reserved_word`)."""

PAGE_LABELS: tuple[str, ...] = ("seat", "место", "computer", "компьютер")
"""The page's own labels of a seat that the catalogue does not hold (``seat_n``,
``computer`` in ``web/static/js/i18n.js``); the rest are :func:`seat_labels`."""


def seat_labels() -> tuple[str, ...]:
    """What the page and the terminal call a seat, in both languages, numbers taken out:
    the catalogue's "You", "Computer {n}" and "Player {n}" (every grammatical case), and
    :data:`PAGE_LABELS`. A name may not be one of them, with or without a number.

    >>> [w for w in seat_labels() if w[0] in "YyВвCК"]
    ['You', 'Вы', 'Computer', 'Компьютер', 'Компьютера', 'Компьютеру', 'Компьютером']
    """
    found: list[str] = []
    for key in ("grammar.you", "grammar.computer", "grammar.player"):
        for case in ("", ".gen", ".dat", ".ins"):
            if key == "grammar.you" and case:
                continue  # "вас", "вам" are no seat's name
            for lang in ("en", "ru"):
                word = text(key + case, lang, n="").strip()
                if word not in found:
                    found.append(word)
    return (*found, *(w for w in PAGE_LABELS if w not in found))


DELETED_NAMES: tuple[str, ...] = ("deleted", "удалён", "удален")
"""What a deleted account shows as (``kozyr.server.profiles.DELETED``, which the page
writes in its language), with and without the ё: no person's name may read as one of
them (:func:`kozyr.server.accounts.auth.check_name` compares skeletons)."""

Fold = Callable[[str], str]


@dataclass(frozen=True)
class _Reading:
    """A name (or a word) folded one way: its letters, and for each whether it came from
    a digit and whether a separator stood before it."""

    chars: tuple[str, ...]
    digit: tuple[bool, ...]
    gap_before: tuple[bool, ...]


def _read(name: str, fold: Fold) -> _Reading:
    chars: list[str] = []
    digit: list[bool] = []
    gap_before: list[bool] = []
    gap = False
    for c in normalise(name):
        if not c.isalnum():
            gap = True
            continue
        is_digit = c.isdigit()
        # a letter may fold to several ("ß" to "SS", "Ю" to "lO"): each of them
        for part in c if is_digit else fold(c):
            chars.append(part)
            digit.append(is_digit)
            gap_before.append(gap)
            gap = False
    return _Reading(tuple(chars), tuple(digit), tuple(gap_before))


@functools.cache
def _keys(fold: Fold, words: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    return tuple(("".join(_read(w, fold).chars), w) for w in words)


@functools.cache
def _digit_letters(fold: Fold, digit: str) -> frozenset[str]:
    letters = {fold(digit), *(fold(c) for c in _DIGIT_LETTERS.get(digit, ""))}
    return frozenset(x for x in letters if len(x) == 1)


def _found(name: str, fold: Fold, labels: tuple[str, ...]) -> str | None:
    read = _read(name, fold)
    chars, digit, gap_before = read.chars, read.digit, read.gap_before
    n = len(chars)

    def same(i: int, letter: str) -> bool:
        c = chars[i]
        return c == letter or (digit[i] and letter in _digit_letters(fold, c))

    def spelt(start: int, key: str) -> bool:
        end = start + len(key)
        return end <= n and all(same(start + k, letter) for k, letter in enumerate(key))

    # a seat's label: the whole name, save a number after it ("Seat 3", "Вы", "You2")
    for key, word in _keys(fold, labels):
        if key and spelt(0, key) and all(digit[len(key) :]):
            return word
    for start in range(n):
        # a word starts the name, or follows a separator or a number
        if not (start == 0 or gap_before[start] or digit[start - 1]):
            continue
        for key, word in _keys(fold, RESERVED_WORDS):
            end = start + len(key)
            # ...and ends it, or comes before a separator or a number
            if spelt(start, key) and (end == n or gap_before[end] or digit[end]):
                return word
    return None


def reserved_word(name: str) -> str | None:
    """The reserved word or seat label a name reads as, or None: a bot, a guest, the
    system, or what the page calls a seat.

    The name is read as a reader sees it: NFKC, then letter by letter Unicode's
    confusables table in small letters and in capitals (:mod:`.lookalikes`: "ʙᴏᴛ" and
    Cyrillic "ВОТ" read "BOT"), and digits that stand for letters (0 for o, 1 for l, 3 for
    e, 5 for s...). Separators (spaces, dots, dashes, underscores) are skipped. A reserved
    word counts where it stands as a word of its own: at the start of the name or after a
    separator or a digit, and at the end or before one ("bot 5", "Bot_1", "B0t5", "Chess
    Bot", "guest1a2b3c"), not inside a longer word ("Botvinnik", "Abbot", "Robot Fan"). A
    seat's label (:func:`seat_labels`) counts only as the whole name, a number aside
    ("Computer 3", "Место 2", "You"; not "Thank You").

    >>> reserved_word("B0t 5"), reserved_word("Guеst"), reserved_word("ВОТ")  # Cyrillic е, В О Т
    ('bot', 'guest', 'bot')
    >>> reserved_word("ʙot 5"), reserved_word("Компьютер 3"), reserved_word("Seat 3")
    ('bot', 'Компьютер', 'seat')
    >>> reserved_word("Botvinnik"), reserved_word("Abbot"), reserved_word("Ольга")
    (None, None, None)
    """
    labels = seat_labels()
    # small letters first: a word that only looks like another in capitals ("бот" is
    # "BOT" there, as Б reads b̄) is named as itself
    for fold in (lookalikes.fold_lower, lookalikes.fold_upper):
        word = _found(name, fold, labels)
        if word is not None:
            return word
    return None
