"""Table talk (#44) against a real server: the channels and the kibitzer rule, the lines a
``hello`` and a replay give back, the refusals (in English and Russian, changing
nothing), the rate limit, reports and ``kozyr talk reports``, and the leak scan over the
``said`` frames."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from tests.server.support import Player, ServerProc, leak_scan, two_at_a_table, unique_name

from kozyr.records import start

pytestmark = pytest.mark.asyncio


async def say(p: Player, table: str, **fields: Any) -> dict[str, Any]:
    """Sends a ``say`` and returns its own ``said`` echo or the error it got."""
    marker = f"m{random.randrange(10**9)}"
    await p.send({"type": "say", "table": table, "id": marker, **fields})
    while True:
        frame = await next_of(p, ("said", "error"))
        if frame["type"] == "error" and frame.get("id") == marker:
            return frame
        if frame["type"] == "said" and frame["from"]["user_id"] == p.user["id"]:
            return frame


def lines(p: Player, table: str) -> list[dict[str, Any]]:
    return [f for f in p.frames if f.get("type") == "said" and f.get("table") == table]


async def next_of(p: Player, kinds: tuple[str, ...], timeout: float = 20) -> dict[str, Any]:
    """The next frame of one of ``kinds`` that ``p`` receives."""
    frame = await asyncio.wait_for(p.inbox.get(), timeout)
    while frame["type"] not in kinds:
        if frame["type"] == "_closed":
            raise ConnectionError(f"closed ({frame['code']})")
        frame = await asyncio.wait_for(p.inbox.get(), timeout)
    return frame


async def _replay(p: Player, table: str) -> dict[str, Any]:
    r = await p.http.get(f"/api/games/{table}/replay")
    assert r.status_code == 200, r.text
    return dict(r.json())


async def test_spectators_talk_reaches_the_players_only_after_the_game(
    server: ServerProc,
) -> None:
    a, b, table = await two_at_a_table(server, {"target": 1})
    fan = await Player(server).sign_in()
    late = await Player(server).sign_in()
    try:
        await fan.connect()
        await fan.hello(table)
        # the players' channel reaches everyone at the table, the phrase as its code
        hi = await say(a, table, phrase="good_luck")
        assert hi["channel"] == "players" and hi["phrase"] == "good_luck" and "text" not in hi
        assert hi["from"] == {"name": a.user["name"], "user_id": a.user["id"]}
        await b.expect("said", id=hi["id"])
        await fan.expect("said", id=hi["id"])
        # a spectator's line: the spectators hear it, the players do not while it is on
        psst = await say(fan, table, text="  b holds the\tQS  ")
        assert psst["channel"] == "spectators" and psst["text"] == "b holds the QS"
        # each player's own next line comes after anything sent to him for the fan's
        for p in (a, b):
            await say(p, table, phrase="thanks")
        for p in (a, b):
            assert {s["channel"] for s in lines(p, table)} == {"players"}
        # a player's hello gives back the players' channel only
        b.drain()
        await b.hello(table)
        await say(b, table, phrase="sorry")
        assert all(s["channel"] == "players" for s in lines(b, table))
        await asyncio.gather(
            a.play_until_over(table, 0, random.Random(4)),
            b.play_until_over(table, 1, random.Random(5)),
        )
        # the game is over: the players still there are sent the spectators' line
        for p in (a, b):
            got = await p.expect("said", id=psst["id"])
            assert got["text"] == "b holds the QS"
        # and a hello now gives both channels, in the order said
        await late.connect()
        await late.hello(table)
        await say(late, table, phrase="well_played")
        said = [s["id"] for s in lines(late, table)]
        assert said[:2] == [hi["id"], psst["id"]] and len(said) == 6
        # the replay shows both channels
        talk = (await _replay(late, table))["talk"]
        assert [line["id"] for line in talk] == said
        assert talk[1] == {
            "id": psst["id"],
            "channel": "spectators",
            "from": {"name": fan.user["name"], "user_id": fan.user["id"]},
            "at_ms": psst["at_ms"],
            "text": "b holds the QS",
        }
        r = await a.http.get(f"/api/games/{table}/record")
        record = r.json()
        await asyncio.sleep(0.2)
        # the hidden-card scan covers the said frames; the typed "QS" is text, allowed
        for p, seat in ((a, 0), (b, 1), (fan, None)):
            assert any(f.get("type") == "said" for f in p.frames)
            assert leak_scan(record, p.frames, seat) > 0
        # ... and would catch a card in a said frame anywhere but its typed text
        hidden = start(record).observation(1).to_json()["hand"][0]
        forged = {**psst, "phrase": hidden}
        with pytest.raises(AssertionError, match="names"):
            leak_scan(record, [forged], 0)
        assert leak_scan(record, [{**psst, "text": hidden}], 0) == 1
    finally:
        for p in (a, b, fan, late):
            await p.close()


async def test_bad_talk_is_refused_in_both_languages_and_changes_nothing(
    server: ServerProc,
) -> None:
    a, b, table = await two_at_a_table(server, {"target": 3})
    fan = await Player(server).sign_in()
    stranger = await Player(server).sign_in()
    try:
        await fan.connect()
        await fan.hello(table)
        await stranger.connect()
        cases: list[tuple[Player, dict[str, Any], str, str]] = [
            (a, {"text": "x" * 201}, "talk_too_long", "В сообщении не больше 200 символов."),
            (a, {"text": "x" * 1001}, "talk_too_long", "В сообщении не больше 200 символов."),
            (
                a,
                {"text": " \u200b\n "},
                "talk_empty",
                "Напишите сообщение или выберите готовую фразу.",
            ),
            (a, {}, "talk_empty", "Напишите сообщение или выберите готовую фразу."),
            (
                a,
                {"text": "\u200d \u200c"},
                "talk_empty",
                "Напишите сообщение или выберите готовую фразу.",
            ),
            (
                a,
                {"text": "hi", "phrase": "thanks"},
                "bad_frame",
                "Кадр не является корректным сообщением.",
            ),
            (a, {"phrase": "gg_noob"}, "talk_phrase", "Такой готовой фразы нет."),
            (
                a,
                {"phrase": "thanks", "channel": "spectators"},
                "talk_channel",
                "Игроки говорят с игроками, зрители — со зрителями.",
            ),
            (
                fan,
                {"text": "hi", "channel": "players"},
                "talk_channel",
                "Игроки говорят с игроками, зрители — со зрителями.",
            ),
            (
                stranger,
                {"text": "hi"},
                "not_at_table",
                "Говорить можно только за столом, где вы играете или смотрите игру.",
            ),
        ]
        for p, fields, code, russian in cases:
            got = await say(p, table, **fields)
            assert got["type"] == "error" and got["code"] == code, (fields, got)
            assert got["table"] == table and got["message_ru"] == russian
            assert got["message"]
        # a talk to a table that does not exist
        nowhere = await say(a, "nosuchtbl", text="hi")
        assert nowhere["code"] == "no_table"
        # 200 characters after NFC are fine although 400 were sent (e + combining acute)
        ok = await say(a, table, text="e\u0301" * 200)
        assert ok["type"] == "said" and ok["text"] == "\u00e9" * 200
        # nothing refused was kept: a hello gives back the one line said
        await fan.hello(table)
        hello = await say(fan, table, text="hello")
        assert {s["id"] for s in lines(fan, table)} == {ok["id"], hello["id"]}
    finally:
        for p in (a, b, fan, stranger):
            await p.close()


async def test_fifty_lines_in_a_second_five_are_said(server: ServerProc) -> None:
    a, b, table = await two_at_a_table(server, {"target": 3})
    try:
        # the socket's own flood limit is 50 frames a second: the hello is out of it
        await asyncio.sleep(1.05)
        for i in range(50):
            await a.send({"type": "say", "table": table, "id": i, "text": f"line {i}"})
        got: list[dict[str, Any]] = []
        while len(got) < 50:
            frame = await next_of(a, ("said", "error"))
            got.append(frame)
        said = [f for f in got if f["type"] == "said"]
        refused = [f for f in got if f["type"] == "error"]
        assert [f["text"] for f in said] == [f"line {i}" for i in range(5)]
        assert {f["code"] for f in refused} == {"talk_too_fast"} and len(refused) == 45
        assert sorted(f["id"] for f in refused) == list(range(5, 50))
        assert refused[0]["message_ru"].startswith("Слишком много сообщений")
        assert a.closed_code is None
        # the refused ones were not kept and not sent: b has the five
        await b.hello(table)
        # his own line comes after the hello's lines (a connection's frames are handled in
        # turn): by then they are all in
        await say(b, table, phrase="thanks")
        texts = [s["text"] for s in lines(b, table) if "text" in s]
        assert texts == [f"line {i}" for i in range(5)] * 2  # live, then the hello's
    finally:
        for p in (a, b):
            await p.close()


async def test_a_report_keeps_the_line_and_ten_before_it_on_its_channel(
    server: ServerProc,
) -> None:
    a, b, table = await two_at_a_table(server, {"target": 3})
    fans = [await Player(server).sign_in() for _ in range(3)]
    try:
        for f in fans:
            await f.connect()
            await f.hello(table)
        said: list[dict[str, Any]] = []
        for i in range(12):  # 4 lines each (under the 5 a person may say in 10 s)
            said.append(await say(fans[i % 3], table, text=f"fan line {i}"))
            if i == 6:
                await say(a, table, phrase="thanks")  # the players' channel: not context
        last = said[-1]
        r = await b.http.post(f"/api/talk/{last['id']}/report", json={"reason": "rude\n"})
        assert r.status_code == 201, r.text
        again = await b.http.post(f"/api/talk/{last['id']}/report", json={})
        assert again.status_code == 409 and again.json()["code"] == "already_reported"
        assert "пожаловались" in again.json()["message_ru"]
        missing = await b.http.post("/api/talk/99999999/report", json={})
        assert missing.status_code == 404 and missing.json()["code"] == "no_message"
        bad = await b.http.post("/api/talk/abc/report", json={})
        assert bad.status_code == 404 and bad.json()["code"] == "no_message"
        long = await a.http.post(f"/api/talk/{last['id']}/report", json={"reason": "x" * 201})
        assert long.status_code == 400
        # the operator's command lists it with its context: lines 1-10 before line 11
        args = ["--limit", "1000"]
        args += (
            ["--database", server.database_url]
            if server.database_url
            else ["--data", str(server.data)]
        )
        out = subprocess.run(
            [sys.executable, "-m", "kozyr", "talk", "reports", "--lang", "en", *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
        head = f"by {b.user['name']} of line {last['id']} at table {table}; reason: rude"
        assert head in out, out
        block = out[out.index(head) :].splitlines()[1:12]
        assert [line.split(": ", 1)[1] for line in block] == [f"fan line {i}" for i in range(1, 12)]
        assert block[-1].startswith(f"  > {last['id']} spectators {fans[2].user['name']}")
        assert all(" spectators " in line for line in block)
    finally:
        for p in (a, b, *fans):
            await p.close()


async def test_a_finished_table_served_from_the_database_gives_both_channels(
    tmp_path: Path,
) -> None:
    proc = ServerProc(tmp_path / "data", env={"KOZYR_FINISHED_LINGER": "0"}).start()
    me, fan = await Player(proc).sign_in(), await Player(proc).sign_in()
    try:
        await me.connect()
        await fan.connect()
        for _ in range(20):  # a game not already over in its first declarations
            body = {"game": "imperial", "options": {"target": 1}, "bots": [1]}
            table = (await me.post("/api/tables", body))["table"]["id"]
            await me.hello(table, last_seq=0)
            if not me.over(table):
                break
        await fan.hello(table)
        mine = await say(me, table, phrase="good_luck")
        psst = await say(fan, table, text="psst")
        await me.play_until_over(table, 0, random.Random(7))
        deadline = time.monotonic() + 30
        while (await me.http.get("/healthz")).json()["tables"] != 0:
            assert time.monotonic() < deadline, "the finished table stayed in memory"
            await asyncio.sleep(0.05)
        await me.disconnect()
        me.frames.clear()
        me.drain()
        await me.connect()
        await me.hello(table)
        await me.expect("said", id=psst["id"])
        assert [s["id"] for s in lines(me, table)] == [mine["id"], psst["id"]]
        # the table has left memory: there is nobody to talk to any more
        gone = await say(me, table, text="anyone?")
        assert gone["type"] == "error" and gone["code"] == "no_table"
    finally:
        await me.close()
        await fan.close()
        proc.stop()


async def test_said_frames_are_json_with_either_text_or_phrase() -> None:
    from kozyr.server.talk.said import Said

    text = Said("t1", "players", 7, 3, "Anna", 1000, text="hi")
    phrase = Said("t1", "spectators", 8, 4, "Boris", 1001, phrase="sorry")
    assert json.loads(json.dumps(text.to_json())) == {
        "v": 1,
        "type": "said",
        "table": "t1",
        "id": 7,
        "channel": "players",
        "from": {"name": "Anna", "user_id": 3},
        "at_ms": 1000,
        "text": "hi",
    }
    assert "text" not in phrase.to_json() and phrase.to_json()["phrase"] == "sorry"


async def test_a_blocked_persons_talk_is_not_delivered_to_his_blocker(server: ServerProc) -> None:
    """One way: Bob blocked Ann, so Ann's lines never reach Bob (live or in a hello's
    history), while the spectator hears her and she hears Bob; Ann is told nothing."""
    ann, bob = await named(server, "ann"), await named(server, "bob")
    fan = await named(server, "fan")
    try:
        for p in (ann, bob, fan):
            await p.connect()
        body = {"game": "imperial", "options": {"target": 10}, "turn_timeout": None}
        table = (await ann.post("/api/tables", body))["table"]["id"]
        await bob.post(f"/api/tables/{table}/join", {})
        for p in (ann, bob, fan):
            await p.hello(table)
        r = await bob.http.post(f"/api/blocks/{ann.name}")
        assert r.status_code == 200, r.text
        hers = await say(ann, table, text="hello Bob")
        assert hers["type"] == "said"  # no refusal: she is not told
        await fan.expect("said", id=hers["id"])
        his = await say(bob, table, phrase="good_luck")
        await ann.expect("said", id=his["id"])
        # Bob's own line came after hers at the table: hers would have reached him first
        assert [s["id"] for s in lines(bob, table)] == [his["id"]]
        bob.drain()
        await bob.hello(table)
        again = await say(bob, table, phrase="thanks")
        assert [s["id"] for s in lines(bob, table)] == [his["id"], again["id"]]
    finally:
        for p in (ann, bob, fan):
            await p.close()


async def named(server: ServerProc, prefix: str) -> Player:
    """An account (blocks are for accounts; guests have none)."""
    return await Player(server, unique_name(prefix)).sign_in()
