"""``atout train``: train a game's policy network on the batch engine (the optional ``train`` extra).

Registered on the main app by :mod:`.main`.  PyTorch is imported only when the
command runs, so the rest of the command line never needs it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

from ..core.errors import AtoutError
from ..core.options import parse_option_pairs
from .args import GameArg, OptionOpt, PlayersOpt, load_game
from .output import fail, out

#: Largest matches stepped together and longest run a command line may ask for (memory and sense).
MAX_MATCHES = 4096
MAX_MINUTES = 7 * 24 * 60


def train(
    game: GameArg,
    players: PlayersOpt = None,
    option: OptionOpt = None,
    minutes: Annotated[
        float, typer.Option(help="Wall-clock budget; the run stops there.", min=0.01, max=MAX_MINUTES)
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
    g = load_game(game, players, option)
    try:
        from ..learn.train import TrainConfig
        from ..learn.train import train as run_training
    except ImportError as exc:
        raise fail(f"training needs PyTorch: pip install 'atout[train]' ({exc})") from None
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
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[info]}"),
    )
    try:
        with progress:
            task = progress.add_task(f"{g.name} {g.players}p", total=1.0, info="")

            def show(status: object) -> None:
                from ..learn.train import Status

                assert isinstance(status, Status)
                info = f"{status.stage} · {status.decisions:,} decisions · {status.updates} updates"
                if status.last_eval is not None:
                    info += f" · vs normal {status.last_eval.margin:+.2f}±{status.last_eval.half_width:.2f}"
                progress.update(task, completed=status.fraction, info=info)

            run_training(config, target, resume=resume, progress=show, ray=ray, actors=actors)
    except (AtoutError, ValueError, RuntimeError) as exc:
        raise fail(str(exc)) from None
    out.print(
        f"model: {target / 'model.npz'} (best evaluation: {target / 'best.npz'}); curve: {target / 'curve.csv'}",
        soft_wrap=True,
    )
