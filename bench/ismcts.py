"""A candidate against OpenSpiel's ISMCTS at equal CPU time: the anchor researchers know.

Why: issue 26 asks the top level for +30 points a round over OpenSpiel's
ISMCTS on full 4-player Wizard matches, at equal CPU time, and also over a
fairer, stronger ISMCTS given a heuristic rollout. This script plays the
duplicate tournament (``--candidate`` in one seat, three ISMCTS in the others,
every deal in every seat rotation, as ``bench/ladder.py``) and writes the
ladder's log, so ``bench/paired.py`` compares two candidates on its deals.

How the ISMCTS plays:

* OpenSpiel's python ``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``),
  its stock settings (UCT constant 2, the most visited action, unlimited world
  samples), through atout's OpenSpiel game and ``OpenSpielBot``: it is given a
  world sampled from its seat's view and resamples further worlds from that
  view (``resample_from_infostate``), never the true hands;
* **equal CPU time**: instead of a fixed number of simulations it searches
  until it has spent the candidate's mean CPU time per decision (process time,
  so a busy machine does not bend it), measured first on a calibration match
  (a seed the tournament does not use), or given by ``--budget-ms``;
* rollouts (``--rollout``): ``random``, OpenSpiel's ``RandomRolloutEvaluator``
  (uniform actions to the end of the match: the stock anchor); or
  ``heuristic``: every seat played by the game's heuristic (``normal``) to the
  end of the *round*, the leaf valued by the scores then (what atout's own
  search does with its playouts) — the fair anchor the issue asks for.

Run: ``.venv/bin/python bench/ismcts.py --candidate master --rollout random --deals 4 --jobs 2 --log DIR``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import atout
from atout.bots import make_bot
from atout.bots.search import play_out_round
from atout.core.bot import Bot
from atout.core.game import Game, View
from atout.envs.openspiel_bot import OpenSpielBot
from atout.match import play_match
from atout.tournament import run_local, schedule, summarize
from atout.tournament.matchlog import append_outcomes, complete_deals, log_path, read_outcomes

#: The tournament's deals are seeded from --seed; the calibration match from this one.
CALIBRATION_SEED = 987_654_321
#: OpenSpiel's examples' UCT constant for ISMCTS.
UCT_C = 2.0


class HeuristicRollout:
    """An OpenSpiel evaluator: uniform prior; the leaf played out by the heuristic to the round's end."""

    def __init__(self, game: Game, seed: int) -> None:
        self.bots = [make_bot("heuristic", game, seed=seed + p) for p in range(game.players)]
        self.rng = random.Random(seed)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]

    def evaluate(self, state: Any) -> np.ndarray:
        # The atout state behind the OpenSpiel one (a sampled world), played out on a copy.
        world = play_out_round(state._cell.state.clone(), self.bots, self.rng)
        return np.asarray(world.scores(), dtype=np.float64)


def timed_ismcts(budget: float) -> type:
    """``ISMCTSBot`` searching until ``budget`` seconds of process time are spent (at least two simulations)."""
    from open_spiel.python.algorithms import ismcts

    class TimedISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]
        def run_search(self, state: Any) -> Any:
            # The stock search with a CPU-time budget in place of max_simulations: simulations are
            # run one at a time until the budget is spent, through ISMCTSBot's own steps.
            # Two at least: the first only expands the root, whose final policy needs a visit.
            self._max_simulations = 2
            policy = super().run_search(state)  # resets the tree, two simulations
            if len(state.legal_actions()) == 1:
                return policy
            deadline = time.process_time() + budget
            while time.process_time() < deadline:
                self.run_simulation(self.sample_root_state(state))
            return self.get_final_policy(state, self._root_node)

    return TimedISMCTS


def ismcts_bot(rollout: str, budget_ms: int) -> type[Bot]:
    """An atout bot class: OpenSpiel's ISMCTS with ``rollout`` rollouts and ``budget_ms`` of CPU a decision."""

    class ISMCTS(OpenSpielBot):
        name = f"ismcts_{rollout}_{budget_ms}"

        def make_spiel_bot(self, game: Any, seat: int, seed: int) -> Any:
            from open_spiel.python.algorithms import mcts

            rng = np.random.RandomState(seed % 2**32)
            evaluator: Any
            if rollout == "random":
                evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
            else:
                assert self._for is not None  # start() sets the game before building the search
                evaluator = HeuristicRollout(self._for, seed)
            search = timed_ismcts(budget_ms / 1000)
            return search(game, evaluator, UCT_C, 1, random_state=rng)

    return ISMCTS


def __getattr__(name: str) -> Any:
    """``py:bench/ismcts.py:ismcts_<random|heuristic>_<ms>``: the tournament's bot names."""
    parts = name.split("_")
    if (
        len(parts) == 3
        and parts[0] == "ismcts"
        and parts[1] in ("random", "heuristic")
        and parts[2].isdigit()
    ):
        return ismcts_bot(parts[1], int(parts[2]))
    raise AttributeError(name)


def calibrate(game: Game, candidate: str) -> float:
    """The candidate's mean CPU seconds per decision with a choice, over one match against the heuristic."""
    bot = make_bot(candidate, game, seed=1, caps=False)
    spent: list[float] = []
    inner = bot.choose

    def choose(view: View) -> int:
        start = time.process_time()
        action = inner(view)
        if len(view.legal_actions) > 1:
            spent.append(time.process_time() - start)
        return action

    bot.choose = choose  # type: ignore[method-assign]
    field = [make_bot("heuristic", game, seed=s) for s in range(2, game.players + 1)]
    play_match(game, [bot, *field], CALIBRATION_SEED)
    return statistics.fmean(spent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="wizard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        default=[],
        help="a game option NAME=INTEGER (default: full matches)",
    )
    parser.add_argument("--candidate", default="master")
    parser.add_argument("--rollout", choices=("random", "heuristic"), default="random")
    parser.add_argument(
        "--budget-ms", type=int, default=0, help="ISMCTS's CPU a decision (0: the candidate's)"
    )
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--log", type=Path, help="a folder: the matches as a ladder log (resumed if there)")
    args = parser.parse_args()
    options = {}
    for text in args.option:
        key, _, value = text.partition("=")
        if not value.lstrip("-").isdigit():
            sys.exit(f"--option {text!r}: write NAME=INTEGER")
        options[key] = int(value)
    game = atout.load(args.game, args.players, **options)
    budget = args.budget_ms
    if budget <= 0:
        budget = max(1, round(1000 * calibrate(game, args.candidate)))
        print(
            f"{args.candidate}: {budget} ms of CPU a decision with a choice (calibration match)", flush=True
        )
    field = f"py:{Path(__file__).resolve()}:ismcts_{args.rollout}_{budget}"
    specs = schedule(game, [args.candidate, field], args.deals, args.seed)
    outcomes = []
    path = None
    if args.log is not None:
        name = f"{game.name}-{args.candidate}-vs-ismcts_{args.rollout}-{game.players}p-seed{args.seed}"
        path = log_path(args.log, name)
        outcomes = read_outcomes(path)
    done = {(o.deal, o.rotation) for o in outcomes}
    todo = [s for s in specs if (s.deal, s.rotation) not in done]
    start = time.perf_counter()

    def keep(outcome: Any) -> None:
        if path is not None:
            append_outcomes(path, [outcome])

    played = run_local(todo, args.jobs, on_done=keep)
    outcomes = read_outcomes(path) if path is not None else played
    whole = complete_deals(outcomes, game.players)
    for outcome in whole:
        if outcome.error:
            sys.exit(f"deal {outcome.deal}, rotation {outcome.rotation}: {outcome.error}")
    summary = {b.bot: b for b in summarize(whole)}
    mine = summary.get(args.candidate)
    if mine is None:
        sys.exit("no deal played out in every rotation yet")
    m = mine.margin_per_round
    them = summary[next(b for b in summary if b != args.candidate)]
    print(
        f"{game.name} ({game.players}p): {args.candidate} vs three ISMCTS ({args.rollout} rollouts, "
        f"{budget} ms CPU a decision), {m.n} deals × {game.players}: {m.mean:+.2f} ± {m.ci95 or 0:.2f} a round; "
        f"decision ms p50 {1000 * (mine.decision_times['p50'] or 0):.0f} vs {1000 * (them.decision_times['p50'] or 0):.0f} "
        f"({time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
