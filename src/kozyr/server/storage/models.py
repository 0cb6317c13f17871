"""The database schema (SQLAlchemy Core); migrations live in ``kozyr/server/storage/migrations``.

Times are integer milliseconds since the epoch, so both SQLite and PostgreSQL store them
the same way. JSON columns are text written with ``json.dumps``.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    Column("name_key", String(40), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=True),
    Column("guest", Boolean, nullable=False, default=False),
    Column("created_ms", BigInteger, nullable=False),
    # the name's confusable skeleton (look-alikes share it); NULL for rows before 0002
    Column("name_skeleton", String(200), nullable=True),
    # set when the account was deleted (0011): the row stays for its games, the name goes
    Column("deleted_ms", BigInteger, nullable=True),
    Index("ix_users_name_skeleton", "name_skeleton"),
)

sessions = Table(
    "sessions",
    metadata,
    # sha256 of the token: a leaked database does not give working tokens
    Column("token_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
)

game_tables = Table(
    "game_tables",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    # the 256-bit secret seed in hex and its dealing scheme; NULL: a legacy small seed
    Column("seed_hex", String(64), nullable=True),
    Column("dealing", String(32), nullable=True),
    Column("first_dealer", Integer, nullable=True),
    Column("join_order", Text, nullable=True),
    Column("seats", Text, nullable=False),
    Column("private", Boolean, nullable=False, default=False),
    Column("invite_code", String(32), nullable=True),
    Column("creator_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("status", String(16), nullable=False),
    Column("turn_timeout", Float, nullable=True),
    Column("result", Text, nullable=True),
    Column("created_ms", BigInteger, nullable=False),
    Column("started_ms", BigInteger, nullable=True),
    Column("finished_ms", BigInteger, nullable=True),
    # a rated game moves its players' ratings when it ends (0011)
    Column("rated", Boolean, nullable=False, default=False, server_default=false()),
    # stake terms {"kind", "chips"} as JSON; NULL: no stakes (0010)
    Column("stake", Text, nullable=True),
    # a casual table whose players may ask for hints (0014)
    Column("hints", Boolean, nullable=False, default=False, server_default=false()),
    # cluster mode: the client address that created the table, while it is unfinished, so
    # that every process counts the open tables per address (0016); NULL otherwise
    Column("creator_address", String(64), nullable=True),
    # a rated game that moved no rating, and why: aborted, shared_address, new_account
    # (kozyr.server.accounts.ratings, 0018); NULL: it moved them (or it is casual, or unfinished)
    Column("unrated", String(16), nullable=True),
    Index("ix_game_tables_status", "status"),
    Index("ix_game_tables_creator", "creator_id"),
    Index("ix_game_tables_creator_address", "creator_address"),
)

table_players = Table(
    "table_players",
    metadata,
    Column("table_id", String(16), ForeignKey("game_tables.id"), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Index("ix_table_players_user", "user_id"),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(16), ForeignKey("game_tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("actor", String(64), nullable=False),
    Column("action_text", String(32), nullable=False),
    Column("client_action_id", String(64), nullable=True),
    Column("created_ms", BigInteger, nullable=False),
    # the same client action id is applied once (NULL for bots: never equal)
    UniqueConstraint("table_id", "seat", "client_action_id", name="uq_actions_client_id"),
)


# -- the chip ledger (kozyr.server.money.ledger, B5) ----------------------------------------

ledger_accounts = Table(
    "ledger_accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # user:7 (wallet), table:<id>:escrow, table:<id>:market:<m>, house
    Column("key", String(120), nullable=False, unique=True),
    Column("kind", String(16), nullable=False),
    # the sum of the account's entries, kept in the same transaction as they are written
    Column("balance", BigInteger, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    CheckConstraint("kind = 'house' OR balance >= 0", name="ck_ledger_accounts_not_negative"),
)

ledger_transactions = Table(
    "ledger_transactions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # the idempotency key: one movement per key, ever
    Column("key", String(200), nullable=False, unique=True),
    Column("kind", String(32), nullable=False),
    # sha256 of the movement's content: a replayed key must carry the same content
    Column("digest", String(64), nullable=False),
    Column("memo", Text, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
)

ledger_entries = Table(
    "ledger_entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tx_id", Integer, ForeignKey("ledger_transactions.id"), nullable=False),
    Column("account_id", Integer, ForeignKey("ledger_accounts.id"), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("balance_after", BigInteger, nullable=False),
    CheckConstraint("amount <> 0", name="ck_ledger_entries_amount"),
    Index("ix_ledger_entries_account", "account_id", "id"),
    Index("ix_ledger_entries_tx", "tx_id"),
)


# -- table ownership across server processes (kozyr.server.storage.leases) -------------------

table_leases = Table(
    "table_leases",
    metadata,
    Column("table_id", String(16), primary_key=True),
    # the process that owns the table's game right now (e.g. "host:pid:boot")
    Column("owner", String(120), nullable=False),
    # the fencing token: +1 at every change of owner, checked by every commit
    Column("token", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
)


# -- ratings (kozyr.server.accounts.ratings, docs/ratings.md) ------------------------------------

ratings = Table(
    "ratings",
    metadata,
    # user:7 (a person) or bot:3 (a bot level)
    Column("player", String(40), primary_key=True),
    # imperial-2p, emperor-4p, ...
    Column("variant", String(40), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=True),
    Column("bot", Integer, nullable=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("last_ms", BigInteger, nullable=False),
    Index("ix_ratings_variant", "variant", "last_ms"),
)

rating_changes = Table(
    "rating_changes",
    metadata,
    # the order of the live updates: rebuild replays games in this order within a ms
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(16), ForeignKey("game_tables.id"), nullable=False),
    Column("player", String(40), nullable=False),
    Column("variant", String(40), nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at_ms", BigInteger, nullable=False),
    # a player (two bots of one level) is updated once per game
    UniqueConstraint("table_id", "player", name="uq_rating_changes_table_player"),
    Index("ix_rating_changes_player", "player", "variant", "id"),
)


# -- wallets (kozyr.server.money.wallets, docs/chips.md) -----------------------------------

wallet_top_ups = Table(
    "wallet_top_ups",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    # the UTC day (YYYY-MM-DD): one top-up per person and day, enforced by the key
    Column("day", String(10), primary_key=True),
    Column("client_key", String(200), nullable=False),
    Column("tx_id", Integer, ForeignKey("ledger_transactions.id"), nullable=False),
    Column("amount", BigInteger, nullable=False),
    UniqueConstraint("user_id", "client_key", name="uq_wallet_top_ups_key"),
)


# -- spectators' bets (kozyr.server.money.betting, B4) ---------------------------------------

bets = Table(
    "bets",
    metadata,
    # ids grow with time: within a table (bets are taken under its lock) a smaller id is
    # an earlier bet, which is what the pari-mutuel tie-break needs
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(16), ForeignKey("game_tables.id"), nullable=False),
    Column("market_id", String(64), nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("outcome", String(32), nullable=False),
    Column("chips", BigInteger, nullable=False),
    # the number of the table's actions committed when the bet was taken
    Column("seq", Integer, nullable=False),
    # the client's idempotency key: a retry finds the bet it already made
    Column("key", String(100), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    CheckConstraint("chips >= 1", name="ck_bets_chips"),
    UniqueConstraint("user_id", "key", name="uq_bets_user_key"),
    Index("ix_bets_table_market", "table_id", "market_id"),
)


# -- post-game reviews (kozyr.server.reviews.jobs, docs/review.md) --------------------------

game_reviews = Table(
    "game_reviews",
    metadata,
    Column("table_id", String(16), ForeignKey("game_tables.id"), primary_key=True),
    # the review level (1-5): a game may have one review at each level
    Column("level", Integer, primary_key=True, autoincrement=False),
    # kozyr.review.Review.to_json() plus "level", as JSON text
    Column("review", Text, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
)

review_jobs = Table(
    "review_jobs",
    metadata,
    # a review asked for and not yet stored, seen by every server process (cluster mode):
    # queued or running under an owner that keeps heartbeat_ms fresh, or failed
    Column("table_id", String(16), ForeignKey("game_tables.id"), primary_key=True),
    Column("level", Integer, primary_key=True, autoincrement=False),
    # who asked (one review queued or running per user); no foreign key: guests go
    Column("user_id", Integer, nullable=False, index=True),
    Column("status", String(10), nullable=False),
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("error", String(40), nullable=True),
    # the node running it and a fencing token raised at every take-over: a process that
    # lost its review (stopped too long) can no longer write it
    Column("owner", String(120), nullable=False),
    Column("token", BigInteger, nullable=False),
    Column("heartbeat_ms", BigInteger, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
)

review_parts = Table(
    "review_parts",
    metadata,
    # the decisions a review under way has made so far, saved as it goes (fenced by its
    # job's token), so that a process taking the review over resumes after the last one
    Column("table_id", String(16), ForeignKey("game_tables.id"), primary_key=True),
    Column("level", Integer, primary_key=True, autoincrement=False),
    Column("idx", Integer, primary_key=True, autoincrement=False),
    Column("decision", Text, nullable=False),
)


# -- learning (#29, kozyr.games.lessons, docs/lessons.md) -----------------------------------

lesson_progress = Table(
    "lesson_progress",
    metadata,
    # one row per lesson a signed-in player has finished (check passed); guests keep theirs
    # in the browser
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("lesson", String(40), primary_key=True),
    Column("done_ms", BigInteger, nullable=False),
)


# -- puzzles from real deals (#29, kozyr.server.reviews.puzzle_book, docs/puzzles.md) -------

puzzles = Table(
    "puzzles",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # one puzzle per position, ever: table:<id>:<action index> or bot:<variant>:<seed>:<index>
    Column("key", String(120), nullable=False, unique=True),
    Column("game", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    # "server" (a finished table, table_id) or "bot" (a seeded bot game, bot_seed)
    Column("source", String(8), nullable=False),
    Column("table_id", String(16), ForeignKey("game_tables.id"), nullable=True),
    Column("bot_seed", Integer, nullable=True),
    # a record (kozyr-record/1) up to the position: options, start, the deals dealt so far,
    # the actions before it; never sent: the page gets the solver seat's observation only
    Column("position", Text, nullable=False),
    Column("action_index", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("best", String(8), nullable=False),
    # the card the seat played in the game
    Column("played", String(8), nullable=False),
    # [[card, value], ...] best first, in the game's review unit (points, tricks)
    Column("card_values", Text, nullable=False),
    # the best card's value minus the second best's
    Column("margin", Float, nullable=False),
    Column("worlds", Integer, nullable=False),
    # the puzzle's own rating (openskill), moved by every person's first attempt
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Index("ix_puzzles_game_mu", "game", "mu"),
)

puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("puzzle_id", Integer, ForeignKey("puzzles.id"), nullable=False),
    # 1 for a person's first attempt at a puzzle (the rated one), 2, 3 ... after it
    Column("number", Integer, nullable=False),
    Column("card", String(8), nullable=False),
    Column("solved", Boolean, nullable=False),
    # the shown puzzle rating before and after (first attempts only)
    Column("rating_before", Integer, nullable=True),
    Column("rating_after", Integer, nullable=True),
    Column("created_ms", BigInteger, nullable=False),
    UniqueConstraint("user_id", "puzzle_id", "number", name="uq_puzzle_attempts_number"),
    Index("ix_puzzle_attempts_user", "user_id", "id"),
)

puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("user_id", Integer, ForeignKey("users.id"), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("last_ms", BigInteger, nullable=False),
)

puzzle_served = Table(
    "puzzle_served",
    metadata,
    # a person was shown this puzzle (GET of it, the daily one or the next one): only then
    # may he answer it (#43); removed with the person
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("puzzle_id", Integer, ForeignKey("puzzles.id"), primary_key=True),
    Column("served_ms", BigInteger, nullable=False),
)

puzzle_days = Table(
    "puzzle_days",
    metadata,
    # the UTC day (YYYY-MM-DD) and its puzzle, chosen by the first request of the day
    Column("day", String(10), primary_key=True),
    Column("puzzle_id", Integer, ForeignKey("puzzles.id"), nullable=False),
)

puzzle_sources = Table(
    "puzzle_sources",
    metadata,
    # a game read by `kozyr puzzles build` (table:<id>, bot:<variant>:<seed>): read once
    Column("key", String(120), primary_key=True),
    Column("game", String(16), nullable=False),
    Column("positions", Integer, nullable=False),
    Column("found", Integer, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
)


# -- friends, blocks and challenges (#44, kozyr.server.friends, docs/protocol.md) ----------

follows = Table(
    "follows",
    metadata,
    # removed with either person (an account deleted for good)
    Column("follower_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("followee_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("created_ms", BigInteger, nullable=False),
)

blocks = Table(
    "blocks",
    metadata,
    Column("blocker_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("blocked_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("created_ms", BigInteger, nullable=False),
    Index("ix_blocks_blocked", "blocked_id"),
)

challenges = Table(
    "challenges",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("from_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("to_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("game", String(16), nullable=False),
    # the table's full options (JSON), its stake terms (JSON, or NULL: no stake) and the
    # levels of the bots in the seats after the two people's (JSON list; null: left open)
    Column("options", Text, nullable=False),
    Column("stake", Text, nullable=True),
    Column("bots", Text, nullable=False),
    Column("private", Boolean, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False),
    # open | accepted | declined | expired | cancelled
    Column("state", String(12), nullable=False),
    Column("table_id", String(16), nullable=True),
    Index("ix_challenges_from", "from_id", "state"),
    Index("ix_challenges_to", "to_id", "state"),
)

table_talk = Table(
    "table_talk",
    metadata,
    # a line of table talk (#44): free text (cleaned, at most 200 characters) or a quick
    # phrase's code; said on a channel (players or spectators) at the table's seq
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(16), ForeignKey("game_tables.id"), nullable=False),
    Column("seq_at", Integer, nullable=False),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("channel", String(16), nullable=False),
    Column("text", String(400), nullable=True),
    Column("phrase", String(16), nullable=True),
    Column("at_ms", BigInteger, nullable=False),
    Index("ix_table_talk_table", "table_id", "id"),
)

talk_reports = Table(
    "talk_reports",
    metadata,
    # a person's report of a line of talk, with the line and the 10 before it on its
    # channel as they were (JSON), for the operator; one per person and line
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("message_id", Integer, ForeignKey("table_talk.id"), nullable=False),
    Column("reporter_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("reason", String(400), nullable=True),
    Column("context", Text, nullable=False),
    Column("at_ms", BigInteger, nullable=False),
    UniqueConstraint("message_id", "reporter_id", name="uq_talk_reports_once"),
)
