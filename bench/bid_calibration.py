"""How well a search bot's playouts predict its own contracts (Wizard).

For every bid the candidate makes, the playouts it ran for the bid it chose
say how often it would make it (``playouts``); the match then says whether it
did (``table``).  A playout self-model much worse at steering its trick count
than the searcher really is shows as ``playouts`` far below ``table``: the bids
are then chosen under the wrong odds (docs/bots.md has the measurements).

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
        self.bids: list[tuple[int, int, float]] = []  # (round, bid, share of playouts that made it)
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
        made = sum(t == bid for t in tricks) / len(tricks) if tricks else float("nan")
        self.bids.append((view.round, bid, made))
        return action

    def _play_out(self, world: State, action: int, seat: int) -> State:
        end = super()._play_out(world, action, seat)
        if self._tricks is not None:
            self._tricks[action].append(end.sheet[-1][1][seat])  # type: ignore[attr-defined]
        return end


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="search:800:model")
    parser.add_argument("--field", default="hard")
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--seed", type=int, default=50)
    args = parser.parse_args()
    game = atout.load("wizard", 4)
    by_size: dict[str, list[tuple[float, bool]]] = defaultdict(list)
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
        for (round_, bid, made), line in zip(candidate.bids, sheet, strict=True):
            size = "1-5" if round_ <= 5 else "6-10" if round_ <= 10 else "11-15"
            for key in (size, "all"):
                by_size[key].append((made, line["tricks"][seat] == bid))
    print(f"{args.bot} vs {args.field}, {args.matches} matches: bids made in its playouts / at the table")
    for key in ("1-5", "6-10", "11-15", "all"):
        rows = by_size[key]
        if rows:
            playouts = sum(m for m, _ in rows) / len(rows)
            table = sum(t for _, t in rows) / len(rows)
            print(f"  rounds {key:5}: {playouts:6.1%} / {table:6.1%}  ({len(rows)} bids)")


if __name__ == "__main__":
    main()
