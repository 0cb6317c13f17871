"""``kozyr serve``: migrate the database, restore unfinished tables, serve."""

from __future__ import annotations

import logging
import socket
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from kozyr.server.config import Settings


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
    settings = Settings()
    if data is not None:
        settings.data = data
    if database_url is not None:
        settings.database_url = database_url
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("alembic").setLevel(logging.WARNING)
    import uvicorn

    from kozyr.server.app import create_app

    app = create_app(settings)
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    where = "SQLite in " + str(settings.data.resolve()) if settings.is_sqlite else "PostgreSQL"

    def ready(restored: int) -> None:
        print(f"kozyr server ready: open http://{shown}:{port}/", flush=True)
        print(f"database: {where}; {restored} unfinished tables restored", flush=True)
        sys.stdout.flush()

    app.state.server.on_ready = ready
    uvicorn.run(app, host=host, port=port, **uvicorn_options(settings))


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """How uvicorn is run: limits against clients that hold connections open
    (``docs/deploy.md`` has the proxy's side)."""
    from kozyr.server.httpguard import guarded_protocol

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
