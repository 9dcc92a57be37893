"""Research adapters: every atout game, unchanged, in PettingZoo, Gymnasium and OpenSpiel.

* :func:`pettingzoo_env` — a PettingZoo AEC environment (``pip install atout[pettingzoo]``);
* :func:`gym_env` — a single-agent Gymnasium environment, the other seats played
  by atout bots (``pip install atout[pettingzoo]``); also registered with
  Gymnasium as ``atout/Wizard-v0``, ``atout/Malin-v0``, ``atout/Sticheln-v0``,
  ``atout/NainJaune-v0`` once :mod:`atout.envs.single_agent` is imported;
* ``import atout.envs.openspiel`` — registers every game with OpenSpiel as
  ``python_atout_<name>`` (``pip install atout[openspiel]``);
* :mod:`.vector` — ``gymnasium.make_vec("atout/Wizard-v0", num_envs)``: many
  matches stepped as one batch; :mod:`.sb3` — the same for Stable-Baselines3
  (``MaskablePPO``), where stable-baselines3 is installed.

The optional libraries are imported only when an adapter is asked for, so
``import atout.envs`` works without them.  Guide and layouts: docs/research.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .common import RoundRewards, SeedStream, observation_vector

if TYPE_CHECKING:
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from .single_agent import AtoutGymEnv


def pettingzoo_env(name: str, players: int, **kwargs: Any) -> OrderEnforcingWrapper:
    """A PettingZoo AEC environment for game ``name`` (see :class:`.aec.AtoutAECEnv`).

    Keyword arguments are the adapter's (``tensor``, ``reward``, ``max_cycles``,
    ``render_mode``) and otherwise the game's options.
    """
    from .aec import make_env

    return make_env(name, players, **kwargs)


def gym_env(name: str, players: int | None = None, **kwargs: Any) -> AtoutGymEnv:
    """A single-agent Gymnasium environment (see :class:`.single_agent.AtoutGymEnv`).

    ``players`` defaults to 4 when the game allows it (else the nearest count).
    Keyword arguments are the adapter's (``seat``, ``opponents``, ``tensor``,
    ``reward``, ``render_mode``, ``illegal_action``, ``illegal_penalty``) and
    otherwise the game's options.  Importing :mod:`.single_agent` also
    registers ``atout/<Game>-v0`` with ``gymnasium.make``.
    """
    from .single_agent import make_gym_env

    return make_gym_env(name, players, **kwargs)


__all__ = ["RoundRewards", "SeedStream", "gym_env", "observation_vector", "pettingzoo_env"]
