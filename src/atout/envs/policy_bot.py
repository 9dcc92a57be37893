"""A PettingZoo-style policy ``(observation, action_mask) -> action`` playing as an atout bot.

A policy trained on atout's PettingZoo AEC environment (:mod:`atout.envs.aec`)
expects what ``env.observe(agent)`` gives: ``observation``, the seat's
float32 tensor (the game's information-state tensor by default, or its
observation tensor: ``tensor=``, as the environment's setting), and
``action_mask``, int8 over the game's action ids, 1 for the legal ones.
:class:`PolicyBot` computes both from the seat's view — the very functions
the environment uses, so the policy sees at a tournament table exactly what
it saw in training, and nothing more — and plays the action the policy
returns (an int or a numpy integer; anything outside the mask is reported as
the bot's fault, never replaced).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.bot import Bot
from ..core.game import View
from .arrays import observation_of
from .common import TENSORS, check_choice

#: ``policy(observation, action_mask) -> action id``
Policy = Callable[[np.ndarray[Any, np.dtype[np.float32]], np.ndarray[Any, np.dtype[np.int8]]], Any]


def observe(view: View, tensor: str = "information_state") -> dict[str, np.ndarray[Any, Any]]:
    """The AEC environment's observation of ``view``'s seat: ``{"observation", "action_mask"}``."""
    return observation_of(view, tensor)


class PolicyBot(Bot):
    """Plays ``policy(observation, action_mask)`` on the seat's view (see the module docstring)."""

    name = "policy"

    def __init__(
        self,
        policy: Policy | None = None,
        seed: int | None = None,
        tensor: str = "information_state",
        name: str | None = None,
    ) -> None:
        super().__init__(seed)
        self._policy = policy
        self.tensor = check_choice("tensor", tensor, TENSORS)
        if name is not None:
            self.name = name

    def act(self, observation: np.ndarray[Any, Any], action_mask: np.ndarray[Any, Any]) -> Any:
        """The policy's answer (override, or pass ``policy``)."""
        if self._policy is None:
            raise NotImplementedError("give PolicyBot a policy(observation, action_mask) or override act")
        return self._policy(observation, action_mask)

    def choose(self, view: View) -> int:
        obs = observe(view, self.tensor)
        answer = self.act(obs["observation"], obs["action_mask"])
        try:
            return operator.index(answer)
        except TypeError:
            raise TypeError(f"the policy returned {answer!r:.60}, not an action id") from None


__all__ = ["Policy", "PolicyBot", "observe"]
