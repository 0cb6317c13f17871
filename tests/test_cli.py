"""The ``kozyr`` command end to end: terminal play of both games, replay, bad input."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kozyr.cards import DECK_32, DECK_36, DECK_52, CardSet
from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.records import load, replay_file, save

KOZYR = [sys.executable, "-m", "kozyr"]


def _run(args: list[str], stdin: str = "", env_lang: str = "C") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*KOZYR, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        env={"LANG": env_lang, "PATH": "/usr/bin:/bin", "COLUMNS": "100"},
    )


def _every_answer(deck: int, extra: list[str], rounds: int = 60) -> str:
    """A stream of lines that always holds a legal answer: every card and choice, over and
    over. Each illegal line gets a message and a new prompt, so the game goes on."""
    lines = [*extra, *CardSet(deck).names()]
    return "\n".join(lines * rounds) + "\n"


def _saved_record(out: str) -> Path:
    line = next(x for x in out.splitlines() if "record saved" in x or "сохранена" in x)
    return Path(line.split(": ", 1)[1].strip())


@pytest.mark.parametrize(("players", "deck"), [(2, DECK_32), (3, DECK_36)])
def test_play_imperial_to_the_end(players: int, deck: int, tmp_path: Path) -> None:
    stdin = _every_answer(deck, ["hand", "score", "help", "ZZ"], rounds=200)
    # Two players meet the default level (3: search); three players the fast level 1.
    level = ["--level", "1"] if players == 3 else []
    args = ["play", "imperial", "--players", str(players), "--seed", "5", *level]
    result = _run([*args, "--lang", "en", "--records", str(tmp_path)], stdin)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Game over" in out
    assert "“ZZ” is not a card" in out  # a typed card that is not a card gets a clear message
    assert "Not allowed" in out  # and so does an illegal one
    state = replay_file(_saved_record(out))
    assert state.over
    record = load(_saved_record(out))
    assert record["players"][0] == "You"
    assert record["bots"] == ("1" if players == 3 else "3")


@pytest.mark.parametrize("players", [3, 4])
def test_play_emperor_to_the_end(players: int, tmp_path: Path) -> None:
    stdin = _every_answer(DECK_52, ["swap 9", "pass", "yield", "accept", "trump NT"], rounds=400)
    args = ["play", "emperor", "--players", str(players), "--seed", "3", "--lang", "ru"]
    args += ["--level", "2"]
    result = _run([*args, "--records", str(tmp_path)], stdin)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Игра окончена" in out and "Император" in out
    # Refusals are explained in Russian, in words and with the choices, never with the
    # ruling's code (E7: "swap 9").
    assert "«swap 9»: для обмена укажите место 0-" in out and "(E7)" not in out
    assert "Можно:" in out
    state = replay_file(_saved_record(out))
    assert state.over


def test_quit_saves_the_game_so_far(tmp_path: Path) -> None:
    result = _run(["play", "imperial", "--seed", "1", "--records", str(tmp_path)], "quit\n")
    assert result.returncode == 0, result.stderr
    assert "You left the game" in result.stdout
    state = replay_file(_saved_record(result.stdout))
    assert not state.over and len(state.dealt) == 1


def test_replay_text_and_json(tmp_path: Path) -> None:
    stdin = _every_answer(DECK_32, [], rounds=200)
    played = _run(
        ["play", "imperial", "--seed", "8", "--level", "random", "--records", str(tmp_path)], stdin
    )
    path = _saved_record(played.stdout)
    text = _run(["replay", str(path), "--lang", "en"])
    assert text.returncode == 0, text.stderr
    assert "Deal 1" in text.stdout and "Trick 1" in text.stdout
    as_json = _run(["replay", str(path), "--json"])
    data = json.loads(as_json.stdout)
    assert set(data) >= {"scores", "over", "winner", "to_act", "events"}
    assert data["over"] is True and data["to_act"] is None
    assert data["scores"][data["winner"]]["imperials"] >= 5
    assert all("type" in e for e in data["events"])


def test_replay_emperor_json_fields(tmp_path: Path) -> None:
    stdin = _every_answer(DECK_52, ["pass", "yield", "accept", "trump S"], rounds=400)
    played = _run(
        ["play", "emperor", "--seed", "2", "--level", "1", "--records", str(tmp_path)], stdin
    )
    data = json.loads(_run(["replay", str(_saved_record(played.stdout)), "--json"]).stdout)
    assert set(data) >= {"round", "totals", "titles", "over", "standing", "to_act", "events"}
    assert data["round"] == 10 and data["over"] is True
    assert sum(data["totals"]) == 130
    assert sorted(data["titles"]) == ["jester", "king", "prince", "soldier"]
    assert sorted(data["standing"]) == [0, 1, 2, 3]


def test_replay_json_of_a_refused_record_prints_the_error(tmp_path: Path) -> None:
    # A seeded 2-player game whose first action is a card of the 52-card deck that the
    # 32-card deck lacks (I1): refused at action 0, exit code 2, the error as JSON.
    path = tmp_path / "refused.json"
    path.write_text(
        json.dumps(
            {
                "format": "kozyr-record/1",
                "game": "imperial",
                "options": {"players": 2},
                "first_dealer": 0,
                "seed": 7,
                "deals": [],
                "actions": ["2H"],
            }
        )
    )
    result = _run(["replay", str(path), "--json"])
    assert result.returncode == 2
    assert json.loads(result.stdout) == {
        "error": {
            "code": "not_in_deck",
            "rule": "I1",
            "message": "There are no twos in the 32-card deck",
            "message_ru": "В колоде из 32 карт нет двоек",
            "action_index": 0,
        }
    }


def test_replay_refuses_a_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(
        '{"format": "kozyr-record/1", "game": "imperial", "deals": [{"hands": [["ZZ"]]}]}'
    )
    result = _run(["replay", str(path)])
    assert result.returncode == 2
    assert "deals[0].hands[0][0]" in result.stderr and "“ZZ”" in result.stderr


def test_bad_option_is_refused() -> None:
    result = _run(["play", "imperial", "--players", "5"])
    assert result.returncode != 0
    assert "players" in result.stderr
    result = _run(["play", "emperor", "--level", "9"])
    assert result.returncode != 0
    assert "level must be 1-5" in result.stderr


def test_ctrl_c_saves_the_game_and_exits_cleanly(tmp_path: Path) -> None:
    args = ["play", "imperial", "--seed", "1", "--lang", "ru", "--records", str(tmp_path)]
    proc = subprocess.Popen(
        [*KOZYR, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={"LANG": "C", "PATH": "/usr/bin:/bin", "COLUMNS": "100", "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    seen = b""
    while "Ваша карта> ".encode() not in seen:  # the person is asked for a card
        chunk = proc.stdout.read1(4096)
        assert chunk, seen.decode(errors="replace")
        seen += chunk
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=60)
    out = (seen + rest).decode()
    assert proc.returncode == 0, err.decode()
    assert "Traceback" not in err.decode() and "KeyboardInterrupt" not in err.decode()
    assert "Вы вышли из игры." in out
    state = replay_file(_saved_record(out))
    assert not state.over and len(state.dealt) == 1


def test_help_in_russian_with_lang_ru_or_a_russian_locale() -> None:
    ru = _run(["play", "imperial", "--help", "--lang", "ru"])
    assert ru.returncode == 0, ru.stderr
    assert "Империал против компьютера." in ru.stdout and "Параметры" in ru.stdout
    assert "2 или 3 игрока." in ru.stdout
    by_locale = _run(["replay", "--help"], env_lang="ru_RU.UTF-8")
    assert "Показать запись партии" in by_locale.stdout and "Аргументы" in by_locale.stdout
    group = _run(["play", "--lang", "ru", "--help"])
    assert group.returncode == 0, group.stderr
    assert "Император против компьютера." in group.stdout
    en = _run(["play", "imperial", "--help"], env_lang="ru_RU.UTF-8")
    assert "Империал против компьютера." in en.stdout  # the locale alone is enough
    en = _run(["play", "imperial", "--help", "--lang", "en"], env_lang="ru_RU.UTF-8")
    assert "Imperial (Империал) against computer players." in en.stdout
    assert "Options" in en.stdout


def test_every_command_is_named_in_russian_and_review_and_verify_speak_it() -> None:
    """The command list in Russian names every command in Russian (review, verify, arena
    and serve were English); the player's commands review and verify explain themselves
    and their options in Russian."""
    group = _run(["--help"], env_lang="ru_RU.UTF-8")
    assert group.returncode == 0, group.stderr
    for words in (
        "Разбор сыгранной партии",
        "Проверить честность раздачи",
        "Боты друг против",
        "Запустить игровой сервер",
        "Игра в терминале",
        "Показать запись партии",
    ):
        assert words in group.stdout, (words, group.stdout)
    assert "Review a finished game" not in group.stdout and "Check a finished" not in group.stdout
    review = _run(["review", "--help", "--lang", "ru"])
    assert review.returncode == 0, review.stderr
    for words in (
        "Файл kozyr-record/1",
        "Глубина разбора",
        "Разобрать только это место",
        "Показать все решения",
        "Зерно поиска",
    ):
        assert words in review.stdout, (words, review.stdout)
    verify = _run(["verify", "--help"], env_lang="ru_RU.UTF-8")
    assert "открытое зерно" in verify.stdout and "Вывести вердикт в JSON" in verify.stdout


def test_replay_shows_emperors_final_places_not_the_last_titles(tmp_path: Path) -> None:
    # A finished game (first legal action everywhere, seed 0) whose final places differ
    # from the titles held after round 10 (E12).
    state = EmperorState.new(EmperorOptions(players=4), seed=0)
    while not state.over:
        state.apply(state.legal_actions()[0])
    over = state.events[-1]
    titles = state.summary()["titles"]
    assert any(over["ranks"][s] != titles[s] for s in over["places"][1:])
    path = save(state, tmp_path / "e.json", players=["A", "B", "C", "D"])
    out = _run(["replay", str(path), "--lang", "ru"]).stdout
    words = {"emperor": "Император", "prince": "Принц", "soldier": "Солдат", "jester": "Скоморох"}
    rows = [[c.strip() for c in r.split("│")[1:-1]] for r in out.splitlines() if "│" in r]
    expected = [
        [str(place), "ABCD"[s], words[over["ranks"][s]], str(over["totals"][s])]
        for place, s in enumerate(over["places"], start=1)
    ]
    assert rows == expected
