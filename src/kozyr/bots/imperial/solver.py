"""A double-dummy solver for two-player Imperial card play: the exact value of every
legal card when both hands are known and both players play their best to the end of the
deal.

It is the evaluation of the strongest level (:mod:`.levels`): in each world the search
samples, the solver plays the rest of the deal perfectly for both sides, where the other
levels play it with the heuristic. The value is the observer's play points minus the
opponent's from here to the end of the deal (I8 honours led or heading a trick, I9 a tombé
as 24 points an imperial, I10 the tricks bonus or capot), times :data:`POINT`, plus the
tricks won minus lost as a tie-break (so that cards scoring the same are still told apart).
The score sheet (wipes, the game's end) is left to the caller.

Alpha-beta on whole tricks with a transposition table; cards that play the same (adjacent
in order once the cards out of both hands are skipped, none of them an honour or the trump
ace, I4, I9) are searched once.

>>> from kozyr.cards import Suit, parse_card, parse_cards
>>> from kozyr.games.imperial import ImperialOptions
>>> s = Solver(trump=Suit.CLUBS, options=ImperialOptions())
>>> # Two tricks left, five won each; seat 0 leads from KC JC against AC 7H. Either way
>>> # he leads two honours (4 points each, I8) and wins both tricks: 7 tricks, so the
>>> # tricks bonus too (I10): 12 points and 2 tricks more than seat 1, 12 * 32 + 2.
>>> v = s.root_values(int(parse_cards("KC JC")), int(parse_cards("AC 7H")), 0, 0, None, 5, 5, 0, 0)
>>> v[parse_card("KC")], v[parse_card("JC")]
(386, 386)
"""

from __future__ import annotations

from kozyr.cards import SUIT_MASKS, SUIT_OF
from kozyr.games.imperial import IMPERIAL_POINTS, ImperialOptions, ImperialState, honour_mask
from kozyr.games.imperial.card_tables import ABOVE, STRENGTH, low_rank_for
from kozyr.games.tricks import TRUMP_MASKS, beaters

__all__ = ["POINT", "Solver", "solve_state"]

POINT = 32
"""The weight of one play point: above any difference in tricks (at most 12 either way)."""
_TRICKS = 12
_HONOUR = 4
_EXACT, _LOWER, _UPPER = 0, 1, 2
_INF = 1 << 30

# Each suit's cards from the highest to the lowest in play (I2).
_ORDER: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sorted(
            (c for c in range(13 * s, 13 * s + 13) if STRENGTH[c] > 0), key=lambda c: -STRENGTH[c]
        )
    )
    for s in range(4)
)


class Solver:
    """The double-dummy solver of one deal's trump and options (two players)."""

    def __init__(self, trump: int, options: ImperialOptions) -> None:
        if options.players != 2:
            raise ValueError("the double-dummy solver plays two-player Imperial only")
        self.trump = trump
        self.honours = honour_mask(trump, low_rank_for(2))
        base = 13 * trump
        # I9: the trump K or Q capture the trump J and A.
        self.captors = (1 << (base + 11)) | (1 << (base + 10))
        self.prizes = (1 << (base + 9)) | (1 << (base + 12))
        self.tombe = IMPERIAL_POINTS * options.tombe_value
        self.over = options.trick_bonus_over
        self.must_head = options.must_head
        # Cards that score or capture never stand in for another (I4, I8, I9).
        self.special = self.honours | self.prizes
        # position -> (value, which bound it is, the leader's best card found there)
        self.table: dict[tuple[int, int, int, int, int, int], tuple[int, int, int]] = {}
        self._run_memo: dict[tuple[int, int], list[int]] = {}
        self._answer_memo: dict[tuple[int, int, int], list[int]] = {}
        self.nodes = 0

    # -------------------------------------------------------------- moves

    def _runs(self, mask: int, rem: int) -> list[int]:
        """One card of each run of ``mask`` (cards adjacent in order among ``rem``)."""
        key = (mask, rem)
        hit = self._run_memo.get(key)
        if hit is not None:
            return hit
        out: list[int] = []
        special = self.special
        for s in range(4):
            if not mask & SUIT_MASKS[s]:
                continue
            joined = False
            for c in _ORDER[s]:
                b = 1 << c
                if not rem & b:
                    continue
                if mask & b:
                    if joined and not special & b:
                        continue
                    out.append(c)
                    joined = not special & b
                else:
                    joined = False
        self._run_memo[key] = out
        return out

    def _answers(self, hand: int, a: int, rem: int) -> list[int]:
        """The follower's cards worth trying against ``a``: the cheapest that wins first
        (it most often is the best), then the others that win, then those that lose from
        the lowest (alpha-beta cuts more when the best comes early)."""
        key = (hand, a, rem)
        hit = self._answer_memo.get(key)
        if hit is not None:
            return hit
        runs = self._runs(self._follows(hand, a), rem)
        beat = beaters(a, self.trump, ABOVE)
        wins = [b for b in runs if beat >> b & 1]
        loses = [b for b in runs if not beat >> b & 1]
        wins.sort(key=STRENGTH.__getitem__)
        loses.sort(key=STRENGTH.__getitem__)
        out = self._answer_memo[key] = wins + loses
        return out

    def _follows(self, hand: int, a: int) -> int:
        led = SUIT_OF[a]
        legal = hand & SUIT_MASKS[led] or hand & TRUMP_MASKS[self.trump] or hand
        if self.must_head:
            beat = legal & beaters(a, self.trump, ABOVE)
            if beat:
                return beat
        return legal

    # -------------------------------------------------------------- values

    def _end(self, t0: int) -> int:
        """I10's bonus, seat 0 minus seat 1, when the twelfth trick is done."""

        def bonus(t: int) -> int:
            return 8 if t == _TRICKS else 4 if t > self.over else 0

        return POINT * (bonus(t0) - bonus(_TRICKS - t0))

    def _trick(self, a: int, b: int) -> tuple[bool, int, int]:
        """A trick of ``a`` led and ``b`` followed: (the leader won it, the I8 points to
        the leader minus the follower's, the trump J or A its winner captures or 0)."""
        honours = self.honours
        points = _HONOUR if honours >> a & 1 else 0
        if beaters(a, self.trump, ABOVE) >> b & 1:
            if honours >> b & 1:
                points -= _HONOUR
            won, best, prize = False, b, a
        else:
            won, best, prize = True, a, b
        if self.captors >> best & 1 and self.prizes >> prize & 1:
            return won, points, 1 << prize
        return won, points, 0

    def _capture(self, caps: int, prize: int) -> tuple[int, int]:
        """The winner's captures after taking ``prize``, and the tombé's points (I9)."""
        if not prize:
            return caps, 0
        caps |= prize
        return caps, (self.tombe if caps == self.prizes else 0)

    def _node(
        self, h0: int, h1: int, leader: int, t0: int, c0: int, c1: int, alpha: int, beta: int
    ) -> int:
        """The value for seat 0 of a trick about to be led, within (alpha, beta)."""
        if not h0:
            return self._end(t0)
        self.nodes += 1
        key = (h0, h1, leader, t0, c0, c1)
        hit = self.table.get(key)
        first = -1
        if hit is not None:
            v, flag, first = hit
            if flag == _EXACT:
                return v
            if flag == _LOWER and v >= beta:
                return v
            if flag == _UPPER and v <= alpha:
                return v
        a0, b0 = alpha, beta
        if leader == 0:
            lh, fh, lc, fc, sign = h0, h1, c0, c1, 1
        else:
            lh, fh, lc, fc, sign = h1, h0, c1, c0, -1
        # The leader's view: he maximises sign * value.
        lo, hi = (alpha, beta) if sign == 1 else (-beta, -alpha)
        rem = h0 | h1
        best = -_INF
        best_a = -1
        leads = self._runs(lh, rem)
        if first >= 0 and leads[0] != first:
            # The card best here before (under another window) is tried first.
            leads = [first, *(c for c in leads if c != first)]
        for a in leads:
            nl = lh & ~(1 << a)
            worst = _INF
            for b in self._answers(fh, a, rem):
                nf = fh & ~(1 << b)
                won, points, prize = self._trick(a, b)
                if won:
                    ncl, tombe = self._capture(lc, prize)
                    ncf = fc
                    points += tombe
                else:
                    ncf, tombe = self._capture(fc, prize)
                    ncl = lc
                    points -= tombe
                here = points * POINT + (1 if won else -1)
                # The child's seats: the trick's winner leads.
                if won:
                    nxt = leader
                    t = t0 + (1 if leader == 0 else 0)
                else:
                    nxt = 1 - leader
                    t = t0 + (1 if leader == 1 else 0)
                n0, n1 = (nl, nf) if leader == 0 else (nf, nl)
                m0, m1 = (ncl, ncf) if leader == 0 else (ncf, ncl)
                clo = max(lo, best) - here
                chi = min(hi, worst) - here
                # The child is searched in seat 0's terms.
                if sign == 1:
                    child = self._node(n0, n1, nxt, t, m0, m1, clo, chi)
                else:
                    child = -self._node(n0, n1, nxt, t, m0, m1, -chi, -clo)
                v = here + child
                if v < worst:
                    worst = v
                    if worst <= max(lo, best):
                        break
            if worst > best:
                best, best_a = worst, a
                if best >= hi:
                    break
        value = sign * best
        if value <= a0:
            self.table[key] = (value, _UPPER, first)
        elif value >= b0:
            self.table[key] = (value, _LOWER, best_a)
        else:
            self.table[key] = (value, _EXACT, best_a)
        return value

    def root_values(
        self,
        h0: int,
        h1: int,
        leader: int,
        seat: int,
        led: int | None,
        t0: int,
        t1: int,
        c0: int,
        c1: int,
    ) -> dict[int, int]:
        """The exact value for ``seat`` (to act) of each of his cards that plays
        differently: seat 0 holds ``h0``, seat 1 ``h1``; ``led`` is the card already on
        the table (its player's hand without it), ``t0``/``t1`` the tricks won so far this
        deal, ``c0``/``c1`` the trump J and A each has captured (I9)."""
        return dict(self._root(h0, h1, leader, seat, led, t0, t1, c0, c1, best_only=False))

    def best_card(
        self,
        h0: int,
        h1: int,
        leader: int,
        seat: int,
        led: int | None,
        t0: int,
        t1: int,
        c0: int,
        c1: int,
    ) -> tuple[int, int]:
        """The best card for ``seat`` and its exact value (the arguments of
        :meth:`root_values`); the first searched of equally good cards. Faster than
        :meth:`root_values`: the other cards are only shown to be no better."""
        found = self._root(h0, h1, leader, seat, led, t0, t1, c0, c1, best_only=True)
        return found[0]

    def _root(
        self,
        h0: int,
        h1: int,
        leader: int,
        seat: int,
        led: int | None,
        t0: int,
        t1: int,
        c0: int,
        c1: int,
        best_only: bool,
    ) -> list[tuple[int, int]]:
        n0, n1 = h0.bit_count(), h1.bit_count()
        if led is None:
            fits = n0 == n1 and t0 + t1 + n0 == _TRICKS
        else:
            n_leader = n0 if seat == 1 else n1
            fits = n_leader + 1 == (n1 if seat == 1 else n0) and t0 + t1 + n_leader + 1 == _TRICKS
        if not fits:
            raise ValueError(
                f"the hands ({n0} and {n1} cards) and the tricks won ({t0} and {t1}) do not "
                "make twelve tricks"
            )
        hands = (h0, h1)
        caps = (c0, c1)
        sign = 1 if seat == 0 else -1
        if led is None:
            cards = self._runs(hands[seat], h0 | h1)
        else:
            cards = self._answers(hands[seat], led, h0 | h1 | (1 << led))
        # Best first; with ``best_only`` a card is searched only for beating the best so far.
        found: list[tuple[int, int]] = []
        best = -_INF
        for c in cards:
            lo, hi = (best, _INF) if best_only else (-_INF, _INF)
            alpha, beta = (lo, hi) if sign == 1 else (-hi, -lo)
            if led is None:
                v = sign * self._after_lead(hands, seat, c, t0, caps, alpha, beta)
            else:
                v = sign * self._after_follow(hands, 1 - seat, led, c, t0, caps, alpha, beta)
            if not best_only or v > best:
                found.append((c, v))
            if v > best:
                best = v
        if best_only:
            found = [found[-1]]
        return found

    def _after_lead(
        self,
        hands: tuple[int, int],
        leader: int,
        a: int,
        t0: int,
        caps: tuple[int, int],
        alpha: int,
        beta: int,
    ) -> int:
        """Seat 0's value once ``leader`` has led ``a`` (the follower answers best),
        within (alpha, beta)."""
        nh = list(hands)
        nh[leader] &= ~(1 << a)
        held = (nh[0], nh[1])
        answers = self._answers(nh[1 - leader], a, hands[0] | hands[1])
        if leader == 0:  # the follower minimises seat 0's value
            v = _INF
            for b in answers:
                v = min(v, self._after_follow(held, leader, a, b, t0, caps, alpha, min(beta, v)))
                if v <= alpha:
                    break
        else:
            v = -_INF
            for b in answers:
                v = max(v, self._after_follow(held, leader, a, b, t0, caps, max(alpha, v), beta))
                if v >= beta:
                    break
        return v

    def _after_follow(
        self,
        hands: tuple[int, int],
        leader: int,
        a: int,
        b: int,
        t0: int,
        caps: tuple[int, int],
        alpha: int,
        beta: int,
    ) -> int:
        """Seat 0's value of the trick ``a`` (by ``leader``, already out of his hand)
        and ``b``, then best play to the end, within (alpha, beta)."""
        follower = 1 - leader
        nh = list(hands)
        nh[follower] &= ~(1 << b)
        winner_caps = list(caps)
        won, points, prize = self._trick(a, b)
        winner = leader if won else follower
        winner_caps[winner], tombe = self._capture(caps[winner], prize)
        points += tombe if won else -tombe
        here = points * POINT + (1 if won else -1)
        here = here if leader == 0 else -here
        t = t0 + (1 if winner == 0 else 0)
        return here + self._node(
            nh[0], nh[1], winner, t, winner_caps[0], winner_caps[1], alpha - here, beta - here
        )


def solve_state(state: ImperialState, seat: int) -> dict[int, int]:
    """:meth:`Solver.root_values` of a two-player state in play, ``seat`` to act; the
    cards not searched (run mates of a searched card) are left out."""
    trump = state.trump
    if trump is None or state.to_act != seat:
        raise ValueError("the solver needs a deal in play with the seat to act")
    trick = state.trick
    led = trick[0][1] if trick else None
    leader = trick[0][0] if trick else seat
    solver = Solver(trump, state.options)
    return solver.root_values(
        state.hands[0],
        state.hands[1],
        leader,
        seat,
        led,
        state.tricks[0],
        state.tricks[1],
        state.captures[0],
        state.captures[1],
    )
