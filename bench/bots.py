"""Decision time of every bot level on every game, and the search bot's playouts per second.

For each game (4 players where the game allows it) and each level (random,
easy, normal, hard, expert), plays ``--matches`` whole matches with the level
in one seat (a different seat each match) and heuristic bots elsewhere.  At
its seat the level decides a ``--sample`` share of the decisions that have a
choice (spread over the whole match, so late, big rounds count as much as
early ones); the heuristic plays the others, which keeps the bench short.
Forced decisions (one legal action) are answered without asking anyone, as
they cost a bot nothing.

Prints p50 / p99 / max decision time per bot and game (wall clock), the
p50 / p99 of the CPU time the process spent on the decision, and for the
search levels the playouts per second (each playout: a world sampled, one
action tried, the round played out by the playout policy).  Why both clocks:
on a machine shared with other work the wall clock counts the time the bot
waited for a core; the CPU time is what the decision costs, and what two bots
"at equal time" should be compared by (numpy's threads are pinned to one, so
a decision's CPU time is one core's).

Run: ``.venv/bin/python bench/bots.py [--matches 2] [--sample 0.3] [--games wizard,malin]``.
"""

from __future__ import annotations

import argparse
import os
import random
import time

# One thread for numpy's matrix products (set before numpy loads): a decision's CPU time is then
# one core's, and a network's forward pass does not spin on the other core.
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402

import atout  # noqa: E402
from atout.bots import make_bot  # noqa: E402
from atout.core.registry import game_class, names  # noqa: E402

LEVELS = ("random", "easy", "normal", "hard", "expert", "policy", "master")


def measure(
    game: atout.Game, level: str, matches: int, sample: float, seed: int
) -> tuple[list[float], list[float], int]:
    """(wall seconds, CPU seconds per sampled decision, playouts run) for ``level`` over ``matches`` matches."""
    rng = random.Random(seed)
    times: list[float] = []
    cpu: list[float] = []
    simulations = 0
    for m in range(matches):
        seat = m % game.players
        bot = make_bot(level, game, seed=seed + m)
        field = [
            make_bot("heuristic" if "heuristic" in game.bots else "random", game, s)
            for s in range(game.players)
        ]
        for s, b in enumerate(field):
            b.start(game, s)
        bot.start(game, seat)
        state = game.new_state(seed=seed * 1000 + m)
        while not state.is_terminal:
            actor = state.current_player
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            view = state.view(actor)
            if actor == seat and rng.random() < sample:
                start, spent = time.perf_counter(), time.process_time()
                action = bot.choose(view)
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - spent)
            else:
                action = field[actor].choose(view)
            state.apply(action)
        # The search bots (search, batch) count their playouts.
        simulations += int(getattr(bot, "simulations", 0))
        bot.close()
    return times, cpu, simulations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2, help="matches per game and level")
    parser.add_argument("--sample", type=float, default=0.3, help="share of the level's decisions it takes")
    parser.add_argument("--games", default=",".join(names()), help="comma list of games")
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma list of bot names")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    width = max(9, *(len(level) for level in args.levels.split(",")))
    print(
        f"{'game':<11} {'bot':<{width}} {'decisions':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} "
        f"{'cpu p50':>8} {'cpu p99':>8} {'playouts/s':>10}"
    )
    for name in args.games.split(","):
        cls = game_class(name)
        game = atout.load(name, min(max(4, cls.min_players), cls.max_players))
        for level in args.levels.split(","):
            times, cpu, sims = measure(game, level, args.matches, args.sample, args.seed)
            if not times:
                print(f"{name:<11} {level:<{width}} {0:>9}")
                continue
            data, spent = np.asarray(times) * 1000, np.asarray(cpu) * 1000
            rate = f"{sims / sum(cpu):>10.0f}" if sims and sum(cpu) > 0 else f"{'':>10}"
            print(
                f"{name:<11} {level:<{width}} {len(times):>9} {np.percentile(data, 50):>8.2f} "
                f"{np.percentile(data, 99):>8.1f} {data.max():>8.1f} {np.percentile(spent, 50):>8.2f} "
                f"{np.percentile(spent, 99):>8.1f} {rate}",
                flush=True,
            )


if __name__ == "__main__":
    main()
