"""What the games' terminal renderers share: the frame of a score sheet (rich).

Not a game and not part of the rules: only the ``render.py`` modules of the
game packages import it (tests/test_architecture.py holds that), and like
them it imports rich only when it draws, so that importing a renderer costs
nothing until the CLI uses it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core.tricks import last_trick_line
from ..core.words import Words


def last_trick_heading(view: Any, round_key: str, say: Words) -> str:
    """The heading of a view's last trick (``LastTrick.last_trick_title``) in ``say``'s language:
    "Last trick", or "Last trick of hand 3" once the round moved on (``round_key`` words the
    game's round: ``term_round_word``, ``term_hand_word``, ``term_deal_word``)."""
    if view.last_trick_round == view.round:
        return say("term_last_trick")
    return say("term_last_trick_of", round=say(round_key), n=view.last_trick_round)


def trick_renderable(
    view: Any,
    names: Sequence[str],
    round_key: str,
    say: Words,
    played: Callable[[Any], str],
    taker: Callable[[int], str] | None = None,
) -> Any:
    """A renderer's ``render_last_trick``: the view's last trick as rich text, None before the first.

    The steps every game takes (heading, :func:`atout.core.tricks.last_trick_line`,
    markup to text); the game says how its cards read (``played``) and, when a
    trick may be taken by nobody, how its taker reads (``taker``: else the seat's name).
    """
    from rich.markup import escape
    from rich.text import Text

    def name(seat: int) -> str:
        return escape(names[seat])

    line = last_trick_line(view, last_trick_heading(view, round_key, say), played, taker or name)
    return None if line is None else Text.from_markup(line)


def sheet_table(
    round_word: str,
    names: Sequence[str],
    *,
    title: str,
    before: Sequence[str] = (),
    after: Sequence[str] = (),
) -> Any:
    """An empty score sheet: a column for the round (``round_word``), then one right-aligned column per seat.

    ``before`` and ``after`` name extra columns around the seats' (Le Nain
    Jaune's "out" and "board").  The renderer adds one row per finished round.
    """
    from rich.table import Table

    table = Table(title=title, header_style="bold")
    table.add_column(round_word)
    for column in before:
        table.add_column(column)
    for name in names:
        table.add_column(name, justify="right")
    for column in after:
        table.add_column(column, justify="right")
    return table
