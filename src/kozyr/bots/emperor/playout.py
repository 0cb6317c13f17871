"""A light simulator of the card play of one Emperor round, for playouts.

The engine is exact but keeps events, texts and knowledge the playouts never need; this
simulator keeps only hands, the trick and the counts, and plays to the end of the round
with :func:`kozyr.bots.emperor.cardplay.choose_card`. The value of the finished round
for a seat (tricks, the title it earns, E6) is in :func:`round_value`.
"""

from __future__ import annotations

from collections.abc import Sequence

from kozyr.games.emperor import EmperorObservation, EmperorState
from kozyr.games.emperor.titles import final_order, title_order
from kozyr.games.tricks import ABOVE_NATURAL, NO_TRUMP, legal_cards, shown_voids, trick_winner

from .cardplay import choose_card

NT = NO_TRUMP

__all__ = ["Sim", "title_value"]

HAND = 13

# TITLE_VALUE[n][rank]: tricks a title is worth in the next round beyond the mean
# (heuristic self-play, 40 games each, rounds 2-10: 4 players 5.34 / 2.89 / 2.59 / 2.18
# tricks by title, 3 players 5.70 / 3.44 / 3.85): the King picks first, names trump and
# leads every trick (E7, E9, E10); the Jester at least plays last.
TITLE_VALUE: dict[int, tuple[float, ...]] = {
    4: (2.1, -0.35, -0.65, -1.1),
    3: (1.4, -0.9, -0.5),
}


def title_value(players: int, rank: int) -> float:
    return TITLE_VALUE[players][rank]


class Sim:
    """The rest of one round's play. ``order`` is the fixed play order of rounds 2-10
    (E10) or None in round 1, where each trick's winner leads (E5)."""

    __slots__ = (
        "cur",
        "first",
        "gone",
        "hands",
        "n",
        "order",
        "previous",
        "seq",
        "trick_no",
        "tricks",
        "trump",
        "voids",
    )

    def __init__(
        self,
        hands: list[int],
        trump: int,
        order: tuple[int, ...] | None,
        seq: tuple[int, ...],
        cur: list[int],
        gone: int,
        voids: list[int],
        tricks: list[int],
        first: list[int],
        trick_no: int,
        previous: tuple[int, ...],
    ) -> None:
        self.n = len(hands)
        self.hands = hands
        self.trump = trump
        self.order = order
        self.seq = seq
        self.cur = cur
        self.gone = gone
        self.voids = voids
        self.tricks = tricks
        self.first = first
        self.trick_no = trick_no
        self.previous = previous

    @classmethod
    def from_observation(cls, obs: EmperorObservation, hands: Sequence[int]) -> Sim:
        """The play as ``obs`` sees it, with ``hands`` as everyone's cards (a sample)."""
        n = obs.players
        seq = obs.play_order
        cur = [c for _, c in obs.trick]
        gone = 0
        for m in obs.played:
            gone |= m
        order = None if obs.round == 1 or obs.title_order is None else tuple(obs.title_order)
        if obs.title_order is None:
            previous = tuple((obs.first_leader + i) % n for i in range(n))
        else:
            previous = tuple(obs.title_order)
        return cls(
            list(hands),
            NT if obs.trump is None else obs.trump,
            order,
            seq,
            cur,
            gone,
            list(obs.voids),
            list(obs.tricks),
            list(obs.first_trick),
            obs.trick_number,
            previous,
        )

    @classmethod
    def from_state(cls, state: EmperorState) -> Sim:
        """The play of a state that has just entered the play phase of rounds 2-10
        (after the exchange and the trump, nothing played yet)."""
        order = state.title_order
        assert order is not None
        t = state.trump
        n = state.players
        return cls(
            state.hands,
            NT if t is None else t,
            tuple(order),
            tuple(order),
            [],
            0,
            [0] * n,
            [0] * n,
            [0] * n,
            1,
            tuple(order),
        )

    @property
    def to_act(self) -> int:
        return self.seq[len(self.cur)]

    def legal(self) -> list[int]:
        return legal_cards(
            self.hands[self.to_act], self.cur[0] // 13 if self.cur else -1, self.trump
        )

    def policy(self) -> int:
        """The heuristic's card for the seat to act, from what that seat may know."""
        k = len(self.cur)
        seat = self.seq[k]
        hand = self.hands[seat]
        legal = legal_cards(hand, self.cur[0] // 13 if k else -1, self.trump)
        if len(legal) == 1:
            return legal[0]
        sizes = [h.bit_count() for h in self.hands]
        return choose_card(
            hand, legal, self.cur, self.trump, self.gone, self.voids, self.seq[k + 1 :], sizes
        )

    def play(self, card: int) -> None:
        k = len(self.cur)
        seat = self.seq[k]
        if k:
            self.voids[seat] |= shown_voids(card, self.cur[0] // 13, self.trump)
        self.hands[seat] &= ~(1 << card)
        self.gone |= 1 << card
        self.cur.append(card)
        if k + 1 == self.n:
            self._end_trick()

    def _end_trick(self) -> None:
        w = self.seq[trick_winner(self.cur, self.trump, ABOVE_NATURAL)]
        self.tricks[w] += 1
        if not self.first[w]:
            self.first[w] = self.trick_no
        self.trick_no += 1
        self.cur = []
        if self.order is None:
            n = self.n
            self.seq = tuple((w + i) % n for i in range(n))  # E5: the winner leads

    @property
    def done(self) -> bool:
        return self.trick_no > HAND

    def run(self) -> None:
        while self.trick_no <= HAND:
            self.play(self.policy())

    def value(
        self,
        seat: int,
        round_no: int,
        rounds: int,
        totals: Sequence[int],
    ) -> float:
        """The finished round's worth to ``seat``: its tricks, the value of the title
        they earn for the next round (E6), and in the last round a bonus for the final
        standing (E12). ``totals``: game totals before this round's tricks."""
        order = title_order(self.tricks, self.first, self.previous)
        n = self.n
        v = float(self.tricks[seat])
        rank = order.index(seat)
        if round_no < rounds:
            return v + TITLE_VALUE[n][rank]
        final = [totals[s] + self.tricks[s] for s in range(n)]
        standing = final_order(final, order)
        return v + FINAL_BONUS[n][standing.index(seat)]


# Last round: being Emperor is the point of the game (E12); the places below matter less.
FINAL_BONUS: dict[int, tuple[float, ...]] = {4: (3.0, 1.0, 0.3, 0.0), 3: (3.0, 0.8, 0.0)}
