"""What trick games' views share: the last finished trick, across the round boundary.

A table shows the trick that just ended even when it ended the round (the next
round is dealt at once and the view's ``tricks`` of that round are gone), so a
trick game's view keeps the previous round's final trick as ``prev_round_trick``
and derives the rest here, once for every game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from .shown import shown_tricks as shown_tricks  # compiled (issue 48); its home was here

#: A finished trick as a game's view shapes it: (cards, winner).
T = TypeVar("T")
#: The cards of a finished trick, as a game's view shapes them.
Cards = TypeVar("Cards")


class LastTrick(Generic[T]):
    """Mixin for a view with ``round``, ``tricks`` (this round's) and ``prev_round_trick``."""

    round: int
    tricks: tuple[T, ...]
    prev_round_trick: T | None

    @property
    def last_trick(self) -> T | None:
        """The match's most recently finished trick, shaped as an element of ``tricks``.

        This round's last one, else the previous round's final one (None before
        the first trick of the match).  A property, so that it never disagrees
        with ``tricks``.
        """
        return self.tricks[-1] if self.tricks else self.prev_round_trick

    @property
    def last_trick_round(self) -> int | None:
        """The round ``last_trick`` was played in (None with it)."""
        if self.tricks:
            return self.round
        return None if self.prev_round_trick is None else self.round - 1

    def last_trick_title(self, round_word: str) -> str:
        """How a table heads ``last_trick``: "Last trick", or "Last trick of hand 3" once the round moved on.

        ``round_word`` is the game's word for a round ("round", "hand").  The
        trick stays the previous round's last one until this round finishes one:
        the next round is dealt the moment a round ends, and that trick counted.
        """
        if self.last_trick_round == self.round:
            return "Last trick"
        return f"Last trick of {round_word} {self.last_trick_round}"


def last_trick_line(
    view: LastTrick[tuple[Cards, int]],
    heading: str,
    played: Callable[[Cards], str],
    taker: Callable[[int], str],
) -> str | None:
    """The terminal's line for ``view.last_trick``: "Last trick of hand 2: <cards> → <taker>"; None before the first.

    ``heading`` is :meth:`LastTrick.last_trick_title` in the reader's language, its
    colon included (the renderer words it: ``atout.games.terminal.last_trick_heading``).

    The line is console markup (its title dimmed) but a plain string: core
    imports no renderer.  Each game's ``render.py`` says how its cards
    (``played``) and the taker (``taker``: a seat, or what the game's rules
    make of a trick nobody took) are drawn, and wraps the line for the screen.
    """
    trick = view.last_trick
    if trick is None:
        return None
    cards, winner = trick
    return f"[dim]{heading}[/] {played(cards)} → {taker(winner)}"


def winning(seat: int | None, why: str, card: str | None, **params: int | str) -> dict[str, object]:
    """A trick game's view dict's ``"winning"``: who takes the trick so far, and why.

    ``why`` is a key the table's words say ("wiz_win_trump": the highest trump),
    ``card`` the winning card's text, ``params`` what else the words name (a
    value).  The rules decide it (each game's ``trick_lead``), from the cards on
    the table only: the page draws it and decides nothing.  ``seat`` ``None``: a
    trick nobody takes (Sticheln's zeros set aside).
    """
    return {"seat": seat, "why": why, "card": card, **params}
