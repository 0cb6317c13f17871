"""The lesson runner's own words (``kozyr.games.lessons``): what a learner reads when a
lesson has no words of its own for his move. Each lesson's texts are in its JSON file."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "lessons.not_this_move": (
        "The rules allow that, but it is not what this lesson asks: try again",
        "Правила это разрешают, но урок просит другого: попробуйте ещё раз",
    ),
    "lessons.not_this_answer": ("Not quite: look again", "Не совсем: посмотрите ещё раз"),
    "lessons.well_done": ("Right", "Верно"),
}
