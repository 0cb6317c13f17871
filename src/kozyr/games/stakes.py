"""Stakes "by prior agreement" (B5): the terms a table is opened with, the most a seat can
lose under them, and what each seat receives or pays when the game is over.

"The winner collects from the losers according to a prior agreement", says the seed.
Every settlement here sums to zero over the seats, and no seat ever pays more than
:func:`max_loss`, so what is held in escrow at the start always covers it. Pure
arithmetic: no I/O, no chips moved.

>>> terms = StakeTerms.from_json({"kind": "per_place", "chips": 5}, "emperor")
>>> settle_emperor(terms, [30, 41, 12, 41])
[-5, 10, -15, 10]
>>> max_loss(terms, players=4, target=None)
15
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "KINDS",
    "MAX_CHIPS",
    "StakeError",
    "StakeTerms",
    "max_loss",
    "settle_emperor",
    "settle_imperial",
]

KINDS: dict[str, tuple[str, ...]] = {
    "imperial": ("per_game", "per_imperial"),
    "emperor": ("per_place", "per_trick"),
}
MAX_CHIPS = 1_000_000
"""The largest stake unit a table may be opened with."""
PAIR_CAP = 10
"""Emperor ``per_trick``: at most this many stake units change hands between two players."""
PLACE_UNITS = {4: (3, 1, -1, -3), 3: (2, 0, -2)}
"""Emperor ``per_place``: stake units by final place, first to last."""


class StakeError(ValueError):
    """Stake terms that cannot be agreed; ``code`` names the problem for the protocol."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class StakeTerms:
    kind: str
    chips: int
    """S, the stake unit, in whole chips (1 to :data:`MAX_CHIPS`)."""

    @classmethod
    def from_json(cls, data: Any, game: str) -> StakeTerms:
        """Checks terms sent by a client for ``game``; :class:`StakeError` names the fault.

        >>> StakeTerms.from_json({"kind": "per_trick", "chips": 2}, "imperial")
        Traceback (most recent call last):
        ...
        kozyr.games.stakes.StakeError: per_trick is a stake of Emperor, not of Imperial
        """
        if not isinstance(data, dict):
            raise StakeError("bad_stake", 'stake terms are an object: {"kind": ..., "chips": S}')
        unknown = set(data) - {"kind", "chips"}
        if unknown:
            raise StakeError("bad_stake", f"unknown stake field {sorted(unknown)[0]!r}")
        kind, chips = data.get("kind"), data.get("chips")
        if kind not in KINDS.get(game, ()):
            other = next((g for g, kinds in KINDS.items() if kind in kinds), None)
            if other is not None:
                raise StakeError(
                    "stake_wrong_game",
                    f"{kind} is a stake of {other.title()}, not of {game.title()}",
                )
            known = ", ".join(KINDS.get(game, ()))
            raise StakeError("bad_stake_kind", f"stake kind must be one of {known}, not {kind!r}")
        if isinstance(chips, bool) or not isinstance(chips, int):
            raise StakeError("bad_stake_chips", f"chips must be a whole number, not {chips!r}")
        if not 1 <= chips <= MAX_CHIPS:
            raise StakeError("bad_stake_chips", f"chips must be 1 to {MAX_CHIPS:,}, not {chips}")
        return cls(kind, chips)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "chips": self.chips}


def max_loss(terms: StakeTerms, players: int, target: int | None) -> int:
    """The most one seat can lose (held in escrow from the start of the game).

    Imperial ``per_imperial`` needs the game's ``target`` (a loser with no marked imperial
    pays S x target); Emperor ``per_trick`` is capped at 10 S against each other player.
    """
    s = terms.chips
    if terms.kind == "per_game":
        return s
    if terms.kind == "per_imperial":
        if target is None:
            raise ValueError("per_imperial stakes need the game's target")
        return s * target
    if terms.kind == "per_place":
        return -min(PLACE_UNITS[players]) * s
    if terms.kind == "per_trick":
        return (players - 1) * PAIR_CAP * s
    raise ValueError(f"unknown stake kind {terms.kind!r}")


def settle_imperial(terms: StakeTerms, winner: int, imperials: list[int], target: int) -> list[int]:
    """Chips each seat receives (negative: pays) at the end of an Imperial game.

    >>> settle_imperial(StakeTerms("per_game", 10), 1, [2, 5, 0], 5)
    [-10, 20, -10]
    >>> settle_imperial(StakeTerms("per_imperial", 10), 1, [2, 5, 0], 5)
    [-30, 80, -50]
    """
    n = len(imperials)
    out = [0] * n
    for seat in range(n):
        if seat == winner:
            continue
        if terms.kind == "per_game":
            owed = terms.chips
        elif terms.kind == "per_imperial":
            owed = terms.chips * max(0, target - imperials[seat])
        else:
            raise ValueError(f"{terms.kind} is not an Imperial stake")
        out[seat] -= owed
        out[winner] += owed
    return out


def settle_emperor(terms: StakeTerms, totals: list[int]) -> list[int]:
    """Chips each seat receives (negative: pays) at the end of an Emperor game, from the
    final game totals (E12). Tied totals share their places' sum equally, a remainder one
    chip at a time to the earlier places (B5).

    >>> settle_emperor(StakeTerms("per_trick", 1), [40, 30, 35, 25])
    [25, -10, 10, -25]
    """
    n = len(totals)
    s = terms.chips
    out = [0] * n
    if terms.kind == "per_trick":
        for a in range(n):
            for b in range(a + 1, n):
                diff = min(abs(totals[a] - totals[b]), PAIR_CAP)
                if totals[a] > totals[b]:
                    out[a] += diff * s
                    out[b] -= diff * s
                elif totals[b] > totals[a]:
                    out[b] += diff * s
                    out[a] -= diff * s
        return out
    if terms.kind != "per_place":
        raise ValueError(f"{terms.kind} is not an Emperor stake")
    units = PLACE_UNITS[n]
    order = sorted(range(n), key=lambda seat: -totals[seat])
    place = 0
    while place < n:
        group = [seat for seat in order if totals[seat] == totals[order[place]]]
        share = sum(units[place : place + len(group)]) * s
        base, rest = divmod(share, len(group))
        # Seats in a tie are listed by seat number; "earlier place" goes to the lower seat.
        for k, seat in enumerate(sorted(group)):
            out[seat] = base + (1 if k < rest else 0)
        place += len(group)
    return out
