"""Ratings, profiles, histories and the leaderboard over a real server: a whole rated game
moves both players' ratings and shows in both histories and the leaderboard; a casual
game moves nothing; guests get no rated seat; bad input gets 4xx with codes."""

from __future__ import annotations

import asyncio
import random
import secrets
from typing import Any

import pytest
from tests.server.support import Player, ServerProc

pytestmark = pytest.mark.asyncio

# Two new players, one game (hand-worked in test_ratings_maths): the winner's mu is
# 25 + 2.63539, the loser's 25 - 2.63539, both sigmas 8.06590; shown 1500 + 40 (mu - 3 sigma)
WINNER = (27.63539, 8.06590, 1638)  # 1637.507
LOSER = (22.36461, 8.06590, 1427)  # 1426.676


def unique(prefix: str) -> str:
    # letters only: digits 0 and 1 have look-alikes that would make names clash
    return prefix + "".join(secrets.choice("abcdefghjkmnpqrstuvwxyz") for _ in range(8))


async def account(server: ServerProc, prefix: str = "Rater-") -> Player:
    return await Player(server, unique(prefix)).sign_in()


async def play_out(table: str, *seated: tuple[Player, int]) -> None:
    """Every person plays random legal moves until the game is over."""
    for p, _ in seated:
        if p.ws is None:
            await p.connect()
        await p.hello(table)
        await p.expect("sync")
    await asyncio.gather(
        *(p.play_until_over(table, seat, random.Random(seat)) for p, seat in seated)
    )


async def two_people(server: ServerProc, a: Player, b: Player, **extra: Any) -> str:
    """A finished Imperial game (target 1) between ``a`` (seat 0) and ``b`` (seat 1)."""
    body = {"game": "imperial", "options": {"target": 1}, "turn_timeout": None, **extra}
    created = await a.post("/api/tables", body)
    table = created["table"]["id"]
    join = {"invite": created["table"]["invite_code"]} if extra.get("private") else {}
    assert (await b.post(f"/api/tables/{table}/join", join))["seat"] == 1
    await play_out(table, (a, 0), (b, 1))
    return str(table)


async def against_bot(server: ServerProc, me: Player, **extra: Any) -> str:
    body = {"game": "imperial", "options": {"target": 1}, "bots": [1], **extra}
    table = (await me.post("/api/tables", body))["table"]["id"]
    await play_out(table, (me, 0))
    return str(table)


async def finished_info(player: Player, table: str) -> dict[str, Any]:
    """The ``table`` frame the game's end sent ``player`` (what his game-over dialog reads)."""
    while (player.tables.get(table) or {}).get("table", {}).get("status") != "finished":
        await player.expect("table")
    return dict(player.tables[table]["table"])


async def get(player: Player | None, server: ServerProc, path: str) -> Any:
    if player is None:
        async with Player(server).http as anonymous:
            return (await anonymous.get(path)).json()
    r = await player.http.get(path)
    assert r.status_code == 200, r.text
    return r.json()


async def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code and body["message"] and body["message_ru"], body


async def test_a_rated_game_moves_both_ratings_into_histories_and_the_leaderboard(
    server: ServerProc,
) -> None:
    a, b = await account(server), await account(server)
    try:
        table = await two_people(server, a, b, rated=True)
        info = (await get(a, server, f"/api/tables/{table}"))["table"]
        assert info["rated"] is True and info["status"] == "finished"
        first = info["result"]["places"][0]
        winner, loser = (a, b) if first == 0 else (b, a)
        for p, (mu, sigma, shown) in ((winner, WINNER), (loser, LOSER)):
            me = await get(None, server, f"/api/users/{p.name}")
            assert (me["name"], me["guest"], me["deleted"]) == (p.name, False, False)
            assert (me["games"], me["won"]) == (1, int(p is winner))
            assert list(me["ratings"]) == ["imperial-2p"]
            rating = me["ratings"]["imperial-2p"]
            assert rating["mu"] == pytest.approx(mu, abs=1e-4)
            assert rating["sigma"] == pytest.approx(sigma, abs=1e-4)
            assert (rating["rating"], rating["games"], rating["provisional"]) == (shown, 1, True)
            assert [(h["rating"], h["game_id"]) for h in rating["history"]] == [(shown, table)]
            games = await get(None, server, f"/api/users/{p.name}/games")
            assert (games["total"], games["offset"], games["limit"]) == (1, 0, 20)
            (game,) = games["games"]
            assert game["id"] == table and game["variant"] == "imperial-2p" and game["rated"]
            assert game["place"] == (1 if p is winner else 2) and game["won"] == (p is winner)
            assert game["rating_change"] == {"before": 1500, "after": shown}
            assert game["replay"] == f"#/replay/{table}"
            assert [(x["seat"], x["name"], x["bot"]) for x in game["players"]] == [
                (0, a.name, None),
                (1, b.name, None),
            ]
            assert sorted(x["place"] for x in game["players"]) == [1, 2]
        board = (await get(None, server, "/api/leaderboard?variant=imperial-2p"))["players"]
        names = [x["name"] for x in board]
        assert names.index(winner.name) < names.index(loser.name)
        entry = board[names.index(winner.name)]
        assert entry == {
            "rank": names.index(winner.name) + 1,
            "name": winner.name,
            "bot": None,
            "rating": 1638,
            "mu": entry["mu"],
            "sigma": entry["sigma"],
            "games": 1,
            "provisional": True,
        }
        assert [x["rank"] for x in board] == list(range(1, len(board) + 1))
        other = await get(None, server, "/api/leaderboard?variant=emperor-4p")
        assert other["variant"] == "emperor-4p" and winner.name not in str(other)
    finally:
        await a.close()
        await b.close()


async def test_the_players_are_told_their_rating_change_when_the_game_ends(
    server: ServerProc,
) -> None:
    """Issue 30, item 7: the game's end reaches each player with every seat's rating
    before and after (the game-over dialog: "Rating 1500 → 1638 (+138)"), and a page
    opened later reads the same from the table's info."""
    a, b = await account(server), await account(server)
    try:
        table = await two_people(server, a, b, rated=True)
        told = [await finished_info(p, table) for p in (a, b)]
        first = told[0]["result"]["places"][0]
        changes = [{"before": 1500, "after": 1427, "provisional": True}] * 2
        changes[first] = {"before": 1500, "after": WINNER[2], "provisional": True}
        assert changes[1 - first]["after"] == LOSER[2]
        for info in told:
            assert (info["rated"], info["unrated"], info["rating_changes"]) == (True, None, changes)
        later = (await get(None, server, f"/api/tables/{table}"))["table"]
        assert later["rating_changes"] == changes
        # a casual game moves no rating and says none
        casual = await two_people(server, a, b)
        info = await finished_info(a, casual)
        assert (info["rated"], info["rating_changes"]) == (False, None)
    finally:
        await a.close()
        await b.close()


async def test_a_bot_level_is_rated_like_anyone(server: ServerProc) -> None:
    me = await account(server)
    try:
        table = await against_bot(server, me, rated=True)
        mine = (await get(me, server, f"/api/users/{me.name}"))["ratings"]["imperial-2p"]
        assert mine["games"] == 1 and mine["history"][0]["game_id"] == table
        board = (await get(None, server, "/api/leaderboard?variant=imperial-2p"))["players"]
        bots = [x for x in board if x["bot"] == 1]
        assert len(bots) == 1 and bots[0]["name"] == "bot 1" and bots[0]["games"] >= 1
    finally:
        await me.close()


async def test_a_casual_game_moves_nothing(server: ServerProc) -> None:
    me = await account(server)
    try:
        quick = await me.post("/api/quickplay", {"game": "emperor", "players": 3, "level": 1})
        assert quick["table"]["rated"] is False  # against the computer: casual
        table = await against_bot(server, me)
        profile = await get(me, server, f"/api/users/{me.name}")
        assert profile["ratings"] == {} and profile["games"] == 1
        # his own profile shows his chips (a casual game without stakes: the welcome
        # grant of 1,000 untouched); anybody else's view of it does not
        assert profile["balance"] == 1000
        assert "balance" not in await get(None, server, f"/api/users/{me.name}")
        (game,) = (await get(me, server, f"/api/users/{me.name}/games"))["games"]
        assert game["id"] == table and game["rated"] is False and game["rating_change"] is None
    finally:
        await me.close()


async def test_guests_get_no_rated_seat(server: ServerProc) -> None:
    guest, host = await Player(server).sign_in(), await account(server)
    try:
        body = {"game": "imperial", "rated": True, "private": True}
        await refused(await guest.http.post("/api/tables", json=body), 409, "rated_needs_account")
        created = (await host.post("/api/tables", body))["table"]
        assert created["rated"] is True
        join = {"invite": created["invite_code"]}
        r = await guest.http.post(f"/api/tables/{created['id']}/join", json=join)
        await refused(r, 409, "rated_needs_account")
        seats = (await get(host, server, f"/api/tables/{created['id']}"))["table"]["seats"]
        assert [s["kind"] for s in seats] == ["person", "empty"]  # nothing changed
        quick = await guest.post("/api/quickplay", {"game": "imperial", "rated": True})
        assert quick["table"]["rated"] is False and quick["seat"] == 0
        assert (await get(None, server, f"/api/users/{guest.user['name']}"))["guest"] is True
    finally:
        await guest.close()
        await host.close()


async def test_bad_input_gets_codes(server: ServerProc) -> None:
    me = await account(server)
    try:
        http = me.http
        await refused(await http.get("/api/users/nobody-by-that-name"), 404, "no_user")
        await refused(await http.get("/api/users/nobody-by-that-name/games"), 404, "no_user")
        await refused(await http.get("/api/users/" + "x" * 300), 404, "no_user")
        for query in ("offset=-1", "limit=0", "limit=101", "limit=ten", "offset=1.5"):
            r = await http.get(f"/api/users/{me.name}/games?{query}")
            await refused(r, 400, "bad_request")
        page = await get(me, server, f"/api/users/{me.name}/games?offset=5&limit=100")
        assert (page["games"], page["total"], page["offset"], page["limit"]) == ([], 0, 5, 100)
        await refused(await http.get("/api/leaderboard?variant=chess"), 400, "bad_variant")
        await refused(await http.get("/api/leaderboard"), 400, "bad_variant")
        await refused(await http.get("/api/leaderboard?variant=imperial-4p"), 400, "bad_variant")
        body = {"game": "imperial", "rated": "yes"}
        await refused(await http.post("/api/tables", json=body), 400, "bad_request")
        body = {"game": "imperial", "rated": 1}
        await refused(await http.post("/api/quickplay", json=body), 400, "bad_request")
    finally:
        await me.close()


async def test_private_games_show_only_to_their_players(server: ServerProc) -> None:
    me, stranger = await account(server), await account(server)
    try:
        table = await against_bot(server, me, private=True)
        path = f"/api/users/{me.name}/games"
        assert [g["id"] for g in (await get(me, server, path))["games"]] == [table]
        assert (await get(stranger, server, path))["total"] == 0
        assert (await get(None, server, path)) == {
            "games": [],
            "total": 0,
            "offset": 0,
            "limit": 20,
        }
        assert (await get(None, server, f"/api/users/{me.name}"))["games"] == 1
    finally:
        await me.close()
        await stranger.close()
