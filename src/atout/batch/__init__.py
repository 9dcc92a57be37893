"""Batch simulation: many matches stepped together as numpy arrays (issue 21).

Why: researchers train on millions of matches, and a single-state Python engine
cannot keep pace with OpenSpiel's C++ loop.  A batch keeps one array entry per
match and moves every match by one decision per :meth:`~WizardBatch.step`, with
the engine's rules, action ids, tensor layout and — from the same seeds — the
engine's deals.  numpy only.  Wizard is done (rules, every option, masks,
tensors, random and heuristic policies); Sticheln likewise (tensors in
:mod:`.sticheln_tensor`, heuristic in :mod:`.sticheln_heuristic`); Le Nain Jaune
likewise; Le Malin's base game likewise (its *jeu fun* is left out: see
:mod:`.malin`).  :mod:`atout.envs.vector`: a Gymnasium ``VectorEnv``
over any game's batch (one learning seat, the batch's policies elsewhere).
``XBatch.from_states(states)`` loads engine states (sampled worlds, say) as the
batch's matches, so that a search bot's playouts step together.
"""

from __future__ import annotations

import pkgutil

from ..core.game import Game
from ..core.registry import game_class
from .common import Batch, IllegalActions, Step
from .malin import MalinBatch
from .nain_jaune import NainJauneBatch
from .sticheln import StichelnBatch
from .wizard import WizardBatch

__all__ = [
    "BATCH_CLASSES",
    "IllegalActions",
    "MalinBatch",
    "NainJauneBatch",
    "Step",
    "StichelnBatch",
    "WizardBatch",
    "batch_class",
    "batch_class_for",
]

#: Where each game's batch class lives, by the game's name (the vector env and the
#: training pipeline find a game's batch here).
BATCH_CLASSES: dict[str, str] = {
    "wizard": "atout.batch.wizard:WizardBatch",
    "sticheln": "atout.batch.sticheln:StichelnBatch",
    "malin": "atout.batch.malin:MalinBatch",
    "nain-jaune": "atout.batch.nain_jaune:NainJauneBatch",
}


def batch_class(name: str) -> type[Batch]:
    """The batch class of atout game ``name`` (a clear error when the game has none yet)."""
    key = game_class(name).name
    where = BATCH_CLASSES.get(key)
    if where is None:
        raise ValueError(f"{key} has no batch simulator (batches exist for {', '.join(BATCH_CLASSES)})")
    try:
        found: type[Batch] = pkgutil.resolve_name(where)
    except (ImportError, AttributeError):
        raise ValueError(
            f"{key} has no batch simulator yet ({where} is missing): use "
            f"gymnasium.make_vec(..., vectorization_mode='sync') for the engine's env"
        ) from None
    return found


def batch_class_for(game: Game) -> type[Batch]:
    """The batch class that plays ``game`` as it is configured, options included (a ``ValueError``
    saying why when none does: no simulator for the game, or a rule its simulator leaves out,
    such as Le Malin's Malheur cards): search bots and the review fall back on the engine then."""
    cls = batch_class(game.name)
    cls.check_game(game)
    return cls
