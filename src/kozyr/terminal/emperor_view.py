"""Emperor in the terminal: the table from an observation, and events in plain words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from rich.console import Console
from rich.table import Table

from kozyr.cards import Lang, cards_in, parse_suit, suit_name
from kozyr.games.base import Event, Observation
from kozyr.games.emperor import EmperorObservation
from kozyr.games.emperor.actions import ACCEPT, ACTION_TEXT, PASS, SWAP, TRUMP, YIELD
from kozyr.i18n import count, t
from kozyr.terminal.commands import russian
from kozyr.terminal.style import card_markup, cards_markup, name_of, sort_cards, text_cards
from kozyr.texts import TEXTS, text


def title(name: object, lang: Lang) -> str:
    """A title (``king``, ... ``emperor``) in words; none held yet (round 1) is a dash."""
    key = f"emperor_view.title.{name}"
    return text(key, lang) if key in TEXTS else "—"


def trump_words(trump: object, lang: Lang) -> str:
    if trump == "NT":
        return t("no_trump", lang)
    return suit_name(parse_suit(str(trump)), lang, long=True)


def narrate(event: Event, lang: Lang, names: Sequence[str]) -> str | None:
    """One public event as a sentence; None for events not worth a line."""
    kind = event["type"]
    who = name_of(names, event.get("seat"))
    if kind == "deal":
        head = f"\n[bold underline]{t('round', lang, n=event['number'])}[/]"
        if event["number"] == 1:
            return text(
                "emperor_view.first_round",
                lang,
                head=head,
                trump=trump_words(event["trump"], lang),
                card=text_cards([event["trump_card"]], lang),
                leader=name_of(names, event["leader"]),
            )
        ranks = ", ".join(
            f"{title(event['titles'][s], lang)} — {name_of(names, s)}" for s in event["order"]
        )
        extra = text("emperor_view.bargaining", lang) if event.get("bargaining") else ""
        return f"{head}: {ranks}{extra}"
    if kind == "pass":
        return text("emperor_view.pass", lang, who=who)
    if kind == "swap":
        taker, target = name_of(names, event["taker"]), name_of(names, event["target"])
        key = "emperor_view.swapped" if event["happened"] else "emperor_view.swap_named"
        return text(key, lang, taker=taker, target=target)
    if kind == "offer":
        return text(
            "emperor_view.offer", lang, who=who, tricks=count(event["tricks"], "trick", lang)
        )
    if kind == "accept":
        target = name_of(names, event["target"])
        return text("emperor_view.accept", lang, who=who, target=target, n=event["tricks"])
    if kind == "refuse":
        return text("emperor_view.refuse", lang, who=who)
    if kind == "yield":
        return text("emperor_view.yield", lang, who=who, taker=name_of(names, event["taker"]))
    if kind == "trump":
        if event["trump"] == "NT":
            return text("emperor_view.no_trumps", lang, who=who)
        return text("emperor_view.trump", lang, who=who, trump=trump_words(event["trump"], lang))
    if kind == "play":
        return None
    if kind == "trick":
        played = ", ".join(
            f"{name_of(names, s)} {text_cards([c], lang)}" for s, c in event["cards"]
        )
        winner = name_of(names, event["winner"])
        return f"{t('trick', lang)} {event['number']}: {played} → [bold]{winner}[/bold]"
    if kind == "deal_end":
        tricks = ", ".join(f"{name_of(names, s)} — {n}" for s, n in enumerate(event["tricks"]))
        titles = ", ".join(
            f"{title(event['titles'][s], lang)} — {name_of(names, s)}" for s in event["order"]
        )
        lines = [text("emperor_view.tricks", lang, list=tricks)]
        lines.append(text("emperor_view.titles", lang, list=titles))
        for why in event.get("why", []):
            lines.append("  " + _why(why, lang, names))
        return "\n".join(lines)
    if kind == "game_over":
        standing = ", ".join(
            f"{title(event['ranks'][s], lang)} — {name_of(names, s)} ({event['totals'][s]})"
            for s in event["places"]
        )
        lines = [f"\n[bold green]{t('game_over', lang)}. {t('standing', lang)}: {standing}[/]"]
        for why in event.get("why", []):
            lines.append("  " + _why(why, lang, names))
        return "\n".join(lines)
    return None


def _why(why: Mapping[str, object], lang: Lang, names: Sequence[str]) -> str:
    seats = cast(list[int], why.get("seats", []))
    group = ", ".join(name_of(names, s) for s in seats)
    key = f"emperor_view.why.{why.get('by')}"
    if key in TEXTS:
        return text(key, lang, group=group)
    return str(why.get("text", ""))


def _sorted(mask: int, trump: int | None) -> list[int]:
    """Trumps first, then the other suits; high to low, A K Q J 10 ... (E1)."""
    return sort_cards(cards_in(mask), "emperor", trump)


class EmperorView:
    def __init__(self, console: Console, names: Sequence[str], lang: Lang) -> None:
        self.console = console
        self.names = list(names)
        self.lang = lang
        self._final: Event | None = None

    def narrate(self, event: Event) -> str | None:
        if event["type"] == "game_over":
            self._final = event
        return narrate(event, self.lang, self.names)

    def show_scores(self, obs: Observation) -> None:
        o = cast(EmperorObservation, obs)
        table = Table(title=t("round", self.lang, n=o.round))
        table.add_column(t("player", self.lang))
        table.add_column(t("title", self.lang))
        table.add_column(t("tricks", self.lang), justify="right")
        table.add_column(t("total", self.lang), justify="right")
        for s in range(o.players):
            table.add_row(
                self.names[s], title(o.titles[s], self.lang), str(o.tricks[s]), str(o.totals[s])
            )
        self.console.print(table)

    def show_table(self, obs: Observation) -> None:
        o = cast(EmperorObservation, obs)
        lang = self.lang
        trump = t("trump_not_named", lang)
        if o.trump_named:
            trump = t("no_trump", lang) if o.trump is None else suit_name(o.trump, lang, long=True)
        me = "" if o.seat is None else title(o.titles[o.seat], lang)
        head = f"{t('round', lang, n=o.round)}."
        if me != "—":
            head += " " + t("your_title", lang, title=f"[bold]{me}[/bold]") + "."
        self.console.print(f"{head} {t('trump', lang)}: [bold]{trump}[/bold]")

        def who(s: int) -> str:
            held = title(o.titles[s], lang)
            # Round 1 is played before anyone has a title (E6).
            return self.names[s] if held == "—" else f"{self.names[s]} ({held})"

        self.console.print(
            "  "
            + "; ".join(
                f"{who(s)}: " + t("status_emperor", lang, tricks=o.tricks[s], total=o.totals[s])
                for s in range(o.players)
            )
        )
        for s, known in sorted(o.known.items()):
            if s != o.seat and known:
                cards = cards_markup(_sorted(known, o.trump), lang)
                self.console.print(f"  {t('known_of', lang, name=self.names[s])}: {cards}")
        if o.trick:
            played = ", ".join(f"{self.names[s]} {card_markup(c, lang)}" for s, c in o.trick)
            self.console.print(f"{t('on_table', lang)}: {played}")
        legal = set(o.legal_actions)
        hand = " ".join(
            card_markup(c, lang)
            if c in legal or o.phase != "play"
            else f"[dim]{card_markup(c, lang)}[/dim]"
            for c in _sorted(o.hand or 0, o.trump)
        )
        self.console.print(f"{t('hand', lang)}: {hand}")
        if o.phase != "play" and o.legal_actions:
            self.console.print(f"[bold]{self._question(o)}[/bold]")
            self.console.print(f"{t('choices', lang)}: {self._choices(o)}")

    def _question(self, o: EmperorObservation) -> str:
        """What the person is asked to decide, from the legal actions alone."""
        legal = set(o.legal_actions)
        lang = self.lang
        if ACCEPT in legal:
            offer = o.offers[-1] if o.offers else None
            who = "" if offer is None else self.names[offer.target]
            k = 0 if offer is None else offer.tricks
            return t("ask_accept", lang, name=who, tricks=count(k, "trick", lang))
        if YIELD in legal:
            taker = next((sw.taker for sw in reversed(o.swaps) if sw.target == o.seat), None)
            name = "" if taker is None else self.names[taker]
            return t("ask_offer", lang, name=name)
        if PASS in legal:
            return t("ask_swap", lang)
        if TRUMP in legal:
            return t("ask_trump", lang)
        return t("prompt_action", lang)

    def _choices(self, o: EmperorObservation) -> str:
        parts = []
        for a in o.legal_actions:
            shown = russian(ACTION_TEXT[a]) if self.lang == "ru" else ACTION_TEXT[a]
            if SWAP <= a < PASS:
                target = a - SWAP
                shown += f" ({self.names[target]}, {title(o.titles[target], self.lang)})"
            parts.append(shown)
        return ", ".join(parts)

    def prompt(self, obs: Observation) -> str:
        o = cast(EmperorObservation, obs)
        key = "prompt_card" if o.phase == "play" else "prompt_action"
        return f"{t(key, self.lang)}> "

    def show_end(self, summary: Mapping[str, object]) -> None:
        final = self._final
        if final is None:
            # The game was left before its end: the titles and totals so far.
            totals = cast(list[int], summary["totals"])
            titles = cast(list[str | None], summary["titles"])
            table = Table(title=t("total", self.lang))
            table.add_column(t("player", self.lang))
            table.add_column(t("title", self.lang))
            table.add_column(t("total", self.lang), justify="right")
            for s, total in enumerate(totals):
                table.add_row(self.names[s], title(titles[s], self.lang), str(total))
            self.console.print(table)
            return
        # E12: the final places are the game-over event's, not the titles held after
        # round 10 (a better game total can outrank a better last-round title).
        ranks = cast(list[str], final["ranks"])
        totals = cast(list[int], final["totals"])
        table = Table(title=t("standing", self.lang))
        table.add_column(t("place", self.lang), justify="right")
        table.add_column(t("player", self.lang))
        table.add_column(t("title", self.lang))
        table.add_column(t("total", self.lang), justify="right")
        for place, s in enumerate(cast(list[int], final["places"]), start=1):
            table.add_row(str(place), self.names[s], title(ranks[s], self.lang), str(totals[s]))
        self.console.print(table)
