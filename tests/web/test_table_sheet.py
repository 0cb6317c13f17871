"""Deal summaries, the score sheet, the last trick, the language switch and the wording of
the page (#16B), in a real browser against a real server with fixed deals.

Every expected figure is worked out here from the game's record, replayed by the engine,
never read back from the page."""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Any

from tests.web.browsing import BROWSER, Page, _page, clean, create_table, guest, over, shot, step

from kozyr.records import replay

pytestmark = BROWSER


# ------------------------------------------------------------------ expected, from events


def imperial_deals(events: list[dict[str, Any]], n: int) -> dict[int, dict[str, Any]]:
    """Per deal: tricks, points by reason, imperials marked, points wiped, and each seat's
    imperials and loose points when the deal ended (I6-I12)."""
    deals: dict[int, dict[str, Any]] = {}
    loose, imps = [0] * n, [0] * n
    cur: dict[str, Any] | None = None
    for ev in events:
        kind = ev["type"]
        if kind == "deal":
            cur = deals[ev["number"]] = {
                "tricks": [0] * n,
                "points": [defaultdict(int) for _ in range(n)],
                "marked": [0] * n,
                "wiped": [0] * n,
                "white": False,
            }
        elif cur is None:
            continue
        elif kind == "trick":
            cur["tricks"][ev["winner"]] += 1
        elif kind == "score":
            cur["points"][ev["seat"]][ev["reason"]] += ev["points"]
            loose[ev["seat"]] = ev["total"]
        elif kind == "mark":
            cur["marked"][ev["seat"]] += ev["imperials"]
            imps[ev["seat"]] = ev["total"]
            loose[ev["seat"]] = ev["loose"]
        elif kind == "wipe":
            cur["wiped"][ev["seat"]] += ev["points"]
            loose[ev["seat"]] = 0
        if kind in ("deal_end", "game_over"):
            cur["white"] = kind == "deal_end" and ev["tricks"] is None
            cur["end"] = (list(imps), list(loose))
    return deals


def emperor_rounds(events: list[dict[str, Any]], n: int) -> dict[int, dict[str, Any]]:
    """Per round: trump, tricks taken, tricks bought off (E8), totals and titles after it."""
    rounds: dict[int, dict[str, Any]] = {}
    cur: dict[str, Any] | None = None
    for ev in events:
        kind = ev["type"]
        if kind == "deal":
            cur = rounds[ev["number"]] = {
                "tricks": [0] * n,
                "transfer": [0] * n,
                "trump": ev["trump"],  # round 1 (E5); later the King's (E9)
            }
        elif cur is None:
            continue
        elif kind == "trump":
            cur["trump"] = ev["trump"]
        elif kind == "trick":
            cur["tricks"][ev["winner"]] += 1
        elif kind == "accept":
            cur["transfer"][ev["seat"]] += ev["tricks"]
            cur["transfer"][ev["target"]] -= ev["tricks"]
        elif kind == "deal_end":
            cur["totals"] = list(ev["totals"])
            cur["titles"] = list(ev["titles"])
    return rounds


def expected_summary(game: str, record: dict[str, Any], n: int) -> dict[tuple[int, str], str]:
    """The cells of a summary the page must show: (seat, field) -> value."""
    cells: dict[tuple[int, str], str] = {}
    if game == "imperial":
        if not record["white"]:
            for s in range(n):
                cells[(s, "tricks")] = str(record["tricks"][s])
        reasons = {r for s in range(n) for r, v in record["points"][s].items()}
        imps, loose = record["end"]
        for s in range(n):
            for r in reasons:
                cells[(s, f"points:{r}")] = str(record["points"][s].get(r, 0))
            cells[(s, "marked")] = str(record["marked"][s])
            if any(record["wiped"]):
                cells[(s, "wiped")] = str(record["wiped"][s])
            cells[(s, "standing")] = f"{imps[s]}/{loose[s]}"
    else:
        for s in range(n):
            cells[(s, "tricks")] = str(record["tricks"][s])
            cells[(s, "total")] = str(record["totals"][s])
            cells[(s, "title")] = record["titles"][s]
            if any(record["transfer"]):
                cells[(s, "transfer")] = str(record["transfer"][s])
    return cells


# ------------------------------------------------------------------ the page

GRAB_SUMMARY = """() => {
  const box = document.querySelector('.deal-summary:not([hidden])');
  if (!box) return null;
  const lastTrickOf = (number) => {
    let inDeal = false;
    let last = [];
    for (const e of window.kozyr.table.events || []) {
      if (e.type === 'deal') inDeal = e.number === number;
      else if (inDeal && e.type === 'trick') last = e.cards.map(x => x[1]);
    }
    return last;
  };
  const shown = [...document.querySelectorAll('.trick-area .trick-card')].map(e => e.dataset.card);
  const now = (window.kozyr.table.view.trick || []).map(x => x[1]);
  const final = lastTrickOf(Number(box.dataset.number));
  return {
    number: Number(box.dataset.number),
    title: box.querySelector('.summary-title').textContent,
    cells: [...box.querySelectorAll('td[data-field]')]
      .map(td => [Number(td.dataset.seat), td.dataset.field, td.dataset.value]),
    // the summed-up deal's last trick still on the felt (a trick of the next deal being
    // gathered while this summary is still up is not stale: a slow poll can see that)
    staleTrick: shown.filter(c => !now.includes(c) && final.includes(c)),
    finalTrick: final,
    trump: box.querySelector('[data-trump]')?.dataset.trump ?? null,
  };
}"""


# The number of the deal whose summary waits by the person's name (it made way for his turn).
WAITING = """() => {
  const s = window.kozyr.tableView?.extras.summary;
  return s && !s.shown && document.querySelector('.me-line .summary-waiting') ? s.number : null;
}"""


def play_watching(
    page: Page, summaries: dict[int, dict[str, Any]], each: Any = None, limit: float = 240
) -> None:
    """Plays the seat of ``page`` to the end, keeping every summary the page shows: one
    that made way for the person's turn is brought back by its button by his name."""
    start = time.time()
    while not over(page):
        assert time.time() - start < limit, "the game did not end in time"
        waiting = page.evaluate(WAITING)
        brought = waiting is not None and waiting not in summaries
        if brought:
            page.click(".me-line .summary-waiting")
        got = page.evaluate(GRAB_SUMMARY)
        if got and got["number"] not in summaries:
            summaries[got["number"]] = got
            shot(page, f"30-summary-{len(summaries)}")
        if each is not None:
            each(page)
        if brought and page.locator(".deal-summary:not([hidden]) .summary-close").count():
            # Read during the turn it made way for, then closed, as a person would: a
            # summary asked for stays until closed, over the decision's buttons.
            page.click(".deal-summary .summary-close")
            page.wait_for_selector(".deal-summary", state="hidden")
        if step(page) is None:
            page.wait_for_timeout(25)


def sheet_cells(page: Page, where: str) -> dict[int, list[dict[str, str]]]:
    rows = page.evaluate(
        f"""() => [...document.querySelectorAll('{where} table.sheet tbody tr')].map(tr => ({{
          number: Number(tr.dataset.number),
          cells: [...tr.querySelectorAll('td')].map(td => ({{...td.dataset}})),
        }}))"""
    )
    return {r["number"]: r["cells"] for r in rows}


def test_imperial_summaries_sheet_last_trick_language_and_sound(server: str, browser: Any) -> None:
    page = _page(browser, width=1280, height=720)
    guest(page, server)
    summaries: dict[int, dict[str, Any]] = {}
    done: dict[str, Any] = {}

    def each(p: Page) -> None:
        if "sound" not in done and p.locator('[data-tool="sound"]').count():
            done["sound"] = True
            p.click('[data-tool="sound"]')
            assert p.get_attribute('[data-tool="sound"]', "aria-pressed") == "true"
            assert p.evaluate("localStorage.getItem('kozyr.sound')") == "on"
        if "last" not in done and p.locator('[data-tool="last"]:not([disabled])').count():
            done["last"] = True
            p.click('[data-tool="last"]')
            got = p.evaluate(
                """() => {
                  const ev = [...window.kozyr.table.events].reverse().find(e => e.type === 'trick');
                  return {
                    ev,
                    cards: [...document.querySelectorAll('.last-trick-box .last-card')]
                      .map(f => [Number(f.dataset.seat), f.dataset.card]),
                    winner: Number(document.querySelector('.last-winner').dataset.winner),
                    text: document.querySelector('.last-winner').textContent,
                  };
                }"""
            )
            assert got["cards"] == got["ev"]["cards"] and got["winner"] == got["ev"]["winner"]
            name = "Computer 2" if got["winner"] == 1 else "You"
            if got["winner"] == 1:
                assert got["text"] == f"{name} takes the trick"
            shot(p, "31-last-trick")
            p.click(".last-trick-box")
            assert p.locator(".last-trick-box").is_hidden()
        term = p.locator(".deal-summary:not([hidden]) .term").first
        brought = False
        if (
            "term" not in done
            and not term.count()
            and p.locator(".me-line .summary-waiting").count()
        ):
            # The summary was read while it was up and then made way for this person's
            # turn before its words could be tapped (a quick bot): bring it back for that.
            brought = True
            p.click(".me-line .summary-waiting")
            p.wait_for_selector(".deal-summary:not([hidden])")
        if "term" not in done and term.count():
            # A tap on a word of the game explains it, and leaves the summary up.
            done["term"] = True
            term.click()
            about = p.inner_text(".deal-summary .term-about")
            # the explanation, and a link to the term in the rules for players (#29)
            assert about == f"{term.get_attribute('title')} More in the rules", about
            more = p.get_attribute(".deal-summary .term-about .term-more", "href")
            assert more == f"#/howto/imperial/term-{term.get_attribute('data-term')}", more
            assert p.locator(".deal-summary").is_visible()
        if brought:
            p.click(".deal-summary .summary-close")
            p.wait_for_selector(".deal-summary", state="hidden")
        if summaries and "ru" not in done:
            done["ru"] = True
            p.evaluate("window.__sameDocument = true")
            p.click(".top .lang-switch")
            assert p.evaluate("document.documentElement.lang") == "ru"
            assert p.evaluate("window.__sameDocument") is True  # renamed without a reload
            seats = p.locator(".seat-name").all_inner_texts()
            assert "Компьютер 2" in seats, seats
            feed = p.inner_text(".feed")
            assert "Computer" not in feed and "Компьютер 2" in feed
            shot(p, "32-imperial-ru")

    table = ""
    for _ in range(3):  # a game may end in its first declarations: then another
        table = create_table(page, "imperial", 2, {"target": 2}, bots=True)
        page.wait_for_selector(".table-bar")
        play_watching(page, summaries, each)
        if summaries and done.keys() >= {"sound", "last", "ru", "term"}:
            break
        page.click(".over-dialog a[href='#/']")
        page.wait_for_selector("#screen-lobby:not([hidden])")
    assert summaries and done.keys() >= {"sound", "last", "ru", "term"}, (summaries.keys(), done)
    assert page.evaluate("window.__kozyrSounds || 0") > 0  # your turn came round, sound on

    record = page.evaluate(f"fetch('/api/games/{table}/record').then(r => r.json())")
    state = replay(record)
    deals = imperial_deals(state.events, 2)
    for number, got in summaries.items():
        want = expected_summary("imperial", deals[number], 2)
        cells = {(s, f): v for s, f, v in got["cells"]}
        assert cells == want, (number, cells, want)
        assert got["staleTrick"] == [], got  # the old trick is not left over the new deal
        # the check had the deal's last trick to look for (a deal can end with no trick)
        assert len(got["finalTrick"]) == 2 or sum(deals[number]["tricks"]) == 0, got
    # The game-over dialog: its title, and the sheet deal by deal, in Russian.
    title = page.inner_text("#over-title")
    assert title.startswith("Игра окончена. "), title
    assert "Игра окончена: " not in title
    sheet = sheet_cells(page, ".over-dialog")
    assert sorted(sheet) == sorted(deals)
    for number, cells in sheet.items():
        imps, loose = deals[number]["end"]
        assert [c["imperials"] for c in cells] == [str(v) for v in imps], number
        assert [c["loose"] for c in cells] == [str(v) for v in loose], number
    final = max(sheet)
    assert [int(c["imperials"]) for c in sheet[final]] == [i for i, _ in state.scores]
    assert [int(c["loose"]) for c in sheet[final]] == [p for _, p in state.scores]
    shot(page, "33-imperial-over-sheet-ru")
    # The replay has the same sheet behind its button.
    page.click(".over-dialog .watch-replay")
    page.wait_for_selector("#replay-root .hand .card")
    page.keyboard.press("End")
    page.click('#replay-root [data-tool="sheet"]')
    page.wait_for_selector("#replay-root .sheet-dialog[open]")
    assert sheet_cells(page, "#replay-root .sheet-dialog") == sheet
    shot(page, "34-replay-sheet")
    page.click("#replay-root .sheet-close")
    clean(page)
    page.context.close()


def test_emperor_round_summaries_and_sheet(server: str, browser: Any) -> None:
    page = _page(browser, width=1280, height=720, locale="ru-RU")
    guest(page, server)
    table = create_table(page, "emperor", 4, {"rounds": 4, "bargain_from": 2}, bots=True)
    page.wait_for_selector(".hand .card")
    summaries: dict[int, dict[str, Any]] = {}
    play_watching(page, summaries)
    record = page.evaluate(f"fetch('/api/games/{table}/record').then(r => r.json())")
    state = replay(record)
    rounds = emperor_rounds(state.events, 4)
    assert summaries, "no round summary was seen"
    for number, got in summaries.items():
        assert got["title"] == f"Тур {number} окончен"
        cells = {(s, f): v for s, f, v in got["cells"]}
        assert cells == expected_summary("emperor", rounds[number], 4), number
        assert got["trump"] == rounds[number]["trump"], number
    sheet = sheet_cells(page, ".over-dialog")
    assert sorted(sheet) == [1, 2, 3, 4]
    for number, cells in sheet.items():
        r = rounds[number]
        assert [int(c["tricks"]) for c in cells] == r["tricks"], number
        assert [int(c["transfer"]) for c in cells] == r["transfer"], number
        assert [int(c["total"]) for c in cells] == r["totals"], number
    assert [int(c["total"]) for c in sheet[4]] == list(state.totals)
    # Nothing of the sheet is cut off in the dialog.
    clipped = page.evaluate(
        "[...document.querySelectorAll('.over-dialog .sheet-wrap')]"
        ".some(w => w.scrollWidth > w.clientWidth + 1)"
    )
    assert not clipped
    shot(page, "35-emperor-over-sheet-ru")
    clean(page)
    page.context.close()


# ------------------------------------------------------------------ string functions

PLURALS = """async () => {
  const p = await import('/js/plural.js');
  const out = {};
  for (const noun of ['card', 'trick', 'trick_acc', 'point', 'round', 'imperial']) {
    out[noun] = [1, 2, 5, 21, 11, 22].map(n => p.countOf(n, noun, 'ru'));
  }
  out.en = [1, 2, 5, 21].map(n => p.countOf(n, 'card', 'en'));
  out.enImperial = [1, 2].map(n => p.countOf(n, 'imperial', 'en'));
  out.gen = p.declineName('Компьютер 2', 'gen', 'ru');
  out.ins = p.declineName('Компьютер 4 (вы)', 'ins', 'ru');
  out.person = p.declineName('Анна', 'gen', 'ru');
  out.enName = p.declineName('Computer 2', 'gen', 'en');
  return out;
}"""


def test_russian_plural_forms_for_1_2_5_21(server: str, browser: Any) -> None:
    page = _page(browser)
    page.goto(server)
    got = page.evaluate(PLURALS)
    assert got["card"] == ["1 карта", "2 карты", "5 карт", "21 карта", "11 карт", "22 карты"]
    tricks = ["1 взятка", "2 взятки", "5 взяток", "21 взятка", "11 взяток", "22 взятки"]
    assert got["trick"] == tricks
    # the accusative ("offers you 1 trick"): only the form for one differs
    assert got["trick_acc"] == ["1 взятку", *tricks[1:3], "21 взятку", *tricks[4:]]
    assert got["point"] == ["1 очко", "2 очка", "5 очков", "21 очко", "11 очков", "22 очка"]
    assert got["round"] == ["1 тур", "2 тура", "5 туров", "21 тур", "11 туров", "22 тура"]
    assert got["imperial"] == [
        "1 империал",
        "2 империала",
        "5 империалов",
        "21 империал",
        "11 империалов",
        "22 империала",
    ]
    assert got["en"] == ["1 card", "2 cards", "5 cards", "21 cards"]
    assert got["enImperial"] == ["1 imperial", "2 imperials"]
    assert got["gen"] == "Компьютера 2"
    assert got["ins"] == "Компьютером 4 (вы)"
    assert got["person"] == "Анна"  # a person's own name is left as written
    assert got["enName"] == "Computer 2"
    clean(page)
    page.context.close()


MESSAGES = """async () => {
  const i = await import('/js/i18n.js');
  i.setLang('ru');
  const ru = {
    cards: i.t('cards_n', {n: 4}),
    score: i.t('ev_score', {name: 'Компьютер 2', n: 4, reason: 'онеры на руках'}),
    named: i.t('ev_swap_named', {taker: 'Анна', target: 'Компьютер 2'}),
    over: i.t('over_title', {title: i.t('winner_is', {name: 'Компьютер 2'})}),
    rounds: i.t('rounds_n', {n: 10}),
    offer: i.t('answer_prompt', {name: 'Компьютер 3', k: 1}),
    offered: i.t('ev_offer', {name: 'Компьютер 3', n: 2}),
    nt: i.t('ev_trump_nt', {name: 'Компьютер 2'}),
    mark: i.t('ev_mark', {name: 'Анна', n: 2, reason: 'хвалёж империалами', total: 3}),
  };
  i.setLang('en');
  const en = {
    cards: i.t('cards_n', {n: 1}),
    mark: i.t('ev_mark', {name: 'Ann', n: 1, reason: i.t('reason_imperials'), total: 1}),
    unmarked: i.t('ev_imperials_unmarked', {name: 'Ann', n: 2}),
    named: i.t('ev_swap_named', {taker: 'Ann', target: 'Computer 2'}),
  };
  return {ru, en};
}"""


def test_page_messages_use_plural_forms_and_declined_names(server: str, browser: Any) -> None:
    page = _page(browser)
    page.goto(server)
    got = page.evaluate(MESSAGES)
    ru, en = got["ru"], got["en"]
    assert ru["cards"] == "4 карты"
    assert ru["score"] == "Компьютер 2 +4 очка (онеры на руках)"
    assert ru["named"] == "Анна хочет забрать карты у Компьютера 2"
    assert ru["over"] == "Игра окончена. Победитель: Компьютер 2"
    assert ru["rounds"] == "10 туров"
    assert ru["offer"] == "Компьютер 3 предлагает вам 1 взятку, чтобы оставить карты себе."
    assert ru["offered"] == "Компьютер 3 предлагает откупиться, отдав 2 взятки"
    assert ru["nt"] == "Компьютер 2 объявляет бескозырку"
    assert ru["mark"] == "Анна записывает 2 империала (хвалёж империалами); всего 3"
    assert en["cards"] == "1 card"
    assert en["mark"] == "Ann marks 1 imperial (declared); 1 in all"
    assert en["unmarked"] == "Ann: 2 imperials, fewer: not marked"
    assert en["named"] == "Ann wants the hand of Computer 2"
    clean(page)
    page.context.close()


# ------------------------------------------------------------------ tombé wording (I9)

# Hand-made deals of two players, trump spades, in the engine's event shapes
# (docs/rules-imperial.md): who captures what, and what that capture means.
TOMBE_EVENTS: list[dict[str, Any]] = [
    # Deal 1: Bob shows J♠ among his honours, then captures Ann's A♠ with K♠: no tombé
    # is possible for him (his own J can never be captured by himself).
    {"type": "deal", "number": 1, "dealer": 0, "trump": "S", "turnup": "8S"},
    {"type": "declare", "seat": 1, "kind": "honours", "cards": ["KS", "JS"]},
    {"type": "play", "seat": 0, "card": "AS"},
    {"type": "play", "seat": 1, "card": "KS"},
    {"type": "trick", "deal": 1, "number": 1, "cards": [[0, "AS"], [1, "KS"]], "winner": 1},
    {"type": "capture", "seat": 1, "card": "AS", "from": 0, "by": "KS", "rule": "I9"},
    # Deal 2: Ann captures J♠ with Q♠ (one of two), then A♠ with K♠: the tombé.
    {"type": "deal", "number": 2, "dealer": 1, "trump": "S", "turnup": "9S"},
    {"type": "play", "seat": 0, "card": "QS"},
    {"type": "play", "seat": 1, "card": "JS"},
    {"type": "trick", "deal": 2, "number": 1, "cards": [[0, "QS"], [1, "JS"]], "winner": 0},
    {"type": "capture", "seat": 0, "card": "JS", "from": 1, "by": "QS", "rule": "I9"},
    {"type": "play", "seat": 0, "card": "KS"},
    {"type": "play", "seat": 1, "card": "AS"},
    {"type": "trick", "deal": 2, "number": 2, "cards": [[0, "KS"], [1, "AS"]], "winner": 0},
    {"type": "capture", "seat": 0, "card": "AS", "from": 1, "by": "KS", "rule": "I9"},
    {
        "type": "mark",
        "seat": 0,
        "imperials": 1,
        "reason": "imperial tombé",
        "rule": "I9",
        "total": 1,
        "loose": 0,
    },
    # Deal 3: Bob's J♠ wins a trick over Ann's 8♠ (no capture: only a K or Q captures);
    # when Ann later captures his A♠ with K♠, the J♠ is gone: no tombé for her.
    {"type": "deal", "number": 3, "dealer": 0, "trump": "S", "turnup": "7S"},
    {"type": "play", "seat": 1, "card": "JS"},
    {"type": "play", "seat": 0, "card": "8S"},
    {"type": "trick", "deal": 3, "number": 1, "cards": [[1, "JS"], [0, "8S"]], "winner": 1},
    {"type": "play", "seat": 1, "card": "AS"},
    {"type": "play", "seat": 0, "card": "KS"},
    {"type": "trick", "deal": 3, "number": 2, "cards": [[1, "AS"], [0, "KS"]], "winner": 0},
    {"type": "capture", "seat": 0, "card": "AS", "from": 1, "by": "KS", "rule": "I9"},
]


def test_tombe_wording_says_what_a_capture_means(server: str, browser: Any) -> None:
    page = _page(browser)
    page.goto(server)
    # The page has the games' facts (GET /api/game-facts) before it shows a screen.
    page.wait_for_selector("#screen-auth:not([hidden])")
    lines = page.evaluate(
        """async (events) => {
          const i = await import('/js/i18n.js');
          const n = await import('/js/narrate.js');
          const g = await import('/js/games/index.js');
          const imperial = g.gameOf('imperial').narrate;
          i.setLang('en');
          const en = n.narrateAll(imperial, events, ['Ann', 'Bob']).map(l => l.text);
          i.setLang('ru');
          const ru = n.narrateAll(imperial, events, ['Аня', 'Боря']).map(l => l.text);
          return {en, ru};
        }""",
        TOMBE_EVENTS,
    )
    captures = [line for line in lines["en"] if "captures" in line]
    assert captures == [
        "Bob captures A♠ with K♠ (no tombé: J♠ is in his own hand)",
        "Ann captures J♠ with Q♠: one of the two cards for a tombé",
        "Ann captures A♠ with K♠: tombé!",
        "Ann captures A♠ with K♠ (no tombé: J♠ is already played)",
    ]
    assert sum("tombé!" in line for line in lines["en"]) == 1
    assert not any("(tombé)" in line for line in lines["en"])
    # The capturing card is named as the subject: "своим Д♠" put a queen in the masculine.
    ru = [line for line in lines["ru"] if " берёт " in line]
    assert ru[0] == "Боря: К♠ берёт Т♠ (томбе не будет: В♠ у него самого)"
    assert ru[1] == "Аня: Д♠ берёт В♠ — одна из двух карт для томбе"
    assert ru[2] == "Аня: К♠ берёт Т♠ — томбе!"
    clean(page)
    page.context.close()
