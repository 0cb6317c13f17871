"""What a client shows of Emperor without knowing its rules: the facts of
:meth:`kozyr.games.Game.facts` that belong to this game alone."""

from __future__ import annotations

from kozyr.cards import DECK_52, RANKS

__all__ = ["DECISION_KINDS", "GUIDE_DECK", "PANELS", "RANK_ORDER", "SCORE_COLUMNS", "UNIT"]

RANK_ORDER: tuple[int, ...] = tuple(reversed(RANKS))
"""Ranks high to low within a suit: ace high, A K Q J 10 ... 2 (E1)."""
UNIT = "round"
"""What one hand of the game is called: Emperor plays a fixed number of rounds."""
SCORE_COLUMNS = ("title", "this_round", "total")
"""The score table's columns after the player's name (the page's message keys)."""
DECISION_KINDS = ("exchange", "bargain", "trump")
"""Phases in which a player chooses something other than a card: the exchange of hands
(E7), the bargain (E8) and the King naming trumps (E9)."""
PANELS = ("titles", "decision", "known")
"""What the table shows for this game only: the seats' titles, the decision panel of the
exchange, bargain and trumps, and the cards an exchange made known."""
GUIDE_DECK: int = DECK_52
"""The cards the how-to-play page (``guide/``) may draw: the whole deck (E1)."""
