"""Fixtures: a real ``kozyr serve`` on SQLite, and on PostgreSQL when
``KOZYR_TEST_POSTGRES_URL`` is set."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.cluster_support import cluster, redis_server
from tests.server.support import ServerProc, fresh_postgres

__all__ = ["cluster", "redis_server"]  # several ``kozyr serve`` over PostgreSQL + Redis

BACKENDS = ["sqlite"]
if os.environ.get("KOZYR_TEST_POSTGRES_URL"):
    BACKENDS.append("postgres")


def database_for(backend: str) -> str | None:
    if backend == "sqlite":
        return None
    return asyncio.run(fresh_postgres(os.environ["KOZYR_TEST_POSTGRES_URL"]))


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def server(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProc]:
    """One server per test worker and backend, shared by the modules that need no server
    of their own: each test signs in fresh people and opens its own tables."""
    data: Path = tmp_path_factory.mktemp(f"kozyr-{backend}")
    proc = ServerProc(data, database_for(backend)).start()
    yield proc
    proc.stop()


@pytest.fixture
def fresh_server(backend: str, tmp_path: Path) -> Iterator[ServerProc]:
    """A server of one's own (for crash tests, settings)."""
    proc = ServerProc(tmp_path / "data", database_for(backend))
    yield proc
    proc.stop()
