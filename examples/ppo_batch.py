"""PPO over atout's batch engine, in one file: copy it, change it, run it.

    python examples/ppo_batch.py --game wizard --players 4 --minutes 10 --seed 1 --out runs/ppo-wizard.npz
    atout tournament wizard -p 4 --bots net:runs/ppo-wizard.npz,normal --deals 200 --jobs 2
    ATOUT_PPO_MODEL=runs/ppo-wizard.npz atout tournament wizard -p 4 \\
        --bots py:examples/ppo_batch.py:Learned,normal --deals 200

What it does, CleanRL-style (every step of the algorithm is in this file):

* **The batch engine** (``atout.batch.batch_class(game)``) steps ``--envs``
  whole matches together as numpy arrays; for each match it tells who is to
  act, that seat's information-state tensor (``information_state_tensor()``:
  what the seat may know, never another hand) and its legal actions
  (``legal_mask()``).  Matches restart on their own (``auto_reset``).
* **Who plays**: every match gets roles when it starts.  A share
  (``--self-play``) is self-play, every seat the learner; in the others the
  learner holds one seat and each other seat is, by draw, the game's
  heuristic (``heuristic_actions()``, the ladder's ``normal``), a random
  player (``random_actions()``) or a **frozen snapshot** of the learner (a
  small league, refreshed every ``--snapshot-every`` updates): a policy
  trained against one opponent only over-fits it.
* **Masked actions**: illegal logits are set to -inf before sampling and in
  the loss, so the policy never spends probability on them.
* **Returns per round**: a decision's return is its seat's margin over the
  round it was taken in (its score that round minus the mean of the others'),
  what the tournaments measure.  A decision waits in the buffer until its
  round ends; then PPO's clipped objective with that return and a value
  baseline (no GAE: rounds are scored on their own and are short).
* **The output** is atout's model format (``atout.bots.learned.PolicyModel``,
  a ``.npz`` of float16 weights and the metadata that says what the network
  reads): ``net:PATH`` plays it in every atout command, numpy only, and a
  model read against another tensor layout or other action ids is refused.

How it differs from ``atout train`` (``atout.learn``): one file and no import
of it, a plain dense network (``atout.learn`` reads the sparse tensors with an
``EmbeddingBag``, 3× faster, and starts from the heuristic as a prior and
an imitation stage), no checkpoints, no Ray.  It is a starting point for
research, not the recipe behind the shipped models.

Seeds: training matches are dealt from ``2**40 + seed * 2**32`` on (a
contiguous range), the progress evaluation from ``2**39`` on, and
``atout tournament`` from its own 63-bit derived seeds, so no figure is read
on a training deal.  With ``--updates`` as the budget a run is reproducible
from its seed (``--minutes`` stops wherever the clock says).  ``--minutes`` is the
whole run, progress evaluations included: an evaluation the clock stops is
dropped (a whole one costs a full match per seat on ``--eval-deals`` deals,
minutes on a loaded machine), so a short run still ends on time.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray
from torch import nn

import atout
from atout.batch import batch_class
from atout.bots.learned import PolicyModel, action_fingerprint, layout_of

#: Where the model is written, and where the ``Learned`` bot looks without ``ATOUT_PPO_MODEL``.
DEFAULT_OUT = "ppo_batch.npz"
#: Training deals from here on (held out from the evaluations below and from tournaments).
TRAIN_SEED_BASE = 1 << 40
#: The progress evaluation's deals (as atout.learn's evaluations).
EVAL_SEED_BASE = 1 << 39
#: Roles of a seat in a training match (a snapshot's role is SNAPSHOT + its index).
LEARNER, HEURISTIC, RANDOM, SNAPSHOT = 0, 1, 2, 3

Floats = NDArray[np.float32]
Ints = NDArray[np.intp]
Bools = NDArray[np.bool_]


@dataclass
class Args:
    """Everything a run depends on."""

    game: str = "wizard"
    players: int = 4
    seed: int = 1
    out: str = DEFAULT_OUT
    #: Budget: wall-clock minutes, and (reproducible) a number of updates; the first reached stops.
    minutes: float = 10.0
    updates: int | None = None
    #: Game options (``rounds=5``...), as the engine takes them.
    options: dict[str, Any] = field(default_factory=dict)
    envs: int = 128
    hidden: int = 256
    #: Learner decisions per update, epochs over them, minibatch size.
    rollout: int = 4096
    epochs: int = 2
    minibatch: int = 1024
    learning_rate: float = 3e-4
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    #: Share of self-play matches; in the others, each opponent seat is a snapshot or random
    #: with these probabilities, else the heuristic.
    self_play: float = 0.5
    snapshot_share: float = 0.3
    random_share: float = 0.1
    snapshot_every: int = 10
    league: int = 3
    #: Measure the greedy policy against three heuristics every this many updates (0: never).
    eval_every: int = 10
    eval_deals: int = 32
    threads: int = 1


# -- the network ------------------------------------------------------------------------------------


class Agent(nn.Module):
    """An MLP trunk with a policy head (logits over every action id) and a value head."""

    def __init__(self, inputs: int, actions: int, hidden: int) -> None:
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.policy = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)
        nn.init.normal_(self.policy.weight, std=0.01)  # every legal action about equally likely at first
        nn.init.zeros_(self.policy.bias)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """((B, actions) masked logits, (B,) values)."""
        h = self.trunk(x)
        logits = self.policy(h).masked_fill(~mask, -1e9)
        return logits, self.value(h).squeeze(-1)

    @torch.no_grad()
    def act(self, x: Floats, mask: Bools, rng: torch.Generator) -> tuple[Ints, Floats, Floats]:
        """Sampled actions, their log-probabilities, the values."""
        logits, value = self(torch.from_numpy(x), torch.from_numpy(mask))
        logp = torch.log_softmax(logits, dim=-1)
        action = torch.multinomial(logp.exp(), 1, generator=rng)
        return (
            action.squeeze(1).numpy().astype(np.intp),
            logp.gather(1, action).squeeze(1).numpy(),
            value.numpy(),
        )

    def export(self, meta: dict[str, Any]) -> PolicyModel:
        """atout's numpy model: weights as (inputs, outputs) matrices, and what the network reads."""

        def pair(layer: nn.Module) -> tuple[Floats, Floats]:
            assert isinstance(layer, nn.Linear)
            return (
                layer.weight.detach().numpy().T.astype(np.float32).copy(),
                layer.bias.detach().numpy().astype(np.float32).copy(),
            )

        trunk = (pair(self.trunk[0]), pair(self.trunk[2]))
        return PolicyModel(meta=meta, trunk=trunk, policy=pair(self.policy), value=pair(self.value))


# -- decisions waiting for their round to end ------------------------------------------------------


class Buffer:
    """The learner's decisions; ``ret`` is filled when the decision's round ends (``done``)."""

    def __init__(self) -> None:
        self.rows: dict[str, list[NDArray[Any]]] = {}
        self.open: list[Bools] = []

    def add(self, **columns: NDArray[Any]) -> None:
        for name, values in columns.items():
            self.rows.setdefault(name, []).append(values)
        self.rows.setdefault("ret", []).append(np.zeros(len(columns["action"]), np.float32))
        self.open.append(np.ones(len(columns["action"]), bool))

    def close(self, ended: Bools, margins: NDArray[np.float64]) -> None:
        """Matches ``ended`` finished a round: their open decisions get their seat's margin."""
        for ret, is_open, match, seat in zip(
            self.rows.get("ret", []),
            self.open,
            self.rows.get("match", []),
            self.rows.get("seat", []),
            strict=True,
        ):
            closing = is_open & ended[match]
            ret[closing] = margins[match[closing], seat[closing]]
            is_open &= ~closing

    def ready(self) -> int:
        return sum(int((~o).sum()) for o in self.open)

    def take(self) -> dict[str, NDArray[Any]]:
        """The decisions whose return is known (removed); the open ones stay."""
        done = ~np.concatenate(self.open)
        data = {name: np.concatenate(chunks) for name, chunks in self.rows.items()}
        self.rows = {name: [values[~done]] for name, values in data.items()}
        self.open = [np.ones(int((~done).sum()), bool)]
        return {name: values[done] for name, values in data.items()}


# -- training ---------------------------------------------------------------------------------------


class PPO:
    """The batch, the learner, its league, and the loop: play, then update."""

    def __init__(self, args: Args) -> None:
        self.args = args
        torch.manual_seed(args.seed)
        torch.set_num_threads(args.threads)
        self.rng = np.random.default_rng(args.seed)
        self.torch_rng = torch.Generator().manual_seed(args.seed)
        first = TRAIN_SEED_BASE + args.seed * (1 << 32)
        self.batch = batch_class(args.game)(
            args.players,
            range(first, first + args.envs),
            auto_reset=True,
            reset_seeds=itertools.count(first + args.envs),
            check=False,  # the actions come from the masks
            **args.options,
        )
        self.game = self.batch.game
        self.width, self.actions = self.game.information_state_tensor_size(), self.game.num_actions
        self.agent = Agent(self.width, self.actions, args.hidden)
        self.optimizer = torch.optim.Adam(self.agent.parameters(), lr=args.learning_rate, eps=1e-5)
        self.snapshots: list[Agent] = []
        self.roles = np.stack([self.draw_roles() for _ in range(args.envs)])
        self.buffer = Buffer()
        self.value_scale = 0.0
        self.updates = 0
        self.decisions = 0

    def draw_roles(self) -> Ints:
        """The seats' roles for a new match: self-play, or one learner among the league."""
        a, n = self.args, self.args.players
        if self.rng.random() < a.self_play:
            return np.full(n, LEARNER, np.intp)
        draw = self.rng.random(n)
        roles = np.full(n, HEURISTIC, np.intp)
        if self.snapshots:
            roles[draw < a.snapshot_share] = (
                SNAPSHOT + self.rng.integers(len(self.snapshots), size=n)[draw < a.snapshot_share]
            )
        roles[draw > 1.0 - a.random_share] = RANDOM
        roles[self.rng.integers(n)] = LEARNER
        return roles

    def play(self) -> dict[str, NDArray[Any]]:
        """Step the batch until ``rollout`` learner decisions know their return; hand them over."""
        batch, a = self.batch, self.args
        everyone = np.arange(a.envs)
        while self.buffer.ready() < a.rollout:
            player = batch.current_player
            role = self.roles[everyone, player]
            x = batch.information_state_tensor()
            mask = batch.legal_mask()
            actions = batch.heuristic_actions()  # the heuristic's seats keep these
            random_rows = role == RANDOM
            if random_rows.any():
                actions[random_rows] = batch.random_actions(self.rng)[random_rows]
            for k, snapshot in enumerate(self.snapshots):
                rows = np.flatnonzero(role == SNAPSHOT + k)
                if rows.size:
                    actions[rows] = snapshot.act(x[rows], mask[rows], self.torch_rng)[0]
            rows = np.flatnonzero(role == LEARNER)
            if rows.size:
                chosen, logp, value = self.agent.act(x[rows], mask[rows], self.torch_rng)
                actions[rows] = chosen
                self.buffer.add(
                    obs=x[rows].astype(np.float16),
                    mask=mask[rows],
                    action=chosen,
                    logp=logp,
                    value=value,
                    match=rows,
                    seat=player[rows],
                )
                self.decisions += int(rows.size)
            before = batch.round.copy()
            step = batch.step(actions)
            ended = step.terminal | (batch.round != before)
            if ended.any():
                r = step.rewards.astype(np.float64)
                self.buffer.close(ended, r - (r.sum(axis=1, keepdims=True) - r) / (a.players - 1))
            for g in np.flatnonzero(step.terminal):
                self.roles[g] = self.draw_roles()
        return self.buffer.take()

    def update(self, data: dict[str, NDArray[Any]]) -> dict[str, float]:
        """PPO's clipped objective over the decisions, a few epochs of minibatches."""
        a = self.args
        if self.value_scale == 0.0:  # the value head learns margins in units of the first rollout's spread
            self.value_scale = float(max(np.std(data["ret"]), 1e-3))
        obs = torch.from_numpy(data["obs"].astype(np.float32))
        mask = torch.from_numpy(data["mask"])
        action = torch.from_numpy(data["action"].astype(np.int64))
        old_logp = torch.from_numpy(data["logp"])
        ret = torch.from_numpy(data["ret"] / self.value_scale)
        advantage = ret - torch.from_numpy(data["value"])
        advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
        stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0}
        steps = 0
        for _ in range(a.epochs):
            order = torch.randperm(len(action), generator=self.torch_rng)
            for start in range(0, len(action), a.minibatch):
                mb = order[start : start + a.minibatch]
                logits, value = self.agent(obs[mb], mask[mb])
                logp = torch.log_softmax(logits, dim=-1)  # illegal actions: -1e9 logits, probability 0
                ratio = (logp.gather(1, action[mb, None]).squeeze(1) - old_logp[mb]).exp()
                adv = advantage[mb]
                policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - a.clip, 1 + a.clip) * adv).mean()
                value_loss = ((value - ret[mb]) ** 2).mean()
                entropy = -(logp.exp() * logp).sum(dim=-1).mean()
                loss = policy_loss + a.value_coef * value_loss - a.entropy_coef * entropy
                self.optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.agent.parameters(), 0.5)
                self.optimizer.step()
                for key, term in (
                    ("policy_loss", policy_loss),
                    ("value_loss", value_loss),
                    ("entropy", entropy),
                ):
                    stats[key] += term.item()
                steps += 1
        return {key: total / max(steps, 1) for key, total in stats.items()}

    def snapshot(self) -> None:
        """A frozen copy of the learner joins the league (the oldest leaves past ``league``)."""
        frozen = Agent(self.width, self.actions, self.args.hidden)
        frozen.load_state_dict(self.agent.state_dict())
        self.snapshots = [*self.snapshots, frozen][-self.args.league :]

    def model(self) -> PolicyModel:
        """The learner in atout's model format: what it reads and answers, how it was trained."""
        a = self.args
        meta = {
            "game": self.game.name,
            "players": a.players,
            "options": {k: v for k, v in self.game.options.items() if isinstance(v, (int, str, bool, float))},
            "layout": layout_of(self.game),
            "num_actions": self.actions,
            "actions": action_fingerprint(self.game),
            "value_scale": self.value_scale or 1.0,
            "training": {
                "recipe": "examples/ppo_batch.py: PPO, self-play, heuristic, random, league of snapshots",
                "seed": a.seed,
                "updates": self.updates,
                "decisions": self.decisions,
                "hidden": [a.hidden, a.hidden],
            },
        }
        return self.agent.export(meta)


# -- a quick measure of progress at batch speed ---------------------------------------------------


def evaluate(model: PolicyModel, args: Args, deadline: float | None = None) -> tuple[float, float] | None:
    """The greedy policy in each seat against the heuristic on held-out deals: margin per round, 95% half-width.

    The figure is the tournaments' (duplicate deals, every seat rotation), read
    fast on the batch; report final numbers with ``atout tournament``.  None when
    ``time.monotonic()`` passes ``deadline`` first: ``--minutes`` bounds the whole
    run, and half an evaluation is no figure.
    """
    seeds = [EVAL_SEED_BASE + i for i in range(args.eval_deals)]
    per_seat = []
    for seat in range(args.players):
        batch = batch_class(args.game)(args.players, seeds, **args.options)
        rounds = np.zeros(len(seeds))
        while not batch.terminal.all():
            if deadline is not None and time.monotonic() > deadline:
                return None
            actions = batch.heuristic_actions()
            mine = (batch.current_player == seat) & ~batch.terminal
            if mine.any():
                x = batch.information_state_tensor()[mine]
                actions[mine] = model.best_actions(x, batch.legal_mask()[mine])
            before = batch.round.copy()
            live = ~batch.terminal
            step = batch.step(actions)
            rounds += live & (step.terminal | (batch.round != before))
        scores = batch.scores.astype(np.float64)
        others = (scores.sum(axis=1) - scores[:, seat]) / (args.players - 1)
        per_seat.append((scores[:, seat] - others) / np.maximum(rounds, 1))
    per_deal = np.mean(per_seat, axis=0)
    spread = float(per_deal.std(ddof=1)) if len(per_deal) > 1 else 0.0
    return float(per_deal.mean()), 1.96 * spread / math.sqrt(len(per_deal))


def train(args: Args) -> PolicyModel:
    """Play and update until the budget is spent; write the model to ``args.out`` and return it."""
    ppo = PPO(args)
    start = time.monotonic()
    deadline = start + 60 * args.minutes
    while time.monotonic() < deadline and (args.updates is None or ppo.updates < args.updates):
        stats = ppo.update(ppo.play())
        ppo.updates += 1
        if ppo.updates % args.snapshot_every == 0:
            ppo.snapshot()
        line = f"update {ppo.updates:4d}  decisions {ppo.decisions:9d}  " + "  ".join(
            f"{k} {v:+.4f}" for k, v in stats.items()
        )
        if args.eval_every and ppo.updates % args.eval_every == 0:
            measured = evaluate(ppo.model(), args, deadline)
            if measured is None:
                line += "  (evaluation dropped: --minutes ran out)"
            else:
                line += f"  vs heuristic {measured[0]:+.2f} ± {measured[1]:.2f} a round"
        print(line, flush=True)
    model = ppo.model()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    print(f"wrote {args.out} after {ppo.updates} updates, {(time.monotonic() - start) / 60:.1f} minutes")
    return model


# -- playing the saved model as an atout bot --------------------------------------------------------


class Learned(atout.Bot):
    """The saved network as a bot: ``py:examples/ppo_batch.py:Learned`` (model: ``$ATOUT_PPO_MODEL``).

    A ``py:`` name carries no argument, so the path comes from the environment
    (inherited by ``--jobs`` workers), else :data:`DEFAULT_OUT`.  ``net:PATH``
    plays the same model without this class; this one shows what it does: the
    seat's view (never the state) written as the tensor the network read in
    training, the most probable legal action.
    """

    name = "ppo-batch"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.model = PolicyModel.load(os.environ.get("ATOUT_PPO_MODEL", DEFAULT_OUT))

    def start(self, game: atout.Game, seat: int) -> None:
        super().start(game, seat)
        self.model.check(game)  # refused (ModelMismatch) for another game, player count or layout

    def choose(self, view: atout.View) -> int:
        x = np.zeros((1, view.game.information_state_tensor_size()), np.float32)
        view.game.write_tensor(view, True, x[0])
        logits, _ = self.model.forward(x)
        return max(view.legal_actions, key=lambda action: float(logits[0, action]))


# -- command line -----------------------------------------------------------------------------------


def parse(argv: Sequence[str] | None = None) -> Args:
    defaults = Args()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, value in vars(defaults).items():
        if name == "options":
            continue
        kind = int if name == "updates" else type(value)
        parser.add_argument(f"--{name.replace('_', '-')}", type=kind, default=value)
    parser.add_argument("--option", action="append", default=[], help="a game option, KEY=VALUE (repeatable)")
    ns = vars(parser.parse_args(argv))
    options = {}
    for item in ns.pop("option"):
        key, _, text = item.partition("=")
        options[key] = int(text) if text.lstrip("-").isdigit() else text
    return Args(**ns, options=options)


def main(argv: Sequence[str] | None = None) -> PolicyModel:
    return train(parse(argv))


if __name__ == "__main__":
    main()
