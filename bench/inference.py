"""What the other seats' actions tell the batch search: inferred worlds scored against the true deal.

Why: the batch search's ``infer`` flag weighs its sampled worlds by how likely
the other seats were to act as they did this round (policy-based inference:
``candidates`` worlds drawn per world kept, resampled by that likelihood).
Whether that can make the search stronger depends first on how much closer to
the truth it brings the worlds, which this script measures directly, without
playing a match: at decisions of matches played by ``--field`` in every seat,
the share of the other seats' hidden cards that a world puts in the right hand,
plain worlds against inferred ones with each number of candidates, on the same
decisions (paired 95% intervals over the decisions), with how many distinct
deals the worlds hold (resampling repeats the likely ones: fewer distinct
deals is less averaging for the search) and the CPU time of drawing them.  The ladder
(``bench/ladder.py --compare batch:N:…:infer,hard``) then says what the
search makes of it.

The seat model inference judges with is the searcher's own (``--bot``: the
model of strong play with ``strong``, a network with ``net=…``, else the
heuristic), and the field plays whatever it plays: the figure is for the
search as it would meet that field.

Run: ``.venv/bin/python bench/inference.py --game wizard --field hard --matches 2``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

import atout
from atout.bots import make_bot
from atout.bots.batched import BatchSearchBot
from atout.core.errors import OptionError
from atout.core.game import Game, State, View

#: Candidate worlds drawn per world kept; 0 is plain sampling (no inference).
CANDIDATES = (0, 2, 8, 32)


def placement(world: State, truth: State, seat: int) -> float:
    """Share of the other seats' hidden cards that ``world`` puts in the hand that holds them."""
    right = total = 0
    for other in range(truth.game.players):
        if other == seat:
            continue
        true_hand = list(truth.view(other).to_dict()["hand"])
        for card in world.view(other).to_dict()["hand"]:
            total += 1
            if card in true_hand:
                true_hand.remove(card)
                right += 1
    return right / total if total else 0.0


def deal_of(world: State) -> tuple[tuple[str, ...], ...]:
    """Every seat's hand, as a key: inference resamples worlds, so some come out the same deal."""
    return tuple(tuple(sorted(world.view(s).to_dict()["hand"])) for s in range(world.game.players))


def decisions(game: Game, field: str, matches: int, every: int, seed: int) -> list[tuple[State, View]]:
    """Every ``every``-th decision with a choice in ``matches`` matches of ``field`` in every seat."""
    out = []
    for match in range(matches):
        state = game.new_state(seed + match)
        bots = [make_bot(field, game, seed=seed + 100 * match + s) for s in range(game.players)]
        for s, bot in enumerate(bots):
            bot.start(game, s)
        step = 0
        while not state.is_terminal:
            seat = state.current_player
            view = state.view(seat)
            if len(view.legal_actions) > 1:
                step += 1
                if step % every == 0:
                    out.append((state.clone(), view))
            state.apply(bots[seat].choose(view))
    return out


def interval(values: list[float]) -> float:
    """Half-width of the normal 95% interval of the mean of ``values``."""
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="wizard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--field", default="hard", help="the bot in every seat of the matches (default hard)")
    parser.add_argument("--bot", default="batch:6000:strong", help="the batch search whose worlds are scored")
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--every", type=int, default=5, help="score every N-th decision with a choice")
    parser.add_argument("--worlds", type=int, default=64, help="worlds drawn per decision")
    parser.add_argument("--candidates", default=",".join(map(str, CANDIDATES)))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        counts = sorted({0, *(int(c) for c in args.candidates.split(","))})  # plain first: the baseline
        if any(c < 0 for c in counts) or not 1 <= args.worlds <= 4096 or args.every < 1 or args.matches < 1:
            raise ValueError
    except ValueError:
        print("--candidates are counts ≥ 0, --worlds 1..4096, --every and --matches ≥ 1", file=sys.stderr)
        return 2
    try:
        game = atout.load(args.game, players=args.players)
        probe = make_bot(args.bot, game, seed=0)
        make_bot(args.field, game, seed=0)
    except (OptionError, ValueError) as error:
        print(error, file=sys.stderr)
        return 2
    if not isinstance(probe, BatchSearchBot):
        print(f"--bot {args.bot!r} is not a batch search (write batch:N[:flags])", file=sys.stderr)
        return 2
    points = decisions(game, args.field, args.matches, args.every, args.seed)
    if not points:
        print("no decision with a choice was sampled: lower --every or raise --matches", file=sys.stderr)
        return 2
    print(
        f"{args.game} ({args.players}p), {args.field} in every seat: {len(points)} decisions, "
        f"{args.worlds} worlds each, the seat model of {args.bot}"
    )
    print(
        f"{'candidates':>10}  {'placed right':>12}  {'vs plain (95%)':>16}  {'distinct deals':>14}  {'cpu ms':>7}"
    )
    plain: list[float] | None = None
    for count in counts:
        scores, distinct = [], []
        started = time.process_time()
        for i, (truth, view) in enumerate(points):
            bot = make_bot(args.bot, game, seed=args.seed + i)
            assert isinstance(bot, BatchSearchBot)
            bot.inference, bot.candidates = count > 0, max(count, 1)
            worlds = bot.sample_worlds(view, args.worlds)
            scores.append(sum(placement(w, truth, view.seat) for w in worlds) / len(worlds))
            distinct.append(len({deal_of(w) for w in worlds}))
        cpu = 1000 * (time.process_time() - started) / len(points)
        if plain is None:
            plain, versus = scores, "—"
        else:
            gains = [s - p for s, p in zip(scores, plain, strict=True)]
            versus = f"{100 * statistics.fmean(gains):+.2f} ± {100 * interval(gains):.2f}"
        print(
            f"{count:>10}  {100 * statistics.fmean(scores):>11.2f}%  {versus:>16}  "
            f"{statistics.fmean(distinct):>14.1f}  {cpu:>7.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
