"""Batch simulation: many matches stepped together as numpy arrays (issue 21).

Why: researchers train on millions of matches, and a single-state Python engine
cannot keep pace with OpenSpiel's C++ loop.  A batch keeps one array entry per
match and moves every match by one decision per :meth:`~WizardBatch.step`, with
the engine's rules, action ids, tensor layout and — from the same seeds — the
engine's deals.  numpy only.  Wizard is done (rules, every option, masks,
tensors, random and heuristic policies); Sticheln has the rules, every option,
masks and the random policy (no tensors or heuristic yet); Le Malin and Le Nain
Jaune are not done.
"""

from __future__ import annotations

from .common import IllegalActions, Step
from .sticheln import StichelnBatch
from .wizard import WizardBatch

__all__ = ["IllegalActions", "Step", "StichelnBatch", "WizardBatch"]
