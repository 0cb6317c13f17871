"""``kozyr arena`` end to end: the table, the JSON and PNG files, and --jobs 2 = --jobs 1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from kozyr.cli import app

runner = CliRunner()


def _arena(tmp: Path, *extra: str) -> tuple[dict[str, Any], Path]:
    args = ["arena", "imperial", "--bots", "random,random", "--games", "4"]
    # seed 6: the first deals of these games reach card play (with seed 5 every game of
    # target 1 is decided by an imperial declared before the first card)
    args += ["--option", "target=1", "--seed", "6", "--out", str(tmp), *extra]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "win rate" in result.output
    (json_path,) = tmp.glob("imperial-*.json")
    (png_path,) = tmp.glob("imperial-*.png")
    assert png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return json.loads(json_path.read_text(encoding="utf-8")), png_path


def _stable(data: dict[str, Any]) -> dict[str, Any]:
    """What must not depend on --jobs: everything but clocks and the jobs count."""
    out = {k: v for k, v in data.items() if k not in ("created", "elapsed_seconds", "jobs")}
    out["summary"] = [
        {k: v for k, v in s.items() if k != "seconds_per_decision"} for s in data["summary"]
    ]
    out["results"] = [{k: v for k, v in r.items() if k != "think_seconds"} for r in data["results"]]
    return out


def test_arena_writes_json_and_png_and_jobs_do_not_change_results(tmp_path: Path) -> None:
    one, _ = _arena(tmp_path / "one", "--jobs", "1")
    assert one["format"] == "kozyr-arena/1"
    assert one["games"] == 4 and one["sets"] == 2
    assert one["options"]["target"] == 1 and one["options"]["players"] == 2
    assert [b["label"] for b in one["bots"]] == ["random#1", "random#2"]
    assert len(one["results"]) == 4
    for r in one["results"]:
        assert r["winner"] in (0, 1)
        assert max(r["imperials"]) >= 1
    # each set: the same deal seed, bots swapped
    assert one["results"][0]["deal_seed"] == one["results"][1]["deal_seed"]
    assert one["results"][0]["seats"] == ["random#1", "random#2"]
    assert one["results"][1]["seats"] == ["random#2", "random#1"]
    wins = [s["win_rate"]["value"] for s in one["summary"]]
    assert sum(wins) == 1.0
    assert one["summary"][0]["seconds_per_decision"]["decisions"] > 0
    two, _ = _arena(tmp_path / "two", "--jobs", "2")
    assert two["jobs"] == 2
    assert _stable(one) == _stable(two)


def test_bad_requests_exit_2(tmp_path: Path) -> None:
    for args in (
        ["arena", "imperial", "--bots", "random"],
        ["arena", "emperor", "--bots", "random,random"],
        ["arena", "imperial", "--bots", "random,random", "--option", "target"],
        ["arena", "imperial", "--bots", "random,random", "--option", "colour=red"],
        ["arena", "imperial", "--bots", "random,wizard"],
    ):
        result = runner.invoke(app, [*args, "--out", str(tmp_path)])
        assert result.exit_code == 2, (args, result.output)
        assert "error" in result.output
    assert not list(tmp_path.iterdir())
