"""Le Nain Jaune (traditional French): shed cards in rising runs, win the board's boxes."""

from .game import NainJauneGame, NainJauneState, NainJauneView

__all__ = ["NainJauneGame", "NainJauneState", "NainJauneView"]
