// Every string the page shows, in English and Russian: key -> [English, Russian].
// Placeholders are {name}. tests/web/test_static.py checks that every key used exists and
// that both languages are filled in.

import { countOf, declineName, hasNoun } from "./plural.js";

export const MESSAGES = {
  // general
  app_name: ["kozyr", "козырь"],
  tagline: ["Imperial and Emperor, old Russian card games", "Империал и Император: старинные русские карточные игры"],
  language: ["Language", "Язык"],
  lang_other: ["Русский", "English"],
  lang_switch_label: ["Switch the language to Russian", "Переключить язык на английский"],
  // the colours of the page (js/theme.js)
  theme_auto: ["Theme: auto (as the device)", "Тема: авто (как на устройстве)"],
  theme_light: ["Theme: light", "Тема: светлая"],
  theme_dark: ["Theme: dark", "Тема: тёмная"],
  loading: ["Loading…", "Загрузка…"],
  connecting: ["Connecting…", "Подключение…"],
  reconnecting: ["Connection lost, reconnecting…", "Связь потеряна, переподключение…"],
  connected: ["Connected", "Подключено"],
  close: ["Close", "Закрыть"],
  cancel: ["Cancel", "Отмена"],
  back: ["Back", "Назад"],
  error: ["Something went wrong: {message}", "Что-то пошло не так: {message}"],
  skip_to_game: ["Skip to the game", "Перейти к игре"],
  // friends, blocks and challenges (#44: js/friends.js)
  friends_head: ["Friends", "Друзья"],
  friends_guest: ["Friends and challenges are for accounts: create one to keep them.", "Друзья и вызовы есть только у учётных записей: создайте её, чтобы они сохранялись."],
  friends_name: ["Player's name", "Имя игрока"],
  friends_follow: ["Follow", "Подписаться"],
  friends_unfollow: ["Unfollow", "Отписаться"],
  friends_block: ["Block", "Заблокировать"],
  friends_unblock: ["Unblock", "Разблокировать"],
  friends_challenge: ["Challenge", "Вызвать"],
  friends_none: ["You follow nobody yet: type a name above.", "Вы ещё ни на кого не подписаны: введите имя выше."],
  friends_blocked_head: ["Blocked", "Заблокированные"],
  friends_online: ["online", "в сети"],
  friends_offline: ["offline", "не в сети"],
  friends_playing: ["playing {game}", "играет: {game}"],
  friends_watching: ["watching {game}", "смотрит: {game}"],
  friends_open_table: ["to the table", "к столу"],
  challenge_head: ["Challenge {name}", "Вызов: {name}"],
  challenge_bots: ["Other seats", "Остальные места"],
  challenge_bots_open: ["Left open", "Оставить свободными"],
  challenge_private: ["Private table", "Закрытый стол"],
  challenge_send: ["Send the challenge", "Отправить вызов"],
  challenge_sent: ["Challenge sent to {name}.", "Вызов отправлен: {name}."],
  challenge_incoming: ["{name} challenges you: {game}, {n} players.", "Вас вызывает {name}: {game}, игроков: {n}."],
  challenge_outgoing: ["Waiting for {name} to answer ({game})…", "Ждём ответа от игрока {name} ({game})…"],
  challenge_accept: ["Accept", "Принять"],
  challenge_decline: ["Decline", "Отклонить"],
  challenge_cancel: ["Cancel the challenge", "Отменить вызов"],
  challenge_declined: ["{name} declined your challenge.", "Игрок {name} отклонил вызов."],
  // accounts
  sign_in: ["Sign in", "Войти"],
  register: ["Create an account", "Создать учётную запись"],
  guest: ["Play as a guest", "Играть гостем"],
  sign_out: ["Sign out", "Выйти"],
  user_name: ["Name", "Имя"],
  password: ["Password", "Пароль"],
  password_rule: ["Password (8 characters or more)", "Пароль (не меньше 8 символов)"],
  // the page's own words for a field the browser finds wrong (not the browser's language)
  check_missing: ["Please fill in this field.", "Заполните это поле."],
  check_short: ["At least {n} characters, please.", "Нужно не меньше {n} символов."],
  check_long: ["At most {n} characters, please.", "Можно не больше {n} символов."],
  check_whole: ["A whole number, please.", "Нужно целое число."],
  check_low: ["At least {n}, please.", "Нужно не меньше {n}."],
  check_high: ["At most {n}, please.", "Нужно не больше {n}."],
  check_format: ["That does not look right: please check it.", "Проверьте, что здесь написано."],
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
  level_rated: ["{level} ≈ {rating}", "{level} ≈ {rating}"],
  level_1: ["1: beginner", "1: новичок"],
  level_2: ["2: amateur", "2: любитель"],
  level_3: ["3: club player", "3: клубный игрок"],
  level_4: ["4: expert", "4: знаток"],
  level_5: ["5: master", "5: мастер"],
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
  players_n: ["{n:player}", "{n:player}"],
  opt_target: ["Imperials to win", "Империалов для победы"],
  opt_tombe_value: ["Imperial tombé is worth", "Империал томбе стоит"],
  opt_must_head: ["Must beat the trick when able", "Перебивать обязательно, если можно"],
  opt_trick_bonus_over: ["Trick bonus above", "Премия за взятки свыше"],
  opt_stake: ["Game value (no chips)", "Цена партии (без фишек)"],
  opt_stake_about: [
    "What each loser owes the winner in the game's own score. No chips: those are the stake below, “Play for chips”.",
    "Сколько каждый проигравший должен победителю в счёте самой игры. Это не фишки: на фишки играют по ставке ниже, «Игра на фишки».",
  ],
  opt_rounds: ["Rounds", "Число туров"],
  opt_bargain_from: ["Bargaining from round", "Торг с тура"],
  opt_max_offer: ["Largest offer", "Наибольший откуп"],
  opt_turn_timeout: ["Seconds per move", "Секунд на ход"],
  opt_private: ["Private table (by invitation)", "Закрытый стол (по приглашению)"],
  opt_bots: ["Fill empty seats with the computer", "Посадить компьютер на свободные места"],
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
  rounds_n: ["{n:round}", "{n:round}"],
  open_record: ["Replay a record file", "Повтор из файла записи"],
  choose_file: ["Choose a file…", "Выбрать файл…"],
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
  watching: ["You are watching", "Вы — зритель"],
  spectators_n: ["Spectators: {n}", "Зрителей: {n}"],
  you: ["You", "Вы"],
  seat_n: ["Seat {n}", "Место {n}"],
  computer: ["computer", "компьютер"],
  online: ["online", "в сети"],
  offline: ["offline", "не в сети"],
  away: ["away: the computer plays", "отошёл: играет компьютер"],
  away_you_short: ["the computer plays for you", "за вас играет компьютер"],
  away_you: ["The computer is playing for you", "За вас играет компьютер"],
  im_back: ["I'm back", "Вернуться в игру"],
  // leaving a game in progress (js/leaving.js)
  leave_title: ["Leave the game?", "Уйти из-за стола?"],
  leave_seat: [
    "The game goes on without you: the computer plays your seat until you come back. The seat stays yours; to come back, open the game from “My games” in the lobby.",
    "Партия продолжится без вас: пока вы не вернётесь, за вас играет компьютер. Место остаётся за вами — вернуться можно из лобби, раздел «Мои партии».",
  ],
  leave_stake: [
    "Your stake stays in play: the game the computer plays out for you settles it. The most you can lose: {hold}.",
    "Ставка остаётся в игре: расчёт пройдёт по итогу партии, которую за вас доиграет компьютер. Наибольший возможный проигрыш: {hold}.",
  ],
  leave_rated: ["The game stays rated: its result counts for your rating.", "Партия остаётся рейтинговой: её итог пойдёт в ваш рейтинг."],
  leave_stay: ["Stay at the table", "Остаться за столом"],
  leave_go: ["Leave: the computer plays for me", "Уйти: пусть играет компьютер"],
  cards_n: ["{n:card}", "{n:card}"],
  seconds_left: ["{n} s left", "осталось {n} с"],
  trump: ["Trump", "Козырь"],
  no_trumps: ["no trumps", "бескозырка"],
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
  to_next: ["{n:point} to the next imperial", "до империала ещё {n:point}"],
  target_n: ["Play to {n:imperial}", "Игра до {n:imperial_gen}"],
  title: ["Title", "Звание"],
  total: ["Total", "Всего"],
  this_round: ["This round", "В этом туре"],
  events: ["Game log", "Ход игры"],
  play_card: ["Play {card}", "Сыграть: {card}"],
  card_refused: ["Not {card}: {reason}", "{card} нельзя: {reason}"],
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
  rejected: ["Not accepted: {message}", "Ход не принят: {message}"],
  // Emperor titles and decisions
  title_king: ["King", "Король"],
  title_prince: ["Prince", "Принц"],
  title_soldier: ["Soldier", "Солдат"],
  title_jester: ["Jester", "Скоморох"],
  title_emperor: ["Emperor", "Император"],
  no_title: ["no title yet", "без звания"],
  exchange_title: ["Exchange of hands", "Обмен картами"],
  exchange_prompt: [
    "Take a lower player's hand unseen, giving him yours, or pass.",
    "Заберите вслепую карты младшего по званию, отдав ему свои, или спасуйте.",
  ],
  exchange_bargain_note: [
    "Bargaining is on: he may buy you off with tricks.",
    "Идёт торг: он может откупиться взятками.",
  ],
  take_hand_of: ["Take the hand of {name}", "Забрать карты у {name:gen}"],
  pass: ["Pass", "Пас"],
  bargain_title: ["Bargaining", "Торг"],
  bargain_prompt: [
    "{name} wants your hand. Offer tricks from your game total, or give in.",
    "{name} хочет забрать ваши карты. Откупитесь взятками со своего счёта или уступите.",
  ],
  offer_k: ["Offer {k:trick}", "Предложить {k:trick_acc}"],
  offer_short: ["{k:trick}", "{k:trick_acc}"],
  give_in: ["Give in (swap hands)", "Уступить (обмен картами)"],
  answer_title: ["An offer", "Предложение откупа"],
  answer_prompt: [
    "{name} offers you {k:trick} to keep the hand.",
    "{name} предлагает вам {k:trick_acc}, чтобы оставить карты себе.",
  ],
  accept: ["Accept", "Принять"],
  refuse: ["Refuse", "Отказаться"],
  trump_title: ["Name trump", "Назовите козырь"],
  trump_prompt: [
    "As King you name trump for this round, or play without trumps.",
    "Вы Король: назовите козырь на этот тур или объявите бескозырку.",
  ],
  your_choice: ["Your choice", "Ваш выбор"],
  waiting_decision: ["{name} is deciding…", "{name} решает…"],
  // end of game
  game_over: ["Game over", "Игра окончена"],
  winner_is: ["{name} wins", "Победитель: {name}"],
  you_win: ["You win!", "Вы победили!"],
  standing: ["Final standing", "Итоговые места"],
  place: ["Place", "Место"],
  stakes: ["Game value", "Цена партии"],
  stakes_about: [
    "The game's own result, in game values (set when the table was opened); chips are settled apart, by the table's stake.",
    "Итог в счёте самой игры, в ценах партии (задана при создании стола); фишки рассчитываются отдельно, по ставке стола.",
  ],
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
  replay_to_review: ["Back to the review, at this move", "Назад к разбору, к этому ходу"],
  // hints at casual tables (#15)
  hint: ["Hint", "Подсказка"],
  hint_about: [
    "The computer suggests a move from what you can see",
    "Компьютер подскажет ход, исходя из того, что видите вы",
  ],
  hint_thinking: ["Thinking…", "Думаю…"],
  hint_answer: ["Best: {move} (expected {unit}: {value})", "Лучший ход: {move} (ожидается {unit}: {value})"],
  opt_hints: ["Allow hints", "Разрешить подсказки"],
  hints_off_rated: ["Hints are not allowed at rated tables", "На рейтинговых столах подсказки запрещены"],
  hints_pill: ["hints", "с подсказками"],
  // the post-game review (#15)
  review_game: ["Review this game", "Разбор партии"],
  review_game_about: [
    "The computer weighs every decision against the best move, from what that player could see",
    "Компьютер сравнивает каждое решение с лучшим ходом, исходя из того, что видел игрок",
  ],
  review_depth: ["Review depth", "Глубина разбора"],
  review_depth_about: ["Deeper is slower and surer", "Глубже — дольше, но точнее"],
  review_level_n: ["Depth {n}", "Глубина {n}"],
  review_title: ["Review of the game", "Разбор партии"],
  review_close: ["Close the review", "Закрыть разбор"],
  review_queued: ["Waiting for a free reviewer…", "Ждём очереди на разбор…"],
  review_queued_place: [
    "Waiting for a free reviewer: number {place} in line…",
    "Ждём очереди на разбор: вы {place}-й в очереди…",
  ],
  review_progress: ["Reviewing: move {done} of {total}", "Разбор: ход {done} из {total}"],
  review_failed: [
    "The review failed ({code}). You may ask for it again.",
    "Разбор не удался ({code}). Можно попросить ещё раз.",
  ],
  review_accuracy: ["Accuracy", "Точность"],
  review_mistakes: ["Mistakes", "Ошибки"],
  review_blunders: ["Blunders", "Грубые ошибки"],
  review_lost_per_deal: ["{unit} lost a deal", "Потеряно {unit} за сдачу"],
  review_lost_per_round: ["{unit} lost a round", "Потеряно {unit} за тур"],
  review_legend: [
    "Each move's value: how many {unit} it was expected to bring. Click a move to see it in the replay.",
    "Оценка хода — сколько {unit} он в среднем приносит. Нажмите на ход, чтобы увидеть его в повторе.",
  ],
  review_show: ["Show", "Показать"],
  review_all_players: ["All players", "Всех игроков"],
  review_only_mistakes: ["Mistakes only", "Только ошибки"],
  review_deal: ["Deal {n}", "Сдача {n}"],
  review_round: ["Round {n}", "Тур {n}"],
  review_played: ["played", "сыграно"],
  review_best: ["best", "лучший ход"],
  review_was_best: ["the best move", "это лучший ход"],
  review_loss: ["lost {n}", "потеря {n}"],
  review_mistake: ["mistake", "ошибка"],
  review_blunder: ["blunder", "грубая ошибка"],
  review_hindsight: ["hindsight", "задним числом"],
  review_jump: ["Show this move in the replay", "Показать этот ход в повторе"],
  review_none: ["No decisions to show.", "Нет решений для показа."],
  // narration of events (docs/rules-imperial.md, docs/rules-emperor.md)
  ev_deal: ["Deal {n}: {dealer} deals; trump {trump}", "Сдача {n}: сдаёт {dealer}; козырь {trump}"],
  ev_deal_turnup: ["turn-up {card}", "вскрыта {card}"],
  ev_deal_trump_card: ["dealer's trump card {card}", "козырь сдатчика {card}"],
  ev_white: ["{name}: a white imperial! {cards}", "{name}: белый империал! {cards}"],
  ev_turnup: ["{name}: an honour is turned up: {cards}", "{name}: вскрыт онер {cards}"],
  ev_imperials_unmarked: ["{name}: {n:imperial}, fewer: not marked", "{name}: {n:imperial} — меньше, не в счёт"],
  ev_imperials: ["{name}: imperials {list}", "{name}: хвалёж империалами — {list}"],
  ev_imperial_item: ["{kind}{turned} ×{n}: {cards}", "{kind}{turned} ×{n}: {cards}"],
  ev_turned: [" (turned)", " (вскрытый)"],
  kind_suit: ["suit imperial", "империал в масти"],
  kind_four: ["four of a kind", "четвёрка"],
  kind_white: ["white imperial", "белый империал"],
  ev_point: [
    "{name}: point in {suit}, {length:card}, value {value}",
    "{name}: хвалёж мастью — {suit}, {length:card}, {value:point}",
  ],
  ev_honours: ["{name}: honours {cards}", "{name}: онеры {cards}"],
  ev_score: ["{name} +{n:point} ({reason})", "{name} +{n:point} ({reason})"],
  ev_mark: [
    "{name} marks {n:imperial} ({reason}); {total} in all",
    "{name} записывает {n:imperial} ({reason}); всего {total}",
  ],
  ev_wipe: [
    "{name}: {n:point} wiped out ({by} marked an imperial)",
    "{name}: сгорело {n:point} (империал записал {by})",
  ],
  ev_trick: ["Trick {n}: {cards} → {winner}", "Взятка {n}: {cards} → {winner}"],
  ev_capture_toward: [
    "{name} captures {card} with {by}: one of the two cards for a tombé",
    "{name}: {by} берёт {card} — одна из двух карт для томбе",
  ],
  ev_capture_tombe: ["{name} captures {card} with {by}: tombé!", "{name}: {by} берёт {card} — томбе!"],
  ev_capture_played: [
    "{name} captures {card} with {by} (no tombé: {other} is already played)",
    "{name}: {by} берёт {card} (томбе не будет: {other} уже сыгран)",
  ],
  ev_capture_own: [
    "{name} captures {card} with {by} (no tombé: {other} is in his own hand)",
    "{name}: {by} берёт {card} (томбе не будет: {other} у него самого)",
  ],
  ev_deal_end: ["Tricks: {list}", "Взятки: {list}"],
  ev_deal_end_white: ["No play in this deal.", "Сдача без розыгрыша."],
  ev_game_over: ["Game over. {name} wins", "Игра окончена. Победитель: {name}"],
  reason_turnup: ["an honour turned up", "вскрыт онер"],
  reason_imperials: ["declared", "хвалёж империалами"],
  reason_point: ["the point", "хвалёж мастью"],
  reason_honours: ["honours in hand", "онеры на руках"],
  reason_honour_led: ["leading an honour", "ход онером"],
  reason_honour_heads: ["an honour that beats the trick", "онер перебил взятку"],
  reason_tombe: ["imperial tombé", "империал томбе"],
  reason_capot: ["capot: all 12 tricks", "капот: все 12 взяток"],
  reason_tricks: ["more than six tricks", "больше шести взяток"],
  reason_24: ["24 points", "набрано 24 очка"],
  reason_white: ["white imperial", "белый империал"],
  ev_round1: [
    "Round 1: trump {trump} ({card}); {leader} leads",
    "Тур 1: козырь {trump} ({card}); первым ходит {leader}",
  ],
  ev_round: ["Round {n}: {titles}", "Тур {n}: {titles}"],
  ev_bargaining_on: ["; bargaining is on", "; торг разрешён"],
  ev_pass: ["{name}: pass", "{name}: пас"],
  ev_swap: ["{taker} takes the hand of {target}", "{taker} забирает карты у {target:gen}"],
  ev_swap_named: ["{taker} wants the hand of {target}", "{taker} хочет забрать карты у {target:gen}"],
  ev_offer: [
    "{name} offers {n:trick} to keep the hand",
    "{name} предлагает откупиться, отдав {n:trick_acc}",
  ],
  ev_accept: [
    "{name} accepts: {target} pays {n:trick} from the game total",
    "{name} принимает: {target} отдаёт {n:trick_acc} со своего счёта",
  ],
  ev_refuse: ["{name} refuses", "{name} отказывается"],
  ev_yield: ["{name} gives in: hands swapped with {taker}", "{name} уступает: обмен картами с {taker:ins}"],
  ev_trump: ["{name} names trump: {trump}", "{name} называет козырь: {trump}"],
  ev_trump_nt: ["{name} names no trumps", "{name} объявляет бескозырку"],
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
    "{names}: итог поровну — выше тот, у кого звание после последнего тура старше",
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
  err_too_many_guests: ["Too many guests from here in the last hour.", "Отсюда за последний час вошло слишком много гостей."],
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
  err_http_413: ["The request is too large for the server.", "Слишком большой запрос."],
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
  // ratings, profiles, leaderboards and account settings (#13). Families ending in
  // _one/_two/_few/_many/_other are chosen by Intl.PluralRules (tn() below).
  nav_leaderboard: ["Leaderboard", "Рейтинг"],
  nav_my_profile: ["My profile", "Мой профиль"],
  rated: ["rated", "рейтинговая"],
  casual: ["casual", "без рейтинга"],
  opt_rated: ["Rated game", "Рейтинговая партия"],
  rated_hint: [
    "The result changes the players' ratings.",
    "Итог партии изменит рейтинг игроков.",
  ],
  rated_hint_quick: [
    "On: rated games only, against the computer too. Off: a table of people may still be rated.",
    "Включено: только рейтинговые партии, и с компьютером тоже. Выключено: стол с людьми всё равно может оказаться рейтинговым.",
  ],
  rated_guest_hint: [
    "Guests play casual games only: create an account to be rated.",
    "Гости играют только без рейтинга: создайте учётную запись, чтобы получить рейтинг.",
  ],
  variant_imperial_2p: ["Imperial, 2 players", "Империал, 2 игрока"],
  variant_imperial_3p: ["Imperial, 3 players", "Империал, 3 игрока"],
  variant_emperor_3p: ["Emperor, 3 players", "Император, 3 игрока"],
  variant_emperor_4p: ["Emperor, 4 players", "Император, 4 игрока"],
  games_n_one: ["{n} game", "{n} партия"],
  games_n_few: ["{n} games", "{n} партии"],
  games_n_many: ["{n} games", "{n} партий"],
  games_n_other: ["{n} games", "{n} партии"],
  won_n_one: ["{n} won", "{n} выиграна"],
  won_n_few: ["{n} won", "{n} выиграны"],
  won_n_many: ["{n} won", "{n} выиграно"],
  won_n_other: ["{n} won", "{n} выиграно"],
  ord_one: ["{n}st", "{n}-е"],
  ord_two: ["{n}nd", "{n}-е"],
  ord_few: ["{n}rd", "{n}-е"],
  ord_other: ["{n}th", "{n}-е"],
  place_of: ["{place} of {n}", "{place} из {n}"],
  profile_title: ["Player {name}", "Игрок {name}"],
  profile_since: ["Playing since {date}", "Играет с {date}"],
  profile_you: ["This is you", "Это вы"],
  deleted_user: ["deleted", "удалён"],
  rating: ["Rating", "Рейтинг"],
  rating_provisional: [
    "A question mark: fewer than 10 rated games, the rating is still settling.",
    "Знак вопроса: меньше 10 рейтинговых партий, рейтинг ещё не устоялся.",
  ],
  no_ratings: ["No rated games yet.", "Рейтинговых партий пока нет."],
  chart_label: [
    "Rating in {variant} after each game: {games}, from {first} to {last}",
    "Рейтинг ({variant}) после каждой партии: {games}, от {first} до {last}",
  ],
  chart_point: ["{date}: rating {rating}", "{date}: рейтинг {rating}"],
  chart_table: ["The chart as a table", "График в виде таблицы"],
  chart_axis_games: ["games, oldest on the left", "партии, слева — ранние"],
  date: ["Date", "Дата"],
  variant: ["Game", "Игра"],
  result: ["Result", "Итог"],
  rating_change: ["Rating", "Рейтинг"],
  // the game-over dialog of a rated game (js/ratings_common.js, ratingChangeHtml)
  // (no-break spaces: "1500 → 1527 (+27)" stays on one line)
  rating_yours: ["Rating {before}\u00a0→\u00a0{after}\u00a0({change})", "Рейтинг {before}\u00a0→\u00a0{after}\u00a0({change})"],
  rating_of: ["{name}: {before}\u00a0→\u00a0{after}\u00a0({change})", "{name}: {before}\u00a0→\u00a0{after}\u00a0({change})"],
  unrated_aborted: [
    "No rating changed after all: someone left in the first moves.",
    "Рейтинг всё же не изменился: кто-то ушёл в первых ходах.",
  ],
  unrated_shared_address: [
    "No rating changed after all: two players sat down from one address.",
    "Рейтинг всё же не изменился: двое игроков сели за стол с одного адреса.",
  ],
  unrated_new_account: [
    "No rating changed after all: an account was too new (it rates after 3 days or 3 games).",
    "Рейтинг всё же не изменился: чья-то учётная запись слишком новая (рейтинг — через 3 дня или 3 партии).",
  ],
  unrated_other: ["No rating changed after all.", "Рейтинг всё же не изменился."],
  latest_games: ["Latest games", "Последние партии"],
  all_games: ["All games", "Все партии"],
  games_of: ["Games of {name}", "Партии игрока {name}"],
  to_profile: ["Profile of {name}", "Профиль игрока {name}"],
  page_n: ["Page {n} of {of}", "Страница {n} из {of}"],
  newer: ["Newer", "Новее"],
  older: ["Older", "Старше"],
  no_history: ["No finished games.", "Законченных партий нет."],
  won_game: ["won", "победа"],
  leaderboard_title: ["Leaderboard", "Таблица рейтинга"],
  leaderboard_about: [
    "The best 100 with a rated game in the last 90 days. The rating is cautious: it grows as the system grows sure of a player.",
    "Лучшие 100 из сыгравших рейтинговую партию за последние 90 дней. Рейтинг осторожный: он растёт по мере того, как система узнаёт игрока.",
  ],
  rank: ["Rank", "Место"],
  games: ["Games", "Партии"],
  nobody_rated: [
    "Nobody has played a rated game of this kind in the last 90 days.",
    "За последние 90 дней рейтинговых партий в эту игру не было.",
  ],
  bot_level_n: ["Computer, level {n}", "Компьютер, уровень {n}"],
  // account settings
  account_title: ["Account settings", "Настройки учётной записи"],
  account_link: ["Account settings", "Настройки учётной записи"],
  rename_title: ["Change your name", "Сменить имя"],
  new_name: ["New name", "Новое имя"],
  rename_go: ["Rename", "Сменить имя"],
  renamed: ["Your name is now {name}.", "Теперь ваше имя — {name}."],
  password_title: ["Change your password", "Сменить пароль"],
  old_password: ["Current password", "Текущий пароль"],
  new_password: ["New password (8 characters or more)", "Новый пароль (не меньше 8 символов)"],
  password_go: ["Change the password", "Сменить пароль"],
  password_changed: [
    "The password is changed; your other sessions were signed out.",
    "Пароль изменён; другие ваши сеансы завершены.",
  ],
  delete_title: ["Delete the account", "Удалить учётную запись"],
  delete_about: [
    "Your games stay in the history of the other players; your name in them shows as \"deleted\", and it becomes free for anyone to take. Your chips, those still riding on games and bets too, are given up. This cannot be undone.",
    "Ваши партии останутся в истории других игроков; ваше имя в них будет показано как «удалён», и его сможет занять кто угодно. Ваши фишки, в том числе те, что ещё в партиях и ставках, пропадут. Отменить это нельзя.",
  ],
  delete_confirm: ["Your password, to confirm", "Ваш пароль для подтверждения"],
  delete_go: ["Delete my account", "Удалить мою учётную запись"],
  deleted_done: ["Your account was deleted.", "Ваша учётная запись удалена."],
  upgrade_title: ["Keep my games: create an account", "Сохранить мои партии: создать учётную запись"],
  upgrade_about: [
    "You play as a guest, and guest accounts not used for 30 days are removed, with their chips. Choose a name and a password to keep your games and chips, and to be rated.",
    "Вы играете гостем, а гостевые записи, которыми не пользовались 30 дней, удаляются вместе с фишками. Выберите имя и пароль, чтобы сохранить партии и фишки и получать рейтинг.",
  ],
  upgrade_go: ["Create the account", "Создать учётную запись"],
  upgraded: ["Done: you are now {name}, with all your games.", "Готово: теперь вы {name}, и все партии с вами."],
  err_no_user: ["There is no player of that name.", "Игрока с таким именем нет."],
  err_bad_variant: ["Unknown kind of game.", "Неизвестный вид игры."],
  err_bad_password: ["Wrong password, or not accepted.", "Неверный или неподходящий пароль."],
  err_bad_name: ["That name is not allowed.", "Такое имя недопустимо."],
  err_review_queue_full: [
    "Too many reviews are waiting for a reviewer; ask again in a few minutes.",
    "Слишком много разборов ждут очереди; попросите ещё раз через несколько минут.",
  ],
  err_reserved_name: [
    "That name reads as a bot, a guest, a seat or the system: choose another.",
    "Это имя читается как имя бота, гостя, места за столом или системы: выберите другое.",
  ],
  err_name_confusable: [
    "That name looks too much like another player's.",
    "Это имя слишком похоже на имя другого игрока.",
  ],
  err_not_for_guests: [
    "A guest has no name or password to change: create an account first.",
    "У гостя нет имени и пароля для смены: сначала создайте учётную запись.",
  ],
  err_not_guest: ["This is already an account.", "Это уже учётная запись."],
  err_rated_needs_account: [
    "Rated tables are for players with an account; guests play casual games.",
    "За рейтинговый стол садятся только игроки с учётной записью; гости играют без рейтинга.",
  ],
  // fair dealing
  fair_about: [
    "The deals come from a secret key; this is its fingerprint, shown before the first deal. After the game the record reveals the key, and anyone can check every deal.",
    "Сдачи задаёт тайный ключ; это его отпечаток, показанный до первой сдачи. После игры запись партии раскрывает ключ, и каждый может проверить все сдачи.",
  ],
  fair_label: ["Fingerprint of the deals' key", "Отпечаток ключа сдач"],
  verify: ["Verify the deals", "Проверить сдачи"],
  verify_about: [
    "Check every deal of this game against the key revealed in its record",
    "Проверить каждую сдачу этой партии по ключу, раскрытому в её записи",
  ],
  verify_checking: ["Checking the deals…", "Проверяем сдачи…"],
  verify_fair: [
    "Fair deals: the key matches the fingerprint shown before the game, and all {n} deals come from it.",
    "Сдачи честные: ключ совпадает с отпечатком, показанным до игры, и все сдачи ({n}) получаются из него.",
  ],
  verify_fair_one: [
    "Fair deal: the key matches the fingerprint shown before the game, and the game's one deal comes from it.",
    "Сдача честная: ключ совпадает с отпечатком, показанным до игры, и единственная сдача партии получается из него.",
  ],
  verify_unfair: [
    "Does not check out: only {ok} of {n} deals come from the key.",
    "Не сходится: из ключа получаются только сдачи {ok} из {n}.",
  ],
  verify_commitment_bad: [
    "The key does not match the fingerprint shown at the start.",
    "Ключ не совпадает с отпечатком, показанным в начале игры.",
  ],
  verify_legacy_ok: [
    "Dealt before fingerprints were shown: all {n} deals come from the record's key, but that key was not fixed in public before the game.",
    "Партия сдана, когда отпечатков ещё не показывали: все сдачи ({n}) получаются из ключа в записи, но сам ключ не был закреплён до игры.",
  ],
  verify_legacy_ok_one: [
    "Dealt before fingerprints were shown: the one deal comes from the record's key, but that key was not fixed in public before the game.",
    "Партия сдана, когда отпечатков ещё не показывали: единственная сдача получается из ключа в записи, но сам ключ не был закреплён до игры.",
  ],
  verify_legacy_bad: [
    "Dealt before fingerprints were shown, and only {ok} of {n} deals come from the record's key.",
    "Партия сдана, когда отпечатков ещё не показывали, и из ключа в записи получаются лишь сдачи {ok} из {n}.",
  ],
  verify_problems: ["What does not match:", "Что не сходится (по-английски):"],
  // chips, stakes and the wallet (issue #11); counts go through tn(): key_one/_few/_many/_other
  chips_one: ["{n} chip", "{n} фишка"],
  chips_few: ["{n} chips", "{n} фишки"],
  chips_many: ["{n} chips", "{n} фишек"],
  chips_other: ["{n} chips", "{n} фишки"],
  stake_field: ["Play for chips", "Игра на фишки"],
  stake_chips: ["Stake in chips", "Ставка в фишках"],
  stake_none: ["No stakes", "Без ставок"],
  stake_kind_per_game: ["Per game", "За партию"],
  stake_kind_per_imperial: ["Per missing imperial", "За недостающий империал"],
  stake_kind_per_place: ["Per place", "За место"],
  stake_kind_per_trick: ["Per trick of difference", "За взятку разницы"],
  stake_about_per_game: ["Each loser pays the winner {chips}.", "Каждый проигравший платит победителю: {chips}."],
  stake_about_per_imperial: [
    "Each loser pays the winner {chips} for every imperial he is short of the target.",
    "Каждый проигравший платит победителю {chips} за каждый недостающий до цели империал.",
  ],
  stake_about_per_place: [
    "Paid by the final places: with 4 players +3, +1, −1, −3 times {chips}; with 3 players +2, 0, −2 times.",
    "Расчёт по итоговым местам: вчетвером +3, +1, −1, −3 ставки по {chips}; втроём +2, 0, −2.",
  ],
  stake_about_per_trick: [
    "Between every two players the higher total receives {chips} for each trick of difference, at most 10 times.",
    "В каждой паре игроков тот, у кого счёт больше, получает {chips} за каждую взятку разницы, но не больше 10 ставок.",
  ],
  stake_line_per_game: ["stake {chips} per game", "ставка {chips} за партию"],
  stake_line_per_imperial: ["stake {chips} per missing imperial", "ставка {chips} за недостающий империал"],
  stake_line_per_place: ["stake {chips} per place", "ставка {chips} за место"],
  stake_line_per_trick: ["stake {chips} per trick of difference", "ставка {chips} за взятку разницы"],
  stake_line_other: ["stake {chips} ({kind})", "ставка {chips} ({kind})"],
  stake_hold_each: ["Each player puts {chips} in escrow.", "Каждый игрок вносит в залог: {chips}."],
  stake_your_balance: ["Your balance: {chips}.", "Ваш баланс: {chips}."],
  stake_agree_short: [
    "Taking a seat is agreeing to these stakes.",
    "Сесть за стол — значит согласиться на эти ставки.",
  ],
  stake_agree_title: ["A table with stakes", "Стол со ставками"],
  stake_agree: [
    "Taking a seat is agreeing to these stakes. When the game starts, {chips} go from your wallet into escrow; at the end the settlement pays out by the result.",
    "Сесть за стол — значит согласиться на эти ставки. Когда игра начнётся, из вашего кошелька в залог переводится: {chips}; в конце расчёт выплатит фишки по результату.",
  ],
  stake_sit_agree: ["I agree: sit down", "Согласен: сесть"],
  stake_too_high: [
    "You cannot sit at this table: your balance is {balance}, and it holds {hold} from each player.",
    "За этот стол сесть нельзя: на вашем счету {balance}, а он берёт в залог {hold} с каждого игрока.",
  ],
  settlement: ["Stakes settled", "Расчёт по ставкам"],
  settle_pending: ["Settling the stakes…", "Идёт расчёт по ставкам…"],
  settle_pays: ["{from} pays {to}: {chips}", "Платит {from}, получает {to}: {chips}"],
  settle_none: ["Nobody pays anyone.", "Никто никому не платит."],
  settle_net: ["Net", "Итог"],
  settle_you_won: ["You won {chips}.", "Ваш выигрыш: {chips}."],
  settle_you_lost: ["You lost {chips}.", "Ваш проигрыш: {chips}."],
  settle_you_even: ["You are even.", "Вы при своих."],
  balance_label: ["Your wallet: {chips}", "Ваш кошелёк: {chips}"],
  wallet_open: ["Open your wallet", "Открыть кошелёк"],
  wallet_title: ["Your chips", "Ваши фишки"],
  wallet_note: [
    "Play chips only: never money, never exchangeable.",
    "Только игровые фишки: не деньги и ни на что не обмениваются.",
  ],
  wallet_balance: ["Balance", "Баланс"],
  wallet_held: ["Held at tables", "В залоге за столами"],
  wallet_history: ["History", "История"],
  wallet_more: ["More", "Ещё"],
  wallet_empty: ["No entries yet.", "Записей пока нет."],
  top_up: ["Top up to 100", "Пополнить до 100"],
  top_up_about: ["Once a day, when you have fewer than 100 chips.", "Раз в день, когда у вас меньше 100 фишек."],
  top_up_done: ["Topped up to 100 chips.", "Пополнено до 100 фишек."],
  // each entry's words come from the server (text, text_ru); these are its links
  ledger_other: ["Chips moved", "Движение фишек"],
  ledger_replay: ["Replay", "Запись партии"],
  ledger_table: ["Table", "К столу"],
  err_stake_too_high: ["Your balance does not cover this table's stake.", "Вашего баланса не хватает на ставку этого стола."],
  err_top_up_not_due: [
    "No top-up is due: it is for balances under 100, once a day.",
    "Пополнение не положено: оно для баланса меньше 100, раз в день.",
  ],
  err_bad_stake: ["Those stake terms cannot be agreed.", "Такие условия ставки принять нельзя."],
  err_bad_stake_kind: ["No such kind of stake.", "Такого вида ставки нет."],
  err_stake_wrong_game: ["That stake belongs to the other game.", "Это ставка другой игры."],
  err_bad_stake_chips: [
    "The stake is a whole number of chips from 1 to 1,000,000.",
    "Ставка — целое число фишек от 1 до 1 000 000.",
  ],
  // deal summaries, score sheet, last trick, rules, sounds (#16B)
  over_title: ["Game over. {title}", "Игра окончена. {title}"],
  score_sheet: ["Score sheet", "Запись счёта"],
  rules: ["Rules", "Правила"],
  sound_on: ["Sound: on", "Звук: вкл."],
  sound_off: ["Sound: off", "Звук: выкл."],
  // never miss your turn (#44 item 5): the tab's title, notifications and their switch
  attention_turn: ["Your turn", "Ваш ход"],
  attention_challenge: ["You are challenged", "Вас вызывают на игру"],
  attention_rematch: ["Play again?", "Сыграть ещё?"],
  attention_turn_text: ["Your move at the {game} table.", "Ваш ход за столом: {game}."],
  notify_on: ["Notifications: on", "Уведомления: вкл."],
  notify_off: ["Notifications: off", "Уведомления: выкл."],
  notify_blocked: ["Notifications: blocked", "Уведомления: запрещены"],
  notify_about: [
    "Notify me when it's my turn while this page is in the background",
    "Сообщать, когда мой ход, пока эта страница в фоне",
  ],
  notify_blocked_about: [
    "Your browser blocks notifications from this page: allow them in its settings for this site.",
    "Браузер запрещает уведомления этой страницы: разрешите их в его настройках для этого сайта.",
  ],
  last_trick_n: ["Last trick (trick {n})", "Прошлая взятка ({n}-я)"],
  sheet_deal: ["Deal", "Сдача"],
  sheet_round: ["Round", "Тур"],
  sheet_points: ["{n:point}", "{n:point}"],
  sheet_tricks: ["{n:trick}", "{n:trick}"],
  sheet_bargain: ["{n} bought off", "откуп: {n}"],
  sheet_empty: ["Nothing scored yet.", "Пока ничего не записано."],
  sheet_unfinished: ["Not played out: the game ended in it", "Не доиграна: в ней окончилась игра"],
  summary_deal: ["Deal {n} is over", "Сдача {n} окончена"],
  summary_round: ["Round {n} is over", "Тур {n} окончен"],
  summary_white: [
    "A white imperial: no play in this deal.",
    "Белый империал: в этой сдаче розыгрыша нет.",
  ],
  summary_marked: ["Imperials marked", "Записано империалов"],
  summary_marked_n: ["+{n:imperial}", "+{n:imperial}"],
  summary_wiped: ["Points wiped out", "Сгорело очков"],
  summary_now: ["After the deal", "После сдачи"],
  summary_capture: ["{name} captured {card}", "{name} забрал {card}"],
  summary_bargains: ["Bought off", "Откуп"],
  summary_swap: ["{taker} took the hand of {target}", "{taker} забрал карты у {target:gen}"],
  summary_bargain: [
    "{target} bought off {taker} with {n:trick}",
    "{target} откупился от {taker:gen}: {n:trick}",
  ],
  summary_continue: ["Continue", "Дальше"],
  summary_deal_again: ["Deal {n} results", "Итоги сдачи {n}"],
  summary_round_again: ["Round {n} results", "Итоги тура {n}"],
  term_point: [
    "The point: each player's longest suit is compared (equal length: the higher card value); the best scores 4, a full tie 2 each.",
    "Хвалёж мастью: сравнивают самые длинные масти (при равной длине — по очкам карт); лучшая даёт 4 очка, при полном равенстве по 2.",
  ],
  term_honours: [
    "Honours: the trump K, Q, J and 7 (6 with three players). 4 points each held at the deal, 4 for leading one, 4 for one that beats the trick.",
    "Онеры: козырные К, Д, В и 7 (при трёх игроках 6). По 4 очка за каждый на руках, 4 за ход онером и 4 за онер, перебивший взятку.",
  ],
  term_tombe: [
    "Imperial tombé: capture both the trump J and the trump A of the others with your trump K or Q in one deal; the second capture marks an imperial (or two, by the table's terms).",
    "Империал томбе: своими козырными К или Д забрать у противников и козырного валета, и козырного туза в одной сдаче; за это записывается империал (или два, по условиям стола).",
  ],
  term_wipe: [
    "Whenever anyone marks an imperial, every other player's loose points are wiped out to 0.",
    "Когда кто-то записывает империал, у всех остальных сгорают очки, набранные сверх записанных империалов.",
  ],
  term_white: [
    "White imperial: twelve cards without a K, Q or J. Worth two imperials; the deal is not played and nothing is wiped.",
    "Белый империал: двенадцать карт без королей, дам и валетов. Стоит два империала; сдача не разыгрывается, очки не уничтожаются.",
  ],
  term_imperial: [
    "An imperial is 24 points, or a declared set: K-Q-J-A (or Q-J-A-7) of a suit, two in trumps, or four of a kind.",
    "Империал — 24 очка или объявленный набор: К-Д-В-Т (или Д-В-Т-7) одной масти, в козырях — два, или четыре карты одного достоинства.",
  ],
  term_capot: [
    "Capot: all twelve tricks, worth 8 points.",
    "Капот: все двенадцать взяток, 8 очков.",
  ],
  term_swap: [
    "Exchange: from round 2 the King, then the Prince, then the Soldier may take a lower player's hand blind, giving his own.",
    "Обмен: со 2-го тура Король, затем Принц, затем Солдат могут вслепую забрать карты младшего по званию, отдав свои.",
  ],
  term_bargain: [
    "Bargaining: from round 4 the player whose hand is wanted may buy the swap off with 1-3 tricks from his game total.",
    "Торг: с 4-го тура тот, чьи карты хотят забрать, может откупиться 1-3 взятками со своего счёта.",
  ],
  // layout (#16A)
  bot_short: ["Comp {n}", "Комп. {n}"],
  stop_watching: ["Stop watching", "Перестать смотреть"],
  record_file: ["A record file (.json)", "Файл записи (.json)"],
  touch_hint: [
    "Tap a card to raise it, tap it again to play it.",
    "Коснитесь карты, чтобы поднять её, и ещё раз, чтобы сыграть.",
  ],
  // spectators' bets (js/bets.js)
  bets_head: ["Bets", "Ставки"],
  bets_head_read: ["Spectators' bets", "Ставки зрителей"],
  bets_about: [
    "All bets on a question go into one pool; those who guessed right share all of it. Betting closes as soon as the cards it is about are dealt (on the game's outcome: at the first deal).",
    "Все ставки на вопрос идут в общий банк; угадавшие делят его целиком. Приём ставок закрывается, как только сданы карты, о которых вопрос (на исход партии — при первой сдаче).",
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
  // how each of one's bets came out, and why a market returned every bet
  bets_won: ["won: {chips} paid", "выиграла, выплата: {chips}"],
  bets_lost: ["lost", "проиграла"],
  bets_returned: ["returned: {chips} (nobody bet on the outcome)", "возвращена: {chips} (на исход никто не ставил)"],
  bets_returned_void: ["returned: {chips} (market called off)", "возвращена: {chips} (рынок отменён)"],
  bets_closed: ["Closed, waiting for the outcome", "Закрыт, ждёт исхода"],
  bets_outcome_is: ["Outcome: {outcome}", "Исход: {outcome}"],
  bets_nobody_backed: [
    "Outcome: {outcome}. Nobody bet on it, so every bet is returned",
    "Исход: {outcome}. На него никто не ставил, поэтому все ставки возвращены",
  ],
  bets_called_off: [
    "Called off: the game never answered it. Every bet is returned",
    "Рынок отменён: игра так и не ответила на вопрос. Все ставки возвращены",
  ],
  bets_placed: ["Bet taken: {chips} on {outcome}.", "Ставка принята: {chips} на «{outcome}»."],
  bets_settled_won: [
    "{market}: {outcome}. Your bet won: you get {chips}.",
    "{market}: «{outcome}». Ваша ставка сыграла, выплата: {chips}.",
  ],
  bets_settled_lost: [
    "{market}: {outcome}. Your bet of {chips} lost.",
    "{market}: «{outcome}». Ваша ставка не сыграла, проиграно: {chips}.",
  ],
  bets_settled_no_winner: [
    "{market}: {outcome}. Nobody bet on that, so every bet is returned: you get your {chips} back.",
    "{market}: «{outcome}». На этот исход никто не ставил, поэтому все ставки возвращены: вам — {chips}.",
  ],
  bets_settled_void: [
    "{market}: called off, as the game never answered it. Every bet is returned: you get your {chips} back.",
    "{market}: рынок отменён — игра так и не ответила на вопрос. Все ставки возвращены: вам — {chips}.",
  ],
  bets_tricks: ["{range} {noun}", "{range} {noun}"],
  bets_yes: ["yes", "да"],
  bets_no: ["no", "нет"],
  bets_over: ["over", "больше"],
  bets_under: ["under", "меньше"],
  bets_nobody: ["nobody", "никто"],
  bets_chips_one: ["{n} chip", "{n} фишка"],
  bets_chips_few: ["{n} chips", "{n} фишки"],
  bets_chips_many: ["{n} chips", "{n} фишек"],
  bets_chips_other: ["{n} chips", "{n} фишки"],
  // puzzles from real deals (#29)
  nav_puzzles: ["Puzzles", "Задачи"],
  puzzles_title: ["Puzzles from real deals", "Задачи из настоящих партий"],
  puzzles_find: ["Find the best card", "Найдите лучшую карту"],
  puzzles_daily: ["Puzzle of the day", "Задача дня"],
  puzzles_next: ["Next puzzle", "Следующая задача"],
  puzzles_history: ["My puzzles", "Мои задачи"],
  puzzles_my_rating: ["Your puzzle rating: {n}", "Ваш рейтинг в задачах: {n}"],
  puzzles_rating: ["puzzle rating {n}", "рейтинг задачи {n}"],
  puzzles_players: ["{n} players", "игроков: {n}"],
  puzzles_player: ["Player {n}", "Игрок {n}"],
  puzzles_seat_opponent: ["Opponent", "Соперник"],
  puzzles_seat_left: ["On your left", "Слева"],
  puzzles_seat_across: ["Across", "Напротив"],
  puzzles_seat_right: ["On your right", "Справа"],
  puzzles_you_lead: ["You lead to this trick.", "Вы ходите первым в этой взятке."],
  puzzles_tricks_taken: ["Tricks taken:", "Взято взяток:"],
  puzzles_your_hand: ["Your cards", "Ваши карты"],
  puzzles_right: ["Right!", "Верно!"],
  puzzles_wrong: ["Not the best card", "Не лучшая карта"],
  puzzles_values: ["What each card is worth", "Сколько стоит каждая карта"],
  puzzles_why: ["Why", "Почему"],
  puzzles_best: ["best", "лучшая"],
  puzzles_your_card: ["your choice", "ваш выбор"],
  puzzles_rating_change: ["Puzzle rating: {before} → {after} ({d})", "Рейтинг в задачах: {before} → {after} ({d})"],
  puzzles_not_rated: ["Only your first try at a puzzle counts for your rating.", "В рейтинг идёт только первая попытка решить задачу."],
  puzzles_daily_solved: ["You solved today's puzzle. Here is the next one.", "Задачу дня вы решили. Вот следующая."],
  puzzles_daily_missed: ["You have tried today's puzzle. Here is the next one.", "Задачу дня вы уже пробовали. Вот следующая."],
  puzzles_none: ["There are no puzzles yet. Come back later.", "Задач пока нет. Загляните позже."],
  puzzles_all_done: ["You have tried every puzzle there is. New ones come from new games.", "Вы попробовали все задачи. Новые появятся из новых партий."],
  puzzles_no_such: ["There is no such puzzle.", "Такой задачи нет."],
  puzzles_history_empty: ["You have not tried a puzzle yet.", "Вы ещё не решали задач."],
  puzzles_solved: ["solved", "решена"],
  puzzles_missed: ["missed", "не решена"],
  puzzles_col_puzzle: ["Puzzle", "Задача"],
  puzzles_col_game: ["Game", "Игра"],
  puzzles_col_card: ["Your card", "Ваша карта"],
  puzzles_col_result: ["Result", "Итог"],
  puzzles_col_rating: ["Rating", "Рейтинг"],
  puzzles_col_when: ["When", "Когда"],
  // learn to play: how to play (#29)
  howto_contents: ["Contents", "Содержание"],
  howto_to_contents: ["Back to the contents", "К содержанию"],
  howto_lessons: ["Lessons", "Уроки"],
  howto_game: ["How to play {game}", "Как играть: {game}"],
  howto_in_glossary: ["More in the rules", "Подробнее в правилах"],
  // learn to play: lessons (#29)
  nav_learn: ["Learn to play", "Научиться играть"],
  learn_entry: ["Learn to play", "Научиться играть"],
  learn_lobby_link: ["New to these games? Learn to play", "Впервые здесь? Научитесь играть"],
  learn_entry_about: [
    "New to Imperial and Emperor? Short lessons on real cards, then a first game against a gentle computer. No account needed.",
    "Впервые видите Империал и Императора? Короткие уроки на настоящих картах, потом первая партия с мягким компьютером. Учётная запись не нужна.",
  ],
  learn_entry_rules: ["The rules in plain words:", "Правила простыми словами:"],
  learn_title: ["Learn to play", "Научиться играть"],
  learn_lead: [
    "Each lesson is a short real deal: you play your cards, the others' moves are set, and every step is explained. A wrong card is not played: you are told why.",
    "Каждый урок — короткая настоящая раздача: вы ходите своими картами, ходы остальных заданы, и каждый шаг объяснён. Неверная карта не ходит: вам скажут почему.",
  ],
  learn_kept_here: [
    "Your finished lessons are kept in this browser. Create an account to keep them with you.",
    "Пройденные уроки хранятся в этом браузере. Создайте учётную запись, чтобы они были с вами везде.",
  ],
  learn_kept_account: ["Your finished lessons are kept with your account.", "Пройденные уроки хранятся в вашей учётной записи."],
  learn_howto: ["How to play", "Как играть"],
  learn_lessons: ["Lessons", "Уроки"],
  learn_count: ["{n} of {of} done", "пройдено {n} из {of}"],
  learn_done_mark: ["(done)", "(пройден)"],
  learn_puzzles: ["Puzzles", "Задачи"],
  learn_first_game: ["Play a first game", "Сыграть первую партию"],
  learn_first_game_about: [
    "Against the gentlest computer players, with hints on and no clock.",
    "Против самых мягких компьютерных игроков, с подсказками и без часов.",
  ],
  learn_lesson_n: ["Lesson {n} of {of}", "Урок {n} из {of}"],
  learn_intro: ["The position", "Позиция"],
  learn_story: ["The game so far", "Ход игры"],
  learn_seat: ["Seat {n}", "Место {n}"],
  learn_opponent: ["your opponent", "ваш противник"],
  learn_left: ["on your left", "слева от вас"],
  learn_right: ["on your right", "справа от вас"],
  learn_across: ["across", "напротив"],
  learn_you_take: ["You take the trick", "Взятку берёте вы"],
  learn_no_trick: ["No cards on the table yet.", "На столе пока нет карт."],
  learn_your_card: ["Your move: tap a card.", "Ваш ход: нажмите на карту."],
  learn_your_decision: ["Your decision: choose below.", "Ваше решение: выберите ниже."],
  learn_check: ["Check:", "Проверка:"],
  learn_passed: ["Lesson passed!", "Урок пройден!"],
  learn_next: ["Next lesson", "Следующий урок"],
  learn_back: ["All lessons", "Все уроки"],
  // table talk (#44, js/talk.js)
  talk_head: ["Table talk", "Разговор за столом"],
  talk_toggle: ["Talk", "Чат"],
  talk_off: ["Talk off", "Выключить"],
  talk_is_off: ["Talk is off. Untick the box to see it again.", "Разговор выключен. Снимите галочку, чтобы видеть его снова."],
  talk_as_player: ["You talk with the players. Spectators' talk shows after the game.", "Вы говорите с игроками. Реплики зрителей видны после партии."],
  talk_as_spectator: ["You talk with the spectators; you also see the players' talk.", "Вы говорите со зрителями; реплики игроков вам тоже видны."],
  talk_after_game: ["The game is over: the players' and the spectators' talk both show.", "Партия окончена: видны реплики и игроков, и зрителей."],
  talk_phrases: ["Quick phrases", "Готовые фразы"],
  talk_placeholder: ["Say something (up to 200 characters)", "Напишите что-нибудь (до 200 символов)"],
  talk_send: ["Send", "Отправить"],
  talk_spectator: ["spectator", "зритель"],
  talk_mute: ["Hide {name}'s messages", "Скрыть реплики: {name}"],
  talk_mute_short: ["Mute", "Скрыть"],
  talk_unmute_all: ["Show muted people again ({n} hidden)", "Снова показать скрытых ({n} скрыто)"],
  talk_report: ["Report", "Пожаловаться"],
  talk_reported: ["Reported", "Жалоба отправлена"],
  talk_thanks_report: ["Thank you: the message was reported.", "Спасибо: жалоба на сообщение отправлена."],
  talk_phrase_good_luck: ["Good luck!", "Удачи!"],
  talk_phrase_well_played: ["Well played!", "Хорошо сыграно!"],
  talk_phrase_thanks: ["Thanks!", "Спасибо!"],
  talk_phrase_sorry: ["Sorry!", "Извините!"],
  talk_phrase_one_more: ["One more?", "Ещё партию?"],
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
  // {n:card} is a count with its noun in the right plural form ("4 карты", "1 card");
  // {name:gen} a name in a Russian case ("у Компьютера 2").
  return text.replace(/\{(\w+)(?::(\w+))?\}/g, (m, name, how) => {
    if (!(name in params)) return m;
    const value = params[name];
    if (!how) return String(value);
    if (CASES.has(how)) return declineName(value, how, current);
    return hasNoun(how) ? countOf(value, how, current) : String(value);
  });
}

/** 1st, 2nd / 1-е, 2-е: `ord_${category}` by the language's ordinal rules. */
export function ordinal(n) {
  const key = `ord_${new Intl.PluralRules(current, { type: "ordinal" }).select(n)}`;
  return t(hasMessage(key) ? key : "ord_other", { n });
}

/** A date (and with time: true, the time) in the page's language. */
export function formatDate(ms, { time = false, short = false } = {}) {
  const options = short ? { day: "numeric", month: "short" } : { dateStyle: "medium" };
  // timeStyle mixes only with dateStyle; a short date takes the hour and minute alone.
  if (time && short) Object.assign(options, { hour: "2-digit", minute: "2-digit" });
  else if (time) options.timeStyle = "short";
  return new Intl.DateTimeFormat(current === "ru" ? "ru-RU" : "en-GB", options).format(new Date(ms));
}

/** A number as the page's language writes it: 1,000 / 1 000. */
export function formatNumber(n) {
  return new Intl.NumberFormat(current === "ru" ? "ru-RU" : "en-GB").format(n);
}

/**
 * The message for a count: `${key}_${category}` by the language's plural rules
 * (Russian 1 фишка, 2 фишки, 5 фишек, 21 фишка), with {n} the count written out.
 */
export function tn(key, n, params = {}) {
  const form = `${key}_${new Intl.PluralRules(current).select(n)}`;
  return t(hasMessage(form) ? form : `${key}_other`, { ...params, n: formatNumber(n) });
}
const CASES = new Set(["gen", "dat", "acc", "ins"]);

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
