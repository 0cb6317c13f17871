"""What the profile, history and leaderboard routes answer (``docs/protocol.md``,
"Ratings and profiles"): read-only queries over users, finished tables and ratings."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from sqlalchemy import and_, exists, func, or_, select
from sqlalchemy.sql.elements import ColumnElement

from kozyr.server.accounts import names
from kozyr.server.accounts.ratings import PROVISIONAL_GAMES, VARIANTS, display, ranks_of
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, User, now_ms
from kozyr.server.transport.paging import whole
from kozyr.server.transport.protocol import ProtocolError

DELETED = "deleted"
"""The name a deleted account shows everywhere (the page shows it in its language, from
its own catalogue; nobody may take it, in either language: ``names.DELETED_NAMES``)."""
HISTORY_POINTS = 500
"""The most recent rating changes a profile gives per variant (the chart's points)."""
GAMES_PAGE = 20
MAX_GAMES_PAGE = 100
LEADERS = 100
RECENT_DAYS = 90
"""The leaderboard lists players with a rated game in this many days."""


def games_bounds(offset: Any, limit: Any) -> tuple[int, int]:
    return whole(offset, "offset", 0, 0, 1_000_000_000), whole(
        limit, "limit", GAMES_PAGE, 1, MAX_GAMES_PAGE
    )


async def user_named(store: Store, name: str) -> User:
    """The account called ``name`` (as typed: NFKC, any case); 404 ``no_user``."""
    user = await store.user_by_name(names.normalise(name)) if len(name) <= 200 else None
    if user is None:
        raise ProtocolError("no_user", status=404)
    return user


def _places(result: dict[str, Any] | None, players: int) -> list[int] | None:
    """Each seat's place (1 = first), if the result says (rows from before 0011 may only
    name the winner)."""
    places = (result or {}).get("places")
    return ranks_of(places, players) if isinstance(places, list) else None


def _winner(result: dict[str, Any] | None) -> int | None:
    result = result or {}
    places = result.get("places") or result.get("standing")
    if isinstance(places, list) and places:
        return int(places[0])
    winner = result.get("winner")
    return winner if isinstance(winner, int) else None


async def profile(store: Store, user: User) -> dict[str, Any]:
    mine = f"user:{user.id}"
    async with store.engine.connect() as conn:
        finished = (
            await conn.execute(
                select(m.table_players.c.seat, m.game_tables.c.result)
                .join(m.game_tables, m.game_tables.c.id == m.table_players.c.table_id)
                .where(m.table_players.c.user_id == user.id, m.game_tables.c.status == "finished")
            )
        ).all()
        created = await conn.scalar(select(m.users.c.created_ms).where(m.users.c.id == user.id))
        rated = (await conn.execute(select(m.ratings).where(m.ratings.c.player == mine))).all()
        changes = (
            await conn.execute(
                select(m.rating_changes)
                .where(m.rating_changes.c.player == mine)
                .order_by(m.rating_changes.c.id)
            )
        ).all()
    won = sum(1 for r in finished if _winner(json.loads(r.result) if r.result else None) == r.seat)
    history: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for c in changes:
        history[c.variant].append(
            {"at_ms": c.at_ms, "rating": display(c.mu_after, c.sigma_after), "game_id": c.table_id}
        )
    ratings = {
        r.variant: {
            "rating": display(r.mu, r.sigma),
            "mu": r.mu,
            "sigma": r.sigma,
            "games": r.games,
            "provisional": r.games < PROVISIONAL_GAMES,
            "history": history[r.variant][-HISTORY_POINTS:],
        }
        for r in sorted(rated, key=lambda r: VARIANTS.index(r.variant))
    }
    return {
        "name": user.name,
        "guest": user.guest,
        "created_ms": created,
        "deleted": False,
        "games": len(finished),
        "won": won,
        "ratings": ratings,
    }


def _visible_to(viewer: User | None) -> ColumnElement[bool]:
    """Public games, and private ones the viewer played in."""
    if viewer is None:
        return m.game_tables.c.private.is_(False)
    seen = m.table_players.alias("seen")
    return or_(
        m.game_tables.c.private.is_(False),
        exists().where(and_(seen.c.table_id == m.game_tables.c.id, seen.c.user_id == viewer.id)),
    )


async def games(
    store: Store, user: User, viewer: User | None, offset: int, limit: int
) -> dict[str, Any]:
    """One page of ``user``'s finished games, newest first, as ``viewer`` may see them."""
    where = and_(
        m.table_players.c.user_id == user.id,
        m.game_tables.c.status == "finished",
        _visible_to(viewer),
    )
    joined = m.game_tables.join(m.table_players, m.table_players.c.table_id == m.game_tables.c.id)
    async with store.engine.connect() as conn:
        total = await conn.scalar(select(func.count()).select_from(joined).where(where))
        rows = (
            await conn.execute(
                select(m.game_tables, m.table_players.c.seat.label("my_seat"))
                .select_from(joined)
                .where(where)
                .order_by(m.game_tables.c.finished_ms.desc(), m.game_tables.c.id.desc())
                .offset(offset)
                .limit(limit)
            )
        ).all()
        ids = [r.id for r in rows]
        people = {
            s["user_id"] for r in rows for s in json.loads(r.seats) if s.get("user_id") is not None
        }
        users = {
            u.id: u
            for u in (
                await conn.execute(
                    select(m.users.c.id, m.users.c.name, m.users.c.deleted_ms).where(
                        m.users.c.id.in_(people)
                    )
                )
            ).all()
        }
        moved = {
            c.table_id: c
            for c in (
                await conn.execute(
                    select(m.rating_changes).where(
                        m.rating_changes.c.table_id.in_(ids),
                        m.rating_changes.c.player == f"user:{user.id}",
                    )
                )
            ).all()
        }
    out = []
    for r in rows:
        result = json.loads(r.result) if r.result else None
        places = _places(result, r.players)
        players = []
        for i, s in enumerate(json.loads(r.seats)):
            person = users.get(s.get("user_id"))
            gone = person is not None and person.deleted_ms is not None
            players.append(
                {
                    "seat": i,
                    "name": DELETED if gone else (person.name if person else s.get("name")),
                    "bot": s.get("bot"),
                    "deleted": gone,
                    "place": places[i] if places else None,
                }
            )
        place = places[r.my_seat] if places else None
        change = moved.get(r.id)
        out.append(
            {
                "id": r.id,
                "finished_ms": r.finished_ms,
                "variant": f"{r.game}-{r.players}p",
                "rated": bool(r.rated),
                # a rated game that moved no rating, and why (docs/ratings.md)
                "unrated": r.unrated,
                "players": players,
                "place": place,
                "won": _winner(result) == r.my_seat,
                "rating_change": None
                if change is None
                else {
                    "before": display(change.mu_before, change.sigma_before),
                    "after": display(change.mu_after, change.sigma_after),
                },
                "replay": f"#/replay/{r.id}",
            }
        )
    return {"games": out, "total": int(total or 0), "offset": offset, "limit": limit}


async def leaderboard(store: Store, variant: Any) -> dict[str, Any]:
    """The best ``LEADERS`` players of a variant rated in the last ``RECENT_DAYS`` days."""
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise ProtocolError("bad_variant")
    since = now_ms() - RECENT_DAYS * 86_400_000
    r, u = m.ratings, m.users
    async with store.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(r, u.c.name)
                .outerjoin(u, u.c.id == r.c.user_id)
                .where(
                    r.c.variant == variant,
                    r.c.last_ms >= since,
                    or_(r.c.user_id.is_(None), u.c.deleted_ms.is_(None)),
                )
                .order_by((r.c.mu - 3 * r.c.sigma).desc(), r.c.games.desc(), r.c.player)
                .limit(LEADERS)
            )
        ).all()
    return {
        "variant": variant,
        "players": [
            {
                "rank": i + 1,
                "name": row.name if row.bot is None else f"bot {row.bot}",
                "bot": row.bot,
                "rating": display(row.mu, row.sigma),
                "mu": row.mu,
                "sigma": row.sigma,
                "games": row.games,
                "provisional": row.games < PROVISIONAL_GAMES,
            }
            for i, row in enumerate(rows)
        ],
    }
