"""``atout tournament``: bots against each other on duplicate deals, with statistics and ratings.

Registered on the main app by :mod:`.main`, which imports it: the statistics and the report
(numpy) are imported when a tournament runs, so that every other command (``atout serve``
above all, started by each browser test) does not load numpy for nothing.
"""

from __future__ import annotations

import datetime as _dt
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.table import Table

from ..bots.factory import make_bot
from ..core.errors import AtoutError
from ..tournament.runner import MatchOutcome, lineup, run_local, run_ray, schedule
from .args import GameArg, OptionOpt, escape, load_game
from .output import err, fail, out, progress_bar, require

if TYPE_CHECKING:
    from ..tournament.stats import BotSummary, Estimate


def _ci(est: Estimate, fmt: str = "{:+.2f}") -> str:
    if math.isnan(est.mean):
        return "—"
    text = fmt.format(est.mean)
    return text if est.ci95 is None else f"{text}±{est.ci95:.{2 if abs(est.mean) < 1 else 1}f}"


def _ms(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value * 1000:.2f}" if value < 0.01 else f"{value * 1000:.0f}"


def tournament(
    game: GameArg,
    bots: Annotated[
        str,
        typer.Option(
            help="Comma list of entrants (bot names, levels, cmd:<program>, py:MODULE:NAME); fewer than the seats "
            "repeats the last one: 'hard,heuristic' is one hard against a field of heuristics."
        ),
    ] = "expert,hard,heuristic,random",
    deals: Annotated[int, typer.Option(help="Deals; each is played once per seat rotation.", min=1)] = 100,
    jobs: Annotated[int, typer.Option(help="Local worker processes.", min=1)] = 1,
    seed: Annotated[int, typer.Option(help="Master seed: deals and bot seeds derive from it.")] = 0,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Seats (default: one per bot given).")
    ] = None,
    option: OptionOpt = None,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", help="Directory for results.json, bots.csv, matches.csv, plot.png/svg."),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(help="Play on Ray: 'local' starts a local Ray, otherwise a cluster address."),
    ] = None,
    plot: Annotated[bool, typer.Option(help="Draw plot.png and plot.svg.")] = True,
    caps: Annotated[
        bool,
        typer.Option(
            help="Keep the search levels' wall-clock caps, as at a live table (off: each level is its "
            "budget in playouts, whatever the machine's load, and a seeded tournament replays exactly)."
        ),
    ] = False,
) -> None:
    """Play duplicate deals with seat rotation and report scores, margins, wins, times and ratings."""
    from ..core.registry import game_class
    from ..tournament.report import write_results
    from ..tournament.stats import summarize

    # The ratings (openskill) and the plot (matplotlib) are the 'tournament' extra's: asked for
    # before a single match is played, not after hours of them.
    require("tournament", "tournament", "openskill", *(["matplotlib"] if plot else []))

    names = [b.strip() for b in bots.split(",") if b.strip()]
    if not names:
        raise fail("--bots needs at least one bot name")
    if players is None:
        try:
            cls = game_class(game)
        except AtoutError as exc:
            raise fail(str(exc)) from None
        players = min(max(len(names), cls.min_players), cls.max_players)
    g = load_game(game, players, option)
    try:
        seats = lineup(names, g.players)
        for name in dict.fromkeys(seats):
            make_bot(name, g, 0).close()  # refuse unknown names before playing anything
        specs = schedule(g, names, deals, seed, caps=caps)
    except (AtoutError, ValueError) as exc:
        raise fail(str(exc)) from None
    target = out_dir or Path(f"tournament-{g.name}-{_dt.datetime.now().strftime('%Y%m%d-%H%M%S')}")
    progress = progress_bar(count=True, remaining=True, note="status", console=err)
    aborted = 0

    def done(outcome: MatchOutcome) -> None:
        nonlocal aborted
        aborted += outcome.error is not None
        status = f"[red]{aborted} aborted[/]" if aborted else ""
        progress.update(task, advance=1, status=status)

    start = time.perf_counter()
    with progress:
        task = progress.add_task(f"{g.name} matches", total=len(specs), status="")
        try:
            if ray is not None:
                outcomes = run_ray(specs, None if ray == "local" else ray, done)
            else:
                outcomes = run_local(specs, jobs, done)
        except RuntimeError as exc:
            raise fail(str(exc)) from None
    elapsed = time.perf_counter() - start
    summaries = summarize(outcomes)
    settings: dict[str, Any] = {
        "game": g.name,
        "players": g.players,
        "options": g.options_text(),
        "bots": names,
        "caps": caps,
        "lineup": seats,
        "deals": deals,
        "rotations": g.players,
        "seed": seed,
        "backend": f"ray:{ray}" if ray is not None else f"local:{jobs}",
        "seconds": round(elapsed, 3),
        "command": _command(g.name, names, deals, jobs, seed, g.players, option, ray),
    }
    paths = write_results(target, settings, outcomes, summaries, plot=plot)
    _print_table(g.title, g.players, deals, seed, summaries)
    for o in outcomes:
        if o.error is not None:
            err.print(
                f"[red]aborted[/] deal {o.deal} rotation {o.rotation}: {escape(o.error)}", soft_wrap=True
            )
    if aborted:
        err.print(f"{aborted} match(es) aborted: their deals are not scored (docs/bots.md).")
    out.print(f"{len(specs)} matches in {elapsed:.1f} s; results: " + ", ".join(str(p) for p in paths))


def _command(
    game: str,
    names: list[str],
    deals: int,
    jobs: int,
    seed: int,
    players: int,
    option: list[str] | None,
    ray: str | None,
) -> str:
    parts = [f"atout tournament {game}", f"--bots '{','.join(names)}'", f"--deals {deals}"]
    parts += [f"--jobs {jobs}", f"--seed {seed}", f"--players {players}"]
    parts += [f"-o {o}" for o in option or []]
    if ray is not None:
        parts.append(f"--ray {ray}")
    return " ".join(parts)


def _print_table(title: str, players: int, deals: int, seed: int, summaries: list[BotSummary]) -> None:
    table = Table(
        box=box.SIMPLE_HEAD,
        title=f"{title}, {players} players, {deals} deals × {players} rotations (seed {seed}); ± = 95% CI",
    )
    # At most 12 wide: longer names fold, and every column fits an 80-column terminal.
    width = min(max(len(b.bot) for b in summaries), 12) if summaries else 3
    table.add_column("bot", min_width=width, overflow="fold")
    for col in ("rating", "score/round", "margin/round", "wins", "made", "ms p50/p99"):
        table.add_column(col, justify="right", no_wrap=True)
    for b in summaries:
        table.add_row(
            escape(b.bot),
            f"{b.rating:.1f}",
            _ci(b.score_per_round, "{:.1f}"),
            _ci(b.margin_per_round, "{:+.1f}"),
            f"{b.win_share.mean:.0%}",
            "—" if b.contracts_made is None else f"{b.contracts_made:.0%}",
            f"{_ms(b.decision_times.get('p50'))}/{_ms(b.decision_times.get('p99'))}",
        )
    out.print(table)
