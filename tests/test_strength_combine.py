"""bench/strength.py --combine: a sample that grew over several runs is summed up over
the seeds of the current code only; seeds of older code are counted apart."""

from __future__ import annotations

import importlib.util
import json
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
    monkeypatch.setattr(strength, "code_fingerprint", lambda game=None, rev="HEAD": "new")
    saved = tmp_path / "s.jsonl"
    saved.write_text(
        "\n".join(
            [
                _line(1, 1.0, "new", 4.0),
                _line(2, 0.0, "new", 0.0),
                _line(1, 0.25, "old"),  # the same seed under older code: apart
                _line(3, 0.5, "new", 2.0),
                json.dumps({"row": "imperial-l3-heuristic", "seed": 9, "value": 3.0}),
            ]
        )
        + "\n"
    )
    strength.combine("emperor-l3-field", saved)
    out = capsys.readouterr().out.splitlines()
    # current: values 1, 0, 0.5 -> mean 0.5; sd 0.5; 1.96 * 0.5 / sqrt(3) = 0.566
    assert out[0].startswith("RESULT emperor-l3-field (current code new): Emperor share +0.500")
    assert "[-0.066, +1.066], 12 games (3 seeds)" in out[0]
    # margins 4, 0, 2 -> mean 2, sd 2, 1.96 * 2 / sqrt(3) = 2.263
    assert "+2.00 tricks, 95% CI [-0.26, +4.26]" in out[1]
    assert out[2].startswith(
        "RESULT emperor-l3-field (STALE: older code old): Emperor share +0.250"
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


def test_a_seed_saved_with_the_whole_code_fingerprint_counts_under_its_games_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seeds saved before the per-game fingerprint stay current while the Emperor code is
    unchanged, even if the Imperial bots changed since; only when their commit's whole
    code is what they recorded (a dirty run's seeds are never translated)."""
    strength = _strength()
    # commit c1: the Emperor code of today (only Imperial changed since); c2: older.
    prints = {
        ("HEAD", None): "whole-now",
        ("HEAD", "emperor"): "emp-now",
        ("c1", None): "whole-c1",
        ("c1", "emperor"): "emp-now",
        ("c2", None): "whole-c2",
        ("c2", "emperor"): "emp-old",
    }
    monkeypatch.setattr(
        strength, "code_fingerprint", lambda game=None, rev="HEAD": prints[rev, game]
    )
    saved = tmp_path / "s.jsonl"
    saved.write_text(
        "\n".join(
            [
                _line(1, 1.0, "whole-c1", commit="c1"),
                _line(2, 0.5, "emp-now", commit="HEAD"),
                _line(3, 0.0, "whole-c2", commit="c2"),
                _line(4, 0.25, "whole-c1+dirty", commit="c1"),
            ]
        )
        + "\n"
    )
    strength.combine("emperor-l3-field", saved)
    out = capsys.readouterr().out.splitlines()
    # current: seeds 1 and 2, values 1 and 0.5 -> mean 0.75, 8 games
    assert out[0].startswith("RESULT emperor-l3-field (current code emp-now): Emperor share +0.750")
    assert "8 games (2 seeds)" in out[0]
    stale = sorted(line for line in out[1:] if "STALE" in line)
    assert len(stale) == 2
    assert "(STALE: older code emp-old): Emperor share +0.000" in stale[0]
    assert "(STALE: older code whole-c1+dirty): Emperor share +0.250" in stale[1]
