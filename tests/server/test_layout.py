"""The server's shape: it serves the page by path without importing it, and it learns
what differs between the games only from the game spec (``server/play/games.py``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kozyr.server.play.seating import Seating
from kozyr.server.storage.store import Seat, TableRow
from kozyr.server.transport.protocol import ProtocolError

SERVER = Path(__file__).resolve().parents[2] / "src" / "kozyr" / "server"


def test_the_server_imports_nothing_from_the_web_page() -> None:
    code = (
        "import sys, pkgutil, importlib, kozyr.server\n"
        "for m in pkgutil.walk_packages(kozyr.server.__path__, 'kozyr.server.'):\n"
        "    if '.migrations' not in m.name: importlib.import_module(m.name)\n"
        "print(sorted(n for n in sys.modules if n.startswith('kozyr.web')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_no_server_module_but_the_spec_shim_names_a_game() -> None:
    named = [
        str(path.relative_to(SERVER))
        for path in SERVER.rglob("*.py")
        if path.name != "games.py"
        and any(f'"{game}"' in path.read_text() for game in ("imperial", "emperor"))
    ]
    assert named == []


def _row() -> TableRow:
    return TableRow(
        id="t",
        game="emperor",
        players=3,
        options={},
        seed=1,
        seats=[Seat(), Seat(), Seat()],
        creator_id=1,
    )


def test_seating_keeps_the_join_order() -> None:
    row = _row()
    seating = Seating(row)
    assert seating.sit(7, "Ann", 2) == 2
    seating.set_bot(1, 0, 3)
    assert seating.sit(8, "Bob", None) == 1
    assert row.join_order == [2, 0, 1] and seating.full
    assert seating.seat_of(8) == 1 and seating.seat_of(9) is None
    seating.stand(0)
    assert row.join_order == [2, 1] and row.seats[0].empty and not seating.full


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda s: s.sit(7, "Ann", 0), "already_seated"),
        (lambda s: s.sit(8, "Bob", 0), "seat_taken"),
        (lambda s: s.sit(8, "Bob", 3), "bad_seat"),
        (lambda s: s.set_bot(7, 1, 2), "not_creator"),
        (lambda s: s.set_bot(1, 1, None), "no_bot"),
        (lambda s: s.set_bot(1, 0, 2), "seat_taken"),
    ],
)
def test_seating_refusals_change_nothing(call: object, code: str) -> None:
    row = _row()
    seating = Seating(row)
    seating.sit(7, "Ann", 0)
    before = (list(row.seats), list(row.join_order))
    with pytest.raises(ProtocolError) as e:
        call(seating)  # type: ignore[operator]
    assert e.value.code == code
    assert (row.seats, row.join_order) == before


def test_seating_refuses_a_started_table() -> None:
    row = _row()
    row.status = "playing"
    with pytest.raises(ProtocolError) as e:
        Seating(row).sit(7, "Ann", None)
    assert e.value.code == "not_open"
