"""Parsing untrusted JSON (WebSocket frames, HTTP bodies, uploaded records) without
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
kozyr.server.jsonsafe.BadJson: the JSON is nested more than 32 levels deep
>>> parse_json('{"a": ')
Traceback (most recent call last):
...
kozyr.server.jsonsafe.BadJson: not JSON: Expecting value at line 1 column 7
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


class BadJson(ValueError):
    """Text that is not JSON, or JSON nested deeper than allowed; the message says which."""


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
    """``json.loads`` for untrusted input: refuses invalid UTF-8, invalid JSON and JSON
    nested more than ``max_depth`` levels, always with :class:`BadJson`."""
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
        return json.loads(raw)
    except json.JSONDecodeError as e:
        raise BadJson(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from e
    except ValueError as e:  # an integer of more than 4,300 digits (int_max_str_digits)
        raise BadJson(f"not JSON: {e}") from e
    except RecursionError as e:  # cannot happen below MAX_DEPTH; kept as a last guard
        raise BadJson("the JSON is nested too deeply") from e
