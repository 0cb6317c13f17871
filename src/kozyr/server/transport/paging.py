"""A page a client asks for: ``offset`` and ``limit`` as whole numbers within bounds,
from an HTTP query string (text) or a WebSocket ``lobby`` frame (JSON).

It lives in ``transport`` so that the lobby's HTTP route and the frame parser
(``frames.py``) read a page the same way, the frame parser without knowing the lobby.

>>> page_bounds(None, "20"), page_bounds("", 1)
((0, 20), (0, 1))
>>> page_bounds(-1, None)
Traceback (most recent call last):
...
kozyr.server.transport.protocol.ProtocolError: offset must be a whole number 0-1000000000.
"""

from __future__ import annotations

from typing import Any

from kozyr.server.transport.protocol import ProtocolError

PAGE = 50
"""Tables in a lobby page unless the client asks for fewer (or more, up to MAX_PAGE)."""
MAX_PAGE = 100
MAX_OFFSET = 1_000_000_000


def as_number(value: Any, default: int) -> Any:
    """``value`` with the spellings a query string allows made numbers: absent (None) or
    empty is ``default``, ASCII digits (at most 10) their number; anything else is left
    as it is, for the caller's check to refuse unless it is a whole number.

    >>> as_number(None, 7), as_number("", 7), as_number("012", 7), as_number("١٢", 7)
    (7, 7, 12, '١٢')
    """
    if value is None or value == "":
        return default
    # str.isdigit also takes other scripts' digits and superscripts: ASCII only
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 10:
        return int(value)
    return value


def page_error(name: str, low: int, high: int) -> ProtocolError:
    return ProtocolError("bad_request", f"{name} must be a whole number {low}-{high}.")


def whole(value: Any, name: str, default: int, low: int, high: int) -> int:
    """A whole number ``low``-``high`` (a bool is not one), else 400 ``bad_request``."""
    value = as_number(value, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise page_error(name, low, high)
    return value


def page_bounds(offset: Any, limit: Any) -> tuple[int, int]:
    """A lobby page's ``offset`` and ``limit`` from a query string."""
    return whole(offset, "offset", 0, 0, MAX_OFFSET), whole(limit, "limit", PAGE, 1, MAX_PAGE)
