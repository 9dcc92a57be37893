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

from .common import IllegalActions, Step
from .malin import MalinBatch
from .nain_jaune import NainJauneBatch
from .sticheln import StichelnBatch
from .wizard import WizardBatch

__all__ = ["IllegalActions", "MalinBatch", "NainJauneBatch", "Step", "StichelnBatch", "WizardBatch"]
