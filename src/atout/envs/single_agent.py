"""A single-agent Gymnasium environment: one seat learns, atout bots play the others.

For quick RL baselines: ``gym_env("wizard", players=4, seat=0,
opponents="heuristic")``, or through Gymnasium's registry (importing this
module registers one id per game, ``atout/Wizard-v0``, ``atout/Malin-v0``,
``atout/Sticheln-v0``, ``atout/NainJaune-v0``)::

    import gymnasium
    env = gymnasium.make("atout.envs.single_agent:atout/Wizard-v0", rounds=3)

The opponents are bots by name (:func:`atout.bots.factory.make_bot`:
``random``, a game's own levels, ``cmd:<program>``), each handed only its
seat's view, seeded from the match seed so that ``reset(seed=s)`` replays
exactly.  ``step`` applies the agent's action, lets the bots play until the
agent must act again or the match ends, and returns the agent's rewards earned
meanwhile (round score changes by default).  The legal mask is in the
observation and in ``info["action_mask"]``.

An illegal action (``illegal_action=``, see :data:`ILLEGAL_ACTIONS`):

* ``"raise"`` (the default of :func:`make_gym_env`): :class:`atout.IllegalAction`,
  nothing changes — a masking bug stops the program;
* ``"penalty"`` (the default of the registered ids, so that generic Gymnasium
  tooling that samples the whole action space, ``check_env`` included, runs):
  the episode ends (``terminated``) with ``info["illegal_action"] = True`` and
  a reward that makes the episode's return one less than the worst any legal
  play could give (from the game's score bounds), or ``illegal_penalty`` if
  given: an illegal action never pays, not even to escape a losing match;
* ``"substitute"``: a legal action drawn from the environment's ``np_random``
  is played instead, reported in ``info["illegal_action"]`` and
  ``info["played_action"]``.

``info["illegal_action"]`` is False after every legal action.
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
from ..core.errors import IllegalAction
from ..core.game import Game
from ..core.registry import game_class, names
from ..match import BotError, derive_seed
from .arrays import Observer
from .common import (
    REWARDS,
    TENSORS,
    RoundRewards,
    SeedStream,
    check_choice,
    check_illegal_penalty,
    reset_position,
    split_options,
    start_state,
    tensor_size,
)

ADAPTER_SETTINGS = (
    "seat",
    "opponents",
    "tensor",
    "reward",
    "render_mode",
    "illegal_action",
    "illegal_penalty",
)
#: What an illegal action does; see the module docstring.
ILLEGAL_ACTIONS = ("raise", "penalty", "substitute")
#: ``human`` prints the agent's view, ``ansi`` returns it as text.
RENDER_MODES = ("human", "ansi")

ObsType = dict[str, np.ndarray[Any, Any]]


class AtoutGymEnv(gymnasium.Env[ObsType, np.int64]):
    """One seat of an atout match against bots (see the module docstring).

    ``opponents`` is one bot name for every other seat or one name per other
    seat, in seat order.
    """

    # render_fps only quiets Gymnasium's checker: text is printed at once.
    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012  (gymnasium declares it an instance variable)

    def __init__(
        self,
        game: Game,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        tensor: str = "information_state",
        reward: str = "round",
        render_mode: str | None = None,
        illegal_action: str = "raise",
        illegal_penalty: float | None = None,
    ) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
            raise ValueError(f"seat must be 0..{game.players - 1}, not {seat!r}")
        names = [opponents] * (game.players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != game.players - 1:
            raise ValueError(f"{game.players - 1} opponents needed, got {len(names)}")
        for name in names:
            make_bot(name, game, seed=0).close()  # an unknown name fails here, with the known ones
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.illegal_penalty = check_illegal_penalty(illegal_penalty, self.illegal_action, game)
        self.game = game
        self.seat = seat
        self.opponent_names = names
        self.tensor = check_choice("tensor", tensor, TENSORS)
        self._observer = Observer(game, self.tensor)
        self.reward_mode = check_choice("reward", reward, REWARDS)
        self.render_mode = render_mode
        self.state = game.new_state(0)
        #: ``reset`` has started an episode: the env enforces the order itself (see register_gymnasium).
        self._started = False
        self._rewards = RoundRewards(self.state, reward)
        self._seeds = SeedStream()
        self._bots: dict[int, Bot] = {}
        self._pending = 0.0
        self._start = 0
        self._returned = 0.0
        self._ended = False
        self.observation_space: spaces.Space[Any] = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, (tensor_size(game, self.tensor),), np.float32),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(game.num_actions)

    def _observation(self) -> ObsType:
        return self._observer(self.state.view(self.seat))

    def _info(self, obs: ObsType, illegal: bool = False) -> dict[str, Any]:
        # A copy of the mask: Gymnasium wants no object shared between obs and info.
        return {
            "action_mask": obs["action_mask"].copy(),
            "scores": self.state.scores(),
            "illegal_action": illegal,
        }

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
        """A new match (``seed`` draws its deals), or with ``options={"position": text}`` the state
        that position describes (the game's notation: ``state.position()``), the deals after it
        drawn from the seed; a position that does not parse or fit the game is a ValueError."""
        position = reset_position(options)
        super().reset(seed=seed)
        match_seed = self._seeds.next(seed)
        self.close()
        self.state = start_state(self.game, match_seed, position)
        self._started = True
        self._rewards = RoundRewards(self.state, self.reward_mode)
        self._start = self.state.scores()[self.seat]
        self._returned = 0.0
        self._ended = False
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

    def penalty(self) -> float:
        """The reward an illegal action would get now in ``penalty`` mode.

        ``illegal_penalty`` if given; else what makes the episode's return one
        less than the lowest a legal episode can reach: ``-1`` for ``win``
        rewards, the lowest final score minus one for ``match``, and for
        ``round`` the lowest final score minus the starting score minus one,
        less the rewards already returned.
        """
        if self.illegal_penalty is not None:
            return self.illegal_penalty
        bounds = self.game.score_bounds()
        assert bounds is not None  # checked at construction
        worst = {"win": 0.0, "match": float(bounds[0]), "round": float(bounds[0] - self._start)}
        return worst[self.reward_mode] - 1.0 - self._returned

    def step(self, action: np.int64 | int) -> tuple[ObsType, SupportsFloat, bool, bool, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self._ended or self.state.is_terminal:
            raise RuntimeError("the episode is over: call reset()")
        chosen = operator.index(action)
        reason = self.state.illegal_reason(chosen)
        if reason is not None:
            if self.illegal_action == "raise":
                raise IllegalAction(reason, chosen)  # the state is left as it was
            if self.illegal_action == "penalty":
                reward = self.penalty()
                self._ended = True
                self._returned += reward
                obs = self._observation()
                info = self._info(obs, illegal=True)
                info["illegal_reason"] = reason
                return obs, reward, True, False, info
            legal = self.state.legal_actions()
            substitute = legal[int(self.np_random.integers(len(legal)))]
        self.state.apply(chosen if reason is None else substitute)
        due = self._rewards.collect(self.state)
        reward = self._pending + (0.0 if due is None else due[self.seat])
        self._pending = 0.0
        reward += self._play_bots()
        self._returned += reward
        obs = self._observation()
        info = self._info(obs, illegal=reason is not None)
        if reason is not None:
            info["illegal_reason"] = reason
            info["played_action"] = substitute
        return obs, reward, self.state.is_terminal, False, info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """(num_actions,) bool: the agent's legal actions now (all False once the episode is over).

        The method sb3-contrib's ``MaskablePPO`` (and its ``ActionMasker``-free
        path) asks an env for; the same mask as ``obs["action_mask"]``, as bools.
        """
        mask = np.zeros(self.game.num_actions, dtype=bool)
        state = self.state
        if not self._ended and not state.is_terminal and state.current_player == self.seat:
            mask[list(state.legal_actions())] = True
        return mask

    def render(self) -> str | None:
        """The agent's view as text: printed (``human``) or returned (``ansi``)."""
        if self.render_mode is None:
            return None
        text = str(self.state.view(self.seat).to_dict())
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        for bot in self._bots.values():
            bot.close()
        self._bots = {}


def make_gym_env(name: str, players: int | None = None, **kwargs: Any) -> AtoutGymEnv:
    """``gym_env(name, players, **settings_and_options)``; ``players`` defaults as in :data:`GYM_IDS`."""
    cls = game_class(name)
    options = split_options(cls, kwargs, ADAPTER_SETTINGS)
    settings = {k: v for k, v in kwargs.items() if k in ADAPTER_SETTINGS}
    if players is None:
        players = default_players(cls)
    return AtoutGymEnv(cls(players, **options), **settings)


def default_players(cls: type[Game]) -> int:
    """4 when the game allows it, else the nearest count (as for OpenSpiel)."""
    return min(max(4, cls.min_players), cls.max_players)


def gym_id(name: str) -> str:
    """The Gymnasium id of atout game ``name``: ``nain-jaune`` -> ``atout/NainJaune-v0``."""
    return "atout/" + "".join(part.capitalize() for part in game_class(name).name.split("-")) + "-v0"


#: Gymnasium ids registered by this module, by atout game name.
GYM_IDS: dict[str, str] = {}


def register_gymnasium(name: str) -> str:
    """Register game ``name`` with Gymnasium (once): ``gymnasium.make(gym_id(name), **kwargs)``.

    The registered defaults: ``players`` as :func:`default_players`, the game's
    default options, ``illegal_action="penalty"``; every keyword of
    :func:`make_gym_env` may be given to ``gymnasium.make``.
    ``gymnasium.make_vec(gym_id(name), num_envs)`` builds the batch vector env
    (:class:`atout.envs.vector.AtoutVectorEnv`; opponents ``random`` or
    ``heuristic``); ``vectorization_mode="sync"`` still gives Gymnasium's
    ``SyncVectorEnv`` over this module's env.
    """
    env_id = gym_id(name)
    if env_id not in gymnasium.registry:
        gymnasium.register(
            id=env_id,
            entry_point=f"{__name__}:make_gym_env",
            # gymnasium.make_vec: num_envs matches of one batch (atout.envs.vector).
            vector_entry_point="atout.envs.vector:make_vector_env",
            kwargs={"name": game_class(name).name, "illegal_action": "penalty"},
            # Gymnasium's OrderEnforcing and PassiveEnvChecker wrappers would hide action_masks()
            # (gymnasium 1.x wrappers forward no attribute): the env checks the order itself and
            # is checked by tests/envs (gymnasium's check_env), so make() returns it bare.
            order_enforce=False,
            disable_env_checker=True,
        )
    GYM_IDS[game_class(name).name] = env_id
    return env_id


for _name in names():
    register_gymnasium(_name)
