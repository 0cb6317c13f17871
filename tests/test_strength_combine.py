"""bench/strength.py --combine: a sample that grew over several runs is summed up over
the seeds of the current code only; seeds of older code are counted apart."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "strength.py"


def _strength() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_strength", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_strength"] = module
    spec.loader.exec_module(module)
    return module


def _line(
    seed: int, value: float, code: str, margin: float | None = None, commit: str = "abc1234"
) -> str:
    return json.dumps(
        {
            "row": "emperor-l3-field",
            "seed": seed,
            "value": value,
            "margin": margin,
            "units": 4,
            "players": 4,
            "commit": commit,
            "code": code,
            "utc": "2026-12-02T01:00:00Z",
        }
    )


def test_combine_counts_the_current_codes_seeds_and_marks_older_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    strength = _strength()
    monkeypatch.setattr(strength, "row_fingerprint", lambda name, rev="HEAD": "rnew")
    monkeypatch.setattr(strength, "code_fingerprint", lambda game=None, rev="HEAD": "?")
    saved = tmp_path / "s.jsonl"
    saved.write_text(
        "\n".join(
            [
                _line(1, 1.0, "rnew", 4.0),
                _line(2, 0.0, "rnew", 0.0),
                _line(1, 0.25, "rold"),  # the same seed under older code: apart
                _line(3, 0.5, "rnew", 2.0),
                json.dumps({"row": "imperial-l3-heuristic", "seed": 9, "value": 3.0}),
            ]
        )
        + "\n"
    )
    strength.combine("emperor-l3-field", saved)
    out = capsys.readouterr().out.splitlines()
    # current: values 1, 0, 0.5 -> mean 0.5; sd 0.5; 1.96 * 0.5 / sqrt(3) = 0.566
    assert out[0].startswith("RESULT emperor-l3-field (current code rnew): Emperor share +0.500")
    assert "[-0.066, +1.066], 12 games (3 seeds)" in out[0]
    # margins 4, 0, 2 -> mean 2, sd 2, 1.96 * 2 / sqrt(3) = 2.263
    assert "+2.00 tricks, 95% CI [-0.26, +4.26]" in out[1]
    assert out[2].startswith(
        "RESULT emperor-l3-field (STALE: older code rold): Emperor share +0.250"
    )
    assert "4 games (1 seeds)" in out[2]
    assert len(out) == 3  # the other row's seed is not counted


def test_combine_names_a_broken_line_and_a_seed_saved_twice(tmp_path: Path) -> None:
    strength = _strength()
    broken = tmp_path / "broken.jsonl"
    broken.write_text(_line(1, 1.0, "x") + "\n{not json\n")
    with pytest.raises(SystemExit, match=r"broken.jsonl:2: not a JSON line"):
        strength.combine("emperor-l3-field", broken)
    twice = tmp_path / "twice.jsonl"
    twice.write_text(_line(1, 1.0, "x") + "\n" + _line(1, 0.0, "x") + "\n")
    with pytest.raises(SystemExit, match="saved twice"):
        strength.combine("emperor-l3-field", twice)


def test_a_seed_saved_with_an_older_fingerprint_counts_under_its_rows_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seeds saved with the whole code's fingerprint, or their game's, stay current while
    the row's own code is unchanged at their commit; only when their commit's code is what
    they recorded (a dirty run's seeds are never translated)."""
    strength = _strength()
    # commit c1: the row's code of today (only other code changed since); c2: older;
    # c3: a per-game fingerprint, the row's code of today.
    prints = {
        ("HEAD", None): "whole-now",
        ("HEAD", "emperor"): "emp-now",
        ("c1", None): "whole-c1",
        ("c1", "emperor"): "emp-c1",
        ("c2", None): "whole-c2",
        ("c2", "emperor"): "emp-c2",
        ("c3", None): "whole-c3",
        ("c3", "emperor"): "emp-c3",
    }
    rows = {"HEAD": "rnow", "c1": "rnow", "c2": "rold", "c3": "rnow"}
    monkeypatch.setattr(
        strength, "code_fingerprint", lambda game=None, rev="HEAD": prints[rev, game]
    )
    monkeypatch.setattr(strength, "row_fingerprint", lambda name, rev="HEAD": rows[rev])
    saved = tmp_path / "s.jsonl"
    saved.write_text(
        "\n".join(
            [
                _line(1, 1.0, "whole-c1", commit="c1"),
                _line(2, 0.5, "rnow", commit="HEAD"),
                _line(3, 0.0, "whole-c2", commit="c2"),
                _line(4, 0.25, "whole-c1+dirty", commit="c1"),
                _line(5, 0.75, "emp-c3", commit="c3"),
            ]
        )
        + "\n"
    )
    strength.combine("emperor-l3-field", saved)
    out = capsys.readouterr().out.splitlines()
    # current: seeds 1, 2 and 5, values 1, 0.5 and 0.75 -> mean 0.75, 12 games
    assert out[0].startswith("RESULT emperor-l3-field (current code rnow): Emperor share +0.750")
    assert "12 games (3 seeds)" in out[0]
    stale = sorted(line for line in out[1:] if "STALE" in line)
    assert len(stale) == 2
    assert "(STALE: older code rold): Emperor share +0.000" in stale[0]
    assert "(STALE: older code whole-c1+dirty): Emperor share +0.250" in stale[1]


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _tree(repo: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = repo / "src" / "kozyr" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_rows_fingerprint_follows_what_its_bots_import_and_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The row imperial-heuristic-random hashes the modules its bots and game import (a
    lazy import in a function too, the packages above each, the registry's file but not
    what the registry imports); a module nobody of the row imports may change freely."""
    strength = _strength()
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.org")
    _git(repo, "config", "user.name", "t")
    _tree(
        repo,
        {
            "__init__.py": "",
            "cards.py": "A = 1\n",
            "bots/__init__.py": "from kozyr.bots.base import Bot\n",
            "bots/base.py": "class Bot: ...\n",
            "bots/random_bot.py": "from .base import Bot\n",
            "bots/registry.py": "def make():\n    from kozyr.bots.emperor import x\n",
            "bots/imperial/__init__.py": "",
            "bots/imperial/heuristic.py": (
                "from kozyr.bots import registry\n"
                "def play():\n    from .value import V\n    return V\n"
            ),
            "bots/imperial/value.py": "from kozyr import cards\nV = 1\n",
            "bots/imperial/hint.py": "H = 1\n",
            "bots/emperor/__init__.py": "x = 1\n",
            "games/__init__.py": "",
            "games/imperial/__init__.py": "from ..tricks import follow\n",
            "games/tricks.py": "def follow(): ...\n",
        },
    )
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "one")
    monkeypatch.chdir(repo)
    name = "imperial-heuristic-random"
    first = strength.row_fingerprint(name)
    assert first.startswith("r") and len(first) == 13

    def changed(path: str) -> str:
        """The row's fingerprint with ``path`` edited (committed), then put back."""
        target = repo / "src" / "kozyr" / path
        before = target.read_text()
        target.write_text(before + "# edited\n")
        _git(repo, "commit", "-qam", f"edit {path}")
        after = strength.row_fingerprint(name)
        target.write_text(before)
        _git(repo, "commit", "-qam", f"undo {path}")
        assert strength.row_fingerprint(name) == first
        return after

    # imported by the row's bots or game, directly, lazily, through a package or relatively
    for path in (
        "bots/imperial/heuristic.py",
        "bots/imperial/value.py",
        "cards.py",
        "bots/registry.py",
        "bots/imperial/__init__.py",
        "bots/random_bot.py",
        "games/tricks.py",
    ):
        assert changed(path) != first, path
    # imported by nobody of the row (the registry's own imports are not followed)
    for path in ("bots/imperial/hint.py", "bots/emperor/__init__.py"):
        assert changed(path) == first, path
    # an uncommitted change to the row's code is marked, and the old commit still answers
    (repo / "src" / "kozyr" / "cards.py").write_text("A = 2\n")
    assert strength.row_fingerprint(name) == first + "+dirty"
    # the commits, newest first: undo and edit the Emperor file, then the hints', then
    # games/tricks.py's
    assert strength.row_fingerprint(name, "HEAD~5") != first
    assert strength.row_fingerprint(name, "HEAD~4") == first


def test_combine_names_a_missing_file(tmp_path: Path) -> None:
    strength = _strength()
    with pytest.raises(SystemExit, match=r"nothing saved at .*none.jsonl"):
        strength.combine("emperor-l3-field", tmp_path / "none.jsonl")


def test_a_sample_of_another_number_of_players_is_counted_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    strength = _strength()
    monkeypatch.setattr(strength, "row_fingerprint", lambda name, rev="HEAD": "rnew")

    def line(seed: int, value: float, players: int) -> str:
        return json.dumps(
            {
                "row": "imperial-l3-ismcts",
                "seed": seed,
                "value": value,
                "units": players,
                "players": players,
                "commit": "abc1234",
                "code": "rnew",
                "utc": "2026-12-06T21:00:00Z",
            }
        )

    saved = tmp_path / "s.jsonl"
    # the same seed with two and three players: two figures, not one seed saved twice
    saved.write_text("\n".join([line(1, 1.0, 2), line(2, 3.0, 2), line(1, -2.0, 3)]) + "\n")
    strength.combine("imperial-l3-ismcts", saved)
    out = capsys.readouterr().out.splitlines()
    # two players: values 1 and 3, mean 2, sd 1.414, 1.96 * 1.414 / sqrt(2) = 1.96
    assert out[0].startswith("RESULT imperial-l3-ismcts (current code rnew): play points/deal")
    assert "+2.000, 95% CI [+0.040, +3.960], 4 deals (2 seeds)" in out[0]
    assert out[1].startswith("RESULT imperial-l3-ismcts (3 players, current code rnew):")
    assert "-2.000" in out[1] and "3 deals (1 seeds)" in out[1]
    assert len(out) == 2


def test_the_ismcts_tuning_rows_name_their_settings() -> None:
    strength = _strength()
    row = strength.ROWS["imperial-ismcts-c0.25-value"]
    assert (row.a, row.b, row.budget_a, row.budget_b) == (
        "ismcts-c0.25-value",
        "ismcts",
        0.25,
        0.25,
    )
    # OpenSpiel's own setting against itself: the row that shows the pairing is even
    assert strength.ROWS["imperial-ismcts-c2"].a == "ismcts-c2"
    assert strength._kind_modules("imperial", "ismcts-c0.5") == ["kozyr.interop.ismcts"]
