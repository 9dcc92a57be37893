"""The batch vector env against the engine's single-agent env, Gymnasium's tools, and its own contract.

The reference: with heuristic opponents both envs are deterministic, so an
:class:`AtoutVectorEnv` of N matches and N engine-backed
:class:`AtoutGymEnv` reset with the same match seeds must return the same
observations, masks, rewards and terminations step after step, through
auto-resets (the engine env is reset with the seed the vector env reports).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

import atout
from atout import IllegalAction
from atout.batch import StichelnBatch, WizardBatch
from atout.envs.single_agent import AtoutGymEnv, gym_id
from atout.envs.vector import AtoutVectorEnv, batch_class

#: Every game with a batch (the vector env is generic: it finds each one's batch class by name).
CASES = [("wizard", {"rounds": 3}), ("sticheln", {"hands": 2}), ("malin", {}), ("nain-jaune", {})]


def legal_choices(obs: dict[str, np.ndarray[Any, Any]], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in obs["action_mask"]])


@pytest.mark.parametrize(("name", "options"), CASES)
@pytest.mark.parametrize(
    ("seat", "tensor", "reward", "mode"),
    [
        (0, "information_state", "round", AutoresetMode.NEXT_STEP),
        (2, "observation", "match", AutoresetMode.SAME_STEP),
        (1, "observation", "win", AutoresetMode.NEXT_STEP),
        (3, "observation", "round", AutoresetMode.SAME_STEP),
    ],
)
def test_equals_the_single_agent_env(
    name: str, options: dict[str, Any], seat: int, tensor: str, reward: str, mode: AutoresetMode
) -> None:
    N = 3
    env = AtoutVectorEnv(
        name,
        N,
        4,
        seat=seat,
        opponents="heuristic",
        tensor=tensor,
        reward=reward,
        autoreset_mode=mode,
        stagger=False,  # the engine's whole matches 40, 41, 42 from their first round
        **options,
    )
    obs, infos = env.reset(seed=40)
    assert env.match_seeds == [40, 41, 42]
    assert env.observation_space.contains(obs)
    game = atout.load(name, 4, **options)
    singles = [
        AtoutGymEnv(game, seat=seat, opponents="heuristic", tensor=tensor, reward=reward) for _ in range(N)
    ]
    expected = [e.reset(seed=s)[0] for e, s in zip(singles, env.match_seeds, strict=True)]
    rng = np.random.default_rng(seat)
    episodes, returns = 0, np.zeros(N)
    # A match's score before any decision (a game may score in its deal: Le Nain Jaune's stakes).
    starts = [float(game.new_state(s).scores()[seat]) for s in env.match_seeds]
    resetting = np.zeros(N, dtype=bool)
    while episodes < 2 * N:
        for i in range(N):
            if resetting[i]:
                continue
            assert (expected[i]["observation"] == obs["observation"][i]).all()
            assert (expected[i]["action_mask"] == obs["action_mask"][i]).all()
            assert (infos["action_mask"][i] == obs["action_mask"][i]).all()
        actions = legal_choices(obs, rng)
        obs, rewards, terminations, truncations, infos = env.step(actions)
        assert not truncations.any() and not infos["illegal_action"].any()
        returns += rewards
        for i in range(N):
            if mode == AutoresetMode.NEXT_STEP and resetting[i]:
                # The step after a terminal one resets: reward 0, the new match's first decision.
                assert rewards[i] == 0.0 and not terminations[i]
                continue
            single_obs, single_reward, done, _, _ = singles[i].step(int(actions[i]))
            assert rewards[i] == single_reward and terminations[i] == done
            if done:
                episodes += 1
                final = singles[i].state.scores()
                assert infos["_final_info"][i] and infos["final_info"]["scores"][i].tolist() == final
                if mode == AutoresetMode.NEXT_STEP:
                    # The ended match's last observation; every action accepted (the next step ignores it).
                    assert (single_obs["observation"] == obs["observation"][i]).all()
                    assert obs["action_mask"][i].all() and env.action_masks()[i].all()
                    assert infos["scores"][i].tolist() == final
                # Round rewards add up to the score's change over the match; a match reward is the
                # final score; a win reward is 1 shared among the winners.
                winners = singles[i].state.winners()
                expected_return = {
                    "round": final[seat] - starts[i],
                    "match": final[seat],
                    "win": 1.0 / len(winners) if seat in winners else 0.0,
                }[reward]
                assert returns[i] == expected_return
                returns[i] = 0.0
                if mode == AutoresetMode.NEXT_STEP:
                    resetting[i] = True
                    continue
                single_obs, _ = singles[i].reset(seed=env.match_seeds[i])
                starts[i] = float(game.new_state(env.match_seeds[i]).scores()[seat])
            expected[i] = single_obs
        for i in np.flatnonzero(resetting & ~terminations).tolist():  # reset by this step
            resetting[i] = False
            expected[i], _ = singles[i].reset(seed=env.match_seeds[i])
            starts[i] = float(game.new_state(env.match_seeds[i]).scores()[seat])


def test_opponents_per_seat_follow_seat_order() -> None:
    # Seat 1 learns; the others, in seat order as for AtoutGymEnv: 0 heuristic, 2 random, 3 heuristic.
    env = AtoutVectorEnv("sticheln", 2, 4, seat=1, opponents=["heuristic", "random", "heuristic"], hands=1)
    assert env._policy == [
        "heuristic",
        "heuristic",
        "random",
        "heuristic",
    ]  # seat 1's: plays abandoned matches
    env = AtoutVectorEnv("sticheln", 2, 4, seat=3, opponents=["random", "random", "heuristic"], hands=1)
    assert env._policy == ["random", "random", "heuristic", "random"]


def test_seeding_reproduces_and_gymnasium_wrappers_run() -> None:
    def run(seed: int) -> list[Any]:
        env = AtoutVectorEnv(WizardBatch, 4, 3, opponents=["random", "heuristic"], rounds=2)
        out: list[Any] = [env.reset(seed=seed)]
        rng = np.random.default_rng(5)
        for _ in range(12):
            out.append(env.step(legal_choices(out[-1][0], rng)))
        return out

    first, again, other = run(7), run(7), run(8)
    assert data_equivalence(first, again, exact=True)
    assert not data_equivalence(first, other)
    # Gymnasium's own vector wrappers: episode statistics (both autoreset modes) and list infos.
    for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        env = RecordEpisodeStatistics(
            AtoutVectorEnv(StichelnBatch, 3, 3, opponents="random", hands=1, autoreset_mode=mode.value)
        )
        assert env.metadata["autoreset_mode"] == mode
        obs, _ = env.reset(seed=3)
        rng = np.random.default_rng(0)
        finals: list[float] = []
        while len(finals) < 4:
            obs, _, terminations, _, infos = env.step(legal_choices(obs, rng))
            assert env.observation_space.contains(obs)
            for i in np.flatnonzero(terminations).tolist():
                assert infos["episode"]["r"][i] == infos["final_info"]["scores"][i][0]
                finals.append(infos["episode"]["r"][i])
    listed = DictInfoToList(AtoutVectorEnv(StichelnBatch, 2, 3, hands=1))
    _, info_list = listed.reset(seed=1)
    assert len(info_list) == 2 and info_list[1]["match_seed"] == 2


def test_illegal_actions_raise_penalise_or_substitute() -> None:
    env = AtoutVectorEnv(StichelnBatch, 2, 3, hands=1)
    obs, _ = env.reset(seed=11)
    illegal = np.array(
        [int(np.flatnonzero(obs["action_mask"][0] == 0)[0]), int(np.flatnonzero(obs["action_mask"][1])[0])]
    )
    with pytest.raises(IllegalAction, match="env 0"):
        env.step(illegal)
    with pytest.raises(ValueError, match="shape"):
        env.step(np.array([0]))
    # Nothing moved: the same legal actions give what a fresh env gives.
    fresh = AtoutVectorEnv(StichelnBatch, 2, 3, hands=1)
    fresh.reset(seed=11)
    legal = legal_choices(obs, np.random.default_rng(1))
    assert data_equivalence(env.step(legal), fresh.step(legal), exact=True)

    env = AtoutVectorEnv(StichelnBatch, 2, 3, hands=1, illegal_action="penalty")
    obs, _ = env.reset(seed=11)
    low = StichelnBatch(3, [0], hands=1).game.score_bounds()[0]
    assert env.penalty().tolist() == [low - 1.0, low - 1.0]
    obs, rewards, terminations, _, infos = env.step(illegal)
    assert terminations.tolist() == [True, False] and infos["illegal_action"].tolist() == [True, False]
    assert rewards[0] == low - 1.0
    # NEXT_STEP: the abandoned match stays as it was until the next step, which starts the next one.
    assert env.match_seeds[0] == 11 and obs["action_mask"][0].all()
    obs, rewards, terminations, _, _ = env.step(np.array([0, int(np.flatnonzero(obs["action_mask"][1])[0])]))
    assert env.match_seeds[0] == 13 and rewards[0] == 0.0 and not terminations[0]
    assert env.batch is not None and env.batch.current_player[0] == 0
    # SAME_STEP: the next match starts within the step.
    env = AtoutVectorEnv(StichelnBatch, 2, 3, hands=1, illegal_action="penalty", autoreset_mode="same_step")
    env.reset(seed=11)
    obs, rewards, terminations, _, infos = env.step(illegal)
    assert terminations.tolist() == [True, False] and rewards[0] == low - 1.0
    assert env.match_seeds[0] == 13  # the abandoned match dropped; the next one started
    assert obs["action_mask"][0].any() and env.batch is not None and env.batch.current_player[0] == 0

    env = AtoutVectorEnv(StichelnBatch, 2, 3, hands=1, illegal_action="substitute")
    obs, _ = env.reset(seed=11)
    _, _, _, _, infos = env.step(illegal)
    assert infos["illegal_action"].tolist() == [True, False] and infos["_played_action"].tolist() == [
        True,
        False,
    ]
    assert obs["action_mask"][0][infos["played_action"][0]] == 1


def test_make_vec_and_settings() -> None:
    env = gymnasium.make_vec(gym_id("sticheln"), num_envs=3, hands=1, opponents="heuristic")
    assert isinstance(env.unwrapped, AtoutVectorEnv) and env.unwrapped.illegal_action == "penalty"
    obs, _ = env.reset(seed=0)
    env.action_space.seed(0)
    for _ in range(20):  # the whole action space, illegal actions included: penalised, never stuck
        obs, rewards, _, _, _ = env.step(env.action_space.sample())
        assert env.observation_space.contains(obs) and rewards.shape == (3,)
    sync = gymnasium.make_vec(gym_id("wizard"), num_envs=2, vectorization_mode="sync", rounds=1)
    assert isinstance(sync, gymnasium.vector.SyncVectorEnv)
    assert batch_class("wizard") is WizardBatch
    with pytest.raises(ValueError, match="opponents"):
        AtoutVectorEnv(WizardBatch, 2, 4, opponents="expert")
    with pytest.raises(ValueError, match="3 opponents"):
        AtoutVectorEnv(WizardBatch, 2, 4, opponents=["random"])
    with pytest.raises(ValueError, match="num_envs"):
        AtoutVectorEnv(WizardBatch, 0, 4)
    with pytest.raises(ValueError, match="rounds"):
        AtoutVectorEnv(WizardBatch, 2, 4, rounds=99)
