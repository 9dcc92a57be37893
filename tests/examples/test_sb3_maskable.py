"""examples/sb3_maskable.py: MaskablePPO takes a few steps on the single env and on the vector env (its
documented route, ``atout.envs.sb3``), and the saved policy plays a whole match as a ``py:`` bot."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib", reason="sb3-contrib not installed: the optional 'sb3' extra")

import atout
from atout.bots.factory import make_bot
from atout.match import BotError, play_match

from .conftest import EXAMPLES, load_example

TINY = [
    "--n-steps", "16", "--batch-size", "32", "--epochs", "1", "--hidden", "16",
    "--timesteps", "64", "--option", "rounds=2", "--seed", "2",
]  # fmt: skip


@pytest.mark.parametrize(("route", "envs"), [("vector", "4"), ("single", "2")])
def test_maskable_ppo_trains_and_its_policy_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, route: str, envs: str
) -> None:
    out = tmp_path / route
    model = load_example("sb3_maskable").main([*TINY, "--route", route, "--envs", envs, "--out", str(out)])
    assert model.num_timesteps >= 64
    assert out.with_suffix(".zip").is_file() and out.with_suffix(".json").is_file()
    monkeypatch.setenv("ATOUT_SB3_MODEL", str(out))
    spec = f"py:{EXAMPLES / 'sb3_maskable.py'}:Learned"
    game = atout.load("wizard", 4, rounds=2)
    bots = [make_bot(spec, game, seed=0), *(make_bot("normal", game, seed=s) for s in (1, 2, 3))]
    assert play_match(game, bots, 9).state.is_terminal  # an illegal answer would abort (BotError)
    with pytest.raises(BotError, match="at 4 players"):  # another configuration: refused
        play_match(atout.load("wizard", 3, rounds=2), [make_bot(spec, game, seed=0)] * 3, 9)


def test_self_play_and_a_league_snapshot_on_the_vector_route(tmp_path: Path) -> None:
    example = load_example("sb3_maskable")
    first = example.main([*TINY, "--envs", "4", "--out", str(tmp_path / "first"), "--verbose", "0"])
    assert first.num_timesteps >= 64
    snapshot = f"sb3:{tmp_path / 'first.zip'}"
    args = [*TINY, "--envs", "4", "--out", str(tmp_path / "second"), "--verbose", "0"]
    model = example.main([*args, "--opponents", f"self,{snapshot},heuristic"])
    assert model.num_timesteps >= 64 and example.SELF.model is model

    with pytest.raises(SystemExit, match=r"--opponents: SB3Policy.load: no saved model at .*missing\.zip"):
        example.main([*args, "--opponents", f"self,sb3:{tmp_path / 'missing.zip'},heuristic"])
