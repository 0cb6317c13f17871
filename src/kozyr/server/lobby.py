"""The lobby: every live table, creating and finding tables, quick play, restoring the
unfinished tables from the database at start."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from kozyr.games.base import OptionsError
from kozyr.games.emperor import EmperorOptions
from kozyr.games.imperial import ImperialOptions
from kozyr.server.bus import LocalBus
from kozyr.server.config import Settings
from kozyr.server.metrics import Metrics
from kozyr.server.protocol import VERSION, Client, ProtocolError
from kozyr.server.store import Seat, Store, TableRow, User
from kozyr.server.tables import Table

log = logging.getLogger("kozyr.server.lobby")

GAMES = ("imperial", "emperor")
DEFAULT_PLAYERS = {"imperial": 2, "emperor": 4}


def check_options(game: str, players: int | None, options: Any) -> dict[str, Any]:
    """The full options of a new table (the rulings' defaults where not given)."""
    if game not in GAMES:
        raise ProtocolError("bad_game", "The game must be imperial or emperor.")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ProtocolError("bad_options", "Options must be an object.")
    options = dict(options)
    if players is not None:
        options["players"] = players
    try:
        if game == "imperial":
            return ImperialOptions.from_json(options).to_json()
        return EmperorOptions.from_json(options).to_json()
    except (OptionsError, TypeError) as e:
        raise ProtocolError("bad_options", str(e)) from e


class Lobby:
    def __init__(self, store: Store, settings: Settings, metrics: Metrics, bus: LocalBus) -> None:
        self.store = store
        self.settings = settings
        self.metrics = metrics
        self.bus = bus
        self.tables: dict[str, Table] = {}
        self.executor = ThreadPoolExecutor(max_workers=4, thread_name_prefix="kozyr-bot")
        self.lobby_watchers: set[Client] = set()
        self._create_lock = asyncio.Lock()
        self._seeded: dict[str, int] = {}
        bus.subscribe("lobby", self._lobby_notice)

    def _new_seed(self, game: str, players: int, options: dict[str, Any]) -> int:
        fixed = self.settings.table_seed
        if fixed is None:
            return secrets.randbelow(2**31)
        key = json.dumps([fixed, game, players, options], sort_keys=True)
        k = self._seeded.get(key, 0)
        self._seeded[key] = k + 1
        digest = hashlib.sha256(f"{key}:{k}".encode()).digest()
        return int.from_bytes(digest[:4], "big") >> 1

    # -- life cycle -----------------------------------------------------------------

    async def restore(self) -> int:
        """Rebuilds every unfinished table from its log; returns how many."""
        count = 0
        for row in await self.store.unfinished_tables():
            table = self._table(row)
            if row.status == "playing":
                rows = await self.store.actions(row.id)
                try:
                    table.restore([(a.seat, a.text, a.actor, a.client_action_id) for a in rows])
                except Exception:
                    log.exception("table %s could not be restored; left out", row.id)
                    del self.tables[row.id]
                    continue
            count += 1
        self._count()
        return count

    async def close(self) -> None:
        for table in self.tables.values():
            await table.close()
        self.executor.shutdown(wait=False, cancel_futures=True)

    def _table(self, row: TableRow) -> Table:
        table = Table(row, self.store, self.settings, self.metrics, self.executor, self._changed)
        self.tables[row.id] = table
        return table

    def _changed(self, table: Table) -> None:
        self._count()
        if not table.row.private:
            asyncio.get_running_loop().create_task(
                self.bus.publish("lobby", {"table": table.info()})
            )

    def _lobby_notice(self, message: dict[str, Any]) -> None:
        frame = {"v": VERSION, "type": "lobby", **message}
        for client in list(self.lobby_watchers):
            client.send(frame)

    def _count(self) -> None:
        counts = {"open": 0, "playing": 0, "finished": 0}
        for t in self.tables.values():
            counts[t.row.status] = counts.get(t.row.status, 0) + 1
        for status, n in counts.items():
            self.metrics.tables.labels(status).set(n)

    # -- queries --------------------------------------------------------------------

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError("no_table", status=404)
        return table

    def open_tables(self, game: str | None = None) -> list[dict[str, Any]]:
        out = []
        for t in self.tables.values():
            if t.row.private or t.row.status == "finished":
                continue
            if game is not None and t.row.game != game:
                continue
            out.append(t.info())
        return out

    # -- changes --------------------------------------------------------------------

    async def create(
        self,
        user: User,
        game: str,
        players: int | None = None,
        options: Any = None,
        bots: Any = None,
        private: bool = False,
        sit: bool = True,
        seat: int = 0,
        turn_timeout: Any = "default",
    ) -> Table:
        """A new table; the creator sits at ``seat`` (unless ``sit`` is false), then the
        bots sit in seat order (that is the join order, B1). ``bots``: {seat: level} or a
        list of levels for the free seats in order."""
        opts = check_options(game, players, options)
        n = int(opts["players"])
        seats = [Seat() for _ in range(n)]
        join_order: list[int] = []
        if sit:
            if not isinstance(seat, int) or not 0 <= seat < n:
                raise ProtocolError("bad_seat", "No such seat.")
            seats[seat] = Seat(user_id=user.id, name=user.name)
            join_order.append(seat)
        for s, level in self._bot_seats(bots, seats):
            seats[s] = Seat(bot=level, name=f"bot {level}")
            join_order.append(s)
        if turn_timeout == "default":
            timeout: float | None = self.settings.turn_timeout
        elif turn_timeout is None or turn_timeout == 0:
            timeout = None
        elif isinstance(turn_timeout, int | float) and not isinstance(turn_timeout, bool):
            if not 0.5 <= float(turn_timeout) <= 86_400:
                raise ProtocolError("bad_timeout", "turn_timeout must be 0.5-86400 seconds.")
            timeout = float(turn_timeout)
        else:
            raise ProtocolError("bad_timeout", "turn_timeout must be a number of seconds.")
        row = TableRow(
            id=secrets.token_hex(5),
            game=game,
            players=n,
            options=opts,
            seed=self._new_seed(game, n, opts),
            seats=seats,
            join_order=join_order,
            private=bool(private),
            invite_code=secrets.token_urlsafe(9) if private else None,
            creator_id=user.id,
            turn_timeout=timeout,
        )
        await self.store.insert_table(row)
        table = self._table(row)
        async with table.lock:
            await table._after_seats()
        return table

    @staticmethod
    def _bot_seats(bots: Any, seats: list[Seat]) -> list[tuple[int, int]]:
        if bots is None:
            return []
        pairs: list[tuple[int, Any]] = []
        if isinstance(bots, dict):
            for k, v in bots.items():
                try:
                    pairs.append((int(k), v))
                except (TypeError, ValueError) as e:
                    raise ProtocolError("bad_bots", "Bot seats must be seat numbers.") from e
        elif isinstance(bots, list):
            free = [i for i, s in enumerate(seats) if s.empty]
            if len(bots) > len(free):
                raise ProtocolError("bad_bots", "More bots than free seats.")
            pairs = list(zip(free, bots, strict=False))
        else:
            raise ProtocolError("bad_bots", "bots must be a list of levels or {seat: level}.")
        out = []
        for s, level in sorted(pairs):
            if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 5:
                raise ProtocolError("bad_bots", "Bot levels are 1-5.")
            if not 0 <= s < len(seats) or not seats[s].empty:
                raise ProtocolError("bad_bots", f"Seat {s} is not free.")
            out.append((s, level))
        return out

    async def quick_play(self, user: User, game: str, players: int | None, level: int) -> Table:
        """The first open public table of ``game`` with a free seat, else a new table with
        bots in every other seat (which starts at once)."""
        if game not in GAMES:
            raise ProtocolError("bad_game", "The game must be imperial or emperor.")
        async with self._create_lock:
            for t in list(self.tables.values()):
                row = t.row
                if row.game != game or row.private or row.status != "open":
                    continue
                if players is not None and row.players != players:
                    continue
                if t.seat_of(user.id) is not None:
                    return t
                if any(s.empty for s in row.seats):
                    try:
                        await t.sit(user.id, user.name, None)
                        return t
                    except ProtocolError:
                        continue
            n = players or DEFAULT_PLAYERS[game]
            return await self.create(user, game, n, bots=[level] * (n - 1))

    async def games_of(self, user: User) -> list[dict[str, Any]]:
        out = []
        for row in await self.store.tables_of(user.id):
            live = self.tables.get(row.id)
            info = live.info() if live is not None else None
            out.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "players": row.players,
                    "status": row.status,
                    "seat": next(
                        (i for i, s in enumerate(row.seats) if s.user_id == user.id), None
                    ),
                    "seats": info["seats"] if info else [s.to_json() for s in row.seats],
                    "result": row.result,
                    "created_ms": row.created_ms,
                    "finished_ms": row.finished_ms,
                }
            )
        return out
