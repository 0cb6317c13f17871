"""Server settings: command-line flags first, then ``KOZYR_*`` environment variables."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DATA = "kozyr-data"


def _float_env(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError as e:
        raise ValueError(f"{name} must be a number, not {raw!r}") from e


def _int_env(name: str, default: int) -> int:
    return int(_float_env(name, float(default)))


def sqlite_url(data: Path) -> str:
    return f"sqlite+aiosqlite:///{(data / 'kozyr.db').resolve()}"


def normalise_database_url(url: str) -> str:
    """Accepts ``postgresql://`` and ``postgres://`` URLs and picks the async drivers."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    if url.startswith("sqlite:///"):
        return "sqlite+aiosqlite:///" + url[len("sqlite:///") :]
    return url


@dataclass
class Settings:
    """Everything the server can be tuned with (all have working defaults)."""

    data: Path = field(default_factory=lambda: Path(os.environ.get("KOZYR_DATA", DEFAULT_DATA)))
    database_url: str | None = field(default_factory=lambda: os.environ.get("KOZYR_DATABASE_URL"))
    redis_url: str | None = field(default_factory=lambda: os.environ.get("KOZYR_REDIS_URL"))
    turn_timeout: float = field(default_factory=lambda: _float_env("KOZYR_TURN_TIMEOUT", 60.0))
    """Default seconds a person has for a move (a table option overrides it)."""
    grace: float = field(default_factory=lambda: _float_env("KOZYR_GRACE", 30.0))
    """Seconds a disconnected person keeps the seat before a bot plays for him."""
    bot_delay: float = field(default_factory=lambda: _float_env("KOZYR_BOT_DELAY", 0.6))
    """Seconds a bot waits before its move, so that people can follow the game."""
    bot_budget: float = field(default_factory=lambda: _float_env("KOZYR_BOT_BUDGET", 0.0))
    """A cap on the seconds a bot may think per move; 0 lets each level use its own."""
    bot_kind: str | None = field(default_factory=lambda: os.environ.get("KOZYR_BOT_KIND") or None)
    """Play every bot seat with this registry kind (e.g. ``random`` for tests and benches)."""
    table_seed: str | None = field(
        default_factory=lambda: os.environ.get("KOZYR_TABLE_SEED") or None
    )
    """For tests and demonstrations: table seeds derive from this, the game, the player
    count, the options and how many such tables came before, so the deals repeat from run
    to run (B2). Unset (the default), every table gets a fresh random seed."""
    max_frame: int = 64 * 1024
    flood_frames: int = field(default_factory=lambda: _int_env("KOZYR_FLOOD_FRAMES", 50))
    """Frames a connection may send in any one second before it is closed (1008)."""
    allowed_origins: tuple[str, ...] = field(
        default_factory=lambda: tuple(
            o.strip() for o in os.environ.get("KOZYR_ALLOWED_ORIGINS", "").split(",") if o.strip()
        )
    )
    secure_cookies: bool = field(
        default_factory=lambda: os.environ.get("KOZYR_SECURE_COOKIES", "") in ("1", "true")
    )
    session_days: int = 30
    socket_buffer: int = field(default_factory=lambda: _int_env("KOZYR_SOCKET_BUFFER", 1024 * 1024))
    """Bytes of frames a connection may have waiting to be written before it is closed
    (1013): a client that does not read cannot make the server hold more for it."""
    write_timeout: float = field(default_factory=lambda: _float_env("KOZYR_WRITE_TIMEOUT", 10.0))
    """Seconds one frame (or the close) may take to be written; a peer that takes longer
    is cut off (1013) and its memory freed."""
    max_sockets_per_account: int = field(
        default_factory=lambda: _int_env("KOZYR_MAX_SOCKETS_PER_ACCOUNT", 8)
    )
    """Open WebSockets one account may have at once; the next is refused (1008)."""
    max_sockets_per_address: int = field(
        default_factory=lambda: _int_env("KOZYR_MAX_SOCKETS_PER_ADDRESS", 32)
    )
    """Open WebSockets one client address may have at once; the next is refused (1008)."""
    account_frames: float = field(default_factory=lambda: _float_env("KOZYR_ACCOUNT_FRAMES", 60))
    """Frames per second one account may send summed over all its connections (a burst of
    as many is allowed); past it the sending connection is closed (1008)."""
    ws_deflate: bool = field(
        default_factory=lambda: os.environ.get("KOZYR_WS_DEFLATE", "") in ("1", "true")
    )
    """Compress WebSocket frames (permessage-deflate). Off by default: each connection
    compresses every frame anew, which was the largest part of a spectator's CPU cost."""

    @property
    def url(self) -> str:
        if self.database_url:
            return normalise_database_url(self.database_url)
        return sqlite_url(self.data)

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")
