"""Puzzles from real deals (#29): the words of a judged answer, and ``kozyr puzzles
build``'s help and progress (:mod:`kozyr.server.reviews.puzzle_book`,
:mod:`kozyr.server.reviews.puzzle_build`)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "puzzles.right": (
        "{card} is the best card here.",
        "{card} — лучшая карта в этой позиции.",
    ),
    "puzzles.wrong": (
        "Not the best: {card} is worth {loss} {unit} less than {best}.",
        "Не лучшая: {card} стоит на {loss} {unit} меньше, чем {best}.",
    ),
    "puzzles.why": (
        "Played out over the many ways the cards you could not see may lie, {best} is "
        "worth {best_value} {unit} to you on average; the next best card, {second}, "
        "{second_value}. No other card comes within {margin} {unit} of "
        "{best}.",
        "Если разыграть позицию при множестве раскладов карт, которых вы не видели, карта "
        "{best} в среднем стоит для вас {best_value} {unit}; следующая по силе карта, "
        "{second}, — {second_value}. Ни одна другая карта не "
        "подходит к {best} ближе чем на {margin} {unit}.",
    ),
    "puzzles.line": (
        "Best: {best} ({best_value}). Then: {others}. In the game, {played} was played here.",
        "Лучшая: {best} ({best_value}). Затем: {others}. В партии здесь сыграли {played}.",
    ),
    "puzzles.help.app": ("Puzzles from real deals.", "Задачи из настоящих партий."),
    "puzzles.help.build": (
        "Find puzzles in the finished games of the server's database (and in seeded bot "
        "games): positions where one card is clearly worth more than every other.",
        "Найти задачи в законченных партиях базы сервера (и в партиях ботов): позиции, где "
        "одна карта явно ценнее всех остальных.",
    ),
    "puzzles.help.database": (
        "Database URL (default: $KOZYR_DATABASE_URL, else the SQLite database in "
        "$KOZYR_DATA or ./kozyr-data), as kozyr serve uses.",
        "Адрес базы данных (по умолчанию $KOZYR_DATABASE_URL, иначе база SQLite в "
        "$KOZYR_DATA или ./kozyr-data), как у kozyr serve.",
    ),
    "puzzles.help.bot_games": (
        "Also play this many seeded bot games of each game and read them (0-1000).",
        "Также сыграть столько партий ботов в каждую игру и разобрать их (0-1000).",
    ),
    "puzzles.help.worlds": (
        "Deals of the hidden cards searched per card to screen a position (2-400); a "
        "position that passes is valued again with three times as many.",
        "Раскладов скрытых карт на карту при отборе позиции (2-400); прошедшая позиция "
        "оценивается заново втрое большим числом.",
    ),
    "puzzles.help.margin": (
        "How much better the best card must be than the second best, in mistakes: 1.0 is "
        "the review's mistake (2 points in Imperial, half a trick in Emperor) (0.5-20).",
        "Насколько лучшая карта должна быть лучше второй, в ошибках: 1.0 — ошибка разбора "
        "(2 очка в Империале, полвзятки в Императоре) (0.5-20).",
    ),
    "puzzles.help.per_game": (
        "At most this many puzzles from one game, the clearest first (1-50).",
        "Не больше стольких задач из одной партии, самые ясные первыми (1-50).",
    ),
    "puzzles.help.jobs": (
        "Processes that value positions (0: one worker thread) (0-16).",
        "Процессов, оценивающих позиции (0: один рабочий поток) (0-16).",
    ),
    "puzzles.progress": (
        "games read {games}/{total}, positions valued {positions}, puzzles found {found}",
        "партий разобрано {games}/{total}, позиций оценено {positions}, задач найдено {found}",
    ),
    "puzzles.done": (
        "{found} new puzzles from {games} games ({server} from the server, {bots} bot "
        "games); {skipped} games read before; {seconds} s.",
        "Новых задач: {found} из партий: {games} (с сервера {server}, ботов {bots}); "
        "разобранных раньше партий: {skipped}; {seconds} с.",
    ),
}
