"""The policy-and-value network in PyTorch, and its export to the numpy format players load.

Why PyTorch (CPU) for training: it is the library most researchers already
use, its CPU build trains these small networks well on two cores, eager mode
makes the training loop plain Python over the batch engine's numpy arrays
(no tracing or recompilation when batch sizes vary, as JAX's ``jit`` would
need), and it is an optional extra (``atout[train]``): nothing that plays
imports it.  The architecture is deliberately small — a multi-layer
perceptron over the information-state tensor with a policy head (logits over
the action ids) and a value head (the seat's margin over the round, scaled) —
so that numpy runs it in well under a millisecond per decision.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from torch import nn

from ..bots.learned import PolicyModel

__all__ = ["PolicyNet", "SparseInput"]


class SparseInput(nn.Module):
    """The first layer, ``x @ W + b``, computed from the nonzero entries of ``x`` only.

    Why: the information-state tensors are wide and nearly empty (Wizard's:
    3,739 values, about 1.5% of them nonzero — most of the width is the
    round's finished tricks), so a dense product spends almost all its time
    multiplying zeros.  An ``EmbeddingBag`` summing the rows of ``W`` picked
    by the nonzero entries, weighted by their values, is the same product
    (measured 3× faster forward and backward on 2,048 Wizard positions).
    ``weight`` is (inputs, outputs): the numpy model's orientation.
    """

    def __init__(self, inputs: int, outputs: int) -> None:
        super().__init__()
        self.bag = nn.EmbeddingBag(inputs, outputs, mode="sum")
        bound = 1.0 / inputs**0.5
        nn.init.uniform_(self.bag.weight, -bound, bound)
        self.bias = nn.Parameter(torch.empty(outputs).uniform_(-bound, bound))

    @property
    def weight(self) -> torch.Tensor:
        return self.bag.weight

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        found = x.nonzero()
        rows, columns = found[:, 0], found[:, 1]
        offsets = torch.searchsorted(rows, torch.arange(x.shape[0]))
        result: torch.Tensor = self.bag(columns, offsets, per_sample_weights=x[rows, columns]) + self.bias
        return result


class PolicyNet(nn.Module):
    """MLP trunk (ReLU) with a policy head and a value head; the first layer reads sparse tensors."""

    def __init__(
        self, inputs: int, actions: int, hidden: tuple[int, ...] = (256, 256), prior: float | None = None
    ) -> None:
        super().__init__()
        #: With a prior, the logits add ``prior_weight`` on the heuristic's action (learned, from ``prior``).
        self.prior_weight = None if prior is None else nn.Parameter(torch.tensor(float(prior)))
        if not hidden:
            raise ValueError("the network needs at least one hidden layer")
        layers: list[nn.Module] = [SparseInput(inputs, hidden[0]), nn.ReLU()]
        width = hidden[0]
        for size in hidden[1:]:
            layers += [nn.Linear(width, size), nn.ReLU()]
            width = size
        self.trunk = nn.Sequential(*layers)
        self.policy = nn.Linear(width, actions)
        self.value = nn.Linear(width, 1)
        self.hidden = hidden
        # A small policy head at the start: every legal action about equally likely.
        nn.init.normal_(self.policy.weight, std=0.01)
        nn.init.zeros_(self.policy.bias)

    def forward(
        self, x: torch.Tensor, prior: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(B, inputs) → ((B, actions) logits, (B,) values); ``prior``: (B,) the heuristic's actions."""
        h = self.trunk(x)
        logits = self.policy(h)
        if self.prior_weight is not None:
            if prior is None:
                raise ValueError("this network adds the heuristic's choice to its logits: pass prior")
            bonus = torch.zeros_like(logits).scatter_(1, prior.long().clamp(min=0)[:, None], 1.0)
            logits = logits + self.prior_weight * bonus
        return logits, self.value(h).squeeze(-1)

    def export(self, meta: dict[str, Any]) -> PolicyModel:
        """The numpy model players load (weights as (in, out) matrices, float32 until saved)."""

        def pair(layer: nn.Linear | SparseInput) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
            weight = layer.weight.detach().cpu().numpy()
            return (
                (weight if isinstance(layer, SparseInput) else weight.T).astype(np.float32).copy(),
                layer.bias.detach().cpu().numpy().astype(np.float32).copy(),
            )

        linears = [m for m in self.trunk if isinstance(m, (nn.Linear, SparseInput))]
        meta = dict(meta)
        if self.prior_weight is not None:
            meta["prior"] = "heuristic"
            meta["prior_weight"] = float(self.prior_weight.detach())
        return PolicyModel(
            meta=meta,
            trunk=tuple(pair(layer) for layer in linears),
            policy=pair(self.policy),
            value=pair(self.value),
        )
