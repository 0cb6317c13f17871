"""``kozyr learn``: the lessons in the terminal (#29). What the learner reads around a
lesson: its heading, the prompts, the check, the list of lessons and the progress. The
lessons' own words are in their files (``kozyr/games/<game>/lessons/``), the runner's in
:mod:`kozyr.texts.lessons`."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # The command's --help.
    "learn.help.command": (
        "Learn a game step by step: short lessons on real positions, with a check at the end.",
        "Учиться игре шаг за шагом: короткие уроки на настоящих раскладах, с проверкой в конце.",
    ),
    "learn.help.game": (
        "The game: imperial or emperor.",
        "Игра: imperial (Империал) или emperor (Император).",
    ),
    "learn.help.lesson": ("Start at lesson N.", "Начать с урока N."),
    "learn.help.list": (
        "List the lessons, with the finished ones marked.",
        "Показать список уроков, пройденные отмечены.",
    ),
    # Bad choices on the command line.
    "learn.no_game": (
        "There is no game “{game}”: choose {games}",
        "Игры «{game}» нет: выберите {games}",
    ),
    "learn.no_lesson": (
        "There is no lesson {n}: the lessons are numbered 1 to {last}",
        "Урока {n} нет: уроки пронумерованы от 1 до {last}",
    ),
    # The list of lessons.
    "learn.list_title": ("{title}: the lessons", "{title}: уроки"),
    "learn.list_number": ("No.", "№"),
    "learn.list_lesson": ("Lesson", "Урок"),
    "learn.list_done": ("Done", "Пройден"),
    "learn.list_hint": (
        "To take one: kozyr learn {game} --lesson N",
        "Пройти урок: kozyr learn {game} --lesson N",
    ),
    "learn.all_done": (
        "You have finished every lesson of {title}. To take one again: "
        "kozyr learn {game} --lesson N. To play a whole game: kozyr play {game}",
        "Все уроки игры «{title}» пройдены. Повторить урок: kozyr learn {game} --lesson N. "
        "Сыграть целую партию: kozyr play {game}",
    ),
    # A lesson.
    "learn.heading": ("Lesson {n} of {total}: {title}", "Урок {n} из {total}: {title}"),
    "learn.help": (
        "Type your move as in a game: a card such as 10H, QS, AC (TH is the ten), or an "
        "action such as pass, swap 2, offer 1, accept, refuse, yield, trump H, trump NT. "
        "Also: hand (the table again), score, help, quit.",
        "Вводите ход, как в партии: карту, например 10ч, дп, тт (туз треф), К♥, или "
        "действие: пас, обмен 2, откуп 1, принять, отказать, уступить, козырь ч, "
        "козырь бк. А также: карты (стол ещё раз), счёт, помощь, выход.",
    ),
    "learn.your_move": ("Your move", "Ваш ход"),
    "learn.check": ("Check", "Проверка"),
    "learn.goal": ("Not this one. {words}", "Не то. {words}"),
    "learn.answer_prompt": ("Your answer (1-{n})", "Ваш ответ (1-{n})"),
    "learn.pick_a_number": (
        "Type the number of an answer, from 1 to {n}",
        "Введите номер ответа, от 1 до {n}",
    ),
    "learn.passed": ("Lesson passed.", "Урок пройден."),
    "learn.next": (
        "Next: lesson {n}, “{title}”. Press Enter to go on, or type q to stop",
        "Дальше урок {n}: «{title}». Нажмите Enter, чтобы продолжить, или q, чтобы закончить",
    ),
    "learn.last_done": (
        "That was the last lesson of {title}. Now play a whole game against the computer: "
        "kozyr play {game}",
        "Это был последний урок игры «{title}». Теперь сыграйте целую партию против "
        "компьютера: kozyr play {game}",
    ),
    "learn.left": (
        "You left the lesson. The lessons you finished are kept: next time you start at "
        "the first one not done.",
        "Вы вышли из урока. Пройденные уроки запомнены: в следующий раз начнёте с первого "
        "непройденного.",
    ),
    "learn.not_saved": (
        "Your progress could not be saved: {error}",
        "Не удалось запомнить пройденные уроки: {error}",
    ),
}
