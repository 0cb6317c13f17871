"""Ratings: one openskill Plackett-Luce rating per player and variant (``docs/ratings.md``).

A player is a person (``user:7``) or a bot level (``bot:3``); a variant is a game and its
number of players (``imperial-2p``). A finished rated game moves every seat's rating by
its final place in the transaction that commits the game's last action (:func:`on_finish`,
a ``Store.on_finish`` hook), and ``kozyr ratings rebuild`` (:func:`rebuild`) recomputes
them all from the stored games with the same function, so both give the same floats.

The maths is openskill's own (``PlackettLuce().rate``); this module only decides who is
rated, in what order, and how a rating is shown. A rated game that was abandoned at its
start, or seated two people of one address, or a too new account, moves no rating at all
(:class:`Eligibility`, :func:`unrated_reason`; the reason is stored with the game). An
update of 2-4 players takes well under a millisecond (``bench/ratings.py``), so it runs
where the transaction runs.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.server.play.games import GAMES, final_result, new_state
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Seat, Store, TableRow
from kozyr.server.transport.addresses import address_key

MODEL = PlackettLuce()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""

BASE = 1500
SCALE = 40
PROVISIONAL_GAMES = 10
"""A rating is provisional (shown "1234?") until this many rated games."""

VARIANTS: tuple[str, ...] = tuple(
    f"{name}-{n}p" for name, game in GAMES.items() for n in game.player_counts
)


def variant_of(game: str, players: int) -> str:
    return f"{game}-{players}p"


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def rating(self) -> int:
        """The shown rating: 1500 + 40 x openskill's ordinal (mu - 3 sigma)."""
        return display(self.mu, self.sigma)


DEFAULT = Skill(MODEL.mu, MODEL.sigma)


def display(mu: float, sigma: float) -> int:
    """The number players see: a new player (ordinal 0) shows 1500.

    >>> display(25.0, 25 / 3), display(30.0, 5.0)
    (1500, 2100)
    """
    return round(BASE + SCALE * MODEL.rating(mu=mu, sigma=sigma).ordinal())


def player_of(seat: Seat) -> str | None:
    """The rated player holding a seat: ``user:ID``, ``bot:LEVEL``, or None (empty)."""
    if seat.bot is not None:
        return f"bot:{seat.bot}"
    if seat.user_id is not None:
        return f"user:{seat.user_id}"
    return None


def ranks_of(places: Sequence[int], players: int) -> list[int]:
    """Each seat's place (1 = first) from the seats in finishing order."""
    ranks = [0] * players
    for i, seat in enumerate(places):
        ranks[seat] = i + 1
    return ranks


def rate(priors: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """openskill's update of one game: one team per seat, ``ranks`` its place (equal
    ranks are a tie)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in priors]
    rated = MODEL.rate(teams, ranks=list(ranks))
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def game_update(
    players: Sequence[str], ranks: Sequence[int], current: dict[str, Skill]
) -> dict[str, tuple[Skill, Skill]]:
    """Every player's (before, after) for one game; ``players`` by seat. A player who holds
    several seats (two bots of one level) is rated once per seat from the same prior and
    keeps the mean of the results."""
    priors = [current.get(p, DEFAULT) for p in players]
    posts = rate(priors, ranks)
    out: dict[str, tuple[Skill, Skill]] = {}
    for player in dict.fromkeys(players):
        mine = [post for p, post in zip(players, posts, strict=True) if p == player]
        after = Skill(sum(s.mu for s in mine) / len(mine), sum(s.sigma for s in mine) / len(mine))
        out[player] = (current.get(player, DEFAULT), after)
    return out


def _rated_players(row: TableRow) -> list[str] | None:
    """The players of a rated game by seat, or None if it moves no rating: casual, no
    places, an empty seat, or nobody but bots (anyone could then move bot ratings at will)."""
    if not row.rated or row.result is None or not isinstance(row.result.get("places"), list):
        return None
    players = [player_of(s) for s in row.seats]
    if any(p is None for p in players) or not any(s.user_id is not None for s in row.seats):
        return None
    return [p for p in players if p is not None]


# -- who may rate whom (issue 27: no farming with fresh accounts) -----------------------

DAY_MS = 86_400_000


@dataclass(frozen=True, slots=True)
class Eligibility:
    """When a rated game moves no rating at all (for anybody at the table): see
    ``docs/ratings.md``, "Games that are not rated after all"."""

    min_moves: int = 2
    """A person whose seat a bot played (he left, or his time ran out) before he had made
    this many moves himself abandoned the game at its start: ``aborted``. (A game that
    simply ends before someone's turn comes is rated.)"""
    new_games: int = 3
    new_days: float = 3.0
    """An account rates once it is ``new_days`` old or has finished ``new_games`` games
    (each with ``min_moves`` moves of his own) when the game starts; before that every
    rated game it plays is ``new_account``. 0 in either: every account rates."""
    shared_address: bool = False
    """True: people who sat down from one address still rate each other (else the game
    is ``shared_address``); for tests, whose clients all come from 127.0.0.1."""

    @classmethod
    def off(cls) -> Eligibility:
        """No rule: every finished rated game is rated (as before issue 27)."""
        return cls(min_moves=0, new_games=0, new_days=0, shared_address=True)


def address_mark(address: str | None) -> str | None:
    """What a seat keeps of the address its person sat down from: enough to tell two
    seats of one address apart from two of different ones, not the address itself (and
    only until the game ends). Two addresses of one IPv6 /64 are one (``address_key``):
    a host may take any of its network's 2^64 addresses."""
    if not address:
        return None
    return hashlib.sha256(f"kozyr-seat:{address_key(address)}".encode()).hexdigest()[:16]


async def _abandoned(conn: AsyncConnection, row: TableRow, min_moves: int) -> bool:
    """Whether a bot moved for a person's seat before he had made ``min_moves`` moves
    himself (his moves are logged as ``user:ID``, a bot's for him as ``bot``)."""
    people = {i: f"user:{s.user_id}" for i, s in enumerate(row.seats) if s.user_id is not None}
    own = dict.fromkeys(people, 0)
    a = m.actions
    rows = await conn.execute(
        select(a.c.seat, a.c.actor).where(a.c.table_id == row.id).order_by(a.c.seq)
    )
    for seat, actor in rows.all():
        if seat not in people or own[seat] >= min_moves:
            continue
        if actor != people[seat]:
            return True
        own[seat] += 1
    return False


async def _is_new(conn: AsyncConnection, user_id: int, row: TableRow, rules: Eligibility) -> bool:
    """Whether the account was too new to rate when the game started."""
    if rules.new_games <= 0 or rules.new_days <= 0:
        return False
    started = int(row.started_ms or row.finished_ms or 0)
    created = await conn.scalar(select(m.users.c.created_ms).where(m.users.c.id == user_id))
    if created is None or started - int(created) >= rules.new_days * DAY_MS:
        return False
    t, a = m.game_tables, m.actions
    played = (
        select(a.c.table_id)
        .join(t, t.c.id == a.c.table_id)
        .where(
            a.c.actor == f"user:{user_id}",
            t.c.status == "finished",
            t.c.finished_ms <= started,
            t.c.id != row.id,
        )
        .group_by(a.c.table_id)
        .having(func.count() >= max(1, rules.min_moves))
        .limit(rules.new_games)
        .subquery()
    )
    games = await conn.scalar(select(func.count()).select_from(played))
    return int(games or 0) < rules.new_games


async def unrated_reason(conn: AsyncConnection, row: TableRow, rules: Eligibility) -> str | None:
    """Why a finished rated game between people moves no rating, or None: ``aborted``
    (someone left it before ``min_moves`` moves of his own), ``shared_address`` (two
    people sat down from one address), ``new_account`` (someone's account was too new)."""
    people = [s for s in row.seats if s.user_id is not None]
    if rules.min_moves > 0 and await _abandoned(conn, row, rules.min_moves):
        return "aborted"
    if not rules.shared_address:
        marks = [s.addr for s in people if s.addr is not None]
        if len(marks) != len(set(marks)):
            return "shared_address"
    for s in people:
        assert s.user_id is not None
        if await _is_new(conn, s.user_id, row, rules):
            return "new_account"
    return None


async def _forget_addresses(conn: AsyncConnection, row: TableRow, unrated: str | None) -> None:
    """The finished game's row keeps no address mark, and says why it is unrated. (The
    row in memory is left alone: a transaction that fails is retried with it.)"""
    if unrated is None and all(s.addr is None for s in row.seats):
        return
    seats = [s.to_json() for s in row.seats]
    await conn.execute(
        update(m.game_tables)
        .where(m.game_tables.c.id == row.id)
        .values(seats=json.dumps(seats), unrated=unrated)
    )


def _ids(player: str) -> dict[str, int | None]:
    kind, _, number = player.partition(":")
    return {
        "user_id": int(number) if kind == "user" else None,
        "bot": int(number) if kind == "bot" else None,
    }


async def on_finish(conn: AsyncConnection, row: TableRow, rules: Eligibility | None = None) -> None:
    """The ``Store.on_finish`` hook: a rated game's rating updates, committed with its last
    action, unless ``rules`` find it unrated (``row.unrated`` says why). Idempotent per
    table (the changes are written once)."""
    rules = Eligibility() if rules is None else rules
    players = _rated_players(row)
    if players is None:
        await _forget_addresses(conn, row, None)
        return
    assert row.result is not None
    done = await conn.scalar(
        select(m.rating_changes.c.id).where(m.rating_changes.c.table_id == row.id).limit(1)
    )
    if done is not None:
        return
    unrated = await unrated_reason(conn, row, rules)
    await _forget_addresses(conn, row, unrated)
    if unrated is not None:
        row.unrated = unrated
        return
    variant = variant_of(row.game, row.players)
    at = int(row.finished_ms or 0)
    distinct = list(dict.fromkeys(players))
    # The rows exist before they are locked, so two servers finishing games of one bot
    # level at once (PostgreSQL) wait for each other instead of failing on the insert.
    dialect = conn.dialect.name
    maker = postgresql.insert if dialect == "postgresql" else sqlite.insert
    for player in distinct:
        await conn.execute(
            maker(m.ratings)
            .values(
                player=player,
                variant=variant,
                mu=DEFAULT.mu,
                sigma=DEFAULT.sigma,
                games=0,
                last_ms=at,
                **_ids(player),
            )
            .on_conflict_do_nothing()
        )
    rows = (
        await conn.execute(
            select(m.ratings)
            .where(m.ratings.c.variant == variant, m.ratings.c.player.in_(distinct))
            .with_for_update()
        )
    ).all()
    current = {r.player: Skill(r.mu, r.sigma) for r in rows}
    changes = game_update(players, ranks_of(row.result["places"], row.players), current)
    played = {r.player: int(r.games) + 1 for r in rows}
    # what the game-over dialog shows (the row in memory; the table's info carries it)
    row.rating_changes = [shown(*changes[p], played[p]) for p in players]
    for player, (before, after) in changes.items():
        await conn.execute(
            update(m.ratings)
            .where(m.ratings.c.player == player, m.ratings.c.variant == variant)
            .values(mu=after.mu, sigma=after.sigma, games=m.ratings.c.games + 1, last_ms=at)
        )
        await conn.execute(
            insert(m.rating_changes).values(
                table_id=row.id,
                player=player,
                variant=variant,
                mu_before=before.mu,
                sigma_before=before.sigma,
                mu_after=after.mu,
                sigma_after=after.sigma,
                at_ms=at,
            )
        )


def shown(before: Skill, after: Skill, games: int) -> dict[str, Any]:
    """A seat's rating change as players see it: the shown ratings before and after a
    game, and whether the new one is still provisional (``games`` rated games so far).

    >>> shown(DEFAULT, Skill(27.0, 7.5), 1)
    {'before': 1500, 'after': 1680, 'provisional': True}
    """
    return {
        "before": before.rating,
        "after": after.rating,
        "provisional": games < PROVISIONAL_GAMES,
    }


async def changes_of(conn: AsyncConnection, row: TableRow) -> list[dict[str, Any] | None] | None:
    """A finished table's rating change of each seat, from ``rating_changes`` (as the finish
    hook set them on the row in memory), or None when the game moved no rating. Bounded:
    a row a player, and a count of each player's earlier changes on the index."""
    if not row.rated or row.status != "finished" or row.unrated is not None:
        return None
    rc = m.rating_changes
    found = (await conn.execute(select(rc).where(rc.c.table_id == row.id))).all()
    if not found:
        return None
    by_player: dict[str, dict[str, Any]] = {}
    for c in found:
        games = await conn.scalar(
            select(func.count())
            .select_from(rc)
            .where(rc.c.player == c.player, rc.c.variant == c.variant, rc.c.id <= c.id)
        )
        by_player[c.player] = shown(
            Skill(c.mu_before, c.sigma_before), Skill(c.mu_after, c.sigma_after), int(games or 0)
        )
    players = [player_of(s) for s in row.seats]
    return [None if p is None else by_player.get(p) for p in players]


def install(store: Store, rules: Eligibility | None = None) -> None:
    """Rates the store's finished rated games under ``rules`` (default: the defaults)."""
    chosen = Eligibility() if rules is None else rules

    async def hook(conn: AsyncConnection, row: TableRow) -> None:
        await on_finish(conn, row, chosen)

    store.on_finish.append(hook)


# -- rebuild ----------------------------------------------------------------------------


@dataclass
class Rebuilt:
    """What ``kozyr ratings rebuild`` did."""

    games: int = 0
    ratings: int = 0
    changed: int = 0
    """Ratings whose stored mu or sigma differed from the recomputed ones."""
    replayed: int = 0
    """Games whose places had to be found by replaying their logs (stored before 0011)."""
    by_variant: dict[str, int] = field(default_factory=dict)

    def lines(self) -> list[str]:
        out = [
            f"rebuilt {self.ratings} ratings from {self.games} rated games "
            f"({self.replayed} replayed from their logs)",
            f"{self.changed} ratings differed from the stored ones",
        ]
        out += [f"  {v}: {n} games" for v, n in sorted(self.by_variant.items())]
        return out


def _replayed_result(row: TableRow, texts: list[str]) -> dict[str, Any]:
    state = new_state(row)
    for text in texts:
        state.play(text)
    return final_result(row, state)


async def rebuild(store: Store) -> Rebuilt:
    """Recomputes every rating from the finished rated games, in the order they finished
    (ties of the same millisecond in the order the live updates were made), and replaces
    the stored ratings and changes with the result, in one transaction. A game found
    unrated when it finished (``unrated``) stays unrated: the rules were applied then,
    to the accounts and addresses as they were."""
    first_change = (
        select(m.rating_changes.c.table_id, func.min(m.rating_changes.c.id).label("first"))
        .group_by(m.rating_changes.c.table_id)
        .subquery()
    )
    async with store.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(m.game_tables, first_change.c.first)
                .outerjoin(first_change, first_change.c.table_id == m.game_tables.c.id)
                .where(
                    m.game_tables.c.status == "finished",
                    m.game_tables.c.rated.is_(True),
                    m.game_tables.c.unrated.is_(None),
                )
            )
        ).all()
        old = {
            (r.player, r.variant): Skill(r.mu, r.sigma)
            for r in (await conn.execute(select(m.ratings))).all()
        }
    big = 1 << 62
    rows = sorted(rows, key=lambda r: (r.finished_ms or 0, r.first or big, r.id))
    done = Rebuilt()
    skills: dict[tuple[str, str], Skill] = {}
    counts: dict[tuple[str, str], int] = {}
    last: dict[tuple[str, str], int] = {}
    changes: list[dict[str, Any]] = []
    for r in rows:
        table = Store._row_to_table(r)
        if table.result is None or "places" not in table.result:
            texts = [a.text for a in await store.actions(table.id)]
            table.result = await asyncio.to_thread(_replayed_result, table, texts)
            done.replayed += 1
        players = _rated_players(table)
        if players is None:
            continue
        assert table.result is not None
        variant = variant_of(table.game, table.players)
        at = int(table.finished_ms or 0)
        current = {p: skills[(p, variant)] for p in players if (p, variant) in skills}
        ranks = ranks_of(table.result["places"], table.players)
        for player, (before, after) in game_update(players, ranks, current).items():
            key = (player, variant)
            skills[key] = after
            counts[key] = counts.get(key, 0) + 1
            last[key] = at
            changes.append(
                {
                    "table_id": table.id,
                    "player": player,
                    "variant": variant,
                    "mu_before": before.mu,
                    "sigma_before": before.sigma,
                    "mu_after": after.mu,
                    "sigma_after": after.sigma,
                    "at_ms": at,
                }
            )
        done.games += 1
        done.by_variant[variant] = done.by_variant.get(variant, 0) + 1
    done.ratings = len(skills)
    done.changed = sum(1 for k, s in skills.items() if old.get(k) != s) + sum(
        1 for k in old if k not in skills
    )
    async with store._write() as conn:
        await conn.execute(delete(m.rating_changes))
        await conn.execute(delete(m.ratings))
        if skills:
            await conn.execute(
                insert(m.ratings),
                [
                    {
                        "player": p,
                        "variant": v,
                        "mu": s.mu,
                        "sigma": s.sigma,
                        "games": counts[(p, v)],
                        "last_ms": last[(p, v)],
                        **_ids(p),
                    }
                    for (p, v), s in skills.items()
                ],
            )
        if changes:
            await conn.execute(insert(m.rating_changes), changes)
    return done
