"""The WebSocket protocol's vocabulary: version, frame types, error codes and messages,
and the per-connection outgoing queue (see ``docs/protocol.md``)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import orjson

from kozyr.cards import CardError
from kozyr.games.base import IllegalAction
from kozyr.server.storage.store import User

VERSION = 1

_SURROGATE = re.compile("[\ud800-\udfff]")

# Client -> server frame types
CLIENT_TYPES = ("hello", "action", "back", "unwatch", "lobby", "ping")

ERRORS: dict[str, tuple[str, str]] = {
    "bad_json": ("The frame is not valid JSON.", "Кадр не является корректным JSON."),
    "bad_frame": ("The frame is not a valid message.", "Кадр не является корректным сообщением."),
    "too_large": ("The frame is larger than 64 KB.", "Кадр больше 64 КБ."),
    "unknown_type": ("Unknown message type.", "Неизвестный тип сообщения."),
    "bad_version": ("Unsupported protocol version.", "Неподдерживаемая версия протокола."),
    "no_table": ("No such table.", "Такого стола нет."),
    "moved": (
        "This table is now run by another server process; reconnect to resume.",
        "Этот стол теперь ведёт другой процесс сервера; переподключитесь, чтобы продолжить.",
    ),
    "cluster_unavailable": (
        "The server processes cannot reach each other (Redis is unavailable); reconnect.",
        "Процессы сервера не могут связаться друг с другом (Redis недоступен); переподключитесь.",
    ),
    "not_watching": (
        "Send a hello for this table first.",
        "Сначала отправьте hello для этого стола.",
    ),
    "not_seated": ("You do not hold a seat at this table.", "Вы не сидите за этим столом."),
    "not_started": ("The game has not started yet.", "Игра ещё не началась."),
    "game_over": ("The game is over.", "Игра окончена."),
    "not_your_turn": ("It is not your turn.", "Сейчас не ваш ход."),
    "illegal_action": ("That move is not allowed here.", "Этот ход здесь не разрешён."),
    "busy": ("The server could not save the move; try again.", "Сервер не смог сохранить ход."),
    "stopping": (
        "The server is restarting and takes no moves; reconnect in a moment and play again.",
        "Сервер перезапускается и не принимает ходы; переподключитесь чуть позже и сходите снова.",
    ),
    # Lobby and accounts: the English text may be more precise; the Russian names the problem.
    "unauthorized": ("Sign in or play as a guest first.", "Сначала войдите или играйте как гость."),
    "bad_game": ("The game must be imperial or emperor.", "Игра должна быть imperial или emperor."),
    "bad_lang": ("The language must be en or ru.", "Язык должен быть en или ru."),
    "no_rules": ("The rules of this game are not installed.", "Правила этой игры не установлены."),
    "bad_options": ("Bad game options.", "Неверные параметры игры."),
    "bad_seat": ("No such seat.", "Такого места нет."),
    "bad_bots": ("Bad bot seats or levels (levels are 1-5).", "Неверные боты (уровни 1-5)."),
    "bad_timeout": ("Bad turn time.", "Неверное время на ход."),
    "bad_name": (
        "A name is 2-30 letters, digits, spaces, dots, dashes or underscores.",
        "Имя: 2-30 букв, цифр, пробелов, точек, дефисов или подчёркиваний.",
    ),
    "reserved_name": (
        "That name reads as a bot, a guest or the system: choose another.",
        "Это имя читается как имя бота, гостя или системы: выберите другое.",
    ),
    "bad_password": ("A password is 8-200 characters.", "Пароль: от 8 до 200 символов."),
    "name_taken": ("That name is taken.", "Это имя уже занято."),
    "bad_login": ("Wrong name or password.", "Неверное имя или пароль."),
    "not_open": ("The game has already started.", "Игра уже началась."),
    "already_seated": ("You already hold a seat here.", "Вы уже сидите за этим столом."),
    "table_full": ("The table is full.", "Все места заняты."),
    "seat_taken": ("That seat is taken.", "Это место занято."),
    "not_creator": ("Only the table's creator may do that.", "Это может только создатель стола."),
    "no_bot": ("There is no bot in that seat.", "На этом месте нет бота."),
    "stale": ("The game moved on.", "Игра уже ушла вперёд."),
    "duplicate": ("That action id was already used.", "Этот номер действия уже использован."),
    "too_many_tables": (
        "You have too many unfinished tables; finish or leave some first.",
        "У вас слишком много незаконченных столов; сначала доиграйте или покиньте некоторые.",
    ),
    "too_many_bot_tables": (
        "Too many unfinished tables of bots alone (yours or the server's); "
        "watch one to its end first.",
        "Слишком много незаконченных столов, где играют одни боты (ваших или на сервере); "
        "сначала досмотрите какой-нибудь до конца.",
    ),
    "upload_too_large": ("The record is larger than 512 KB.", "Запись больше 512 КБ."),
    "too_many_actions": (
        "The record has more than 5000 actions.",
        "В записи больше 5000 ходов.",
    ),
    # HTTP hardening (docs/protocol.md, "Requests the server refuses")
    "bad_host": (
        "This server does not answer to that host name.",
        "Сервер не отвечает на это имя хоста.",
    ),
    "bad_origin": (
        "Requests from that page's origin are not allowed.",
        "Запросы со страницы с этим источником (Origin) запрещены.",
    ),
    "bad_content_type": (
        "The body must be JSON (Content-Type: application/json).",
        "Тело запроса должно быть JSON (Content-Type: application/json).",
    ),
    "bad_request": ("A field of the request is missing or wrong.", "Неверное поле запроса."),
    "too_many_attempts": (
        "Too many sign-in attempts; wait a little and try again.",
        "Слишком много попыток входа; подождите немного и попробуйте снова.",
    ),
    "too_many_accounts": (
        "Too many new accounts from this address; try again later.",
        "С этого адреса создано слишком много учётных записей; попробуйте позже.",
    ),
    "too_many_guests": (
        "Too many guests have started playing from this address in the last hour; "
        "try again later, or sign in with an account.",
        "С этого адреса за последний час вошло слишком много гостей; "
        "попробуйте позже или войдите под своей учётной записью.",
    ),
    "name_confusable": (
        "That name looks like a name that is taken.",
        "Это имя похоже на уже занятое.",
    ),
    "slow_request": (
        "The request body took too long to arrive.",
        "Тело запроса передавалось слишком долго.",
    ),
    "too_many_connections": (
        "Too many open connections for this account or address.",
        "Слишком много открытых соединений для этой учётной записи или адреса.",
    ),
    "flood": (
        "Too many frames per second.",
        "Слишком много кадров в секунду.",
    ),
    # Spectators' bets (docs/betting.md)
    "no_market": ("There is no such market at this table.", "За этим столом нет такого рынка."),
    "bad_outcome": (
        "That is not one of the market's outcomes.",
        "Такого исхода у этого рынка нет.",
    ),
    "market_closed": (
        "The market is closed: what it is about has been dealt.",
        "Рынок закрыт: то, о чём он, уже сдано.",
    ),
    "market_settled": ("The market is already settled.", "Рынок уже рассчитан."),
    "seated_cannot_bet": (
        "Players of a table cannot bet on it.",
        "Игроки стола не могут делать ставки на него.",
    ),
    "holds_bets": (
        "You have bets on this table; a player cannot bet on his own game.",
        "У вас есть ставки на этот стол; игрок не может ставить на свою партию.",
    ),
    "too_many_bets": (
        "At most 10 bets a person on one market.",
        "Не больше 10 ставок одного человека на один рынок.",
    ),
    "bad_bet_chips": (
        "A bet is a whole number of chips, at least 1.",
        "Ставка: целое число фишек, не меньше 1.",
    ),
    "no_chips": ("You have no chips to bet.", "У вас нет фишек для ставки."),
    "insufficient_chips": (
        "You do not hold that many chips.",
        "У вас нет столько фишек.",
    ),
    # Ratings, profiles and account changes (docs/ratings.md)
    "rated_needs_account": (
        "Guests are not rated: make an account to sit at a rated table.",
        "Гости не получают рейтинг: чтобы сесть за рейтинговый стол, заведите учётную запись.",
    ),
    "no_user": ("No such player.", "Такого игрока нет."),
    "bad_variant": (
        "Unknown variant: one of imperial-2p, imperial-3p, emperor-3p, emperor-4p.",
        "Неизвестный вариант: imperial-2p, imperial-3p, emperor-3p или emperor-4p.",
    ),
    "not_for_guests": (
        "Guests cannot do that: make an account first.",
        "Гостям это недоступно: сначала заведите учётную запись.",
    ),
    "not_guest": (
        "Only a guest account can be turned into an account.",
        "Превратить в учётную запись можно только гостевой вход.",
    ),
    # Stakes and wallets (docs/chips.md)
    "bad_stake": (
        'Stake terms are an object: {"kind": ..., "chips": S}.',
        'Условия ставки: объект {"kind": ..., "chips": S}.',
    ),
    "bad_stake_kind": ("Unknown stake kind.", "Неизвестный вид ставки."),
    "stake_wrong_game": (
        "That stake kind belongs to the other game.",
        "Этот вид ставки относится к другой игре.",
    ),
    "bad_stake_chips": (
        "The stake must be a whole number of chips from 1 to 1,000,000.",
        "Ставка: целое число фишек от 1 до 1 000 000.",
    ),
    "stake_too_high": (
        "Your balance does not cover what this table holds from each player.",
        "Вашего баланса не хватает на то, что этот стол удерживает с каждого игрока.",
    ),
    "chips_limit": (
        "That would move or hold more chips than the ledger allows (10^15).",
        "Это перемещение или баланс больше, чем допускает учёт фишек (10^15).",
    ),
    "top_up_not_due": (
        "No top-up is due now.",
        "Пополнение сейчас не положено.",
    ),
    "key_reused": (
        "That idempotency key was already used for another request.",
        "Этот ключ идемпотентности уже использован для другого запроса.",
    ),
    # Post-game reviews and hints (docs/review.md)
    "game_not_finished": (
        "The game is not finished yet: it can be reviewed once it is over.",
        "Партия ещё не окончена: разбор возможен после её окончания.",
    ),
    "bad_level": (
        "The review level must be a whole number from 1 to 5.",
        "Уровень разбора: целое число от 1 до 5.",
    ),
    "review_busy": (
        "One of your reviews is still running; wait until it is done.",
        "Ваш разбор ещё идёт; дождитесь его окончания.",
    ),
    "review_failed": (
        "The review could not be completed; ask for it again.",
        "Разбор не удалось завершить; запросите его снова.",
    ),
    "hints_on_rated": (
        "Hints are not allowed at rated tables.",
        "На рейтинговых столах подсказки запрещены.",
    ),
    "hints_off": (
        "This table was made without hints.",
        "Этот стол создан без подсказок.",
    ),
    "hint_busy": (
        "A hint for your seat is already being worked out.",
        "Подсказка для вашего места уже готовится.",
    ),
}


class ProtocolError(Exception):
    """A rejected request: becomes an ``error`` frame (or an HTTP error in the lobby).

    ``reason`` is a rule refusal's own code, parameters and ruling (``illegal_action``
    only); ``message_ru`` then is its Russian message instead of the catalog's."""

    def __init__(
        self,
        code: str,
        message: str | None = None,
        status: int = 400,
        *,
        message_ru: str | None = None,
        reason: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        english, russian = ERRORS.get(code, (code, code))
        super().__init__(message or english)
        self.code = code
        self.message = message or english
        self.message_ru = message_ru or russian
        self.status = status
        self.reason = reason
        self.params = params
        """The numbers the messages name (``stake_too_high``: balance and hold), for a
        client that words its own message."""

    def frame(self, **extra: Any) -> dict[str, Any]:
        return error_frame(
            self.code,
            self.message,
            self.message_ru,
            reason=self.reason,
            params=self.params,
            **extra,
        )

    def to_json(self) -> dict[str, Any]:
        """The HTTP error body."""
        body: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        body["message_ru"] = self.message_ru
        if self.reason is not None:
            body["reason"] = self.reason
        if self.params is not None:
            body["params"] = self.params
        return body


def refusal(e: IllegalAction | CardError) -> ProtocolError:
    """A rule's refusal of a move as an ``illegal_action`` error that names the rule's own
    code, parameters and ruling, with the catalog's messages (``kozyr.messages``)."""
    data = e.to_json()
    return ProtocolError(
        "illegal_action",
        data["message"],
        message_ru=data["message_ru"],
        reason={"code": data["code"], "params": data["params"], "rule": data["rule"]},
    )


def error_frame(
    code: str, message: str, message_ru: str | None = None, **extra: Any
) -> dict[str, Any]:
    frame: dict[str, Any] = {"v": VERSION, "type": "error", "code": code, "message": message}
    frame["message_ru"] = message_ru or ERRORS.get(code, (message, message))[1]
    frame.update({k: v for k, v in extra.items() if v is not None})
    return frame


def dumps(frame: dict[str, Any]) -> str:
    """A frame's compact JSON text, non-ASCII characters as themselves.

    orjson writes the same text as ``json.dumps(frame, ensure_ascii=False,
    separators=(",", ":"))`` about ten times faster (each move's frames are encoded once
    per role: docs/performance.md). What it refuses (an integer beyond 64 bits, a key
    that is not a string) goes to the standard library, which takes it as before."""
    try:
        return orjson.dumps(frame).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return _json_dumps(frame)


def _json_dumps(frame: dict[str, Any]) -> str:
    text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
    if not text.isascii() and _SURROGATE.search(text):
        # Text with a lone surrogate (orjson refuses it) cannot be written as UTF-8, and
        # sending it would fail and drop the socket. ``parse_json`` lets none in; should
        # one come all the same, it is sent as U+FFFD rather than not at all.
        text = _SURROGATE.sub("\ufffd", text)
    return text


class Client:
    """One WebSocket connection's identity and outgoing queue.

    Frames are queued (never awaited under a table lock) and written by the connection's
    writer task. The queue is bounded twice: by ``limit`` frames and by ``max_bytes`` of
    frames not yet written (queued or in the writer's hands). Past either, the queue is
    dropped at once (its memory freed), nothing more is accepted, and ``on_overflow`` is
    called so that the connection can be closed (1013) even if its writer is stuck.
    """

    def __init__(self, user: User, limit: int = 2000, max_bytes: int = 1024 * 1024) -> None:
        self.user = user
        self.queue: list[str] = []
        self.limit = limit
        self.max_bytes = max_bytes
        self.pending_bytes = 0
        """UTF-8 bytes of the frames queued or being written."""
        self.closed = False
        self.overflow = False
        self.on_overflow: Callable[[], None] | None = None
        self.on_end: Callable[[int, str], None] | None = None
        """Closes the connection with a code and reason (set by the connection): a table
        that moved to another process sends its watchers there."""
        self._wake: Callable[[], None] | None = None
        # table id -> the seat this connection acts for there (None: spectator)
        self.tables: dict[str, int | None] = {}

    def attach(self, wake: Callable[[], None]) -> None:
        """``wake`` is called for every frame queued: the connection's writer hands the
        queue to its socket soon after."""
        self._wake = wake

    def send(self, frame: dict[str, Any] | str, size: int | None = None) -> None:
        """Queues a frame; ``size`` is its UTF-8 length when the caller knows it already
        (a frame shared by many clients is measured once)."""
        if self.closed:
            return
        text = frame if isinstance(frame, str) else dumps(frame)
        if size is None:
            size = utf8_size(text)
        if len(self.queue) >= self.limit or self.pending_bytes + size > self.max_bytes:
            self.overflow = True
            self.closed = True
            self.drop()
            if self.on_overflow is not None:
                self.on_overflow()
            return
        self.queue.append(text)
        self.pending_bytes += size
        if self._wake is not None:
            self._wake()

    def take(self) -> list[str]:
        out, self.queue = self.queue, []
        return out

    def written(self, text: str) -> None:
        """The writer has handed ``text`` to the socket."""
        self.pending_bytes = max(0, self.pending_bytes - utf8_size(text))

    def drop(self) -> None:
        """Forgets everything not yet written."""
        self.queue = []
        self.pending_bytes = 0


def utf8_size(text: str) -> int:
    # isascii() is O(1) on CPython's str, so ASCII frames (nearly all) cost no encoding.
    return len(text) if text.isascii() else len(text.encode("utf-8"))
