"""``atout train``: train a game's policy network on the batch engine (the optional ``train`` extra).

Registered on the main app by :mod:`.main`.  PyTorch is imported only when the
command runs, so the rest of the command line never needs it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from ..core.errors import AtoutError
from ..core.options import parse_option_pairs
from .args import GameArg, OptionOpt, PlayersOpt, load_game
from .output import fail, needs, out, progress_bar

#: Largest matches stepped together and longest run a command line may ask for (memory and sense).
MAX_MATCHES = 4096
MAX_MINUTES = 7 * 24 * 60


def train(
    game: GameArg,
    players: PlayersOpt = None,
    option: OptionOpt = None,
    minutes: Annotated[
        float,
        typer.Option(
            help="Wall-clock budget of the whole run, its evaluations included; the run stops there.",
            min=0.01,
            max=MAX_MINUTES,
        ),
    ] = 60.0,
    decisions: Annotated[
        int | None,
        typer.Option(
            help="Budget in learner decisions (reproducible, unlike minutes); the first reached stops.", min=1
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the run: its deals, its network, its draws.", min=0)] = 0,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", help="Folder of the run: checkpoint.pt, curve.csv/png, model.npz, best.npz."),
    ] = None,
    resume: Annotated[
        bool, typer.Option(help="Continue from the folder's checkpoint when there is one.")
    ] = True,
    matches: Annotated[int, typer.Option(help="Matches stepped together.", min=8, max=MAX_MATCHES)] = 256,
    imitation: Annotated[
        int, typer.Option(help="Decisions spent imitating the heuristic before self-play.", min=0)
    ] = 1_000_000,
    threads: Annotated[int, typer.Option(help="PyTorch threads.", min=1, max=64)] = 2,
    heuristic_prior: Annotated[
        bool,
        typer.Option(
            help="Train the network as a correction of the heuristic (its choice a learned prior in the "
            "logits: it plays as normal from the start); off: a plain network that first imitates it."
        ),
    ] = True,
    ray: Annotated[
        str | None,
        typer.Option(
            help="Self-play and evaluation on Ray: 'local' starts a local Ray, otherwise a cluster address."
        ),
    ] = None,
    actors: Annotated[int, typer.Option(help="Self-play actors on Ray.", min=1, max=1024)] = 2,
) -> None:
    """Train a policy network: imitation of the heuristic, then PPO in self-play and against a league.

    Writes the model players load (``model.npz``; ``atout play GAME --bots net:DIR/model.npz``),
    a resumable checkpoint, the learning curve (CSV and plot) into ``--out``.
    """
    started = time.monotonic()  # the budget is the command's: its imports and set-up included
    g = load_game(game, players, option)
    with needs("train", "train"):
        from ..learn.train import TrainConfig, Trainer
    given = parse_option_pairs(option or [])
    config = TrainConfig(
        game=g.name,
        players=g.players,
        seed=seed,
        options={name: g.options[name] for name in given},
        minutes=minutes,
        decisions=decisions,
        matches=matches,
        imitation_decisions=imitation,
        threads=threads,
        prior=TrainConfig.prior if heuristic_prior else None,
    )
    target = out_dir or Path(f"train-{g.name}-{g.players}p-seed{seed}")
    progress = progress_bar(note="info", console=out)
    label = f"{g.name} {g.players}p"
    try:
        with progress:
            task = progress.add_task(label, total=1.0, info="")

            def show(status: object) -> None:
                """The bar on a terminal; elsewhere (a pipe, a log file) one line a checkpoint."""
                from ..learn.train import Status

                assert isinstance(status, Status)
                info = f"{status.stage} · {status.decisions:,} decisions · {status.updates} updates"
                if status.last_eval is not None:
                    info += f" · vs normal {status.last_eval.margin:+.2f}±{status.last_eval.half_width:.2f}"
                if out.is_terminal:
                    progress.update(task, completed=status.fraction, info=info)
                elif status.checkpoint:
                    print(f"{label} {status.minutes:.1f} min ({status.fraction:.0%}): {info}", flush=True)

            trainer = Trainer(config, target, resume=resume, ray=ray, actors=actors)
            trainer.run(show, started=started)
    except (AtoutError, ValueError, RuntimeError) as exc:
        raise fail(str(exc)) from None
    # The budget's account: where the minutes went (and why a short run may have no update).
    out.print(trainer.ledger.summary(), soft_wrap=True)
    out.print(
        f"model: {target / 'model.npz'} (best evaluation: {target / 'best.npz'}); curve: {target / 'curve.csv'}",
        soft_wrap=True,
    )


#: Most teacher matches one command may ask for (each is a whole match of search decisions).
MAX_TEACHER_MATCHES = 100_000


def distill(
    game: GameArg,
    players: PlayersOpt = None,
    option: OptionOpt = None,
    teacher: Annotated[
        str | None,
        typer.Option(
            help="The bot whose choices the network learns (any bot spec; default: the folder's "
            "recorded teacher, else hard)."
        ),
    ] = None,
    matches: Annotated[
        int, typer.Option(help="Teacher matches to play and record.", min=0, max=MAX_TEACHER_MATCHES)
    ] = 100,
    start: Annotated[
        Path | None,
        typer.Option(
            "--from",
            help="The model to start from (default: the game's shipped model, else a fresh network "
            "that plays as the heuristic).",
        ),
    ] = None,
    epochs: Annotated[int, typer.Option(help="Passes over the recorded decisions.", min=1, max=1000)] = 4,
    seed: Annotated[int, typer.Option(help="Seed of the teacher's deals and of the fit.", min=0)] = 0,
    workers: Annotated[int, typer.Option(help="Processes playing teacher matches.", min=1, max=256)] = 1,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Folder: decisions.npz (grown on each run), model.npz, distill.csv (one row an epoch).",
        ),
    ] = None,
) -> None:
    """Distil a search bot into the policy network: the model of strong play the search's playouts use.

    Plays ``--matches`` teacher matches (every seat the teacher, each decision recorded from
    its seat's view), adds them to the folder's decisions, then fine-tunes the model towards
    the teacher's choices and writes it (``--bots batch:500:net=DIR/model.npz``).
    """
    g = load_game(game, players, option)
    with needs("train", "distill"):
        from ..bots.learned import PolicyModel, shipped_model, shipped_path
        from ..learn.distill import Decisions, Fit, collect, fresh_model
        from ..learn.distill import distill as run_distill
    target = out_dir or Path(f"distill-{g.name}-{g.players}p-seed{seed}")
    target.mkdir(parents=True, exist_ok=True)
    saved = target / "decisions.npz"
    try:
        if start is not None:
            model = PolicyModel.load(start)
        elif shipped_path(g).is_file():
            model = shipped_model(g)
        else:
            out.print(
                f"no model is shipped for {g.name} at {g.players} players: starting from a fresh network"
            )
            model = fresh_model(g, seed)
        model.check(g)
        old = Decisions.load(saved) if saved.exists() else None
        first = int(old.match.max()) + 1 if old is not None and len(old) else 0
        teacher = _teacher(teacher, old.teacher if old is not None else "", saved)
        if matches:
            with progress_bar() as progress:
                task = progress.add_task(f"{teacher} matches", total=matches)
                fresh = collect(
                    g,
                    teacher,
                    matches,
                    seed,
                    first=first,
                    workers=workers,
                    progress=lambda done, _total: progress.update(task, completed=done),
                )
            data = Decisions.join([old, fresh]) if old is not None else fresh
            data.save(saved)
        elif old is None:
            raise fail(f"no decisions in {target} yet: ask for some --matches")
        else:
            data = old
        rows: list[Fit] = []

        def show(fit: Fit) -> None:
            if fit.epoch < 0:
                out.print(
                    f"start: held-out loss {fit.held_loss:.3f} · agreement with {teacher} {fit.agreement:.1%}"
                )
                return
            rows.append(fit)
            out.print(
                f"epoch {fit.epoch}: loss {fit.loss:.3f} · held-out loss {fit.held_loss:.3f} · "
                f"agreement with {teacher} {fit.agreement:.1%} (heuristic {fit.heuristic_agreement:.1%})"
            )

        new, _ = run_distill(model, data, epochs, seed=seed, teacher=teacher, report=show)
    except (AtoutError, ValueError, OSError) as exc:
        raise fail(str(exc)) from None
    new.save(target / "model.npz")
    with open(target / "distill.csv", "w") as sheet:
        sheet.write("epoch,loss,held_loss,agreement,heuristic_agreement,seconds\n")
        for f in rows:
            sheet.write(
                f"{f.epoch},{f.loss:.5f},{f.held_loss:.5f},{f.agreement:.5f},{f.heuristic_agreement:.5f},{f.seconds:.1f}\n"
            )
    out.print(f"model: {target / 'model.npz'} ({len(data):,} decisions of {teacher})", soft_wrap=True)


def _teacher(asked: str | None, recorded: str, saved: Path) -> str:
    """The teacher of this run: the one asked for, else the folder's; never a second one in a folder.

    A folder written before teachers were recorded (``recorded`` empty) takes the one asked for.
    """
    if asked is not None and recorded and asked != recorded:
        raise fail(
            f"{saved} holds decisions of {recorded}: --teacher {asked} would mix two teachers "
            "(use another --out, or leave --teacher out)"
        )
    return asked or recorded or "hard"
