"""Imperial in the terminal: the table from an observation, and events in plain words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from rich.console import Console
from rich.table import Table

from kozyr.cards import Lang, cards_in, parse_card, parse_suit, rank_of, suit_name
from kozyr.games.base import Event, Observation
from kozyr.games.imperial import ImperialObservation
from kozyr.i18n import count, ru_case, ru_plural, t
from kozyr.terminal.style import card_markup, cards_markup, name_of, sort_cards, text_cards

# Score reasons as the engine names them, in the reader's words (the seed's where it has them).
REASONS: dict[str, tuple[str, str]] = {
    "turnup": ("an honour turned up", "вскрыт онер"),
    "imperials": ("imperials", "хвалёж империалами"),
    "point": ("the point", "хвалёж мастью"),
    "honours": ("honours in hand", "онеры на руках"),
    "honour led": ("leading an honour", "ход онером"),
    "honour heads the trick": ("an honour that beats the trick", "ход перекрыт онером"),
    "imperial tombé": ("imperial tombé", "империал томбе"),
    "capot": ("capot: all 12 tricks", "капот: все 12 взяток"),
    "tricks": ("more than six tricks", "больше шести взяток"),
    "24 points": ("24 points", "набрано 24 очка"),
    "white imperial": ("white imperial", "белый империал"),
}
KINDS: dict[str, tuple[str, str]] = {
    "suit": ("suit imperial", "империал в масти"),
    "four": ("four of a kind", "четыре одного достоинства"),
    "white": ("white imperial", "белый империал"),
}
# Four of a kind in Russian, by rank: "четыре дамы".
_FOURS_RU = {13: "короля", 12: "дамы", 11: "валета", 14: "туза", 7: "семёрки", 6: "шестёрки"}


def _w(pair: tuple[str, str] | None, lang: Lang, fallback: str) -> str:
    if pair is None:
        return fallback
    return pair[1] if lang == "ru" else pair[0]


def _suit(text: object, lang: Lang) -> str:
    return suit_name(parse_suit(str(text)), lang, long=True)


def _cards(names: object, lang: Lang) -> str:
    """Cards of a declaration, in Imperial's rank order (I2: K Q J A 10 ...)."""
    return text_cards(cast(list[str], names), lang, "imperial")


def _imperial_label(imp: Mapping[str, object], lang: Lang) -> str:
    kind, n = str(imp["kind"]), cast(int, imp["count"])
    if lang != "ru":
        label = _w(KINDS.get(kind), lang, kind)
        turned = " (turned)" if imp.get("turned") else ""
        return f"{label}{turned}" + (f" ×{n}" if n != 1 else "")
    if kind == "four":
        rank = rank_of(parse_card(cast(list[str], imp["cards"])[0]))
        label = f"четыре {_FOURS_RU.get(rank, str(rank))}"
    elif kind == "suit" and n == 2:
        label = "империал в козырях (за два)"
    else:
        label = _w(KINDS.get(kind), lang, kind)
    if imp.get("turned"):
        label += " (вскрытый)"
    return label


def narrate(
    event: Event, lang: Lang, names: Sequence[str], previous: Event | None = None
) -> str | None:
    """One public event as a sentence; None for events not worth a line.

    ``previous`` is the event before it: an honour scored in play (I8) names the card
    just played, since tricks are shown only once complete.
    """
    ru = lang == "ru"
    kind = event["type"]
    who = name_of(names, event.get("seat"))
    if kind == "deal":
        head = t("deal", lang, n=event["number"])
        dealer = name_of(names, event["dealer"])
        trump = _suit(event["trump"], lang)
        line = f"\n[bold underline]{head}[/]. {t('dealer', lang)}: {dealer}. "
        line += f"{t('trump', lang)}: {trump}"
        if "turnup" in event:
            line += f" ({t('turnup', lang).lower()} {_cards([event['turnup']], lang)})"
        if "trump_card" in event:
            line += f" ({t('trump_card', lang).lower()} {_cards([event['trump_card']], lang)})"
        return line
    if kind == "white_imperial":
        cards = _cards(event["cards"], lang)
        return f"{who}: " + ("белый империал! " if ru else "white imperial! ") + cards
    if kind == "declare":
        what = event["kind"]
        if what == "turnup":
            return (
                f"{who}: "
                + ("вскрыт онер " if ru else "an honour is turned up: ")
                + _cards(event["cards"], lang)
            )
        if what == "imperials":
            n = event["count"]
            if not event.get("marked"):
                if ru:
                    return (
                        f"{who}: {count(n, 'imperial', lang)} — меньше, чем у соперника, не в счёт"
                    )
                return f"{who}: {count(n, 'imperial', lang)}, fewer: not marked"
            parts = [
                f"{_imperial_label(imp, lang)}: {_cards(imp['cards'], lang)}"
                for imp in event.get("imperials", [])
            ]
            return (
                f"{who}: " + ("хвалёж империалами — " if ru else "imperials: ") + "; ".join(parts)
            )
        if what == "point":
            suit = _suit(event["suit"], lang)
            length = count(event["length"], "card", lang)
            value = count(event["value"], "point", lang)
            if ru:
                return f"{who}: хвалёж мастью — {suit}, {length}, {value}"
            return f"{who}: point in {suit}, {length}, value {event['value']}"
        if what == "honours":
            honours = cast(list[str], event["cards"])
            if ru:
                word = ru_plural(len(honours), "онер", "онеры", "онеры")
                return f"{who}: {word} {_cards(honours, lang)}"
            return f"{who}: honours {_cards(honours, lang)}"
        return f"{who}: {what}"
    if kind == "score":
        reason = _w(REASONS.get(event["reason"]), lang, event["reason"])
        if previous is not None and previous["type"] == "play" and event["rule"] == "I8":
            reason += " " + _cards([previous["card"]], lang)
        pts, loose = event["points"], event.get("total")
        gained = f"+{count(pts, 'point', lang)}"
        if loose is None:
            return f"  {who}: {gained} ({reason}, {event['rule']})"
        if ru:
            total = count(loose, "point", lang)
            return f"  {who}: {gained} ({reason}, {event['rule']}); всего {total}"
        return f"  {who}: {gained} ({reason}, {event['rule']}); {loose} in all"
    if kind == "mark":
        reason = _w(REASONS.get(event["reason"]), lang, event["reason"])
        n, total = event["imperials"], event["total"]
        if ru:
            # The seed's word: a player "маркирует" an imperial.
            marked = ru_plural(n, "маркирован", "маркировано", "маркировано")
            return (
                f"[green]  {who}: {marked} {count(n, 'imperial', lang)} ({reason}); "
                f"всего {count(total, 'imperial', lang)}[/green]"
            )
        return (
            f"[green]  {who} marks {count(n, 'imperial', lang)} ({reason}); {total} in all[/green]"
        )
    if kind == "wipe":
        by = name_of(names, event.get("by"))
        lost = count(event["points"], "point", lang)
        if ru:
            # The seed: "все очки противника ... уничтожаются".
            whose, marker = ru_case(who, "gen"), ru_case(by, "gen")
            return f"[yellow]  У {whose} уничтожено {lost}: империал у {marker}[/yellow]"
        return f"[yellow]  {who}: {lost} wiped ({by} marked an imperial)[/yellow]"
    if kind == "play":
        return None  # the trick line shows the cards together
    if kind == "trick":
        cards = ", ".join(f"{name_of(names, s)} {text_cards([c], lang)}" for s, c in event["cards"])
        winner = name_of(names, event["winner"])
        label = t("trick", lang)
        return f"{label} {event['number']}: {cards} → [bold]{winner}[/bold]"
    if kind == "capture":
        card = text_cards([event["card"]], lang)
        by = text_cards([event["by"]], lang)
        if ru:
            return f"  {who}: {by} берёт {card} (томбе, {event['rule']})"
        return f"  {who} captures {card} with {by} (tombé, {event['rule']})"
    if kind == "deal_end":
        tricks = event.get("tricks")
        if tricks is None:
            return "Сдача без розыгрыша." if ru else "No play in this deal."
        counts = ", ".join(f"{name_of(names, s)} — {n}" for s, n in enumerate(tricks))
        return ("Взятки: " if ru else "Tricks: ") + counts
    if kind == "game_over":
        winner = name_of(names, event["winner"])
        return f"\n[bold green]{t('game_over', lang)}. {t('winner', lang, name=winner)}[/]"
    return None


class ImperialView:
    def __init__(self, console: Console, names: Sequence[str], lang: Lang) -> None:
        self.console = console
        self.names = list(names)
        self.lang = lang
        self._previous: Event | None = None

    def narrate(self, event: Event) -> str | None:
        line = narrate(event, self.lang, self.names, self._previous)
        self._previous = event
        return line

    def show_scores(self, obs: Observation) -> None:
        o = cast(ImperialObservation, obs)
        table = Table(title=t("scores", self.lang))
        table.add_column(t("player", self.lang))
        table.add_column(t("imperials", self.lang), justify="right")
        table.add_column(t("points", self.lang), justify="right")
        table.add_column(t("tricks", self.lang), justify="right")
        for s, (imps, pts) in enumerate(o.scores):
            table.add_row(self.names[s], str(imps), str(pts), str(o.tricks[s]))
        self.console.print(table)

    def show_table(self, obs: Observation) -> None:
        o = cast(ImperialObservation, obs)
        lang = self.lang
        trump = "" if o.trump is None else suit_name(o.trump, lang, long=True)
        line = f"{t('trump', lang)}: [bold]{trump}[/bold]"
        if o.turnup is not None:
            line += f"   {t('turnup', lang)}: {card_markup(o.turnup, lang)}"
        if o.trump_card is not None:
            line += f"   {t('trump_card', lang)}: {card_markup(o.trump_card, lang)}"
        self.console.print(line)
        scores = "; ".join(
            f"{self.names[s]}: {t('status_imperial', lang, imperials=i, points=p)}"
            for s, (i, p) in enumerate(o.scores)
        )
        self.console.print(f"{t('scores', lang)}: {scores}")
        for s, shown in enumerate(o.shown):
            if s != o.seat and shown:
                # I13: cards an opponent has shown (honours, marked imperials) and still holds.
                label = t("shown_by", lang, name=_gen(self.names[s], lang))
                self.console.print(f"  {label}: {cards_markup(_sorted(shown, o), lang)}")
        if o.trick:
            played = ", ".join(f"{self.names[s]} {card_markup(c, lang)}" for s, c in o.trick)
            self.console.print(f"{t('on_table', lang)}: {played}")
        if o.hand is not None:
            legal = set(o.legal_actions)
            shown_hand = " ".join(
                card_markup(c, lang)
                if c in legal or not legal
                else f"[dim]{card_markup(c, lang)}[/dim]"
                for c in _sorted(o.hand, o)
            )
            self.console.print(f"{t('hand', lang)}: {shown_hand}")

    def prompt(self, obs: Observation) -> str:
        return f"{t('prompt_card', self.lang)}> "

    def show_end(self, summary: Mapping[str, object]) -> None:
        scores = cast(list[dict[str, int]], summary["scores"])
        table = Table(title=t("scores", self.lang))
        table.add_column(t("player", self.lang))
        table.add_column(t("imperials", self.lang), justify="right")
        table.add_column(t("points", self.lang), justify="right")
        for s, sc in enumerate(scores):
            table.add_row(self.names[s], str(sc["imperials"]), str(sc["points"]))
        self.console.print(table)


def _sorted(mask: int, obs: ImperialObservation) -> list[int]:
    """Trumps first, then the other suits; high to low in Imperial order (I2)."""
    return sort_cards(cards_in(mask), "imperial", obs.trump)


def _gen(name: str, lang: Lang) -> str:
    return ru_case(name, "gen") if lang == "ru" else name
