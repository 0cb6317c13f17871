"""What the routes and connections share: settings, store, lobby, metrics, throttles and
the open sockets (one :class:`Server` per application, in ``app.state.server``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from kozyr.server.accounts import ratings
from kozyr.server.accounts.redis_throttle import RedisThrottles
from kozyr.server.accounts.throttle import Throttles
from kozyr.server.cluster import Cluster
from kozyr.server.money import escrow, wallets
from kozyr.server.reviews.jobs import Reviews
from kozyr.server.runtime.bus import make_bus
from kozyr.server.runtime.config import Settings
from kozyr.server.runtime.metrics import Metrics
from kozyr.server.runtime.pools import hint_pool, upload_pool
from kozyr.server.social import Social
from kozyr.server.storage.store import Store, User
from kozyr.server.tables.hints import Hints
from kozyr.server.tables.lobby import Lobby
from kozyr.server.tables.table_ops import OPS
from kozyr.server.talk.room import Talk
from kozyr.server.transport.sockets import Sockets

log = logging.getLogger("kozyr.server")


class Server:
    """What the routes share: settings, store, lobby, metrics."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.metrics = Metrics()
        self.store = Store(settings.url)
        # chips move in the same transaction as what causes them (B5); ratings move with
        # the game's last action too (#13)
        self.store.on_new_user.append(wallets.grant_new_user)
        self.store.on_start.append(escrow.escrow_at_start)
        self.store.on_finish.append(escrow.settle_at_finish)
        ratings.install(
            self.store,
            ratings.Eligibility(
                min_moves=settings.rating_min_moves,
                new_games=settings.rating_new_games,
                new_days=settings.rating_new_days,
                shared_address=settings.rating_shared_address,
            ),
        )
        self.bus = make_bus(settings.redis_url, settings.redis_timeout)
        self.cluster = (
            Cluster(settings, self.store, self.metrics, self.bus) if settings.cluster else None
        )
        """Cluster mode (``KOZYR_REDIS_URL``): leases, forwarding, relays; it makes the lobby."""
        self.lobby = (
            self.cluster.lobby
            if self.cluster is not None
            else Lobby(self.store, settings, self.metrics, self.bus)
        )
        # post-game reviews in processes of their own; hints and uploaded records in
        # threads of their own, apart from the bots' and the stored games' replays
        self.reviews = Reviews(self.store, self.lobby)
        self.talk: Talk = self.cluster.talk if self.cluster is not None else Talk(self.store)
        """Table talk at the tables this process runs (#44)."""
        self.hints = Hints(hint_pool(), settings.hint_seconds)
        self.uploads = upload_pool()
        self.on_ready: Callable[[int], None] | None = None
        limits = (
            settings.login_limit,
            settings.login_window,
            settings.account_limit,
            settings.account_window,
        )
        # cluster mode: counted in Redis over every process (in memory while it is lost)
        self.throttles: Throttles = (
            RedisThrottles(
                settings.redis_url,
                *limits,
                guest_limit=settings.guest_limit,
                answer_limit=settings.puzzle_answer_limit,
                invite_limit=settings.invite_guess_limit,
            )
            if settings.redis_url
            else Throttles(
                *limits,
                guest_limit=settings.guest_limit,
                answer_limit=settings.puzzle_answer_limit,
                invite_limit=settings.invite_guess_limit,
            )
        )
        self.throttles.add("upload-person", settings.upload_limit, settings.upload_window)
        self.throttles.add("upload-address", settings.upload_address_limit, settings.upload_window)
        self.throttles.add("hint-person", settings.hint_limit, settings.hint_window)
        # the look-alike check and the insert of a new name, as one step
        self.names_lock = asyncio.Lock()
        self.sockets = Sockets(settings)
        """Every open WebSocket, by account and address (caps, logout)."""
        self.social = Social(settings, self.store, self.lobby, self.sockets, self.bus)
        """Friends and challenges, and their frames to a person's open pages (#44)."""

    def stop_moves(self) -> None:
        """The server is stopping: no table takes or plays a move from now on (called at
        the signal, and again by the shutdown; only the first call counts)."""
        if self.lobby.stopping:
            return
        log.info("stopping: no more moves at %d tables", len(self.lobby.tables))
        self.lobby.stop_moves()

    async def table_op(
        self, table_id: str, op: str, user: User, args: dict[str, Any]
    ) -> dict[str, Any]:
        """A lobby change of a live table (``table_ops.OPS``), run here or, in cluster
        mode, by the process that owns the table."""
        table = self.lobby.tables.get(table_id)
        if table is None and self.cluster is not None:
            return await self.cluster.forward(table_id, op, user, args)
        return await OPS[op](self.lobby.get(table_id), user, args)

    def close_pools(self) -> None:
        """The hints' and the uploads' threads stop (the lobby stops its own)."""
        self.hints.pool.shutdown()
        self.uploads.shutdown()

    async def close_user(self, user_id: int, code: int, session: str | None = None) -> int:
        """Closes the user's WebSockets (those of one session, given the token's hash);
        when it returns, none of them acts any more. Returns how many were closed."""
        return await self.sockets.close_user(user_id, code, session)
