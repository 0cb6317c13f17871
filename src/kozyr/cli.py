"""The ``kozyr`` command: play, replay, verify, review, arena, serve."""

from __future__ import annotations

import json
import secrets
import sys
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from kozyr.arena.command import GameChoice, arena
from kozyr.bots.base import Bot
from kozyr.bots.registry import DEFAULT_LEVEL, make_bot
from kozyr.cards import Lang
from kozyr.games import GAMES
from kozyr.games.dealing import SEED_BITS
from kozyr.games.stakes import StakeError, StakeTerms
from kozyr.i18n import default_lang, t
from kozyr.records import RecordError, load, replay, save, verify
from kozyr.review_command import REVIEW_HELP, review_cmd
from kozyr.server.serve import serve
from kozyr.terminal.help_lang import help_lang, help_text, use_russian_chrome
from kozyr.terminal.session import Session
from kozyr.terminal.tally import Tally, parse_stake, stake_words
from kozyr.terminal.views import view_for
from kozyr.texts import text

if TYPE_CHECKING:
    from kozyr.server.runtime.config import Settings

# --help is in Russian with --lang ru, or with a Russian locale (help_lang).
HELP_LANG: Lang = help_lang(sys.argv[1:], default_lang())
if HELP_LANG == "ru":
    use_russian_chrome()


_h = help_text


app = typer.Typer(
    help=_h("cli.help.app"),
    no_args_is_help=True,
    add_completion=False,
)
play_app = typer.Typer(
    help=_h("cli.help.play"),
    no_args_is_help=True,
)
app.add_typer(play_app, name="play")
app.command(
    "arena",
    help=_h("cli.help.arena"),
)(arena)
app.command("review", help=REVIEW_HELP)(review_cmd)
app.command(
    "serve",
    help=_h("cli.help.serve"),
)(serve)


class LangChoice(StrEnum):
    en = "en"
    ru = "ru"


def _records_dir() -> Path:
    import os

    base = os.environ.get("KOZYR_RECORDS")
    if base:
        return Path(base)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "kozyr" / "records"


SeedOpt = Annotated[
    int | None,
    typer.Option(
        min=0,
        help=_h("cli.help.seed"),
    ),
]
LangOpt = Annotated[
    LangChoice | None,
    typer.Option(
        "--lang",
        help=_h("cli.help.lang"),
    ),
]
DirOpt = Annotated[
    Path | None,
    typer.Option(
        "--records",
        help=_h("cli.help.records"),
    ),
]
SeatOpt = Annotated[int, typer.Option(help=_h("cli.help.seat"))]
StakeOpt = Annotated[
    str | None,
    typer.Option(
        "--stake",
        metavar="KIND:S",
        help=_h("cli.help.stake"),
    ),
]
BotOpt = Annotated[
    str,
    typer.Option(
        "--level",
        help=_h("cli.help.level"),
    ),
]


@play_app.callback()
def play_group(ctx: typer.Context, lang: LangOpt = None) -> None:
    # "kozyr play --lang ru emperor" and "kozyr play --lang ru --help" work as well.
    ctx.obj = lang


def _bot_check(game: str, bot: str) -> None:
    try:
        make_bot(game, bot, 0)
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--level") from e


def _seat_check(seat: int, players: int) -> None:
    if not 0 <= seat < players:
        raise typer.BadParameter(f"seat must be 0-{players - 1}", param_hint="--seat")


def _play_game(
    game: str,
    players: int,
    seed: int | None,
    lang: LangChoice | None,
    records: Path | None,
    seat: int,
    level: str,
    stake: str | None = None,
) -> None:
    from kozyr.terminal.style import seat_names

    _seat_check(seat, players)
    _bot_check(game, level)
    language: Lang = lang.value if lang else default_lang()
    terms = _stake_check(stake, game, language)
    secret = seed is None
    seed = secrets.randbits(SEED_BITS) if seed is None else seed
    spec = GAMES[game]
    state = spec.new_state(spec.options_from_json({"players": players}), seed=seed)
    names = seat_names(players, seat, language)
    console = Console(highlight=False, soft_wrap=True)
    # The bots' own randomness is independent of the deal seed.
    bots: dict[int, Bot] = {
        s: make_bot(game, level, secrets.randbits(63) if secret else seed * 31 + s)
        for s in range(players)
        if s != seat
    }
    view = view_for(game, console, names, language)
    if not secret:
        console.print(t("seed_not_secret", language, seed=seed))
    console.print(t(f"help_{game}", language))
    tally = Tally(terms, names) if terms else None
    if tally:
        console.print(text("stakes.playing", language, terms=stake_words(tally.terms, language)))
    Session(state, seat, bots, view, console, console.input, language).run()
    if tally:
        _settle(tally, spec.settle(tally.terms, state) if state.over else None, console, language)
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    name = f"{game}-{stamp}.json" if secret else f"{game}-{stamp}-seed{seed}.json"
    path = (records or _records_dir()) / name
    created = datetime.now(UTC).isoformat(timespec="seconds")
    save(state, path, players=names, bots=level, created=created, seed_secret=secret)
    console.print(t("record_saved", language, path=path))


def _stake_check(stake: str | None, game: str, lang: Lang) -> StakeTerms | None:
    """The terms of ``--stake``, checked before the game starts (a bad one exits 2)."""
    if stake is None:
        return None
    try:
        return parse_stake(stake, game, lang)
    except StakeError as e:
        raise typer.BadParameter(str(e), param_hint="--stake") from e


def _settle(tally: Tally, nets: list[int] | None, console: Console, lang: Lang) -> None:
    """Prints one game's settlement (none for a game left unfinished), and the session's
    totals once it holds more than one game."""
    if nets is None:
        console.print(text("stakes.unsettled", lang))
        return
    tally.add(nets)
    for line in tally.game_lines(nets, lang):
        console.print(line, markup=False)
    if tally.games > 1:
        for line in tally.session_lines(lang):
            console.print(line, markup=False)


@play_app.command(
    "imperial",
    help=_h("cli.help.play_imperial"),
)
def play_imperial(
    ctx: typer.Context,
    players: Annotated[int, typer.Option(min=2, max=3, help=_h("cli.help.players_imperial"))] = 2,
    seed: SeedOpt = None,
    lang: LangOpt = None,
    records: DirOpt = None,
    seat: SeatOpt = 0,
    level: BotOpt = str(DEFAULT_LEVEL),
    stake: StakeOpt = None,
) -> None:
    _play_game("imperial", players, seed, lang or ctx.obj, records, seat, level, stake)


@play_app.command(
    "emperor",
    help=_h("cli.help.play_emperor"),
)
def play_emperor(
    ctx: typer.Context,
    players: Annotated[int, typer.Option(min=3, max=4, help=_h("cli.help.players_emperor"))] = 4,
    seed: SeedOpt = None,
    lang: LangOpt = None,
    records: DirOpt = None,
    seat: SeatOpt = 0,
    level: BotOpt = str(DEFAULT_LEVEL),
    stake: StakeOpt = None,
) -> None:
    _play_game("emperor", players, seed, lang or ctx.obj, records, seat, level, stake)


# kozyr learn (#29): the lessons in the terminal.
@app.command("learn", help=_h("learn.help.command"))
def learn_cmd(
    game: Annotated[str, typer.Argument(metavar="|".join(GAMES), help=_h("learn.help.game"))],
    lesson: Annotated[
        int | None, typer.Option("--lesson", min=1, max=99, help=_h("learn.help.lesson"))
    ] = None,
    list_only: Annotated[bool, typer.Option("--list", help=_h("learn.help.list"))] = False,
    lang: LangOpt = None,
) -> None:
    from kozyr.games.lessons import load as load_lessons
    from kozyr.terminal.learn import Learn, Progress, progress_path

    language: Lang = lang.value if lang else default_lang()
    if game not in GAMES:
        names = ", ".join(GAMES)
        raise typer.BadParameter(
            text("learn.no_game", language, game=game, games=names), param_hint="GAME"
        )
    lessons = load_lessons(game)
    if lesson is not None and lesson > len(lessons):
        raise typer.BadParameter(
            text("learn.no_lesson", language, n=lesson, last=len(lessons)), param_hint="--lesson"
        )
    console = Console(highlight=False, soft_wrap=True)
    learn = Learn(game, lessons, console, console.input, Progress.load(progress_path()), language)
    if list_only:
        learn.show_list()
        return
    learn.run(None if lesson is None else lesson - 1)


@app.command(
    "replay",
    help=_h("cli.help.replay"),
)
def replay_cmd(
    file: Annotated[
        Path,
        typer.Argument(help=_h("cli.help.record_file")),
    ],
    as_json: Annotated[bool, typer.Option("--json", help=_h("cli.help.replay_json"))] = False,
    lang: LangOpt = None,
) -> None:
    try:
        data = load(file)
        state = replay(data)
    except RecordError as e:
        message = str(e) if str(e).startswith(str(file)) else f"{file}: {e}"
        if as_json:
            # The refusal for programs: the engine's code, ruling and both messages.
            json.dump({"error": e.to_json()}, sys.stdout, ensure_ascii=False, indent=1)
            sys.stdout.write("\n")
        typer.echo(f"error: {message}", err=True)
        raise typer.Exit(2) from e
    if as_json:
        out = dict(state.summary())
        out["game"] = state.game
        out["waiting_for_deal"] = state.waiting_for_deal
        out["events"] = state.events
        json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return
    language: Lang = lang.value if lang else default_lang()
    names = data.get("players")
    if not (isinstance(names, list) and len(names) == state.players):
        names = [text("grammar.player", language, n=s) for s in range(state.players)]
    console = Console(highlight=False, soft_wrap=True)
    view = view_for(state.game, console, [str(n) for n in names], language)
    for event in state.events:
        line = view.narrate(event)
        if line:
            console.print(line)
    view.show_end(state.summary())
    if state.waiting_for_deal:
        console.print(t("waiting_deal", language))


@app.command(
    "verify",
    help=_h("cli.help.verify"),
)
def verify_cmd(
    file: Annotated[
        Path,
        typer.Argument(help=_h("cli.help.finished_record_file")),
    ],
    as_json: Annotated[
        bool,
        typer.Option("--json", help=_h("cli.help.verify_json")),
    ] = False,
    lang: LangOpt = None,
) -> None:
    try:
        data = load(file)
    except RecordError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2) from e
    verdict = verify(data)
    if as_json:
        json.dump(verdict, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
    else:
        language: Lang = lang.value if lang else default_lang()
        if verdict["ok"]:
            typer.echo(
                text(
                    "cli.verify_ok",
                    language,
                    commitment=verdict["commitment"],
                    deals=verdict["deals"],
                )
            )
        else:
            typer.echo(text("cli.verify_failed", language))
            for problem in verdict["problems"]:
                typer.echo(f"  - {problem}")
            typer.echo(
                text("cli.verify_deals", language, ok=verdict["deals_ok"], deals=verdict["deals"])
            )
    if not verdict["ok"]:
        raise typer.Exit(1)


ratings_app = typer.Typer(help=_h("cli.help.ratings"), no_args_is_help=True)
app.add_typer(ratings_app, name="ratings")


@ratings_app.command("rebuild")
def ratings_rebuild(
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            help=_h("cli.help.ratings_database"),
        ),
    ] = None,
) -> None:
    """Recompute every rating from the stored finished rated games, in the order they
    finished, and print a summary (docs/ratings.md)."""
    import asyncio

    from kozyr.server.accounts.ratings import rebuild
    from kozyr.server.runtime.config import Settings
    from kozyr.server.storage.store import Store

    settings = Settings()
    if database is not None:
        settings.database_url = database

    async def run() -> list[str]:
        store = Store(settings.url)
        try:
            await store.migrate()
            return (await rebuild(store)).lines()
        finally:
            await store.close()

    for line in asyncio.run(run()):
        typer.echo(line)


@ratings_app.command("levels", help=_h("cli.help.ratings_levels"))
def ratings_levels(
    game: Annotated[GameChoice, typer.Argument(help=_h("cli.help.levels_game"))],
    players: Annotated[
        int, typer.Option("--players", min=2, max=4, help=_h("cli.help.levels_players"))
    ],
    minutes: Annotated[
        float, typer.Option("--minutes", min=0, max=24 * 60, help=_h("cli.help.levels_minutes"))
    ] = 0,
    jobs: Annotated[
        int, typer.Option("--jobs", min=1, max=64, help=_h("cli.help.levels_jobs"))
    ] = 1,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=2**31 - 1, help=_h("cli.help.levels_seed"))
    ] = 31,
    games_file: Annotated[
        Path | None, typer.Option("--games-file", help=_h("cli.help.levels_games_file"))
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help=_h("cli.help.levels_out"))] = None,
    load_limit: Annotated[
        float, typer.Option("--load-limit", min=0, help=_h("cli.help.levels_load_limit"))
    ] = 1.5,
    lang: LangOpt = None,
) -> None:
    import os

    import kozyr.bots
    from kozyr.arena.levels import ratings_json, read_games, run_levels
    from kozyr.arena.match import ArenaError, make_options
    from kozyr.server.accounts.ratings import display

    language: Lang = lang.value if lang else default_lang()
    name = game.value
    try:
        make_options(name, players, {})
    except ArenaError as e:
        typer.echo(str(e), err=True)
        raise typer.Exit(2) from e
    path = games_file or Path("bench/results") / f"levels-{name}-{players}p.jsonl"
    target = out or Path(kozyr.bots.__file__).parent / name / "level_ratings.json"
    load_start = os.getloadavg()[0]
    if minutes > 0:
        if load_start > load_limit:
            typer.echo(
                text(
                    "cli.levels_busy", language, load=f"{load_start:.2f}", limit=f"{load_limit:g}"
                ),
                err=True,
            )
            raise typer.Exit(3)

        def told(line: dict[str, object]) -> None:
            typer.echo(
                text(
                    "cli.levels_game",
                    language,
                    n=line["sweep"],
                    levels=line["levels"],
                    places=line["places"],
                )
            )

        run_levels(name, players, path, minutes, jobs, seed, told)
    games = read_games(path, players)
    previous = json.loads(target.read_text("utf-8")) if target.exists() else None
    data = ratings_json(previous, players, games)
    head = text(
        "cli.levels_head",
        language,
        game=name,
        players=players,
        games=len(games),
        start=f"{load_start:.2f}",
        end=f"{os.getloadavg()[0]:.2f}",
    )
    typer.echo(head)
    for level, r in data["players"][str(players)]["levels"].items():
        shown = display(r["mu"], r["sigma"])
        typer.echo(
            text(
                "cli.levels_row",
                language,
                level=level,
                shown=shown,
                mu=f"{r['mu']:.2f}",
                sigma=f"{r['sigma']:.2f}",
                games=r["games"],
            )
        )
    target.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    typer.echo(text("cli.levels_written", language, path=target))


ledger_app = typer.Typer(help=_h("cli.help.ledger"), no_args_is_help=True)
app.add_typer(ledger_app, name="ledger")


def _existing_database(data: Path | None, database: str | None, language: Lang) -> Settings:
    """The settings of a command that reads a server's database: ``--data`` (a folder)
    beats the environment's URL, ``--database`` beats both; exit 2 if there is none."""
    from kozyr.server.runtime.config import Settings

    settings = Settings()
    if data is not None:
        settings.data = data
        settings.database_url = None
    if database is not None:
        settings.database_url = database
    if not settings.database_url and not (settings.data / "kozyr.db").is_file():
        typer.echo(
            text("cli.ledger_no_database", language, path=settings.data / "kozyr.db"), err=True
        )
        raise typer.Exit(2)
    return settings


@ledger_app.command(
    "check",
    help=_h("cli.help.ledger_check"),
)
def ledger_check(
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            help=_h("cli.help.ledger_database"),
        ),
    ] = None,
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            help=_h("cli.help.ledger_data"),
        ),
    ] = None,
    lang: LangOpt = None,
) -> None:
    import asyncio

    from sqlalchemy.exc import SQLAlchemyError

    from kozyr.server.money import ledger
    from kozyr.server.storage.store import Store

    language: Lang = lang.value if lang else default_lang()
    settings = _existing_database(data, database, language)

    async def run() -> ledger.Audit:
        store = Store(settings.url)
        try:
            async with store.engine.connect() as conn:
                return await ledger.audit(conn)
        finally:
            await store.close()

    try:
        found = asyncio.run(run())
    except (SQLAlchemyError, OSError) as e:
        typer.echo(text("cli.ledger_unreadable", language, error=e), err=True)
        raise typer.Exit(2) from e
    if found.ok:
        typer.echo(text("cli.ledger_ok", language, accounts=found.accounts))
        return
    typer.echo(text("cli.ledger_bad", language))
    if found.total != 0:
        total = text("cli.ledger_total", language, accounts=found.accounts, total=found.total)
        typer.echo(f"  - {total}")
    for d in found.differences:
        account = f"{d.key} (#{d.account_id}{', ' + d.name if d.name else ''})"
        line = text(
            "cli.ledger_account",
            language,
            account=account,
            balance=d.balance,
            journal=d.journal,
            diff=d.balance - d.journal,
        )
        typer.echo(f"  - {line}")
    raise typer.Exit(1)


# -- puzzles from real deals (#29, docs/puzzles.md) -----------------------------------------

puzzles_app = typer.Typer(help=_h("puzzles.help.app"), no_args_is_help=True)
app.add_typer(puzzles_app, name="puzzles")


@puzzles_app.command("build", help=_h("puzzles.help.build"))
def puzzles_build(
    database: Annotated[
        str | None, typer.Option("--database", help=_h("puzzles.help.database"))
    ] = None,
    bot_games: Annotated[
        int, typer.Option("--bot-games", min=0, max=1000, help=_h("puzzles.help.bot_games"))
    ] = 0,
    worlds: Annotated[
        int, typer.Option("--worlds", min=2, max=400, help=_h("puzzles.help.worlds"))
    ] = 8,
    margin: Annotated[
        float, typer.Option("--margin", min=0.5, max=20.0, help=_h("puzzles.help.margin"))
    ] = 1.5,
    per_game: Annotated[
        int, typer.Option("--per-game", min=1, max=50, help=_h("puzzles.help.per_game"))
    ] = 3,
    jobs: Annotated[int, typer.Option("--jobs", min=0, max=16, help=_h("puzzles.help.jobs"))] = 2,
    lang: LangOpt = None,
) -> None:
    import asyncio

    from kozyr.server.reviews.puzzle_build import Progress, build
    from kozyr.server.reviews.puzzle_finder import Settings as FindSettings
    from kozyr.server.runtime.config import Settings
    from kozyr.server.storage.store import Store

    language: Lang = lang.value if lang else default_lang()
    settings = Settings()
    if database is not None:
        settings.database_url = database

    def report(p: Progress) -> None:
        line = text(
            "puzzles.progress",
            language,
            games=p.games,
            total=p.total,
            positions=p.positions,
            found=p.found,
        )
        typer.echo(line)

    async def run() -> str:
        store = Store(settings.url)
        try:
            await store.migrate()
            done = await build(
                store,
                FindSettings(worlds=worlds, margin=margin, per_game=per_game),
                bot_games=bot_games,
                jobs=jobs,
                report=report,
            )
        finally:
            await store.close()
        return text(
            "puzzles.done",
            language,
            found=done.found,
            games=done.server_games + done.bot_games,
            server=done.server_games,
            bots=done.bot_games,
            skipped=done.skipped,
            seconds=f"{done.seconds:.1f}",
        )

    typer.echo(asyncio.run(run()))


# -- table talk's reports (#44) ------------------------------------------------------------

talk_app = typer.Typer(help=_h("cli.help.talk"), no_args_is_help=True)
app.add_typer(talk_app, name="talk")


@talk_app.command("reports", help=_h("cli.help.talk_reports"))
def talk_reports(
    limit: Annotated[
        int, typer.Option("--limit", min=1, max=1000, help=_h("cli.help.talk_limit"))
    ] = 20,
    database: Annotated[
        str | None, typer.Option("--database", help=_h("cli.help.ledger_database"))
    ] = None,
    data: Annotated[Path | None, typer.Option("--data", help=_h("cli.help.ledger_data"))] = None,
    lang: LangOpt = None,
) -> None:
    import asyncio

    from sqlalchemy.exc import SQLAlchemyError

    from kozyr.server.storage.store import Store
    from kozyr.server.talk.kept import Report, reports

    language: Lang = lang.value if lang else default_lang()
    settings = _existing_database(data, database, language)

    async def run() -> list[Report]:
        # read only: the server migrates its database as it starts
        store = Store(settings.url)
        try:
            return await reports(store, limit)
        finally:
            await store.close()

    try:
        found = asyncio.run(run())
    except (SQLAlchemyError, OSError) as e:
        typer.echo(text("cli.talk_unreadable", language, error=e), err=True)
        raise typer.Exit(2) from e
    if not found:
        typer.echo(text("cli.talk_none", language))
    for r in found:
        at = datetime.fromtimestamp(r.at_ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S")
        reason = r.reason or text("cli.talk_no_reason", language)
        head = text(
            "cli.talk_report",
            language,
            id=r.id,
            at=at,
            reporter=r.reporter,
            line=r.message_id,
            table=r.context.get("table"),
            reason=reason,
        )
        typer.echo(head)
        for line in [*r.context.get("before", []), r.context.get("line", {})]:
            mark = ">" if line is r.context.get("line") else " "
            said = line.get("text") if "text" in line else f"[{line.get('phrase')}]"
            who = line.get("from", {}).get("name")
            typer.echo(f"  {mark} {line.get('id')} {line.get('channel')} {who}: {said}")


def main() -> None:  # pragma: no cover - the console script entry
    app()
