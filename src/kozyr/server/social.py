"""Friends and challenges put together with the lobby and the open sockets (#44): where
each followed person is, a challenge's checks and the table its accept opens, and the
``challenge`` frames pushed to a person's open pages on any process.

The lists and the challenges' rows are ``friends/``; this module composes them with the
lobby (``tables/``), which is above that room."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from kozyr.server.friends import challenges, lists
from kozyr.server.friends.challenges import Challenge
from kozyr.server.friends.frames import CHANNEL, ChallengeFrame, notice
from kozyr.server.money import wallets
from kozyr.server.money.escrow import parse_stake, stake_hold
from kozyr.server.runtime.bus import LocalBus
from kozyr.server.runtime.config import Settings
from kozyr.server.storage.store import Store, User
from kozyr.server.tables.lobby import Lobby, check_options
from kozyr.server.transport.protocol import Client, ProtocolError, dumps
from kozyr.server.transport.sockets import Sockets

log = logging.getLogger("kozyr.server.social")

FIRST_BOT_SEAT = 2
"""The challenger sits in seat 0 and the challenged person in seat 1; bots come after."""


class Social:
    """The server's parts friends and challenges use (one per ``Server``)."""

    def __init__(
        self, settings: Settings, store: Store, lobby: Lobby, sockets: Sockets, bus: LocalBus
    ) -> None:
        self.settings = settings
        self.store = store
        self.lobby = lobby
        self.sockets = sockets
        self.bus = bus
        bus.subscribe(CHANNEL, self._deliver)

    # -- frames to a person's pages ------------------------------------------------------

    def _deliver(self, message: dict[str, Any]) -> None:
        """A bus notice: its frame to every socket of its person on this process."""
        user_id, frame = message.get("user"), message.get("frame")
        if not isinstance(user_id, int) or not isinstance(frame, dict):
            return
        text = dumps(frame)
        for conn in list(self.sockets.by_user.get(user_id, ())):
            client = getattr(conn, "client", None)
            if isinstance(client, Client):
                client.send(text)

    async def _push(self, user_id: int, challenge: Challenge) -> None:
        try:
            await self.bus.publish(CHANNEL, notice(user_id, ChallengeFrame(challenge)))
        except Exception:  # the row is the truth: the page reads it on its next visit
            log.exception("challenge %s could not be pushed", challenge.id)

    # -- friends ---------------------------------------------------------------------------

    async def friends(self, user: User) -> list[dict[str, Any]]:
        """Whom ``user`` follows: online now, and at which table playing or watching (a
        private table as "playing" or "watching" without its id)."""
        followed = await lists.listed(self.store, "follows", user)
        ids = {uid for uid, _ in followed}
        where: dict[int, dict[str, Any]] = {}
        for table in self.lobby.tables.values():
            row = table.row
            if row.status == "finished":
                continue
            place = {"game": row.game, "table": None if row.private else row.id}
            for client, role in table.presence.watchers.items():
                if client.user.id in ids and role is None:
                    where.setdefault(client.user.id, {"doing": "watching", **place})
            for s in row.seats:
                if s.user_id in ids:
                    where[s.user_id] = {"doing": "playing", **place}
        online = {uid for uid in ids if self.sockets.by_user.get(uid)}
        # cluster mode: the people seated at the other processes' public tables
        for info in self.lobby.remote.items():
            table_id, data = info
            if table_id in self.lobby.tables:
                continue
            for seat in data.get("seats") or ():
                uid = seat.get("user_id")
                if uid in ids and uid not in where:
                    where[uid] = {"doing": "playing", "game": data.get("game"), "table": table_id}
                    if seat.get("connected"):
                        online.add(uid)
        return [
            {
                "name": name,
                "online": uid in online,
                "where": where.get(uid) if uid in online else None,
            }
            for uid, name in followed
        ]

    # -- challenges -------------------------------------------------------------------------

    async def challenge(
        self,
        user: User,
        to: str,
        game: str,
        players: int | None,
        options: Any,
        stake: Any,
        bots: list[int] | None,
        private: bool,
    ) -> Challenge:
        """A new challenge of ``user`` to the person called ``to``, pushed to his pages.
        Refused, with nothing stored: a guest, oneself (``challenge_self``), an unknown
        name (``no_user``), someone who blocked ``user`` or whom he blocked
        (``challenge_refused``, as any person who does not take challenges), bad terms
        (the lobby's codes), a stake his wallet cannot cover, the 11th open one."""
        store = self.store
        lists.need_account(user)
        target = await lists.person_named(store, to)
        if target.id == user.id:
            raise ProtocolError("challenge_self", status=400)
        if target.guest or await lists.blocked_between(store, user.id, target.id):
            raise ProtocolError("challenge_refused", status=409)
        opts = check_options(game, players, options)
        n = int(opts["players"])
        if n < FIRST_BOT_SEAT or len(bots or ()) > n - FIRST_BOT_SEAT:
            raise ProtocolError("bad_bots", "More bots than free seats.")
        terms = parse_stake(stake, game)
        await wallets.check_cover(store, user.id, stake_hold(game, opts, terms))
        made = await challenges.insert(
            store,
            user,
            target,
            game,
            opts,
            terms,
            bots,
            private,
            self.settings.challenge_ttl,
        )
        await self._push(target.id, made)
        return made

    async def answer(self, user: User, challenge_id: str, to: challenges.Answer) -> Challenge:
        """Declined or cancelled; the other person's pages are told."""
        done = await challenges.answer(self.store, challenge_id, user, to)
        await self._push(done.to_id if to == "cancelled" else done.from_id, done)
        return done

    async def accept(self, user: User, challenge_id: str) -> Challenge:
        """The challenge accepted: its table opened with both seated (the stakes escrowed
        as at any table, when it starts), and both told its id. A wallet that cannot cover
        the stake any more, or a block made since it was sent (``challenge_refused``), is
        refused: no table is opened, and the challenge stays open until its time."""
        store = self.store
        taken = await challenges.answer(store, challenge_id, user, "accepted")
        try:
            # a block since it was sent: refused as a challenge to him would be now
            if await lists.blocked_between(store, taken.from_id, user.id):
                raise ProtocolError("challenge_refused", status=409)
            sender = await lists.person(store, taken.from_id)
            hold = stake_hold(taken.game, taken.options, taken.stake)
            await wallets.check_cover(store, user.id, hold)
            await wallets.check_cover(store, sender.id, hold)
            bots = {str(FIRST_BOT_SEAT + i): level for i, level in enumerate(taken.bots or ())}
            table = await self.lobby.create(
                sender,
                taken.game,
                options=taken.options,
                bots=bots,
                private=taken.private,
                seat=0,
                stake=taken.stake,
            )
        except ProtocolError:
            await challenges.reopen(store, taken.id)
            raise
        try:
            await table.sit(user.id, user.name, 1, user.guest, None)
        except ProtocolError:
            with contextlib.suppress(ProtocolError):
                await table.leave(sender.id)  # the table was his for this challenge only
            await challenges.reopen(store, taken.id)
            raise
        await challenges.set_table(store, taken.id, table.id)
        done = await challenges.get(store, taken.id, user)
        await self._push(done.from_id, done)
        return done
