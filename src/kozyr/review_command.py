"""``kozyr review FILE``: the post-game review in the terminal, with a progress bar."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from kozyr.cards import CardError, Lang, card_name, parse_card
from kozyr.i18n import decimal, default_lang
from kozyr.records import RecordError, load
from kozyr.review import Review, review
from kozyr.terminal.help_lang import help_text as _h
from kozyr.texts import text

LEVEL_WORLDS = {1: 8, 2: 16, 3: 40, 4: 100, 5: 250}
"""Worlds searched for each decision at each review level: more is slower and surer."""


def _t(key: str, lang: Lang, **kw: object) -> str:
    return text(f"review.{key}", lang, **kw)


def _shown(action: str, lang: Lang) -> str:
    """A card as the player reads it (in the reader's notation: Q♠ in English); other
    actions (swaps, offers) as written."""
    try:
        return card_name(parse_card(action), lang, symbols=True)
    except CardError:
        return action


def _names(record: dict[str, object]) -> list[str] | None:
    """The players' names the record keeps, one a seat, or None."""
    names = record.get("players")
    options = record.get("options")
    players = options.get("players") if isinstance(options, dict) else None
    if isinstance(names, list) and len(names) == players and all(isinstance(n, str) for n in names):
        return [str(n) for n in names]
    return None


def _who(seat: int, names: list[str] | None, lang: Lang) -> str:
    if names is None or not names[seat].strip():
        return _t("seat_no", lang, seat=seat + 1)
    return _t("seat_of", lang, name=names[seat], seat=seat + 1)


def _print(result: Review, lang: Lang, all_moves: bool, names: list[str] | None = None) -> None:
    console = Console()
    table = Table()
    hindsight = any(d.hindsight is not None for d in result.decisions)
    for key in ("action", "deal", "seat", "played", "best", "loss"):
        table.add_column(_t(key, lang))
    table.add_column("")
    if hindsight:
        table.add_column(_t("hindsight", lang))
    shown = 0
    for d in result.decisions:
        if not all_moves and not d.verdict:
            continue
        shown += 1
        row = [
            str(d.index + 1),
            str(d.deal),
            str(d.seat + 1) if names is None else f"{d.seat + 1} {names[d.seat]}",
            _shown(d.played, lang),
            _shown(d.best, lang),
            decimal(d.loss, lang),
            _t(d.verdict, lang) if d.verdict else "",
        ]
        if hindsight:
            row.append(_shown(d.hindsight, lang) if d.hindsight else "")
        table.add_row(*row)
    if shown:
        console.print(table)
    # The unit as the ranker words it (review.unit.<game>: a Russian genitive plural).
    unit = result.unit[1] if lang == "ru" else result.unit[0]
    for s in result.summaries:
        j = s.to_json()
        console.print(
            _t(
                "summary",
                lang,
                who=_who(s.seat, names, lang),
                decisions=j["decisions"],
                accuracy=decimal(j["accuracy"], lang),
                mistakes=j["mistakes"],
                blunders=j["blunders"],
                lost=decimal(j["lost"], lang),
                unit=unit,
                per_deal=decimal(j["lost_per_deal"], lang, 2),
            )
        )


REVIEW_HELP = _h("cli.help.review")


def review_cmd(
    file: Annotated[
        Path,
        typer.Argument(help=_h("cli.help.record_file")),
    ],
    level: Annotated[
        int,
        typer.Option(
            "--level",
            min=1,
            max=5,
            help=_h("cli.help.review_level"),
        ),
    ] = 3,
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat",
            help=_h("cli.help.review_seat"),
        ),
    ] = None,
    all_moves: Annotated[
        bool,
        typer.Option(
            "--all",
            help=_h("cli.help.review_all"),
        ),
    ] = False,
    hindsight: Annotated[
        bool,
        typer.Option(
            "--hindsight",
            help=_h("cli.help.review_hindsight"),
        ),
    ] = False,
    as_json: Annotated[
        bool,
        typer.Option("--json", help=_h("cli.help.review_json")),
    ] = False,
    seed: Annotated[
        int,
        typer.Option(
            "--seed",
            help=_h("cli.help.review_seed"),
        ),
    ] = 0,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help=_h("cli.help.review_lang"),
        ),
    ] = None,
) -> None:
    # The help is REVIEW_HELP (in the help's language), given where the command is registered.
    language: Lang = "ru" if (lang or default_lang()) == "ru" else "en"
    try:
        data = load(file)
        seats = None
        if seat is not None:
            players = int(data.get("options", {}).get("players", 0) or 0)
            if not 1 <= seat <= players:
                raise ValueError(_t("bad_seat", language, seat=seat, n=players))
            seats = [seat - 1]
        with Progress(
            TextColumn(_t("progress", language)),
            BarColumn(),
            MofNCompleteColumn(),
            transient=True,
            disable=as_json or not sys.stderr.isatty(),
            console=Console(stderr=True),
        ) as bar:
            task = bar.add_task("review", total=len(data.get("actions") or []))
            result = review(
                data,
                seats=seats,
                worlds=LEVEL_WORLDS[level],
                seed=seed,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                hindsight=hindsight,
            )
    except (RecordError, ValueError) as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from e
    if as_json:
        json.dump(result.to_json(), sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return
    if not result.decisions:
        typer.echo(_t("none", language))
        return
    _print(result, language, all_moves, _names(data))
