"""The ``atout`` command: play, simulate, replay, list games.

Every command talks to the games only through the shared interface (load,
states, views, records), so each works for every registered game.  Errors a
user can cause print one clear line and exit non-zero, without a traceback.
"""

from __future__ import annotations

import datetime as _dt
import importlib
import json
import math
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ..bots.factory import LEVELS, available, level_name, make_bot
from ..core.bot import Bot
from ..core.errors import AtoutError, IllegalAction, NotationError, RecordError
from ..core.game import Game, State
from ..core.reason import Reader, Reason, render
from ..core.registry import game_class, names
from ..core.words import ENGLISH, Words, languages, words
from ..match import BotError, derive_seed, play_match
from ..records import Record, load_record, save_record
from .accounts import accounts
from .args import GameArg, OptionOpt, PlayersOpt, escape, load_game
from .output import EXIT_BAD_INPUT, EXIT_ILLEGAL, EXIT_INTERRUPTED, err, fail, out, progress_bar
from .review import review
from .serve import serve
from .servebot import serve_bot
from .tournament import tournament
from .train import distill, train

app = typer.Typer(
    help="atout: Wizard, Le Malin, Sticheln and Le Nain Jaune, for players, researchers and bot writers.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _renderer(game: Game) -> Any:
    return importlib.import_module(game.renderer) if game.renderer else None


def _command() -> str:
    """How to type this program again, for the "continue with" hints.

    ``./run`` installs ``atout`` in ``.venv/bin``, which is rarely on the PATH: a
    bare ``atout`` in a hint would then not run.  The bare name when the PATH
    finds this very program, else the program's absolute path.
    """
    invoked = sys.argv[0] if sys.argv else ""
    if Path(invoked).name != "atout":
        return "atout"  # run as a module or from tests: the documented name
    found = shutil.which("atout")
    try:
        if found is not None and os.path.samefile(found, invoked):
            return "atout"
    except OSError:
        pass
    return os.path.abspath(invoked)


@app.command()
def games() -> None:
    """List the games, their player counts and every option with its default."""
    for name in names():
        cls = game_class(name)
        out.print(f"[bold]{name}[/] — {cls.title}, {cls.min_players} to {cls.max_players} players")
        if cls.summary:
            out.print(f"  {cls.summary}")
        for spec in cls.option_specs:
            out.print(
                f"  [cyan]{spec.name}[/] = {spec.render(spec.default)}  ({spec.allowed()}): {spec.help}"
            )
        out.print()


def _default_save_path(game: Game) -> Path:
    home = Path(os.environ.get("ATOUT_HOME", Path.home() / ".atout"))
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return home / "games" / f"{game.name}-{stamp}.atout"


_EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}


BotsOpt = Annotated[
    str,
    typer.Option(
        help="Bot for the other seats, or a comma list, one per seat: random, easy, normal, hard, "
        "expert, cmd:<program>, py:MODULE:NAME (see 'atout bots GAME')."
    ),
]


@app.command(context_settings=_EXTRA)
def play(
    ctx: typer.Context,
    game: Annotated[
        str | None,
        typer.Argument(
            help="Game: wizard, malin, sticheln or nain-jaune (not needed with --resume: the record names it).",
            show_default=False,
        ),
    ] = None,
    players: PlayersOpt = None,
    option: OptionOpt = None,
    seat: Annotated[int, typer.Option(help="Your seat (0 = first).")] = 0,
    bots: BotsOpt = "normal",
    seed: Annotated[int | None, typer.Option(help="Seed of the deals (random if omitted).")] = None,
    save: Annotated[Path | None, typer.Option(help="Record file, rewritten after every move.")] = None,
    resume: Annotated[Path | None, typer.Option(help="Continue the game in this record file.")] = None,
    name: Annotated[str | None, typer.Option(help="Your name at the table.", show_default=False)] = None,
    lang: Annotated[
        str | None,
        typer.Option(
            help="Language of the table: en, fr or de (default: $ATOUT_LANG, else $LANG's, else English).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Play a whole game in the terminal against computer opponents.

    Game options may also be given as flags: --fun, --rounds 3, --bids hidden_until_play.
    The record is saved after every move; 'quit' or Ctrl-C stops, --resume FILE continues.
    """
    say = words(terminal_language(lang))
    if resume is not None:
        try:
            record = load_record(resume)
            state = record.replay()
        except RecordError as exc:
            raise fail(str(exc)) from None
        g = state.game
        if game is not None and _game_name(game) != g.name:
            raise fail(f"{resume} is a record of {g.name}, not of {game}")
        if record.seed is not None:
            state.reseed(record.seed)
        seat_names = record.seats or [f"seat {i}" for i in range(g.players)]
        path = resume
        human = int(record.tags.get("Human", seat))
        seed = record.seed
    else:
        if game is None:
            raise fail(f"name the game to play ({', '.join(names())}), or continue one with --resume FILE")
        g = load_game(game, players, option, ctx.args)
        if seed is None:
            seed = int.from_bytes(os.urandom(6), "big")
        state = g.new_state(seed)
        human = seat
        path = save or _default_save_path(g)
        seat_names = []
    if not 0 <= human < g.players:
        raise fail(f"--seat must be 0..{g.players - 1}")
    seat_bots = _make_bots(g, bots, human, seed or 0)
    if not seat_names:
        levels = [say.level(level_name(b.name)) for b in seat_bots]
        seat_names = bot_names(say("term_you") if name is None else name, human, levels)
    tags = {"Date": _dt.date.today().isoformat(), "Human": str(human)}
    out.print(say("term_title", game=f"[bold]{g.title}[/]", n=g.players, path=escape(str(path))))
    out.print(say("term_intro") + "\n")
    saved = False
    try:
        _save(path, state, seat_names, tags)
        saved = True
        _play_loop(state, human, seat_bots, seat_names, path, tags, say)
    except KeyboardInterrupt:
        # Every move was saved as it was played (atomically: the file holds the
        # game up to the last whole move), so stopping here loses nothing.
        if not saved:
            out.print("\n" + say("term_interrupted_early"))
        else:
            command = f"{escape(_command())} play --resume {escape(str(path))}"
            out.print(
                "\n" + say("term_interrupted", path=escape(str(path)), command=command),
                soft_wrap=True,  # a command to copy: never folded
            )
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        for bot in seat_bots:
            bot.close()
    won = state.winners()
    winners = ", ".join(seat_names[s] for s in won)
    scores = ", ".join(f"{seat_names[s]} {score}" for s, score in enumerate(state.scores()))
    final = say(
        "term_final_one" if len(won) == 1 else "term_final_many",
        scores=escape(scores),
        winners=escape(winners),
    )
    out.print(f"\n[bold]{say('term_game_over')}[/] {final}")
    out.print(say("term_saved_to", path=escape(str(path))))


def terminal_language(lang: str | None) -> str:
    """The terminal's language: ``--lang``, else ``$ATOUT_LANG``, else ``$LANG``'s (``fr_FR.UTF-8``
    is French) when the terminal speaks it, else English, as the web table reads its reader's
    Accept-Language.  An unknown ``--lang`` or ``$ATOUT_LANG`` is refused (a typo should not
    silently give English)."""
    spoken = languages()
    for chosen, where in ((lang, "--lang"), (os.environ.get("ATOUT_LANG") or None, "ATOUT_LANG")):
        if chosen is not None:
            if chosen not in spoken:
                raise fail(f"{where} is one of: {', '.join(spoken)}, not {chosen!r}")
            return chosen
    system = os.environ.get("LANG", "")[:2].lower()
    return system if system in spoken else ENGLISH


#: The computer players' names at the terminal (each with its level), in seat order.
BOT_NAMES = ("Ada", "Bruno", "Chloé", "Dmitri", "Eve", "Farid", "Gaëlle", "Hugo", "Inès", "Jules")


def bot_names(human_name: str, human: int, levels: list[str]) -> list[str]:
    """Every seat's name: the human's own, a first name and its level for each bot ("Bruno
    (normal)"), never one that is the human's name (two "Ada" at a table would be confusing)."""
    pool = [n for n in BOT_NAMES if n.casefold() != human_name.casefold()]
    return [
        human_name if s == human else f"{pool[s % len(pool)]} ({level})" for s, level in enumerate(levels)
    ]


def _game_name(game: str) -> str:
    try:
        return game_class(game).name
    except AtoutError as exc:
        raise fail(str(exc)) from None


def _play_loop(
    state: State,
    human: int,
    seat_bots: list[Bot],
    seat_names: list[str],
    path: Path,
    tags: dict[str, str],
    say: Words | None = None,
) -> None:
    """Play until the game ends, saving the record after every move; 'quit' saves and exits 0."""
    say = say or words()
    renderer = _renderer(state.game)
    last_round = state.round
    while not state.is_terminal:
        actor = state.current_player
        if actor == human:
            action = _ask(state, human, seat_names, renderer, say)
            if action is None:
                _save(path, state, seat_names, tags)
                out.print(
                    say("term_saved", command=f"{escape(_command())} play --resume {escape(str(path))}"),
                    soft_wrap=True,  # a command to copy: never folded
                )
                raise typer.Exit(0)
        else:
            action = _bot_move(state, actor, seat_bots[actor], path)
        text = state.action_to_text(action)
        index = len(state.history)
        state.apply(action)
        if actor != human:
            # What the human may know of this move (a secret bid or handicap card
            # shows as '?'), never the move itself.
            if state.redacted_history(human)[index] is None:
                text = " ".join([*text.split()[:-1], "?"])
            out.print(f"  {escape(seat_names[actor])}: {escape(text)}")
        _save(path, state, seat_names, tags)
        if state.round != last_round or state.is_terminal:
            last_round = state.round
            if renderer is not None:
                view = state.view(human)
                # The trick that ended the round, before the sheet it decided (who
                # took it is not in the moves echoed above).
                last = getattr(renderer, "render_last_trick", None)
                line = last(view, seat_names, say) if last is not None else None
                if line is not None:
                    out.print(line, soft_wrap=True)  # one line, however long the names
                out.print(renderer.render_sheet(view, seat_names, say))


def _bot_move(state: State, seat: int, bot: Bot, path: Path) -> int:
    """The bot's legal answer; a bot that fails or answers an illegal action stops the game, saved."""
    view = state.view(seat)
    resume = f"the game is saved: continue with {_command()} play --resume {path}"
    try:
        action = bot.choose(view)
    except Exception as exc:
        reason = str(exc) if isinstance(exc, AtoutError) else f"{type(exc).__name__}: {exc}"
        raise fail(f"bot {bot.name!r} at seat {seat} failed: {reason}; {resume}") from None
    if isinstance(action, bool) or not isinstance(action, int) or action not in view.legal_actions:
        why = state.illegal_reason(action) if isinstance(action, int) else "not an action id"
        raise fail(f"bot {bot.name!r} at seat {seat} answered {action!r}, which is illegal: {why}; {resume}")
    return action


def _make_bots(game: Game, spec: str, human: int | None, seed: int) -> list[Bot]:
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    if not parts:
        raise fail("--bots needs at least one bot name")
    seats = [s for s in range(game.players) if s != human]
    if len(parts) == 1:
        parts = parts * game.players
    elif len(parts) == len(seats) and human is not None:
        full = [""] * game.players
        for s, p in zip(seats, parts, strict=True):
            full[s] = p
        parts = full
    if len(parts) != game.players:
        raise fail(f"--bots: give one bot, or one per seat ({game.players}); got {len(parts)}")
    try:
        return [
            make_bot(parts[s] or "random", game, derive_seed(seed, "bot", s)) for s in range(game.players)
        ]
    except AtoutError as exc:
        raise fail(str(exc)) from None


def _save(path: Path, state: State, seat_names: list[str], tags: dict[str, str]) -> None:
    save_record(path, Record.from_state(state, seats=seat_names, tags=tags))


def _ask(
    state: State, seat: int, seat_names: list[str], renderer: Any, say: Words | None = None
) -> int | None:
    say = say or words()
    view = state.view(seat)
    if renderer is not None:
        out.print(renderer.render_view(view, seat_names, say))
    legal = list(view.legal_actions)
    texts = [view.text(a) for a in legal]
    game = state.game
    reader = Reader(say.lang, game.name, tuple(seat_names), type(game).card_name)

    def said(why: Reason | None, text: str) -> str:
        """A refusal in the table's language (its reason), or its text when it has none."""
        return text if why is None else render(why, reader)

    out.print(say("term_your_move") + " " + "  ".join(escape(t) for t in texts))
    while True:
        try:
            answer = input("> ").strip()
        except EOFError:
            return None
        if answer.lower() in {"quit", "exit", "q"}:
            return None
        if answer.lower() in {"help", "?", "h"}:
            out.print(escape(say("term_help")))
            legend = getattr(renderer, "legend", None)
            if legend is not None:
                out.print(legend(say))
            out.print(say("term_legal") + " " + ", ".join(escape(t) for t in texts))
            continue
        try:
            action = view.parse(answer)
        except NotationError as exc:
            err.print(f"[red]{escape(said(exc.why, str(exc)))}[/]")
            continue
        why = state.refusal(action)
        if why is None:
            return action
        err.print(f"[red]{escape(say('term_refused', reason=render(why, reader)))}[/]")


@app.command(context_settings=_EXTRA)
def simulate(
    ctx: typer.Context,
    game: GameArg,
    players: PlayersOpt = None,
    option: OptionOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Number of matches.", min=1)] = 100,
    seed: Annotated[int, typer.Option(help="Master seed: deals and bots derive from it.")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            help="Bot name or level (or cmd:<program>, py:MODULE:NAME), or a comma list with one per seat "
            "(see 'atout bots GAME')."
        ),
    ] = "normal",
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    save: Annotated[Path | None, typer.Option(help="Directory to write every match's record into.")] = None,
) -> None:
    """Play bots against each other and report mean scores per seat and games/second.

    Game options may also be given as flags: --plus-minus-one, --rounds 3.
    """
    g = load_game(game, players, option, ctx.args)
    seat_bots = _make_bots(g, bots, None, seed)
    totals = [[] for _ in range(g.players)]  # type: list[list[int]]
    wins = [0.0] * g.players
    decisions = 0
    start = time.perf_counter()
    progress = progress_bar(count=True, timed=False, remaining=True, console=err, quiet=as_json)
    with progress:
        task = progress.add_task("simulate", total=games)
        for i in range(games):
            match_seed = derive_seed(seed, "game", i)
            for s, bot in enumerate(seat_bots):
                bot.rng.seed(derive_seed(seed, "game", i, "bot", s))
            try:
                result = play_match(g, seat_bots, match_seed)
            except BotError as exc:
                raise fail(str(exc)) from None
            state = result.state
            decisions += sum(len(t) for t in result.decision_times)
            for s, score in enumerate(state.scores()):
                totals[s].append(score)
            winners = state.winners()
            for w in winners:
                wins[w] += 1 / len(winners)
            if save is not None:
                names_ = [f"{level_name(b.name)} {s}" for s, b in enumerate(seat_bots)]
                save_record(save / f"{g.name}-{i:06d}.atout", Record.from_state(state, seats=names_))
            progress.advance(task)
    for bot in seat_bots:
        bot.close()
    elapsed = time.perf_counter() - start
    rows = []
    for s in range(g.players):
        mean, half = _mean_ci(totals[s])
        rows.append(
            {
                "seat": s,
                "bot": level_name(seat_bots[s].name),
                "mean": mean,
                "ci95": half,
                "win_share": wins[s] / games,
            }
        )
    summary = {
        "game": g.name,
        "players": g.players,
        "options": g.options_text(),
        "games": games,
        "seed": seed,
        "seconds": elapsed,
        "games_per_second": games / elapsed,
        "decisions_per_second": decisions / elapsed,
        "seats": rows,
    }
    if as_json:
        print(json.dumps(summary, indent=1))
        return
    table = Table(title=f"{g.title}, {g.players} players, {games} games (seed {seed})")
    for col in ("seat", "bot", "mean score", "±95%", "win share"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            str(r["seat"]), str(r["bot"]), f"{r['mean']:.1f}", f"{r['ci95']:.1f}", f"{r['win_share']:.1%}"
        )
    out.print(table)
    out.print(f"{games / elapsed:.1f} games/s, {decisions / elapsed:.0f} decisions/s")


def _mean_ci(values: list[int]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A record file (.atout text or .json).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the outcome as JSON.")] = False,
) -> None:
    """Check every move of a record against the rules and print the final scores.

    Exit 0 when the record is legal, 3 at the first illegal move (its index, the
    move and the rule broken), 2 when the file cannot be read as a record or was
    altered after it was written (its move count or digest does not match).
    With --json every outcome, errors included, is one JSON object on stdout.
    """
    from ..records import ReplayError

    try:
        rec = load_record(record)
        state = rec.replay()
    except RecordError as exc:
        code = EXIT_ILLEGAL if isinstance(exc, ReplayError) else EXIT_BAD_INPUT
        if as_json:
            error = {
                "code": code,
                "message": str(exc),
                "file": str(record),
                "line": exc.line,
                "move": exc.index if isinstance(exc, ReplayError) else None,
            }
            print(json.dumps({"ok": False, "error": error}))
            raise typer.Exit(code) from None
        raise fail(str(exc), code) from None
    seats = rec.seats or [f"seat {i}" for i in range(rec.players)]
    digest = rec.declared is not None and rec.declared.digest is not None
    result = {
        "ok": True,
        "game": state.game.name,
        "moves": len(rec.moves),
        "player_moves": sum(1 for m in rec.moves if m.actor >= 0),
        "finished": state.is_terminal,
        "round": state.round,
        "scores": state.scores(),
        "winners": state.winners(),
        "seats": seats,
        "digest": digest,
    }
    if as_json:
        print(json.dumps(result))
        return
    status = "finished" if state.is_terminal else f"in progress (round {state.round})"
    checked = "digest verified" if digest else "no digest in the record to verify"
    # The web table counts players' moves only (its replay steps): say both, so the two agree.
    played = sum(1 for m in rec.moves if m.actor >= 0)
    out.print(
        f"ok: {len(rec.moves)} moves of {state.game.name} checked ({played} by the players, "
        f"{len(rec.moves) - played} deals and draws; {checked}), game {status}"
    )
    table = Table()
    table.add_column("seat")
    table.add_column("score", justify="right")
    for s, score in enumerate(state.scores()):
        mark = " (winner)" if s in state.winners() else ""
        table.add_row(_user_text(seats[s] + mark), str(score))
    out.print(table)


def _user_text(text: str) -> Any:
    """A record's text for the terminal, as written: no markup, no emoji codes,
    and control characters shown escaped (a seat name could hold an escape
    sequence that rewrites the screen)."""
    from rich.text import Text

    return Text("".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text))


#: What the levels the web table offers are, beside :data:`LEVELS` (which lacks ``random``).
_LEVEL_HELP = {"random": "uniform over the legal actions", **LEVELS}


@app.command()
def bots(game: GameArg, players: PlayersOpt = None) -> None:
    """List the bots available for a game: the levels the web table offers first, then the other names."""
    from rich.table import Table

    g = load_game(game, players, None)
    # A grid, so that a long description wraps under itself and each level alone heads a line.
    levels = Table.grid(padding=(0, 2))
    levels.add_column(style="bold", no_wrap=True)
    levels.add_column()
    for level, text in _LEVEL_HELP.items():
        levels.add_row(level, escape(text))
    out.print(levels)
    for b in available(g):
        if b not in _LEVEL_HELP and b != "search":
            same = level_name(b)
            out.print(f"{b}  (the same as {same})" if same != b else b)
    out.print("search:N[:infer][:model]  (the search bot with N playouts per decision)")
    out.print("cmd:<program>  (an external bot speaking JSON lines, see docs/bots.md)")
    out.print("py:MODULE:NAME, py:path/to/file.py:NAME  (a Python bot class or view -> action function)")


def main() -> None:  # pragma: no cover - console entry point
    try:
        app()
    except IllegalAction as exc:
        err.print(f"error: {exc}")
        sys.exit(EXIT_ILLEGAL)


if __name__ == "__main__":  # pragma: no cover
    main()

app.command()(serve)
app.command("serve-bot")(serve_bot)
app.command()(tournament)
app.command()(review)
app.command()(train)
app.command()(distill)
app.add_typer(accounts, name="accounts")

__all__ = ["app"]
