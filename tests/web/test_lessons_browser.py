"""Learn to play in the page (#29): a newcomer reaches the lessons from the first screen
without signing in, plays lesson 1 of Imperial and of Emperor to the passed check (a wrong
card explained and not played), every lesson of both games plays through, and the hub's
first game opens a table against the gentlest bots with hints on."""

from __future__ import annotations

from typing import Any

from tests.web.browsing import BROWSER, Page, _page, clean, shot

from kozyr.games.lessons import Lesson, LessonRun, load

pytestmark = BROWSER

WORDS = ".learn-words"


def _right(run: LessonRun) -> str:
    legal = {run.state.action_text(a) for a in run.state.legal_actions()}
    return next(m for m in run.expected() if m in legal)


def _tap(page: Page, move: str) -> None:
    """A card of the hand or a decision's button, by the move it makes."""
    page.locator(f'.learn-board [data-card="{move}"], .learn-board [data-action="{move}"]').click()


def _play_through(page: Page, lesson: Lesson, lang: str = "en") -> None:
    """Plays ``lesson`` on the open page as a learner who finds the right moves (worked
    out on the engine beside it), then answers the check right."""
    run = LessonRun(lesson)
    page.locator(f'.learn-lesson[data-lesson="{lesson.id}"]').wait_for()
    while not run.done and run.expected():
        move = _right(run)
        before = page.locator(".learn-lesson").get_attribute("data-moves")
        assert run.try_move(move).accepted
        _tap(page, move)
        page.wait_for_function(
            "(b) => document.querySelector('.learn-lesson')?.dataset.moves !== b", arg=before
        )
    if lesson.check.kind == "question":
        page.locator(f'.learn-choice[data-answer="{lesson.check.answer}"]').click()
    page.locator(".learn-passed").wait_for()
    assert lesson.check.say.get("ru" if lang == "ru" else "en") in page.locator(WORDS).inner_text()


def test_imperial_lesson_one_from_the_first_screen_with_a_wrong_card_explained(
    server: str, browser: Any
) -> None:
    page = _page(browser, 375, 800)
    page.goto(server)
    page.wait_for_selector("#screen-auth:not([hidden])")
    # the rules in plain words are one tap away too, for each game the server has
    rules = page.locator(".learn-entry-rules a")
    assert rules.evaluate_all("(links) => links.map((a) => a.getAttribute('href'))") == [
        "#/howto/imperial",
        "#/howto/emperor",
    ]
    assert rules.all_inner_texts() == ["Imperial", "Emperor"]
    page.click(".learn-entry")  # no account, no guest: the lessons are open
    page.wait_for_selector(".learn-hub")
    shot(page, "60-learn-hub-375-en")
    page.click('.learn-game[data-game="imperial"] .learn-item >> nth=0')
    page.locator(".learn-lesson").wait_for()
    assert "Boris leads the king of spades." in page.locator(WORDS).inner_text()
    hand = page.locator(".lb-hand .lb-card")
    assert hand.count() == 12
    # A diamond on the king of spades: the rules refuse it (no spades: trump), in words,
    # and nothing is played.
    page.click('.lb-card[data-card="AD"]')
    wrong = page.locator(".learn-say.wrong")
    wrong.wait_for()
    assert "you must trump" in wrong.inner_text()
    assert hand.count() == 12 and page.locator('.lb-trick-card[data-card="AD"]').count() == 0
    # A higher trump: legal, but the lesson says why the eight is enough; not played.
    page.click('.lb-card[data-card="AH"]')
    page.locator(".learn-say.wrong", has_text="eight of hearts").wait_for()
    assert hand.count() == 12
    shot(page, "60-learn-lesson-wrong-375-en")
    page.click(".lang-switch")
    page.locator(".learn-say.wrong", has_text="восьмёрки").wait_for()
    page.click(".lang-switch")
    page.click('.lb-card[data-card="8H"]')
    page.locator(".lb-note", has_text="You take the trick").wait_for()
    assert hand.count() == 11 and page.locator(".learn-say.wrong").count() == 0
    page.click('.lb-card[data-card="AD"]')  # now a diamond is what the lesson asks for
    page.locator(".learn-check").wait_for()  # the check: the king of clubs is led
    assert page.locator('.lb-trick-card[data-card="KC"]').count() == 1
    page.click('.lb-card[data-card="AC"]')
    page.locator(".learn-say.wrong", has_text="Nothing of yours beats the king").wait_for()
    page.click('.lb-card[data-card="9C"]')
    page.locator(".learn-passed").wait_for()
    assert "you must follow suit" in page.locator(WORDS).inner_text()
    page.click(".learn-next")
    page.locator('.learn-lesson[data-lesson="declarations-and-honours"]').wait_for()
    # the hub marks it done (kept in this browser: nobody is signed in)
    page.goto(server + "#/learn")
    page.locator('.learn-game[data-game="imperial"] .learn-item.done').wait_for()
    assert page.locator(".learn-item.done").count() == 1
    clean(page)
    page.context.close()


def test_emperor_lesson_one_plays_to_its_check(server: str, browser: Any) -> None:
    page = _page(browser, 1280, 860, locale="ru-RU")
    lesson = load("emperor")[0]
    page.goto(server + f"#/learn/emperor/{lesson.id}")
    _play_through(page, lesson, "ru")
    assert "Урок пройден" in page.locator(".learn-passed").inner_text()
    clean(page)
    page.context.close()


def test_every_lesson_of_both_games_plays_through(server: str, browser: Any) -> None:
    page = _page(browser, 360, 740)
    for game in ("imperial", "emperor"):
        for lesson in load(game):
            page.goto(server + f"#/learn/{game}/{lesson.id}")
            _play_through(page, lesson)
    page.goto(server + "#/learn")
    page.locator(".learn-hub").wait_for()
    assert page.locator(".learn-item.done").count() == 16
    clean(page)
    page.context.close()


def test_the_first_game_is_against_beginner_bots_with_hints(server: str, browser: Any) -> None:
    page = _page(browser, 375, 800)
    page.goto(server + "#/learn")
    page.click('.learn-game[data-game="emperor"] .learn-first-game')
    # nobody was signed in: the page made a guest, then the table
    page.wait_for_function("() => location.hash.startsWith('#/table/')")
    table = page.evaluate("location.hash.split('/')[2]")
    page.wait_for_selector("#screen-table .hand .card")
    info = page.evaluate("async (id) => (await (await fetch(`/api/tables/${id}`)).json())", table)
    info = info.get("table", info)
    assert info["hints"] is True and info["rated"] is False and info["turn_timeout"] is None
    bots = [s["level"] for s in info["seats"] if s["kind"] == "bot"]
    assert bots == [1, 1, 1]
    # a shorter game than a table's default: four rounds, not ten (the spec's first_game)
    assert info["options"]["rounds"] == 4
    clean(page)
    page.context.close()
