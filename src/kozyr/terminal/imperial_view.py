"""Imperial in the terminal: the table from an observation, and events in plain words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from rich.console import Console
from rich.table import Table

from kozyr.cards import Lang, parse_suit, suit_name
from kozyr.games.base import Event, Observation
from kozyr.games.imperial import ImperialObservation
from kozyr.i18n import ru_plural, t
from kozyr.terminal.style import card_markup, cards_markup, name_of, text_cards

# Score reasons as the engine names them, in the reader's words.
REASONS: dict[str, tuple[str, str]] = {
    "turnup": ("an honour turned up", "вскрыт онер"),
    "imperials": ("imperials", "империалы"),
    "point": ("the point", "масть"),
    "honours": ("honours in hand", "онеры на руках"),
    "honour led": ("leading an honour", "ход онером"),
    "honour heads the trick": ("an honour that beats the trick", "онер перекрыл ход"),
    "imperial tombé": ("imperial tombé", "империал томбе"),
    "capot": ("capot: all 12 tricks", "капот: все 12 взяток"),
    "tricks": ("more than six tricks", "больше шести взяток"),
    "24 points": ("24 points", "24 очка"),
    "white imperial": ("white imperial", "белый империал"),
}
KINDS: dict[str, tuple[str, str]] = {
    "suit": ("suit imperial", "империал в масти"),
    "four": ("four of a kind", "четыре одного достоинства"),
    "white": ("white imperial", "белый империал"),
}


def _w(pair: tuple[str, str] | None, lang: Lang, fallback: str) -> str:
    if pair is None:
        return fallback
    return pair[1] if lang == "ru" else pair[0]


def _suit(text: object, lang: Lang) -> str:
    return suit_name(parse_suit(str(text)), lang, long=True)


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
        line = f"\n[bold underline]{head}[/]: {t('dealer', lang)} {dealer}; "
        line += f"{t('trump', lang).lower()} {trump}"
        if "turnup" in event:
            line += f" ({t('turnup', lang).lower()} {text_cards([event['turnup']], lang)})"
        if "trump_card" in event:
            line += f" ({t('trump_card', lang).lower()} {text_cards([event['trump_card']], lang)})"
        return line
    if kind == "white_imperial":
        cards = text_cards(event["cards"], lang)
        return f"{who}: " + ("белый империал! " if ru else "white imperial! ") + cards
    if kind == "declare":
        what = event["kind"]
        if what == "turnup":
            return (
                f"{who}: "
                + ("вскрыт онер " if ru else "an honour is turned up: ")
                + (text_cards(event["cards"], lang))
            )
        if what == "imperials":
            count = event["count"]
            if not event.get("marked"):
                return f"{who}: " + (
                    f"империалов {count}, меньше — не записываются"
                    if ru
                    else f"{count} imperial(s), fewer: not marked"
                )
            parts = []
            for imp in event.get("imperials", []):
                label = _w(KINDS.get(imp["kind"]), lang, imp["kind"])
                turned = (" (вскрытый)" if ru else " (turned)") if imp.get("turned") else ""
                parts.append(f"{label}{turned} ×{imp['count']}: {text_cards(imp['cards'], lang)}")
            return f"{who}: " + ("империалы " if ru else "imperials ") + "; ".join(parts)
        if what == "point":
            suit = _suit(event["suit"], lang)
            if ru:
                n = event["length"]
                return f"{who}: масть {suit}, {n} {ru_plural(n, 'карта', 'карты', 'карт')}, " + (
                    f"{event['value']} {ru_plural(event['value'], 'очко', 'очка', 'очков')}"
                )
            return f"{who}: point in {suit}, {event['length']} cards, value {event['value']}"
        if what == "honours":
            return f"{who}: " + ("онеры " if ru else "honours ") + text_cards(event["cards"], lang)
        return f"{who}: {what}"
    if kind == "score":
        reason = _w(REASONS.get(event["reason"]), lang, event["reason"])
        if previous is not None and previous["type"] == "play" and event["rule"] == "I8":
            reason += " " + text_cards([previous["card"]], lang)
        pts, total = event["points"], event.get("total")
        after = "" if total is None else f" → {total}"
        if ru:
            return f"  {who} +{pts} очк. ({reason}, {event['rule']}){after}"
        return f"  {who} +{pts} points ({reason}, {event['rule']}){after}"
    if kind == "mark":
        reason = _w(REASONS.get(event["reason"]), lang, event["reason"])
        n, total = event["imperials"], event["total"]
        if ru:
            return f"[green]  {who}: записано империалов {n} ({reason}); всего {total}[/green]"
        return f"[green]  {who} marks {n} imperial(s) ({reason}); {total} in all[/green]"
    if kind == "wipe":
        by = name_of(names, event.get("by"))
        if ru:
            return f"[yellow]  {who}: −{event['points']} очк. стёрто (империал у: {by})[/yellow]"
        return f"[yellow]  {who}: −{event['points']} points wiped ({by} marked)[/yellow]"
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
            return f"  {who}: {card} взят(а) картой {by} (томбе, {event['rule']})"
        return f"  {who} captures {card} with {by} (tombé, {event['rule']})"
    if kind == "deal_end":
        tricks = event.get("tricks")
        if tricks is None:
            return "Сдача без розыгрыша." if ru else "No play in this deal."
        counts = ", ".join(f"{name_of(names, s)} {n}" for s, n in enumerate(tricks))
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
        scores = "  ".join(f"{self.names[s]} {i}/{p}" for s, (i, p) in enumerate(o.scores))
        self.console.print(f"{line}   {t('scores', lang)}: {scores}")
        for s, shown in enumerate(o.shown):
            if s != o.seat and shown:
                self.console.print(f"  {self.names[s]}: {cards_markup(_sorted(shown, o), lang)}")
        if o.trick:
            played = ", ".join(f"{self.names[s]} {card_markup(c, lang)}" for s, c in o.trick)
            self.console.print(f"{t('trick', lang)}: {played}")
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
    from kozyr.cards import cards_in, rank_of, suit_of

    order = {13: 0, 12: 1, 11: 2, 14: 3}

    def key(c: int) -> tuple[int, int, int]:
        trump_first = 0 if suit_of(c) == obs.trump else 1
        r = rank_of(c)
        return (trump_first, int(suit_of(c)), order.get(r, 18 - r))

    return sorted(cards_in(mask), key=key)
