"""What a client shows of Imperial without knowing its rules: the facts of
:meth:`kozyr.games.Game.facts` that belong to this game alone."""

from __future__ import annotations

from kozyr.cards import DECK_36
from kozyr.games.imperial.card_tables import RANK_ORDER

__all__ = ["DECISION_KINDS", "GUIDE_DECK", "PANELS", "RANK_ORDER", "SCORE_COLUMNS", "UNIT"]

UNIT = "deal"
"""What one hand of the game is called: Imperial plays deals to a target."""
SCORE_COLUMNS = ("imperials", "points", "tricks")
"""The score table's columns after the player's name (the page's message keys)."""
DECISION_KINDS: tuple[str, ...] = ()
"""Phases in which a player chooses something other than a card: none (I7)."""
PANELS = ("dealer", "turnup", "target")
"""What the table shows for this game only: the dealer's badge (I5), the turned-up card
beside the stock (I5), the target in imperials (I12)."""
GUIDE_DECK: int = DECK_36
"""The cards the how-to-play page (``guide/``) may draw: the 36 of three players, the 32
of two among them (I1)."""
