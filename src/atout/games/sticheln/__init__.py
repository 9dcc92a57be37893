"""Sticheln (Klaus Palesch, AMIGO): no need to follow, every other colour is trump, a secret handicap colour."""

from .game import StichelnGame, StichelnState, StichelnView

__all__ = ["StichelnGame", "StichelnState", "StichelnView"]
