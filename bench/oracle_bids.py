"""How many bids a search bot would make if it could see every hand (Wizard): a ceiling.

Why: the ladder's target has expert making 70% of its bids against three
hards, and it makes 65%.  Part of every miss is the hidden cards (the bot bids
on worlds it samples), part is what the table does after the bid (the hards
force tricks on bidders; the search's own play).  This script measures the
first part away: the candidate's search runs its playouts on the *true* deal
instead of sampled worlds — at its bids only (``--oracle bids``: bidding with
perfect information, playing honestly; the dealer's trump choice counts with
the bids), at its card play only (``--oracle play``) or at every decision
(``--oracle all``).
Everything else is the ladder's match: same deals, seats, bot seeds and field
(``bench/ladder.py``'s schedule for ``--seed``), so ``--against LOG`` pairs the
result with the honest candidate's matches from a ladder log on the same deals.

A bench diagnostic only: the oracle reads the true state, which no bot the
package ships can (bots see their view; docs/bots.md).

Run: ``.venv/bin/python bench/oracle_bids.py --deals 2 --jobs 2 --against LOG``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

import atout
from atout.bots import make_bot
from atout.bots.search import SearchBot
from atout.core.bot import Bot
from atout.core.game import State, View
from atout.match import contract_lines, contracts_made, play_match
from atout.tournament.runner import MatchSpec, schedule


class OracleSearchBot(SearchBot):
    """A configured search bot whose worlds are the true state (at its bids, in its play, or always)."""

    def __init__(self, inner: SearchBot, truth: State, oracle: str) -> None:
        self.__dict__.update(inner.__dict__)  # the bot make_bot configured, seeds included
        self.truth = truth
        #: Where it sees the truth: "bids" (every decision before the cards are played), "play", "all".
        self.oracle = oracle

    def world_source(self, view: View) -> Callable[[], State]:
        playing = getattr(view, "phase", None) == "play"
        if self.oracle != "all" and playing != (self.oracle == "play"):
            return super().world_source(view)
        truth = self.truth
        # The mirror must be the match's state: the seat's view of it is the view it was given.
        assert truth.view(view.seat).to_dict() == view.to_dict(), "the oracle's mirror left the match"
        return truth.clone


@dataclass
class Row:
    """The candidate's side of one match."""

    deal: int
    rotation: int
    made: int
    rounds: int
    over: int
    #: Its score minus the others' mean, per round.
    margin: float


def margin_per_round(scores: list[int], seat: int, rounds: int) -> float:
    """The seat's score minus the other seats' mean, per round (the ladder's margin)."""
    return (scores[seat] - (sum(scores) - scores[seat]) / (len(scores) - 1)) / rounds


def play(spec: MatchSpec, candidate_name: str, oracle: str) -> Row:
    """One scheduled match with the candidate's seats (normally one) playing as oracles."""
    game = spec.load_game()
    truth = game.new_state(spec.seed)  # the mirror of the match's state: same seed, same actions
    bots: list[Bot] = []
    for seat, name in enumerate(spec.seats):
        bot = make_bot(name, game, spec.bot_seeds[seat])
        if name == candidate_name:
            assert isinstance(bot, SearchBot), f"{name} is not a search bot"
            bot = OracleSearchBot(bot, truth, oracle)
        bots.append(bot)

    def mirror(state: State, actor: int, action: int) -> None:
        truth.apply(action)

    result = play_match(game, bots, spec.seed, on_action=mirror)
    lines = contract_lines(result.state)
    assert lines is not None, "the oracle measures bids: a game whose sheet shows bids and tricks"
    _, over = lines
    seat = spec.seats.index(candidate_name)
    made, rounds = contracts_made(over)[seat]
    above = sum(o > 0 for o in over[seat])
    return Row(
        spec.deal, spec.rotation, made, rounds, above, margin_per_round(result.state.scores(), seat, rounds)
    )


def _run(job: tuple[MatchSpec, str, str]) -> Row:
    return play(*job)


def honest(log: Path, keys: set[tuple[int, int]], candidate: str) -> tuple[int, int, float]:
    """The honest candidate's (made, played, summed margin per round) over the same matches of a ladder log."""
    made = played = 0
    margin = 0.0
    for line in log.read_text().splitlines():
        row = json.loads(line)
        if (row["deal"], row["rotation"]) not in keys:
            continue
        seat = row["seats"].index(candidate)
        m, p = row["contracts"][seat]
        made, played = made + m, played + p
        margin += margin_per_round(row["scores"], seat, p)
    return made, played, margin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--field", default="hard")
    parser.add_argument("--deals", type=int, default=2)
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument(
        "--seed", type=int, default=3, help="the ladder's seed of the rung (expert vs hard: 3)"
    )
    parser.add_argument("--oracle", choices=("bids", "play", "all"), default="bids")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--against", type=Path, help="a ladder log of the honest candidate on the same deals")
    args = parser.parse_args()
    game = atout.load("wizard", 4)
    specs = schedule(game, [args.bot, args.field], args.deals, args.seed, first_deal=args.first_deal)
    jobs = [(spec, args.bot, args.oracle) for spec in specs]
    start = time.perf_counter()
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            rows = pool.map(_run, jobs, chunksize=1)
    else:
        rows = [_run(job) for job in jobs]
    made = sum(r.made for r in rows)
    played = sum(r.rounds for r in rows)
    over = sum(r.over for r in rows)
    margin = sum(r.margin for r in rows) / len(rows)
    print(
        f"{args.bot} with perfect information ({args.oracle}) vs {args.field}, {len(rows)} matches "
        f"({time.perf_counter() - start:.0f} s): bids made {made / played:.1%} "
        f"(over {over / played:.1%}, under {(played - made - over) / played:.1%}), margin {margin:+.2f} a round"
    )
    if args.against is not None:
        keys = {(r.deal, r.rotation) for r in rows}
        h_made, h_played, h_margin = honest(args.against, keys, args.bot)
        if h_played:
            print(
                f"{args.bot} honest on the same matches ({args.against.name}): bids made {h_made / h_played:.1%}, "
                f"margin {h_margin / len(keys):+.2f} a round"
            )


if __name__ == "__main__":
    main()
