"""Serving puzzles (#29, docs/puzzles.md): the daily puzzle, the next one near a person's
puzzle rating, one by id, a judged answer and a person's history.

A puzzle is shown as the solver seat's observation of its position, rebuilt by replay
(:func:`.puzzle_finder.solver_view`), and nothing else of it: no other hand, no later
card, no source game, and never its values. Only puzzles of bot games and of public
tables are served. Serving a puzzle to a signed-in person marks it served to him
(``puzzle_served``); only then may he answer it, and only his answer's reply names the
legal cards' values.

Puzzle ratings are openskill's (as the games' are, :mod:`kozyr.server.accounts.ratings`):
a person's first attempt at a puzzle is a game of two, the person against the puzzle,
won by whoever is right; later attempts are judged but move nothing. The puzzle's side
of that game counts as :func:`weight` of an observation, by how much is known of the
person's rating: a new account's answer moves no puzzle. The number shown is
``1500 + 40 * (mu - 25)``, the estimate itself rather than the games' conservative
``mu - 3 sigma``: that way a solved puzzle always raises it and a failed one lowers it.
An attempt locks the person's rating row, then the puzzle's, so that answers at once
are rated one after the other, none lost.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import json
from typing import Any

from sqlalchemy import ColumnElement, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.cards import card_name, parse_card
from kozyr.games import GAMES
from kozyr.review import ranker
from kozyr.server.accounts.ratings import BASE, DEFAULT, SCALE, Skill, rate
from kozyr.server.reviews.puzzle_finder import solver_view
from kozyr.server.storage import models as m
from kozyr.server.storage.store import Store, User, insert_new, now_ms
from kozyr.server.transport.protocol import ProtocolError
from kozyr.texts import LANGS, Lang, text

__all__ = [
    "HISTORY_PAGE",
    "MAX_ID",
    "PuzzleBook",
    "servable",
    "shown",
    "tempered",
    "utc_day",
    "weight",
]

MAX_ID = 2**31 - 1
HISTORY_PAGE = 100


def shown(mu: float) -> int:
    """The puzzle rating a person (or a puzzle) is shown.

    >>> shown(25.0), shown(27.5)
    (1500, 1600)
    """
    return round(BASE + SCALE * (mu - DEFAULT.mu))


def weight(person: Skill) -> float:
    """How much of an observation a person's first answer is to the puzzle: the share of
    his rating's prior variance that his answers have removed, ``1 - sigma^2 / sigma0^2``
    (the weight Bayesian shrinkage gives the evidence). A new account (sigma0) weighs 0,
    so a crowd of fresh accounts cannot move a puzzle; it grows with his answers.

    >>> weight(DEFAULT), weight(Skill(25.0, DEFAULT.sigma / 2))
    (0.0, 0.75)
    """
    return max(0.0, 1.0 - (person.sigma / DEFAULT.sigma) ** 2)


def tempered(prior: Skill, full: Skill, w: float) -> Skill:
    """``prior`` moved by ``w`` of the update that took it to ``full``: in the Gaussian
    approximation openskill makes, the observation's likelihood raised to the power ``w``
    (its precision added ``w`` times, its pull on the mean scaled alike). ``w`` 0 keeps
    ``prior``, 1 gives ``full``.

    >>> tempered(Skill(25.0, 2.0), Skill(23.0, 1.0), 0.0)
    Skill(mu=25.0, sigma=2.0)
    >>> tempered(Skill(25.0, 2.0), Skill(23.0, 1.0), 1.0)
    Skill(mu=23.0, sigma=1.0)
    """
    before, after = prior.sigma**-2, full.sigma**-2
    precision = before + w * (after - before)
    mu = prior.mu + w * (after / precision) * (full.mu - prior.mu)
    return Skill(mu, precision**-0.5)


def servable() -> ColumnElement[bool]:
    """The puzzles that may be served: of bot games, or of tables that were public (a
    private table's hands are its players' and its invitees' only)."""
    p, t = m.puzzles, m.game_tables
    return or_(
        p.c.table_id.is_(None), p.c.table_id.in_(select(t.c.id).where(t.c.private.is_(False)))
    )


def utc_day(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).strftime("%Y-%m-%d")


def _number(value: float, lang: Lang) -> str:
    out = f"{value:.1f}"
    return out.replace(".", ",") if lang == "ru" else out


def _card(name: str, lang: Lang) -> str:
    return card_name(parse_card(name), lang, symbols=True)


def words(row: Any, card: str | None) -> dict[str, dict[str, str]]:
    """The answer in words, both languages: ``verdict`` (right, or how much worse the card
    was), ``why`` (the values), ``line`` (the cards in order, and what the game played)."""
    values: list[list[Any]] = json.loads(row.card_values)
    value = dict((c, float(v)) for c, v in values)
    unit = ranker(row.game).UNIT
    out: dict[str, dict[str, str]] = {"verdict": {}, "why": {}, "line": {}}
    for i, lang in enumerate(LANGS):
        u = unit[i]
        best, second = values[0], values[1]
        if card is not None:
            out["verdict"][lang] = (
                text("puzzles.right", lang, card=_card(card, lang))
                if card == row.best
                else text(
                    "puzzles.wrong",
                    lang,
                    card=_card(card, lang),
                    loss=_number(value[row.best] - value[card], lang),
                    unit=u,
                    best=_card(row.best, lang),
                )
            )
        out["why"][lang] = text(
            "puzzles.why",
            lang,
            best=_card(best[0], lang),
            best_value=_number(best[1], lang),
            second=_card(second[0], lang),
            second_value=_number(second[1], lang),
            margin=_number(row.margin, lang),
            unit=u,
        )
        others = ", ".join(f"{_card(c, lang)} ({_number(v, lang)})" for c, v in values[1:])
        out["line"][lang] = text(
            "puzzles.line",
            lang,
            best=_card(best[0], lang),
            best_value=_number(best[1], lang),
            others=others,
            played=_card(row.played, lang),
        )
    return out


class PuzzleBook:
    """The puzzles of one store, for the routes (stateless: one per request is fine)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- reading --------------------------------------------------------------------

    async def _row(self, puzzle_id: int) -> Any:
        if not 1 <= puzzle_id <= MAX_ID:
            raise ProtocolError("no_puzzle", status=404)
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(select(m.puzzles).where(m.puzzles.c.id == puzzle_id, servable()))
            ).first()
        if row is None:
            raise ProtocolError("no_puzzle", status=404)
        return row

    async def _skill(self, conn: AsyncConnection, user_id: int) -> tuple[Skill, int, int]:
        r = m.puzzle_ratings
        row = (await conn.execute(select(r).where(r.c.user_id == user_id))).first()
        if row is None:
            return DEFAULT, 0, 0
        return Skill(row.mu, row.sigma), int(row.attempts), int(row.solved)

    async def rating(self, user: User | None) -> dict[str, Any] | None:
        if user is None:
            return None
        async with self.store.engine.connect() as conn:
            skill, attempts, solved = await self._skill(conn, user.id)
        return {"rating": shown(skill.mu), "attempts": attempts, "solved": solved}

    async def view(self, row: Any, user: User | None, daily: bool = False) -> dict[str, Any]:
        """A puzzle as the page gets it: the solver seat's observation and legal cards
        (never their values). Served to a signed-in person, it is marked served to him."""
        position = json.loads(row.position)
        observation, legal = await asyncio.to_thread(solver_view, position, row.seat)
        tried = None
        if user is not None:
            async with self.store.transaction() as conn:
                await conn.execute(
                    insert_new(conn, m.puzzle_served).values(
                        user_id=user.id, puzzle_id=row.id, served_ms=now_ms()
                    )
                )
            a = m.puzzle_attempts
            async with self.store.engine.connect() as conn:
                first = (
                    await conn.execute(
                        select(a.c.card, a.c.solved).where(
                            a.c.user_id == user.id, a.c.puzzle_id == row.id, a.c.number == 1
                        )
                    )
                ).first()
            if first is not None:
                tried = {"card": first.card, "solved": bool(first.solved)}
        unit = ranker(row.game).UNIT
        return {
            "id": row.id,
            "game": row.game,
            "players": row.players,
            "seat": row.seat,
            "source": row.source,
            "daily": daily,
            "position": observation,
            "legal": legal,
            "rating": shown(row.mu),
            "attempts": row.attempts,
            "solved": row.solved,
            "unit": {"en": unit[0], "ru": unit[1]},
            "tried": tried,
        }

    async def one(self, puzzle_id: int, user: User | None) -> dict[str, Any]:
        row = await self._row(puzzle_id)
        return {"puzzle": await self.view(row, user, await self._is_daily(row.id))}

    async def _is_daily(self, puzzle_id: int) -> bool:
        d = m.puzzle_days
        async with self.store.engine.connect() as conn:
            got = await conn.scalar(select(d.c.puzzle_id).where(d.c.day == utc_day(now_ms())))
        return got == puzzle_id

    async def daily(self, user: User | None, at_ms: int | None = None) -> dict[str, Any]:
        """The day's puzzle (UTC), the same for everyone: chosen by the day's first request
        from the puzzles there are then, and kept (``puzzle_days``)."""
        day = utc_day(now_ms() if at_ms is None else at_ms)
        d, p = m.puzzle_days, m.puzzles
        async with self.store.engine.connect() as conn:
            chosen = await conn.scalar(select(d.c.puzzle_id).where(d.c.day == day))
        if chosen is None:
            async with self.store.engine.connect() as conn:
                ids = [
                    i
                    for (i,) in (
                        await conn.execute(select(p.c.id).where(servable()).order_by(p.c.id))
                    ).all()
                ]
            if not ids:
                return {"puzzle": None, "day": day}
            pick = ids[int(hashlib.sha256(day.encode()).hexdigest(), 16) % len(ids)]
            async with self.store.transaction() as conn:
                await conn.execute(insert_new(conn, d).values(day=day, puzzle_id=pick))
            async with self.store.engine.connect() as conn:
                chosen = await conn.scalar(select(d.c.puzzle_id).where(d.c.day == day))
        if chosen is None:
            raise ProtocolError("no_puzzle", status=404)
        row = await self._row(int(chosen))
        return {"puzzle": await self.view(row, user, daily=True), "day": day}

    async def next(self, user: User | None, game: str | None) -> dict[str, Any]:
        """The puzzle nearest the person's puzzle rating that he has not tried (of
        ``game``, if given); ``{"puzzle": null}`` when none is left."""
        if game is not None and game not in GAMES:
            raise ProtocolError("bad_game", status=400)
        p, a = m.puzzles, m.puzzle_attempts
        async with self.store.engine.connect() as conn:
            mu = DEFAULT.mu
            query = select(p).where(servable())
            if user is not None:
                mu = (await self._skill(conn, user.id))[0].mu
                tried = select(a.c.puzzle_id).where(a.c.user_id == user.id)
                query = query.where(p.c.id.not_in(tried))
            if game is not None:
                query = query.where(p.c.game == game)
            row = (
                await conn.execute(query.order_by(func.abs(p.c.mu - mu), p.c.id).limit(1))
            ).first()
        return {"puzzle": None if row is None else await self.view(row, user)}

    async def history(self, user: User, offset: int, limit: int) -> dict[str, Any]:
        """The person's attempts, newest first, and his puzzle rating."""
        a, p = m.puzzle_attempts, m.puzzles
        async with self.store.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(a, p.c.game, p.c.players, p.c.best)
                    .join(p, p.c.id == a.c.puzzle_id)
                    .where(a.c.user_id == user.id)
                    .order_by(a.c.id.desc())
                    .offset(offset)
                    .limit(limit)
                )
            ).all()
        attempts = [
            {
                "puzzle": r.puzzle_id,
                "game": r.game,
                "players": r.players,
                "card": r.card,
                "best": r.best,
                "solved": bool(r.solved),
                "first": r.number == 1,
                "rating_before": r.rating_before,
                "rating_after": r.rating_after,
                "at_ms": r.created_ms,
            }
            for r in rows
        ]
        return {"me": await self.rating(user), "attempts": attempts}

    # -- answering ------------------------------------------------------------------

    async def answer(self, puzzle_id: int, user: User, card: str) -> dict[str, Any]:
        """Judges ``card`` and keeps the attempt; the person's first attempt at this
        puzzle moves his puzzle rating and the puzzle's. 403 ``puzzle_not_served`` unless
        the puzzle was served to him first (the values are in this reply only)."""
        row = await self._row(puzzle_id)
        values: list[list[Any]] = json.loads(row.card_values)
        if card not in {c for c, _ in values}:
            raise ProtocolError("bad_puzzle_card", status=400)
        solved = card == row.best
        change = await self._attempt(row, user, card, solved)
        first = change is not None
        return {
            "puzzle": row.id,
            "card": card,
            "correct": solved,
            "best": row.best,
            "values": [{"card": c, "value": v} for c, v in values],
            "margin": row.margin,
            "unit": dict(zip(LANGS, ranker(row.game).UNIT, strict=True)),
            "first": first,
            "rating": change,
            **words(row, card),
        }

    async def _attempt(
        self, row: Any, user: User, card: str, solved: bool
    ) -> dict[str, int] | None:
        """Stores the attempt; the rating change of a first attempt (else None). Attempts
        of one person wait for each other on his rating row, so one of two at once is the
        first and the other a later one (the unique number is the last guard)."""
        for _ in range(3):
            try:
                async with self.store.transaction() as conn:
                    return await self._attempt_in(conn, row, user, card, solved)
            except IntegrityError:
                continue
        raise ProtocolError("busy", status=503)

    async def _attempt_in(
        self, conn: AsyncConnection, row: Any, user: User, card: str, solved: bool
    ) -> dict[str, int] | None:
        a, p, r, served = m.puzzle_attempts, m.puzzles, m.puzzle_ratings, m.puzzle_served
        now = now_ms()
        was_served = await conn.scalar(
            select(served.c.served_ms).where(
                served.c.user_id == user.id, served.c.puzzle_id == row.id
            )
        )
        if was_served is None:
            raise ProtocolError("puzzle_not_served", status=403)
        # the person's row, then the puzzle's, locked in that order by every attempt
        # (PostgreSQL; SQLite writes one at a time): two answers at once are rated one
        # after the other, and two locks are never taken the other way round
        await conn.execute(
            insert_new(conn, r).values(
                user_id=user.id,
                mu=DEFAULT.mu,
                sigma=DEFAULT.sigma,
                attempts=0,
                solved=0,
                last_ms=now,
            )
        )
        mine = (await conn.execute(select(r).where(r.c.user_id == user.id).with_for_update())).one()
        number = 1 + int(
            await conn.scalar(
                select(func.count())
                .select_from(a)
                .where(a.c.user_id == user.id, a.c.puzzle_id == row.id)
            )
            or 0
        )
        values = {"user_id": user.id, "puzzle_id": row.id, "number": number, "card": card}
        if number > 1:
            await conn.execute(insert(a).values(**values, solved=solved, created_ms=now))
            return None
        skill = Skill(mine.mu, mine.sigma)
        now_row = (
            await conn.execute(select(p.c.mu, p.c.sigma).where(p.c.id == row.id).with_for_update())
        ).one()
        puzzle = Skill(now_row.mu, now_row.sigma)
        me, full = rate([skill, puzzle], [1, 2] if solved else [2, 1])
        it = tempered(puzzle, full, weight(skill))
        before, after = shown(skill.mu), shown(me.mu)
        await conn.execute(
            insert(a).values(
                **values, solved=solved, rating_before=before, rating_after=after, created_ms=now
            )
        )
        await conn.execute(
            update(r)
            .where(r.c.user_id == user.id)
            .values(
                mu=me.mu,
                sigma=me.sigma,
                last_ms=now,
                attempts=r.c.attempts + 1,
                solved=r.c.solved + int(solved),
            )
        )
        await conn.execute(
            update(p)
            .where(p.c.id == row.id)
            .values(
                mu=it.mu,
                sigma=it.sigma,
                attempts=p.c.attempts + 1,
                solved=p.c.solved + int(solved),
            )
        )
        return {"before": before, "after": after, "change": after - before}
