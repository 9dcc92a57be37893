"""What one seat may know: the view every game's view class extends.

Kept apart from :mod:`.game` (and, with its games' ``view.py``, out of the
compiled build: :data:`atout._build.COMPILED`): the views are frozen
dataclasses that each game extends with its own fields and mixins
(:class:`~.tricks.LastTrick`), which mypyc's native classes do not take (one
base class, no frozen dataclass subclassed by interpreted code).
:mod:`.game` re-exports both classes, where the engine always named them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Self

if TYPE_CHECKING:
    from .game import Game


class View(ABC):
    """What one seat may know, and nothing more.

    Views are immutable and comparable: two states that differ only in what a
    seat cannot see give equal views (the no-leak property tests rely on it).
    ``legal_actions`` is filled only when it is this seat's turn.
    """

    game: Game
    seat: int
    current_player: int
    legal_actions: tuple[int, ...]

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (what a socket or an external bot receives)."""

    def text(self, action: int) -> str:
        """Notation of one of this view's legal actions."""
        return self.game.action_to_text(action)

    def parse(self, text: str) -> int:
        """Action id for a text in the game's notation."""
        return self.game.text_to_action(text)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], game: Game) -> View:
        """The view whose :meth:`to_dict` is ``data`` (as a JSON-lines bot receives it).

        Lossless: ``View.from_dict(v.to_dict(), game)`` has the fields, legal
        actions and ``to_dict()`` of ``v``.  ``game`` gives what the dict does not
        carry (player count, options: the protocol's ``start`` message); called on
        ``View`` it dispatches to the game's view class, whose ``read_dict`` reads
        the fields (:mod:`atout.core.viewdict`).  A dict no view of ``game`` writes
        raises :class:`~atout.core.errors.ViewError` naming the field at fault.
        """
        from .viewdict import view_from_dict

        # What a game is here: what makes states (game.py imports this module, not back).
        if isinstance(game, type) or not callable(getattr(game, "new_state", None)):
            raise TypeError(f"View.from_dict needs the game the view belongs to, not {game!r}")
        return view_from_dict(cls, data, game)

    def __repr__(self) -> str:
        """The view as its dict shows it, cards as text (``hand=['B3', 'Z']``), not raw ids or masks."""
        fields = {k: v for k, v in self.to_dict().items() if k != "game"}
        inner = "".join(f", {k}={v!r}" for k, v in fields.items())
        return f"{type(self).__name__}(game={self.game!r}{inner})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, View) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(repr(sorted(self.to_dict().items())))


@dataclass(frozen=True, eq=False, repr=False)
class BaseView(View):
    """The frozen dataclass the shipped games' views extend: the head fields, declared once.

    A game's view adds its own fields after these (``phase`` is the phase's
    name, "bid", "play"...) and narrows ``game`` to its own class by declaring
    it again (``game: WizardGame = field(repr=False)``: the field keeps its
    place, first).  :func:`view_head` fills the head from a state,
    :meth:`head_dict` writes it and :func:`atout.core.viewdict.read_head` reads
    it back, so that every game sends and reads it alike.
    """

    game: Game = field(repr=False)
    seat: int
    current_player: int
    legal_actions: tuple[int, ...]
    phase: str

    @classmethod
    def made(cls, values: dict[str, Any]) -> Self:
        """The view of these field values, which name every field of ``cls`` and no other.

        What each game's ``make_view`` builds its view with (issue 48): the frozen
        dataclass's ``__init__`` sets each field through ``object.__setattr__``, a third
        of a Wizard view's cost, and a search builds a view at every decision of every
        playout.  ``values`` becomes the instance's dict (not copied: ``make_view`` hands
        over a dict of its own, in the fields' order, as ``view_fields`` writes it); a
        missing or unknown name is refused as the ``__init__`` would refuse it, since
        nothing then checks the values' names.  The games' ``make_view`` call the compiled
        :func:`~atout.core.viewdict.made_view` directly, which this is.
        """
        from .viewdict import made_view  # (compiled)

        return made_view(cls, values)

    def head_dict(self) -> dict[str, Any]:
        """The head of :meth:`to_dict`: ``{**self.head_dict(), "round": ...}`` (the keys come first, in this order)."""
        game = self.game
        return {
            "game": game.name,
            "seat": self.seat,
            "current_player": self.current_player,
            "legal_actions": [game.action_to_text(a) for a in self.legal_actions],
            "phase": self.phase,
        }
