"""A stake table's chips (B5): what each seat holds in escrow, the escrow at the start and
the settlement at the end, as :class:`~kozyr.server.storage.store.Store` hooks.

Both run inside the database transaction that changes the table's status, so a game is
never playing without its escrow nor finished without its settlement. Their ledger keys
(``escrow:{table}``, ``settle:{table}``) make each happen at most once per table, whatever
retries or restarts do.

What a seat wins or pays is worked out from the finished row's result
(:func:`kozyr.server.play.games.settle_result`, the arithmetic of ``Game.settle``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.games.stakes import StakeError, StakeTerms
from kozyr.server.money import ledger
from kozyr.server.money.ledger import Account
from kozyr.server.play.games import game_of, settle_result
from kozyr.server.storage.store import TableRow
from kozyr.server.transport.protocol import ProtocolError
from kozyr.texts import both

__all__ = [
    "Short",
    "StakeRefused",
    "escrow_at_start",
    "nets",
    "parse_stake",
    "settle_at_finish",
    "settlement_info",
    "stake_hold",
    "stake_too_high",
    "terms_of",
    "transfers",
]


def parse_stake(stake: Any, game: str) -> dict[str, Any] | None:
    """A client's stake terms for ``game`` as the row keeps them (None: no stakes); a
    refusal names its fault (``bad_stake``, ``bad_stake_kind``, ...)."""
    if stake is None:
        return None
    try:
        return StakeTerms.from_json(stake, game).to_json()
    except StakeError as e:
        raise ProtocolError(e.code, f"{e}.") from e


def terms_of(stake: dict[str, Any] | None) -> StakeTerms | None:
    return None if stake is None else StakeTerms(str(stake["kind"]), int(stake["chips"]))


def stake_hold(game: str, options: dict[str, Any], stake: dict[str, Any] | None) -> int | None:
    """What each seat puts in escrow at the start (``Game.max_loss``); None: no stakes."""
    terms = terms_of(stake)
    if terms is None:
        return None
    spec = game_of(game)
    # The lobby checked a new table's options against their ranges before this; a table
    # stored by an older version may hold wider ones, and must still start.
    return spec.max_loss(terms, spec.options_from_json(options, stored=True))


def row_hold(row: TableRow) -> int | None:
    return stake_hold(row.game, row.options, row.stake)


def stake_too_high(balance: int, hold: int) -> ProtocolError:
    english, russian = both("chips.stake_too_high", balance=balance, hold=hold)
    return ProtocolError(
        "stake_too_high",
        english,
        409,
        message_ru=russian,
        params={"balance": balance, "hold": hold},
    )


@dataclass(frozen=True, slots=True)
class Short:
    """A person whose wallet cannot cover the hold when the game would start."""

    seat: int
    user_id: int
    balance: int


class StakeRefused(Exception):
    """The start's escrow cannot be made: the start is refused (the table stays open)."""

    def __init__(self, hold: int, short: list[Short]) -> None:
        super().__init__(f"{len(short)} seat(s) cannot cover a hold of {hold}")
        self.hold = hold
        self.short = short


async def escrow_at_start(conn: AsyncConnection, row: TableRow) -> None:
    """``Store.on_start``: each person's wallet moves the hold to the table's escrow; the
    house backs each bot seat with as much. Raises :class:`StakeRefused` (nothing moved)
    when a person's wallet no longer covers it."""
    hold = row_hold(row)
    if hold is None:
        return
    people = [(i, s.user_id) for i, s in enumerate(row.seats) if s.user_id is not None]
    short = []
    for seat, user_id in people:
        balance = await ledger.balance(conn, Account.wallet(user_id))
        if balance < hold:
            short.append(Short(seat, user_id, balance))
    if short:
        raise StakeRefused(hold, short)
    moves: dict[Account, int] = {Account.escrow(row.id): hold * len(row.seats)}
    for s in row.seats:
        payer = Account.wallet(s.user_id) if s.user_id is not None else Account.house()
        moves[payer] = moves.get(payer, 0) - hold
    memo = {"table_id": row.id, "hold": hold, "stake": row.stake}
    try:
        await ledger.post(conn, f"escrow:{row.id}", "escrow", list(moves.items()), memo)
    except ledger.InsufficientChips as e:  # spent between the check and the lock
        who = next((seat, uid) for seat, uid in people if Account.wallet(uid).key == e.account)
        raise StakeRefused(hold, [Short(who[0], who[1], e.balance)]) from e


def nets(row: TableRow) -> list[int] | None:
    """Chips each seat wins (negative: pays) at a finished stake table, from its result."""
    terms = terms_of(row.stake)
    result = row.result
    if terms is None or result is None or row.status != "finished":
        return None
    return settle_result(row, terms)


def transfers(net: list[int]) -> list[dict[str, int]]:
    """Who paid whom: payers in seat order settle with receivers in seat order, so the
    fewest transfers a reader must follow (a net of zero pays and receives nothing).

    >>> transfers([-10, 20, -10])
    [{'from': 0, 'to': 1, 'chips': 10}, {'from': 2, 'to': 1, 'chips': 10}]
    >>> transfers([25, -10, 10, -25])
    [{'from': 1, 'to': 0, 'chips': 10}, {'from': 3, 'to': 0, 'chips': 15}, \
{'from': 3, 'to': 2, 'chips': 10}]
    """
    payers = [[seat, -n] for seat, n in enumerate(net) if n < 0]
    takers = [[seat, n] for seat, n in enumerate(net) if n > 0]
    out: list[dict[str, int]] = []
    i = j = 0
    while i < len(payers) and j < len(takers):
        chips = min(payers[i][1], takers[j][1])
        out.append({"from": payers[i][0], "to": takers[j][0], "chips": chips})
        payers[i][1] -= chips
        takers[j][1] -= chips
        i += payers[i][1] == 0
        j += takers[j][1] == 0
    return out


def settlement_info(row: TableRow) -> dict[str, Any]:
    """The table info's stake fields: terms, hold, and once finished who won what."""
    net = nets(row)
    return {
        "stake": row.stake,
        "stake_hold": row_hold(row),
        "settlement": None
        if net is None
        else [
            {"seat": i, "name": s.name, "net": n}
            for i, (s, n) in enumerate(zip(row.seats, net, strict=True))
        ],
        "transfers": None if net is None else transfers(net),
    }


async def settle_at_finish(conn: AsyncConnection, row: TableRow) -> None:
    """``Store.on_finish``: the escrow goes back to the wallets (and the house for bots),
    each seat's hold plus what it won or minus what it lost; the escrow ends at 0."""
    hold = row_hold(row)
    net = nets(row)
    if hold is None or net is None:
        return
    moves: dict[Account, int] = {Account.escrow(row.id): -hold * len(row.seats)}
    for s, n in zip(row.seats, net, strict=True):
        taker = Account.wallet(s.user_id) if s.user_id is not None else Account.house()
        moves[taker] = moves.get(taker, 0) + hold + n
    memo = {"table_id": row.id, "nets": net, "stake": row.stake}
    await ledger.post(
        conn, f"settle:{row.id}", "settle", [(a, n) for a, n in moves.items() if n != 0], memo
    )


async def return_at_end(conn: AsyncConnection, row: TableRow) -> None:
    """A game that ended before its end (``tables.idle_bots``): each seat's hold goes
    back to whoever put it up (the house for a bot), nobody wins or pays. Kind
    ``refund``, key ``refund:{table}`` (made once however often it is tried); a table
    that ends so never finishes its game, so it has no ``settle:`` as well."""
    hold = row_hold(row)
    if hold is None:
        return
    net = [0] * len(row.seats)
    moves: dict[Account, int] = {Account.escrow(row.id): -hold * len(row.seats)}
    for s in row.seats:
        taker = Account.wallet(s.user_id) if s.user_id is not None else Account.house()
        moves[taker] = moves.get(taker, 0) + hold
    memo = {"table_id": row.id, "nets": net, "stake": row.stake}
    await ledger.post(conn, f"refund:{row.id}", "refund", list(moves.items()), memo)
