"""MaskablePPO (sb3-contrib) on atout: the single-agent env or the batch vector env, then a tournament.

    pip install 'atout[sb3]'            # sb3-contrib and stable-baselines3
    python examples/sb3_maskable.py --game wizard --route vector --minutes 10 --seed 1 --out runs/sb3-wizard
    ATOUT_SB3_MODEL=runs/sb3-wizard atout tournament wizard -p 4 \\
        --bots py:examples/sb3_maskable.py:Learned,normal --deals 200 --jobs 2

Two routes to the same policy (``--route``):

* ``single``: ``atout.envs.gym_env(...)``, one Python engine state per env,
  any atout bot as an opponent (``hard``, ``cmd:...``, ``py:...``), in SB3's
  own ``DummyVecEnv``.  The env has ``action_masks()``, the method
  ``MaskablePPO`` asks for; a small wrapper hands SB3 the tensor alone (a
  ``Box``, for ``MlpPolicy``) and keeps that method.  Engine speed.
* ``vector``: ``atout.envs.sb3.AtoutSB3VecEnv``, SB3's ``VecEnv`` protocol over
  the batch vector env: every match of the batch in one numpy step, opponents
  the batch's policies (``random``, ``heuristic``, ``policy``, ``net:PATH``),
  the learner itself (``self``: self-play) or a saved snapshot of it
  (``sb3:PATH.zip``: a league), each answered for every env in one forward
  pass a step.  Tens of times faster; the documented route (docs/research.md).

Either way the agent holds seat ``--seat``, its observation is its seat's
information-state tensor (written from its view: nothing hidden), its reward
its score change each round (``reward="round"``), and illegal actions are
masked out, never played.

The output is SB3's zip (``OUT.zip``) and, beside it, ``OUT.json``: the game,
players, options, tensor layout and a fingerprint of the action ids the policy
was trained on.  :class:`Learned` plays it as an atout bot (SB3's policy on the
seat's view, deterministic) and refuses it for another game, player count,
layout or action ids, as atout's own model files are refused.  A ``py:`` name
carries no argument, so the path comes from ``$ATOUT_SB3_MODEL`` (inherited
by tournament workers), else :data:`DEFAULT_OUT`.

Seeds: the first matches are dealt from ``2**40 + seed * 2**32`` on
(``vector``: a contiguous range, each env's next match the next seed; ``single``:
later matches drawn by the env's seeded stream of 63-bit seeds), the
tournaments from their own derived seeds.  With ``--timesteps`` as the budget a
run is reproducible from its seed.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from numpy.typing import NDArray
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv

import atout
from atout.bots.learned import ModelMismatch, action_fingerprint, layout_of
from atout.envs import gym_env
from atout.envs.sb3 import AtoutSB3VecEnv, SB3Policy

DEFAULT_OUT = "sb3_maskable"
#: The first training deal (held out from tournaments' derived seeds and atout's evaluations).
TRAIN_SEED_BASE = 1 << 40


@dataclass
class Args:
    game: str = "wizard"
    players: int = 4
    seed: int = 1
    out: str = DEFAULT_OUT
    route: str = "vector"
    #: Budget: wall-clock minutes and (reproducible) agent timesteps; the first reached stops.
    minutes: float = 10.0
    timesteps: int | None = None
    #: A name for every other seat, or a comma list, one per seat; on the vector route also
    #: ``self`` (the learner itself: self-play) and ``sb3:PATH.zip`` (a saved snapshot: a league).
    opponents: str = "heuristic"
    #: SB3's own progress lines (1: a table per rollout; 0: silent).
    verbose: int = 1
    seat: int = 0
    #: Matches stepped together (``single``: engine envs in a DummyVecEnv).
    envs: int = 64
    n_steps: int = 128
    batch_size: int = 1024
    epochs: int = 4
    hidden: int = 128
    learning_rate: float = 3e-4
    threads: int = 1
    #: Game options (``rounds=5``...), as the engine takes them.
    options: dict[str, Any] = field(default_factory=dict)


class TensorOnly(gymnasium.ObservationWrapper[NDArray[np.float32], np.int64, dict[str, NDArray[Any]]]):
    """The single-agent env's tensor as a ``Box`` (for ``MlpPolicy``), its ``action_masks()`` kept."""

    def __init__(self, env: gymnasium.Env[dict[str, NDArray[Any]], np.int64]) -> None:
        super().__init__(env)
        assert isinstance(env.observation_space, gymnasium.spaces.Dict)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, NDArray[Any]]) -> NDArray[np.float32]:
        return observation["observation"]

    def action_masks(self) -> NDArray[np.bool_]:
        masks: NDArray[np.bool_] = self.env.unwrapped.action_masks()  # type: ignore[attr-defined]
        return masks


def make_env(args: Args) -> VecEnv:
    """The route's SB3 ``VecEnv``, seeded for the training deals."""
    if args.route == "vector":
        env: VecEnv = AtoutSB3VecEnv(
            args.game, args.envs, args.players, seat=args.seat, opponents=opponents(args), **args.options
        )
    elif args.route == "single":

        def one() -> gymnasium.Env[Any, Any]:
            return TensorOnly(
                gym_env(args.game, args.players, seat=args.seat, opponents=args.opponents, **args.options)
            )

        env = DummyVecEnv([one] * args.envs)
    else:
        raise SystemExit(f"--route is 'single' or 'vector', not {args.route!r}")
    return env


#: The learner's own policy at the seats named ``self`` (its model is set once it is built).
SELF = SB3Policy()


def opponents(args: Args) -> str | list[str | SB3Policy]:
    """``--opponents`` for the vector env: names as given, ``self`` and ``sb3:PATH`` as SB3 policies
    (every seat one holds answered by one forward pass a step, for every env at once)."""
    names = [n.strip() for n in args.opponents.split(",")]
    if not any(n == "self" or n.startswith("sb3:") for n in names):
        return args.opponents
    if len(names) == 1:
        names = names * (args.players - 1)
    try:
        return [SELF if n == "self" else SB3Policy.load(n[4:]) if n.startswith("sb3:") else n for n in names]
    except FileNotFoundError as error:  # a mistyped snapshot: one line, not a traceback
        raise SystemExit(f"--opponents: {error}") from None


class Deadline(BaseCallback):
    """Stops ``learn`` after ``minutes`` of wall-clock time."""

    def __init__(self, minutes: float) -> None:
        super().__init__()
        self.end = time.monotonic() + 60 * minutes

    def _on_step(self) -> bool:
        return time.monotonic() < self.end


def describe(game: atout.Game, args: Args) -> dict[str, Any]:
    """What the policy reads and answers (``OUT.json``): :class:`Learned` checks it against the table's game."""
    return {
        "game": game.name,
        "players": game.players,
        "options": args.options,
        "layout": layout_of(game),
        "num_actions": game.num_actions,
        "actions": action_fingerprint(game),
        "training": {"route": args.route, "opponents": args.opponents, "seed": args.seed},
    }


def train(args: Args) -> MaskablePPO:
    """Train until the budget is spent; write ``OUT.zip`` and ``OUT.json``; return the model."""
    torch.set_num_threads(args.threads)
    env = make_env(args)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=args.learning_rate,
        policy_kwargs={"net_arch": [args.hidden, args.hidden]},
        seed=args.seed,
        verbose=args.verbose,
    )
    SELF.model = model  # self-play: the opponents named "self" play the learner's current weights
    env.seed(TRAIN_SEED_BASE + args.seed * (1 << 32))  # after the model's own seeding of the env
    start = time.monotonic()
    model.learn(total_timesteps=args.timesteps or 1 << 62, callback=Deadline(args.minutes))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out.with_suffix(".zip"))
    game = atout.load(args.game, args.players, **args.options)
    out.with_suffix(".json").write_text(json.dumps(describe(game, args), indent=1) + "\n")
    minutes = (time.monotonic() - start) / 60
    print(f"wrote {out.with_suffix('.zip')} after {model.num_timesteps} agent steps, {minutes:.1f} minutes")
    env.close()
    return model


_LOADED: dict[Path, tuple[dict[str, Any], MaskablePPO]] = {}


class Learned(atout.Bot):
    """The SB3 policy as an atout bot: ``py:examples/sb3_maskable.py:Learned`` (``$ATOUT_SB3_MODEL``).

    It reads the seat's view only: the information-state tensor the env gave
    in training, written from the view, and the view's legal actions as the mask.
    """

    name = "sb3-maskable"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        path = Path(os.environ.get("ATOUT_SB3_MODEL", DEFAULT_OUT)).resolve()
        if path not in _LOADED:  # once per process: a tournament builds a bot per seat and match
            meta = json.loads(path.with_suffix(".json").read_text())
            _LOADED[path] = (meta, MaskablePPO.load(path.with_suffix(".zip"), device="cpu"))
        self.meta, self.model = _LOADED[path]

    def start(self, game: atout.Game, seat: int) -> None:
        super().start(game, seat)
        meta = self.meta
        if (meta["game"], meta["players"]) != (game.name, game.players):
            raise ModelMismatch(f"this policy plays {meta['game']} at {meta['players']} players")
        if meta["layout"] != layout_of(game) or meta["actions"] != action_fingerprint(game):
            raise ModelMismatch("this policy reads another tensor layout or answers in other action ids")

    def choose(self, view: atout.View) -> int:
        game = view.game
        x = np.zeros(game.information_state_tensor_size(), np.float32)
        game.write_tensor(view, True, x)
        mask = np.zeros(game.num_actions, bool)
        mask[list(view.legal_actions)] = True
        action, _ = self.model.predict(x, action_masks=mask, deterministic=True)
        return int(action)


def parse(argv: Sequence[str] | None = None) -> Args:
    defaults = Args()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, value in vars(defaults).items():
        if name == "options":
            continue
        kind = int if name == "timesteps" else type(value)
        parser.add_argument(f"--{name.replace('_', '-')}", type=kind, default=value)
    parser.add_argument("--option", action="append", default=[], help="a game option, KEY=VALUE (repeatable)")
    ns = vars(parser.parse_args(argv))
    options = {}
    for item in ns.pop("option"):
        key, _, text = item.partition("=")
        options[key] = int(text) if text.lstrip("-").isdigit() else text
    return Args(**ns, options=options)


def main(argv: Sequence[str] | None = None) -> MaskablePPO:
    return train(parse(argv))


if __name__ == "__main__":
    main()
