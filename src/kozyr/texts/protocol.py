"""The server's protocol (``docs/protocol.md``): each error code's messages, what an
``error`` frame or an HTTP error body says when nothing more precise is given
(:data:`kozyr.server.transport.protocol.ERRORS` is this table by code), and the
transport's and the replay routes' own refusals.

Keys: ``protocol.error.<code>`` for a code's messages; ``protocol.field`` and
``protocol.replay.*`` for refusals worded with their details. A message that names a
person's chips is in :mod:`kozyr.texts.chips`, an account's name in
:mod:`kozyr.texts.accounts`."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # Frames and tables
    "protocol.error.bad_json": (
        "The frame is not valid JSON.",
        "Кадр не является корректным JSON.",
    ),
    "protocol.error.bad_frame": (
        "The frame is not a valid message.",
        "Кадр не является корректным сообщением.",
    ),
    "protocol.error.too_large": ("The frame is larger than 64 KB.", "Кадр больше 64 КБ."),
    "protocol.error.unknown_type": ("Unknown message type.", "Неизвестный тип сообщения."),
    "protocol.error.bad_version": (
        "Unsupported protocol version.",
        "Неподдерживаемая версия протокола.",
    ),
    "protocol.error.no_table": ("No such table.", "Такого стола нет."),
    "protocol.error.moved": (
        "This table is now run by another server process; reconnect to resume.",
        "Этот стол теперь ведёт другой процесс сервера; переподключитесь, чтобы продолжить.",
    ),
    "protocol.error.cluster_unavailable": (
        "The server processes cannot reach each other (Redis is unavailable); reconnect.",
        "Процессы сервера не могут связаться друг с другом (Redis недоступен); переподключитесь.",
    ),
    "protocol.error.not_watching": (
        "Send a hello for this table first.",
        "Сначала отправьте hello для этого стола.",
    ),
    "protocol.error.not_seated": (
        "You do not hold a seat at this table.",
        "Вы не сидите за этим столом.",
    ),
    "protocol.error.not_started": ("The game has not started yet.", "Игра ещё не началась."),
    "protocol.error.game_over": ("The game is over.", "Игра окончена."),
    "protocol.error.not_your_turn": ("It is not your turn.", "Сейчас не ваш ход."),
    "protocol.error.illegal_action": (
        "That move is not allowed here.",
        "Этот ход здесь не разрешён.",
    ),
    "protocol.error.busy": (
        "The server could not save the move; try again.",
        "Сервер не смог сохранить ход.",
    ),
    "protocol.error.stopping": (
        "The server is restarting and takes no moves; reconnect in a moment and play again.",
        "Сервер перезапускается и не принимает ходы; переподключитесь чуть позже и сходите снова.",
    ),
    # Lobby and accounts: the English text may be more precise; the Russian names the problem.
    "protocol.error.unauthorized": (
        "Sign in or play as a guest first.",
        "Сначала войдите или играйте как гость.",
    ),
    "protocol.error.bad_game": (
        "The game must be imperial or emperor.",
        "Игра должна быть imperial или emperor.",
    ),
    "protocol.error.bad_lang": ("The language must be en or ru.", "Язык должен быть en или ru."),
    "protocol.error.no_rules": (
        "The rules of this game are not installed.",
        "Правила этой игры не установлены.",
    ),
    "protocol.error.bad_options": ("Bad game options.", "Неверные параметры игры."),
    "protocol.error.bad_seat": ("No such seat.", "Такого места нет."),
    "protocol.error.bad_bots": (
        "Bad bot seats or levels (levels are 1-5).",
        "Неверные боты (уровни 1-5).",
    ),
    "protocol.error.bad_timeout": ("Bad turn time.", "Неверное время на ход."),
    "protocol.error.bad_name": (
        "A name is 2-30 letters, digits, spaces, dots, dashes or underscores.",
        "Имя: 2-30 букв, цифр, пробелов, точек, дефисов или подчёркиваний.",
    ),
    "protocol.error.reserved_name": (
        "That name reads as a bot, a guest, a seat or the system: choose another.",
        "Это имя читается как имя бота, гостя, места за столом или системы: выберите другое.",
    ),
    "protocol.error.bad_password": (
        "A password is 8-200 characters.",
        "Пароль: от 8 до 200 символов.",
    ),
    "protocol.error.name_taken": ("That name is taken.", "Это имя уже занято."),
    "protocol.error.bad_login": ("Wrong name or password.", "Неверное имя или пароль."),
    "protocol.error.not_open": ("The game has already started.", "Игра уже началась."),
    "protocol.error.already_seated": (
        "You already hold a seat here.",
        "Вы уже сидите за этим столом.",
    ),
    "protocol.error.table_full": ("The table is full.", "Все места заняты."),
    "protocol.error.seat_taken": ("That seat is taken.", "Это место занято."),
    "protocol.error.not_creator": (
        "Only the table's creator may do that.",
        "Это может только создатель стола.",
    ),
    "protocol.error.no_bot": ("There is no bot in that seat.", "На этом месте нет бота."),
    "protocol.error.stale": ("The game moved on.", "Игра уже ушла вперёд."),
    "protocol.error.duplicate": (
        "That action id was already used.",
        "Этот номер действия уже использован.",
    ),
    "protocol.error.too_many_tables": (
        "You have too many unfinished tables; finish or leave some first.",
        "У вас слишком много незаконченных столов; сначала доиграйте или покиньте некоторые.",
    ),
    "protocol.error.too_many_bot_tables": (
        "Too many unfinished tables of bots alone (yours or the server's); "
        "watch one to its end first.",
        "Слишком много незаконченных столов, где играют одни боты (ваших или на сервере); "
        "сначала досмотрите какой-нибудь до конца.",
    ),
    "protocol.error.too_many_bot_tables_address": (
        "Too many unfinished tables of bots alone were opened from your network; "
        "watch one to its end, or wait until one nobody watches ends by itself.",
        "Из вашей сети открыто слишком много незаконченных столов, где играют одни боты; "
        "досмотрите какой-нибудь до конца или подождите, пока стол без зрителей закончится сам.",
    ),
    "protocol.error.upload_too_large": (
        "The record is larger than 512 KB.",
        "Запись больше 512 КБ.",
    ),
    "protocol.error.too_many_actions": (
        "The record has more than 5000 actions.",
        "В записи больше 5000 ходов.",
    ),
    "protocol.error.too_many_deals": (
        "The record has more than 100 deals: no real game is that long.",
        "В записи больше 100 раздач: настоящие партии так долго не длятся.",
    ),
    "protocol.error.replay_too_large": (
        "This record's replay would be larger than 6 MB: no real game is that long.",
        "Просмотр этой записи занял бы больше 6 МБ: настоящие партии так долго не длятся.",
    ),
    "protocol.error.too_many_uploads": (
        "Too many records opened in the last minute; wait a little and try again.",
        "За последнюю минуту открыто слишком много записей; подождите немного и попробуйте снова.",
    ),
    "protocol.error.uploads_busy": (
        "The server is busy with other records; try again in a moment.",
        "Сервер занят другими записями; попробуйте ещё раз через несколько секунд.",
    ),
    # HTTP hardening (docs/protocol.md, "Requests the server refuses")
    "protocol.error.bad_host": (
        "This server does not answer to that host name.",
        "Сервер не отвечает на это имя хоста.",
    ),
    "protocol.error.bad_origin": (
        "Requests from that page's origin are not allowed.",
        "Запросы со страницы с этим источником (Origin) запрещены.",
    ),
    "protocol.error.bad_content_type": (
        "The body must be JSON (Content-Type: application/json).",
        "Тело запроса должно быть JSON (Content-Type: application/json).",
    ),
    "protocol.error.bad_request": (
        "A field of the request is missing or wrong.",
        "Неверное поле запроса.",
    ),
    "protocol.error.too_many_attempts": (
        "Too many sign-in attempts; wait a little and try again.",
        "Слишком много попыток входа; подождите немного и попробуйте снова.",
    ),
    "protocol.error.too_many_invite_guesses": (
        "Too many wrong invitation codes; wait a few minutes and try again.",
        "Слишком много неверных кодов приглашения; подождите несколько минут и попробуйте снова.",
    ),
    "protocol.error.too_many_accounts": (
        "Too many new accounts from this address; try again later.",
        "С этого адреса создано слишком много учётных записей; попробуйте позже.",
    ),
    "protocol.error.too_many_guests": (
        "Too many guests have started playing from this address in the last hour; "
        "try again later, or sign in with an account.",
        "С этого адреса за последний час вошло слишком много гостей; "
        "попробуйте позже или войдите под своей учётной записью.",
    ),
    "protocol.error.name_confusable": (
        "That name looks like a name that is taken.",
        "Это имя похоже на уже занятое.",
    ),
    "protocol.error.slow_request": (
        "The request body took too long to arrive.",
        "Тело запроса передавалось слишком долго.",
    ),
    "protocol.error.too_many_connections": (
        "Too many open connections for this account or address.",
        "Слишком много открытых соединений для этой учётной записи или адреса.",
    ),
    "protocol.error.flood": (
        "Too many frames per second.",
        "Слишком много кадров в секунду.",
    ),
    # Spectators' bets (docs/betting.md)
    "protocol.error.no_market": (
        "There is no such market at this table.",
        "За этим столом нет такого рынка.",
    ),
    "protocol.error.bad_outcome": (
        "That is not one of the market's outcomes.",
        "Такого исхода у этого рынка нет.",
    ),
    "protocol.error.market_closed": (
        "The market is closed: what it is about has been dealt.",
        "Приём ставок закрыт: карты, о которых вопрос, уже сданы.",
    ),
    "protocol.error.market_settled": ("The market is already settled.", "Рынок уже рассчитан."),
    "protocol.error.seated_cannot_bet": (
        "Players of a table cannot bet on it.",
        "Игроки стола не могут делать ставки на него.",
    ),
    "protocol.error.holds_bets": (
        "You have bets on this table; a player cannot bet on his own game.",
        "У вас есть ставки на этот стол; игрок не может ставить на свою партию.",
    ),
    "protocol.error.too_many_bets": (
        "At most 10 bets a person on one market.",
        "Не больше 10 ставок одного человека на один рынок.",
    ),
    "protocol.error.bad_bet_chips": (
        "A bet is a whole number of chips, at least 1.",
        "Ставка: целое число фишек, не меньше 1.",
    ),
    "protocol.error.no_chips": ("You have no chips to bet.", "У вас нет фишек для ставки."),
    "protocol.error.insufficient_chips": (
        "You do not hold that many chips.",
        "У вас нет столько фишек.",
    ),
    # Ratings, profiles and account changes (docs/ratings.md)
    "protocol.error.rated_needs_account": (
        "Guests are not rated: make an account to sit at a rated table.",
        "Гости не получают рейтинг: чтобы сесть за рейтинговый стол, заведите учётную запись.",
    ),
    "protocol.error.no_user": ("No such player.", "Такого игрока нет."),
    "protocol.error.bad_variant": (
        "Unknown variant: one of imperial-2p, imperial-3p, emperor-3p, emperor-4p.",
        "Неизвестный вариант: imperial-2p, imperial-3p, emperor-3p или emperor-4p.",
    ),
    "protocol.error.not_for_guests": (
        "Guests cannot do that: make an account first.",
        "Гостям это недоступно: сначала заведите учётную запись.",
    ),
    "protocol.error.not_guest": (
        "Only a guest account can be turned into an account.",
        "Превратить в учётную запись можно только гостевой вход.",
    ),
    # Stakes and wallets (docs/chips.md)
    "protocol.error.bad_stake": (
        'Stake terms are an object: {{"kind": ..., "chips": S}}.',
        'Условия ставки: объект {{"kind": ..., "chips": S}}.',
    ),
    "protocol.error.bad_stake_kind": ("Unknown stake kind.", "Неизвестный вид ставки."),
    "protocol.error.stake_wrong_game": (
        "That stake kind belongs to the other game.",
        "Этот вид ставки относится к другой игре.",
    ),
    "protocol.error.bad_stake_chips": (
        "The stake must be a whole number of chips from 1 to 1,000,000.",
        "Ставка: целое число фишек от 1 до 1 000 000.",
    ),
    "protocol.error.stake_too_high": (
        "Your balance does not cover what this table holds from each player.",
        "Вашего баланса не хватает на залог этого стола.",
    ),
    "protocol.error.chips_limit": (
        "That would move or hold more chips than the ledger allows (10^15).",
        "Это перемещение или баланс больше, чем допускает учёт фишек (10^15).",
    ),
    "protocol.error.top_up_not_due": (
        "No top-up is due now.",
        "Пополнение сейчас не положено.",
    ),
    "protocol.error.key_reused": (
        "That idempotency key was already used for another request.",
        "Этот ключ идемпотентности уже использован для другого запроса.",
    ),
    # Post-game reviews and hints (docs/review.md)
    "protocol.error.game_not_finished": (
        "The game is not finished yet: it can be reviewed once it is over.",
        "Партия ещё не окончена: разбор возможен после её окончания.",
    ),
    "protocol.error.bad_level": (
        "The review level must be a whole number from 1 to 5.",
        "Уровень разбора: целое число от 1 до 5.",
    ),
    "protocol.error.review_busy": (
        "One of your reviews is still running; wait until it is done.",
        "Ваш разбор ещё идёт; дождитесь его окончания.",
    ),
    "protocol.error.review_queue_full": (
        "Too many reviews are waiting for a reviewer; ask again in a few minutes.",
        "Слишком много разборов ждут очереди; попросите ещё раз через несколько минут.",
    ),
    "protocol.error.review_failed": (
        "The review could not be completed; ask for it again.",
        "Разбор не удалось завершить; запросите его снова.",
    ),
    "protocol.error.hints_on_rated": (
        "Hints are not allowed at rated tables.",
        "На рейтинговых столах подсказки запрещены.",
    ),
    "protocol.error.hints_off": (
        "This table was made without hints.",
        "Этот стол создан без подсказок.",
    ),
    "protocol.error.hint_busy": (
        "A hint for your seat is already being worked out.",
        "Подсказка для вашего места уже готовится.",
    ),
    "protocol.error.too_many_hints": (
        "You have asked for too many hints in the last minute; wait a little.",
        "За последнюю минуту вы попросили слишком много подсказок; подождите немного.",
    ),
    "protocol.error.hints_busy": (
        "The server is working out too many hints right now; try again in a moment.",
        "Сервер сейчас готовит слишком много подсказок; попробуйте ещё раз через несколько секунд.",
    ),
    # learn to play: lessons (#29, server/play/lessons.py)
    "protocol.error.no_lesson": ("No such lesson.", "Такого урока нет."),
    "protocol.error.lesson_moves": (
        "These moves are not the lesson's: start the lesson again.",
        "Это не ходы урока: начните урок заново.",
    ),
    "protocol.error.lesson_turn": (
        "The lesson does not wait for this now: it asks for a move or an answer.",
        "Урок сейчас ждёт другого: хода или ответа.",
    ),
    "protocol.error.lesson_broken": (
        "This lesson does not play as written; please tell us.",
        "Этот урок не играется так, как написан; пожалуйста, сообщите нам.",
    ),
    # A request's field the models refused: the English says what Pydantic found (in
    # English only), the Russian names the field; ".0" takes the problem and prints none.
    "protocol.field": ("{where}: {problem}", "Неверное поле «{where}».{problem:.0}"),
    # Replays (server/routes/replays.py): codes of their own, worded with the details.
    "protocol.replay.not_finished": (
        "The game is not over: its hands are still secret.",
        "Партия не окончена: карты игроков пока закрыты.",
    ),
    "protocol.replay.bad_record": (
        "The record does not replay: {detail}",
        "Запись не воспроизводится: {detail}",
    ),
    # puzzles from real deals (#29)
    "protocol.error.no_puzzle": ("No such puzzle.", "Такой задачи нет."),
    "protocol.error.bad_puzzle_card": (
        "Pick one of the cards you may play here.",
        "Выберите одну из карт, которыми здесь можно пойти.",
    ),
    "protocol.error.puzzle_not_served": (
        "Open this puzzle before answering it.",
        "Сначала откройте эту задачу, потом отвечайте.",
    ),
    "protocol.error.too_many_answers": (
        "Too many answers in a short time; wait a little and try again.",
        "Слишком много ответов за короткое время; подождите немного и попробуйте снова.",
    ),
    # Friends, blocks and challenges (#44, docs/protocol.md)
    "protocol.error.self_in_list": (
        "You cannot follow or block yourself.",
        "Нельзя подписаться на себя или заблокировать себя.",
    ),
    "protocol.error.too_many_follows": (
        "You follow as many players as you may (500): unfollow someone first.",
        "Вы уже подписаны на наибольшее число игроков (500): сначала отпишитесь от кого-нибудь.",
    ),
    "protocol.error.too_many_blocks": (
        "You have blocked as many players as you may (500): unblock someone first.",
        "Вы уже заблокировали наибольшее число игроков (500): сначала разблокируйте кого-нибудь.",
    ),
    "protocol.error.challenge_self": (
        "You cannot challenge yourself.",
        "Нельзя вызвать на игру самого себя.",
    ),
    "protocol.error.challenge_refused": (
        "This player cannot be challenged now.",
        "Этого игрока сейчас нельзя вызвать на игру.",
    ),
    "protocol.error.too_many_challenges": (
        "You have 10 open challenges already: wait for answers or cancel one.",
        "У вас уже 10 открытых вызовов: дождитесь ответов или отмените один.",
    ),
    "protocol.error.no_challenge": ("No such challenge.", "Такого вызова нет."),
    "protocol.error.challenge_gone": (
        "This challenge is no longer open: it was answered, cancelled or has expired.",
        "Этот вызов уже закрыт: на него ответили, его отменили или его время вышло.",
    ),
    "protocol.error.seat_refused": (
        "You cannot take a seat at this table.",
        "За этот стол сесть нельзя.",
    ),
    # table talk (#44, server/talk)
    "protocol.error.talk_too_long": (
        "A message has at most 200 characters.",
        "В сообщении не больше 200 символов.",
    ),
    "protocol.error.talk_empty": (
        "Write a message or choose a quick phrase.",
        "Напишите сообщение или выберите готовую фразу.",
    ),
    "protocol.error.talk_phrase": ("Unknown quick phrase.", "Такой готовой фразы нет."),
    "protocol.error.talk_channel": (
        "Players talk among players and spectators among spectators.",
        "Игроки говорят с игроками, зрители — со зрителями.",
    ),
    "protocol.error.talk_too_fast": (
        "Too many messages in a short time; wait a few seconds.",
        "Слишком много сообщений за короткое время; подождите несколько секунд.",
    ),
    "protocol.error.not_at_table": (
        "You can talk only at a table where you play or watch.",
        "Говорить можно только за столом, где вы играете или смотрите игру.",
    ),
    "protocol.error.no_message": ("No such message.", "Такого сообщения нет."),
    "protocol.error.already_reported": (
        "You have already reported this message.",
        "Вы уже пожаловались на это сообщение.",
    ),
}
