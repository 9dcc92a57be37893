"""Wizard (Ken Fisher, AMIGO): 60 cards, 60/n rounds, bid your exact number of tricks."""

from .game import WizardGame, WizardState, WizardView

__all__ = ["WizardGame", "WizardState", "WizardView"]
