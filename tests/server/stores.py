"""A store of its own for an in-process test, on SQLite in a temporary folder or on a
fresh PostgreSQL database (``KOZYR_TEST_POSTGRES_URL``), migrated."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from tests.server.support import fresh_postgres

from kozyr.server.runtime.config import normalise_database_url, sqlite_url
from kozyr.server.storage.store import Store

BACKENDS = ["sqlite"] + (["postgres"] if os.environ.get("KOZYR_TEST_POSTGRES_URL") else [])


async def open_store(backend: str, folder: Path) -> Store:
    if backend == "sqlite":
        store = Store(sqlite_url(folder))
    else:
        url = await fresh_postgres(os.environ["KOZYR_TEST_POSTGRES_URL"])
        store = Store(normalise_database_url(url))
    await store.migrate()
    return store


def run_on_store(
    backend: str,
    body: Callable[[Store], Awaitable[None]],
    wire: Callable[[Store], None] | None = None,
) -> None:
    """``body(store)`` on a store of its own, closed after; ``wire`` first adds the hooks
    the test needs (as the server wires them)."""

    async def main() -> None:
        with tempfile.TemporaryDirectory() as folder:
            store = await open_store(backend, Path(folder))
            try:
                if wire is not None:
                    wire(store)
                await body(store)
            finally:
                await store.close()

    asyncio.run(main())
