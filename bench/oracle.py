"""A search bot that sees every hand, against the ladder's field: the ceiling of perfect information.

Why: a level's target is only worth chasing if the game leaves room for it.
The candidate's search here runs its playouts on the *true* deal instead of
sampled worlds — at its bids only (``--oracle bids``: the decisions before the
cards are played, the dealer's trump choice included), in its card play only
(``--oracle play``) or at every decision (``--oracle all``, the default) — so
what it scores against the field bounds what better inference alone (which
worlds to sample) could give the same search. It is not a bound on every
strategy: a better model of the players inside the playouts, or a different
algorithm, may go past it.

It is a ceiling only where the playouts' model draws its actions (Wizard's
model of strong play). With a deterministic model (the heuristic: Le Malin,
Sticheln, Le Nain Jaune) one true world makes every playout of an action the
same line, the search judges each action by that single line of heuristic
replies, and seeing every hand can even lose (Sticheln, bench/RESULTS.md).
``--noise EPS`` makes the oracle's playouts take a random legal action with
probability EPS, so that its playouts differ again (a different bot from the
honest one: its figure shows that there is room, it bounds nothing).

Everything else is the ladder's match: the same deals, seats, bot seeds and
field for ``--seed`` (``bench/ladder.py``'s schedule; its rung *i* uses seed
1 + *i*: expert against hard is 3), and ``--log`` writes the ladder's log format,
so ``bench/paired.py`` compares the oracle with the honest candidate deal by
deal (a ladder log on the same seed) and ``bench/ladder.py --log`` reads it.

A bench diagnostic only: the oracle reads the true state, which no bot the
package ships can (bots see their view; docs/bots.md).

Run: ``.venv/bin/python bench/oracle.py --game nain-jaune --deals 40 --jobs 2 --log DIR``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

import atout
from atout.bots import make_bot
from atout.bots.noisy import NoisyBot
from atout.bots.search import SearchBot
from atout.core.bot import Bot
from atout.core.game import Game, State, View
from atout.match import play_match
from atout.tournament.matchlog import append_outcomes, complete_deals, log_path, read_outcomes
from atout.tournament.runner import MatchOutcome, MatchSpec, record, schedule
from atout.tournament.stats import summarize


class OracleSearchBot(SearchBot):
    """A configured search bot whose worlds are the true state (at its bids, in its play, or always)."""

    def __init__(self, inner: SearchBot, truth: State, oracle: str, noise: float = 0.0) -> None:
        self.__dict__.update(inner.__dict__)  # the bot make_bot configured, seeds included
        self.truth = truth
        #: Where it sees the truth: "bids" (every decision before the cards are played), "play", "all".
        self.oracle = oracle
        #: Share of the playouts' actions taken at random (see the module docstring: one true world
        #: and a deterministic model make every playout of an action the same line).
        self.noise = noise

    def _setup(self, game: Game) -> None:
        super()._setup(game)
        if self.noise:
            self._policies = [
                NoisyBot(policy, self.noise, self.rng.getrandbits(32)) for policy in self._policies
            ]
            for seat, policy in enumerate(self._policies):
                policy.start(game, seat)

    def world_source(self, view: View) -> Callable[[], State]:
        playing = getattr(view, "phase", None) == "play"
        if self.oracle != "all" and playing != (self.oracle == "play"):
            return super().world_source(view)
        truth = self.truth
        # The mirror must be the match's state: the seat's view of it is the view it was given.
        assert truth.view(view.seat).to_dict() == view.to_dict(), "the oracle's mirror left the match"
        return truth.clone


def play(spec: MatchSpec, candidate: str, oracle: str, noise: float) -> MatchOutcome:
    """One scheduled match, the candidate's seat playing as an oracle; the ladder's record of it."""
    game = spec.load_game()
    truth = game.new_state(spec.seed)  # the mirror of the match's state: same seed, same actions
    bots: list[Bot] = []
    for seat, name in enumerate(spec.seats):
        bot = make_bot(name, game, spec.bot_seeds[seat], caps=spec.caps)
        if name == candidate:
            assert isinstance(bot, SearchBot), f"{name} is not a search bot of the engine"
            bot = OracleSearchBot(bot, truth, oracle, noise)
        bots.append(bot)

    choice: list[list[bool]] = [[] for _ in range(spec.players)]

    def mirror(state: State, actor: int, action: int) -> None:
        choice[actor].append(len(state.legal_actions()) > 1)
        truth.apply(action)

    result = play_match(game, bots, spec.seed, on_action=mirror)
    return record(MatchOutcome(spec.deal, spec.rotation, spec.seats, seed=spec.seed), result, choice)


def _run(job: tuple[MatchSpec, str, str, float]) -> MatchOutcome:
    return play(*job)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="wizard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--field", default="hard")
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument(
        "--seed", type=int, default=3, help="the ladder's seed of the rung (expert vs hard: 3)"
    )
    parser.add_argument("--oracle", choices=("bids", "play", "all"), default="all")
    parser.add_argument("--noise", type=float, default=0.0, help="share of random actions in the playouts")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--log", type=Path, help="a folder: the matches as a ladder log (resumed if there)")
    args = parser.parse_args()
    game = atout.load(args.game, args.players)
    specs = schedule(
        game, [args.bot, args.field], args.deals, args.seed, first_deal=args.first_deal, caps=False
    )
    path = None
    done: set[tuple[int, int]] = set()
    if args.log is not None:
        noisy = f"-noise{args.noise:g}" if args.noise else ""
        name = f"{game.name}-oracle-{args.oracle}{noisy}-{args.bot}-vs-{args.field}-{game.players}p-seed{args.seed}"
        path = log_path(args.log, name)
        done = {(o.deal, o.rotation) for o in read_outcomes(path)}
    jobs = [
        (spec, args.bot, args.oracle, args.noise) for spec in specs if (spec.deal, spec.rotation) not in done
    ]
    start = time.perf_counter()
    outcomes: list[MatchOutcome] = []
    with Pool(args.jobs) as pool:
        for outcome in pool.imap(_run, jobs, chunksize=1):
            outcomes.append(outcome)
            if path is not None:
                append_outcomes(path, [outcome])
    if path is not None:  # the whole log, earlier runs included
        outcomes = read_outcomes(path)
    whole = complete_deals(outcomes, game.players)  # a duplicate comparison needs every rotation
    mine = {b.bot: b for b in summarize(whole)}.get(args.bot)
    if mine is None:
        raise SystemExit("no deal played out in every rotation yet")
    m = mine.margin_per_round
    made = "" if mine.contracts_made is None else f", contracts made {mine.contracts_made:.1%}"
    print(
        f"{game.name} ({game.players}p): {args.bot} seeing every hand ({args.oracle}, noise {args.noise:g}) vs {args.field}, "
        f"{m.n} deals × {game.players}: margin {m.mean:+.2f} ± {m.ci95 or 0:.2f} a round{made} "
        f"({time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
