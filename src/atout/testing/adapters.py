"""Adapter-level checks: a game works, unchanged, in PettingZoo, Gymnasium and OpenSpiel.

Each check takes a game name, a player count and game options, builds the
adapter and runs the ecosystem's own test tools on it (PettingZoo's
``api_test`` and ``seed_test``, Gymnasium's environment checks, OpenSpiel's
``random_sim_test``) plus what those tools cannot know: that a seed gives the
deals of ``game.new_state(seed)``, that rewards add up to the match scores,
that ``max_cycles`` truncates, that OpenSpiel's information state is the same
in every world sampled from it.  The optional libraries are imported inside
the functions: ``pip install atout[pettingzoo,openspiel]``.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

from ..core.game import CHANCE
from ..core.registry import load


def _masked_choice(rng: random.Random, mask: Any) -> int:
    return rng.choice([a for a, m in enumerate(mask) if m])


def check_pettingzoo(
    name: str, players: int, options: dict[str, Any], seed: int = 0, cycles: int = 400
) -> None:
    """PettingZoo's ``api_test`` and ``seed_test``, a max_cycles check, exact seeding and rewards."""
    from pettingzoo.test import api_test, seed_test

    from ..envs import pettingzoo_env

    with warnings.catch_warnings():
        # api_test warns that a Dict observation is "probably" not a Box: it is
        # PettingZoo's own convention for masked actions (its classic games' too).
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(pettingzoo_env(name, players, **options), num_cycles=cycles)
    seed_test(lambda: pettingzoo_env(name, players, **options), num_cycles=cycles)
    _check_max_cycles(name, players, options)
    _check_pettingzoo_match(name, players, options, seed)


def _check_max_cycles(name: str, players: int, options: dict[str, Any], max_cycles: int = 3) -> None:
    """With ``max_cycles=k`` the match is truncated after ``k * players`` agent steps
    (unless it ended before); every agent then sees its truncation once and leaves."""
    from ..envs import pettingzoo_env

    env = pettingzoo_env(name, players, max_cycles=max_cycles, **options)
    env.reset(seed=1)
    rng = random.Random(1)
    steps = 0
    finished: list[str] = []
    for agent in env.agent_iter(10 * max_cycles * players):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            finished.append(agent)
            env.step(None)
            continue
        env.step(_masked_choice(rng, obs["action_mask"]))
        steps += 1
    terminal = env.unwrapped.state.is_terminal
    assert steps == max_cycles * players or (terminal and steps < max_cycles * players), (
        f"{name}: {steps} agent steps with max_cycles={max_cycles}, {players} players"
    )
    assert sorted(finished) == sorted(env.possible_agents), (
        f"{name}: agents leaving after truncation: {finished}"
    )
    assert env.agents == [], f"{name}: agents left after truncation: {env.agents}"


def _check_pettingzoo_match(name: str, players: int, options: dict[str, Any], seed: int) -> None:
    """``reset(seed=s)`` plays ``game.new_state(s)``; round rewards add up to the scores."""
    from ..envs import pettingzoo_env

    game = load(name, players, **options)
    env = pettingzoo_env(name, players, **options)
    env.reset(seed=seed)
    twin = game.new_state(seed)
    assert env.unwrapped.state.history == twin.history, f"{name}: reset(seed={seed}) dealt other cards"
    rng = random.Random(seed)
    earned = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        earned[agent] += float(reward)
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        assert seat == twin.current_player, f"{name}: {agent} selected, seat {twin.current_player} to act"
        assert list(obs["action_mask"]) == twin.legal_mask(), f"{name}: mask differs from legal_mask"
        action = _masked_choice(rng, obs["action_mask"])
        env.step(action)
        twin.apply(action)
    assert twin.is_terminal and env.unwrapped.state.history == twin.history, f"{name}: match diverged"
    # Rewards are score changes: they add up to the final minus the starting scores.
    gained = [float(e - s) for e, s in zip(twin.scores(), game.new_state(seed).scores(), strict=True)]
    assert [earned[a] for a in env.possible_agents] == gained, (
        f"{name}: round rewards add up to {earned}, the scores moved by {gained}"
    )


def check_gym(
    name: str, players: int, options: dict[str, Any], opponents: str = "random", seed: int = 0
) -> None:
    """Gymnasium's own checks that need no unmasked random action, seeded replay, rewards."""
    import numpy as np
    from gymnasium.utils import env_checker, passive_env_checker
    from gymnasium.utils.passive_env_checker import check_action_space, check_observation_space

    from ..envs import gym_env

    env = gym_env(name, players, seat=players - 1, opponents=opponents, **options)
    check_action_space(env.action_space)
    check_observation_space(env.observation_space)
    env_checker.check_seed_deprecation(env)
    env_checker.check_reset_return_info_deprecation(env)
    env_checker.check_reset_return_type(env)
    env_checker.check_reset_seed_determinism(env)
    env_checker.check_reset_options(env)
    passive_env_checker.env_reset_passive_checker(env, seed=seed)
    obs, _ = env.reset(seed=seed)
    passive_env_checker.env_step_passive_checker(
        env, np.int64(_masked_choice(random.Random(0), obs["action_mask"]))
    )
    runs = []
    for _ in range(2):
        rng = random.Random(seed)
        obs, info = env.reset(seed=seed)
        total, trace = 0.0, []
        while True:
            action = _masked_choice(rng, info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(action)
            assert not truncated
            total += float(reward)
            trace.append((action, float(reward), obs["observation"].tobytes()))
            if terminated:
                break
        start = env.game.new_state(seed).scores()[env.seat]
        gained = float(env.state.scores()[env.seat] - start)
        assert total == gained, f"{name}: rewards add up to {total}, the score moved by {gained}"
        runs.append((trace, list(env.state.history)))
    assert runs[0] == runs[1], f"{name}: the same seed and actions gave another match"
    env.close()


def check_openspiel(name: str, players: int, options: dict[str, Any], sims: int = 2, seed: int = 0) -> None:
    """OpenSpiel's ``random_sim_test`` (with serialization), tensors and resampling."""
    import pyspiel

    from ..envs.openspiel import register, short_name

    register(name)
    params: dict[str, Any] = {"players": players, **options}
    game = pyspiel.load_game(short_name(name), params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)
    atout_game = load(name, players, **options)
    assert game.observation_tensor_size() == atout_game.observation_tensor_size()
    assert game.information_state_tensor_size() == atout_game.information_state_tensor_size()
    state = game.new_initial_state()
    assert state.is_chance_node(), f"{name}: an OpenSpiel state must start at chance"
    rng = random.Random(seed)
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    step = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        player = state.current_player()
        if step % 7 == 0:
            world = state.resample_from_infostate(player, sampler)
            assert world.current_player() == player
            assert world.information_state_string(player) == state.information_state_string(player)
            assert world.information_state_tensor(player) == state.information_state_tensor(player)
            assert world.observation_tensor(player) == state.observation_tensor(player)
        state.apply_action(rng.choice(state.legal_actions()))
        step += 1
    assert state.returns() == [float(s) for s in state.atout_state.scores()]
