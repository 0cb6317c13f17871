"""Stakes in the terminal (``kozyr play --stake KIND:S``): a local tally of who owes whom.

No server and no ledger: the terms are agreed on the command line, each finished game is
settled with the game's own rule (:meth:`kozyr.games.spec.Game.settle`), and the tally
prints who paid whom and the totals so far, in the player's language.

>>> terms = parse_stake("per_game:10", "imperial")
>>> tally = Tally(terms, ["You", "Computer 1", "Computer 2"])
>>> tally.add([20, -10, -10])
>>> tally.totals, tally.games
([20, -10, -10], 1)
>>> transfers([20, -10, -10])
[(1, 0, 10), (2, 0, 10)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kozyr.cards import Lang
from kozyr.games.spec import GAMES
from kozyr.games.stakes import KINDS, MAX_CHIPS, StakeError, StakeTerms
from kozyr.i18n import count
from kozyr.texts import text

__all__ = ["Tally", "parse_stake", "stake_words", "transfers"]


def _error(code: str, lang: Lang, **params: object) -> str:
    return text(f"stakes.error.{code}", lang, **params)


def parse_stake(typed: str, game: str, lang: Lang = "en") -> StakeTerms:
    """``KIND:S`` as typed after ``--stake``; :class:`StakeError` names what is wrong, in
    ``lang``, with the protocol's code (the checks are :meth:`StakeTerms.from_json`'s).

    >>> parse_stake("per_place:3", "emperor")
    StakeTerms(kind='per_place', chips=3)
    >>> parse_stake("per_game:ten", "imperial")
    Traceback (most recent call last):
    ...
    kozyr.games.stakes.StakeError: S is a whole number of chips from 1 to 1,000,000, not 'ten'
    """
    kinds = ", ".join(f"{k}:S" for k in KINDS.get(game, ()))
    kind, colon, chips_text = typed.strip().partition(":")
    kind, chips_text = kind.strip(), chips_text.strip()
    if not colon or not kind:
        raise StakeError("bad_stake", _error("bad_stake", lang, text=typed, kinds=kinds))
    # int() would also take "+5", "1_000" or "٣": only plain digits are a stake here.
    chips: object = int(chips_text) if chips_text.isascii() and chips_text.isdigit() else None
    try:
        return StakeTerms.from_json({"kind": kind, "chips": chips}, game)
    except StakeError as e:
        titles = {g.name: g.title[1 if lang == "ru" else 0] for g in GAMES.values()}
        other = next((g for g, ks in KINDS.items() if kind in ks), game)
        raise StakeError(
            e.code,
            _error(
                e.code,
                lang,
                text=typed,
                kind=kind,
                kinds=kinds,
                chips=chips_text,
                game=titles[game],
                other=titles[other],
                most=f"{MAX_CHIPS:,}".replace(",", " " if lang == "ru" else ","),
            ),
        ) from e


def transfers(nets: Sequence[int]) -> list[tuple[int, int, int]]:
    """Who pays whom how many (payer, payee, chips) for a zero-sum result: each payer, in
    seat order, pays the payees in seat order until his share is paid. With one winner
    (Imperial) that is every loser paying the winner his own debt.

    >>> transfers([-5, 10, -15, 10])
    [(0, 1, 5), (2, 1, 5), (2, 3, 10)]
    """
    if sum(nets) != 0:
        raise ValueError(f"a settlement sums to zero, not {sum(nets)}: {list(nets)}")
    owed = {s: -n for s, n in enumerate(nets) if n < 0}
    due = {s: n for s, n in enumerate(nets) if n > 0}
    out: list[tuple[int, int, int]] = []
    for payer, debt in owed.items():
        for payee in due:
            if debt == 0:
                break
            chips = min(debt, due[payee])
            if chips:
                out.append((payer, payee, chips))
                debt -= chips
                due[payee] -= chips
    return out


def stake_words(terms: StakeTerms, lang: Lang) -> str:
    """The terms in words: "10 chips per game" (``stakes.<kind>``)."""
    return text(f"stakes.{terms.kind}", lang, chips=count(terms.chips, "chip", lang))


def _signed(n: int, lang: Lang) -> str:
    sign = "+" if n > 0 else "−" if n < 0 else ""
    return sign + count(abs(n), "chip", lang)


@dataclass
class Tally:
    """The chips each seat has won (negative: lost) over the games of one session."""

    terms: StakeTerms
    names: list[str]
    totals: list[int] = field(init=False)
    games: int = 0

    def __post_init__(self) -> None:
        self.totals = [0] * len(self.names)

    def add(self, nets: Sequence[int]) -> None:
        if len(nets) != len(self.names) or sum(nets) != 0:
            raise ValueError(f"not a settlement of {len(self.names)} seats: {list(nets)}")
        self.totals = [a + b for a, b in zip(self.totals, nets, strict=True)]
        self.games += 1

    def payment_line(self, payer: int, payee: int, chips: int, lang: Lang) -> str:
        """ "Computer 1 pays you: 10 chips" (``stakes.pays``)."""
        return text(
            "stakes.pays",
            lang,
            payer=self.names[payer],
            payee=self.names[payee],
            chips=count(chips, "chip", lang),
        )

    def nets_line(self, nets: Sequence[int], lang: Lang) -> str:
        return ", ".join(f"{self.names[s]} {_signed(n, lang)}" for s, n in enumerate(nets))

    def game_lines(self, nets: Sequence[int], lang: Lang) -> list[str]:
        """What one game's settlement prints: the terms, every payment, each seat's net."""
        lines = [text("stakes.settled", lang, terms=stake_words(self.terms, lang))]
        paid = transfers(nets)
        lines += ["  " + self.payment_line(a, b, c, lang) for a, b, c in paid]
        if not paid:
            lines.append("  " + text("stakes.nobody_pays", lang))
        lines.append(text("stakes.net", lang, list=self.nets_line(nets, lang)))
        return lines

    def session_lines(self, lang: Lang) -> list[str]:
        """The totals over the session's finished games, and who owes whom for them."""
        lines = [text("stakes.session", lang, n=self.games)]
        lines += ["  " + self.payment_line(a, b, c, lang) for a, b, c in transfers(self.totals)]
        lines.append(text("stakes.net", lang, list=self.nets_line(self.totals, lang)))
        return lines
