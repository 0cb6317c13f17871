"""The page's boxes measured in a real browser where screenshots showed them meet: the note
"X takes the trick" over the trick's lowest card on a phone, the score panel cutting
players' names on a laptop, the replay's trump card on the left player's open hand at
360 px, and the review's summary, its list of decisions and the replay's controls."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from tests.web.browsing import (
    BROWSER,
    Page,
    _page,
    clean,
    create_table,
    go_to_step,
    guest,
    open_replay,
    over,
    shot,
    show_review,
    step,
    switch_language,
)

pytestmark = BROWSER

PHONES = [(360, 640), (390, 844)]
LAPTOPS = [(1280, 720), (1366, 768)]


def _meet(a: dict[str, float] | None, b: dict[str, float] | None, gap: float = 0) -> bool:
    """Whether two boxes come closer than ``gap`` px (or overlap, with no gap); a box not
    shown (None) meets nothing."""
    if a is None or b is None:
        return False
    return (
        a["left"] < b["right"] + gap
        and b["left"] < a["right"] + gap
        and a["top"] < b["bottom"] + gap
        and b["top"] < a["bottom"] + gap
    )


# ---------------------------------------------------------------- the trick's note

# The note and what it must keep clear of, measured the moment it is written (a computer
# leading the next trick takes it away within a moment) and while the finished trick rests
# in the middle (its cards are gathered to the winner after 0.95 s: not measured then).
WATCH_NOTE = """() => {
  window.__notes = [];
  const note = document.querySelector('#screen-table .felt-note');
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  };
  new MutationObserver(() => {
    if (!note.textContent) return;
    const cards = [...document.querySelectorAll('#screen-table .trick-card')];
    const moving = (el) => el.getAnimations().some((a) => (a.currentTime || 0) >= 850);
    if (!cards.length || cards.some(moving)) return;
    window.__notes.push({
      text: note.textContent, lang: document.documentElement.lang, width: innerWidth,
      whole: note.scrollWidth <= note.clientWidth,
      note: box(note), felt: box(document.querySelector('#screen-table .felt')),
      trick: cards.map(box),
      hand: [...document.querySelectorAll('#screen-table .hand .card')].map(box),
      trump: [...document.querySelectorAll('#screen-table .deck-corner .mini')].map(box),
    });
  }).observe(note, {childList: true, characterData: true, subtree: true});
}"""

NOTE_WORDS = {"en": re.compile(r"^(.+) takes the trick$"), "ru": re.compile(r"^Взятку берёт (.+)$")}


def _catch_note(page: Page, width: int, lang: str, limit: float = 90) -> dict[str, Any]:
    """Plays the person's moves until a trick is won and its note shows; the note's boxes."""
    page.evaluate("() => { window.__notes.length = 0; }")
    start = time.time()
    while time.time() - start < limit and not over(page):
        notes = page.evaluate("window.__notes")
        seen = [n for n in notes if n["width"] == width and n["lang"] == lang]
        if seen:
            return dict(seen[0])
        if step(page, lambda p, actions: actions[-1]) is None:
            page.wait_for_timeout(20)
    raise AssertionError(f"no trick was won in time ({width} {lang})")


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("imperial", 2, {"target": 3}), ("emperor", 4, {"rounds": 1})],
)
def test_the_trick_note_keeps_off_the_trick_and_the_hand_on_phones(
    server: str, browser: Any, game: str, players: int, options: dict[str, int]
) -> None:
    """At 360 and 390 px wide, in Russian (the longer words) and English: the note is one
    line inside the felt, clear of every card of the trick, of the hand and of the trump."""
    page = _page(browser, 360, 640, locale="ru-RU")
    guest(page, server)
    create_table(page, game, players, options, bots=True)
    page.wait_for_selector("#screen-table .hand .card")
    page.evaluate(WATCH_NOTE)
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        for lang in ("ru", "en"):
            switch_language(page, lang)
            got = _catch_note(page, width, lang)
            where = (game, width, lang, got)
            shot(page, f"60-note-{game}-{width}-{lang}")
            assert got["lang"] == lang
            said = NOTE_WORDS[lang].match(got["text"])
            assert said and said.group(1).strip(), where
            note = got["note"]
            assert len(got["trick"]) == players, where
            assert not [c for c in got["trick"] if _meet(c, note)], where
            assert not [c for c in got["hand"] if _meet(c, note)], where
            assert not [c for c in got["trump"] if _meet(c, note)], where
            # its words whole on one line, inside the felt
            assert got["whole"], where
            assert note["bottom"] - note["top"] <= 24, where
            felt = got["felt"]
            assert felt["left"] <= note["left"] and note["right"] <= felt["right"], where
            assert note["bottom"] <= felt["bottom"], where
    clean(page)
    page.context.close()


# ---------------------------------------------------------------- names in the score panel

PASSWORD = "long enough secret 1"
# Names of 16 letters: two words, and one word with nothing to break it at.
LONG_NAMES = ["Анастасия Белова", "Константинополец"]

SCORE_NAMES = """() => {
  const body = document.querySelector('#screen-table .score-body');
  const rows = [...body.querySelectorAll('tbody th')].map((th) => {
    const name = th.querySelector('.score-name');
    return {shown: name.textContent, full: name.title,
            whole: th.scrollWidth <= th.clientWidth && name.scrollWidth <= name.clientWidth + 0.5};
  });
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  };
  const all = (sel) => [...document.querySelectorAll(sel)].map(box);
  return {rows, fits: body.scrollWidth <= body.clientWidth,
          side: box(document.querySelector('#screen-table .side')),
          panel: box(document.querySelector('#screen-table .score-panel')),
          felt: all('#screen-table .felt .mini, #screen-table .trick-card'),
          hand: all('#screen-table .hand .card')};
}"""


def _person(browser: Any, server: str, name: str | None, table: str) -> Any:
    """A second player who takes a seat over the API (no page of his own): ``name`` an
    account (made, or signed in to when the previous test made it), None a guest."""
    ctx = browser.new_context()
    if name is None:
        assert ctx.request.post(f"{server}api/guest").status == 201
    else:
        account = {"name": name, "password": PASSWORD}
        if ctx.request.post(f"{server}api/register", data=account).status != 201:
            login = ctx.request.post(f"{server}api/login", data=account)
            assert login.status == 200, login.text()
    joined = ctx.request.post(f"{server}api/tables/{table}/join", data={})
    assert joined.status == 200, joined.text()
    return ctx


# The felt's seats: the name each shows and its whole name, and the seats' boxes.
FELT_SEATS = """() => {
  const felt = document.querySelector('#screen-table .felt');
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const seats = [...felt.querySelectorAll('.seats .seat')].map((el) => {
    const name = el.querySelector('.seat-name');
    return {shown: name.textContent, full: name.title,
            cut: name.scrollWidth > name.clientWidth + 1, box: box(el)};
  });
  return {seats, felt: box(felt),
          trick: [...felt.querySelectorAll('.trick-card')].map(box)};
}"""


def _check_felt(page: Page, where: str) -> None:
    """On a laptop the felt's seats show long names whole (the short form is for phones),
    never cut, each seat inside the felt and clear of the others and of the trick."""
    got = page.evaluate(FELT_SEATS)
    seats = got["seats"]
    named = [s for s in seats if s["full"] in LONG_NAMES]
    assert {s["full"] for s in named} == set(LONG_NAMES), (where, seats)
    assert all(s["shown"] == s["full"] for s in named), (where, seats)
    assert not any(s["cut"] for s in seats), (where, seats)
    felt = got["felt"]
    for i, a in enumerate(seats):
        b = a["box"]
        assert felt["left"] <= b["left"] and b["right"] <= felt["right"], (where, a)
        assert not any(_meet(b, other["box"]) for other in seats[i + 1 :]), (where, seats)
        assert not any(_meet(b, card) for card in got["trick"]), (where, a, got["trick"])


def _check_names(page: Page, where: str) -> None:
    page.wait_for_timeout(300)
    # measured where the cards rest, not while a deal flies in
    page.wait_for_function(
        "() => [...document.querySelectorAll('#screen-table .hand .card')]"
        ".every((el) => !el.getAnimations().length)",
        timeout=20_000,
    )
    got = page.evaluate(SCORE_NAMES)
    rows = got["rows"]
    others = [r for r in rows if r["shown"] not in ("You", "Вы")]
    assert len(others) == len(rows) - 1, (where, rows)
    assert {r["full"] for r in others} >= set(LONG_NAMES), (where, rows)
    # every other player's whole name, on one line, the table inside its panel
    assert [r["shown"] for r in others] == [r["full"] for r in others], (where, rows)
    assert all(r["whole"] for r in rows), (where, rows)
    assert got["fits"], (where, got)
    # the wider column leaves the felt's cards alone, and the score panel the hand's
    assert not [c for c in got["felt"] if _meet(c, got["side"])], (where, got)
    assert not [c for c in got["hand"] if _meet(c, got["panel"])], (where, got)


@pytest.mark.parametrize(("game", "players"), [("emperor", 4), ("imperial", 3)])
def test_laptops_show_players_names_whole_in_the_score_panel_and_on_the_felt(
    server: str, browser: Any, game: str, players: int
) -> None:
    page = _page(browser, 1280, 720, locale="ru-RU")
    guest(page, server)
    options = {"rounds": 2} if game == "emperor" else {"target": 5}
    table = create_table(page, game, players, options, bots=False)
    names: list[str | None] = [*LONG_NAMES, None]
    others = [_person(browser, server, name, table) for name in names[: players - 1]]
    page.wait_for_selector("#screen-table .hand .card", timeout=30_000)
    page.wait_for_selector("#screen-table .score-body tbody th")
    for width, height in LAPTOPS:
        page.set_viewport_size({"width": width, "height": height})
        for lang in ("ru", "en"):
            switch_language(page, lang)
            _check_names(page, f"{game} {width} {lang}")
            _check_felt(page, f"{game} {width} {lang}")
            shot(page, f"61-scores-{game}-{width}-{lang}")
    if game == "emperor":
        # From the second round on, the titles' column: its longest words ("Император",
        # "Скоморох") drawn by the page's own table, every view from now on given them.
        page.evaluate(
            "() => { const v = window.kozyr.tableView; const update = v.update.bind(v);"
            " const titles = ['emperor', 'jester', 'soldier', 'prince'];"
            " v.update = (f) => update({...f, obs: {...f.obs, titles}}); v.update(v.frame); }"
        )
        assert page.locator("#screen-table .score-body .pill.t-jester").count() == 1
        for width, height in LAPTOPS:
            page.set_viewport_size({"width": width, "height": height})
            for lang in ("ru", "en"):
                switch_language(page, lang)
                _check_names(page, f"{game} titles {width} {lang}")
                assert page.locator("#screen-table .score-body .pill.t-jester").count() == 1
        shot(page, f"61-scores-{game}-titles")
    # Where the panel is too narrow for them (a phone), the names are short, never cut.
    page.set_viewport_size({"width": 360, "height": 640})
    page.wait_for_timeout(300)
    got = page.evaluate(SCORE_NAMES)
    assert got["fits"] and all(r["whole"] for r in got["rows"]), got["rows"]
    clean(page)
    page.context.close()
    for ctx in others:
        ctx.close()


# ---------------------------------------------------------------- the replay's trump card


# The least distance between the trump card's box and any card of any hand.
TRUMP_GAP = """() => {
  const trump = document.querySelector('#replay-root .deck-corner .turnup .mini');
  const t = trump.getBoundingClientRect();
  const cards = [...document.querySelectorAll(
    '#replay-root .seat-cards .mini, #replay-root .hand .card')]
    .map((c) => c.getBoundingClientRect());
  const apart = (c) =>
    Math.max(c.left - t.right, t.left - c.right, c.top - t.bottom, t.top - c.bottom);
  // and the trick on the table clear of every seat's box (its open hand)
  const seats = [...document.querySelectorAll('#replay-root .seats .seat')]
    .map((el) => el.getBoundingClientRect());
  const trick = [...document.querySelectorAll('#replay-root .trick-card')]
    .map((el) => el.getBoundingClientRect());
  const meet = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const onSeat = trick.filter((c) => seats.some((s) => meet(c, s)));
  return {cards: cards.length, gap: Math.min(...cards.map(apart)),
          trick: trick.length, trickOnSeat: onSeat.length};
}"""


def test_the_replays_trump_card_keeps_off_every_hand_at_360(
    server: str, browser: Any, finished: str
) -> None:
    page = open_replay(browser, server, finished, (360, 640), "ru-RU")
    # the cards where they rest at each step, not flying in from their players
    page.emulate_media(reduced_motion="reduce")
    steps = int(page.get_attribute(".replay-range", "max") or 0)
    assert steps > 13
    worst: tuple[float, int] = (1e9, -1)
    tricks = 0
    for n in range(steps + 1):
        go_to_step(page, n)
        got = page.evaluate(TRUMP_GAP)
        if n == 0:  # the three open hands and the person's own, whole
            assert got["cards"] == 52, got
        worst = min(worst, (got["gap"], n))
        tricks += got["trick"]
        assert got["trickOnSeat"] == 0, (n, got)
    go_to_step(page, worst[1])
    page.locator("#replay-root .felt").scroll_into_view_if_needed()
    shot(page, "62-replay-trump-360")
    assert worst[0] >= 4, worst
    assert tricks > 0
    # the same in English (the seats' words change their boxes a little)
    switch_language(page, "en")
    for n in (0, worst[1], steps):
        go_to_step(page, n)
        assert page.evaluate(TRUMP_GAP)["gap"] >= 4, n
    clean(page)
    page.context.close()


# ---------------------------------------------------------------- the review beside the replay

REVIEW_BOXES = """() => {
  const rect = (sel) => document.querySelector(sel).getBoundingClientRect();
  const box = (sel) => {
    const r = rect(sel);
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  };
  // the part of the review's summary or list that shows: the panel scrolls inside itself
  const shown = (sel) => {
    const r = rect(sel);
    const p = rect('.review-panel');
    const b = {left: Math.max(r.left, p.left), right: Math.min(r.right, p.right),
               top: Math.max(r.top, p.top), bottom: Math.min(r.bottom, p.bottom)};
    return b.left < b.right && b.top < b.bottom ? b : null;
  };
  const controls = document.querySelector('.replay-controls').getBoundingClientRect();
  const mid = document.elementFromPoint(
    (controls.left + controls.right) / 2, (controls.top + controls.bottom) / 2);
  return {
    lines: shown('.review-panel .review-lines'), summary: shown('.review-panel .review-summary'),
    controls: box('.replay-controls'), felt: box('#replay-root .felt'),
    controlsOnTop: !!mid && !!mid.closest('.replay-controls'),
    width: innerWidth, height: innerHeight,
  };
}"""


# The ``n``-th decision of the list brought into view as a reader would: on a laptop the
# review scrolled inside itself; on a phone, where it flows with the page (issue 30), the
# page scrolled to the line, which lands under the sticky controls. Where a finger taps it,
# and the controls' bottom then.
CHOOSE_LINE = """(n) => {
  const panel = document.querySelector('.review-panel');
  const line = panel.querySelectorAll('.review-line')[n];
  if (panel.scrollHeight > panel.clientHeight + 1) {
    panel.scrollTop += line.getBoundingClientRect().top - panel.getBoundingClientRect().top - 30;
  } else {
    line.scrollIntoView({block: 'start'});
  }
  const r = line.getBoundingClientRect();
  const bar = document.querySelector('.replay-controls').getBoundingClientRect();
  return [r.left + r.width / 2, r.top + Math.min(r.height / 2, 12), bar.bottom];
}"""


def _on_screen(b: dict[str, float], width: int, height: int) -> bool:
    return b["left"] >= 0 and b["right"] <= width and b["top"] >= 0 and b["bottom"] <= height


@pytest.mark.parametrize("size", [(360, 640), (1280, 720)])
def test_the_review_its_summary_and_the_replays_controls_keep_apart(
    server: str, browser: Any, finished: str, size: tuple[int, int]
) -> None:
    page = open_replay(browser, server, finished, size, "ru-RU")
    show_review(page)
    page.wait_for_timeout(300)
    width, height = size
    got = page.evaluate(REVIEW_BOXES)
    shot(page, f"63-review-{width}")
    assert got["summary"], got  # the review begins with it
    parts = ("lines", "summary", "controls")
    for i, a in enumerate(parts):
        for b in parts[i + 1 :]:
            assert not _meet(got[a], got[b]), (a, b, got)
    assert _on_screen(got["controls"], width, height) and got["controlsOnTop"], got
    # A decision chosen from the list: its move on the table, the controls still on the
    # screen and over whatever scrolls under them, the table below them.
    # (clicked where a reader sees it: the panel scrolled inside itself to the line, on a
    # phone the page to the line, just under the sticky controls)
    x, y, bar = page.evaluate(CHOOSE_LINE, 2)
    assert 0 < x < width and bar < y < height, (x, y, bar, got)
    page.mouse.click(x, y)
    page.wait_for_timeout(400)
    chosen = page.evaluate(REVIEW_BOXES)
    shot(page, f"63-review-{width}-chosen")
    assert page.locator(".review-line.current").count() == 1
    assert _on_screen(chosen["controls"], width, height) and chosen["controlsOnTop"], chosen
    assert not _meet(chosen["controls"], chosen["felt"]), chosen
    assert not _meet(chosen["lines"], chosen["summary"]), chosen
    if width > 1000:  # nothing scrolled: the list and the summary clear of the controls
        assert not _meet(chosen["controls"], chosen["lines"]), chosen
        assert not _meet(chosen["controls"], chosen["summary"]), chosen
    clean(page)
    page.context.close()


# ---------------------------------------------------------------- a new screen's scroll


def test_a_table_opened_from_a_scrolled_lobby_starts_at_its_top_on_a_phone(
    server: str, browser: Any
) -> None:
    """On a phone the create form is below the fold: the lobby is scrolled down to it.
    The table opened from there shows its top (its name, tools and the felt), not the
    lobby's scroll carried over to the middle of the table's page (it was, at times: a
    race with the table's first render; CI caught the tools row scrolled off the screen);
    and the lobby opened from a table scrolled down to its log starts at its top."""
    page = _page(browser, 360, 640, locale="ru-RU")
    guest(page, server)
    page.wait_for_selector(".create-form button[type=submit]")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("window.scrollY") > 100  # the lobby is longer than the screen
    create_table(page, "imperial", 2, {"target": 1}, bots=True)
    page.wait_for_selector("#screen-table .hand .card")
    page.wait_for_timeout(300)
    tall = page.evaluate("document.documentElement.scrollHeight - innerHeight")
    assert tall > 100  # the table's page could have kept a scroll
    assert page.evaluate("window.scrollY") == 0
    bar = page.locator("#screen-table .table-bar").bounding_box()
    assert bar is not None and bar["y"] >= 0
    # and back: the table's page scrolled down to its log, the lobby opens at its top
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("window.scrollY") > 100
    page.evaluate("location.hash = '#/'")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    page.wait_for_timeout(300)
    assert page.evaluate("window.scrollY") == 0
    clean(page)
    page.context.close()


# ---------------------------------------------------------------- a short laptop window

SHORT_TABLE = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const all = (s) => [...document.querySelectorAll(s)].map(box);
  return {height: innerHeight, hand: all('#screen-table .hand .card'),
          felt: document.querySelector('#screen-table .felt').getBoundingClientRect().height,
          seats: all('#screen-table .seats .seat'),
          deck: all('#screen-table .deck-corner .mini'), trick: all('#screen-table .trick-card')};
}"""


@pytest.mark.parametrize("size", [(1280, 600), (1024, 600)])
@pytest.mark.parametrize(("game", "players"), [("imperial", 2), ("imperial", 3), ("emperor", 4)])
def test_a_short_laptop_window_shows_the_whole_hand(
    server: str, browser: Any, size: tuple[int, int], game: str, players: int
) -> None:
    """1280x600 and 1024x600 (a laptop's browser window under its toolbars): every card
    of the hand is whole on screen, and the turned-up card and the trick stay clear of
    every seat. The page's chrome gives way in a short window (the "signed in as" line
    goes, the header keeps to one line, the cards are a little smaller) and the felt down
    to 240 px at two or three seats; four seats keep a 300 px felt for the side seats, and
    where that and the hand do not fit (1024x600) the page scrolls down once, just enough,
    taking the site's header out of view. (Before: the hand's lower 13 px lay below the
    window at 1024x600, 32 px at four seats at 1280x600, 109 px at 1024x600.)"""
    width, height = size
    page = _page(browser, width, height, locale="ru-RU")
    guest(page, server)
    create_table(page, game, players, {"target": 5} if game == "imperial" else {}, bots=True)
    page.wait_for_selector("#screen-table .hand .card", timeout=30_000)
    page.wait_for_function(
        "() => [...document.querySelectorAll('#screen-table .hand .card')]"
        ".every((el) => !el.getAnimations().length)",
        timeout=20_000,
    )
    page.wait_for_timeout(500)
    got = page.evaluate(SHORT_TABLE)
    assert got["hand"], got
    assert max(c["bottom"] for c in got["hand"]) <= height, got
    assert min(c["top"] for c in got["hand"]) >= 0, got
    if players <= 3:
        assert 240 <= got["felt"] < 300, got
        assert page.evaluate("scrollY") == 0  # all of it fits: nothing scrolled
    else:
        assert got["felt"] == 300, got
    assert got["deck"], got
    for seat in got["seats"]:
        assert not any(_meet(seat, c) for c in got["deck"] + got["trick"]), (seat, got)
    shot(page, f"63-short-laptop-{game}-{players}-{width}x{height}")
    # the header is still there above, in one line
    page.evaluate("scrollTo(0, 0)")
    top = page.evaluate(
        "() => { const r = document.querySelector('body > header').getBoundingClientRect();"
        " return [r.top, r.height]; }"
    )
    assert top[0] == 0 and top[1] < 50, top
    clean(page)
    page.context.close()
