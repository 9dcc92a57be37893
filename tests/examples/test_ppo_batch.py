"""examples/ppo_batch.py: a few seconds of training write a model that atout's bots load and play legally."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

import atout
from atout.bots.factory import make_bot
from atout.bots.learned import PolicyModel
from atout.match import BotError, play_match

from .conftest import EXAMPLES, load_example

#: A tiny run: few matches, a small network, two updates (every role: self-play, heuristic, random,
#: and from the second update a frozen snapshot).
TINY = [
    "--envs", "16", "--rollout", "256", "--minibatch", "128", "--hidden", "16",
    "--updates", "2", "--snapshot-every", "1", "--eval-every", "0", "--seed", "3",
]  # fmt: skip

OPTIONS = {
    "wizard": {"rounds": 3},
    "malin": {"rounds": 1},
    "sticheln": {"hands": 1},
    "nain-jaune": {"max_deals": 1},
}


def train(tmp_path: Path, game: str, name: str = "model.npz") -> Path:
    out = tmp_path / name
    argv = [*TINY, "--game", game, "--out", str(out)]
    for key, value in OPTIONS[game].items():
        argv += ["--option", f"{key}={value}"]
    load_example("ppo_batch").main(argv)
    return out


def play_whole_match(path_or_bot: str, game: atout.Game, seed: int = 11) -> None:
    """One learned seat against three heuristics: a BotError would abort on an illegal action."""
    bots = [make_bot(path_or_bot, game, seed=0), *(make_bot("normal", game, seed=s) for s in (1, 2, 3))]
    result = play_match(game, bots, seed)
    assert result.state.is_terminal


@pytest.mark.parametrize("game", sorted(OPTIONS))
def test_every_game_trains_and_plays_through_net(tmp_path: Path, game: str) -> None:
    out = train(tmp_path, game)
    model = PolicyModel.load(out)
    assert model.meta["training"]["updates"] == 2 and model.game_name == atout.load(game, 4).name
    play_whole_match(f"net:{out}", atout.load(game, 4, **OPTIONS[game]))


def test_runs_are_reproducible_and_the_py_bot_plays_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same seed and ``--updates``: the same weights; the example's ``Learned`` bot plays as ``net:``."""
    first, second = train(tmp_path, "wizard", "a.npz"), train(tmp_path, "wizard", "b.npz")
    a, b = PolicyModel.load(first), PolicyModel.load(second)
    for (wa, ba), (wb, bb) in zip((*a.trunk, a.policy, a.value), (*b.trunk, b.policy, b.value), strict=True):
        assert np.array_equal(wa, wb) and np.array_equal(ba, bb)
    game = atout.load("wizard", 4, rounds=3)
    monkeypatch.setenv("ATOUT_PPO_MODEL", str(first))
    spec = f"py:{EXAMPLES / 'ppo_batch.py'}:Learned"
    net, py = make_bot(f"net:{first}", game, seed=0), make_bot(spec, game, seed=0)
    field = [make_bot("normal", game, seed=s) for s in (1, 2, 3)]
    by_net = play_match(game, [net, *field], 5).state.scores()
    field = [make_bot("normal", game, seed=s) for s in (1, 2, 3)]
    assert play_match(game, [py, *field], 5).state.scores() == by_net
    with pytest.raises(BotError, match="4 players"):  # another configuration: refused, not guessed
        play_match(atout.load("wizard", 3, rounds=3), [make_bot(spec, game, seed=0)] * 3, 5)


def test_an_evaluation_the_clock_stops_is_dropped(tmp_path: Path) -> None:
    """``--minutes`` bounds the whole run: an evaluation past the deadline gives no figure (issue 49).

    Before, a 0.5-minute run on the loaded 2-core machine ran 4 minutes: its progress
    evaluation (a full match per seat on 32 deals) started inside the budget and ran on.
    """
    example = load_example("ppo_batch")
    model = PolicyModel.load(train(tmp_path, "wizard"))
    args = example.parse(["--game", "wizard", "--eval-deals", "2", "--option", "rounds=1"])
    assert example.evaluate(model, args, deadline=time.monotonic() - 1) is None
    margin, half = example.evaluate(model, args)
    assert np.isfinite(margin) and half >= 0
