"""``kozyr play --stake``: a bad stake exits 2 before the game; a finished game prints its
settlement."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.test_cli import _every_answer, _run, _saved_record

from kozyr.cards import DECK_36
from kozyr.records import load


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["imperial", "--stake", "per_game:0"], "from 1 to 1,000,000, not '0'"),
        (["imperial", "--stake", "per_place:5"], "per_place is a stake of Emperor, not of"),
        (["emperor", "--stake", "ten"], "write the stake as KIND:S (per_place:S, per_trick:S)"),
        (["emperor", "--stake", "per_trick:1.5", "--lang", "ru"], "а не «1.5»"),
    ],
)
def test_a_bad_stake_exits_2_before_the_game(args: list[str], says: str, tmp_path: Path) -> None:
    result = _run(["play", *args, "--records", str(tmp_path)], "quit\n")
    assert result.returncode == 2
    error = " ".join(result.stderr.replace("│", " ").split())
    assert "--stake" in error and says in error, result.stderr
    assert result.stdout == ""  # no game was started ...
    assert not list(tmp_path.iterdir())  # ... and none was saved


def test_a_finished_game_prints_who_paid_whom(tmp_path: Path) -> None:
    stdin = _every_answer(DECK_36, [], rounds=200)
    args = ["play", "imperial", "--players", "3", "--level", "1", "--seed", "5"]
    args += ["--stake", "per_game:10", "--lang", "en", "--records", str(tmp_path)]
    result = _run(args, stdin)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Playing for stakes: 10 chips per game." in out
    winner = load(_saved_record(out))["result"]["winner"]
    names = ["You", "Computer 1", "Computer 2"]
    # per_game, S = 10, three players: each of the two losers pays the winner 10.
    paid = []
    for loser in (s for s in range(3) if s != winner):
        payer = names[loser]
        payee = "you" if winner == 0 else names[winner]
        paid.append(f"  {payer} {'pay' if loser == 0 else 'pays'} {payee}: 10 chips")
    nets = [f"{n} {'+20' if s == winner else '−10'} chips" for s, n in enumerate(names)]
    block = ["Stakes (10 chips per game):", *paid, "Net: " + ", ".join(nets)]
    lines = out.splitlines()
    start = lines.index(block[0])
    assert lines[start : start + len(block)] == block


def test_a_game_left_unfinished_settles_nothing(tmp_path: Path) -> None:
    args = ["play", "emperor", "--seed", "1", "--stake", "per_trick:3", "--lang", "ru"]
    result = _run([*args, "--records", str(tmp_path)], "выход\n")
    assert result.returncode == 0, result.stderr
    assert "Игра на ставку: 3 фишки за каждую взятку разницы" in result.stdout
    assert "Партия не окончена: по ставке никто не платит." in result.stdout
    assert "платит" not in result.stdout.replace("никто не платит", "")
