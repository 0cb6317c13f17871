"""Contract-shaped answers of the #13 routes (profiles, histories, the leaderboard), served
to the page by Playwright's ``page.route`` so that the page can be tested before, and apart
from, the server's part."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

DAY = 86_400_000
START = 1_780_000_000_000  # 2026-05-28 (UTC), a fixed day: the page's dates are checked

# Anna's ratings: hand-made display ratings after each game, oldest first.
IMPERIAL_2P = [1500, 1512, 1520, 1509, 1531, 1540, 1538, 1560, 1575, 1590, 1601, 1612]
EMPEROR_4P = [1480, 1511, 1534]
IMPERIAL_3P = [1547]  # one game: a chart of one point
TOTAL_GAMES = 45


def history(ratings: list[int], first_game: int) -> list[dict[str, Any]]:
    return [
        {"at_ms": START + i * DAY, "rating": r, "game_id": f"g{first_game + i}"}
        for i, r in enumerate(ratings)
    ]


def anna() -> dict[str, Any]:
    return {
        "name": "Anna",
        "guest": False,
        "created_ms": START - 30 * DAY,
        "deleted": False,
        "games": 21,
        "won": 7,
        "ratings": {
            "emperor-4p": {
                "rating": 1534,
                "mu": 27.1,
                "sigma": 7.2,
                "games": 3,
                "provisional": True,
                "history": history(EMPEROR_4P, 40),
            },
            "imperial-3p": {
                "rating": 1547,
                "mu": 28.0,
                "sigma": 7.9,
                "games": 1,
                "provisional": True,
                "history": history(IMPERIAL_3P, 60),
            },
            "imperial-2p": {
                "rating": 1612,
                "mu": 30.0,
                "sigma": 4.8,
                "games": 12,
                "provisional": False,
                "history": history(IMPERIAL_2P, 1),
            },
        },
    }


def game(n: int) -> dict[str, Any]:
    """Anna's game number n (1 the oldest): odd ones won against Boris (+12), even ones
    lost to the computer (-8); every fifth casual."""
    won = n % 2 == 1
    rated = n % 5 != 0
    other: dict[str, Any] = (
        {"seat": 1, "name": "Boris", "bot": None} if won else {"seat": 1, "name": None, "bot": 3}
    )
    before = 1500 + n
    return {
        "id": f"g{n}",
        "finished_ms": START + n * DAY,
        "variant": "imperial-2p",
        "rated": rated,
        "players": [
            {"seat": 0, "name": "Anna", "bot": None, "place": 1 if won else 2},
            {**other, "place": 2 if won else 1},
        ],
        "place": 1 if won else 2,
        "won": won,
        "rating_change": (
            {"before": before, "after": before + (12 if won else -8)} if rated else None
        ),
        "replay": f"#/replay/g{n}",
    }


def games_page(offset: int, limit: int) -> dict[str, Any]:
    newest_first = [game(n) for n in range(TOTAL_GAMES, 0, -1)]
    return {
        "games": newest_first[offset : offset + limit],
        "total": TOTAL_GAMES,
        "offset": offset,
        "limit": limit,
    }


BOARDS: dict[str, list[dict[str, Any]]] = {
    "imperial-2p": [
        {"rank": 1, "name": "Anna", "rating": 1612, "games": 12, "provisional": False},
        {"rank": 2, "name": "bot 5", "bot": 5, "rating": 1580, "games": 140, "provisional": False},
        {"rank": 3, "name": "Boris", "rating": 1499, "games": 4, "provisional": True},
    ],
    "emperor-4p": [
        {"rank": 1, "name": "Вера", "rating": 1701, "games": 33, "provisional": False},
    ],
}


class FakeRatings:
    """Serves the routes and remembers every request made to them."""

    def __init__(self) -> None:
        self.requests: list[str] = []

    def install(self, page: Any) -> None:
        page.route("**/api/users/**", self.users)
        page.route("**/api/leaderboard*", self.leaderboard)

    def _answer(self, route: Any, status: int, body: dict[str, Any]) -> None:
        route.fulfill(status=status, content_type="application/json", body=json.dumps(body))

    def users(self, route: Any) -> None:
        url = urlparse(route.request.url)
        self.requests.append(f"{url.path}?{url.query}" if url.query else url.path)
        parts = url.path.split("/")  # "", "api", "users", NAME[, "games"]
        name = unquote(parts[3])
        if name != "Anna":
            self._answer(
                route,
                404,
                {
                    "type": "error",
                    "code": "no_user",
                    "message": "No such user.",
                    "message_ru": "Нет такого пользователя.",
                },
            )
        elif len(parts) == 5 and parts[4] == "games":
            q = parse_qs(url.query)
            offset = int(q.get("offset", ["0"])[0])
            limit = int(q.get("limit", ["20"])[0])
            self._answer(route, 200, games_page(offset, limit))
        else:
            self._answer(route, 200, anna())

    def leaderboard(self, route: Any) -> None:
        url = urlparse(route.request.url)
        self.requests.append(f"{url.path}?{url.query}")
        variant = parse_qs(url.query).get("variant", [""])[0]
        if variant not in ("imperial-2p", "imperial-3p", "emperor-3p", "emperor-4p"):
            self._answer(route, 400, {"type": "error", "code": "bad_variant", "message": "?"})
            return
        self._answer(route, 200, {"variant": variant, "players": BOARDS.get(variant, [])})
