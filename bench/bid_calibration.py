"""How well a search bot's playouts predict its own contracts (Wizard).

For every bid the candidate makes, the playouts it ran for the bid it chose
say how often it would make it, go over or stay under (``playouts``); the
match then says what it did (``table``).  A playout self-model much worse at steering its trick count
than the searcher really is shows as ``playouts`` far below ``table``: the bids
are then chosen under the wrong odds (bench/RESULTS.md has the measurements).

Run: ``.venv/bin/python bench/bid_calibration.py [--bot search:800:model] [--matches 2]``;
the candidate sits in each seat in turn against ``--field`` (default ``hard``).
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import atout
from atout.bots import make_bot
from atout.bots.search import SearchBot
from atout.core.game import State, View
from atout.games.wizard.view import WizardView
from atout.match import derive_seed, play_match


class Calibrated(SearchBot):
    """A search bot that keeps, at each of its bids, its own trick counts in the playouts."""

    def __init__(self, inner: SearchBot) -> None:
        self.__dict__.update(inner.__dict__)  # the configured bot (make_bot), with a recorder around it
        #: (round, bid, shares of its playouts that made it, went over, stayed under)
        self.bids: list[tuple[int, int, tuple[float, float, float]]] = []
        self._tricks: dict[int, list[int]] | None = None

    def choose(self, view: View) -> int:
        assert isinstance(view, WizardView)
        if view.phase != "bid":
            return super().choose(view)
        self._tricks = defaultdict(list)
        action = super().choose(view)
        bid = action - view.game.bid_base
        tricks = self._tricks[action]
        self._tricks = None
        n = len(tricks) or 1
        shares = (
            sum(t == bid for t in tricks) / n,
            sum(t > bid for t in tricks) / n,
            sum(t < bid for t in tricks) / n,
        )
        self.bids.append((view.round, bid, shares))
        return action

    def playout_done(self, action: int, seat: int, end: State) -> None:
        if self._tricks is not None:
            self._tricks[action].append(end.sheet[-1][1][seat])  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search:800:model")
    parser.add_argument("--field", default="hard")
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--seed", type=int, default=50)
    args = parser.parse_args()
    game = atout.load("wizard", 4)
    # Per hand size: (playouts' shares made / over / under, the table's outcome as the same triple).
    by_size: dict[str, list[tuple[tuple[float, float, float], tuple[int, int, int]]]] = defaultdict(list)
    for index in range(args.matches):
        seat = index % game.players
        seed = derive_seed(args.seed, "match", index)
        bots = [make_bot(args.field, game, derive_seed(seed, "seat", s)) for s in range(game.players)]
        inner = make_bot(args.bot, game, derive_seed(seed, "seat", seat))
        assert isinstance(inner, SearchBot), f"{args.bot} is not a search bot"
        candidate = Calibrated(inner)
        bots[seat] = candidate
        result = play_match(game, bots, seed)
        sheet = result.state.view(seat).to_dict()["sheet"]
        for (round_, bid, shares), line in zip(candidate.bids, sheet, strict=True):
            size = "1-5" if round_ <= 5 else "6-10" if round_ <= 10 else "11-15"
            took = line["tricks"][seat]
            for key in (size, "all"):
                by_size[key].append((shares, (took == bid, took > bid, took < bid)))
    print(f"{args.bot} vs {args.field}, {args.matches} matches: bids in its playouts / at the table")
    print("  rounds        made            over            under")
    for key in ("1-5", "6-10", "11-15", "all"):
        rows = by_size[key]
        if rows:
            cells = []
            for i in range(3):
                playouts = sum(p[i] for p, _ in rows) / len(rows)
                table = sum(t[i] for _, t in rows) / len(rows)
                cells.append(f"{playouts:5.0%} / {table:4.0%}")
            print(f"  {key:5}  " + "   ".join(cells) + f"   ({len(rows)} bids)")


if __name__ == "__main__":
    main()
