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


def _line(seed: int, value: float, code: str, margin: float | None = None) -> str:
    return json.dumps(
        {
            "row": "emperor-l3-field",
            "seed": seed,
            "value": value,
            "margin": margin,
            "units": 4,
            "players": 4,
            "commit": "abc1234",
            "code": code,
            "utc": "2026-12-02T01:00:00Z",
        }
    )


def test_combine_counts_the_current_codes_seeds_and_marks_older_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    strength = _strength()
    monkeypatch.setattr(strength, "code_fingerprint", lambda: "new")
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
