"""One package per game, each behind the interface of :mod:`atout.core`."""
