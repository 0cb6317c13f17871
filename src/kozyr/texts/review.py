"""The post-game review (``kozyr review``, :mod:`kozyr.review_command`): its table and
summary, and what each game's losses are counted in; and the server's review jobs
(:mod:`kozyr.server.reviews.jobs`) when they cannot start one."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "review.progress": ("Reviewing", "Разбор"),
    "review.seat": ("Seat", "Место"),
    "review.action": ("Move", "Ход"),
    "review.deal": ("Deal", "Сдача"),
    "review.played": ("Played", "Сыграно"),
    "review.best": ("Best", "Лучше"),
    "review.loss": ("Lost", "Потеря"),
    "review.hindsight": ("Oracle (hindsight)", "Оракул (задним числом)"),
    "review.mistake": ("mistake", "ошибка"),
    "review.blunder": ("blunder", "грубая ошибка"),
    "review.seat_of": ("{name} (seat {seat})", "{name} (место {seat})"),
    "review.seat_no": ("Seat {seat}", "Место {seat}"),
    # Russian: "потеряно очков: 6,0", a genitive plural label that reads right for any number.
    "review.summary": (
        "{who}: {decisions} decisions, accuracy {accuracy}%, {mistakes} mistakes, "
        "{blunders} blunders, {lost} {unit} lost ({per_deal} a deal)",
        "{who}: решений {decisions}, точность {accuracy}%, ошибок {mistakes}, "
        "грубых ошибок {blunders}, потеряно {unit}: {lost} ({per_deal} за сдачу)",
    ),
    "review.bad_seat": (
        "--seat {seat}: the game has seats 1 to {n}",
        "--seat {seat}: в партии места с 1 по {n}",
    ),
    "review.none": ("No decisions to review.", "Нет решений для разбора."),
    # What a loss is counted in, by game (the rankers' UNIT; the page shows it too).
    "review.unit.imperial": ("points", "очков"),
    "review.unit.emperor": ("tricks", "взяток"),
    # The server's refusals to start a review job (code busy, 503): it is stopping, or
    # another process's job vanished between two reads.
    "review.server_stopping": (
        "The server is stopping; try again.",
        "Сервер останавливается; попробуйте снова.",
    ),
    "review.try_again": ("Try again.", "Попробуйте снова."),
}
