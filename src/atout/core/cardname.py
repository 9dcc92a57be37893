"""What a card's name is made of, for the interfaces that name cards in words.

Why in core: the web table names cards in the reader's language ("le valet de
cœur", "un Sorcier"), and must not know any game's notation to do so (nothing
outside a game's package tests which game it is).  Each game reads its own
notation into these parts (:meth:`atout.Game.card_name`); the translation files
put the words together.
"""

from __future__ import annotations

from typing import NamedTuple


class CardName(NamedTuple):
    """A card's name in parts: a ``special`` card's key (``"Z"``, ``"TWIN"``), or its rank with a colour or suit."""

    special: str = ""
    rank: str = ""
    colour: str = ""
    suit: str = ""


__all__ = ["CardName"]
