r"""Parsing untrusted JSON (WebSocket frames, HTTP bodies, uploaded records) without
letting its shape hurt the server.

Python's ``json`` recurses once per nesting level, so 5,000 nested brackets raise
RecursionError deep inside the parser; and nothing the protocol sends is nested more than
a few levels. The depth is therefore measured before parsing, by a scan that skips string
contents (a bracket inside a string does not nest).

>>> parse_json('{"a": [1, {"b": "[[[["}]}')
{'a': [1, {'b': '[[[['}]}
>>> parse_json('[' * 100 + ']' * 100)
Traceback (most recent call last):
...
kozyr.server.transport.jsonsafe.BadJson: the JSON is nested more than 32 levels deep
>>> parse_json('{"a": ')
Traceback (most recent call last):
...
kozyr.server.transport.jsonsafe.BadJson: not JSON: Expecting value at line 1 column 7

JSON may spell half of a UTF-16 surrogate pair on its own (``"\ud800"``): that parses to a
Python string no UTF-8 text can hold, which would fail the moment it is echoed back (an
error frame's ``id``, a ``pong``'s ``t``). Such a string, as a key or a value anywhere in
the document, is refused here, in the one place every frame, body and record is parsed:

>>> parse_json('{"type": "ping", "t": ["ok", {"x": "\\ud800"}]}')
Traceback (most recent call last):
...
kozyr.server.transport.jsonsafe.BadText: t[1].x: not Unicode text (a lone surrogate)
>>> parse_json('{"t": "\\ud83d\\ude00"}')  # a whole pair is one character
{'t': '😀'}
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 32
"""Deeper than any frame, body or record kozyr writes (records are about 5 levels)."""

# A JSON string (with escapes) or one bracket; strings are matched whole so that the
# brackets inside them are skipped.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


_SURROGATE = re.compile("[\ud800-\udfff]")


class BadJson(ValueError):
    """Text that is not JSON, or JSON nested deeper than allowed; the message says which."""


class BadText(BadJson):
    """JSON with a string (key or value) that is not Unicode text: a lone surrogate.

    ``path`` leads to it from the top (keys and list indexes; the last key is left out
    when the key itself is the bad string), ``where`` is that path as text (``t[1].x``)."""

    def __init__(self, path: list[str | int]) -> None:
        self.path = path
        self.where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        self.where = self.where.removeprefix(".")
        super().__init__(f"{self.where or 'the text'}: not Unicode text (a lone surrogate)")


def bad_text_path(value: Any) -> list[str | int] | None:
    """The path to the first string in ``value`` (a key or a value, at any depth) that
    holds a surrogate, so cannot be written as UTF-8; None when there is none.

    >>> bad_text_path({"a": [1, "ok", "\\ud800"]}), bad_text_path({"\\udfff": 1})
    (['a', 2], [])
    >>> bad_text_path({"a": ["fine"], "b": None}) is None
    True
    """
    if isinstance(value, str):
        return [] if _SURROGATE.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) and _SURROGATE.search(key):
                return []
            found = bad_text_path(item)
            if found is not None:
                return [key, *found]
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = bad_text_path(item)
            if found is not None:
                return [i, *found]
    return None


def json_depth(text: str) -> int:
    """The deepest bracket nesting of ``text``, ignoring brackets inside strings.

    >>> json_depth('[1, [2, [3]], {"x": "]]]"}]')
    3
    """
    depth = deepest = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in ("]", "}"):
            depth -= 1
    return deepest


def parse_json(raw: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` for untrusted input: refuses invalid UTF-8, invalid JSON, JSON
    nested more than ``max_depth`` levels (all with :class:`BadJson`) and strings that
    are not Unicode text (:class:`BadText`, a kind of BadJson)."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise BadJson(f"not UTF-8 text at byte {e.start}") from e
    # Only text with more opening brackets than the bound can nest past it: counting
    # them (in C) spares almost every frame the scan.
    if raw.count("[") + raw.count("{") > max_depth and json_depth(raw) > max_depth:
        raise BadJson(f"the JSON is nested more than {max_depth} levels deep")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as e:
        raise BadJson(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from e
    except ValueError as e:  # an integer of more than 4,300 digits (int_max_str_digits)
        raise BadJson(f"not JSON: {e}") from e
    except RecursionError as e:  # cannot happen below MAX_DEPTH; kept as a last guard
        raise BadJson("the JSON is nested too deeply") from e
    # A surrogate comes only from a \u escape (decoded UTF-8 holds none), unless the text
    # was handed over with one already: most frames skip the walk.
    if "\\u" in raw or (not raw.isascii() and _SURROGATE.search(raw)):
        path = bad_text_path(value)
        if path is not None:
            raise BadText(path)
    return value
