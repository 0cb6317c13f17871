"""Emperor action ids and their text forms (fixed by docs/engine-api.md).

Cards 0..51; ``swap N`` 52+N; ``pass`` 56; ``offer K`` 56+K; ``accept`` 60; ``refuse`` 61;
``yield`` 62; ``trump S/H/D/C`` 63..66; ``trump NT`` 67.
"""

from __future__ import annotations

import re

from kozyr.cards import CardError, card_name, parse_card, parse_suit
from kozyr.games.base import IllegalAction

__all__ = [
    "ACCEPT",
    "ACTION_TEXT",
    "NUM_ACTIONS",
    "OFFER",
    "PASS",
    "REFUSE",
    "SWAP",
    "TRUMP",
    "TRUMP_NT",
    "YIELD",
    "action_text",
    "parse_action",
]

SWAP = 52  # + target seat
PASS = 56
OFFER = 56  # + tricks offered (1..3)
ACCEPT = 60
REFUSE = 61
YIELD = 62
TRUMP = 63  # + suit (0..3)
TRUMP_NT = 67
NUM_ACTIONS = 68

NT = 4
"""The engine's internal "suit" for no trumps (E9)."""

ACTION_TEXT: tuple[str, ...] = (
    tuple(card_name(c) for c in range(52))
    + tuple(f"swap {n}" for n in range(4))
    + ("pass",)
    + tuple(f"offer {k}" for k in range(1, 4))
    + ("accept", "refuse", "yield")
    + tuple(f"trump {s}" for s in "SHDC")
    + ("trump NT",)
)

_WORDS = {"pass": PASS, "accept": ACCEPT, "refuse": REFUSE, "yield": YIELD}
_NO_TRUMPS = {"nt", "notrump", "notrumps", "no trump", "no trumps", "бк", "без козыря"}
_VERB = re.compile(r"^(swap|offer|trump)\s*(.*)$")


def action_text(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        raise IllegalAction("not_an_action", {"action": action}, "E1")
    return ACTION_TEXT[action]


def parse_action(text: str, players: int) -> int:
    """Reads an action's text form, leniently (case, spaces, any card notation that
    :func:`kozyr.cards.parse_card` reads, suit symbols for trump). Whether the action is
    legal now is for ``apply`` to say."""
    t = " ".join(text.strip().lower().split())
    if t in _WORDS:
        return _WORDS[t]
    m = _VERB.match(t)
    if m is not None:
        verb, arg = m.group(1), m.group(2).strip()
        if verb == "swap":
            if not arg.isdigit() or int(arg) >= players:
                raise IllegalAction(
                    "bad_swap_text", {"text": text.strip(), "max": players - 1}, "E7"
                )
            return SWAP + int(arg)
        if verb == "offer":
            if not arg.isdigit() or not 1 <= int(arg) <= 3:
                raise IllegalAction("bad_offer_text", {"text": text.strip()}, "E8")
            return OFFER + int(arg)
        if arg in _NO_TRUMPS:
            return TRUMP_NT
        try:
            return TRUMP + int(parse_suit(arg))
        except CardError:
            raise IllegalAction("bad_trump_text", {"text": text.strip()}, "E9") from None
    return parse_card(t)
