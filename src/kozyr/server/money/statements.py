"""The wallet's history told (``GET /api/wallet``): each ledger entry of a person's wallet
in words, in English and Russian, naming what the chips moved for.

The ledger keeps what moved and, in each transaction's memo, the table, the market and
the outcome; the words need more than that: the game and who played it, how the game
ended for the person, whether anybody backed a market's outcome. :func:`describe` reads
those for one page of entries at once, with a few bounded queries (the page's tables, its
markets' settlements, the outcomes backed on them), and never changes anything. Nothing
here says a card: the facts are the finished game's result, the markets' public
outcomes and pools.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.games.markets import VOID, Market, market_of
from kozyr.server.money.betting import settlement_key
from kozyr.server.money.escrow import nets, row_hold
from kozyr.server.play.games import game_of
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, TableRow
from kozyr.texts import LANGS, Lang, text

__all__ = ["Told", "describe"]

_SEAT_OUTCOME = "seat:"
_OUTCOME_WORDS = {"yes", "no", "over", "under", "nobody"}


@dataclass(frozen=True, slots=True)
class Told:
    """An entry in words: English, Russian, and the table it is about (if any)."""

    en: str
    ru: str
    table_id: str | None
    finished: bool
    """Whether that table's game is over (its replay is then the place to look)."""

    def by_lang(self, lang: Lang) -> str:
        return self.ru if lang == "ru" else self.en


@dataclass
class _Facts:
    """What one page of entries needs to be told, read once for the page."""

    user_id: int
    tables: dict[str, TableRow]
    names: dict[int, str | None]
    """Current names of the people at those tables (None: a deleted account)."""
    settled: dict[tuple[str, str], str]
    """(table, market) -> the outcome its settlement paid out on."""
    backed: set[tuple[str, str, str]]
    """(table, market, outcome) that somebody bet on, for the settled outcomes."""


def _table_of(memo: Mapping[str, Any]) -> str | None:
    # escrow and settle write table_id; a bet and a market's settlement write table
    found = memo.get("table_id", memo.get("table"))
    return found if isinstance(found, str) else None


async def _facts(conn: AsyncConnection, user_id: int, entries: Sequence[dict[str, Any]]) -> _Facts:
    ids = {t for e in entries if (t := _table_of(e["memo"])) is not None}
    tables: dict[str, TableRow] = {}
    if ids:
        rows = await conn.execute(select(m.game_tables).where(m.game_tables.c.id.in_(ids)))
        tables = {r.id: Store._row_to_table(r) for r in rows.all()}
    people = {s.user_id for row in tables.values() for s in row.seats if s.user_id is not None}
    names: dict[int, str | None] = {}
    if people:
        u = m.users
        known = await conn.execute(
            select(u.c.id, u.c.name, u.c.deleted_ms).where(u.c.id.in_(people))
        )
        names = {r.id: None if r.deleted_ms is not None else r.name for r in known.all()}
    markets = {
        (t, str(e["memo"].get("market")))
        for e in entries
        if e["kind"] in ("bet", "bets") and (t := _table_of(e["memo"])) is not None
    }
    settled: dict[tuple[str, str], str] = {}
    for e in entries:  # a market's settlement on the page is its own answer
        if e["kind"] == "bets" and (t := _table_of(e["memo"])) is not None:
            settled[(t, str(e["memo"].get("market")))] = str(e["memo"].get("outcome"))
    wanted = {settlement_key(t, mk): (t, mk) for t, mk in markets if (t, mk) not in settled}
    if wanted:
        tx = m.ledger_transactions
        done = await conn.execute(select(tx.c.key, tx.c.memo).where(tx.c.key.in_(wanted)))
        for key, memo in done.all():
            settled[wanted[key]] = str(json.loads(memo).get("outcome"))
    asked = [(t, mk, o) for (t, mk), o in settled.items() if (t, mk) in markets and o != VOID]
    backed: set[tuple[str, str, str]] = set()
    if asked:
        b = m.bets
        on = await conn.execute(
            select(b.c.table_id, b.c.market_id, b.c.outcome)
            .where(
                or_(
                    *(
                        and_(b.c.table_id == t, b.c.market_id == mk, b.c.outcome == o)
                        for t, mk, o in asked
                    )
                )
            )
            .distinct()
        )
        backed = {(r.table_id, r.market_id, r.outcome) for r in on.all()}
    return _Facts(user_id, tables, names, settled, backed)


async def describe(
    conn: AsyncConnection, user_id: int, entries: Sequence[dict[str, Any]]
) -> list[Told]:
    """Each of ``entries`` (:func:`kozyr.server.money.ledger.entries` of the person's
    wallet) in words, in order."""
    facts = await _facts(conn, user_id, entries)
    return [_told(facts, e) for e in entries]


def _told(facts: _Facts, entry: dict[str, Any]) -> Told:
    memo = entry["memo"]
    table_id = _table_of(memo)
    row = facts.tables.get(table_id) if table_id is not None else None
    en, ru = (_words(facts, entry, row, lang) for lang in LANGS)
    return Told(en, ru, table_id, row is not None and row.status == "finished")


def _words(facts: _Facts, entry: dict[str, Any], row: TableRow | None, lang: Lang) -> str:
    kind = entry["kind"]
    if kind in ("grant", "top_up"):
        return text(f"wallet.{kind}", lang)
    if kind == "escrow":
        return _escrow(facts, row, lang)
    if kind == "settle":
        return _settle(facts, entry, row, lang)
    if kind == "bet":
        return _bet(facts, entry, row, lang)
    if kind == "bets":
        return _bets(facts, entry, row, lang)
    return text("wallet.other", lang)


# -- stakes -------------------------------------------------------------------------------


def _escrow(facts: _Facts, row: TableRow | None, lang: Lang) -> str:
    head = text("wallet.escrow", lang, game=_against(facts, row, lang))
    if row is None:
        return head
    if row.status != "finished":
        return f"{head} {text('wallet.escrow.on', lang)}"
    seat = _seat_of(row, facts.user_id)
    net = nets(row)
    hold = row_hold(row)
    if seat is None or net is None or hold is None:
        return f"{head} {_result(row, seat, lang)}"
    back = hold + net[seat]
    if back > 0:
        tail = text("wallet.escrow.back", lang, chips=_chips(back, lang))
    else:
        takers = sum(1 for n in net if n > 0)
        tail = text("wallet.escrow.lost." + ("one" if takers == 1 else "many"), lang)
    return f"{head} {_result(row, seat, lang)} {tail}"


def _settle(facts: _Facts, entry: dict[str, Any], row: TableRow | None, lang: Lang) -> str:
    head = text("wallet.settle", lang, game=_against(facts, row, lang))
    seat = None if row is None else _seat_of(row, facts.user_id)
    moved = entry["memo"].get("nets")
    if row is None or seat is None or not isinstance(moved, list) or seat >= len(moved):
        return head
    net = int(moved[seat])
    hold = int(entry["amount"]) - net  # the settlement pays back the hold plus the net
    if net > 0:
        tail = text("wallet.settle.won", lang, won=_chips(net, lang), hold=_chips(hold, lang))
    elif net == 0:
        tail = text("wallet.settle.even", lang, hold=_chips(hold, lang))
    else:
        tail = text(
            "wallet.settle.lost",
            lang,
            lost=_chips(-net, lang),
            back=_chips(hold + net, lang),
            hold=_chips(hold, lang),
        )
    return f"{head} {_result(row, seat, lang)} {tail}"


def _seat_of(row: TableRow, user_id: int) -> int | None:
    return next((i for i, s in enumerate(row.seats) if s.user_id == user_id), None)


def _result(row: TableRow, seat: int | None, lang: Lang) -> str:
    """How the finished game ended for the person at ``seat``: by his final place."""
    result = row.result or {}
    places = result.get("places")
    if seat is not None and isinstance(places, list) and seat in places:
        place = places.index(seat) + 1
    elif seat is not None and isinstance(result.get("winner"), int) and row.players == 2:
        place = 1 if result["winner"] == seat else 2
    else:
        return text("wallet.result.over", lang)
    if place == 1:
        return text("wallet.result.won", lang)
    if row.players == 2:
        return text("wallet.result.lost", lang)
    return text(f"wallet.result.place.{place}", lang, n=row.players)


# -- bets ---------------------------------------------------------------------------------


def _bet(facts: _Facts, entry: dict[str, Any], row: TableRow | None, lang: Lang) -> str:
    memo = entry["memo"]
    market, names = _market(row, str(memo.get("market")), lang, facts)
    backed = str(memo.get("outcome"))
    head = text(
        "wallet.bet",
        lang,
        outcome=_outcome(backed, names, lang),
        market=market,
        game=_players(facts, row, lang),
    )
    key = (_table_of(memo) or "", str(memo.get("market")))
    outcome = facts.settled.get(key)
    if outcome is None:
        return f"{head} {text('wallet.bet.waiting', lang)}"
    if outcome == VOID:
        return f"{head} {text('wallet.bet.void', lang)}"
    said = _outcome(outcome, names, lang)
    if (*key, outcome) not in facts.backed:
        return f"{head} {text('wallet.bet.no_winner', lang, outcome=said)}"
    if backed == outcome:
        return f"{head} {text('wallet.bet.won', lang)}"
    return f"{head} {text('wallet.bet.lost', lang, outcome=said)}"


def _bets(facts: _Facts, entry: dict[str, Any], row: TableRow | None, lang: Lang) -> str:
    """A market's settlement that paid the wallet: his winnings, or every bet returned."""
    memo = entry["memo"]
    market, names = _market(row, str(memo.get("market")), lang, facts)
    outcome = str(memo.get("outcome"))
    game = _players(facts, row, lang)
    if outcome == VOID:
        return text("wallet.bets.void", lang, market=market, game=game)
    said = _outcome(outcome, names, lang)
    key = (_table_of(memo) or "", str(memo.get("market")), outcome)
    which = "won" if key in facts.backed else "no_winner"
    return text(f"wallet.bets.{which}", lang, market=market, outcome=said, game=game)


def _market(
    row: TableRow | None, market_id: str, lang: Lang, facts: _Facts
) -> tuple[str, list[str]]:
    """The market's question with the players' names, and those names by seat."""
    if row is None:
        return text("wallet.market_gone", lang), []
    names = _seat_names(facts, row, lang)
    spec = game_of(row.game)
    found: Market | None = market_of(
        spec.markets, market_id, row.players, spec.options_from_json(row.options, stored=True)
    )
    if found is None:
        return text("wallet.market_gone", lang), names
    return found.question(lang, names), names


def _outcome(outcome: str, names: Sequence[str], lang: Lang) -> str:
    """An outcome in words: a seat by its player's name, a bucket of tricks counted."""
    if outcome.startswith(_SEAT_OUTCOME) and outcome[len(_SEAT_OUTCOME) :].isdigit():
        seat = int(outcome[len(_SEAT_OUTCOME) :])
        if seat < len(names):
            return names[seat]
        return text("grammar.player", lang, n=seat + 1)
    if outcome in _OUTCOME_WORDS:
        return text(f"markets.outcome.{outcome}", lang)
    last = outcome.rpartition("-")[2]
    if last.isdigit() and len(last) < 4:
        return text("markets.outcome.tricks", lang, range=outcome.replace("-", "–"), last=int(last))
    return outcome


# -- the game and its people ---------------------------------------------------------------


def _seat_names(facts: _Facts, row: TableRow, lang: Lang) -> list[str]:
    """Each seat as the page names it: a person by his name now, a bot "Computer N", an
    empty seat "Player N"."""
    out = []
    for i, s in enumerate(row.seats):
        if s.bot is not None:
            out.append(text("grammar.computer", lang, n=i + 1))
        elif s.user_id is not None:
            name = facts.names.get(s.user_id, s.name)
            out.append(text("wallet.deleted", lang) if name is None else name)
        else:
            out.append(text("grammar.player", lang, n=i + 1))
    return out


def _game(row: TableRow, lang: Lang) -> str:
    return game_of(row.game).title[1 if lang == "ru" else 0]


def _against(facts: _Facts, row: TableRow | None, lang: Lang) -> str:
    """ "Imperial against Masha and Computer 2": the game and the person's opponents."""
    if row is None:
        return text("wallet.gone", lang)
    names = _seat_names(facts, row, lang)
    others = [n for i, n in enumerate(names) if row.seats[i].user_id != facts.user_id]
    if not others:
        return _game(row, lang)
    size = "one" if len(others) == 1 else "many"
    return text(f"wallet.against.{size}", lang, game=_game(row, lang), names=_joined(others, lang))


def _players(facts: _Facts, row: TableRow | None, lang: Lang) -> str:
    """ "Imperial: Masha and Petya": the game a spectator bet on and its players."""
    if row is None:
        return text("wallet.gone", lang)
    names = _seat_names(facts, row, lang)
    seated = [n for i, n in enumerate(names) if not row.seats[i].empty]
    if not seated:
        return _game(row, lang)
    return text("wallet.players", lang, game=_game(row, lang), names=_joined(seated, lang))


def _joined(names: Iterable[str], lang: Lang) -> str:
    """>>> _joined(["A", "B", "C"], "en")
    'A, B and C'"""
    items = list(names)
    if len(items) < 2:
        return "".join(items)
    return text("wallet.and", lang, first=", ".join(items[:-1]), last=items[-1])


def _chips(n: int, lang: Lang) -> str:
    return text("grammar.count.chip", lang, n=n)
