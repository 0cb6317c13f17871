"""``python -m tests.server.crashing_server serve ...``: the kozyr server, but with
``KOZYR_CRASH_AT`` set it kills itself with SIGKILL at a chosen point of a stake game's
settlement (the crash tests of test_stakes_crash.py):

- ``before_settle``: the game's last action is written, its settlement not yet;
- ``in_settle``: the settlement's ledger rows are written too, not yet committed.

Both are inside the one transaction that commits the last action: no shutdown code runs,
exactly as a power cut or an OOM kill."""

from __future__ import annotations

import os
import signal

from sqlalchemy.ext.asyncio import AsyncConnection

from kozyr.server.money import escrow
from kozyr.server.storage.store import TableRow

_settle = escrow.settle_at_finish
_at = os.environ.get("KOZYR_CRASH_AT", "")


async def _crashing_settle(conn: AsyncConnection, row: TableRow) -> None:
    if row.stake is not None and _at == "before_settle":
        os.kill(os.getpid(), signal.SIGKILL)
    await _settle(conn, row)
    if row.stake is not None and _at == "in_settle":
        os.kill(os.getpid(), signal.SIGKILL)


escrow.settle_at_finish = _crashing_settle

if __name__ == "__main__":
    from kozyr.cli import app

    app(prog_name="kozyr")
