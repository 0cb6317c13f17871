"""Fingers on a phone (issue 30, items 6, 8 and 10b), in a real browser.

* Every control a finger uses is at least 44×44 px on a touch screen (WCAG 2.5.5): on the
  sign-in screen, the lobby, the table (Imperial and Emperor, in play and at each kind of
  decision), the post-game review and the wallet, at 360×640 and 375×740, in English and
  in Russian (``js/tap_targets.js`` probes each control's hit box where a finger lands).
* The cards of a hand overlap by design; for them the rule is ``js/hand_strips.js``'s:
  every card's uncovered strip is at least 44 px tall and a whole share of the hand's
  width (13 cards on a 360 px phone leave some 20 px each: twelve strips of 44 px need
  more than 500), and the card a first tap raised (the one a second tap plays) lies whole
  over its neighbours, a 62×87 px target: a slip onto a neighbour's narrow strip only
  raises that one, and plays nothing.
* The table keeps the promises of issue #16 on a touch phone too (``js/layout_check.js``).
* The review's list of decisions flows with the page on a phone instead of a small box
  scrolling inside itself, the replay's controls never cover what is brought into view,
  and their list button goes back from the table to the decision shown.
* A notice belongs to the screen it was raised on: it goes when the player goes to
  another screen; on the wallet it is in the page's flow, covering nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.web.browsing import (
    BROWSER,
    CSP_WATCH,
    Page,
    _page,
    clean,
    create_table,
    guest,
    held_to_policy,
    shot,
    show_review,
    switch_language,
)

pytestmark = BROWSER

HERE = Path(__file__).parent
PHONES = [(360, 640), (375, 740)]
LANGS = ("en", "ru")


def _script(name: str) -> str:
    lines = (HERE / "js" / name).read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.startswith("//"))


TAPS = _script("tap_targets.js")
LAYOUT = _script("layout_check.js")
DECISIONS = _script("decision.js")

# The cards of a hand overlap by design: their own rule (see the script).
HAND = _script("hand_strips.js")


def _touch(browser: Any, size: tuple[int, int], locale: str = "en-US") -> Page:
    """A phone: a touch screen (pointer: coarse), the page held to its CSP."""
    ctx = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        locale=locale,
        has_touch=True,
        is_mobile=True,
        service_workers="block",  # as browsing._page: the worker has its own test
        reduced_motion="reduce",  # as every page test but the main journeys (browsing._page)
    )
    ctx.add_init_script(CSP_WATCH)
    page = ctx.new_page()
    held_to_policy(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def console(message: Any) -> None:
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            errors.append(f"console: {message.text}")

    page.on("console", console)
    page.errors = errors
    return page


def _taps(page: Page, where: str) -> int:
    """Every control on screen is a whole 44×44 target; returns how many were measured."""
    got = page.evaluate(TAPS, where)
    if got["problems"]:
        shot(page, f"70-taps-fail-{where.split(' ')[0]}")
    assert not got["problems"], got["problems"]
    return int(got["count"])


def _settled(page: Page) -> None:
    """The hand where it rests: no card flying in or rising."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('.hand .card, .decision-card')]"
        ".every((el) => !el.getAnimations().length)",
        timeout=20_000,
    )


def _hand(page: Page, where: str) -> list[dict[str, Any]]:
    _settled(page)
    got = page.evaluate(HAND, where)
    assert not got["problems"], got["problems"]
    return list(got["strips"])


def _raise_one(page: Page, where: str) -> None:
    """A first tap on a card in the middle of the hand raises it: its strip opens to a
    finger's width; the others still keep to the rule."""
    strips = _hand(page, where)
    card = strips[len(strips) // 2]["card"]
    x, y = page.evaluate(
        """(c) => {
          const cards = [...document.querySelectorAll('#screen-table .hand .card')];
          const i = cards.findIndex((b) => b.dataset.card === c);
          const r = cards[i].getBoundingClientRect();
          const right = Math.min(r.right, cards[i + 1]?.getBoundingClientRect().left ?? r.right);
          return [(r.left + right) / 2, r.top + r.height / 2];
        }""",
        card,
    )
    page.touchscreen.tap(x, y)
    page.wait_for_selector(f'#screen-table .hand .card.raised[data-card="{card}"]')
    raised = [s for s in _hand(page, f"{where} raised") if s["raised"]]
    shot(page, f"71-raised-{where.replace(' ', '-')}")
    assert [s["card"] for s in raised] == [card] and raised[0]["w"] >= 44, raised
    # the finger that raised it is still on it
    hit = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('.card')?.dataset.card", [x, y]
    )
    assert hit == card, (hit, card)
    page.evaluate("() => window.kozyr.tableView.raise(null)")


def _layout(page: Page, where: str) -> None:
    _settled(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    problems = page.evaluate(LAYOUT, where)
    if problems:
        shot(page, f"71-layout-fail-{where.replace(' ', '-')}")
    assert not problems, problems


# ---------------------------------------------------------------- the screens, measured


def test_the_lobby_sign_in_and_wallet_are_made_for_fingers(server: str, browser: Any) -> None:
    for size in PHONES:
        page = _touch(browser, size, "ru-RU")
        page.goto(server)
        page.wait_for_selector("#screen-auth:not([hidden])")
        for lang in LANGS:
            switch_language(page, lang)
            assert _taps(page, f"auth {size} {lang}") >= 8
        page.click(".guest-btn")
        page.wait_for_selector("#screen-lobby:not([hidden])")
        page.wait_for_selector(".create-form select[name=players] option", state="attached")
        for lang in LANGS:
            switch_language(page, lang)
            # the form's boxes and ticks, the quick play, the lists and the header
            assert _taps(page, f"lobby {size} {lang}") >= 30
            whole = HERE / "screenshots" / f"70-lobby-{size[0]}-{lang}.png"
            page.screenshot(path=str(whole), full_page=True)
        page.click(".top .balance")
        page.wait_for_selector(".wallet-root .wallet-sums")
        for lang in LANGS:
            switch_language(page, lang)
            assert _taps(page, f"wallet {size} {lang}") >= 5
            shot(page, f"70-wallet-{size[0]}-{lang}")
        clean(page)
        page.context.close()


@pytest.mark.parametrize(("game", "players"), [("imperial", 2), ("emperor", 4)])
def test_the_table_in_play_and_at_a_decision_is_made_for_fingers(
    server: str, browser: Any, game: str, players: int
) -> None:
    page = _touch(browser, PHONES[0], "ru-RU")
    guest(page, server)
    options = {"target": 3} if game == "imperial" else {"rounds": 3}
    create_table(page, game, players, options, bots=True)
    page.wait_for_selector("#screen-table .hand .card.legal", timeout=30_000)
    for size in PHONES:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        for lang in LANGS:
            switch_language(page, lang)
            where = f"{game} {size[0]}x{size[1]} {lang}"
            _layout(page, where)
            # leave, the seed's fingerprint, the tools, the header: nine at least
            assert _taps(page, where) >= 9
            _hand(page, where)
            _raise_one(page, where)
            shot(page, f"71-table-{game}-{size[0]}-{lang}")
            if game != "emperor":
                continue
            for kind in ("trump", "swap", "offer", "answer"):
                page.evaluate(f"() => {{ window.__undo = ({DECISIONS})('{kind}'); }}")
                page.wait_for_selector(".decision:not([hidden]) button[data-action]")
                _layout(page, f"{where} {kind}")
                assert _taps(page, f"{where} {kind}") >= 11
                # the whole box on the felt, its question and every answer of 44 px,
                # unscrolled: the trump's and the answer's. (Four long answers, a swap's
                # or an offer's in Russian, scroll inside the box on these phones, as they
                # did before with 38 px buttons: the question first.)
                box = page.evaluate(
                    "() => { const c = document.querySelector('.decision-card');"
                    " return [c.scrollHeight, c.clientHeight]; }"
                )
                print(where, kind, box)
                shot(page, f"71-table-{game}-{size[0]}-{lang}-{kind}")
                if kind in ("trump", "answer"):
                    assert box[0] <= box[1] + 1, (where, kind, box)
                page.evaluate("window.__undo()")
                page.wait_for_selector(".decision", state="hidden")
    clean(page)
    page.context.close()


def test_a_laptop_keeps_its_compact_controls(server: str, browser: Any) -> None:
    """With a mouse nothing grows: the header's and the tools' look as before."""
    page = _page(browser, 1280, 720)
    guest(page, server)
    page.wait_for_selector(".create-form select[name=players] option", state="attached")
    for lang in LANGS:
        switch_language(page, lang)
        shot(page, f"70-lobby-1280-{lang}")
    page.click(".top .balance")
    page.wait_for_selector(".wallet-root .wallet-sums")
    shot(page, "70-wallet-1280-ru")
    switch_language(page, "en")
    page.goto(f"{server}#/")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    create_table(page, "imperial", 2, {"target": 3}, bots=True)
    page.wait_for_selector("#screen-table .hand .card")
    heights = page.evaluate(
        "() => ['.top .sign-out', '.leave-btn', '.pill.tool[data-tool=sheet]']"
        ".map((s) => Math.round(document.querySelector(s).getBoundingClientRect().height))"
    )
    assert heights == [32, 32, 28], heights
    for lang in LANGS:
        switch_language(page, lang)
        shot(page, f"71-table-1280-{lang}")
    clean(page)
    page.context.close()


# ---------------------------------------------------------------- the review on a phone

REVIEW = """() => {
  const panel = document.querySelector('.review-panel');
  const bar = document.querySelector('.replay-controls').getBoundingClientRect();
  const style = getComputedStyle(panel);
  const hand = document.querySelector('#replay-root .hand-area').getBoundingClientRect();
  const side = document.querySelector('#replay-root .side').getBoundingClientRect();
  return {
    overflow: style.overflowY, inner: panel.scrollHeight - panel.clientHeight,
    panelTop: panel.getBoundingClientRect().top + scrollY, handBottom: hand.bottom + scrollY,
    sideTop: side.top + scrollY, barBottom: bar.bottom, barHeight: bar.height,
    lines: panel.querySelectorAll('.review-line').length,
    page: document.documentElement.scrollWidth,
  };
}"""

# The line of index ``n``, focused as a keyboard or a screen reader moves to it: where the
# browser brought it, and what a finger gets at its top and its middle.
FOCUS_LINE = """(n) => {
  const line = document.querySelectorAll('.review-panel .review-line')[n];
  line.focus();
  const r = line.getBoundingClientRect();
  const bar = document.querySelector('.replay-controls').getBoundingClientRect();
  const at = (y) =>
    document.elementFromPoint(r.left + r.width / 2, y)?.closest('.review-line') === line;
  return {top: r.top, bottom: r.bottom, barBottom: bar.bottom, height: innerHeight,
          topFree: at(r.top + 3), middleFree: at(r.top + r.height / 2)};
}"""


@pytest.mark.parametrize("size", PHONES)
def test_the_review_flows_with_the_page_on_a_phone(
    server: str, browser: Any, finished: str, size: tuple[int, int]
) -> None:
    page = _touch(browser, size)
    guest(page, server)
    page.goto(f"{server}#/replay/{finished}")
    page.wait_for_selector("#replay-root .hand .card")
    show_review(page)
    page.wait_for_timeout(300)
    got = page.evaluate(REVIEW)
    # no box scrolling inside itself: the page holds the whole list, under the replayed
    # hand and before the scores and the log, no wider than the phone
    assert got["overflow"] == "visible" and got["inner"] <= 1, got
    assert got["handBottom"] <= got["panelTop"] < got["sideTop"], got
    assert got["lines"] > 20 and got["page"] == size[0], got
    # the controls: two rows, at most 100 px, over nothing brought into view
    assert got["barHeight"] <= 100, got
    for lang in LANGS:
        switch_language(page, lang)
        assert _taps(page, f"review {size[0]} {lang}") >= 40
        _hand(page, f"review {size[0]} {lang}")
        shot(page, f"72-review-{size[0]}-{lang}")
    for n in (0, 7, got["lines"] // 2, got["lines"] - 1):
        line = page.evaluate(FOCUS_LINE, n)
        assert line["top"] >= line["barBottom"] and line["bottom"] <= line["height"], (n, line)
        assert line["topFree"] and line["middleFree"], (n, line)
    # a decision from the middle of the list: its move on the table, under the controls
    n = got["lines"] // 2
    line = page.locator(".review-panel .review-line").nth(n)
    index = int(line.get_attribute("data-index") or 0)
    line.scroll_into_view_if_needed()
    line.tap()
    page.wait_for_function(
        "(i) => document.querySelector('.replay-range').value === String(i)", arg=index + 1
    )
    page.wait_for_timeout(300)
    where = page.evaluate(
        "() => [document.querySelector('#replay-root .felt').getBoundingClientRect().top,"
        " document.querySelector('.replay-controls').getBoundingClientRect().bottom]"
    )
    assert where[1] <= where[0] <= where[1] + 12, where
    shot(page, f"72-review-{size[0]}-jumped")
    # ... and back to that line by the controls' list button
    page.tap(".to-review")
    page.wait_for_timeout(300)
    back = page.evaluate(
        """() => { const l = document.querySelector('.review-line.current');
          const r = l.getBoundingClientRect();
          return {top: r.top, focused: document.activeElement === l, index: l.dataset.index,
                  bar: document.querySelector('.replay-controls')
                    .getBoundingClientRect().bottom}; }"""
    )
    assert back["focused"] and int(back["index"]) == index, back
    assert back["bar"] <= back["top"] <= back["bar"] + 12, back
    shot(page, f"72-review-{size[0]}-back")
    clean(page)
    page.context.close()


def test_the_review_beside_the_replay_on_a_laptop_is_as_before(
    server: str, browser: Any, finished: str
) -> None:
    """A column of its own that scrolls inside itself, no list button in the controls."""
    page = _page(browser, 1280, 720)
    guest(page, server)
    page.goto(f"{server}#/replay/{finished}")
    page.wait_for_selector("#replay-root .hand .card")
    show_review(page)
    page.wait_for_timeout(300)
    got = page.evaluate(
        "() => { const p = document.querySelector('.review-panel');"
        " return [getComputedStyle(p).overflowY, p.scrollHeight > p.clientHeight,"
        " getComputedStyle(document.querySelector('.to-review')).display]; }"
    )
    assert got == ["auto", True, "none"], got
    for lang in LANGS:
        switch_language(page, lang)
        shot(page, f"72-review-1280-{lang}")
    clean(page)
    page.context.close()


# ---------------------------------------------------------------- notices

SEND_BAD_HELLO = "() => window.kozyr.socket.send({type: 'hello', table: 'no-such-table'})"
NOTICE = """() => {
  const shown = [...document.querySelectorAll('.toast, .screen-notice')].filter((el) => !el.hidden);
  return shown.map((el) => ({cls: el.className, text: el.textContent,
    screen: el.closest('.screen')?.id ?? null, box: el.getBoundingClientRect().toJSON()}));
}"""
# Whether the wallet's notice lies over any of the wallet's content (it is in the flow).
COVERS_WALLET = """() => {
  const n = document.querySelector('#screen-wallet .screen-notice').getBoundingClientRect();
  const meet = (r) => n.left < r.right && r.left < n.right && n.top < r.bottom && r.top < n.bottom;
  return [...document.querySelectorAll('.wallet-root *')]
    .filter((el) => el.getBoundingClientRect().width && meet(el.getBoundingClientRect()))
    .map((el) => el.className || el.tagName);
}"""


@pytest.mark.parametrize("size", [(360, 640), (1280, 720)])
def test_notices_stay_with_their_screen_and_leave_the_wallet_clear(
    server: str, browser: Any, size: tuple[int, int]
) -> None:
    page = _touch(browser, size) if size[0] < 600 else _page(browser, *size)
    guest(page, server)
    create_table(page, "imperial", 2, {"target": 10}, bots=True)
    page.wait_for_selector("#screen-table .hand .card")
    for lang in LANGS:
        switch_language(page, lang)
        # a notice raised at the table...
        page.evaluate(SEND_BAD_HELLO)
        page.wait_for_selector(".toast:not([hidden])")
        shot(page, f"73-notice-table-{size[0]}-{lang}")
        # ...is gone as soon as the player goes to his wallet (it used to stay 4 s over it)
        page.click(".top .balance")
        page.wait_for_selector(".wallet-root .wallet-sums")
        assert page.evaluate(NOTICE) == []
        # one raised on the wallet is in its flow, over none of its content
        page.evaluate(SEND_BAD_HELLO)
        page.wait_for_selector("#screen-wallet .screen-notice:not([hidden])")
        shown = page.evaluate(NOTICE)
        assert [n["screen"] for n in shown] == ["screen-wallet"], shown
        assert page.evaluate(COVERS_WALLET) == []
        shot(page, f"73-notice-wallet-{size[0]}-{lang}")
        # a tap dismisses it
        page.click("#screen-wallet .screen-notice")
        assert page.evaluate(NOTICE) == []
        # and it does not follow the player back to the table either
        page.evaluate(SEND_BAD_HELLO)
        page.wait_for_selector("#screen-wallet .screen-notice:not([hidden])")
        page.go_back()
        page.wait_for_selector("#screen-table:not([hidden]) .hand .card")
        assert page.evaluate(NOTICE) == []
    # A notice sent ahead with the player (the table he asked for is gone) shows where he
    # lands, the lobby, and stays there.
    page.evaluate("() => { location.hash = '#/table/no-such-table'; }")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    page.wait_for_selector(".toast:not([hidden])")
    shown = page.evaluate(NOTICE)
    assert len(shown) == 1 and shown[0]["text"], shown
    shot(page, f"73-notice-lobby-{size[0]}")
    clean(page)
    page.context.close()
