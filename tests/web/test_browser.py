"""The web page in a real browser (headless Debian Chromium) against a real server.

Run with ``pytest -m browser``. Every screen is saved to ``tests/web/screenshots/``.
"""

from __future__ import annotations

import json
from typing import Any

from tests.web.browsing import (
    BROWSER,
    Page,
    _page,
    clean,
    create_table,
    guest,
    over,
    play_to_end,
    shot,
    strongest,
)

pytestmark = BROWSER

# These journeys play with every animation, as most players see the page (the other
# browser tests ask for reduced motion).
MOTION = "no-preference"


# ---------------------------------------------------------------------------------- tests


def test_imperial_against_a_bot_with_keys_language_reload_and_replay(
    server: str, browser: Any
) -> None:
    page = _page(browser, motion=MOTION)
    page.goto(server)
    page.wait_for_selector("#screen-auth:not([hidden])")
    shot(page, "01-sign-in")
    page.click(".guest-btn")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    shot(page, "02-lobby")
    seen: dict[str, bool] = {}

    def each(p: Page, plays: int) -> None:
        # One check per turn of ours, in this order, whatever the cards played so far.
        if p.locator(".hand .card").count() < 2 or p.locator(".hand .card.sending").count():
            # The deal's last card (the next deal's hand may come before the check sees
            # this one shrink), or a card still on its way (the hand is about to change):
            # each check waits for a settled turn with two cards or more.
            return
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
            # A card the hand on screen offers now (the view's legal list can still be
            # the last frame's, holding the card the keys just played).
            shown = p.evaluate(
                "document.querySelector('.hand .card.sending') ? [] : "
                "[...document.querySelectorAll('.hand .card.legal')].map(b => b.dataset.card)"
            )
            card = strongest(p)
            if card not in shown:
                card = shown[0] if shown else None
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
    # Verify: the stored game's deals checked by the server against the revealed seed.
    probe = page.request.get(f"{server}api/games/{table}/verify")
    if probe.status == 404:  # a server from before fair dealing: answer as the new one would
        verdict = {
            "ok": True,
            "dealing": "hmac-sha256",
            "commitment": "0" * 64,
            "commitment_ok": True,
            "deals": 2,
            "deals_ok": 2,
            "problems": [],
        }
        page.route(f"**/api/games/{table}/verify", lambda route: route.fulfill(json=verdict))
    else:
        verdict = probe.json()
    page.click(".verify-btn")
    page.wait_for_selector(".verify-result .verdict")
    text = page.inner_text(".verify-result .verdict")
    if verdict["dealing"] == "mt19937":
        assert text.startswith("Dealt before fingerprints were shown"), text
    else:
        assert verdict["ok"] and verdict["commitment_ok"], verdict
        deals = verdict["deals"]
        assert text == (
            f"Fair deals: the key matches the fingerprint shown before the game, and all {deals} "
            "deals come from it."
        ), text
    shot(page, "08-imperial-verified")
    clean(page)
    page.context.close()


def test_emperor_with_swaps_offers_and_trump(server: str, browser: Any) -> None:
    """Two people (one reading Russian) and two computers; the people take hands, offer,
    refuse and accept, and name trump whenever one of them is King."""
    ann = _page(browser, locale="ru-RU", motion=MOTION)
    guest(ann, server)
    assert ann.evaluate("document.documentElement.lang") == "ru"  # from the browser
    table = create_table(ann, "emperor", 4, {"rounds": 3, "bargain_from": 2}, bots=False)
    ann.wait_for_selector(".panel.waiting")
    for seat in (2, 3):
        ann.select_option(".waiting select[name=level]", "1")
        ann.click(f'button[data-seat-do="bot"][data-seat="{seat}"]')
        ann.wait_for_selector(f'button[data-seat-do="unbot"][data-seat="{seat}"]')
    shot(ann, "11-waiting-room-ru")
    ben = _page(browser, motion=MOTION)
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

    play_to_end([ann, ben], choose=choose, each=each, limit=300)
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
        clean(p)
        p.context.close()


def test_b3_two_people_at_one_table_and_a_spectator(server: str, browser: Any) -> None:
    alice = _page(browser, motion=MOTION)
    guest(alice, server)
    table = create_table(alice, "imperial", 2, {"target": 2}, bots=False)
    alice.wait_for_selector(".panel.waiting")
    shot(alice, "20-waiting")
    # Bob, on a phone-sized screen, finds the table in the lobby and sits down.
    bob = _page(browser, width=375, height=780, motion=MOTION)
    guest(bob, server)
    row = bob.locator(f'.open-list li[data-table="{table}"]')
    row.wait_for()
    shot(bob, "21-lobby-mobile")
    row.locator('button[data-do="join"]').click()
    # Carol watches, recording every WebSocket frame she receives.
    carol = _page(browser, width=1100, height=800, motion=MOTION)
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
        clean(p)
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
