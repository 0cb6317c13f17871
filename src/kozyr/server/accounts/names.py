"""User names that cannot pass for someone else's.

A name is normalised to NFKC before it is checked (so "ℊuest-abc" is "guest-abc", and
full-width or ligature letters become plain ones); it may not mix alphabets (Latin with
Cyrillic, Greek, ...); and it may not have the same confusable *skeleton* as an existing
user's name (Unicode TR39's idea: Cyrillic "а" looks like Latin "a", "0" like "O").

The skeleton here is a small table of Latin, Cyrillic and Greek look-alikes plus the
digits 0/1, not TR39's full ``confusables.txt``: the one PyPI package with wide use
(confusable-homoglyphs) has the pairs but not which side is the prototype, so it cannot
build a skeleton, and the ones that can (e.g. disarm) are young single-author binary
packages. Other scripts are covered by the mixed-script rule, which refuses a Latin name
with one Armenian "օ" in it; a name wholly in another script cannot look like a Latin
one letter for letter, save rare cases this table does not know.

Look-alikes are folded *before* case is folded, as the capitals decide: Cyrillic "В"
looks like "B" but "в" does not look like "b", and "I" looks like "l" but "i" does not.
"""

from __future__ import annotations

import unicodedata

from sqlalchemy import select, update

from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store

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

# After casefold: the small letters of other alphabets that pass for a Latin one, in
# either case ("ВОТ" and "вот" both read "bot": the capitals look alike, and folding the
# case first is what lets one table serve both), and "i" with "l".
_RESERVED_FOLD = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
        "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "і": "l", "ї": "l", "ј": "j",
        "ѕ": "s", "һ": "h", "ԁ": "d", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ь": "b", "ү": "y",
        # Greek
        "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "n", "ι": "l", "κ": "k", "ν": "v",
        "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ϲ": "c", "ϳ": "j",
        # Latin: I, i, l and 1 read alike
        "i": "l", "ı": "l",
    }
)  # fmt: skip

# Digits that pass for letters inside a word ("B0t", "Gue5t", "6от"); outside a reserved
# word a digit is a number, which ends the word ("bot5" is "bot" and 5).
_DIGIT_LETTERS: dict[str, frozenset[str]] = {
    "0": frozenset("o"),
    "1": frozenset("l"),
    "2": frozenset("z"),
    "3": frozenset("eз"),
    "4": frozenset("aч"),
    "5": frozenset("s"),
    "6": frozenset("bб"),
    "7": frozenset("t"),
    "8": frozenset("b"),
    "9": frozenset("g"),
}

RESERVED_WORDS: tuple[str, ...] = (
    # bots ("bot 3" is how the server names a bot's seat) and guests ("guest-1a2b3c")
    "bot", "бот", "guest", "гость",
    # the house of the chip ledger, and the server itself
    "house", "casino", "казино", "kozyr", "козырь", "server", "сервер",
    "system", "система", "admin", "админ", "administrator", "администратор",
    "moderator", "модератор",
)  # fmt: skip
"""Words a person's name may not hold as a word of its own (see :func:`reserved_word`)."""

DELETED_NAMES: tuple[str, ...] = ("deleted", "удалён", "удален")
"""What a deleted account shows as (``kozyr.server.profiles.DELETED``, which the page
writes in its language), with and without the ё: no person's name may read as one of
them (:func:`kozyr.server.accounts.auth.check_name` compares skeletons)."""


def _reserved_letters(text: str) -> str:
    return text.casefold().translate(_RESERVED_FOLD)


_RESERVED_KEYS = tuple((_reserved_letters(w), w) for w in RESERVED_WORDS)


def reserved_word(name: str) -> str | None:
    """The reserved word a name reads as holding, or None: a bot, a guest or the system.

    The name is folded as a reader sees it: NFKC, case, look-alike letters of the Latin,
    Cyrillic and Greek alphabets, and digits that stand for letters (0 for o, 1 for l,
    3 for e, 5 for s...). Separators (spaces, dots, dashes, underscores) are skipped. A
    reserved word counts where it stands as a word of its own: at the start of the name
    or after a separator or a digit, and at the end or before one ("bot 5", "Bot_1",
    "B0t5", "Chess Bot", "guest1a2b3c"), not inside a longer word ("Botvinnik",
    "Abbot", "Robot Fan").

    >>> reserved_word("B0t 5"), reserved_word("Guеst"), reserved_word("ВОТ")  # Cyrillic е, В О Т
    ('bot', 'guest', 'bot')
    >>> reserved_word("Botvinnik"), reserved_word("Abbot"), reserved_word("Ольга")
    (None, None, None)
    """
    chars: list[str] = []
    digit: list[bool] = []
    gap_before: list[bool] = []
    gap = False
    for c in normalise(name):
        if not c.isalnum():
            gap = True
            continue
        is_digit = c.isdigit()
        # a letter may casefold to several ("ß" to "ss"): each of them
        for part in c if is_digit else _reserved_letters(c):
            chars.append(part)
            digit.append(is_digit)
            gap_before.append(gap)
            gap = False
    n = len(chars)

    def same(i: int, letter: str) -> bool:
        c = chars[i]
        return c == letter or (digit[i] and letter in _DIGIT_LETTERS.get(c, ()))

    for start in range(n):
        # a word starts the name, or follows a separator or a number
        if not (start == 0 or gap_before[start] or digit[start - 1]):
            continue
        for key, word in _RESERVED_KEYS:
            end = start + len(key)
            if end > n or not all(same(start + k, letter) for k, letter in enumerate(key)):
                continue
            # ...and ends it, or comes before a separator or a number
            if end == n or gap_before[end] or digit[end]:
                return word
    return None
