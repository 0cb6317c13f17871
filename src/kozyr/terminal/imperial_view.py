"""Imperial in the terminal: the table from an observation, and events in plain words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from rich.console import Console
from rich.table import Table

from kozyr.cards import Lang, cards_in, parse_card, parse_suit, rank_of, suit_name
from kozyr.games.base import Event, Observation
from kozyr.games.imperial import ImperialObservation
from kozyr.i18n import count, t
from kozyr.terminal.style import card_markup, cards_markup, name_of, sort_cards, text_cards
from kozyr.texts import TEXTS, text


def _reason(reason: str, lang: Lang) -> str:
    """A score reason as the engine names it, in the reader's words (the seed's where it
    has them); one the catalogue does not know as the engine wrote it."""
    key = f"imperial_view.reason.{reason}"
    return text(key, lang) if key in TEXTS else reason


def _suit(letter: object, lang: Lang) -> str:
    return suit_name(parse_suit(str(letter)), lang, long=True)


def _cards(names: object, lang: Lang) -> str:
    """Cards of a declaration, in Imperial's rank order (I2: K Q J A 10 ...)."""
    return text_cards(cast(list[str], names), lang, "imperial")


def _imperial_label(imp: Mapping[str, object], lang: Lang) -> str:
    """An imperial declared, by its kind and count (a four of a kind by its rank)."""
    kind, n = str(imp["kind"]), cast(int, imp["count"])
    turned = text("imperial_view.turned", lang) if imp.get("turned") else ""
    if kind == "four" and n == 1:
        key = f"imperial_view.four.{rank_of(parse_card(cast(list[str], imp['cards'])[0]))}"
    else:
        key = f"imperial_view.{kind}.{n}"
    if key in TEXTS:
        return text(key, lang, turned=turned)
    if kind == "four" and n == 1:
        return text("imperial_view.four", lang, turned=turned)
    other = "imperial_view.other" if n == 1 else "imperial_view.other_times"
    return text(other, lang, kind=kind, n=n, turned=turned)


def narrate(
    event: Event, lang: Lang, names: Sequence[str], previous: Event | None = None
) -> str | None:
    """One public event as a sentence; None for events not worth a line.

    ``previous`` is the event before it: an honour scored in play (I8) names the card
    just played, since tricks are shown only once complete.
    """
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
        return text(
            "imperial_view.white_imperial", lang, who=who, cards=_cards(event["cards"], lang)
        )
    if kind == "declare":
        what = event["kind"]
        if what == "turnup":
            return text("imperial_view.turnup", lang, who=who, cards=_cards(event["cards"], lang))
        if what == "imperials":
            if not event.get("marked"):
                imperials = count(event["count"], "imperial", lang)
                return text("imperial_view.not_marked", lang, who=who, imperials=imperials)
            parts = [
                f"{_imperial_label(imp, lang)}: {_cards(imp['cards'], lang)}"
                for imp in event.get("imperials", [])
            ]
            return text("imperial_view.imperials", lang, who=who, list="; ".join(parts))
        if what == "point":
            return text(
                "imperial_view.point",
                lang,
                who=who,
                suit=_suit(event["suit"], lang),
                length=count(event["length"], "card", lang),
                value=event["value"],
            )
        if what == "honours":
            honours = cast(list[str], event["cards"])
            cards = _cards(honours, lang)
            return text("imperial_view.honours", lang, who=who, n=len(honours), cards=cards)
        return f"{who}: {what}"
    if kind == "score":
        reason = _reason(event["reason"], lang)
        if previous is not None and previous["type"] == "play" and event["rule"] == "I8":
            reason += " " + _cards([previous["card"]], lang)
        pts, loose = event["points"], event.get("total")
        gained = f"+{count(pts, 'point', lang)}"
        if loose is None:
            return f"  {who}: {gained} ({reason})"
        return "  " + text(
            "imperial_view.score_total",
            lang,
            who=who,
            gained=gained,
            reason=reason,
            total=loose,
        )
    if kind == "mark":
        line = text(
            "imperial_view.mark",
            lang,
            who=who,
            n=event["imperials"],
            reason=_reason(event["reason"], lang),
            total=event["total"],
        )
        return f"[green]  {line}[/green]"
    if kind == "wipe":
        by = name_of(names, event.get("by"))
        lost = count(event["points"], "point", lang)
        return f"[yellow]  {text('imperial_view.wipe', lang, who=who, lost=lost, by=by)}[/yellow]"
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
        return "  " + text("imperial_view.capture", lang, who=who, card=card, by=by)
    if kind == "deal_end":
        tricks = event.get("tricks")
        if tricks is None:
            return text("imperial_view.no_play", lang)
        counts = ", ".join(f"{name_of(names, s)} — {n}" for s, n in enumerate(tricks))
        return text("imperial_view.tricks", lang, list=counts)
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
                label = t("shown_by", lang, name=self.names[s])
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
