"""Outside bots named by ``py:tests.bots.outside:NAME`` in the tests (not a test module)."""

from __future__ import annotations

from typing import Any

import numpy as np

import atout
from atout.envs.openspiel_bot import OpenSpielBot
from atout.envs.policy_bot import PolicyBot


class FirstLegal(atout.Bot):
    """Always the lowest legal id."""

    name = "first-legal"

    def choose(self, view: atout.View) -> int:
        return view.legal_actions[0]


class Unnamed(atout.Bot):
    """A bot without a name of its own, drawing from its seeded generator."""

    def choose(self, view: atout.View) -> int:
        return self.rng.choice(view.legal_actions)


class NoSeed(atout.Bot):
    """A constructor without a seed."""

    def __init__(self) -> None:
        super().__init__()

    def choose(self, view: atout.View) -> int:
        return self.rng.choice(view.legal_actions)


def last_text(view: atout.View) -> str:
    """A plain function: the notation of the highest legal id."""
    return view.text(view.legal_actions[-1])


def cheat(view: atout.View) -> int:
    """Answers an id that is never legal."""
    return -5


def factory(view: atout.View) -> atout.Bot:
    """Mistakes a policy for a factory."""
    return FirstLegal()


class Abstract(atout.Bot):
    """Forgets choose."""


class NotABot:
    def choose(self, view: atout.View) -> int:
        return view.legal_actions[0]


INSTANCE = FirstLegal()
NUMBER = 3


class MCTS(OpenSpielBot):
    """OpenSpiel's python MCTS, random rollouts, on a world sampled from the view."""

    name = "openspiel-mcts"

    def make_spiel_bot(self, game: Any, seat: int, seed: int) -> Any:
        from open_spiel.python.algorithms import mcts

        rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        return mcts.MCTSBot(game, 1.4, 12, evaluator, random_state=rng, solve=False)


class ISMCTS(OpenSpielBot):
    """OpenSpiel's python ISMCTS: resamples worlds from the same view."""

    name = "openspiel-ismcts"

    def make_spiel_bot(self, game: Any, seat: int, seed: int) -> Any:
        from open_spiel.python.algorithms import ismcts, mcts

        rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        return ismcts.ISMCTSBot(game, evaluator, 1.4, 12, random_state=rng)


class FirstInMask(PolicyBot):
    """A PettingZoo-style policy: the first action the mask allows."""

    name = "first-in-mask"

    def act(self, observation: Any, action_mask: Any) -> Any:
        assert observation.dtype == np.float32
        return np.flatnonzero(action_mask)[0]


#: Released by the tests that hang :class:`Hangs` (so no thread outlives them).
RELEASE = __import__("threading").Event()


class Hangs(atout.Bot):
    """A bot that never answers until :data:`RELEASE` is set (a hung outside bot)."""

    def choose(self, view: atout.View) -> int:
        RELEASE.wait(60)
        return view.legal_actions[0]
