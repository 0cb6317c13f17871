"""Emperor: the rules engine (rulings E1-E12 in docs/rulings.md, players' and
developers' rules in docs/rules-emperor.md).

>>> from kozyr.cards import parse_cards
>>> state = EmperorState.new(EmperorOptions(players=4), seed=7)
>>> state.round, state.phase, state.to_act is not None
(1, 'play', True)
>>> state.action_text(52 + 3), state.parse_action("Trump ♥"), state.parse_action("10h")
('swap 3', 64, 21)
"""

from .actions import (
    ACCEPT,
    ACTION_TEXT,
    NUM_ACTIONS,
    OFFER,
    PASS,
    REFUSE,
    SWAP,
    TRUMP,
    TRUMP_NT,
    YIELD,
)
from .deal import EmperorDeal, default_join_order, seeded_deal
from .observation import EmperorObservation, Offer, SwapRecord
from .options import EmperorOptions
from .state import EmperorState
from .titles import FINAL_NAMES, TITLE_NAMES

__all__ = [
    "ACCEPT",
    "ACTION_TEXT",
    "FINAL_NAMES",
    "NUM_ACTIONS",
    "OFFER",
    "PASS",
    "REFUSE",
    "SWAP",
    "TITLE_NAMES",
    "TRUMP",
    "TRUMP_NT",
    "YIELD",
    "EmperorDeal",
    "EmperorObservation",
    "EmperorOptions",
    "EmperorState",
    "Offer",
    "SwapRecord",
    "default_join_order",
    "seeded_deal",
]
