"""Wizard random-playout throughput, side by side with OpenSpiel's oh_hell.

Prints, for the median of several interleaved runs:
* atout: 4-player Wizard whole matches (15 rounds) per second and actions per
  second (every action, chance outcomes included, each checked for legality);
* OpenSpiel: oh_hell (4 players, num_tricks_fixed=12) driven through pyspiel from
  Python, actions per second (chance outcomes included), when pyspiel is installed
  (``pip install open_spiel`` or ``pip install -e '.[bench]'``);
* the memory of a cloned mid-match state, and the heuristic bot's decision time.

Run: ``.venv/bin/python bench/wizard_throughput.py [--seconds 1.0] [--runs 5]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable

import atout
import atout._build
from atout.bots import make_bot


def atout_runs(seconds: float, rng: random.Random) -> tuple[float, float]:
    """(matches/s, actions/s) of random play on whole 4-player Wizard matches."""
    game = atout.load("wizard", players=4)
    matches = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(seed=rng.getrandbits(32))
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        matches += 1
        actions += len(state.history)
    elapsed = time.perf_counter() - start
    return matches / elapsed, actions / elapsed


def openspiel_runner() -> Callable[[float, random.Random], tuple[float, float]] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 12})

    def run(seconds: float, rng: random.Random) -> tuple[float, float]:
        hands = actions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(rng.choice(outcomes)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
            hands += 1
        elapsed = time.perf_counter() - start
        return hands / elapsed, actions / elapsed

    return run


def clone_bytes() -> int:
    """Bytes allocated by cloning a 4-player state in round 8."""
    game = atout.load("wizard", players=4)
    rng = random.Random(3)
    state = game.new_state(seed=3)
    while state.round < 8:
        state.apply(rng.choice(state.legal_actions()))
    for _ in range(10):  # into the play of round 8
        state.apply(rng.choice(state.legal_actions()))
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    copy = state.clone()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert copy.history == state.history
    return after - before


def decision_times(bot_name: str, matches: int) -> list[float]:
    game = atout.load("wizard", players=4)
    times: list[float] = []
    for m in range(matches):
        bots = [make_bot(bot_name, game, seed=m * 4 + s) for s in range(4)]
        state = game.new_state(seed=m)
        while not state.is_terminal:
            seat = state.current_player
            view = state.view(seat)
            start = time.perf_counter()
            action = bots[seat].choose(view)
            times.append(time.perf_counter() - start)
            state.apply(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5, help="interleaved runs per engine")
    args = parser.parse_args()
    rng = random.Random(12345)
    spiel = openspiel_runner()
    ours: list[tuple[float, float]] = []
    theirs: list[tuple[float, float]] = []
    for _ in range(args.runs):
        ours.append(atout_runs(args.seconds, rng))
        if spiel is not None:
            theirs.append(spiel(args.seconds, rng))
    m_ours = statistics.median(m for m, _ in ours)
    a_ours = statistics.median(a for _, a in ours)
    print(f"atout engine build: {atout._build.choose()}")
    print(f"atout wizard 4p (whole 15-round matches): {m_ours:8.1f} matches/s {a_ours:10.0f} actions/s")
    if spiel is not None:
        h = statistics.median(m for m, _ in theirs)
        a = statistics.median(a for _, a in theirs)
        print(f"openspiel oh_hell 4p, 12 tricks (pyspiel):  {h:8.1f} hands/s   {a:10.0f} actions/s")
        print(f"ratio atout/openspiel actions/s: {a_ours / a:.2f}x")
    else:
        print("openspiel: pyspiel not installed (pip install open_spiel) - no side-by-side figure")
    print(f"cloned state in round 8: {clone_bytes()} bytes")
    for name in ("random", "heuristic"):
        t = sorted(decision_times(name, 20))
        p50, p99 = t[len(t) // 2], t[int(len(t) * 0.99)]
        print(
            f"{name:>9} bot decision: p50 {p50 * 1e6:6.1f} us  p99 {p99 * 1e6:6.1f} us  ({len(t)} decisions)"
        )


if __name__ == "__main__":
    main()
