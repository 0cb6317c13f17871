"""Emperor in the terminal (:mod:`kozyr.terminal.emperor_view`): the titles and the
events in words. A name takes the Russian case its sentence needs (``{target:gen}``) and
its verb agrees with it (``{who:хочет|хотите}``: "Вы" takes the plural)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "emperor_view.title.king": ("King", "Король"),
    "emperor_view.title.prince": ("Prince", "Принц"),
    "emperor_view.title.soldier": ("Soldier", "Солдат"),
    "emperor_view.title.jester": ("Jester", "Скоморох"),
    "emperor_view.title.emperor": ("Emperor", "Император"),
    "emperor_view.first_round": (
        "{head}: trump {trump} ({card}); {leader} {leader:leads|lead}",
        "{head}. Козырь: {trump} ({card}). Первый ход у {leader:gen}",
    ),
    "emperor_view.bargaining": ("; bargaining is on", "; торг разрешён"),
    "emperor_view.pass": ("{who}: pass", "{who}: пас"),
    "emperor_view.swapped": (
        "{taker} {taker:takes|take} the hand of {target:gen}",
        "Обмен картами: {taker} ⇄ {target}",
    ),
    "emperor_view.swap_named": (
        "{taker} {taker:names|name} {target:gen} as target",
        "{taker} {taker:хочет|хотите} забрать карты у {target:gen}",
    ),
    "emperor_view.offer": (
        "{who} {who:offers|offer} {tricks}",
        "{who} {who:предлагает|предлагаете} откуп: {tricks}",
    ),
    "emperor_view.accept": (
        "{who} {who:accepts|accept}: {target} {target:pays|pay} {n} {n:trick|tricks} "
        "from the game total",
        "{who}: откуп принят — {n} {n:взятка|взятки|взяток} {n:переходит|переходят|переходят} "
        "от {target:gen} к {who:dat}",
    ),
    "emperor_view.refuse": (
        "{who} {who:refuses|refuse}",
        "{who} {who:отказывается|отказываетесь} от откупа",
    ),
    "emperor_view.yield": (
        "{who} {who:gives|give} in: hands swapped with {taker:gen}",
        "{who} {who:уступает|уступаете}: обмен картами с {taker:ins}",
    ),
    # The seed: the King "назначает козыря (в редких случаях безкозырку)".
    "emperor_view.trump": (
        "{who}: trump {trump}",
        "{who} {who:называет|называете} козырь: {trump}",
    ),
    "emperor_view.no_trumps": (
        "{who}: trump no trumps",
        "{who} {who:объявляет|объявляете} бескозырку",
    ),
    "emperor_view.tricks": ("Tricks: {list}", "Взятки: {list}"),
    "emperor_view.titles": ("Titles: {list}", "Звания: {list}"),
    # How a tie in the standing was broken (E6, E12), by the engine's name of the rule.
    "emperor_view.why.first_trick": (
        "{group}: equal tricks, the earlier first trick ranks higher",
        "{group}: взяток поровну — выше тот, кто раньше взял первую взятку",
    ),
    "emperor_view.why.previous_order": (
        "{group}: no tricks, they keep their previous order",
        "{group}: без взяток — остаются в прежнем порядке",
    ),
    "emperor_view.why.last_titles": (
        "{group}: equal totals, the better title after the last round ranks higher",
        "{group}: итог поровну — выше тот, у кого звание после последнего тура старше",
    ),
}
