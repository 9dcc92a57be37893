"""Steps per second through each research adapter, beside the native engine and OpenSpiel's oh_hell.

One run prints, side by side, for random play on whole matches (median of
interleaved runs):

* native: ``state.apply`` on a seeded atout state (no observation built);
* native+tensor: the same, building the acting seat's information-state tensor
  at each decision (what every adapter pays);
* pettingzoo: the AEC environment (``last()`` observation + mask, ``step``);
* gymnasium: the single-agent environment, seat 0 against random bots (each
  of its steps counts the bots' moves too, all are reported as actions);
* openspiel: the python game through pyspiel, chance nodes drawn by the
  caller, with and without the information-state tensor at each decision;
* oh_hell: OpenSpiel's own C++ game through pyspiel, the same two ways.

"actions/s" counts every action applied to the engine, chance outcomes
included where the caller applies them (OpenSpiel); "decisions/s" counts only
player decisions, the fair unit across adapters.

Run: ``.venv/bin/python bench/adapters.py [--game wizard] [--players 4] [--seconds 1] [--runs 3]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

import atout
from atout.core.game import CHANCE
from atout.envs import gym_env, pettingzoo_env

if TYPE_CHECKING:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

#: A runner plays for ``seconds`` and returns (decisions, actions, elapsed).
Runner = Callable[[float, random.Random], tuple[int, int, float]]


def native(name: str, players: int, tensor: bool) -> Runner:
    game = atout.load(name, players)

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        decisions = actions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_state(seed=rng.getrandbits(32))
            while not state.is_terminal:
                if tensor:
                    game.information_state_tensor(state.view(state.current_player))
                state.apply(rng.choice(state.legal_actions()))
                decisions += 1
            actions += len(state.history)
        return decisions, actions, time.perf_counter() - start

    return run


def aec_match(env: OrderEnforcingWrapper, rng: random.Random) -> int:
    """One whole match of random legal moves through the AEC protocol (``last()``, ``step``): its decisions.

    The terminal ``step(None)`` calls are not decisions.  ``bench/aec.py`` times
    the same loop on several builds.
    """
    decisions = 0
    env.reset(seed=rng.getrandbits(32))
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        decisions += 1
    return decisions


def pettingzoo(name: str, players: int) -> Runner:
    env = pettingzoo_env(name, players)

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        decisions = actions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            decisions += aec_match(env, rng)
            actions += len(env.unwrapped.state.history)
        return decisions, actions, time.perf_counter() - start

    return run


def pettingzoo_floor(name: str, players: int) -> Runner:
    """PettingZoo's own loop with no observation at all (``last(observe=False)``).

    The floor any observation adds to: what the AEC protocol and its order
    wrapper cost per step, the legal actions taken from the engine.
    """
    env = pettingzoo_env(name, players)

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        decisions = actions = 0
        start = time.perf_counter()
        state = env.unwrapped
        while time.perf_counter() - start < seconds:
            env.reset(seed=rng.getrandbits(32))
            for _agent in env.agent_iter():
                _, _, terminated, truncated, _ = env.last(observe=False)
                if terminated or truncated:
                    env.step(None)
                    continue
                env.step(rng.choice(state.state.legal_actions()))
                decisions += 1
            actions += len(state.state.history)
        return decisions, actions, time.perf_counter() - start

    return run


def gymnasium(name: str, players: int) -> Runner:
    env = gym_env(name, players, opponents="random")

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        histories = []
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            obs, _ = env.reset(seed=rng.getrandbits(32))
            terminated = False
            while not terminated:
                action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
                obs, _, terminated, _, _ = env.step(action)
            histories.append(env.state.history)
        elapsed = time.perf_counter() - start
        actions = sum(len(h) for h in histories)
        decisions = actions - sum(_chance_count(env.game, h) for h in histories)
        return decisions, actions, elapsed

    return run


def _chance_count(game: atout.Game, history: list[int]) -> int:
    replay = game.new_state(None)
    count = 0
    for action in history:
        count += replay.current_player == CHANCE
        replay.apply(action)
    return count


def spiel(game_name: str, params: dict[str, int], tensor: bool) -> Runner | None:
    try:
        import pyspiel
    except ImportError:
        return None
    if game_name.startswith("python_atout_"):
        import atout.envs.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game(game_name, params)

    def run(seconds: float, rng: random.Random) -> tuple[int, int, float]:
        decisions = actions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                else:
                    if tensor:
                        state.information_state_tensor()
                    state.apply_action(rng.choice(state.legal_actions()))
                    decisions += 1
                actions += 1
        return decisions, actions, time.perf_counter() - start

    return run


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="wizard", help="atout game (default wizard)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs per adapter")
    args = parser.parse_args()
    name, n = args.game, args.players
    short = "python_atout_" + atout.load(name, n).name.replace("-", "_")
    runners: dict[str, Runner | None] = {
        f"native {name} (apply only)": native(name, n, tensor=False),
        f"native {name} + infostate tensor": native(name, n, tensor=True),
        "pettingzoo AEC (obs + mask)": pettingzoo(name, n),
        "pettingzoo AEC, no observation (floor)": pettingzoo_floor(name, n),
        "gymnasium single agent vs random": gymnasium(name, n),
        f"openspiel {short}": spiel(short, {"players": n}, tensor=False),
        f"openspiel {short} + tensor": spiel(short, {"players": n}, tensor=True),
        "openspiel oh_hell C++ (12 tricks)": spiel("oh_hell", {"players": n, "num_tricks_fixed": 12}, False),
        "openspiel oh_hell C++ + tensor": spiel("oh_hell", {"players": n, "num_tricks_fixed": 12}, True),
    }
    rng = random.Random(12345)
    figures: dict[str, list[tuple[float, float]]] = {k: [] for k, r in runners.items() if r is not None}
    for _ in range(args.runs):
        for label, runner in runners.items():
            if runner is None:
                continue
            decisions, actions, elapsed = runner(args.seconds, rng)
            figures[label].append((decisions / elapsed, actions / elapsed))
    base = statistics.median(d for d, _ in figures[f"native {name} (apply only)"])
    print(f"{name}, {n} players, random play, median of {args.runs} runs of {args.seconds:g} s")
    print(f"{'':40} {'decisions/s':>12} {'actions/s':>12} {'vs native':>10}")
    for label, rows in figures.items():
        d = statistics.median(x for x, _ in rows)
        a = statistics.median(y for _, y in rows)
        print(f"{label:40} {d:12.0f} {a:12.0f} {d / base:9.2f}x")
    for label, runner in runners.items():
        if runner is None:
            print(f"{label}: pyspiel not installed (pip install atout[openspiel])")


if __name__ == "__main__":
    main()
