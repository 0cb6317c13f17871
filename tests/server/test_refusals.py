"""A rule's refusal over the WebSocket: the old ``illegal_action`` code, and the rule's
own code, parameters and ruling with the catalog's messages (docs/protocol.md)."""

from __future__ import annotations

import asyncio

import pytest
from tests.server.support import Player, ServerProc

pytestmark = pytest.mark.asyncio


def _club_against_spades(view: dict) -> str | None:
    """A club in hand while the trick was led with a spade and the hand holds a spade."""
    trick = view.get("trick") or []
    hand = view.get("hand") or []
    if not trick or not trick[0][1].endswith("S") or not any(c.endswith("S") for c in hand):
        return None
    return next((c for c in hand if c.endswith("C")), None)


async def test_playing_a_club_on_a_spade_lead_names_must_follow(server: ServerProc) -> None:
    me = await Player(server).sign_in()
    try:
        await me.connect()
        club = None
        # The bots play from their own random seeds, so a game may end before the moment
        # comes: then another game is opened (a few are plenty).
        for _game in range(6):
            created = await me.post("/api/tables", {"game": "imperial", "players": 2, "bots": [1]})
            table = created["table"]["id"]
            await me.hello(table, last_seq=0)
            for _ in range(2000):
                if me.over(table):
                    break
                if me.my_turn(table, 0):
                    club = _club_against_spades(me.views[table])
                    if club is not None:
                        break
                    ack = await me.act(table, me.legal(table)[0])
                    assert ack["type"] == "ack", ack
                else:
                    await asyncio.sleep(0.01)
            if club is not None:
                break
        assert club is not None, "six games never led a spade to a hand with a club"
        seq = me.seqs[table]
        error = await me.act(table, club, cid="wrong-suit")
        assert error["type"] == "error" and error["id"] == "wrong-suit"
        assert error["code"] == "illegal_action"  # what old clients know
        assert error["reason"] == {
            "code": "must_follow",
            "params": {"card": club, "suit": "S"},
            "rule": "I7",
        }
        assert error["message"] == "You hold spades, the suit led, so you must follow suit"
        assert (
            error["message_ru"]
            == "Масть хода — пики, и она у вас есть, значит, нужно ходить в масть"
        )
        # refused: nothing changed, and the same turn is still ours
        assert me.seqs[table] == seq and me.my_turn(table, 0)
        ack = await me.act(table, me.legal(table)[0])
        assert ack["type"] == "ack" and ack["seq"] == seq + 1
    finally:
        await me.close()


async def test_a_move_that_is_no_card_keeps_its_code(server: ServerProc) -> None:
    me = await Player(server).sign_in()
    try:
        await me.connect()
        created = await me.post("/api/tables", {"game": "imperial", "players": 2, "bots": [1]})
        table = created["table"]["id"]
        await me.hello(table, last_seq=0)
        for _ in range(500):
            if me.my_turn(table, 0) and me.views[table].get("hand"):
                break
            await asyncio.sleep(0.01)
        error = await me.act(table, "ZZ", cid="typo")
        assert error["code"] == "illegal_action"
        assert error["reason"] == {"code": "bad_card_text", "params": {"text": "ZZ"}, "rule": None}
        assert error["message"] == "“ZZ” is not a card: write a rank and a suit, like 10H or QS"
        assert error["message_ru"] == (
            "«ZZ» — не карта: напишите достоинство и масть, например 10♥ или Д♠"
        )
    finally:
        await me.close()
