"""Checks of the web page's files that need no browser: every string in both languages,
nothing loaded from outside, and the replay frames the page steps through."""

from __future__ import annotations

import json
import random
import re

import pytest

from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.imperial import ImperialOptions, ImperialState
from kozyr.records import RecordError, to_record
from kozyr.server.play.replay_frames import replay_frames
from kozyr.web import STATIC


def _entries() -> list[tuple[str, str, str]]:
    """The catalogue's entries in the order written: (key, English, Russian)."""
    text = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    body = text[text.index("export const MESSAGES = {") : text.index("\n};")]
    # key: ["English", "Russian"], possibly over several lines
    string = r'"(?:[^"\\]|\\.)*"'
    pattern = rf"^\s*(\w+): \[\s*({string}),\s*({string}),?\s*\]"
    return [
        (m.group(1), json.loads(m.group(2)), json.loads(m.group(3)))
        for m in re.finditer(pattern, body, re.M)
    ]


def _messages() -> dict[str, tuple[str, str]]:
    return {key: (en, ru) for key, en, ru in _entries()}


def test_every_message_has_both_languages() -> None:
    messages = _messages()
    assert len(messages) > 150
    for key, (en, ru) in messages.items():
        assert en.strip() and ru.strip(), key
        # {n} or {n:card} (a counted noun) or {name:gen} (a declined name): the same
        # parameters in both languages, whatever each language does with them.
        holder = r"\{(\w+)(?::\w+)?\}"
        assert set(re.findall(holder, en)) == set(re.findall(holder, ru)), key
        # Words only from placeholders ("{n:card}", "{name} +{n:point}"): plural.js and the
        # values word them; any word written out must be Russian.
        written = re.sub(holder, "", ru)
        exempt = ("app_name", "lang_other", "replay_action", "ev_imperial_item")
        if key not in exempt and re.search(r"[^\W\d_]", written):
            assert re.search("[а-яё]", written, re.I), f"{key}: Russian text is not Russian"


def test_every_key_used_exists() -> None:
    messages = _messages()
    used: set[str] = set()
    for path in (STATIC / "js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        # the first argument of every t(...) call: "key" or cond ? "key1" : "key2"
        for first in re.findall(r"\bt\(([^,)]*)", text):
            if "`" not in first:
                used |= set(re.findall(r'(?:^\s*|\?\s*|:\s*)"(\w+)"', first))
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    used |= set(re.findall(r'data-i18n(?:-label|-title|-placeholder)?="(\w+)"', html))
    missing = sorted(k for k in used if k not in messages)
    assert not missing, missing


def test_nothing_is_loaded_from_outside() -> None:
    for path in STATIC.rglob("*"):
        if path.suffix not in (".html", ".js", ".css", ".svg", ".json"):
            continue
        text = path.read_text(encoding="utf-8")
        urls = r"""(?:src|href|url|import)\s*[=(]?\s*["']?((?:https?:)?//[^"')\s]+)"""
        for url in re.findall(urls, text):
            assert url.startswith("http://www.w3.org/2000/svg"), f"{path.name}: {url}"


def _random_game(state: ImperialState | EmperorState, seed: int) -> None:
    rng = random.Random(seed)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game", ["imperial", "emperor"])
def test_replay_frames_show_every_hand_step_by_step(game: str) -> None:
    state: ImperialState | EmperorState
    if game == "imperial":
        state = ImperialState.new(ImperialOptions(players=3, target=2), seed=11)
    else:
        state = EmperorState.new(EmperorOptions(players=4, rounds=3, bargain_from=2), seed=11)
    _random_game(state, 5)
    frames = replay_frames(to_record(state, players=["A", "B", "C", "D"][: state.players]))
    steps = frames["steps"]
    assert len(steps) == len(state.actions) + 1
    assert frames["events"] == state.events
    assert frames["players"] == ["A", "B", "C", "D"][: state.players]
    counts = [s["events"] for s in steps]
    assert counts == sorted(counts) and counts[-1] == len(state.events)
    for i, step in enumerate(steps):
        assert "events" not in step["view"]
        assert step["view"]["seat"] is None  # the public view ...
        assert len(step["hands"]) == state.players  # ... plus every hand
        assert [len(h) for h in step["hands"]] == step["view"]["hand_sizes"]
        if i:
            assert step["action"]["action"] == state.actions[i - 1]
    assert steps[-1]["summary"] == state.summary()
    json.dumps(frames)  # JSON-ready


def test_replay_frames_refuse_a_bad_record() -> None:
    state = ImperialState.new(ImperialOptions(), seed=1)
    record = to_record(state)
    record["actions"] = ["ZZ"]
    with pytest.raises(RecordError, match=r"actions\[0\]"):
        replay_frames(record)


def test_the_stylesheet_closes_every_block_it_opens() -> None:
    # A lost "}" after a media query silently confines every later rule to that query
    # (a merge once did that: the summaries' styles applied on phones only).
    css = re.sub(r"/\*.*?\*/", "", (STATIC / "css" / "kozyr.css").read_text(), flags=re.S)
    depth = 0
    for i, ch in enumerate(css):
        depth += (ch == "{") - (ch == "}")
        assert depth >= 0, f"a '}}' without its '{{' near {css[max(0, i - 60) : i]!r}"
    assert depth == 0, f"{depth} block(s) left open"


def test_no_message_key_is_written_twice() -> None:
    # A key written twice silently keeps only its last words: "puzzles_right" once meant
    # both "Right!" and "On your right", and a seat was labelled "Right!".
    keys = [key for key, _, _ in _entries()]
    assert len(keys) > 300
    twice = sorted({k for k in keys if keys.count(k) > 1})
    assert twice == []
