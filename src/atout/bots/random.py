"""The uniform-random bot: the floor of every ladder."""

from __future__ import annotations

from ..core.bot import Bot
from ..core.game import View


class RandomBot(Bot):
    """Picks uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def choose(self, view: View) -> int:
        return self.rng.choice(view.legal_actions)
