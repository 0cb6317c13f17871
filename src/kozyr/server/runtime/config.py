"""Server settings: command-line flags first, then ``KOZYR_*`` environment variables."""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from kozyr.server.runtime.bus import DEFAULT_TIMEOUT as DEFAULT_REDIS_TIMEOUT

DEFAULT_DATA = "kozyr-data"


def _float_env(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError as e:
        raise ValueError(f"{name} must be a number, not {raw!r}") from e


def _positive_env(name: str, default: float) -> float:
    value = _float_env(name, default)
    if not value > 0:
        raise ValueError(f"{name} must be a number of seconds above 0, not {value!r}")
    return value


def _int_env(name: str, default: int) -> int:
    return int(_float_env(name, float(default)))


def _ranged_env(name: str, default: float, low: float, high: float) -> float:
    """A number that must lie in [``low``, ``high``]: a setting out of range stops the
    start with a message, rather than running with a value nobody meant."""
    value = _float_env(name, default)
    if not low <= value <= high:
        raise ValueError(f"{name} must be from {low:g} to {high:g}, not {value!r}")
    return value


def _count_env(name: str, default: int, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``."""
    value = _float_env(name, float(default))
    if not (value.is_integer() and low <= value <= high):
        raise ValueError(f"{name} must be a whole number from {low} to {high}, not {value!r}")
    return int(value)


def _flag_env(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _list_env(name: str, default: str = "") -> tuple[str, ...]:
    raw = os.environ.get(name)
    if raw is None:
        raw = default
    return tuple(item.strip() for item in raw.split(",") if item.strip())


def _gc_threshold_env(name: str) -> tuple[int, int, int]:
    from kozyr.server.runtime.gctune import DEFAULT, parse_threshold

    raw = os.environ.get(name)
    return DEFAULT if raw is None or raw == "" else parse_threshold(raw)


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
    redis_url: str | None = field(default_factory=lambda: os.environ.get("KOZYR_REDIS_URL") or None)
    """Cluster mode: several processes share the database and this Redis (tables owned
    under leases, intents forwarded to the owner, frames relayed; docs/deploy.md)."""
    node_id: str = field(
        default_factory=lambda: os.environ.get("KOZYR_NODE_ID") or uuid.uuid4().hex
    )
    """This process's name in the cluster (a fresh one at every start unless set)."""
    lease_ttl_ms: int = field(default_factory=lambda: _int_env("KOZYR_LEASE_TTL_MS", 3000))
    """How long a table's lease lasts unrenewed: a dead owner's tables are taken over
    after at most this plus one sweep."""
    rpc_timeout: float = field(default_factory=lambda: _float_env("KOZYR_RPC_TIMEOUT", 2.0))
    """Seconds a forwarded request waits for the owner's answer before the lease is
    checked (a dead owner's table is then taken over)."""
    redis_timeout: float = field(
        default_factory=lambda: _positive_env("KOZYR_REDIS_TIMEOUT", DEFAULT_REDIS_TIMEOUT)
    )
    """Seconds Redis may leave a PING (or a publish) unanswered before this process
    counts it as lost, as if its connection had been reset (a stopped Redis, a network
    that drops the packets)."""
    sweep_seconds: float = field(default_factory=lambda: _float_env("KOZYR_SWEEP_SECONDS", 1.0))
    """How often each process looks for tables whose owner's lease has expired."""
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
    finished_linger: float = field(
        default_factory=lambda: _float_env("KOZYR_FINISHED_LINGER", 30.0)
    )
    """Seconds a finished table stays in memory for its last frames; then the database
    serves it."""
    max_open_tables: int = field(default_factory=lambda: _int_env("KOZYR_MAX_OPEN_TABLES", 5))
    """Unfinished tables one account may have created at once (0: no limit)."""
    max_open_tables_per_address: int = field(
        default_factory=lambda: _int_env("KOZYR_MAX_OPEN_TABLES_PER_ADDRESS", 20)
    )
    """Unfinished tables created from one client address at once (0: no limit)."""
    max_bot_tables: int = field(default_factory=lambda: _int_env("KOZYR_MAX_BOT_TABLES", 2))
    """Unfinished tables of bots alone (no person seated) one account may have (0: no
    limit); such a table plays only while a connection watches it (docs/deploy.md)."""
    max_bot_tables_total: int = field(
        default_factory=lambda: _int_env("KOZYR_MAX_BOT_TABLES_TOTAL", 50)
    )
    """Unfinished tables of bots alone on the whole server (every process; 0: no limit)."""
    max_bot_tables_per_address: int = field(
        default_factory=lambda: _count_env("KOZYR_MAX_BOT_TABLES_PER_ADDRESS", 6, 0, 1000)
    )
    """Unfinished tables of bots alone created from one client address (an IPv6 address
    counts by its /64, ``transport.addresses``) at once (0: no limit): guests are cheap to
    make, so the account's limit alone let a few addresses fill the server's."""
    bot_table_idle: float = field(
        default_factory=lambda: _ranged_env("KOZYR_BOT_TABLE_IDLE", 300.0, 10.0, 86_400.0)
    )
    """Seconds a table of bots alone may go without a watcher before it ends (its slot
    freed, open bets refunded; ``tables.idle_bots``)."""
    bot_alone_threads: int = field(
        default_factory=lambda: _count_env("KOZYR_BOT_ALONE_THREADS", 1, 1, 8)
    )
    """Threads the bots of tables of bots alone think in, apart from the bots of tables
    where a person sits: however many such tables are watched, they take no more."""
    bot_alone_share: float = field(
        default_factory=lambda: _ranged_env("KOZYR_BOT_ALONE_SHARE", 0.25, 0.05, 1.0)
    )
    """The share of the time those threads may think (``tables.bot_pools.PacedPool``): they
    rest between decisions, so that the event loop gets the interpreter's lock."""
    max_frame: int = 64 * 1024
    flood_frames: int = field(default_factory=lambda: _int_env("KOZYR_FLOOD_FRAMES", 50))
    """Frames a connection may send in any one second before it is closed (1008)."""
    allowed_origins: tuple[str, ...] = field(
        default_factory=lambda: _list_env("KOZYR_ALLOWED_ORIGINS")
    )
    """Exact extra origins (``scheme://host[:port]``) allowed besides the allowed hosts'."""
    allowed_hosts: tuple[str, ...] = field(
        default_factory=lambda: _list_env("KOZYR_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
    )
    """Host names (any port) this server answers to; ``*`` answers to any (DNS rebinding
    protection off: only behind a proxy that checks the Host itself)."""
    secure_cookies: bool = field(default_factory=lambda: _flag_env("KOZYR_SECURE_COOKIES"))
    https: bool = field(default_factory=lambda: _flag_env("KOZYR_HTTPS"))
    """The page is served over HTTPS (by a proxy in front): browser origins are then
    ``https://``. ``KOZYR_SECURE_COOKIES=1`` implies it."""
    api_docs: bool = field(default_factory=lambda: _flag_env("KOZYR_API_DOCS"))
    """Serve the OpenAPI schema at ``/api/openapi.json`` (off by default)."""
    login_limit: int = field(default_factory=lambda: _int_env("KOZYR_LOGIN_LIMIT", 10))
    """Login attempts per client address in any ``login_window`` seconds (per name over every
    address: ``throttle.NAME_SHARE`` times this)."""
    login_window: float = 60.0
    review_queue: int = field(default_factory=lambda: _count_env("KOZYR_REVIEW_QUEUE", 20, 1, 1000))
    """Reviews that may wait for a free reviewer in one server process (1-1000); one more
    is refused with 503 ``review_queue_full`` until one starts."""
    account_limit: int = field(default_factory=lambda: _int_env("KOZYR_ACCOUNT_LIMIT", 20))
    """New accounts with a name and a password (registrations, and guests turned into
    accounts) per client address in any ``account_window``."""
    guest_limit: int = field(default_factory=lambda: _int_env("KOZYR_GUEST_LIMIT", 200))
    """New guests per client address in any ``account_window``: an allowance of their own,
    larger than ``account_limit``, so that a café or a school behind one address can play
    as guests, and bounded, so that guests cannot be minted without end."""
    account_window: float = 3600.0
    puzzle_answer_limit: int = field(
        default_factory=lambda: _count_env("KOZYR_PUZZLE_ANSWER_LIMIT", 20, 1, 10_000)
    )
    """Puzzle answers per person in any minute (an address: ten times as many), then 429
    ``too_many_answers``."""
    invite_guess_limit: int = field(
        default_factory=lambda: _count_env("KOZYR_INVITE_GUESS_LIMIT", 30, 1, 100_000)
    )
    """Wrong invite codes per client address, and per person, in any 10 minutes, then 429
    ``too_many_invite_guesses``."""
    challenge_ttl: float = field(
        default_factory=lambda: _ranged_env("KOZYR_CHALLENGE_TTL", 300.0, 10.0, 86_400.0)
    )
    """Seconds a challenge waits for its answer before it expires (#44): 10 to 86,400."""
    upload_limit: int = field(default_factory=lambda: _count_env("KOZYR_UPLOAD_LIMIT", 10, 1, 1000))
    """Uploaded records (``POST /api/replay`` and ``/api/verify`` together) one signed-in
    person may send in any ``upload_window``."""
    upload_address_limit: int = field(
        default_factory=lambda: _count_env("KOZYR_UPLOAD_ADDRESS_LIMIT", 30, 1, 100_000)
    )
    """Uploaded records from one client address in any ``upload_window``, signed in or not."""
    upload_window: float = 60.0
    hint_limit: int = field(default_factory=lambda: _count_env("KOZYR_HINT_LIMIT", 12, 1, 600))
    """Hints worked out for one person in any ``hint_window`` (a hint asked for again
    at the same decision is answered from the first and costs nothing)."""
    hint_window: float = 60.0
    hint_seconds: float = field(
        default_factory=lambda: _ranged_env("KOZYR_HINT_SECONDS", 0.5, 0.05, 5.0)
    )
    """About how long one hint searches (``tables.hints``)."""
    max_body: int = 64 * 1024
    body_timeout: float = field(default_factory=lambda: _float_env("KOZYR_BODY_TIMEOUT", 10.0))
    """Seconds a client may take to send a request body (then 408)."""
    header_timeout: float = field(default_factory=lambda: _float_env("KOZYR_HEADER_TIMEOUT", 10.0))
    """Seconds a client may take to send a request's headers before the connection is
    closed (uvicorn has no such timeout of its own)."""
    max_connections: int = field(default_factory=lambda: _int_env("KOZYR_MAX_CONNECTIONS", 1000))
    """uvicorn's ``limit_concurrency``: past this many open connections and tasks, new
    requests get 503 at once instead of queueing."""
    forwarded_allow_ips: str | None = field(
        default_factory=lambda: os.environ.get("KOZYR_FORWARDED_ALLOW_IPS") or None
    )
    """Proxy addresses whose X-Forwarded-For/-Proto are believed (the client address the
    throttles count by). Unset: none, so a client cannot pick its own address."""
    rating_min_moves: int = field(default_factory=lambda: _int_env("KOZYR_RATING_MIN_MOVES", 2))
    """A rated game someone left (a bot played his seat) before this many moves of his
    own is aborted: no rating moves (docs/ratings.md; 0: none is)."""
    rating_new_games: int = field(default_factory=lambda: _int_env("KOZYR_RATING_NEW_GAMES", 3))
    rating_new_days: float = field(default_factory=lambda: _float_env("KOZYR_RATING_NEW_DAYS", 3.0))
    """An account rates once it is this many days old or has finished this many games;
    until then its rated games move nobody's rating (0 in either: every account rates)."""
    rating_shared_address: bool = field(
        default_factory=lambda: _flag_env("KOZYR_RATING_SHARED_ADDRESS")
    )
    """People who sat down from one client address rate each other all the same (off by
    default: such a game moves no rating)."""
    session_days: int = 30
    guest_ttl_days: float = field(default_factory=lambda: _float_env("KOZYR_GUEST_TTL_DAYS", 30))
    """Guest accounts unused for this many days are retired by a periodic job
    (``kozyr.server.guests``)."""
    guest_sweep_seconds: float = field(
        default_factory=lambda: _float_env("KOZYR_GUEST_SWEEP_SECONDS", 3600)
    )
    """How often that job runs (and once at start)."""
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

    gc_threshold: tuple[int, int, int] = field(
        default_factory=lambda: _gc_threshold_env("KOZYR_GC_THRESHOLD")
    )
    """The garbage collector's thresholds for the server process (``gctune``);
    ``default`` keeps Python's own."""

    @property
    def cluster(self) -> bool:
        """Several processes over one database and one Redis (``KOZYR_REDIS_URL``)."""
        return bool(self.redis_url)

    @property
    def scheme(self) -> str:
        """The scheme of this server's own pages, as browsers see it."""
        return "https" if self.https or self.secure_cookies else "http"

    @property
    def url(self) -> str:
        if self.database_url:
            return normalise_database_url(self.database_url)
        return sqlite_url(self.data)

    @property
    def is_sqlite(self) -> bool:
        return self.url.startswith("sqlite")
