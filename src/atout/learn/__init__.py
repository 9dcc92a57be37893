"""Learning bots: a policy-and-value network trained on the batch engine (``atout train``).

Why a package of its own: training needs PyTorch (the optional ``train``
extra) and only this package imports it (``tests/test_architecture.py``
checks the wall); what it produces is a small numpy model read at play time
by :mod:`atout.bots.learned`, so nothing that plays needs PyTorch.

* :mod:`.train` — the recipe (imitation of the heuristic, then PPO with
  self-play and a league of snapshots), checkpoints, the learning curve;
* :mod:`.network` — the network and its export to the numpy format;
* :mod:`.evaluate` — duplicate-deal measurement at batch speed (numpy only).

The submodules are imported by name (``atout.learn.train``), so importing
this package imports no PyTorch.
"""
