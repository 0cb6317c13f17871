"""Puzzles in the page (#29): ``kozyr puzzles build`` fills a server's database from bot
games, then a person solves one puzzle and fails the next, and his history lists both.
Screenshots at 360, 375 and 1280 px in English and Russian."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.support import ServerProc
from tests.web.browsing import BROWSER, SHOTS, Page, _page, clean, guest, shot

pytestmark = BROWSER


@pytest.fixture(scope="module")
def puzzle_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    data = tmp_path_factory.mktemp("kozyr-puzzles")
    db = data / "kozyr.db"
    # built before the server starts, by the command, as an operator would (one worker
    # process: the command's own path through a process pool)
    built = subprocess.run(
        [
            *(sys.executable, "-m", "kozyr", "puzzles", "build", "--database", f"sqlite:///{db}"),
            *("--bot-games", "1", "--worlds", "4", "--jobs", "1", "--lang", "en"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "games read 2/2" in built.stdout, built.stdout
    proc = ServerProc(data).start()
    try:
        yield proc.base + "/", db
    finally:
        proc.stop()


def _puzzle(db: Path, pid: int) -> tuple[str, list[str]]:
    """The best card and every legal card of a puzzle, from the database."""
    with sqlite3.connect(db) as conn:
        best, values = conn.execute(
            "SELECT best, card_values FROM puzzles WHERE id = ?", (pid,)
        ).fetchone()
    return best, [c for c, _ in json.loads(values)]


def _one_of(db: Path, game: str) -> int:
    with sqlite3.connect(db) as conn:
        (pid,) = conn.execute(
            "SELECT id FROM puzzles WHERE game = ? ORDER BY id DESC LIMIT 1", (game,)
        ).fetchone()
    return int(pid)


def _board(page: Page) -> int:
    page.wait_for_selector(".puzzle-board .puzzle-hand .card.legal")
    return int(page.get_attribute(".puzzle-board", "data-puzzle") or 0)


def _fits(page: Page) -> None:
    overflow = page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow} px wider than the window"


@pytest.mark.parametrize(("width", "locale"), [(375, "en-US"), (360, "ru-RU"), (1280, "en-US")])
def test_a_puzzle_solved_and_one_failed(
    puzzle_server: tuple[str, Path], browser: Any, width: int, locale: str
) -> None:
    base, db = puzzle_server
    ru = locale.startswith("ru")
    tag = f"{width}-{'ru' if ru else 'en'}"
    page = _page(browser, width, 780, locale)
    guest(page, base)
    page.click(".nav-puzzles")
    first = _board(page)
    task = page.locator(".puzzle-task").inner_text()
    assert task == ("Найдите лучшую карту" if ru else "Find the best card")
    best, legal = _puzzle(db, first)
    on_page = page.eval_on_selector_all(
        ".puzzle-hand .card.legal", "bs => bs.map(b => b.dataset.card)"
    )
    assert sorted(on_page) == sorted(legal)
    # no value on the board before the answer: the puzzle as served carries none
    assert page.locator(".puzzle-value").count() == 0
    _fits(page)
    shot(page, f"60-puzzle-{tag}")
    page.click(f'.puzzle-hand .card[data-card="{best}"]')
    page.wait_for_selector(".puzzle-answer.right")
    answer = page.locator(".puzzle-answer").inner_text()
    assert ("Верно!" if ru else "Right!") in answer
    change = page.locator(".puzzle-rating-change.up").inner_text()
    before, after = (int(n) for n in re.findall(r"(\d{3,4}) → (\d{3,4})", change)[0])
    assert before == 1500 < after  # up from the start
    assert page.locator(".puzzle-values li").count() == len(legal)
    assert page.locator(".puzzle-hand .puzzle-value").count() == len(legal)
    _fits(page)
    shot(page, f"61-puzzle-solved-{tag}")
    page.screenshot(path=str(SHOTS / f"61-puzzle-solved-{tag}-whole.png"), full_page=True)
    # the next puzzle, answered with a card that is not the best
    page.click(".puzzle-answer .puzzle-again")
    page.wait_for_function(
        "id => document.querySelector('.puzzle-board')?.dataset.puzzle !== String(id)"
        " && document.querySelector('.puzzle-hand .card.legal')",
        arg=first,
    )
    second = _board(page)
    assert page.url.endswith(f"#/puzzles/{second}")
    best2, legal2 = _puzzle(db, second)
    wrong = next(c for c in legal2 if c != best2)
    page.click(f'.puzzle-hand .card[data-card="{wrong}"]')
    page.wait_for_selector(".puzzle-answer.wrong")
    answer = page.locator(".puzzle-answer").inner_text()
    assert ("Не лучшая карта" if ru else "Not the best card") in answer
    assert page.locator(".puzzle-hand .card.best").get_attribute("data-card") == best2
    assert page.locator(".puzzle-rating-change.down").count() == 1
    _fits(page)
    shot(page, f"62-puzzle-failed-{tag}")
    # the history: both, newest first
    page.click('.puzzle-links a[href="#/puzzles/history"]')
    page.wait_for_selector(".puzzle-history tbody tr")
    rows = page.locator(".puzzle-history tbody tr")
    assert rows.count() == 2
    assert f"#{second}" in rows.nth(0).inner_text() and f"#{first}" in rows.nth(1).inner_text()
    shot(page, f"63-puzzle-history-{tag}")
    # each game's puzzles are drawn: one of every game by its address
    for game in ("imperial", "emperor"):
        pid = _one_of(db, game)
        page.goto(f"{base}#/puzzles/{pid}")
        page.wait_for_function(
            "id => document.querySelector('.puzzle-board')?.dataset.puzzle === String(id)", arg=pid
        )
        _fits(page)
        # the other players by where they sit, never by a number
        board = page.locator(".puzzle-board").inner_text()
        assert not re.search(r"(Player|Игрок) \d", board), board
        around = (
            ["Соперник", "Слева", "Справа", "Напротив"]
            if ru
            else ["Opponent", "On your left", "On your right", "Across"]
        )
        assert any(word in board for word in around), board
        shot(page, f"64-puzzle-{game}-{tag}")
    clean(page)
