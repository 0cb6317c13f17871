"""The ``kozyr`` command (:mod:`kozyr.cli`, :mod:`kozyr.review_command`): the help of
every command and option (``cli.help.*``), the words Typer prints around it
(``cli.chrome.*``, templates Typer fills itself), and what ``verify`` and ``ledger check``
print."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "cli.help.app": (
        "kozyr: Imperial (Империал) and Emperor (Император), Russian trick-taking card games.",
        "kozyr: Империал и Император, старинные русские карточные игры на взятки.",
    ),
    "cli.help.play": (
        "Play a game in the terminal against the computer.",
        "Игра в терминале против компьютера.",
    ),
    "cli.help.arena": (
        "Bots against each other on duplicate deals: win rates, scores and Elo with 95% CIs.",
        "Боты друг против друга на дублированных сдачах: доли побед, очки и Эло с 95% "
        "доверительными интервалами.",
    ),
    "cli.help.serve": (
        "Start the game server (people and bots, both games) and print the address to open.",
        "Запустить игровой сервер (люди и боты, обе игры) и напечатать адрес, который открыть.",
    ),
    "cli.help.seed": (
        "Seed for the deals, to replay the same game (not secret); a secret 256-bit "
        "one if left out.",
        "Зерно сдач, чтобы сыграть ту же партию ещё раз (не тайное); без него — тайное 256-битное.",
    ),
    "cli.help.lang": ("Language (default: from the locale).", "Язык (по умолчанию — из локали)."),
    "cli.help.records": (
        "Folder for game records (default: $KOZYR_RECORDS or ~/.local/share/kozyr/records).",
        "Папка для записей партий (по умолчанию $KOZYR_RECORDS или ~/.local/share/kozyr/records).",
    ),
    "cli.help.seat": ("Your seat (0 = first).", "Ваше место (0 — первое)."),
    "cli.help.stake": (
        "Play for stakes, a local tally (no chips move): per_game:S or per_imperial:S "
        "(Imperial), per_place:S or per_trick:S (Emperor); S whole chips, 1 to 1,000,000.",
        "Игра на ставку, счёт ведётся только здесь: per_game:S или per_imperial:S "
        "(Империал), per_place:S или per_trick:S (Император); S — целое число фишек, "
        "от 1 до 1 000 000.",
    ),
    "cli.help.level": (
        "Computer players: level 1 (beginner) to 5 (master), or random or heuristic.",
        "Компьютерные игроки: уровень от 1 (новичок) до 5 (мастер), или random, или heuristic.",
    ),
    "cli.help.play_imperial": (
        "Imperial (Империал) against computer players.",
        "Империал против компьютера.",
    ),
    "cli.help.players_imperial": ("2 or 3 players.", "2 или 3 игрока."),
    "cli.help.play_emperor": (
        "Emperor (Император) against computer players.",
        "Император против компьютера.",
    ),
    "cli.help.players_emperor": ("3 or 4 players.", "3 или 4 игрока."),
    "cli.help.replay": (
        "Show a game record deal by deal, or (--json) its result.",
        "Показать запись партии сдача за сдачей или (--json) её итог.",
    ),
    "cli.help.record_file": ("A kozyr-record/1 JSON file.", "Файл kozyr-record/1 (JSON)."),
    "cli.help.replay_json": ("Print the result as JSON.", "Итог в JSON."),
    "cli.help.verify": (
        "Check a finished game's fair dealing: the revealed seed against the commitment "
        "published before the first deal, and every deal against the seed. Exit 0 when fair, "
        "1 when not, 2 when the file cannot be read.",
        "Проверить честность раздачи в сыгранной партии: открытое зерно — по обязательству, "
        "опубликованному до первой сдачи, и каждую сдачу — по зерну. Код выхода 0, если всё "
        "честно, 1, если нет, 2, если файл не читается.",
    ),
    "cli.help.finished_record_file": (
        "A finished kozyr-record/1 JSON file.",
        "Файл kozyr-record/1 (JSON) оконченной партии.",
    ),
    "cli.help.verify_json": ("Print the verdict as JSON.", "Вывести вердикт в JSON."),
    "cli.help.ratings": (
        "The server's player ratings, and the computer's levels on their scale.",
        "Рейтинги игроков сервера и уровни компьютера на той же шкале.",
    ),
    "cli.help.ratings_levels": (
        "Rate the computer's levels 1-5 on the players' scale: whole games between the "
        "levels at their own thinking times, kept in a games file so that the sample grows "
        "run by run, then rated as the server rates people. Writes the ratings the page "
        "shows beside each level. Run it on a quiet machine: a busy one makes the thinking "
        "levels weaker than they are.",
        "Оценить уровни компьютера 1-5 по шкале игроков: целые партии между уровнями с их "
        "собственным временем на ход, сохранённые в файле партий, так что выборка растёт от "
        "запуска к запуску, затем рейтинг — так же, как сервер считает людей. Записывает "
        "рейтинги, которые страница показывает рядом с каждым уровнем. Запускайте на "
        "свободной машине: на занятой думающие уровни слабее, чем есть.",
    ),
    "cli.help.levels_game": ("imperial or emperor.", "imperial или emperor."),
    "cli.help.levels_players": ("Number of players.", "Число игроков."),
    "cli.help.levels_minutes": (
        "Minutes of new games (the games under way then are finished); 0: only rate the "
        "games already in the file.",
        "Минуты новых партий (начатые к этому времени доигрываются); 0 — только пересчитать "
        "партии из файла.",
    ),
    "cli.help.levels_jobs": (
        "Games played at once, one process each (at most one per core).",
        "Сколько партий играть одновременно, по процессу на каждую (не больше одной на ядро).",
    ),
    "cli.help.levels_seed": (
        "Seed of the cards and the bots (with the sweep number).",
        "Зерно карт и ботов (вместе с номером круга).",
    ),
    "cli.help.levels_games_file": (
        "The games file (JSON lines; default bench/results/levels-GAME-Np.jsonl).",
        "Файл партий (строки JSON; по умолчанию bench/results/levels-GAME-Np.jsonl).",
    ),
    "cli.help.levels_out": (
        "The ratings file written (default: the game's bots package, level_ratings.json).",
        "Записываемый файл рейтингов (по умолчанию level_ratings.json в пакете ботов игры).",
    ),
    "cli.help.levels_load_limit": (
        "Refuse to play new games while the 1-minute load average is above this.",
        "Не играть новых партий, пока средняя загрузка за минуту выше этого числа.",
    ),
    "cli.levels_busy": (
        "The machine is busy (load average {load}, above {limit}): the levels would "
        "play weaker than they are. Try again when it is quiet.",
        "Машина занята (средняя загрузка {load}, выше {limit}): уровни играли бы "
        "слабее, чем есть. Попробуйте, когда она освободится.",
    ),
    "cli.levels_game": (
        "game {n}: levels {levels}, places {places}",
        "партия {n}: уровни {levels}, места {places}",
    ),
    "cli.levels_head": (
        "{game}, {players} players: {games} games, load average {start} at the start, "
        "{end} at the end",
        "{game}, игроков: {players}; партий: {games}; средняя загрузка {start} в начале, "
        "{end} в конце",
    ),
    "cli.levels_row": (
        "level {level}: {shown} (mu {mu}, sigma {sigma}, {games} games)",
        "уровень {level}: {shown} (mu {mu}, sigma {sigma}, партий: {games})",
    ),
    "cli.levels_written": ("written: {path}", "записано: {path}"),
    "cli.help.ratings_database": (
        "Database URL (default: $KOZYR_DATABASE_URL, else the SQLite database in "
        "$KOZYR_DATA or ./kozyr-data).",
        "Адрес базы данных (по умолчанию $KOZYR_DATABASE_URL, иначе SQLite в "
        "$KOZYR_DATA или ./kozyr-data).",
    ),
    "cli.help.ledger": ("The server's chip ledger.", "Учёт фишек сервера."),
    "cli.help.ledger_check": (
        "Audit the chip ledger: all balances must sum to 0 and each account's balance must "
        "equal the sum of its journal entries; print every account that differs. Exit 0 "
        "when consistent, 1 when not, 2 when the database cannot be read.",
        "Проверить учёт фишек: сумма всех балансов должна быть 0, а баланс каждого счёта — "
        "равен сумме его проводок; напечатать каждый расходящийся счёт. Код выхода 0, если "
        "всё сходится, 1, если нет, 2, если база данных не читается.",
    ),
    "cli.help.ledger_database": (
        "Database URL (default: $KOZYR_DATABASE_URL, else the SQLite database in --data).",
        "Адрес базы данных (по умолчанию $KOZYR_DATABASE_URL, иначе SQLite в --data).",
    ),
    "cli.help.ledger_data": (
        "The server's data folder (default: $KOZYR_DATA or ./kozyr-data).",
        "Папка данных сервера (по умолчанию $KOZYR_DATA или ./kozyr-data).",
    ),
    "cli.help.review": (
        "Review a finished game: for every decision, the value of the move played and of the "
        "best move, from what that player could see; mistakes and blunders marked. Exit 2 "
        "when the file cannot be read.",
        "Разбор сыгранной партии: для каждого решения — цена сделанного хода и лучшего, по "
        "тому, что игрок видел в тот момент; ошибки и грубые ошибки отмечены. Код выхода 2, "
        "если файл не читается.",
    ),
    "cli.help.review_level": (
        "How hard to look: 1 quick to 5 thorough.",
        "Глубина разбора: от 1 (быстро) до 5 (тщательно).",
    ),
    "cli.help.review_seat": (
        "Review only this seat (1 = the first).",
        "Разобрать только это место (1 — первое).",
    ),
    "cli.help.review_all": (
        "List every decision, not only mistakes.",
        "Показать все решения, а не только ошибки.",
    ),
    "cli.help.review_hindsight": (
        "Also show what the oracle, seeing every card after the game, would have "
        "played (the values stay those of what the player could see).",
        "Показать ещё, как сыграл бы оракул, видящий после партии все карты (оценки "
        "остаются по тому, что видел игрок).",
    ),
    "cli.help.review_json": ("Print the review as JSON.", "Вывести разбор в JSON."),
    "cli.help.review_seed": (
        "The search's seed (same seed, same review).",
        "Зерно поиска (то же зерно — тот же разбор).",
    ),
    "cli.help.review_lang": (
        "ru or en (default: the locale's)",
        "ru или en (по умолчанию — из локали)",
    ),
    # Typer's own words around a command's help (English: Typer's defaults). Its "Usage:"
    # line and the text of --help itself are fixed strings in Typer's copy of click.
    "cli.chrome.options": ("Options", "Параметры"),
    "cli.chrome.arguments": ("Arguments", "Аргументы"),
    "cli.chrome.commands": ("Commands", "Команды"),
    "cli.chrome.error": ("Error", "Ошибка"),
    "cli.chrome.default": ("[default: {}]", "[по умолчанию: {}]"),
    "cli.chrome.required": ("[required]", "[обязательно]"),
    "cli.chrome.help": (
        "Try [blue]'{command_path} {help_option}'[/] for help.",
        "Справка: [blue]'{command_path} {help_option}'[/].",
    ),
    # kozyr verify (docs/fairness.md)
    "cli.verify_ok": (
        "Fair: the seed matches the commitment sha256 {commitment}, and all {deals} deals "
        "are the ones it deals.",
        "Честно: зерно совпадает с обязательством sha256 {commitment}, и все сдачи ({deals}) "
        "получены из него.",
    ),
    "cli.verify_failed": ("NOT verified:", "НЕ подтверждено:"),
    "cli.verify_deals": (
        "{ok} of {deals} deals match the seed.",
        "Совпадают с зерном сдач: {ok} из {deals}.",
    ),
    # kozyr ledger check (docs/chips.md)
    "cli.ledger_ok": (
        "The ledger is consistent: {accounts} accounts, all balances sum to 0, and each "
        "equals the sum of its journal entries.",
        "Учёт фишек сходится: счетов {accounts}, сумма всех балансов 0, и каждый баланс "
        "равен сумме проводок его счёта.",
    ),
    "cli.ledger_bad": ("The ledger is NOT consistent:", "Учёт фишек НЕ сходится:"),
    "cli.ledger_total": (
        "all {accounts} balances sum to {total}, not 0",
        "сумма всех балансов ({accounts}) равна {total}, а не 0",
    ),
    "cli.ledger_account": (
        "{account}: balance {balance}, journal sum {journal} (off by {diff})",
        "{account}: баланс {balance}, сумма проводок {journal} (расхождение {diff})",
    ),
    "cli.ledger_no_database": (
        "No database at {path}: give --data or --database.",
        "Базы данных нет: {path}; укажите --data или --database.",
    ),
    "cli.ledger_unreadable": (
        "The ledger cannot be read: {error}",
        "Учёт фишек не читается: {error}",
    ),
    # table talk's reports (#44): `kozyr talk reports`
    "cli.help.talk": ("Table talk on the server.", "Разговоры за столами на сервере."),
    "cli.help.talk_reports": (
        "List the reports of lines of table talk, newest first, each with the line and the "
        "lines before it on its channel.",
        "Показать жалобы на реплики за столами, новые сначала, с репликой и репликами "
        "перед ней на том же канале.",
    ),
    "cli.help.talk_limit": (
        "How many reports to list (1-1000).",
        "Сколько жалоб показать (1-1000).",
    ),
    "cli.talk_none": ("No reports.", "Жалоб нет."),
    "cli.talk_report": (
        "Report {id} ({at} UTC) by {reporter} of line {line} at table {table}; reason: {reason}",
        "Жалоба {id} ({at} UTC) от {reporter} на реплику {line} за столом {table}; "
        "причина: {reason}",
    ),
    "cli.talk_no_reason": ("none given", "не указана"),
    "cli.talk_unreadable": (
        "The reports cannot be read: {error}",
        "Жалобы не читаются: {error}",
    ),
}
