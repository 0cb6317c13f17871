"""Helpers of the browser tests: opening pages, signing in, tables and whole games played
through the page the way a person would."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

try:
    from playwright import sync_api as playwright_api
except ImportError:  # the browser tests skip themselves (BROWSER)
    playwright_api = None  # type: ignore[assignment]

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
SCRIPTS = Path(__file__).parent / "js"

# Every browser test module sets ``pytestmark = BROWSER``.
BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(playwright_api is None, reason="needs playwright"),
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium"),
]

Page = Any  # playwright's sync Page


# The policy the page must run under. The server sends it on every response
# (tests/server/test_http_security.py); every document a test opens is checked to come with
# it (held_to_policy), so that the page tests hold the page to it.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

# Every violation of the policy, kept where the tests can read it.
CSP_WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${where} ${e.sample}`);
});
"""


def held_to_policy(page: Page) -> None:
    """Every document ``page.goto`` opens must come with the strict policy, ``CSP``.

    The tests once added the header themselves by intercepting every request of the
    context. Interception turns off Chromium's cache and sends each request through the
    test process: a new page's first screen cost 1.2-1.5 CPU-s that way, 0.6-0.8 without
    (the page tests alone, 4 workers: 743 machine CPU-s that way, 641 without)."""
    goto = page.goto

    def checked(url: str, **how: Any) -> Any:
        response = goto(url, **how)
        if response is not None:
            policy = response.headers.get("content-security-policy")
            assert policy == CSP, f"{url} came with the policy {policy!r}"
        return response

    page.goto = checked


def _page(
    browser: Any,
    width: int = 1280,
    height: int = 860,
    locale: str = "en-US",
    motion: str = "reduce",
    workers: str = "block",
    colours: str = "light",
) -> Page:
    """A fresh context's page. ``motion``: the tests' pages ask for reduced motion (the
    animations cost the run much CPU and time nothing the tests read); the main journeys
    (test_browser.py) play with every animation, as most players see the page.
    ``workers``: the page's service worker would fetch every file of the page once more in
    each new context; only its own test (test_installable.py) lets it run. ``colours``:
    the device's preferred colour scheme, "light" or "dark" (test_dark_mode.py)."""
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        locale=locale,
        reduced_motion=motion,
        service_workers=workers,
        color_scheme=colours,
    )
    ctx.add_init_script(CSP_WATCH)
    page = ctx.new_page()
    held_to_policy(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def console(message: Any) -> None:
        # Chromium logs every 4xx answer as an error (the page asks /api/me and gets 401
        # before signing in); the page's own errors and CSP reports are what count.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            errors.append(f"console: {message.text}")

    page.on("console", console)
    page.errors = errors
    return page


def page_script(name: str) -> str:
    """A function expression measured in the page, kept as JavaScript in ``js/``."""
    lines = (SCRIPTS / name).read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.startswith("//"))  # the file's header


def clean(page: Page) -> None:
    """No script error, no console error and no violation of the CSP on ``page``."""
    assert not page.errors, page.errors
    violations = page.evaluate("window.__csp")
    assert violations == [], violations


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
    game = "emperor" if "phase" in v else "imperial"
    legal = v["legal_actions"]
    cards = [c for c in legal if c[-1] in "SHDC" and " " not in c]
    if not cards:
        return None
    trump = v.get("trump")
    trick = [c for _, c in v["trick"]]  # (seat, card) in play order, both games

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
          busy: !!document.querySelector('.hand .card.sending, .decision.sending'),
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


# Something for the seat to do (a card it may play, a decision to answer, the end of the
# game) and nothing it sent still on its way.
ACTIONABLE = (
    "() => !document.querySelector('.hand .card.sending, .decision.sending') && !!document"
    ".querySelector('.over-dialog[open], .hand .card.legal, .decision:not([hidden]) "
    "button[data-action]')"
)


def await_turn(page: Page, most_ms: float = 1000) -> None:
    """Waits until the seat of ``page`` has something to do, or ``most_ms``. The page looks
    for itself every 50 ms, where a test looking from outside every 25 ms made a round trip
    to Chromium through Playwright's driver each time (test_layout.py: 67 machine
    CPU-seconds that way, 61 this way). Returns at once when there is something to
    do already, after a short pause, so that a caller that could not act on it (the page
    moved meanwhile) does not look again and again without a breath."""
    start = time.monotonic()
    try:
        page.wait_for_function(ACTIONABLE, polling=50, timeout=most_ms)
    except playwright_api.TimeoutError:
        return
    if time.monotonic() - start < 0.03:
        page.wait_for_timeout(25)


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
            if len(pages) == 1:
                await_turn(pages[0])
            else:  # another seat may have its turn meanwhile: look at each again soon
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


def switch_language(page: Page, to: str) -> None:
    """The page in language ``to`` ("en" or "ru"), by the top bar's switch, or by the
    game-over dialog's own while that stands over the page (a game of bots, or of a seat
    the computer took over, may end meanwhile: the bar is then out of reach, as for a
    person)."""
    for _ in range(5):
        if page.evaluate("document.documentElement.lang") == to:
            break
        switch = ".over-dialog[open] .dialog-lang" if over(page) else ".top .lang-switch"
        if _click(page, switch):
            break
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=to)
    page.wait_for_timeout(150)


def open_replay(browser: Any, server: str, game: str, size: tuple[int, int], locale: str) -> Page:
    """A guest's page of ``size`` showing the replay of the finished ``game``."""
    page = _page(browser, *size, locale=locale)
    guest(page, server)
    page.goto(f"{server}#/replay/{game}")
    page.wait_for_selector("#replay-root .hand .card")
    return page


def go_to_step(page: Page, n: int) -> None:
    """The replay moved to step ``n`` by its slider, as a drag of it would."""
    page.evaluate(
        "(n) => { const r = document.querySelector('.replay-range'); r.value = String(n);"
        " r.dispatchEvent(new Event('input')); }",
        n,
    )
    page.wait_for_timeout(100)


def show_review(page: Page) -> None:
    """The replay's review on screen: shown at once if the game has one, else asked for
    (the lightest depth)."""
    try:
        page.wait_for_selector(".review-lines li", timeout=3000)
    except Exception:
        page.select_option(".review-level", "1")
        page.click(".review-btn")
        page.wait_for_selector(".review-lines li .review-line", timeout=120_000)
