"""The page against the hardened server: one intent per view (with its seq), stale answers
taken quietly, the seed's fingerprint at the table, Verify in the replay viewer, the
server's errors and retry times, WebSocket close codes and the lobby's pages.

Where the server under test may not have a feature yet (the verify endpoints, paged
tables, rate limits), the test answers those requests itself with hand-made JSON of the
agreed shape, so that what the page makes of them is tested either way.
"""

from __future__ import annotations

import json
import random
from typing import Any

from tests.web.browsing import BROWSER, Page, _page, clean, create_table, guest, shot

from kozyr.games.imperial import ImperialOptions, ImperialState
from kozyr.records import to_record

pytestmark = BROWSER

FINGERPRINT = "3f2a" + "5" * 56 + "9c1d"

ABOUT_EN = (
    "The deals come from a secret key; this is its fingerprint, shown before the first deal. "
    "After the game the record reveals the key, and anyone can check every deal."
)
ABOUT_RU = (
    "Сдачи задаёт тайный ключ; это его отпечаток, показанный до первой сдачи. После игры "
    "запись партии раскрывает ключ, и каждый может проверить все сдачи."
)


def _legal_card(page: Page) -> str:
    page.wait_for_selector(".hand .card.legal:not(.sending)", timeout=20000)
    return str(page.get_attribute(".hand .card.legal", "data-card"))


def _hand_size(page: Page) -> int:
    return int(page.locator(".hand .card").count())


def _table_seq(page: Page) -> int:
    return int(page.evaluate("() => window.kozyr.table.seq"))


def test_one_intent_per_view_stale_quietly_and_the_seed_fingerprint(
    server: str, browser: Any
) -> None:
    page = _page(browser, height=800)
    sent: list[dict[str, Any]] = []  # every frame the page sent
    fingerprints: list[str] = []  # the commitment of each table frame the page got
    trap = {"armed": False}

    def relay(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def from_page(message: str) -> None:
            frame = json.loads(message)
            sent.append(frame)
            if frame.get("type") == "action" and trap["armed"]:
                # The table "moved on" before this intent arrived: it never reaches the
                # server, and the page hears what the server says then.
                trap["armed"] = False
                stale = {
                    "v": 1,
                    "type": "error",
                    "code": "stale",
                    "message": "The game moved on.",
                    "message_ru": "Игра уже ушла вперёд.",
                    "table": frame["table"],
                    "id": frame["id"],
                }
                ws.send(json.dumps(stale))
                return
            upstream.send(message)

        def from_server(message: str) -> None:
            frame = json.loads(message)
            if frame.get("type") == "table":
                info = frame["table"]
                if not info.get("commitment"):  # a server from before fair dealing
                    info["dealing"] = "hmac-sha256"
                    info["commitment"] = FINGERPRINT
                    message = json.dumps(frame)
                fingerprints.append(info["commitment"])
            ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)

    page.route_web_socket("**/ws", relay)
    guest(page, server)
    # Five imperials to win: the game goes on for at least the four turns used here.
    create_table(page, "imperial", 2, {"target": 5}, bots=True)

    def actions() -> list[dict[str, Any]]:
        return [f for f in sent if f.get("type") == "action"]

    # 1. A fast double click plays one card, named with the seq of the view it was on.
    card = _legal_card(page)
    seq = _table_seq(page)
    before = _hand_size(page)
    page.dblclick(f'.hand .card.legal[data-card="{card}"]')
    page.wait_for_function(f"() => document.querySelectorAll('.hand .card').length < {before}")
    page.wait_for_timeout(400)
    assert _hand_size(page) == before - 1
    assert [(a["action"], a["seq"]) for a in actions()] == [(card, seq)]

    # 2. The same view drawn again between two clicks (as when a seat's connection
    # changes) still lets only one intent through.
    card = _legal_card(page)
    seq = _table_seq(page)
    before = _hand_size(page)
    page.evaluate(
        """(card) => {
          const b = document.querySelector(`.hand .card[data-card="${card}"]`);
          const view = window.kozyr.tableView;
          b.click();
          view.update({ ...view.frame });
          b.click();
        }""",
        card,
    )
    page.wait_for_function(f"() => document.querySelectorAll('.hand .card').length < {before}")
    page.wait_for_timeout(400)
    assert [(a["action"], a["seq"]) for a in actions()[1:]] == [(card, seq)]

    # 3. A stale answer: nothing alarming is shown, the intent is not sent again, and the
    # page asks for the table afresh (hello); the player then simply plays.
    card = _legal_card(page)
    seq = _table_seq(page)
    before = _hand_size(page)
    trap["armed"] = True
    page.click(f'.hand .card.legal[data-card="{card}"]')
    page.wait_for_timeout(1200)
    assert len(actions()) == 3 and actions()[2]["seq"] == seq
    last = len(sent) - 1 - [f["type"] for f in reversed(sent)].index("action")
    assert any(f["type"] == "hello" for f in sent[last + 1 :]), sent[last:]
    assert page.locator(".toast").is_hidden()
    assert "Not accepted" not in page.inner_text(".hand-hint")
    assert _hand_size(page) == before  # the card is still in hand, ready to play
    assert page.locator(".hand .card.sending").count() == 0
    card = _legal_card(page)
    page.click(f'.hand .card.legal[data-card="{card}"]')
    page.wait_for_function(f"() => document.querySelectorAll('.hand .card').length < {before}")
    assert len(actions()) == 4

    # 4. The seed's fingerprint, shortened, explained on hover and on a tap.
    commitment = fingerprints[-1]
    fair = page.locator(".table-bar .fair")
    assert fair.inner_text() == f"sha256 {commitment[:4]}…{commitment[-4:]}"
    assert fair.get_attribute("title") == ABOUT_EN
    fair.click()
    assert commitment in page.inner_text(".fair-note")
    assert ABOUT_EN in page.inner_text(".fair-note")
    shot(page, "30-fingerprint-en")
    page.click(".top .lang-switch")
    assert fair.get_attribute("title") == ABOUT_RU
    assert ABOUT_RU in page.inner_text(".fair-note")
    shot(page, "31-fingerprint-ru")
    page.set_viewport_size({"width": 375, "height": 740})
    shot(page, "32-fingerprint-ru-phone")
    page.click(".top .lang-switch")
    shot(page, "33-fingerprint-en-phone")
    fair.click()
    assert page.locator(".fair-note").count() == 0
    clean(page)
    page.context.close()


# ------------------------------------------------------------------------ Verify


def _record_text() -> str:
    state = ImperialState.new(ImperialOptions(players=2, target=1), seed=7)
    rng = random.Random(3)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    return json.dumps(to_record(state, players=["Ann", "Ben"]))


def _open_uploaded(page: Page, record: str) -> None:
    page.set_input_files(
        ".file-pick input",
        files=[{"name": "game.json", "mimeType": "application/json", "buffer": record.encode()}],
    )
    page.wait_for_selector("#replay-root .hand .card")


def test_verify_shows_each_verdict_in_both_languages(server: str, browser: Any) -> None:
    page = _page(browser, height=800)
    guest(page, server)
    record = _record_text()
    _open_uploaded(page, record)
    assert page.locator(".verify-result").is_hidden()
    posted: list[Any] = []
    verdicts = {
        "fair": {
            "ok": True,
            "dealing": "hmac-sha256",
            "commitment": FINGERPRINT,
            "commitment_ok": True,
            "deals": 7,
            "deals_ok": 7,
            "problems": [],
        },
        "old": {
            "ok": True,
            "dealing": "mt19937",
            "commitment": None,
            "commitment_ok": None,
            "deals": 3,
            "deals_ok": 3,
            "problems": [],
        },
        "bad": {
            "ok": False,
            "dealing": "hmac-sha256",
            "commitment": FINGERPRINT,
            "commitment_ok": False,
            "deals": 4,
            "deals_ok": 3,
            "problems": ["deal 3: seat 1 holds QS, the seed deals 9H"],
        },
    }
    answer = {"now": "fair"}

    def verify(route: Any) -> None:
        request = route.request
        posted.append((request.headers.get("content-type"), request.post_data_json))
        route.fulfill(json=verdicts[answer["now"]])

    page.route("**/api/verify", verify)
    result = page.locator(".verify-result")

    page.click(".verify-btn")
    page.wait_for_selector(".verify-result.good")
    # The uploaded record itself goes to be checked, as JSON.
    assert posted == [("application/json", json.loads(record))]
    assert result.locator(".verdict").inner_text() == (
        "Fair deals: the key matches the fingerprint shown before the game, and all 7 deals "
        "come from it."
    )
    assert FINGERPRINT in result.inner_text()
    shot(page, "34-verify-fair-en")
    page.click(".top .lang-switch")
    assert result.locator(".verdict").inner_text() == (
        "Сдачи честные: ключ совпадает с отпечатком, показанным до игры, и все сдачи (7) "
        "получаются из него."
    )
    shot(page, "35-verify-fair-ru")

    answer["now"] = "bad"
    page.click(".verify-btn")
    page.wait_for_selector(".verify-result.bad")
    assert result.locator(".verdict").inner_text() == (
        "Не сходится: из ключа получаются только сдачи 3 из 4. "
        "Ключ не совпадает с отпечатком, показанным в начале игры."
    )
    assert result.locator(".problems li").all_inner_texts() == [
        "deal 3: seat 1 holds QS, the seed deals 9H"
    ]
    page.set_viewport_size({"width": 375, "height": 740})
    shot(page, "36-verify-bad-ru-phone")
    page.click(".top .lang-switch")
    assert result.locator(".verdict").inner_text() == (
        "Does not check out: only 3 of 4 deals come from the key. "
        "The key does not match the fingerprint shown at the start."
    )
    shot(page, "37-verify-bad-en-phone")

    answer["now"] = "old"
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click(".verify-btn")
    page.wait_for_selector(".verify-result.old")
    assert (
        result.locator(".verdict")
        .inner_text()
        .startswith("Dealt before fingerprints were shown: all 3 deals come from the record's key")
    )
    assert result.locator(".problems").count() == 0
    shot(page, "38-verify-old-en")
    page.click(".top .lang-switch")
    assert result.locator(".verdict").inner_text().startswith("Партия сдана, когда отпечатков ещё")
    page.click(".top .lang-switch")

    answer["now"] = "one"
    verdicts["one"] = {**verdicts["fair"], "deals": 1, "deals_ok": 1}
    page.click(".verify-btn")
    page.wait_for_function(
        "() => document.querySelector('.verify-result .verdict')"
        "?.textContent.endsWith('comes from it.')"
    )
    assert result.locator(".verdict").inner_text() == (
        "Fair deal: the key matches the fingerprint shown before the game, and the game's one "
        "deal comes from it."
    )

    # The server's own refusal is shown in its words.
    page.unroute("**/api/verify")
    page.route(
        "**/api/verify",
        lambda route: route.fulfill(
            status=400,
            json={
                "type": "error",
                "code": "bad_record",
                "message": "The record is not a kozyr record.",
                "message_ru": "Это не запись kozyr.",
            },
        ),
    )
    page.click(".verify-btn")
    page.wait_for_selector(".verify-result.bad")
    assert result.inner_text() == "The record is not a kozyr record."
    # Leaving the replay takes the verdict away.
    page.click(".nav-lobby")
    page.wait_for_selector("#screen-lobby:not([hidden])")
    assert result.is_hidden()
    clean(page)
    page.context.close()


# ------------------------------------------------------------------- the lobby's pages


def _table(i: int) -> dict[str, Any]:
    return {
        "id": f"t{i:03d}",
        "game": "imperial",
        "players": 2,
        "options": {"target": 5},
        "private": False,
        "status": "open" if i % 2 else "playing",
        "seats": [
            {"seat": 0, "kind": "person", "name": f"player{i}"},
            {"seat": 1, "kind": "empty" if i % 2 else "bot", "name": None, "level": 3},
        ],
    }


def _listed(page: Page) -> list[str]:
    ids = page.eval_on_selector_all(
        ".open-list li[data-table], .live-list li[data-table]",
        "els => els.map(e => e.dataset.table)",
    )
    return sorted(ids)


def test_the_lobby_shows_a_page_of_tables_and_more_on_request(server: str, browser: Any) -> None:
    page = _page(browser, height=800)
    tables = [_table(i) for i in range(53)]
    asked: list[str] = []

    def paged(route: Any) -> None:
        url = route.request.url
        asked.append(url.split("?", 1)[1])
        query = dict(p.split("=") for p in url.split("?", 1)[1].split("&"))
        offset, limit = int(query["offset"]), int(query["limit"])
        route.fulfill(
            json={
                "tables": tables[offset : offset + limit],
                "total": len(tables),
                "offset": offset,
                "limit": limit,
            }
        )

    page.route("**/api/tables?*", paged)
    guest(page, server)
    page.wait_for_selector(".open-list li[data-table]")
    assert asked[0] == "offset=0&limit=50"
    assert _listed(page) == [t["id"] for t in tables[:50]]
    more = page.locator(".more-tables")
    assert more.is_visible()
    shot(page, "39-lobby-more-en")
    page.click(".top .lang-switch")
    assert more.inner_text() == "Ещё столы"
    page.set_viewport_size({"width": 375, "height": 740})
    more.scroll_into_view_if_needed()
    shot(page, "40-lobby-more-ru-phone")
    more.click()
    page.wait_for_function(
        "() => document.querySelectorAll('.table-list li[data-table]').length === 53"
    )
    assert "offset=50&limit=50" in asked
    assert _listed(page) == [t["id"] for t in tables]
    assert more.is_hidden()
    page.click(".top .lang-switch")

    # An old server: no pages, every table at once and no "More" button.
    page.unroute("**/api/tables?*")
    page.route("**/api/tables?*", lambda route: route.fulfill(json={"tables": tables[:7]}))
    page.reload()
    page.wait_for_function(
        "() => document.querySelectorAll('.table-list li[data-table]').length === 7"
    )
    assert more.is_hidden()
    clean(page)
    page.context.close()


# ------------------------------------------------------------ errors and close codes


def _error(code: str, en: str, ru: str) -> dict[str, str]:
    return {"type": "error", "code": code, "message": en, "message_ru": ru}


def test_the_servers_errors_with_retry_times_and_json_posts(server: str, browser: Any) -> None:
    page = _page(browser, height=800, locale="ru-RU")
    posts: list[tuple[str, str | None]] = []
    page.on(
        "request",
        lambda r: (
            posts.append((r.url, r.headers.get("content-type"))) if r.method == "POST" else None
        ),
    )
    limited = {"on": True}

    def guest_route(route: Any) -> None:
        if not limited["on"]:
            route.fallback()
            return
        route.fulfill(
            status=429,
            headers={"Retry-After": "2"},
            json=_error(
                "too_many_accounts",
                "Too many new accounts from your address.",
                "Слишком много новых учётных записей с вашего адреса.",
            ),
        )

    page.route("**/api/guest", guest_route)
    page.goto(server)
    page.wait_for_selector("#screen-auth:not([hidden])")
    page.click(".guest-btn")
    error = page.locator("#screen-auth .form-error")
    page.wait_for_function(
        "() => document.querySelector('#screen-auth .form-error').textContent !== ''"
    )
    assert error.inner_text() == (
        "Слишком много новых учётных записей с вашего адреса. Повторить можно через 2 с."
    )
    assert page.locator(".guest-btn").is_disabled()  # until the server takes it again
    shot(page, "41-too-many-accounts-ru")
    page.wait_for_selector(".guest-btn:not([disabled])", timeout=5000)
    # On a phone the message is below both forms: it is brought into view.
    page.set_viewport_size({"width": 375, "height": 740})
    page.evaluate("() => { document.querySelector('#screen-auth .form-error').textContent = ''; }")
    page.click(".guest-btn")
    page.wait_for_function(
        "() => document.querySelector('#screen-auth .form-error').textContent !== ''"
    )
    in_view = (
        "e => e.getBoundingClientRect().top >= 0 && e.getBoundingClientRect().bottom <= innerHeight"
    )
    assert error.evaluate(in_view)
    shot(page, "42-too-many-accounts-ru-phone")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_selector(".guest-btn:not([disabled])", timeout=5000)

    # Signing in too often: the server's words in English, and when to come back.
    page.click(".top .lang-switch")
    page.route(
        "**/api/login",
        lambda route: route.fulfill(
            status=429,
            headers={"Retry-After": "300"},
            json=_error("too_many_attempts", "Too many attempts.", "Слишком много попыток."),
        ),
    )
    login = page.locator('.auth-form[data-mode="login"]')
    login.locator("input[name=name]").fill("someone")
    login.locator("input[name=password]").fill("password1")
    login.locator("button[type=submit]").click()
    page.wait_for_function(
        "() => document.querySelector('#screen-auth .form-error')"
        ".textContent.startsWith('Too many')"
    )
    assert error.inner_text() == "Too many attempts. You may try again in 5 min."
    shot(page, "43-too-many-attempts-en")

    limited["on"] = False
    page.click(".guest-btn")
    page.wait_for_selector("#screen-lobby:not([hidden])")

    # Opening too many tables; a 415 with no words of its own gets ours.
    page.route(
        "**/api/tables",
        lambda route: (
            route.fulfill(
                status=429,
                headers={"Retry-After": "20"},
                json=_error(
                    "too_many_tables",
                    "You have too many open tables.",
                    "У вас слишком много столов.",
                ),
            )
            if route.request.method == "POST"
            else route.fallback()
        ),
    )
    page.click(".create-form button[type=submit]")
    toast = page.locator(".toast")
    toast.wait_for()
    assert toast.inner_text() == "You have too many open tables. You may try again in 20 s."
    shot(page, "44-too-many-tables-en")
    page.unroute("**/api/tables")
    page.route(
        "**/api/quickplay",
        lambda route: route.fulfill(status=415, json={"code": "bad_content_type"}),
    )
    page.click(".top .lang-switch")
    page.click(".quick-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('.toast').textContent.includes('JSON')")
    assert toast.inner_text() == "Сервер принимает только JSON."
    page.route("**/api/quickplay", lambda route: route.fulfill(status=403, body=""))
    page.click(".quick-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('.toast').textContent === 'Не разрешено.'")
    page.click(".top .lang-switch")

    # Signing out posts JSON too, like every other POST of the page.
    page.click(".sign-out")
    page.wait_for_selector("#screen-auth:not([hidden])")
    paths = {url.split("/", 3)[3] for url, _ in posts}
    assert {"api/guest", "api/login", "api/tables", "api/quickplay", "api/logout"} <= paths
    assert all(kind == "application/json" for _, kind in posts), posts
    clean(page)
    page.context.close()


def _closing(code: int, opened: list[int]) -> Any:
    def handler(ws: Any) -> None:
        opened.append(code)
        ws.close(code=code, reason="test")

    return handler


def test_close_codes_pause_or_sign_out(server: str, browser: Any) -> None:
    page = _page(browser, height=800)
    guest(page, server)
    for code, text in (
        (1013, "The connection was too slow; reconnecting in 5 s…"),
        (1008, "The server closed the connection (too many messages); reconnecting in 10 s…"),
    ):
        opened: list[int] = []
        page.route_web_socket("**/ws", _closing(code, opened))
        page.reload()
        page.wait_for_function("(t) => document.querySelector('.conn').textContent === t", arg=text)
        page.wait_for_timeout(2500)
        assert len(opened) == 1, opened  # no reconnecting in a tight loop
        assert page.locator("#screen-lobby").is_visible()  # still signed in and usable
        shot(page, f"45-closed-{code}-en")

    # 4401: the session is gone: back to signing in, with a word of why.
    opened = []
    page.route_web_socket("**/ws", _closing(4401, opened))
    page.click(".top .lang-switch")
    page.reload()
    page.wait_for_selector("#screen-auth:not([hidden])")
    assert page.inner_text("#screen-auth .form-error") == (
        "Вы вышли из учётной записи. Войдите снова, чтобы продолжить."
    )
    page.wait_for_timeout(1500)
    assert opened == [4401]  # and no reconnecting
    assert page.inner_text(".conn") == ""
    shot(page, "46-signed-out-ru")
    page.click(".top .lang-switch")
    clean(page)
    page.context.close()
