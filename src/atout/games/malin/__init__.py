"""Le Malin et ses petits malheurs (Eric Nickerl, Wish Company): bid a contract nobody else bid."""

from .game import MalinGame, MalinState, MalinView

__all__ = ["MalinGame", "MalinState", "MalinView"]
