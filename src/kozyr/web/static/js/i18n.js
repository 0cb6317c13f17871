// Every string the page shows, in English and Russian: key -> [English, Russian].
// Placeholders are {name}. tests/web/test_static.py checks that every key used exists and
// that both languages are filled in.

export const MESSAGES = {
  // general
  app_name: ["kozyr", "козырь"],
  tagline: ["Imperial and Emperor, old Russian card games", "Империал и Император: старинные русские карточные игры"],
  language: ["Language", "Язык"],
  lang_other: ["Русский", "English"],
  lang_switch_label: ["Switch the language to Russian", "Переключить язык на английский"],
  loading: ["Loading…", "Загрузка…"],
  connecting: ["Connecting…", "Подключение…"],
  reconnecting: ["Connection lost, reconnecting…", "Связь потеряна, переподключение…"],
  connected: ["Connected", "Подключено"],
  close: ["Close", "Закрыть"],
  cancel: ["Cancel", "Отмена"],
  back: ["Back", "Назад"],
  error: ["Something went wrong: {message}", "Что-то пошло не так: {message}"],
  skip_to_game: ["Skip to the game", "Перейти к игре"],
  // accounts
  sign_in: ["Sign in", "Войти"],
  register: ["Create an account", "Создать учётную запись"],
  guest: ["Play as a guest", "Играть гостем"],
  sign_out: ["Sign out", "Выйти"],
  user_name: ["Name", "Имя"],
  password: ["Password", "Пароль"],
  signed_in_as: ["Signed in as {name}", "Вы вошли как {name}"],
  guest_badge: ["guest", "гость"],
  auth_intro: [
    "Sign in to keep your games and ratings, or play at once as a guest.",
    "Войдите, чтобы сохранять партии и рейтинг, или сразу играйте гостем.",
  ],
  have_account: ["I have an account", "У меня есть учётная запись"],
  new_account: ["I am new here", "Я здесь впервые"],
  // lobby
  lobby: ["Lobby", "Лобби"],
  open_tables: ["Open tables", "Открытые столы"],
  live_tables: ["Games in progress", "Идущие партии"],
  no_tables: ["No tables right now. Create one!", "Сейчас столов нет. Создайте свой!"],
  my_games: ["My games", "Мои партии"],
  no_games: ["No finished games yet.", "Законченных партий пока нет."],
  create_table: ["Create a table", "Создать стол"],
  quick_play: ["Quick play against the computer", "Быстрая игра с компьютером"],
  quick_play_go: ["Play", "Играть"],
  bot_level: ["Computer level", "Уровень компьютера"],
  level_n: ["Level {n}", "Уровень {n}"],
  level_1: ["1: beginner", "1: новичок"],
  level_2: ["2: amateur", "2: любитель"],
  level_3: ["3: club player", "3: игрок клуба"],
  level_4: ["4: expert", "4: мастер спорта"],
  level_5: ["5: master", "5: гроссмейстер"],
  game: ["Game", "Игра"],
  game_imperial: ["Imperial", "Империал"],
  game_emperor: ["Emperor", "Император"],
  game_imperial_about: [
    "2-3 players: imperials, honours and the tombé.",
    "2-3 игрока: империалы, онеры и томбе.",
  ],
  game_emperor_about: [
    "3-4 players: titles, swapped hands and bargains.",
    "3-4 игрока: звания, обмен картами и торг.",
  ],
  players: ["Players", "Игроки"],
  players_n: ["{n} players", "{n} игрока"],
  opt_target: ["Imperials to win", "Империалов для победы"],
  opt_tombe_value: ["Imperial tombé is worth", "Империал томбе стоит"],
  opt_must_head: ["Must beat the trick when able", "Обязательно перебивать взятку"],
  opt_trick_bonus_over: ["Trick bonus above", "Премия за взятки больше"],
  opt_stake: ["Stake", "Ставка"],
  opt_rounds: ["Rounds", "Туров"],
  opt_bargain_from: ["Bargaining from round", "Торг с тура"],
  opt_max_offer: ["Largest offer", "Наибольший откуп"],
  opt_turn_timeout: ["Seconds per move", "Секунд на ход"],
  opt_private: ["Private table (by invitation)", "Закрытый стол (по приглашению)"],
  opt_bots: ["Fill empty seats with the computer", "Свободные места занять компьютером"],
  create: ["Create", "Создать"],
  join: ["Sit down", "Сесть"],
  watch: ["Watch", "Смотреть"],
  replay: ["Replay", "Повтор"],
  resume: ["Back to the table", "Вернуться за стол"],
  seat_free: ["free seat", "свободно"],
  seats_taken: ["{taken} of {n} seats", "занято {taken} из {n}"],
  table_waiting: ["waiting for players", "ждём игроков"],
  table_playing: ["playing", "идёт игра"],
  table_finished: ["finished", "окончена"],
  rounds_n: ["{n} rounds", "туров: {n}"],
  open_record: ["Replay a record file", "Повтор из файла записи"],
  invite_link: ["Invitation link", "Ссылка-приглашение"],
  add_bot: ["Add the computer", "Посадить компьютер"],
  remove_bot: ["Remove the computer", "Убрать компьютер"],
  bot_name: ["Computer {n}", "Компьютер {n}"],
  // table
  table: ["Table", "Стол"],
  leave_table: ["Leave the table", "Уйти из-за стола"],
  your_turn: ["Your turn", "Ваш ход"],
  waiting_for: ["Waiting for {name}", "Ходит {name}"],
  waiting_start: ["Waiting for players to sit down…", "Ждём, пока сядут игроки…"],
  watching: ["You are watching", "Вы зритель"],
  spectators_n: ["Spectators: {n}", "Зрителей: {n}"],
  you: ["You", "Вы"],
  seat_n: ["Seat {n}", "Место {n}"],
  computer: ["computer", "компьютер"],
  online: ["online", "в сети"],
  offline: ["offline", "не в сети"],
  away: ["away: the computer plays", "отошёл: играет компьютер"],
  im_back: ["I am back: let me play", "Я вернулся: дайте играть"],
  cards_n: ["{n} cards", "карт: {n}"],
  seconds_left: ["{n} s left", "осталось {n} с"],
  trump: ["Trump", "Козырь"],
  no_trumps: ["no trumps", "без козыря"],
  trump_unnamed: ["not named yet", "ещё не назван"],
  turnup: ["Turn-up", "Вскрыта"],
  trump_card: ["Trump card", "Козырная карта"],
  dealer: ["dealer", "сдаёт"],
  deal_n: ["Deal {n}", "Сдача {n}"],
  round_n: ["Round {n} of {of}", "Тур {n} из {of}"],
  trick: ["Trick", "Взятка"],
  trick_n: ["Trick {n}", "Взятка {n}"],
  tricks: ["Tricks", "Взятки"],
  your_hand: ["Your hand", "Ваши карты"],
  hand_of: ["{name}'s hand", "Карты: {name}"],
  shown_cards: ["Shown cards", "Открытые карты"],
  shown_to_all: ["Shown to everyone (declared)", "Показана всем (объявлена)"],
  known_cards: ["Cards you know", "Известные вам карты"],
  scores: ["Scores", "Счёт"],
  player: ["Player", "Игрок"],
  imperials: ["Imperials", "Империалы"],
  points: ["Points", "Очки"],
  to_next: ["{n} to the next imperial", "до империала: {n}"],
  target_n: ["Play to {n} imperials", "Игра до {n} империалов"],
  title: ["Title", "Звание"],
  total: ["Total", "Всего"],
  this_round: ["This round", "В этом туре"],
  events: ["Game log", "Ход игры"],
  play_card: ["Play {card}", "Сыграть: {card}"],
  card_not_legal: ["{card} cannot be played now", "{card} сейчас ходить нельзя"],
  card_not_in_hand: ["You do not hold {card}", "У вас нет карты {card}"],
  keyboard_hint: [
    "Keys: ← → choose, Enter plays; or type a card such as QS or 10H.",
    "Клавиши: ← → выбор, Enter — ход; или наберите карту: ДП, 10Ч.",
  ],
  typed: ["Typed: {text}", "Набрано: {text}"],
  legal_card: ["can be played", "можно сыграть"],
  not_legal_card: ["cannot be played now", "сейчас нельзя"],
  played_by: ["{name} played {card}", "{name}: ход {card}"],
  last_trick: ["Last trick", "Прошлая взятка"],
  takes_trick: ["{name} takes the trick", "Взятку берёт {name}"],
  rejected: ["Not accepted: {message}", "Не принято: {message}"],
  // Emperor titles and decisions
  title_king: ["King", "Король"],
  title_prince: ["Prince", "Принц"],
  title_soldier: ["Soldier", "Солдат"],
  title_jester: ["Jester", "Скоморох"],
  title_emperor: ["Emperor", "Император"],
  no_title: ["no title yet", "без звания"],
  exchange_title: ["Exchange of hands", "Обмен картами"],
  exchange_prompt: [
    "You may take another player's hand (giving yours in return), or pass.",
    "Вы можете забрать карты другого игрока (отдав свои) или спасовать.",
  ],
  exchange_bargain_note: [
    "Bargaining is on: the player you name may buy you off with tricks.",
    "Идёт торг: тот, кого вы назовёте, может откупиться взятками.",
  ],
  take_hand_of: ["Take the hand of {name}", "Забрать карты у {name}"],
  pass: ["Pass", "Пас"],
  bargain_title: ["Bargaining", "Торг"],
  bargain_prompt: [
    "{name} wants your hand. Offer tricks from your game total, or give in.",
    "{name} хочет забрать ваши карты. Предложите взятки со своего счёта или уступите.",
  ],
  offer_k: ["Offer {k}", "Предложить {k}"],
  give_in: ["Give in (swap hands)", "Уступить (обмен картами)"],
  answer_title: ["An offer", "Предложение"],
  answer_prompt: [
    "{name} offers you {k} trick(s) to keep the hand.",
    "{name} предлагает вам взяток: {k}, чтобы оставить карты себе.",
  ],
  accept: ["Accept", "Принять"],
  refuse: ["Refuse", "Отказаться"],
  trump_title: ["Name trump", "Назовите козырь"],
  trump_prompt: [
    "As King you name trump for this round, or play without trumps.",
    "Как Король вы называете козырь этого тура или играете без козыря.",
  ],
  your_choice: ["Your choice", "Ваш выбор"],
  waiting_decision: ["{name} is deciding…", "{name} решает…"],
  // end of game
  game_over: ["Game over", "Игра окончена"],
  winner_is: ["{name} wins", "Победитель: {name}"],
  you_win: ["You win!", "Вы победили!"],
  standing: ["Final standing", "Итоговые места"],
  place: ["Place", "Место"],
  stakes: ["Stakes", "Ставки"],
  download_record: ["Download the game record", "Скачать запись партии"],
  watch_replay: ["Watch the replay", "Смотреть повтор"],
  back_to_lobby: ["Back to the lobby", "В лобби"],
  play_again: ["Play again", "Сыграть ещё"],
  // replay
  replay_title: ["Replay", "Повтор партии"],
  replay_step: ["Step {n} of {of}", "Шаг {n} из {of}"],
  replay_first: ["To the start", "В начало"],
  replay_prev: ["Step back", "Шаг назад"],
  replay_next: ["Step forward", "Шаг вперёд"],
  replay_last: ["To the end", "В конец"],
  replay_play: ["Play", "Воспроизвести"],
  replay_pause: ["Pause", "Пауза"],
  replay_keys: ["Keys: ← → step, Home / End", "Клавиши: ← → шаг, Home / End"],
  replay_action: ["{name}: {action}", "Ход — {name}: {action}"],
  replay_start: ["Start of the game", "Начало партии"],
  // narration of events (docs/rules-imperial.md, docs/rules-emperor.md)
  ev_deal: ["Deal {n}: {dealer} deals; trump {trump}", "Сдача {n}: сдаёт {dealer}; козырь {trump}"],
  ev_deal_turnup: ["turn-up {card}", "вскрыта {card}"],
  ev_deal_trump_card: ["dealer's trump card {card}", "козырь сдатчика {card}"],
  ev_white: ["{name}: a white imperial! {cards}", "{name}: белый империал! {cards}"],
  ev_turnup: ["{name}: an honour is turned up: {cards}", "{name}: вскрыт онер {cards}"],
  ev_imperials_unmarked: [
    "{name}: {n} imperial(s), fewer: not marked",
    "{name}: империалов {n}, меньше — не записываются",
  ],
  ev_imperials: ["{name}: imperials {list}", "{name}: империалы {list}"],
  ev_imperial_item: ["{kind}{turned} ×{n}: {cards}", "{kind}{turned} ×{n}: {cards}"],
  ev_turned: [" (turned)", " (вскрытый)"],
  kind_suit: ["suit imperial", "империал в масти"],
  kind_four: ["four of a kind", "четыре одного достоинства"],
  kind_white: ["white imperial", "белый империал"],
  ev_point: [
    "{name}: point in {suit}, {length} cards, value {value}",
    "{name}: масть {suit}, {length} карт, {value} очков",
  ],
  ev_honours: ["{name}: honours {cards}", "{name}: онеры {cards}"],
  ev_score: ["{name} +{n} points ({reason})", "{name} +{n} очк. ({reason})"],
  ev_mark: [
    "{name} marks {n} imperial(s) ({reason}); {total} in all",
    "{name} записывает империалов: {n} ({reason}); всего {total}",
  ],
  ev_wipe: [
    "{name}: {n} points wiped ({by} marked)",
    "{name}: −{n} очк. стёрто (империал записал {by})",
  ],
  ev_trick: ["Trick {n}: {cards} → {winner}", "Взятка {n}: {cards} → {winner}"],
  ev_capture: ["{name} captures {card} with {by} (tombé)", "{name} взял {card} своим {by} (томбе)"],
  ev_deal_end: ["Tricks: {list}", "Взятки: {list}"],
  ev_deal_end_white: ["No play in this deal.", "Сдача без розыгрыша."],
  ev_game_over: ["Game over. {name} wins", "Игра окончена. Победитель: {name}"],
  reason_turnup: ["an honour turned up", "вскрыт онер"],
  reason_imperials: ["imperials", "империалы"],
  reason_point: ["the point", "масть"],
  reason_honours: ["honours in hand", "онеры на руках"],
  reason_honour_led: ["leading an honour", "ход онером"],
  reason_honour_heads: ["an honour that beats the trick", "онер перекрыл ход"],
  reason_tombe: ["imperial tombé", "империал томбе"],
  reason_capot: ["capot: all 12 tricks", "капот: все 12 взяток"],
  reason_tricks: ["more than six tricks", "больше шести взяток"],
  reason_24: ["24 points", "24 очка"],
  reason_white: ["white imperial", "белый империал"],
  ev_round1: [
    "Round 1: trump {trump} ({card}); {leader} leads",
    "Тур 1: козырь {trump} ({card}); первым ходит {leader}",
  ],
  ev_round: ["Round {n}: {titles}", "Тур {n}: {titles}"],
  ev_bargaining_on: ["; bargaining is on", "; торги разрешены"],
  ev_pass: ["{name}: pass", "{name}: пас"],
  ev_swap: ["{taker} takes the hand of {target}", "{taker} забирает карты у {target}"],
  ev_swap_named: ["{taker} names as target {target}", "{taker} хочет забрать карты у {target}"],
  ev_offer: ["{name} offers {n} trick(s)", "{name} предлагает откупиться: {n} взят."],
  ev_accept: [
    "{name} accepts: {target} pays {n} trick(s) from the game total",
    "{name} принимает: {target} передаёт {n} взят. со своего счёта",
  ],
  ev_refuse: ["{name} refuses", "{name} отказывается"],
  ev_yield: ["{name} gives in: hands swapped with {taker}", "{name} уступает: обмен картами с {taker}"],
  ev_trump: ["{name}: trump {trump}", "{name}: козырь {trump}"],
  ev_round_end: ["Tricks: {tricks}. Titles: {titles}", "Взятки: {tricks}. Звания: {titles}"],
  ev_standing: ["Game over. Final standing: {list}", "Игра окончена. Итоговые места: {list}"],
  why_first_trick: [
    "{names}: equal tricks, the earlier first trick ranks higher",
    "{names}: взяток поровну — выше тот, кто раньше взял первую взятку",
  ],
  why_previous_order: [
    "{names}: no tricks, they keep their previous order",
    "{names}: без взяток — остаются в прежнем порядке",
  ],
  why_last_titles: [
    "{names}: equal totals, the better title after the last round ranks higher",
    "{names}: поровну — выше тот, чьё звание после последнего тура выше",
  ],
  // server error codes (docs/protocol.md) that the page may show
  err_network: ["The server cannot be reached.", "Сервер недоступен."],
  err_bad_login: ["Wrong name or password.", "Неверное имя или пароль."],
  err_name_taken: ["That name is taken.", "Это имя уже занято."],
  err_record_missing: ["This game has no record yet.", "У этой партии ещё нет записи."],
  // Our words for errors when the server gives none of its own (an old server, a proxy).
  err_stale: ["The game moved on.", "Игра уже ушла вперёд."],
  err_too_many_attempts: ["Too many attempts.", "Слишком много попыток."],
  err_too_many_accounts: ["Too many new accounts from here.", "Слишком много новых учётных записей отсюда."],
  err_too_many_tables: ["You have opened too many tables.", "Вы открыли слишком много столов."],
  err_bad_origin: [
    "The request came from another site and was refused.",
    "Запрос пришёл с другого сайта и отклонён.",
  ],
  err_bad_content_type: ["The server takes only JSON.", "Сервер принимает только JSON."],
  err_bad_request: ["The server did not understand the request.", "Сервер не понял запрос."],
  err_http_400: ["The server did not understand the request.", "Сервер не понял запрос."],
  err_http_401: ["Sign in or play as a guest first.", "Сначала войдите или играйте как гость."],
  err_http_403: ["Not allowed.", "Не разрешено."],
  err_http_404: ["Not found on the server.", "На сервере этого нет."],
  err_http_413: ["That is too large for the server.", "Это слишком велико для сервера."],
  err_http_415: ["The server takes only JSON.", "Сервер принимает только JSON."],
  err_http_429: ["Too many requests.", "Слишком много запросов."],
  err_http_500: ["The server failed; try again later.", "Сбой на сервере; попробуйте позже."],
  err_http_503: ["The server is busy; try again later.", "Сервер занят; попробуйте позже."],
  retry_in_s: ["You may try again in {n} s.", "Повторить можно через {n} с."],
  retry_in_min: ["You may try again in {n} min.", "Повторить можно через {n} мин."],
  retry_later: ["You may try again later.", "Повторите попытку позже."],
  // the connection
  conn_too_slow: [
    "The connection was too slow; reconnecting in {n} s…",
    "Связь была слишком медленной; переподключение через {n} с…",
  ],
  conn_policy: [
    "The server closed the connection (too many messages); reconnecting in {n} s…",
    "Сервер закрыл соединение (слишком много сообщений); переподключение через {n} с…",
  ],
  signed_out_again: [
    "You were signed out. Sign in again to go on.",
    "Вы вышли из учётной записи. Войдите снова, чтобы продолжить.",
  ],
  not_connected: [
    "Not sent: no connection. Try again when it is back.",
    "Не отправлено: нет связи. Повторите, когда связь вернётся.",
  ],
  // the lobby's pages
  more_tables: ["More tables", "Ещё столы"],
  // fair dealing
  fair_about: [
    "The deals are fixed by a secret seed; this is its fingerprint. After the game the record reveals the seed and anyone can check every deal.",
    "Сдачи заданы тайным зерном; это его отпечаток. После игры запись партии раскрывает зерно, и любой может проверить каждую сдачу.",
  ],
  fair_label: ["Fingerprint of the deals' seed", "Отпечаток зерна сдач"],
  verify: ["Verify the deals", "Проверить сдачи"],
  verify_about: [
    "Check every deal of this game against the seed revealed in its record",
    "Проверить каждую сдачу этой партии по зерну, раскрытому в её записи",
  ],
  verify_checking: ["Checking the deals…", "Проверяем сдачи…"],
  verify_fair: [
    "Fair: the seed matches the commitment and all {n} deals.",
    "Честно: зерно совпадает с отпечатком, данным до игры, и со всеми сдачами ({n}).",
  ],
  verify_fair_one: [
    "Fair: the seed matches the commitment and the game's one deal.",
    "Честно: зерно совпадает с отпечатком, данным до игры, и с единственной сдачей.",
  ],
  verify_unfair: [
    "Does not check out: {ok} of {n} deals match the seed.",
    "Не сходится: зерну соответствуют сдачи {ok} из {n}.",
  ],
  verify_commitment_bad: [
    "The seed does not match the commitment given at the start.",
    "Зерно не совпадает с отпечатком, данным в начале игры.",
  ],
  verify_legacy_ok: [
    "Dealt before commitments existed: all {n} deals match the record's seed, but that seed was not fixed in public before the game.",
    "Партия сдана до появления отпечатков: все сдачи ({n}) соответствуют зерну из записи, но это зерно не было объявлено до игры.",
  ],
  verify_legacy_ok_one: [
    "Dealt before commitments existed: the one deal matches the record's seed, but that seed was not fixed in public before the game.",
    "Партия сдана до появления отпечатков: единственная сдача соответствует зерну из записи, но это зерно не было объявлено до игры.",
  ],
  verify_legacy_bad: [
    "Dealt before commitments existed, and only {ok} of {n} deals match the record's seed.",
    "Партия сдана до появления отпечатков, и зерну из записи соответствуют лишь сдачи {ok} из {n}.",
  ],
  verify_problems: ["What does not match:", "Что не сходится (по-английски):"],
  // spectators' bets (js/bets.js)
  bets_head: ["Bets", "Ставки"],
  bets_head_read: ["Spectators' bets", "Ставки зрителей"],
  bets_about: [
    "Pools on each outcome; the winners share the whole pool. Closes when its deal is dealt.",
    "Ставки на каждый исход складываются; угадавшие делят весь банк. Рынок закрывается при сдаче его сдачи.",
  ],
  bets_open: ["Open markets", "Открытые рынки"],
  bets_done: ["Closed and settled", "Закрытые и рассчитанные"],
  bets_none_open: ["No market is open now.", "Сейчас открытых рынков нет."],
  bets_outcome: ["Outcome", "Исход"],
  bets_chips: ["Chips", "Фишки"],
  bets_place: ["Bet", "Поставить"],
  bets_pool: ["Pool: {chips}", "Банк: {chips}"],
  bets_return: ["1 chip → {x}", "1 фишка → {x}"],
  bets_mine: ["My bets", "Мои ставки"],
  bets_pending: ["waiting", "ждёт исхода"],
  bets_paid: ["paid {chips}", "выплачено: {chips}"],
  bets_closed: ["Closed, waiting for the outcome", "Закрыт, ждёт исхода"],
  bets_outcome_is: ["Outcome: {outcome}", "Исход: {outcome}"],
  bets_placed: ["Bet taken: {chips} on {outcome}.", "Ставка принята: {chips} на «{outcome}»."],
  bets_settled_notice: [
    "Settled: {market}: {outcome}. You get {chips}.",
    "Рассчитано: {market}: {outcome}. Вам: {chips}.",
  ],
  bets_tricks: ["{range} tricks", "взяток: {range}"],
  bets_yes: ["yes", "да"],
  bets_no: ["no", "нет"],
  bets_over: ["over", "больше"],
  bets_under: ["under", "меньше"],
  bets_nobody: ["nobody", "никто"],
  bets_void: ["void (refunded)", "не состоялся (возврат)"],
  bets_chips_one: ["{n} chip", "{n} фишка"],
  bets_chips_few: ["{n} chips", "{n} фишки"],
  bets_chips_many: ["{n} chips", "{n} фишек"],
  bets_chips_other: ["{n} chips", "{n} фишки"],
};

const listeners = new Set();
let current = "en";

/** The language from the saved choice, else the browser's, else English. */
export function initialLang() {
  try {
    const saved = localStorage.getItem("kozyr.lang");
    if (saved === "en" || saved === "ru") return saved;
  } catch {
    /* storage may be blocked */
  }
  const langs = navigator.languages?.length ? navigator.languages : [navigator.language || "en"];
  return langs.some((l) => String(l).toLowerCase().startsWith("ru")) ? "ru" : "en";
}

export function lang() {
  return current;
}

export function setLang(value) {
  current = value === "ru" ? "ru" : "en";
  document.documentElement.lang = current;
  try {
    localStorage.setItem("kozyr.lang", current);
  } catch {
    /* storage may be blocked */
  }
  applyStatic(document);
  for (const fn of listeners) fn(current);
}

export function onLangChange(fn) {
  listeners.add(fn);
}

export function hasMessage(key) {
  return Object.hasOwn(MESSAGES, key);
}

/** The message `key` in the current language, with {placeholders} filled in. */
export function t(key, params = {}) {
  const pair = MESSAGES[key];
  if (!pair) {
    console.warn("kozyr: missing message", key);
    return key;
  }
  const text = pair[current === "ru" ? 1 : 0];
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Fills elements marked data-i18n (text), data-i18n-label (aria-label), data-i18n-title. */
export function applyStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
}
