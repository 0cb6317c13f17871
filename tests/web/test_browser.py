"""The web page in a real browser (headless Debian Chromium) against a real server.

Run with ``pytest -m browser``. Every screen is saved to ``tests/web/screenshots/``.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-quic",
    "--no-first-run",
    "--disable-sync",
]
SHOTS = Path(__file__).parent / "screenshots"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
]

Page = Any  # playwright's sync Page


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # The server commits every move with fsync; on a busy machine that dominates the
    # run time, so the database lives in memory (/dev/shm) where there is one.
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        data = Path(tempfile.mkdtemp(prefix="kozyr-web-", dir=shm))
    else:
        data = tmp_path_factory.mktemp("kozyr-web")
    port = _free_port()
    env = dict(os.environ)
    env.update(
        KOZYR_BOT_DELAY="0.05",
        KOZYR_BOT_BUDGET="0.05",
        KOZYR_TURN_TIMEOUT="300",
        KOZYR_GRACE="60",
        # Fixed deals (and so fixed bot play): the Emperor test needs a person to become
        # King, which this seed gives; without it the test would pass only by chance.
        KOZYR_TABLE_SEED=os.environ.get("KOZYR_TEST_TABLE_SEED", "1"),
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "kozyr", "serve", "--port", str(port), "--data", str(data)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(150):
            try:
                with urllib.request.urlopen(base + "healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    SHOTS.mkdir(exist_ok=True)
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def _page(browser: Any, width: int = 1280, height: int = 860, locale: str = "en-US") -> Page:
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def shot(page: Page, name: str) -> None:
    time.sleep(0.4)  # let the short animations settle
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def guest(page: Page, base: str) -> None:
    page.goto(base)
    page.wait_for_selector("#screen-auth:not([hidden])")
    page.click(".guest-btn")
    page.wait_for_selector("#screen-lobby:not([hidden])")


def create_table(page: Page, game: str, players: int, options: dict[str, Any], bots: bool) -> str:
    form = page.locator(".create-form")
    form.locator("select[name=game]").select_option(game)
    form.locator("select[name=players]").select_option(str(players))
    for name, value in options.items():
        form.locator(f"[name={name}]").fill(str(value))
    form.locator("select[name=level]").select_option("1")
    if bots:
        form.locator("input[name=bots]").check()
    form.locator("button[type=submit]").click()
    page.wait_for_function("() => location.hash.startsWith('#/table/')")
    return str(page.evaluate("location.hash.split('/')[2].split('?')[0]"))


def view(page: Page) -> dict[str, Any] | None:
    return page.evaluate("window.kozyr.table && window.kozyr.table.view")  # type: ignore[no-any-return]


def over(page: Page) -> bool:
    return bool(page.locator(".over-dialog[open]").count())


def _rank(card: str, game: str) -> int:
    r = card[:-1]
    if game == "imperial":  # K Q J A 10 9 8 7 6 (I2)
        return {"K": 20, "Q": 19, "J": 18, "A": 17}.get(r) or int(r)
    return {"J": 11, "Q": 12, "K": 13, "A": 14}.get(r) or int(r)


def strongest(page: Page) -> str | None:
    """A simple player's card: win the trick as cheaply as possible, else throw the lowest."""
    v = view(page)
    if v is None:
        return None
    game = "imperial" if "legal" in v else "emperor"
    legal = v["legal"] if game == "imperial" else v["legal_actions"]
    cards = [c for c in legal if c[-1] in "SHDC" and " " not in c]
    if not cards:
        return None
    trump = v.get("trump")
    if game == "imperial":
        trick = [c for _, c in v["trick"]]
    else:
        trick = [v["current_trick"][s] for s in v["trick_order"] if v["current_trick"][s]]

    def power(c: str, led: str) -> tuple[int, int]:
        return (2 if c[-1] == trump else 1 if c[-1] == led else 0, _rank(c, game))

    if not trick:
        return max(cards, key=lambda c: (c[-1] != trump, _rank(c, game)))
    led = trick[0][-1]
    best = max(power(c, led) for c in trick)
    winners = [c for c in cards if power(c, led) > best]
    if winners:
        return min(winners, key=lambda c: power(c, led))
    return min(cards, key=lambda c: (c[-1] == trump, _rank(c, game)))


def _click(page: Page, selector: str, **where: Any) -> bool:
    """A real click; False when the element went away meanwhile (the page moved on)."""
    try:
        page.click(selector, timeout=2500, **where)
        return True
    except playwright_api.TimeoutError:
        return False


def step(page: Page, choose: Callable[[Page, list[str]], str] | None = None) -> str | None:
    """One move of the seat of ``page`` if it is its turn: a decision or a card."""
    state = page.evaluate(
        """() => ({
          over: !!document.querySelector('.over-dialog[open]'),
          busy: !!document.querySelector('.hand .card.sending'),
          actions: [...document.querySelectorAll('.decision:not([hidden]) button[data-action]')]
            .map(b => b.dataset.action),
          legal: document.querySelectorAll('.hand .card.legal').length,
        })"""
    )
    if state["over"] or state["busy"]:
        return None
    actions: list[str] = state["actions"]
    if actions:
        pick = choose(page, actions) if choose else actions[0]
        return pick if _click(page, f'.decision button[data-action="{pick}"]') else None
    if state["legal"]:
        card = strongest(page)
        if page.viewport_size["width"] < 600:  # a phone: the card by the keyboard
            try:
                page.focus(f'.hand .card.legal[data-card="{card}"]', timeout=2500)
            except playwright_api.TimeoutError:
                return None
            page.keyboard.press("Enter")
            return card
        if card and _click(page, f'.hand .card.legal[data-card="{card}"]'):
            return card
    return None


def play_to_end(
    pages: list[Page],
    *,
    limit: float = 120,
    choose: Callable[[Page, list[str]], str] | None = None,
    each: Callable[[Page, int], None] | None = None,
) -> int:
    """Plays the seats of ``pages`` until every one shows the game-over dialog; returns
    the cards played. ``each(page, plays)`` runs before each card of the first page."""
    start = time.time()
    plays = 0
    while time.time() - start < limit:
        if all(over(p) for p in pages):
            return plays
        moved = False
        for p in pages:
            mine = p is pages[0] and p.locator(".hand .card.legal").count()
            if each is not None and mine and not over(p):
                each(p, plays)
            did = step(p, choose)
            if did is not None:
                moved = True
                if " " not in did and did[-1] in "SHDC":
                    plays += 1
        if not moved:
            pages[0].wait_for_timeout(25)
    for i, p in enumerate(pages):
        shot(p, f"stuck-{i}")
    states = [
        p.evaluate(
            "(() => { const v = window.kozyr.table && window.kozyr.table.view; return v && "
            "{to_act: v.to_act, phase: v.phase, seat: v.seat, legal: v.legal || v.legal_actions, "
            "seq: window.kozyr.table.seq, conn: window.kozyr.connState}; })()"
        )
        for p in pages
    ]
    raise AssertionError(f"the game did not end in time: {states}")


# ---------------------------------------------------------------------------------- tests


def test_imperial_against_a_bot_with_keys_language_reload_and_replay(
    server: str, browser: Any
) -> None:
    page = _page(browser)
    page.goto(server)
    page.wait_for_selector("#screen-auth:not([hidden])")
    shot(page, "01-sign-in")
    page.click(".guest-btn")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    shot(page, "02-lobby")
    seen: dict[str, bool] = {}

    def each(p: Page, plays: int) -> None:
        # One check per turn of ours, in this order, whatever the cards played so far.
        if "keys" not in seen:
            # Arrow keys and Enter: walk to the first legal card and play it.
            seen["keys"] = True
            cards = p.locator(".hand .card")
            first_legal = p.evaluate(
                "[...document.querySelectorAll('.hand .card')]"
                ".findIndex(b => b.classList.contains('legal'))"
            )
            before = cards.count()
            for _ in range(first_legal + 1):
                p.keyboard.press("ArrowRight")
            p.keyboard.press("Enter")
            p.wait_for_function(f"() => document.querySelectorAll('.hand .card').length < {before}")
        elif "typed" not in seen:
            # Typing a card: the chosen legal one, as text such as qs or 10h.
            card = strongest(p)
            if card is None:
                return  # the view is between two moves: type at our next turn
            seen["typed"] = True
            before = p.locator(".hand .card").count()
            p.keyboard.type(card.lower(), delay=30)
            p.wait_for_function(f"() => document.querySelectorAll('.hand .card').length < {before}")
        elif "ru" not in seen:
            seen["ru"] = True
            shot(p, "03-imperial-en")
            p.click(".top .lang-switch")
            assert p.evaluate("document.documentElement.lang") == "ru"
            assert "Ваш ход" in p.inner_text(".bar-status")
            assert "Козырь" in p.inner_text(".bar-trump")
            # Court cards carry Russian letters (В Д К) and aces Т in Russian.
            letters = p.evaluate(
                "[...document.querySelectorAll('.hand .card svg text')].map(t => t.textContent)"
            )
            assert not set(letters) & {"J", "Q", "A"}
            shot(p, "04-imperial-ru")
        elif "reload" not in seen:
            seen["reload"] = True
            count = p.locator(".hand .card").count()
            p.reload()
            p.wait_for_selector(".hand .card")
            p.wait_for_function(
                f"() => document.querySelectorAll('.hand .card').length === {count}"
            )
            assert p.evaluate("document.documentElement.lang") == "ru"  # the choice is kept

    # A game may end in its first declarations; then another game is played.
    for _ in range(3):
        table = create_table(page, "imperial", 2, {"target": 2}, bots=True)
        page.wait_for_selector(".table-bar")
        play_to_end([page], each=each)
        if len(seen) == 4:
            break
        page.click(".over-dialog a[href='#/']")
        page.wait_for_selector("#screen-lobby:not([hidden])")
    assert len(seen) == 4, seen
    shot(page, "05-imperial-over-ru")
    page.click(".over-dialog .lang-switch")  # back to English
    assert page.evaluate("document.documentElement.lang") == "en"
    assert "Game over" in page.inner_text("#over-title")
    shot(page, "06-imperial-over")
    record = page.evaluate(f"fetch('/api/games/{table}/record').then(r => r.json())")
    assert record["game"] == "imperial" and record["format"] == "kozyr-record/1"
    # The replay: forwards, backwards, every hand shown.
    page.click(".over-dialog .watch-replay")
    page.wait_for_selector("#replay-root .hand .card")
    total = int(page.get_attribute(".replay-range", "max") or 0)
    assert total == len(record["actions"])
    hands = page.locator("#replay-root .seat-cards.open .mini").count()
    assert hands > 0  # the opponent's hand is open
    for _ in range(min(5, total)):
        page.keyboard.press("ArrowRight")
    assert page.input_value(".replay-range") == str(min(5, total))
    shot(page, "07-imperial-replay")
    page.keyboard.press("ArrowLeft")
    assert page.input_value(".replay-range") == str(max(0, min(5, total) - 1))
    page.keyboard.press("End")
    assert page.input_value(".replay-range") == str(total)
    assert not page.errors, page.errors
    page.context.close()


def test_emperor_with_swaps_offers_and_trump(server: str, browser: Any) -> None:
    """Two people (one reading Russian) and two computers; the people take hands, offer,
    refuse and accept, and name trump whenever one of them is King."""
    ann = _page(browser, locale="ru-RU")
    guest(ann, server)
    assert ann.evaluate("document.documentElement.lang") == "ru"  # from the browser
    table = create_table(ann, "emperor", 4, {"rounds": 5, "bargain_from": 2}, bots=False)
    ann.wait_for_selector(".panel.waiting")
    for seat in (2, 3):
        ann.select_option(".waiting select[name=level]", "1")
        ann.click(f'button[data-seat-do="bot"][data-seat="{seat}"]')
        ann.wait_for_selector(f'button[data-seat-do="unbot"][data-seat="{seat}"]')
    shot(ann, "11-waiting-room-ru")
    ben = _page(browser)
    guest(ben, server)
    ben.goto(f"{server}#/table/{table}")
    ben.click('button[data-seat-do="sit"][data-seat="1"]')
    ann.wait_for_selector(".hand .card")
    ben.wait_for_selector(".hand .card")
    made: list[str] = []
    shots: set[str] = set()

    def choose(p: Page, actions: list[str]) -> str:
        kind = "answer" if "accept" in actions else actions[0].split(" ")[0]
        if kind in ("swap", "offer", "answer", "trump") and kind not in shots:
            shots.add(kind)
            number = {"swap": 12, "offer": 13, "answer": 14, "trump": 15}[kind]
            shot(p, f"{number}-emperor-{kind}")
        if any(a.startswith("swap") for a in actions):
            pick = next(a for a in actions if a.startswith("swap"))
        elif "refuse" in actions:
            pick = "accept" if "refuse" in made else "refuse"
        elif any(a.startswith("offer") for a in actions):
            pick = next(a for a in actions if a.startswith("offer"))
        else:
            pick = actions[0]
        made.append(pick.split(" ")[0])
        return pick

    def each(p: Page, plays: int) -> None:
        if plays >= 20 and "play" not in shots:
            shots.add("play")
            shot(p, "10-emperor-play-ru")

    play_to_end([ann, ben], choose=choose, each=each, limit=150)
    shot(ann, "19-emperor-over-ru")
    events = ann.evaluate("window.kozyr.table.events")
    types = {e["type"] for e in events}
    people = {0, 1}
    assert any(e["type"] == "swap" and e["happened"] for e in events) or "yield" in types
    assert "offer" in types, sorted(types)
    ends = [(e["tricks"], e["titles"]) for e in events if e["type"] == "round_end"]
    assert any(e["type"] == "trump" and e["seat"] in people for e in events), ends
    assert "trump" in made
    feed = ann.inner_text(".feed")
    assert "козырь" in feed and ("забирает" in feed or "уступает" in feed)
    assert "trump" in ben.inner_text(".feed")
    for p in (ann, ben):
        assert not p.errors, p.errors
        p.context.close()


def test_b3_two_people_at_one_table_and_a_spectator(server: str, browser: Any) -> None:
    alice = _page(browser)
    guest(alice, server)
    table = create_table(alice, "imperial", 2, {"target": 2}, bots=False)
    alice.wait_for_selector(".panel.waiting")
    shot(alice, "20-waiting")
    # Bob, on a phone-sized screen, finds the table in the lobby and sits down.
    bob = _page(browser, width=375, height=780)
    guest(bob, server)
    row = bob.locator(f'.open-list li[data-table="{table}"]')
    row.wait_for()
    shot(bob, "21-lobby-mobile")
    row.locator('button[data-do="join"]').click()
    # Carol watches, recording every WebSocket frame she receives.
    carol = _page(browser, width=1100, height=800)
    frames: list[str] = []
    carol.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    guest(carol, server)
    carol.goto(f"{server}#/table/{table}")
    alice.wait_for_selector(".hand .card")
    bob.wait_for_selector(".hand .card")
    carol.wait_for_selector(".table-bar")
    shot(carol, "23-spectator")
    assert "watching" in carol.inner_text(".bar-extra").lower()
    taken: set[int] = set()

    def each(p: Page, plays: int) -> None:
        if plays >= 2 and not taken:
            taken.add(plays)
            shot(bob, "22-imperial-mobile")
            shot(carol, "23-spectator")

    play_to_end([alice, bob], each=each, limit=90)
    assert over(alice) and over(bob)
    carol.wait_for_selector(".over-dialog[open]")
    # A spectator never sees a hand: not on the page ...
    assert carol.locator(".hand .card:not(.back)").count() == 0
    assert carol.locator(".seat-cards.open").count() == 0
    # ... and not in any frame the server sent.
    assert frames
    for raw in frames:
        _check_public(json.loads(raw))
    for p in (alice, bob, carol):
        assert not p.errors, p.errors
        p.context.close()


def _check_public(node: Any) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "hand":
                assert not value, f"a hand reached the spectator: {value}"
            assert key != "hands"
            if key == "known":
                assert not any(value.values()), value
            _check_public(value)
    elif isinstance(node, list):
        for item in node:
            _check_public(item)
