"""Decisions per second of the batch simulator beside the engine and OpenSpiel's oh_hell, same run, interleaved.

Runners, each playing uniformly random whole matches for about ``--seconds``:

* batch: :class:`atout.batch.WizardBatch` (or ``StichelnBatch``) of ``--batch`` matches from fresh
  seeds, stepped with its vectorised random policy until every match is over
  — the engine's deals included (every round of every match is dealt from its
  seed exactly as the engine deals it), legality checks on;
* batch, auto-reset: the same batch kept full (finished matches restart from
  the next seeds), timed over whole steps: the steady state of a training loop;
* engine: ``game.new_state(seed)`` then ``state.apply(rng.choice(state.legal_actions()))``;
* vector env: :class:`atout.envs.vector.AtoutVectorEnv` of ``--vector-envs`` matches, seat 0
  learning, random opponents, the observation tensor and mask built every step, the agent's
  actions uniformly random legal ones: agent steps per second (the opponents' moves between
  them are not counted), beside the engine's single-agent env (``AtoutGymEnv``, random bot
  opponents) measured the same way;
* OpenSpiel ``oh_hell`` (C++, 4 players by default, 12 tricks fixed — with
  other table sizes as many as the deck allows, up to 12) through
  ``pyspiel.evaluate_bots`` with C++ uniform random bots: the whole loop in C++
  (deals sampled by it too) — the reference the issue sets (≥ 2× it);
* OpenSpiel ``oh_hell`` driven from Python (``apply_action``, chance drawn by
  the caller), as bench/wizard_throughput.py measures it.

"Decisions" are player moves (bids, trump choices, cards, handicap cards): the
unit that compares games of different lengths (a 4-player Wizard match has
about 540, an oh_hell game 52); chance outcomes are counted nowhere.  The
machine is shared, so each
figure is the median of ``--runs`` interleaved runs; a ratio is the median of
the per-round ratios (both sides measured back to back), with the ratio of the
medians beside it.

Run: ``.venv/bin/python bench/batch.py [--game wizard] [--players 4] [--batch 10000] [--seconds 2] [--runs 5]
[--vector-envs 1000]``
(``--game sticheln``: the Sticheln batch beside its engine; OpenSpiel's
``oh_hell`` stays the C++ reference).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import atout
from atout.batch import StichelnBatch, WizardBatch
from atout.batch.malin import MalinBatch
from atout.batch.nain_jaune import NainJauneBatch
from atout.envs.single_agent import AtoutGymEnv
from atout.envs.vector import AtoutVectorEnv

#: The batch class of each game done so far.
BATCHES: dict[str, type[WizardBatch] | type[StichelnBatch] | type[MalinBatch] | type[NainJauneBatch]] = {
    "wizard": WizardBatch,
    "sticheln": StichelnBatch,
    "malin": MalinBatch,
    "nain_jaune": NainJauneBatch,
}

#: A runner plays for about ``seconds`` and returns (decisions, elapsed seconds).
Runner = Callable[[float], tuple[int, float]]


def batch_runner(name: str, players: int, size: int, seeds: random.Random) -> Runner:
    rng = np.random.default_rng(seeds.getrandbits(32))

    def run(seconds: float) -> tuple[int, float]:
        decisions = 0
        start = time.perf_counter()
        while True:
            base = seeds.getrandbits(40)
            batch = BATCHES[name](players, range(base, base + size))
            while True:
                live = int(np.count_nonzero(~batch.terminal))
                if not live:
                    break
                batch.step(batch.random_actions(rng))
                decisions += live
            if time.perf_counter() - start >= seconds:
                return decisions, time.perf_counter() - start

    return run


def batch_reset_runner(name: str, players: int, size: int, seeds: random.Random) -> Runner:
    rng = np.random.default_rng(seeds.getrandbits(32))
    base = seeds.getrandbits(40)
    batch = BATCHES[name](players, range(base, base + size), auto_reset=True)

    def run(seconds: float) -> tuple[int, float]:
        decisions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(20):
                batch.step(batch.random_actions(rng))
            decisions += 20 * size
        return decisions, time.perf_counter() - start

    return run


def engine_runner(name: str, players: int, seeds: random.Random) -> Runner:
    game = atout.load(name, players)
    rng = random.Random(seeds.getrandbits(32))

    def run(seconds: float) -> tuple[int, float]:
        decisions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_state(seed=rng.getrandbits(40))
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_actions()))
                decisions += 1
        return decisions, time.perf_counter() - start

    return run


def vector_runner(name: str, players: int, size: int, seeds: random.Random) -> Runner:
    """Agent steps per second of the batch vector env (observation tensor and mask at every step)."""
    env = AtoutVectorEnv(BATCHES[name], size, players, opponents="random", tensor="observation")
    env.reset(seed=seeds.getrandbits(40))
    rng = np.random.default_rng(seeds.getrandbits(32))

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            assert env.batch is not None
            env.step(env.batch.random_actions(rng))  # a random legal action per match
            steps += size
        return steps, time.perf_counter() - start

    return run


def gym_runner(name: str, players: int, seeds: random.Random) -> Runner:
    """Agent steps per second of the engine's single-agent env, the same way."""
    env = AtoutGymEnv(atout.load(name, players), opponents="random", tensor="observation")
    rng = random.Random(seeds.getrandbits(32))
    obs, _ = env.reset(seed=seeds.getrandbits(40))

    def run(seconds: float) -> tuple[int, float]:
        nonlocal obs
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            obs, _, done, _, _ = env.step(rng.choice(legal))
            steps += 1
            if done:
                obs, _ = env.reset()
        return steps, time.perf_counter() - start

    return run


def openspiel_runners(players: int, seeds: random.Random) -> tuple[Runner, Runner, int] | None:
    """(C++ evaluate_bots loop, Python-driven loop, decisions per oh_hell game)."""
    try:
        import pyspiel
    except ImportError:
        return None
    if not 3 <= players <= 7:  # oh_hell's own player range: no reference at other table sizes
        return None
    # 12 tricks with 4 players (the project's reference); the most a 52-card deck allows otherwise.
    game = pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": min(12, 51 // players)})
    # Decisions per game, counted once (bids and cards: fixed with 12 tricks).
    state = game.new_initial_state()
    per_game = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
            per_game += 1
    bots = [pyspiel.make_uniform_random_bot(p, seeds.getrandbits(31)) for p in range(players)]
    counter = [seeds.getrandbits(31)]

    def cpp(seconds: float) -> tuple[int, float]:
        games = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(200):
                pyspiel.evaluate_bots(game.new_initial_state(), bots, counter[0])
                counter[0] += 1
            games += 200
        return games * per_game, time.perf_counter() - start

    rng = random.Random(seeds.getrandbits(32))

    def python(seconds: float) -> tuple[int, float]:
        decisions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    decisions += 1
        return decisions, time.perf_counter() - start

    return cpp, python, per_game


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="wizard", choices=sorted(BATCHES))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--batch", type=int, default=10000, help="matches per batch")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one run (at least one batch)")
    parser.add_argument("--runs", type=int, default=5, help="interleaved runs per runner")
    parser.add_argument(
        "--vector-envs", type=int, default=1000, help="matches of the vector env (0: skip it)"
    )
    args = parser.parse_args()
    n, name = args.players, args.game
    seeds = random.Random(2024)
    runners: dict[str, Runner] = {
        f"batch {name} {n}p, {args.batch} matches, deals included": batch_runner(name, n, args.batch, seeds),
        f"batch {name} {n}p, {args.batch} matches, auto-reset": batch_reset_runner(
            name, n, args.batch, seeds
        ),
        f"engine {name} {n}p (state.apply)": engine_runner(name, n, seeds),
    }
    vector_label = f"vector env {name} {n}p, {args.vector_envs} envs, agent steps"
    gym_label = f"engine single-agent env {name} {n}p, agent steps"
    if args.vector_envs:
        runners[vector_label] = vector_runner(name, n, args.vector_envs, seeds)
        runners[gym_label] = gym_runner(name, n, seeds)
    spiel = openspiel_runners(n, seeds)
    cpp_label = f"openspiel oh_hell {n}p C++ loop (evaluate_bots)"
    if n != 4:
        cpp_label += f", {min(12, 51 // n)} tricks"
    py_label = f"openspiel oh_hell {n}p Python-driven"
    if spiel is not None:
        runners[cpp_label] = spiel[0]
        runners[py_label] = spiel[1]
    figures: dict[str, list[float]] = {label: [] for label in runners}
    for _ in range(args.runs):
        for label, runner in runners.items():
            decisions, elapsed = runner(args.seconds)
            figures[label].append(decisions / elapsed)
    median = {label: statistics.median(rows) for label, rows in figures.items()}
    print(f"random play, median of {args.runs} interleaved runs of >= {args.seconds:g} s")
    print(f"{'':58} {'decisions/s':>12}   runs")
    for label, rows in figures.items():
        spread = " ".join(f"{x / 1e3:.0f}k" for x in rows)
        print(f"{label:58} {median[label]:12.0f}   {spread}")
    main_label, reset_label, engine_label = list(runners)[:3]

    def ratio(ours: str, theirs: str) -> str:
        """Median of the per-run ratios (each within one interleaved round), then the ratio of medians."""
        per_run = statistics.median(a / b for a, b in zip(figures[ours], figures[theirs], strict=True))
        return f"{per_run:.2f}x ({median[ours] / median[theirs]:.2f}x of medians)"

    for label in (main_label, reset_label):
        print(f"{label}:")
        print(f"    vs the engine:                      {ratio(label, engine_label)}")
        if spiel is not None:
            print(f"    vs OpenSpiel's C++ loop:            {ratio(label, cpp_label)}")
            print(f"    vs OpenSpiel driven from Python:    {ratio(label, py_label)}")
    if args.vector_envs:
        print(f"{vector_label}:")
        print(f"    vs the engine's single-agent env:   {ratio(vector_label, gym_label)}")
    if spiel is None:
        print(f"openspiel: no oh_hell figure ({n} players is outside its 3-7, or pyspiel is not installed)")
    else:
        print(f"(oh_hell: {spiel[2]} decisions per game, counted once)")


if __name__ == "__main__":
    main()
