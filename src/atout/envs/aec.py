"""PettingZoo AEC environments for every atout game.

One agent per seat (``player_0`` ...), acting in the engine's turn order.
Observations are ``{"observation": float32 tensor in [-1, 1], "action_mask":
int8 mask}``; the mask is all zero for an agent that is not to act.  Chance is
resolved by the atout seed: ``reset(seed=s)`` plays the deals of
``game.new_state(s)``.  An illegal action raises :class:`atout.IllegalAction`
and changes nothing (PettingZoo's "terminate on illegal move" would hide a bug
in the learner's masking).  Layouts and rewards: docs/research.md.
"""

from __future__ import annotations

import operator
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from ..core.game import Game
from ..core.registry import game_class
from .arrays import Observer
from .common import (
    REWARDS,
    TENSORS,
    RoundRewards,
    SeedStream,
    check_choice,
    reset_position,
    split_options,
    start_state,
    tensor_size,
)

ADAPTER_SETTINGS = ("tensor", "reward", "max_cycles", "render_mode")
#: ``human`` prints the table, ``ansi`` returns it as text.
RENDER_MODES = ("human", "ansi")

ObsType = dict[str, np.ndarray[Any, Any]]


class AtoutAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """An atout match as a PettingZoo AEC environment.

    ``tensor``: ``"information_state"`` (default; for Wizard it adds the
    round's finished tricks) or ``"observation"``.  ``reward``: ``"round"``
    (default: each seat's score change when a round ends), ``"match"`` (final
    scores at the end) or ``"win"``.  ``max_cycles``: truncate after that many
    cycles of the table (``max_cycles * players`` agent steps); None plays the
    whole match.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "atout_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: Game,
        tensor: str = "information_state",
        reward: str = "round",
        max_cycles: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = game
        self.tensor = check_choice("tensor", tensor, TENSORS)
        self.reward_mode = check_choice("reward", reward, REWARDS)
        if max_cycles is not None and (isinstance(max_cycles, bool) or max_cycles < 1):
            raise ValueError(f"max_cycles must be a positive integer or None, not {max_cycles!r}")
        self.max_cycles = max_cycles
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(game.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.agents: list[str] = []
        size = tensor_size(game, self.tensor)
        self._observer = Observer(game, self.tensor)
        #: Whether :meth:`last` may make the observation itself (``observe`` not overridden).
        self._own_observe = type(self).observe is AtoutAECEnv.observe
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-1.0, 1.0, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(game.num_actions) for agent in self.possible_agents}
        self._seeds = SeedStream()
        self.state = game.new_state(0)
        self._steps = 0
        self._rewards = RoundRewards(self.state, reward)
        #: Whether ``rewards`` may differ from what PettingZoo's ``_clear_rewards`` leaves (the
        #: int 0 of every agent): a reward paid at the last step, or the 0.0 of a reset.  See :meth:`step`.
        self._dirty = True

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def __str__(self) -> str:
        return f"atout_{self.game.name}"

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match; ``seed`` draws its deals (``game.new_state(seed)``).

        ``options={"position": text}`` starts at the state that position describes (the game's
        notation: ``state.position()``), the deals after it drawn from the seed; a position
        that does not parse or fit the game is a ValueError naming the field at fault.
        """
        position = reset_position(options, strict=False)  # PettingZoo's tests pass other keys
        self.state = start_state(self.game, self._seeds.next(seed), position)
        self._rewards = RoundRewards(self.state, self.reward_mode)
        self._steps = 0
        self._dirty = True
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> ObsType:
        return self._observer(self.state.view(self._seats[agent]))

    def last(self, observe: bool = True) -> tuple[Any, ...]:
        """PettingZoo's ``last``, the observation made here rather than through :meth:`observe`.

        Why: it is called at every step, and the call to ``observe`` between is a Python
        frame and two attribute reads more (issue 48).  A subclass that overrides
        ``observe`` is still asked.
        """
        agent = self.agent_selection
        if not observe:
            observation = None
        elif self._own_observe:
            observation = self._observer(self.state.view(self._seats[agent]))
        else:
            observation = self.observe(agent)
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for agents whose match is over")
        self.state.apply(operator.index(action))  # IllegalAction leaves everything as it was
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        # PettingZoo's clear-then-accumulate, skipped on the steps (nearly all) where no reward
        # is due and ``rewards`` is still as the last clear left it: clearing would change
        # nothing, and accumulating zeros changes no cumulative reward (none is ever -0.0).
        due = self._rewards.collect(self.state)
        if self._dirty or due is not None:
            self._clear_rewards()
        self._dirty = due is not None
        if due is not None:
            for seat, value in enumerate(due):
                self.rewards[self.possible_agents[seat]] = value
        if self.state.is_terminal:
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: {"scores": self.state.scores()} for a in self.agents}
        else:
            if self.max_cycles is not None and self._steps >= self.max_cycles * self.game.players:
                self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[self.state.current_player]
        if due is not None:
            self._accumulate_rewards()

    def render(self) -> str | None:
        """The whole table as text (every hand: for debugging): printed (``human``) or returned (``ansi``)."""
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        return None


class AtoutOrderEnforcingWrapper(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order checks, with :meth:`last` asked of the environment in one call.

    Why: the stock wrapper answers ``last()`` by fetching ``agent_selection``,
    ``rewards``, ``terminations``... one by one through two ``__getattr__``
    layers, which cost a fifth of a step (bench/adapters.py).  Same checks,
    same answers: before ``reset()`` it raises the AttributeError the stock one
    raises.
    """

    def last(self, observe: bool = True) -> tuple[Any, ...]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        result: tuple[Any, ...] = self.env.last(observe)
        return result

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """The stock ``reset``; then :meth:`last`, which has nothing left to check once reset,
        is the environment's own, bound on this instance: one Python call less at every step."""
        super().reset(seed=seed, options=options)
        self.__dict__["last"] = self.env.last  # an instance attribute: found before the method

    def step(self, action: Any) -> None:
        """The stock ``step``'s checks, ``agents`` read from the environment at once (no ``__getattr__`` hops)."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _AgentIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """The stock order-enforcing iterator's ``__next__`` (same stop, same check), reading the
    environment under the wrapper directly: the stock one goes through two ``__getattr__``
    layers for ``agents`` and ``agent_selection`` at every step."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        agent: str = env.agent_selection
        return agent


def make_env(name: str, players: int, **kwargs: Any) -> OrderEnforcingWrapper:
    """``pettingzoo_env(name, players, **settings_and_options)``: the wrapped environment."""
    options = split_options(game_class(name), kwargs, ADAPTER_SETTINGS)
    settings = {k: v for k, v in kwargs.items() if k in ADAPTER_SETTINGS}
    game = game_class(name)(players, **options)
    return AtoutOrderEnforcingWrapper(AtoutAECEnv(game, **settings))
