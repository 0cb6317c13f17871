"""What a person typed, made fit to keep and show: NFC-normalised, without control or
format characters, at most :data:`MAX_CHARS` characters.

Removed: every character of Unicode category Cc (controls) and Cf (format: bidi
overrides, zero-width spaces, soft hyphens...), except the zero-width joiner and
non-joiner, which emoji sequences and some scripts (Persian, Indic) need. A control that
is white space (a line break, a tab) becomes a space, so that two lines do not run into
one word; spaces at either end are dropped. The limit is on the cleaned text.

>>> clean("  Cafe\\u0301\\nok\\u202e!  ")
'Café ok!'
>>> clean("\\U0001f469\\u200d\\U0001f4bb")  # a ZWJ emoji sequence stays whole
'👩\\u200d💻'
>>> clean("\\u0000\\u200b")
''
"""

from __future__ import annotations

import unicodedata

MAX_CHARS = 200
"""The longest line of talk, in characters after cleaning."""

JOINERS = "\u200c\u200d"
"""The zero-width non-joiner and joiner: the format characters kept."""
_KEPT_FORMAT = frozenset(JOINERS)


def _kept(char: str) -> str:
    category = unicodedata.category(char)
    if category == "Cc":
        return " " if char.isspace() else ""
    if category == "Cf" and char not in _KEPT_FORMAT:
        return ""
    return char


def clean(text: str) -> str:
    """``text`` NFC-normalised, controls and format characters out (see above), trimmed."""
    normal = unicodedata.normalize("NFC", text)
    return "".join(_kept(c) for c in normal).strip()
