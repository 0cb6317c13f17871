"""The page's finish, in a real browser: text already on screen follows a language switch
(the game log, the note under the hand, the replay's buttons), the table's tools row fits
the narrowest phones in both languages without touching the hand, and the replay's sticky
controls leave a phone's screen to the replayed game."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.browsing import (
    BROWSER,
    _page,
    clean,
    create_table,
    go_to_step,
    guest,
    open_replay,
    shot,
    show_review,
    switch_language,
    view,
)

pytestmark = BROWSER

# The replay's step buttons in both languages (i18n.js), written out here by hand.
STEP_WORDS = {
    "en": {
        "first": "To the start",
        "prev": "Step back",
        "play": "Play",
        "next": "Step forward",
        "last": "To the end",
    },
    "ru": {
        "first": "В начало",
        "prev": "Шаг назад",
        "play": "Воспроизвести",
        "next": "Шаг вперёд",
        "last": "В конец",
    },
}

FEED = "() => [...document.querySelectorAll('#replay-root .feed li')].map((li) => li.textContent)"


def test_the_replays_log_and_buttons_follow_a_language_switch(
    server: str, browser: Any, finished: str
) -> None:
    """Every line already in the log is written again in the new language, the seats'
    names included ("Computer 2" is the page's own word): the same lines as a page that
    opened the replay in that language."""
    page = open_replay(browser, server, finished, (1280, 720), "en-US")
    steps = int(page.get_attribute(".replay-range", "max") or 0)
    assert steps >= 10
    go_to_step(page, steps // 2)
    english = page.evaluate(FEED)
    assert english[0].startswith("Round 1: ") and any("Computer " in line for line in english)
    switch_language(page, "ru")
    switched = page.evaluate(FEED)
    fresh = open_replay(browser, server, finished, (1280, 720), "ru-RU")
    go_to_step(fresh, steps // 2)
    assert switched == fresh.evaluate(FEED)
    assert len(switched) == len(english)
    assert switched[0].startswith("Тур 1: ")
    assert not [line for line in switched if "Computer" in line or "Round " in line], switched
    assert any("Компьютер " in line for line in switched)
    # The step line and the move shown, in the new language too.
    assert page.inner_text(".replay-pos") == f"Шаг {steps // 2} из {steps}"
    assert page.inner_text(".replay-action").startswith("Ход — ")
    # Back to English: every line as it was.
    switch_language(page, "en")
    assert page.evaluate(FEED) == english
    # A replay that is playing keeps calling its button "Pause" in either language.
    page.click('.replay-controls [data-step="play"]')
    switch_language(page, "ru")
    play = page.locator('.replay-controls [data-step="play"]')
    assert (play.get_attribute("aria-label"), play.get_attribute("title")) == ("Пауза", "Пауза")
    page.click('.replay-controls [data-step="play"]')
    assert play.get_attribute("aria-label") == "Воспроизвести"
    clean(page)
    clean(fresh)
    page.context.close()
    fresh.context.close()


# The table's tools row: each tool's box and words whole, inside the row and the screen,
# and clear of every card of the hand.
TOOLS_CHECK = """() => {
  const row = document.querySelector('#screen-table .table-bar .table-tools');
  const box = row.getBoundingClientRect();
  const cards = [...document.querySelectorAll('#screen-table .hand .card')]
    .map((c) => c.getBoundingClientRect());
  const meet = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return [...row.querySelectorAll('.tool')].map((el) => {
    const r = el.getBoundingClientRect();
    const label = el.querySelector('.tool-label');
    const words = label && getComputedStyle(label).display !== 'none' ? label : el;
    return {
      tool: el.dataset.tool,
      name: el.getAttribute('aria-label') || el.textContent.trim(),
      whole: words.scrollWidth <= words.clientWidth && el.scrollWidth <= el.clientWidth,
      inRow: r.left >= box.left - 0.5 && r.right <= box.right + 0.5,
      onScreen: r.left >= 0 && r.right <= innerWidth && r.top >= 0,
      clearOfHand: !cards.some((c) => meet(c, r)),
      width: r.width,
    };
  });
}"""

TOOL_NAMES = {
    "en": ["Last trick", "Score sheet", "Rules", "Sound: off"],
    "ru": ["Прошлая взятка", "Запись счёта", "Правила", "Звук: выкл."],
}


def test_the_tools_row_fits_the_narrowest_phones_in_both_languages(
    server: str, browser: Any
) -> None:
    page = _page(browser, 360, 640, locale="ru-RU")
    guest(page, server)
    create_table(page, "imperial", 2, {"target": 1}, bots=True)
    page.wait_for_selector("#screen-table .hand .card")
    page.wait_for_selector("#screen-table .table-bar .tool[data-tool='sound']")
    for width, height in [(360, 640), (375, 667)]:
        page.set_viewport_size({"width": width, "height": height})
        for lang in ("ru", "en"):
            switch_language(page, lang)
            page.wait_for_timeout(200)
            tools = page.evaluate(TOOLS_CHECK)
            shot(page, f"50-tools-{width}-{lang}")
            assert [t["name"] for t in tools] == TOOL_NAMES[lang], tools
            bad = [t for t in tools if not (t["whole"] and t["inRow"] and t["onScreen"])]
            assert not bad, (width, lang, bad)
            assert all(t["clearOfHand"] for t in tools), (width, lang, tools)
            # the sound tool is its picture on a phone, and says what it is to a reader
            sound = page.locator("#screen-table .tool[data-tool='sound']")
            assert sound.get_attribute("title") == TOOL_NAMES[lang][3]
    # On a laptop the sound tool keeps its words.
    page.set_viewport_size({"width": 1280, "height": 720})
    page.wait_for_timeout(200)
    assert page.inner_text("#screen-table .tool[data-tool='sound']") == "Sound: off"
    clean(page)
    page.context.close()


def test_a_note_under_the_hand_follows_a_language_switch(server: str, browser: Any) -> None:
    """A card typed that you do not hold: the note says so, and says it again in Russian
    when the language changes while it shows."""
    page = _page(browser, 1280, 720)
    guest(page, server)
    create_table(page, "imperial", 2, {"target": 5}, bots=True)
    page.wait_for_selector("#screen-table .hand .card.legal", timeout=30_000)
    hand = set((view(page) or {}).get("hand") or [])
    if not hand:
        hand = set(
            page.evaluate(
                "[...document.querySelectorAll('#screen-table .hand .card')]"
                ".map((b) => b.dataset.card)"
            )
        )
    # A picture card missing from the hand, with its Russian letter (К Д В).
    letters = {"K": "К", "Q": "Д", "J": "В"}
    suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    card = next(r + s for r in letters for s in suits if r + s not in hand)
    page.locator("body").click(position={"x": 5, "y": 300})  # nothing focused that types
    page.keyboard.type(card.lower())
    hint = "#screen-table .hand-hint"
    page.wait_for_function(
        "(s) => document.querySelector(s).textContent.startsWith('You do not hold')", arg=hint
    )
    assert page.inner_text(hint) == f"You do not hold {card[0]}{suits[card[1]]}"
    switch_language(page, "ru")
    assert page.inner_text(hint) == f"У вас нет карты {letters[card[0]]}{suits[card[1]]}"
    clean(page)
    page.context.close()


# The replay's sticky bar and what it leaves of the screen.
REPLAY_BOXES = """() => {
  const box = (el) => el.getBoundingClientRect();
  const bar = box(document.querySelector('.replay-controls'));
  const trick = [...document.querySelectorAll('#replay-root .trick-card')].map(box);
  const felt = box(document.querySelector('#replay-root .felt'));
  const parts = ['.replay-controls [data-step="first"]', '.replay-range', '.replay-pos']
    .map((s) => box(document.querySelector(s)));
  const buttons = [...document.querySelectorAll('.replay-controls [data-step]')].map((b) => ({
    step: b.dataset.step, label: b.getAttribute('aria-label'), title: b.title,
    top: box(b).top, bottom: box(b).bottom, right: box(b).right,
  }));
  const words = [...document.querySelectorAll('.replay-pos, .replay-action')]
    .map((el) => [el.className, el.scrollWidth <= el.clientWidth + 1]);
  return {bar: {top: bar.top, bottom: bar.bottom, height: bar.height, right: bar.right},
    trick: trick.map((r) => ({top: r.top, bottom: r.bottom})), felt: {top: felt.top},
    middles: parts.map((r) => r.top + r.height / 2), buttons, words,
    width: innerWidth, height: innerHeight};
}"""


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_replays_controls_leave_a_phone_to_the_game(
    server: str, browser: Any, finished: str, lang: str
) -> None:
    page = open_replay(browser, server, finished, (360, 640), f"{lang}-RU")
    switch_language(page, lang)
    steps = int(page.get_attribute(".replay-range", "max") or 0)
    # a step inside a trick: a card on the table
    for step in range(1, steps):
        go_to_step(page, step)
        if page.locator("#replay-root .trick-card").count():
            break
    # Scrolled to the table, as a reader following the game does.
    page.evaluate(
        "() => { const f = document.querySelector('#replay-root .felt');"
        " const bar = document.querySelector('.replay-controls').getBoundingClientRect();"
        " scrollBy(0, f.getBoundingClientRect().top - bar.height); }"
    )
    page.wait_for_timeout(200)
    shot(page, f"51-replay-phone-{lang}")
    boxes = page.evaluate(REPLAY_BOXES)
    assert boxes["bar"]["top"] == 0 and boxes["bar"]["height"] <= 100, boxes["bar"]
    assert boxes["bar"]["right"] <= boxes["width"]
    # one row of picture buttons, each named in the page's language
    buttons = boxes["buttons"]
    assert len({round(b["top"]) for b in buttons}) == 1, buttons
    assert all(b["right"] <= boxes["width"] for b in buttons), buttons
    words = STEP_WORDS[lang]
    assert {b["step"]: (b["label"], b["title"]) for b in buttons} == {
        k: (v, v) for k, v in words.items()
    }
    assert all(whole for _, whole in boxes["words"]), boxes["words"]
    # the replayed trick below the bar, on the screen
    assert boxes["trick"], boxes
    for card in boxes["trick"]:
        assert card["top"] >= boxes["bar"]["bottom"] and card["bottom"] <= boxes["height"], boxes
    clean(page)
    page.context.close()


def test_the_replays_controls_keep_one_row_on_a_laptop(
    server: str, browser: Any, finished: str
) -> None:
    page = open_replay(browser, server, finished, (1280, 720), "ru-RU")
    go_to_step(page, 3)
    boxes = page.evaluate(REPLAY_BOXES)
    shot(page, "51-replay-laptop-ru")
    # the buttons, the slider and the counter on one line, the whole bar one row high
    middles = boxes["middles"]
    assert max(middles) - min(middles) <= 4, middles
    assert boxes["bar"]["height"] <= 50, boxes["bar"]
    clean(page)
    page.context.close()


SEATS_APART = """() => {
  const seats = [...document.querySelectorAll('#replay-root .felt .seat')]
    .map((el) => el.getBoundingClientRect());
  const meet = (a, b) =>
    a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const overlaps = [];
  seats.forEach((a, i) => seats.slice(i + 1).forEach((b, j) => {
    if (meet(a, b)) overlaps.push([i, i + 1 + j]);
  }));
  return {count: seats.length, overlaps};
}"""


def test_a_replay_beside_its_review_keeps_the_seats_apart_on_a_laptop(
    server: str, browser: Any, finished: str
) -> None:
    page = open_replay(browser, server, finished, (1280, 720), "en-US")
    show_review(page)
    page.wait_for_timeout(300)
    shot(page, "52-replay-review-laptop")
    seats = page.evaluate(SEATS_APART)
    assert seats["count"] == 3 and seats["overlaps"] == [], seats  # the three other seats
    clean(page)
    page.context.close()


def test_a_replay_under_its_review_is_as_wide_as_a_phone(
    server: str, browser: Any, finished: str
) -> None:
    """The table under the review keeps to the screen's width, every open hand inside it."""
    page = open_replay(browser, server, finished, (360, 640), "ru-RU")
    show_review(page)
    page.wait_for_timeout(300)
    shot(page, "52-replay-review-phone")
    got = page.evaluate(
        """() => ({
          page: document.documentElement.scrollWidth,
          seats: [...document.querySelectorAll('#replay-root .seat')]
            .map((el) => Math.round(el.getBoundingClientRect().right)),
        })"""
    )
    assert got["page"] == 360, got
    assert len(got["seats"]) >= 3 and max(got["seats"]) <= 360, got
    clean(page)
    page.context.close()


def test_the_score_sheet_fits_a_phone_at_a_four_seat_table(server: str, browser: Any) -> None:
    """Four columns across 360 px: the seats' heads are their short names (the full name in
    the head's title), so the sheet needs no sideways scrolling."""
    page = _page(browser, 360, 640, locale="ru-RU")
    guest(page, server)
    create_table(page, "emperor", 4, {"rounds": 1}, bots=True)
    page.wait_for_selector("#screen-table .hand .card")
    page.click("#screen-table .tool[data-tool='sheet']")
    page.wait_for_selector(".sheet-dialog[open] table.sheet")
    page.wait_for_timeout(300)
    shot(page, "53-sheet-phone-ru")
    got = page.evaluate(
        """() => {
          const wrap = document.querySelector('.sheet-dialog[open] .sheet-wrap');
          const heads = [...wrap.querySelectorAll('thead th')].slice(1);
          return {fits: wrap.scrollWidth <= wrap.clientWidth,
                  heads: heads.map((th) => [th.textContent, th.title])};
        }"""
    )
    assert got["fits"], got
    heads = got["heads"]
    assert [h for h, _ in heads[1:]] == ["Комп. 2", "Комп. 3", "Комп. 4"], heads
    assert [full for _, full in heads[1:]] == ["Компьютер 2", "Компьютер 3", "Компьютер 4"]
    clean(page)
    page.context.close()


TARGETS = """async () => {
  const i = await import('/js/i18n.js');
  const out = {};
  for (const lang of ['ru', 'en']) {
    i.setLang(lang);
    out[lang] = [1, 2, 5, 21].map((n) => i.t('target_n', {n}));
  }
  return out;
}"""


def test_the_target_line_agrees_with_its_number(server: str, browser: Any) -> None:
    """ "Игра до 1 империала", not "до 1 империалов"; "Play to 1 imperial" (the genitive
    after "до": 1 and 21 take the singular, 2 and 5 the plural)."""
    page = _page(browser)
    page.goto(server)
    got = page.evaluate(TARGETS)
    assert got["ru"] == [
        "Игра до 1 империала",
        "Игра до 2 империалов",
        "Игра до 5 империалов",
        "Игра до 21 империала",
    ]
    assert got["en"] == [
        "Play to 1 imperial",
        "Play to 2 imperials",
        "Play to 5 imperials",
        "Play to 21 imperials",
    ]
    clean(page)
    page.context.close()


# A spectator's betting panel fed a market and its settlement (as the server's frames
# would), then the language switched: the notice is drawn again from the settlement.
BETS_NOTICE = """async () => {
  const i = await import('/js/i18n.js');
  const {BetsPanel} = await import('/js/bets.js');
  i.setLang('en');
  const screen = document.createElement('div');
  document.body.append(screen);
  const toasts = [];
  const panel = new BetsPanel(screen, 't1', {
    errorText: String, toast: (text) => toasts.push(text), seatName: (_, s) => `Seat ${s + 1}`,
  });
  panel.info = {status: 'playing'};
  panel.you = null;
  panel.markets.set('m1', {id: 'm1', title: 'Seat 1 wins', title_ru: 'Место 1 выиграет',
    state: 'closed', pool: 7, pools: {yes: 0, no: 7}, scope: 0, my_bets: []});
  // nobody backed the outcome: his bet comes back, and is told so (issue 30)
  panel.onFrame({type: 'bet_settled', table: 't1', market: 'm1', outcome: 'yes', payout: 7,
    staked: 7, result: 'refunded', refund: 'no_winner',
    bets: [{id: 1, outcome: 'no', chips: 7, payout: 7, result: 'refunded'}]});
  const notice = () => panel.el.querySelector('.bets-notice').textContent;
  const out = {en: notice(), toasts};
  i.setLang('ru');
  panel.render(true);
  out.ru = notice();
  panel.destroy();
  screen.remove();
  i.setLang('en');
  return out;
}"""


def test_a_betting_notice_follows_a_language_switch(server: str, browser: Any) -> None:
    page = _page(browser)
    page.goto(server)
    page.wait_for_selector("#screen-auth:not([hidden])")
    got = page.evaluate(BETS_NOTICE)
    assert got["en"] == (
        "Seat 1 wins: yes. Nobody bet on that, so every bet is returned: you get your 7 chips back."
    )
    assert got["toasts"] == [got["en"]]
    assert got["ru"] == (
        "Место 1 выиграет: «да». На этот исход никто не ставил, поэтому все ставки "
        "возвращены: вам — 7 фишек."
    )
    clean(page)
    page.context.close()


FILE_BUTTON = """() => {
  const btn = document.querySelector('.file-pick .file-btn');
  const r = btn.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {words: getComputedStyle(btn, '::before').content, onTop: hit && hit.type === 'file',
          width: r.width};
}"""


def test_the_record_file_button_speaks_the_pages_language(server: str, browser: Any) -> None:
    """The browser words its own file button in its own language ("Choose File" on a
    Russian page); ours says it in the page's, and a click on it is the file input's."""
    page = _page(browser, 360, 640, locale="ru-RU")
    guest(page, server)
    page.locator(".file-pick").scroll_into_view_if_needed()
    got = page.evaluate(FILE_BUTTON)
    assert got["words"] == '"Выбрать файл…"' and got["onTop"] and got["width"] > 40, got
    switch_language(page, "en")
    page.locator(".file-pick").scroll_into_view_if_needed()
    assert page.evaluate(FILE_BUTTON)["words"] == '"Choose a file…"'
    with page.expect_file_chooser() as chooser:
        page.mouse.click(
            *page.evaluate(
                "() => { const r = document.querySelector('.file-btn').getBoundingClientRect();"
                " return [r.left + r.width / 2, r.top + r.height / 2]; }"
            )
        )
    assert chooser.value is not None
    clean(page)
    page.context.close()
