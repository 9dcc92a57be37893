"""A single-agent Gymnasium environment: one seat learns, atout bots play the others.

For quick RL baselines: ``gym_env("wizard", players=4, seat=0,
opponents="heuristic")``.  The opponents are bots by name
(:func:`atout.bots.factory.make_bot`: ``random``, a game's own levels,
``cmd:<program>``), each handed only its seat's view, seeded from the match
seed so that ``reset(seed=s)`` replays exactly.  ``step`` applies the agent's
action, lets the bots play until the agent must act again or the match ends,
and returns the agent's rewards earned meanwhile (round score changes by
default).  The legal mask is in the observation and in ``info["action_mask"]``;
an illegal action raises :class:`atout.IllegalAction` and changes nothing.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots.factory import make_bot
from ..core.bot import Bot
from ..core.game import Game
from ..core.registry import game_class
from ..match import BotError, derive_seed
from .arrays import float32_array
from .common import (
    REWARDS,
    TENSORS,
    RoundRewards,
    SeedStream,
    check_choice,
    observation_vector,
    split_options,
    tensor_size,
)

ADAPTER_SETTINGS = ("seat", "opponents", "tensor", "reward", "render_mode")

ObsType = dict[str, np.ndarray[Any, Any]]


class AtoutGymEnv(gymnasium.Env[ObsType, np.int64]):
    """One seat of an atout match against bots (see the module docstring).

    ``opponents`` is one bot name for every other seat or one name per other
    seat, in seat order.
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  (gymnasium declares it an instance variable)

    def __init__(
        self,
        game: Game,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        tensor: str = "information_state",
        reward: str = "round",
        render_mode: str | None = None,
    ) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
            raise ValueError(f"seat must be 0..{game.players - 1}, not {seat!r}")
        names = [opponents] * (game.players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != game.players - 1:
            raise ValueError(f"{game.players - 1} opponents needed, got {len(names)}")
        for name in names:
            make_bot(name, game, seed=0).close()  # an unknown name fails here, with the known ones
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = game
        self.seat = seat
        self.opponent_names = names
        self.tensor = check_choice("tensor", tensor, TENSORS)
        self.reward_mode = check_choice("reward", reward, REWARDS)
        self.render_mode = render_mode
        self.state = game.new_state(0)
        self._rewards = RoundRewards(self.state, reward)
        self._seeds = SeedStream()
        self._bots: dict[int, Bot] = {}
        self._pending = 0.0
        self.observation_space: spaces.Space[Any] = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, (tensor_size(game, self.tensor),), np.float32),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(game.num_actions)

    def _observation(self) -> ObsType:
        view = self.state.view(self.seat)
        mask = np.zeros(self.game.num_actions, np.int8)
        mask[list(view.legal_actions)] = 1
        return {
            "observation": float32_array(observation_vector(self.game, view, self.tensor)),
            "action_mask": mask,
        }

    def _info(self, obs: ObsType) -> dict[str, Any]:
        return {"action_mask": obs["action_mask"], "scores": self.state.scores()}

    def _play_bots(self) -> float:
        """Let the bots act until the agent must; the agent's rewards meanwhile."""
        earned = 0.0
        state = self.state
        while not state.is_terminal and state.current_player != self.seat:
            seat = state.current_player
            bot = self._bots[seat]
            view = state.view(seat)
            action = bot.choose(view)
            if action not in view.legal_actions:
                raise BotError(seat, bot.name, f"answered {action!r}, which is illegal")
            state.apply(action)
            due = self._rewards.collect(state)
            if due is not None:
                earned += due[self.seat]
        return earned

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        super().reset(seed=seed)
        match_seed = self._seeds.next(seed)
        self.close()
        self.state = self.game.new_state(match_seed)
        self._rewards = RoundRewards(self.state, self.reward_mode)
        others = [s for s in range(self.game.players) if s != self.seat]
        self._bots = {}
        for seat, name in zip(others, self.opponent_names, strict=True):
            bot = make_bot(name, self.game, seed=derive_seed(match_seed, "bot", seat))
            bot.start(self.game, seat)
            self._bots[seat] = bot
        # Rewards of rounds the agent had no move in are paid with its next step.
        self._pending = self._play_bots()
        obs = self._observation()
        return obs, self._info(obs)

    def step(self, action: np.int64 | int) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.state.is_terminal:
            raise RuntimeError("the match is over: call reset()")
        self.state.apply(operator.index(action))  # IllegalAction leaves everything as it was
        due = self._rewards.collect(self.state)
        reward = self._pending + (0.0 if due is None else due[self.seat])
        self._pending = 0.0
        reward += self._play_bots()
        obs = self._observation()
        return obs, reward, self.state.is_terminal, False, self._info(obs)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return str(self.state.view(self.seat).to_dict())

    def close(self) -> None:
        for bot in self._bots.values():
            bot.close()
        self._bots = {}


def make_gym_env(name: str, players: int, **kwargs: Any) -> AtoutGymEnv:
    """``gym_env(name, players, **settings_and_options)``."""
    cls = game_class(name)
    options = split_options(cls, kwargs, ADAPTER_SETTINGS)
    settings = {k: v for k, v in kwargs.items() if k in ADAPTER_SETTINGS}
    return AtoutGymEnv(cls(players, **options), **settings)
