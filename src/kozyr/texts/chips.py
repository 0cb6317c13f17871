"""A person's chips on the server (``docs/chips.md``, ``docs/betting.md``): the refusals
that name the numbers, of top-ups (:mod:`kozyr.server.money.wallets`), of a table's hold
(:mod:`kozyr.server.money.escrow`) and of bets (:mod:`kozyr.server.money.betting`). Each
is a code's message (:mod:`kozyr.texts.protocol`) made precise; the error's ``params``
carry the same numbers for a client that words its own."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # top_up_not_due: the wallet alone is at the line, or with what is held besides it
    "chips.top_up.not_due": (
        "Your balance is {balance} {balance:chip|chips}: a top-up is for balances below "
        "{top_up_to}.",
        "На вашем счёте {balance} {balance:фишка|фишки|фишек}: пополнение положено только "
        "при балансе меньше {top_up_to}.",
    ),
    "chips.top_up.not_due_held": (
        "You have {total} {total:chip|chips}: {balance} in your wallet and {held} held in "
        "escrow and open bets. A top-up is for fewer than {top_up_to} in all.",
        "У вас {total} {total:фишка|фишки|фишек}: {balance} на счёте и {held} в залоге и "
        "открытых ставках. Пополнение положено, только если всего меньше {top_up_to}.",
    ),
    "chips.top_up.claimed_today": (
        "You have already claimed today's top-up; the next one is due tomorrow (UTC).",
        "Сегодняшнее пополнение уже получено; следующее — завтра (UTC).",
    ),
    # key_reused: the key names a top-up of another day
    "chips.top_up.key_reused": (
        "That key was used for the top-up of {day}; use a new key.",
        "Этот ключ уже использован для пополнения {day}; нужен новый ключ.",
    ),
    # stake_too_high: a seat at a table for stakes
    "chips.stake_too_high": (
        "Your balance is {balance} {balance:chip|chips}; this table holds {hold} "
        "{hold:chip|chips} from each player.",
        "На вашем счёте {balance} {balance:фишка|фишки|фишек}; этот стол берёт в залог "
        "{hold} {hold:фишку|фишки|фишек} с каждого игрока.",
    ),
    # Bets (B4)
    "chips.bet.insufficient": (
        "You hold {held} {held:chip|chips}; the bet is {chips}.",
        "Ваш баланс: {held}; ставка: {chips}.",
    ),
    "chips.bet.holds_bets": (
        "You have {chips} {chips:chip|chips} in open bets on this table, and a player "
        "cannot bet on his own game: you cannot take a seat here.",
        "У вас {chips} {chips:фишка|фишки|фишек} в открытых ставках на этот стол, а игрок не может "
        "ставить на свою партию: занять место за этим столом нельзя.",
    ),
}
