"""The table's layout on phones and laptops (issue #16, part A), in a real browser.

Whole games against the computer at 375×740, 390×844 and 1280×720. At every turn of the
person (each decision and each card) the page's geometry is measured: the hand inside the
viewport and nothing over any card's visible part, the decision box clear of the hand, no
score table clipped, distinct seat names shown whole, the trick clear of every seat, the
keyboard or touch hint clear of the cards. On touch screens a first tap raises a card and
only a second tap plays it.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from tests.web.browsing import (
    BROWSER,
    CSP_WATCH,
    Page,
    await_turn,
    clean,
    create_table,
    guest,
    held_to_policy,
    over,
    page_script,
    shot,
    strongest,
)

pytestmark = BROWSER

_script = page_script

# Everything the layout promises, measured in the page; returns the broken promises.
CHECK = _script("layout_check.js")

# The game-over dialog: whole in the window, its table not clipped.
CHECK_OVER = _script("over_check.js")

SIZES = {"phone": (375, 740), "tall-phone": (390, 844), "laptop": (1280, 720)}

# Every kind of Emperor decision drawn over the real table of the page (a seeded game
# gives the person only some of them): which seat he is does not change the layout.
DECISIONS = _script("decision.js")


def _context_page(browser: Any, width: int, height: int, touch: bool) -> Page:
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        locale="en-US",
        has_touch=touch,
        is_mobile=touch,
        reduced_motion="reduce",  # as every page test but the main journeys (browsing._page)
    )
    ctx.add_init_script(CSP_WATCH)
    page = ctx.new_page()
    held_to_policy(page)
    errors: list[str] = []
    refused: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def console(message: Any) -> None:
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            errors.append(f"console: {message.text}")

    page.on("console", console)
    page.on("response", lambda r: refused.append(r.url) if r.status == 401 else None)
    page.errors = errors
    page.refused = refused
    return page


def _check(page: Page, where: str) -> None:
    # Measured where the cards rest: not while a new deal flies in or a card rises.
    try:
        page.wait_for_function(
            "() => [...document.querySelectorAll('#screen-table .hand .card, .decision-card')]"
            ".every((el) => !el.getAnimations().length)",
            timeout=20_000,
        )
    except Exception:
        running = page.evaluate(
            "() => [...document.querySelectorAll('#screen-table .hand .card, .decision-card')]"
            ".flatMap((el) => el.getAnimations().map((a) => `${el.dataset.card || el.className}:"
            "${a.transitionProperty || a.animationName}:${a.playState}`))"
        )
        raise AssertionError(f"{where}: still moving after 20 s: {running}") from None
    problems = page.evaluate(CHECK, where)
    if problems:
        shot(page, f"layout-fail-{where.split(':')[0]}")
    assert not problems, problems


def _centre(page: Page, card: str) -> tuple[float, float]:
    """The middle of the part of ``card`` that no other card covers."""
    where = page.evaluate(
        """(card) => {
          const cards = [...document.querySelectorAll('#screen-table .hand .card')];
          const i = cards.findIndex((b) => b.dataset.card === card);
          const r = cards[i].getBoundingClientRect();
          const next = cards[i + 1]?.getBoundingClientRect();
          const right = next ? Math.min(r.right, next.left) : r.right;
          return [(r.left + right) / 2, r.top + r.height / 2];
        }""",
        card,
    )
    return float(where[0]), float(where[1])


def _hand(page: Page) -> list[str]:
    return list(
        page.evaluate(
            "[...document.querySelectorAll('#screen-table .hand .card')].map(b => b.dataset.card)"
        )
    )


def _raised(page: Page) -> list[str]:
    return list(
        page.evaluate(
            "[...document.querySelectorAll('#screen-table .hand .card[aria-selected=true]')]"
            ".map(b => b.dataset.card)"
        )
    )


def _top(page: Page, card: str) -> float:
    return float(
        page.evaluate(
            "(c) => document.querySelector(`#screen-table .hand .card[data-card='${c}']`)"
            ".getBoundingClientRect().top",
            card,
        )
    )


def _play(page: Page, card: str, touch: bool, stats: dict[str, int]) -> None:
    """Plays ``card`` with a tap (two on a touch screen) on its visible part."""
    before = _hand(page)
    if touch:
        # Another card first, once a game: the selection moves to the second one tapped.
        if not stats["moved"] and len(before) > 1:
            other = next(c for c in before if c != card)
            page.touchscreen.tap(*_centre(page, other))
            assert _raised(page) == [other]
            stats["moved"] = 1
        low = _top(page, card)
        page.touchscreen.tap(*_centre(page, card))
        assert _raised(page) == [card], (card, _raised(page))
        # raised where the finger does not hide it (after its short move)
        page.wait_for_function(
            "([c, low]) => document.querySelector(`#screen-table .hand .card[data-card='${c}']`)"
            ".getBoundingClientRect().top < low - 10",
            arg=[card, low],
            timeout=10_000,
        )
        assert _hand(page) == before  # one tap plays nothing
        page.touchscreen.tap(*_centre(page, card))
        stats["taps"] += 1
    else:
        page.mouse.click(*_centre(page, card))
    try:
        # Played: the hand is another (the card gone, or the next round's hand dealt).
        page.wait_for_function(
            "(before) => [...document.querySelectorAll('#screen-table .hand .card')]"
            ".map(b => b.dataset.card).join() !== before",
            arg=",".join(before),
            timeout=20_000,
        )
    except Exception:
        shot(page, "layout-fail-play")
        hint = page.inner_text("#screen-table .hand-hint")
        raise AssertionError(f"{card} was not played: {_raised(page)} {hint!r}") from None


def _choose(actions: list[str], made: list[str]) -> str:
    if any(a.startswith("swap") for a in actions):
        return next(a for a in actions if a.startswith("swap"))
    if "refuse" in actions:
        return "accept" if "refuse" in made else "refuse"
    if any(a.startswith("offer") for a in actions):
        return next(a for a in actions if a.startswith("offer"))
    return actions[0]


def _play_game(page: Page, name: str, touch: bool, limit: float = 240) -> dict[str, int]:
    """Plays the person's seat to the end, measuring the layout at each of his turns."""
    stats = {"cards": 0, "decisions": 0, "taps": 0, "moved": 0}
    made: list[str] = []
    start = time.time()
    shots: set[str] = set()
    while not over(page):
        assert time.time() - start < limit, f"{name}: the game did not end in time"
        state = page.evaluate(
            """() => ({
              busy: !!document.querySelector('#screen-table .hand .card.sending'),
              actions: [...document.querySelectorAll('.decision:not([hidden]) button[data-action]')]
                .map(b => b.dataset.action),
              legal: document.querySelectorAll('#screen-table .hand .card.legal').length,
              trick: document.querySelectorAll('#screen-table .trick-card').length,
            })"""
        )
        if state["busy"]:
            await_turn(page)
            continue
        if state["actions"]:
            page.wait_for_timeout(250)  # the box's short entrance
            kind = state["actions"][0].split(" ")[0]
            _check(page, f"{name}:decision-{kind}")
            if kind not in shots:
                shots.add(kind)
                shot(page, f"40-{name}-{kind}")
            pick = _choose(state["actions"], made)
            made.append(pick.split(" ")[0])
            try:
                page.click(f'.decision button[data-action="{pick}"]', timeout=2500)
            except Exception:  # the page moved on meanwhile; look again
                continue
            stats["decisions"] += 1
            page.wait_for_function(
                "(a) => !document.querySelector("
                "`.decision:not([hidden]) button[data-action='${a}']`)",
                arg=pick,
                timeout=20_000,
            )
            continue
        if state["legal"]:
            card = strongest(page)
            if card is None:
                page.wait_for_timeout(20)
                continue
            page.wait_for_timeout(300)  # cards flying in have landed
            _check(page, f"{name}:card-{stats['cards']}")
            if state["trick"] and "trick" not in shots:
                shots.add("trick")
                shot(page, f"40-{name}-play")
            _play(page, card, touch, stats)
            stats["cards"] += 1
            continue
        await_turn(page)
    return stats


def _over_checks(page: Page, name: str) -> None:
    page.wait_for_selector(".over-dialog[open]")
    page.wait_for_timeout(300)
    shot(page, f"41-{name}-over")
    assert page.evaluate(CHECK_OVER) == []
    page.click(".over-dialog .lang-switch")  # Russian words are longer
    page.wait_for_timeout(100)
    shot(page, f"41-{name}-over-ru")
    assert page.evaluate(CHECK_OVER) == []
    page.click(".over-dialog .lang-switch")


GAMES = {
    "imperial": ("imperial", 2, {"target": 1}),
    "emperor": ("emperor", 4, {"rounds": 2, "bargain_from": 2}),
}


@pytest.mark.parametrize(
    ("game", "size", "touch"),
    [
        ("imperial", "phone", True),
        ("emperor", "phone", True),
        ("imperial", "tall-phone", True),
        ("emperor", "tall-phone", False),
        ("imperial", "laptop", False),
        ("emperor", "laptop", False),
    ],
)
def test_a_whole_game_keeps_the_hand_in_view_and_nothing_cut(
    server: str, browser: Any, game: str, size: str, touch: bool
) -> None:
    width, height = SIZES[size]
    page = _context_page(browser, width, height, touch)
    name = f"{game}-{size}"
    guest(page, server)
    assert page.refused == [], page.refused  # the first question is no 401
    kind, players, options = GAMES[game]
    create_table(page, kind, players, options, bots=True)
    page.wait_for_selector("#screen-table .hand .card")
    stats = _play_game(page, name, touch)
    assert stats["cards"] >= 5, stats
    if game == "emperor":
        assert stats["decisions"] >= 1, stats
    if touch:
        assert stats["taps"] == stats["cards"] and stats["moved"] == 1, stats
    _over_checks(page, name)
    clean(page)
    page.context.close()


def test_laptops_phones_and_the_narrowest_screen_hold_the_table(server: str, browser: Any) -> None:
    """One game, looked at in every size from 360 px to 1366×768, and then replayed on a
    phone with every hand shown; a spectator is offered to stop watching."""
    page = _context_page(browser, 1280, 800, touch=False)
    guest(page, server)
    table = create_table(page, "emperor", 4, {"rounds": 1}, bots=True)
    page.wait_for_selector("#screen-table .hand .card.legal", timeout=20000)
    # Cards move (a raised card, a card played) unless the reader asked for less motion.
    motion = "[...document.querySelectorAll('#screen-table .hand .card')].map(el => {"
    motion += " const s = getComputedStyle(el); return [s.transitionDuration, s.animationName]; })"
    page.emulate_media(reduced_motion="no-preference")
    assert any(duration != "0s" for duration, _ in page.evaluate(motion))
    page.emulate_media(reduced_motion="reduce")
    assert {tuple(m) for m in page.evaluate(motion)} == {("0s", "none")}
    for width, height in [(1280, 800), (1366, 768), (1280, 720), (360, 640), (375, 740)]:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        _check(page, f"emperor-{width}x{height}")
        for lang in ("ru", "en"):
            page.click(".top .lang-switch")
            page.wait_for_timeout(100)
            assert page.evaluate("document.documentElement.lang") == lang
            _check(page, f"emperor-{width}x{height}-{lang}")
        shot(page, f"42-emperor-{width}x{height}")
        for kind in ("trump", "swap", "offer", "answer"):
            # (a function as evaluate's result would be called: hence the braces)
            page.evaluate(f"() => {{ window.__undo = ({DECISIONS})('{kind}'); }}")
            page.wait_for_selector(".decision:not([hidden]) button[data-action]", timeout=3000)
            page.wait_for_timeout(250)
            _check(page, f"emperor-{width}x{height}-{kind}")
            if width < 400 and kind == "trump":
                shot(page, f"44-emperor-{width}x{height}-trump")
            page.evaluate("window.__undo()")
            page.wait_for_selector(".decision", state="hidden")
    # A spectator stops watching; he does not leave a seat he never had.
    watcher = _context_page(browser, 390, 844, touch=True)
    guest(watcher, server)
    watcher.goto(f"{server}#/table/{table}")
    watcher.wait_for_selector("#screen-table .table-bar")
    assert watcher.inner_text(".leave-btn") == "Stop watching"
    watcher.click(".top .lang-switch")
    assert watcher.inner_text(".leave-btn") == "Перестать смотреть"
    assert page.inner_text(".leave-btn") == "Leave the table"
    # "My games" names its file chooser.
    watcher.click(".leave-btn")
    watcher.wait_for_selector("#screen-lobby:not([hidden])")
    chooser = watcher.locator(".file-pick input[type=file]")
    assert chooser.get_attribute("aria-label") == "Файл записи (.json)"
    assert watcher.inner_text(".file-pick") == "Повтор из файла записи"
    clean(watcher)
    watcher.context.close()
    # The game to its end on the phone, then its replay: every hand on the phone too.
    _play_game(page, "emperor-narrow", touch=False)
    page.wait_for_selector(".over-dialog[open]")
    page.click(".over-dialog .watch-replay")
    page.wait_for_selector("#replay-root .hand .card")
    page.wait_for_timeout(300)
    shot(page, "43-emperor-replay-phone")
    open_hands = page.evaluate(
        """() => [...document.querySelectorAll('#replay-root .seat-cards.open')].map((el) => {
          const r = el.getBoundingClientRect();
          const seat = el.closest('.seat').getBoundingClientRect();
          const inside = [...el.querySelectorAll('.mini')].every((m) => {
            const c = m.getBoundingClientRect();
            return c.left >= seat.left && c.right <= seat.right && c.bottom <= seat.bottom;
          });
          const minis = el.querySelectorAll('.mini').length;
          return {minis, inside, width: r.width, height: r.height, left: r.left, right: r.right};
        })"""
    )
    names = page.evaluate(
        "[...document.querySelectorAll('#replay-root .seat-name')]"
        ".map(el => [el.textContent, el.scrollWidth <= el.clientWidth + 1])"
    )
    assert len({n for n, _ in names}) == 4 and all(whole for _, whole in names), names
    assert len(open_hands) == 3, open_hands  # the three other seats
    for hand in open_hands:
        assert hand["minis"] == 13 and hand["inside"] and hand["height"] > 0, hand
        assert hand["left"] >= 0 and hand["right"] <= 375, hand
    assert page.locator("#replay-root .hand .card").count() == 13  # and the bottom seat's
    clean(page)
    page.context.close()
