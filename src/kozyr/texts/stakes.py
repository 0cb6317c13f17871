"""Stakes in the terminal (``kozyr play --stake KIND:S``, :mod:`kozyr.terminal.tally`):
the terms in words, the settlement, and what is wrong with a stake as typed (by the
protocol's code: ``stakes.error.<code>``)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # The terms, by stake kind (kozyr.games.stakes.KINDS).
    "stakes.per_game": ("{chips} per game", "{chips} за партию"),
    "stakes.per_imperial": (
        "{chips} per imperial short of the target",
        "{chips} за каждый недостающий до цели империал",
    ),
    "stakes.per_place": ("{chips} per place", "{chips} за место"),
    "stakes.per_trick": (
        "{chips} per trick of difference in the totals (at most 10 a pair)",
        "{chips} за каждую взятку разницы в счёте (не больше 10 с пары)",
    ),
    "stakes.playing": (
        "Playing for stakes: {terms}. A local tally: no chips move anywhere.",
        "Игра на ставку: {terms}. Счёт ведётся только здесь, фишки никуда не переводятся.",
    ),
    "stakes.settled": ("Stakes ({terms}):", "Расчёт по ставке ({terms}):"),
    # "Computer 1 pays you: 10 chips"; "You" takes the plural verb.
    "stakes.pays": (
        "{payer} {payer:pays|pay} {payee:dat}: {chips}",
        "{payer} {payer:платит|платите} {payee:dat}: {chips}",
    ),
    "stakes.nobody_pays": ("nobody pays anyone", "никто никому не платит"),
    "stakes.net": ("Net: {list}", "Итог: {list}"),
    "stakes.session": ("Games played: {n}. Session total:", "Сыграно партий: {n}. Итог сессии:"),
    "stakes.unsettled": (
        "The game was not finished: no stakes change hands.",
        "Партия не окончена: по ставке никто не платит.",
    ),
    "stakes.error.bad_stake": (
        "write the stake as KIND:S ({kinds}), not {text!r}",
        "ставку пишут как ВИД:S ({kinds}), а не «{text}»",
    ),
    "stakes.error.bad_stake_kind": (
        "the stake kind in {game} is one of {kinds}, not {kind!r}",
        "вид ставки в игре {game}: {kinds}, а не «{kind}»",
    ),
    "stakes.error.stake_wrong_game": (
        "{kind} is a stake of {other}, not of {game} ({kinds})",
        "{kind} — ставка игры {other}, а не {game} ({kinds})",
    ),
    "stakes.error.bad_stake_chips": (
        "S is a whole number of chips from 1 to {most}, not {chips!r}",
        "S — целое число фишек от 1 до {most}, а не «{chips}»",
    ),
}
