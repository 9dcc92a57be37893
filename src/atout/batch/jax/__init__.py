"""The batch engines under JAX (``jax.jit``/``jax.vmap``): Wizard so far (issue 49).

Why a JAX batch beside the numpy one: pgx showed that card games written as
one pure state of arrays and pure step functions run under ``jax.jit`` and
``jax.vmap`` on an accelerator, and that an agent written in JAX then keeps
the whole training loop on the device.  Here Wizard plays exactly the numpy
batch's games (:mod:`atout.batch.wizard`): the same deals, action ids, legal
masks, rewards and ends, step for step (tests/batch/test_jax_wizard.py plays
both side by side).  The deals are drawn by the numpy side (CPython's
generator, column-wise, as the engine deals from a seed) and passed in as
arrays; everything after the deal runs in JAX.

Needs the optional ``jax`` extra (``pip install 'atout[jax]'``, a CPU jaxlib).
"""

from __future__ import annotations

try:
    import jax  # noqa: F401  (only to name the extra when it is missing)
except ImportError as missing:  # pragma: no cover - depends on what is installed
    raise ImportError("atout.batch.jax needs JAX: pip install 'atout[jax]' (or pip install jax)") from missing

from .wizard import DealArrays, JaxWizard, WizardJaxState, hand_counts, slot_words

__all__ = ["DealArrays", "JaxWizard", "WizardJaxState", "hand_counts", "slot_words"]
