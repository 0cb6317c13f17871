"""The wallet's history in words (:mod:`kozyr.server.money.statements`): what each entry
of a person's ledger was, told to him. A stake names the game, the opponents and how it
ended for him; a bet names the market, the outcome backed, and whether it won, lost or
was returned, and why. ``{chips}``, ``{won}``, ``{hold}`` ... are counts of chips already
in words ("30 chips"); ``{outcome}`` and ``{market}`` come from :mod:`kozyr.texts.markets`
with the players' names in them."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "wallet.grant": ("Welcome chips", "Приветственные фишки"),
    "wallet.top_up": ("Daily top-up", "Ежедневное пополнение"),
    "wallet.other": ("Chips moved", "Движение фишек"),
    # The game: its name and the people in it ({names} already joined, "A, B and C").
    "wallet.against.one": ("{game} against {names}", "{game}, соперник: {names}"),
    "wallet.against.many": ("{game} against {names}", "{game}, соперники: {names}"),
    "wallet.players": ("{game}: {names}", "{game}: {names}"),
    "wallet.and": ("{first} and {last}", "{first} и {last}"),
    "wallet.deleted": ("a deleted account", "удалённый игрок"),
    "wallet.gone": ("a table no longer kept", "стол, которого уже нет"),
    "wallet.market_gone": ("a market", "рынок"),
    # How the game ended for the wallet's owner (his final place).
    "wallet.result.won": ("You won.", "Вы выиграли."),
    "wallet.result.lost": ("You lost.", "Вы проиграли."),
    "wallet.result.place.2": ("You came second of {n}.", "Вы заняли второе место из {n}."),
    "wallet.result.place.3": ("You came third of {n}.", "Вы заняли третье место из {n}."),
    "wallet.result.place.4": ("You came fourth of {n}.", "Вы заняли четвёртое место из {n}."),
    "wallet.result.over": ("The game is over.", "Партия окончена."),
    # A stake table: the hold put in escrow at the start ...
    "wallet.escrow": ("Stake held: {game}.", "Залог: {game}."),
    "wallet.escrow.on": ("The game is on.", "Партия идёт."),
    "wallet.escrow.lost.one": (
        "The whole stake went to the winner.",
        "Весь залог ушёл выигравшему.",
    ),
    "wallet.escrow.lost.many": (
        "The whole stake went to the winners.",
        "Весь залог ушёл выигравшим.",
    ),
    "wallet.escrow.back": (
        "The settlement paid back {chips}.",
        "По расчёту вернулось: {chips}.",
    ),
    # ... and what the settlement paid back at the end.
    "wallet.settle": ("Stake settled: {game}.", "Расчёт по ставке: {game}."),
    "wallet.settle.won": (
        "Won {won}, and the stake of {hold} back.",
        "Выигрыш: {won}, и залог {hold} вернулся.",
    ),
    "wallet.settle.even": ("Even: the stake of {hold} back.", "При своих: залог {hold} вернулся."),
    "wallet.settle.lost": (
        "Lost {lost}: {back} of the stake of {hold} back.",
        "Проигрыш: {lost}; из залога {hold} вернулось: {back}.",
    ),
    # A spectator's bet, as it was taken and as it came out ...
    "wallet.bet": (
        "Bet on {outcome} — {market} ({game}).",
        "Ставка на «{outcome}» — {market} ({game}).",
    ),
    "wallet.bet.waiting": ("Waiting for the outcome.", "Ждёт исхода."),
    "wallet.bet.won": ("It won.", "Ставка сыграла."),
    "wallet.bet.lost": ("Lost: the outcome was {outcome}.", "Проиграла: исход — «{outcome}»."),
    "wallet.bet.no_winner": (
        "Returned: the outcome was {outcome}, and nobody had bet on it.",
        "Возвращена: исход — «{outcome}», а на него никто не ставил.",
    ),
    "wallet.bet.void": (
        "Returned: the market was called off, as the game never answered its question.",
        "Возвращена: рынок отменён — игра так и не ответила на его вопрос.",
    ),
    # ... and the market's settlement that paid the wallet.
    "wallet.bets.won": (
        "Bet won: {market} — {outcome} ({game}).",
        "Выигрыш по ставке: {market} — «{outcome}» ({game}).",
    ),
    "wallet.bets.no_winner": (
        "Bet returned: {market} — {outcome}, and nobody had bet on it ({game}).",
        "Возврат ставки: {market} — «{outcome}», а на этот исход никто не ставил ({game}).",
    ),
    "wallet.bets.void": (
        "Bet returned: {market} — called off, as the game never answered it ({game}).",
        "Возврат ставки: {market} — рынок отменён, игра так и не ответила на вопрос ({game}).",
    ),
}
