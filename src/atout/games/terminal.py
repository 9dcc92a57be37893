"""What the games' terminal renderers share: the frame of a score sheet (rich).

Not a game and not part of the rules: only the ``render.py`` modules of the
game packages import it (tests/test_architecture.py holds that), and like
them it imports rich only when it draws, so that importing a renderer costs
nothing until the CLI uses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def sheet_table(
    round_word: str,
    names: Sequence[str],
    *,
    title: str = "Score sheet",
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
