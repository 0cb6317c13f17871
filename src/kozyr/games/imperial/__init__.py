"""Imperial: the exact rules engine (rulings I1-I13 in docs/rulings.md).

>>> from kozyr.games.imperial import ImperialOptions, ImperialState
>>> state = ImperialState.new(ImperialOptions(players=3), seed=7)
>>> state.players, state.deal_number, [h.bit_count() for h in state.hands]
(3, 1, [12, 12, 12])
>>> state.play(state.action_text(state.legal_actions()[0]))
>>> state.events[-1]["type"]
'play'
"""

from .deal import HAND_SIZE, ImperialDeal, draw_first_dealer, seeded_deal
from .declarations import Imperial, find_imperials, honour_mask, is_white, point_of
from .observation import ImperialObservation
from .options import ImperialOptions
from .state import IMPERIAL_POINTS, ImperialState

__all__ = [
    "HAND_SIZE",
    "IMPERIAL_POINTS",
    "Imperial",
    "ImperialDeal",
    "ImperialObservation",
    "ImperialOptions",
    "ImperialState",
    "draw_first_dealer",
    "find_imperials",
    "honour_mask",
    "is_white",
    "point_of",
    "seeded_deal",
]
