"""Starting anywhere (issue 49): ``reset(options={"position": text})`` in the single-agent, vector and
PettingZoo envs, and the vector env's staggered starts."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import atout
from atout.core.game import State
from atout.envs import gym_env
from atout.envs.aec import AtoutAECEnv
from atout.envs.single_agent import AtoutGymEnv
from atout.envs.vector import AtoutVectorEnv


def position_after(name: str, moves: int, seed: int = 5, **options: Any) -> tuple[str, State]:
    """A seedless position reached by ``moves`` first-legal moves of the seeded match, and that state."""
    game = atout.load(name, 4, **options)
    state = game.new_state(seed)
    for _ in range(moves):
        state.apply(state.legal_actions()[0])
    return state.position().split(" seed=")[0], state


@pytest.mark.parametrize("name", ["wizard", "malin", "sticheln", "nain-jaune"])
def test_the_single_env_starts_at_the_position(name: str) -> None:
    position, reached = position_after(name, 25)
    game = atout.load(name, 4)
    seat = reached.current_player  # the agent is to act at the position: its observation is the position's
    env = AtoutGymEnv(game, seat=seat, opponents="heuristic")
    obs, _ = env.reset(seed=9, options={"position": position})
    expected = game.new_state(9, position=position)
    assert env.state.round == reached.round
    assert env.state.start == expected.start
    assert (
        obs["observation"] == np.asarray(game.information_state_tensor(expected.view(seat)), dtype=np.float32)
    ).all()
    # The episode plays on to the match's end from there.
    while True:
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, _, done, _, _ = env.step(action)
        if done:
            break
    assert env.state.is_terminal


def test_the_vector_env_starts_every_env_at_the_position() -> None:
    position, reached = position_after("wizard", 30)
    N = 4
    env = AtoutVectorEnv("wizard", N, 4, seat=1, opponents="heuristic")
    obs, _ = env.reset(seed=10, options={"position": position})
    game = atout.load("wizard", 4)
    assert env.batch is not None and env.batch.round.tolist() == [reached.round] * N
    rng = np.random.default_rng(3)
    singles = [AtoutGymEnv(game, seat=1, opponents="heuristic") for _ in range(N)]
    expected = [s.reset(seed=10 + i, options={"position": position})[0] for i, s in enumerate(singles)]
    for _ in range(30):  # the round's end, and the next rounds dealt from each env's seed
        for i in range(N):
            assert (expected[i]["observation"] == obs["observation"][i]).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()])
        obs, rewards, _, _, _ = env.step(actions)
        for i in range(N):
            expected[i], reward, _, _, _ = singles[i].step(int(actions[i]))
            assert reward == rewards[i]


def test_the_pettingzoo_env_starts_at_the_position() -> None:
    position, reached = position_after("sticheln", 20)
    env = AtoutAECEnv(atout.load("sticheln", 4))
    env.reset(seed=4, options={"position": position})
    assert env.state.round == reached.round
    assert env.state.start == atout.load("sticheln", 4).new_state(4, position=position).start
    assert env.agent_selection == env.possible_agents[reached.current_player]


def envs() -> list[tuple[str, Any]]:
    game = atout.load("wizard", 4)
    return [
        ("single", lambda options: AtoutGymEnv(game).reset(seed=1, options=options)),
        ("gym_env", lambda options: gym_env("wizard", players=4).reset(seed=1, options=options)),
        ("vector", lambda options: AtoutVectorEnv("wizard", 2, 4).reset(seed=1, options=options)),
        ("pettingzoo", lambda options: AtoutAECEnv(game).reset(seed=1, options=options)),
    ]


@pytest.mark.parametrize(("where", "reset"), envs(), ids=[name for name, _ in envs()])
def test_a_position_that_does_not_parse_or_fit_is_refused(where: str, reset: Any) -> None:
    position, _ = position_after("wizard", 10)
    with pytest.raises(ValueError, match="'garbage' is not a field"):
        reset({"position": "round=3 garbage"})
    # Three players' scores for a four-player game: the field at fault is named.
    with pytest.raises(ValueError, match="position, scores: 3 entries for 4 seats"):
        reset({"position": re.sub(r"scores=\S+", "scores=0,0,0", position)})
    with pytest.raises(ValueError, match="position"):
        reset({"position": position_after("malin", 10)[0]})  # another game's notation
    if where != "pettingzoo":  # PettingZoo's own API tests reset with other keys: let pass there
        with pytest.raises(ValueError, match="takes the option"):
            reset({"start": position})
    with pytest.raises(ValueError, match="is a text"):
        reset({"position": 3})


def test_a_finished_match_is_refused() -> None:
    game = atout.load("wizard", 4, rounds=1)
    state = game.new_state(2)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    env = AtoutGymEnv(game)
    with pytest.raises(ValueError, match="finished match"):
        env.reset(seed=1, options={"position": state.position().split(" seed=")[0]})


def test_staggered_starts_by_default_and_lockstep_on_request() -> None:
    N = 32
    staggered = AtoutVectorEnv("wizard", N, 4)
    staggered.reset(seed=0)
    assert staggered.batch is not None
    rounds = staggered.batch.round
    assert len(set(rounds.tolist())) > 5  # the first matches start at rounds drawn among 1..15
    lockstep = AtoutVectorEnv("wizard", N, 4, stagger=False)
    lockstep.reset(seed=0)
    assert lockstep.batch is not None and lockstep.batch.round.tolist() == [1] * N
    # After its first match, each env's matches are whole: the next one starts at round 1.
    env = AtoutVectorEnv("wizard", 6, 4, rounds=3)
    env.reset(seed=2)
    assert env.batch is not None
    rng = np.random.default_rng(0)
    restarted = 0
    while restarted < 6:
        masks = env.action_masks()
        _, _, terminated, _, _ = env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        if terminated.any():
            was = terminated.copy()
            masks = env.action_masks()
            env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))  # NEXT_STEP: the reset
            assert (env.batch.round[was] == 1).all()
            restarted += int(was.sum())


def test_gymnasium_make_keeps_action_masks_and_the_order() -> None:
    import gymnasium

    from atout.envs.single_agent import gym_id

    env = gymnasium.make(gym_id("wizard"), players=4)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    obs, _ = env.reset(seed=1)
    masks = env.action_masks()  # type: ignore[attr-defined]
    assert (masks == obs["action_mask"].astype(bool)).all()
