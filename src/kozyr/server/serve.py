"""``kozyr serve``: migrate the database, restore unfinished tables, serve (in one process,
or in ``--workers N`` processes on one port)."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit, urlunsplit

import typer

from kozyr.server.runtime.config import Settings

if TYPE_CHECKING:
    from fastapi import FastAPI

WORKER_APP = "kozyr.server.serve:worker_app"
WORKER_HTTP = "kozyr.server.serve:WorkerHttpProtocol"


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    data: Annotated[
        Path | None,
        typer.Option(
            help="Data folder for the SQLite database (default: $KOZYR_DATA or ./kozyr-data)."
        ),
    ] = None,
    database_url: Annotated[
        str | None,
        typer.Option(
            "--database-url",
            help="Database URL, e.g. postgresql://user@host/db "
            "(default: $KOZYR_DATABASE_URL, else SQLite in the data folder).",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            min=1,
            help="Server processes sharing the port; more than 1 needs PostgreSQL "
            "(--database-url) and Redis ($KOZYR_REDIS_URL).",
        ),
    ] = 1,
) -> None:
    """Start the game server (people and bots, both games) and print the address to open."""
    try:
        # uvicorn binds only after the app has started (migrations, restore); find a port in
        # use now, before "ready" is printed.
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        typer.echo(f"error: cannot listen on {host}:{port}: {e.strerror}", err=True)
        raise typer.Exit(2) from e
    try:
        settings = Settings()
    except ValueError as e:  # a KOZYR_* variable that does not parse, named in e
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from e
    if data is not None:
        settings.data = data
    if database_url is not None:
        settings.database_url = database_url
    if workers > 1:
        refuse_workers_without_cluster(settings, workers)
    if settings.redis_url:
        check_redis(settings.redis_url)
    configure_logging()
    import uvicorn

    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    if workers > 1:
        serve_workers(settings, host, port, workers)
        return

    from kozyr.server.app import create_app

    app = create_app(settings)
    where = "SQLite in " + str(settings.data.resolve()) if settings.is_sqlite else "PostgreSQL"

    def ready(restored: int) -> None:
        print(f"kozyr server ready: open http://{shown}:{port}/", flush=True)
        print(f"database: {where}; {restored} unfinished tables restored", flush=True)
        sys.stdout.flush()

    app.state.server.on_ready = ready
    from kozyr.server.runtime.stopping import exit_0_on_sigterm

    exit_0_on_sigterm()
    uvicorn.run(app, host=host, port=port, **uvicorn_options(settings))


def configure_logging() -> None:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("alembic").setLevel(logging.WARNING)


def refuse_workers_without_cluster(settings: Settings, workers: int) -> None:
    """Several processes share the tables only through PostgreSQL (SQLite has one writer and
    lives on one disk) and Redis (leases' owners talk, frames fan out): exit 2 naming what is
    missing."""
    missing = []
    if settings.is_sqlite:
        missing.append("a PostgreSQL database (--database-url or KOZYR_DATABASE_URL)")
    if not settings.redis_url:
        missing.append("Redis (KOZYR_REDIS_URL)")
    if missing:
        typer.echo(
            f"error: --workers {workers} needs " + " and ".join(missing) + "; "
            "without them run one process (--workers 1)",
            err=True,
        )
        raise typer.Exit(2)


def shown_url(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        netloc = parts.netloc.replace(":" + parts.password + "@", ":***@", 1)
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return url


def check_redis(url: str, timeout: float = 3.0) -> None:
    """A PING before anything starts: without Redis no process can share its tables, so
    the server does not start at all (exit 2, the URL and the reason; no traceback)."""
    import redis
    import redis.exceptions

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.exceptions.RedisError, ValueError, OSError) as e:
        typer.echo(
            f"error: cannot reach Redis at {shown_url(url)} (KOZYR_REDIS_URL): {e}", err=True
        )
        raise typer.Exit(2) from e


def serve_workers(settings: Settings, host: str, port: int, workers: int) -> None:
    """uvicorn's supervisor: it binds the port once, spawns ``workers`` processes that each
    build the app with ``worker_app`` from the environment, and replaces any that dies."""
    import uvicorn

    from kozyr.server.storage.store import Store

    # the spawned workers read their settings from the environment, as ``Settings()`` does
    os.environ["KOZYR_DATA"] = str(settings.data)
    os.environ["KOZYR_DATABASE_URL"] = settings.url
    assert settings.redis_url is not None
    os.environ["KOZYR_REDIS_URL"] = settings.redis_url

    async def migrate() -> None:
        store = Store(settings.url)
        try:
            await store.migrate()
        finally:
            await store.close()

    # once here, not in N workers at the same moment (concurrent DDL on one database fails)
    asyncio.run(migrate())
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    print(f"kozyr server: {workers} processes on http://{shown}:{port}/", flush=True)
    options = uvicorn_options(settings)
    options["http"] = WORKER_HTTP
    # the supervisor kills a worker that does not answer its ping in this many seconds; 5 (its
    # default) killed workers still starting on a busy machine, again and again
    options["timeout_worker_healthcheck"] = 30
    uvicorn.run(WORKER_APP, factory=True, workers=workers, host=host, port=port, **options)


def worker_app() -> FastAPI:
    """The app of one ``--workers`` process, its settings from the environment."""
    from kozyr.server.app import create_app

    configure_logging()  # a spawned process starts with none of the parent's
    pid = os.getpid()
    base = os.environ.get("KOZYR_NODE_ID")
    if base:
        # one node id per process: the processes of one machine must not share leases
        os.environ["KOZYR_NODE_ID"] = f"{base}-{pid}"
    app = create_app(Settings())

    def ready(restored: int) -> None:
        print(f"kozyr server process {pid} ready ({restored} tables restored)", flush=True)

    app.state.server.on_ready = ready
    return app


def __getattr__(name: str) -> Any:
    # uvicorn sends its settings to each worker process by pickling them, and a class made at
    # run time (``guarded_protocol``) cannot be pickled: the workers import it by this name
    if name == "WorkerHttpProtocol":
        from kozyr.server.transport.httpguard import guarded_protocol

        return guarded_protocol(Settings().header_timeout)
    raise AttributeError(name)


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """How uvicorn is run: limits against clients that hold connections open
    (``docs/deploy.md`` has the proxy's side)."""
    from kozyr.server.transport.httpguard import guarded_protocol

    options: dict[str, Any] = {
        # closes connections whose request headers do not all arrive in time
        "http": guarded_protocol(settings.header_timeout),
        # idle kept-alive connections are closed after this many seconds
        "timeout_keep_alive": 5,
        # past this many connections and tasks, new requests get 503 at once
        "limit_concurrency": settings.max_connections,
        # the h11 parser's cap on a request line and headers (httptools has its own)
        "h11_max_incomplete_event_size": 16 * 1024,
        "backlog": 2048,
        "ws_max_size": 1024 * 1024,
        # compressing costs CPU for every frame and every connection (docs/protocol.md)
        "ws_per_message_deflate": settings.ws_deflate,
        "ws_ping_interval": 20,
        "ws_ping_timeout": 20,
        "access_log": False,
        "log_level": "warning",
        "lifespan": "on",
        # X-Forwarded-For/-Proto only from the proxies named; none by default, so that a
        # client cannot choose the address the throttles count it by
        "proxy_headers": settings.forwarded_allow_ips is not None,
        "forwarded_allow_ips": settings.forwarded_allow_ips,
    }
    return options
