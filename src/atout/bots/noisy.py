"""A weakened bot for the "easy" level: another bot that sometimes plays at random.

Why not plain random: a beginner wants opponents who play recognisably (follow
a plan, bid sensibly) yet make mistakes; mixing random moves into the heuristic
gives that, on every game, without writing a second heuristic per game.
"""

from __future__ import annotations

from ..core.bot import Bot
from ..core.game import Game, View


class NoisyBot(Bot):
    """Plays like ``inner``, except a uniformly random legal action with probability ``noise``."""

    def __init__(self, inner: Bot, noise: float, seed: int | None = None, name: str = "noisy") -> None:
        super().__init__(seed)
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise must be within 0..1, not {noise}")
        self.inner = inner
        self.noise = noise
        self.name = name

    def start(self, game: Game, seat: int) -> None:
        super().start(game, seat)
        self.inner.start(game, seat)

    def choose(self, view: View) -> int:
        # Ask the inner bot every time, so its per-match memory (if any) stays current.
        planned = self.inner.choose(view)
        if self.rng.random() < self.noise:
            return self.rng.choice(view.legal_actions)
        return planned

    def close(self) -> None:
        self.inner.close()
