"""Adapter-level checks: a game works, unchanged, in PettingZoo, Gymnasium and OpenSpiel.

Each check takes a game name, a player count and game options, builds the
adapter and runs the ecosystem's own test tools on it, unchanged (PettingZoo's
``api_test``, ``seed_test`` and ``render_test``; Gymnasium's ``check_env`` on
the registered id; OpenSpiel's ``random_sim_test`` and ``generate_playthrough``)
plus what those tools cannot know: that a seed gives the deals of
``game.new_state(seed)``, that rewards add up to the match scores, that
``max_cycles`` truncates, that an illegal action does what ``illegal_action``
says, that OpenSpiel's information state is perfect recall and the same in
every world sampled from it, that games and states pickle.  The optional
libraries are imported inside the functions: ``pip install
atout[pettingzoo,openspiel]``.
"""

from __future__ import annotations

import json
import pickle
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
    """PettingZoo's ``api_test``, ``seed_test`` and ``render_test``, max_cycles, exact seeding and rewards."""
    from pettingzoo.test import api_test, render_test, seed_test

    from ..envs import pettingzoo_env

    with warnings.catch_warnings():
        # api_test warns that a Dict observation is "probably" not a Box: it is
        # PettingZoo's own convention for masked actions (its classic games' too).
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(pettingzoo_env(name, players, **options), num_cycles=cycles)
    seed_test(lambda: pettingzoo_env(name, players, **options), num_cycles=cycles)
    render_test(lambda render_mode: pettingzoo_env(name, players, render_mode=render_mode, **options))
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


def check_gym_registered(name: str, options: dict[str, Any] | None = None, seed: int = 0) -> None:
    """Gymnasium's ``check_env``, unchanged and with warnings as errors, on the registered id.

    ``gymnasium.make(gym_id(name), **options)`` as shipped (its default
    ``illegal_action="penalty"`` is what lets ``check_env`` step unmasked
    samples), then what each ``illegal_action`` mode promises.
    """
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    from ..envs.single_agent import gym_id

    env = gymnasium.make(gym_id(name), **(options or {}))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
        # The wrapped env too: Gymnasium only warns that it is wrapped.
        warnings.filterwarnings("ignore", message=".*is different from the unwrapped version")
        check_env(env)
    env.close()
    _check_illegal_actions(name, options or {}, seed)


def _illegal_step(env: Any, rng: random.Random, seed: int) -> tuple[Any, float]:
    """Reset, play legal actions until one is illegal; (env, rewards so far) there."""
    import numpy as np

    _, info = env.reset(seed=seed)
    returned = 0.0
    while info["action_mask"].all():
        _, reward, terminated, _, info = env.step(_masked_choice(rng, info["action_mask"]))
        returned += float(reward)
        assert not terminated, "no illegal action in a whole match"
    for _ in range(rng.randrange(4)):  # somewhere into the match, not always at its start
        _, reward, terminated, _, info = env.step(_masked_choice(rng, info["action_mask"]))
        returned += float(reward)
        if terminated or info["action_mask"].all():
            return _illegal_step(env, rng, seed + 1)
    assert not np.all(info["action_mask"])
    return env, returned


def _check_illegal_actions(name: str, options: dict[str, Any], seed: int) -> None:
    from ..core.errors import IllegalAction
    from ..envs import gym_env

    players = options.get("players")
    settings = {k: v for k, v in options.items() if k != "players"}
    rng = random.Random(seed)
    for reward in ("round", "match", "win"):
        env = gym_env(name, players, illegal_action="penalty", reward=reward, **settings)
        env, returned = _illegal_step(env, rng, seed)
        history = list(env.state.history)
        illegal = int(env._observation()["action_mask"].argmin())
        start = env._start
        _, penalty, terminated, truncated, info = env.step(illegal)
        assert terminated and not truncated, f"{name}: an illegal action must end the episode"
        assert info["illegal_action"] is True and isinstance(info["illegal_reason"], str)
        assert env.state.history == history, f"{name}: the illegal action changed the match"
        low = env.game.score_bounds()[0]
        worst = {"round": low - start, "match": low, "win": 0}[reward]
        assert returned + float(penalty) == worst - 1, (
            f"{name}, reward={reward}: the episode returned {returned + float(penalty)}, not {worst - 1}"
        )
        try:
            env.step(illegal)
        except RuntimeError:
            pass
        else:
            raise AssertionError(f"{name}: a step after the penalty must ask for reset()")
        env.close()
    env = gym_env(name, players, illegal_action="substitute", **settings)
    env, _ = _illegal_step(env, rng, seed)
    mask = env._observation()["action_mask"]
    illegal = int(mask.argmin())
    before = len(env.state.history)
    _, _, _, _, info = env.step(illegal)
    assert info["illegal_action"] is True and mask[info["played_action"]] == 1
    assert env.state.history[before] == info["played_action"], f"{name}: the substitute was not played"
    if not env.state.is_terminal:
        _, _, _, _, info = env.step(_masked_choice(rng, info["action_mask"]))
        assert info["illegal_action"] is False
    env.close()
    env = gym_env(name, players, **settings)
    assert env.illegal_action == "raise"
    env, _ = _illegal_step(env, rng, seed)
    history = list(env.state.history)
    try:
        env.step(int(env._observation()["action_mask"].argmin()))
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{name}: illegal_action='raise' did not raise")
    assert env.state.history == history
    env.close()


def check_openspiel(name: str, players: int, options: dict[str, Any], sims: int = 2, seed: int = 0) -> None:
    """OpenSpiel's ``random_sim_test`` (with serialization), tensors, perfect recall, resampling, pickling.

    ``options`` are game options, and may hold the adapter's ``information_state``.
    """
    import numpy as np
    import pyspiel

    from ..envs.openspiel import PAST_DIGEST_SIZE, register, short_name

    register(name)
    params: dict[str, Any] = {"players": players, **options}
    game = pyspiel.load_game(short_name(name), params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)
    atout_game = load(name, players, **{k: v for k, v in options.items() if k != "information_state"})
    perfect = game.information_state == "perfect_recall"
    assert game.observation_tensor_size() == atout_game.observation_tensor_size()
    base = atout_game.information_state_tensor_size()
    assert game.information_state_tensor_size() == base + (PAST_DIGEST_SIZE if perfect else 0)
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and str(again) == str(game) and again.atout == game.atout
    state = game.new_initial_state()
    assert state.is_chance_node(), f"{name}: an OpenSpiel state must start at chance"
    rng = random.Random(seed)
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    step = 0
    finished = 0  # rounds over
    recalled: dict[int, list[Any]] = {}
    while not state.is_terminal():
        before = state.atout_state.round
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            finished += state.atout_state.round != before
            continue
        player = state.current_player()
        text = state.information_state_string(player)
        view = state.atout_state.view(player)
        if perfect:
            _check_recall(name, text, view, recalled.get(player, []), finished)
            recalled[player] = json.loads(text)["past"]
            if step % 13 == 0:
                _check_records_are_redactions(name, state, player, recalled[player])
        else:
            assert json.loads(text) == view.to_dict(), f"{name}: per_round is the view"
        if step % 7 == 0:
            tensor = state.information_state_tensor(player)
            own = np.asarray(atout_game.information_state_tensor(view), np.float32)
            assert np.array_equal(np.asarray(tensor[:base], np.float32), own), (
                f"{name}: not the game's tensor"
            )
            assert all(v in (0.0, 1.0) for v in tensor[base:])
            world = state.resample_from_infostate(player, sampler)
            assert world.current_player() == player
            assert world.information_state_string(player) == text
            assert world.information_state_tensor(player) == tensor
            assert world.observation_tensor(player) == state.observation_tensor(player)
            _play_world(world, rng)
        if step % 53 == 3:
            copy = pickle.loads(pickle.dumps(state))
            assert copy.history() == state.history()
            for seat in range(players):
                assert copy.information_state_string(seat) == state.information_state_string(seat)
                assert copy.information_state_tensor(seat) == state.information_state_tensor(seat)
        state.apply_action(rng.choice(state.legal_actions()))
        finished += state.atout_state.round != before
        step += 1
    assert state.returns() == [float(s) for s in state.atout_state.scores()]


def _check_recall(name: str, text: str, view: Any, before: list[Any], finished: int) -> None:
    """A perfect-recall string: the view now, one record per finished round, never forgetting."""
    data = json.loads(text)
    assert data["view"] == view.to_dict(), f"{name}: the information state shows the view now"
    past = data["past"]
    assert len(past) == finished, f"{name}: {len(past)} records after {finished} finished rounds"
    assert past[: len(before)] == before, f"{name}: the information state forgot a finished round"


def _check_records_are_redactions(name: str, state: Any, player: int, past: list[Any]) -> None:
    """Each record shows exactly the actions ``redacted_history`` lets the seat see (its own cards...)."""
    redacted = state.atout_state.redacted_history(player)
    at = 0
    for record in past:
        seen = record["seen"]
        shown = [r is not None for r in redacted[at : at + len(seen)]]
        assert [t is not None for t in seen] == shown, f"{name}: round {record['round']} recalled wrongly"
        at += len(seen)


def _play_world(world: Any, rng: random.Random, steps: int = 40) -> None:
    """A few moves in a sampled world, rounds ending included: its strings stay defined."""
    for _ in range(steps):
        if world.is_terminal():
            return
        if world.is_chance_node():
            outcomes = world.chance_outcomes()
            world.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        for seat in range(world.num_players()):
            world.information_state_string(seat)
        world.apply_action(rng.choice(world.legal_actions()))


def check_openspiel_playthrough(name: str, players: int, options: dict[str, Any], seed: int = 0) -> str:
    """OpenSpiel's ``generate_playthrough``, replayed from its own action lines to the same text.

    Returns the playthrough.  The public and private observations it prints
    must be the same string for every seat (public) and hold no card dealt to
    another seat (private).
    """
    import re

    from open_spiel.python.algorithms import generate_playthrough

    from ..envs.openspiel import register, short_name

    register(name)
    params = {"players": players, **options}
    game_string = f"{short_name(name)}({','.join(f'{k}={v}' for k, v in sorted(params.items()))})"
    text: str = generate_playthrough.playthrough(game_string, None, seed=seed)
    actions = [int(a) for a in re.findall(r"^action: (-?\d+)$", text, re.MULTILINE)]
    assert actions, f"{name}: the playthrough applied no action"
    again: str = generate_playthrough.playthrough(game_string, actions, seed=seed + 1)
    assert again == text, f"{name}: replaying the playthrough's actions gave another text"
    for kind in ("InformationStateString(0)", "ObservationString(0)", "PublicObservationString()"):
        assert kind in text, f"{name}: the playthrough shows no {kind}"
    for seat in range(players):
        assert f"PrivateObservationString({seat})" in text
    return text


def check_openspiel_multiprocessing(name: str, players: int, options: dict[str, Any]) -> None:
    """A game and a mid-match state go to a fresh (spawned) process and back."""
    import multiprocessing

    import pyspiel

    from ..envs.openspiel import register, short_name

    register(name)
    game = pyspiel.load_game(short_name(name), {"players": players, **options})
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(20):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        back = pool.apply(_strings_in_worker, (game, state))
    assert back == _strings_in_worker(game, state), f"{name}: a worker saw another game or state"


def _strings_in_worker(game: Any, state: Any) -> tuple[str, list[int], list[str]]:
    """What a worker sees of a pickled game and state (module level: spawn pickles it by name)."""
    assert state.get_game().get_type().short_name == game.get_type().short_name
    strings = [state.information_state_string(p) for p in range(game.num_players())]
    return (str(game), [int(a) for a in state.history()], strings)
