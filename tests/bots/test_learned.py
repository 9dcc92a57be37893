"""Learned models at play time: the file format, the layout check, the policy bot (numpy only)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import atout
from atout.bots import learned
from atout.bots.factory import make_bot
from atout.bots.learned import ModelMismatch, PolicyBot, PolicyModel, action_fingerprint, layout_of
from atout.core.errors import OptionError
from atout.core.game import Game
from atout.match import play_match

MODELS = Path(learned.__file__).parent / "models"
SHIPPED = sorted(MODELS.glob("*.npz"))


def random_model(game: Game, hidden: int = 8, seed: int = 0) -> PolicyModel:
    """An untrained model in the right shape for ``game``."""
    rng = np.random.default_rng(seed)
    width = game.information_state_tensor_size()

    def layer(a: int, b: int) -> tuple[Any, Any]:
        return rng.normal(size=(a, b)).astype(np.float32), rng.normal(size=b).astype(np.float32)

    meta = {
        "game": game.name,
        "players": game.players,
        "layout": layout_of(game),
        "num_actions": game.num_actions,
        "actions": action_fingerprint(game),
        "value_scale": 2.0,
    }
    return PolicyModel(meta, (layer(width, hidden),), layer(hidden, game.num_actions), layer(hidden, 1))


def test_a_model_round_trips_through_its_file(tmp_path: Path) -> None:
    game = atout.load("wizard", players=4)
    model = random_model(game)
    model.save(tmp_path / "m.npz")
    again = PolicyModel.load(tmp_path / "m.npz")
    again.check(game)
    x = np.random.default_rng(1).random((3, game.information_state_tensor_size()), dtype=np.float32)
    # Saved as float16: the answers move by little.
    assert np.allclose(model.forward(x)[0], again.forward(x)[0], rtol=0.05, atol=0.05)
    assert again.value_scale == 2.0 and again.meta["hidden_layers"] == 1


def test_a_model_is_refused_by_another_game_or_player_count(tmp_path: Path) -> None:
    model = random_model(atout.load("wizard", players=4))
    with pytest.raises(ModelMismatch, match="plays wizard, not malin"):
        model.check(atout.load("malin", players=4))
    with pytest.raises(ModelMismatch, match="at 4 players, not 3"):
        model.check(atout.load("wizard", players=3))


def test_a_model_reading_another_layout_is_refused_naming_the_block() -> None:
    game = atout.load("wizard", players=4)
    model = random_model(game)
    layout = [list(block) for block in model.meta["layout"]]
    layout[1][1] += 1  # the "round" block one wider than this version writes it
    altered = PolicyModel({**model.meta, "layout": layout}, model.trunk, model.policy, model.value)
    with pytest.raises(ModelMismatch, match="blocks that differ: round"):
        altered.check(game)


def test_a_model_answering_in_other_action_ids_is_refused() -> None:
    game = atout.load("wizard", players=4)
    model = random_model(game)
    other = PolicyModel({**model.meta, "actions": "0" * 16}, model.trunk, model.policy, model.value)
    with pytest.raises(ModelMismatch, match="other action ids"):
        other.check(game)
    # An option that renumbers nothing keeps the ids; one that changes the layout is refused.
    assert action_fingerprint(atout.load("wizard", players=4, plus_minus_one=True)) == model.meta["actions"]


def test_files_that_are_not_models_are_refused_clearly(tmp_path: Path) -> None:
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip at all")
    with pytest.raises(ModelMismatch, match="not a model file"):
        PolicyModel.load(junk)
    np.savez(tmp_path / "other.npz", w0=np.zeros(3))
    with pytest.raises(ModelMismatch, match="no readable 'meta'"):
        PolicyModel.load(tmp_path / "other.npz")
    game = atout.load("wizard", players=4)
    model = random_model(game)
    model.save(tmp_path / "m.npz")
    with np.load(tmp_path / "m.npz") as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(bytes(arrays["meta"]).decode())
    arrays["meta"] = np.frombuffer(json.dumps({**meta, "version": 99}).encode(), dtype=np.uint8)
    np.savez(tmp_path / "future.npz", **arrays)
    with pytest.raises(ModelMismatch, match="format version 99"):
        PolicyModel.load(tmp_path / "future.npz")
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    arrays["wp"] = arrays["wp"][:, :5]
    np.savez(tmp_path / "cut.npz", **arrays)
    with pytest.raises(ModelMismatch, match="the policy head has shape"):
        PolicyModel.load(tmp_path / "cut.npz")
    arrays["bp"] = arrays["bp"][:5]
    np.savez(tmp_path / "cut.npz", **arrays)
    with pytest.raises(ModelMismatch, match="heads do not match 74 actions"):
        PolicyModel.load(tmp_path / "cut.npz")
    with pytest.raises(OptionError, match="not a model file"):
        make_bot(f"net:{tmp_path / 'missing.npz'}", game, 1)


def test_the_policy_bot_answers_from_the_view_only() -> None:
    """Worlds consistent with a view give the same answer: the bot reads the view, nothing else."""
    import random

    game = atout.load("wizard", players=4)
    bot = PolicyBot(0, random_model(game, seed=5))
    bot.start(game, 0)
    state = game.new_state(seed=9)
    rng = random.Random(2)
    checked = 0
    while not state.is_terminal and checked < 12:
        seat = state.current_player
        view = state.view(seat)
        if len(view.legal_actions) > 1:
            bot.start(game, seat)
            answer = bot.choose(view)
            assert answer in view.legal_actions
            world = game.sample_state(view, rng)
            assert bot.choose(world.view(seat)) == answer
            checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert checked == 12


def test_no_model_for_a_player_count_is_said_plainly() -> None:
    """Where no policy network is shipped for the table's player count, the level is refused
    with the counts that have one and how to make one (never another count's model)."""
    game = atout.load("malin", players=5)
    assert not (MODELS / "malin-5p.npz").exists()
    with pytest.raises(ModelMismatch, match=r"malin at 4 players only, not at 5; train one \(atout train"):
        make_bot("policy", game, 1)


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_models_load_and_play_with_numpy_only(path: Path) -> None:
    """In a process where PyTorch cannot be imported: the shipped model loads and plays a match."""
    name, players = path.stem.rsplit("-", 1)
    script = f"""
import sys
sys.modules["torch"] = None  # importing torch now fails
import atout
from atout.bots.factory import make_bot
from atout.match import play_match
game = atout.load({name!r}, players={int(players[:-1])})
bots = [make_bot("policy", game, 1)] + [make_bot("normal", game, s) for s in range(2, game.players + 1)]
result = play_match(game, bots, seed=5)
assert "torch" not in sys.modules or sys.modules["torch"] is None
print(len(result.state.scores()), bots[0].model.meta["training"]["decisions"])
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    seats, decisions = done.stdout.split()
    assert int(seats) == int(players[:-1]) and int(decisions) > 0
    assert path.stat().st_size < 4 << 20  # a few MB at most


def test_every_game_at_four_players_ships_a_model() -> None:
    """Every game at 4 players, and Wizard at every count it is played at (issue 49)."""
    assert sorted(p.stem for p in SHIPPED) == [
        "malin-4p",
        "nain-jaune-4p",
        "sticheln-4p",
        "wizard-3p",
        "wizard-4p",
        "wizard-5p",
        "wizard-6p",
    ]
    for path in SHIPPED:
        name, players = path.stem.rsplit("-", 1)
        game = atout.load(name, players=int(players[:-1]))
        PolicyModel.load(path).check(game)
        bots = [make_bot("policy", game, s) for s in range(game.players)]
        assert play_match(game, bots, seed=2).state.is_terminal


def test_policy_reads_the_model_of_the_tables_player_count() -> None:
    """The level picks the file of the table's count; a count without one is refused, never
    served another count's network (its tensors would mean something else)."""
    for players in (3, 4, 5, 6):
        bot = make_bot("policy", atout.load("wizard", players=players), 1)
        assert isinstance(bot, PolicyBot) and bot.model is not None
        assert bot.model.meta["players"] == players
    with pytest.raises(ModelMismatch, match="sticheln at 4 players only, not at 3"):
        make_bot("policy", atout.load("sticheln", players=3), 1)


PLAYOUT_SHIPPED = sorted((MODELS / "playout").glob("*.npz"))


@pytest.mark.parametrize("path", PLAYOUT_SHIPPED, ids=[p.stem for p in PLAYOUT_SHIPPED])
def test_shipped_playout_networks_load_and_serve_master_with_numpy_only(path: Path) -> None:
    """In a process where PyTorch cannot be imported: master draws its playouts from the shipped
    playout network (not the policy network) and decides."""
    name, players = path.stem.rsplit("-", 1)
    script = f"""
import sys
sys.modules["torch"] = None  # importing torch now fails
import atout
from atout.bots.factory import make_bot
from atout.bots.learned import ModelMismatch, shipped_model, shipped_playout_model
game = atout.load({name!r}, players={int(players[:-1])})
master = make_bot("master", game, 1, caps=False)
assert master.model is shipped_playout_model(game) is not None
try:
    assert master.model is not shipped_model(game)
except ModelMismatch:
    pass  # no policy network is shipped at this player count
assert master.sample
state = game.new_state(seed=3)
while len(state.legal_actions()) < 2:
    state.apply(state.legal_actions()[0])
seat = state.current_player
master.start(game, seat)
assert master.choose(state.view(seat)) in state.legal_actions()
assert "torch" not in sys.modules or sys.modules["torch"] is None
print(master.model.meta["training"]["distilled"]["decisions"])
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) > 0
    assert path.stat().st_size < 4 << 20  # a few MB at most


def test_playout_networks_are_shipped_for_three_games_and_fit_them() -> None:
    """The playout networks shipped: each reads its game's layout; the games without one keep their master."""
    assert [p.stem for p in PLAYOUT_SHIPPED] == [
        "malin-3p",
        "malin-4p",
        "malin-5p",
        "malin-6p",
        "nain-jaune-3p",
        "nain-jaune-4p",
        "nain-jaune-6p",
        "sticheln-4p",
    ]
    for path in PLAYOUT_SHIPPED:
        name, players = path.stem.rsplit("-", 1)
        model = PolicyModel.load(path)
        model.check(atout.load(name, players=int(players[:-1])))
        assert model.meta["training"]["distilled"]["teacher"] == "batch:2000"
    assert learned.shipped_playout_model(atout.load("nain-jaune", players=5)) is None
    assert learned.shipped_playout_model(atout.load("sticheln", players=5)) is None
    assert learned.shipped_playout_model(atout.load("sticheln", players=6)) is None


def test_a_playout_network_that_no_longer_fits_its_game_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shipped playout file whose layout is not the game's is refused with the reason, never used."""
    game = atout.load("sticheln", players=4)
    wrong = random_model(game)
    wrong.meta["layout"] = wrong.meta["layout"][:-1]
    monkeypatch.setitem(learned._PLAYOUT_CACHE, (game.name, game.players), wrong)
    with pytest.raises(ModelMismatch, match="another tensor layout"):
        make_bot("master", game, 1)


def test_the_wheel_ships_every_model() -> None:
    """The build backend's package data covers the policy and the playout networks."""
    import tomllib

    root = Path(atout.__file__).parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    package = root / "src" / "atout"
    shipped = {
        p for pattern in config["tool"]["setuptools"]["package-data"]["atout"] for p in package.glob(pattern)
    }
    assert set(SHIPPED) | set(PLAYOUT_SHIPPED) | set(SMALL_SHIPPED) <= shipped
    assert PLAYOUT_SHIPPED and SMALL_SHIPPED
    assert set(MODELS.rglob("*.npz")) == set(SHIPPED) | set(PLAYOUT_SHIPPED) | set(SMALL_SHIPPED)


SMALL_SHIPPED = sorted((MODELS / "small").glob("*.npz"))


@pytest.mark.parametrize("path", SMALL_SHIPPED, ids=[p.stem for p in SMALL_SHIPPED])
def test_shipped_small_networks_load_and_play_legal_games_with_numpy_only(path: Path) -> None:
    """In a process where PyTorch cannot be imported: the small network (the vector env's ``policy``
    opponents, issue 49) loads, fits its game, is smaller than the ``policy`` bot's, and plays whole
    legal matches from every seat as a ``net:PATH`` bot (the engine refuses an illegal action)."""
    name, players = path.stem.rsplit("-", 1)
    script = f"""
import sys
sys.modules["torch"] = None  # importing torch now fails
import atout
from atout.bots.factory import make_bot
from atout.bots.learned import shipped_model, shipped_small_model
from atout.match import play_match
game = atout.load({name!r}, players={int(players[:-1])})
small = shipped_small_model(game)
assert small is not None and small.prior_weight is not None
assert small.trunk[0][0].shape[1] < shipped_model(game).trunk[0][0].shape[1]
for seed in (3, 4):
    bots = [make_bot("net:{path}", game, s) for s in range(game.players)]
    assert play_match(game, bots, seed=seed).state.is_terminal
assert "torch" not in sys.modules or sys.modules["torch"] is None
print(small.meta["training"]["decisions"], small.meta["training"]["held_out_agreement"])
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    decisions, agreement = done.stdout.split()
    assert int(decisions) > 100_000 and float(agreement) > 0.95
    assert path.stat().st_size < 1 << 20
