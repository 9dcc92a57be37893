"""Wizard on a terminal: a seat's view as rich renderables, and a plain text dump.

Only the command line imports this module; the rules never do (rich is not a
dependency of the engine).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.tricks import last_trick_line
from ..terminal import sheet_table
from . import cards as C

if TYPE_CHECKING:
    from .view import WizardView

_STYLE = {0: "bold blue", 1: "bold green", 2: "bold red", 3: "bold yellow"}
#: Under every view: what the single letters stand for (a player new to the terminal asks).
LEGEND = (
    "[dim]Z = Wizard, N = Jester ('play Z', 'play N'); B7 = blue 7 (B G R Y: blue, green, red, yellow)[/]"
)


def card_markup(kind: int) -> str:
    """A card in rich markup, coloured by suit."""
    text = C.card_text(kind)
    if kind == C.WIZARD:
        return "[bold magenta]Z[/]"
    if kind == C.JESTER:
        return "[dim]N[/]"
    return f"[{_STYLE[kind // C.RANKS]}]{text}[/]"


def played_markup(cards: tuple[tuple[int, int], ...], names: list[str]) -> str:
    """Cards on the table, each after the name of the seat that played it."""
    from rich.markup import escape

    return ", ".join(f"{escape(names[s])}: {card_markup(k)}" for s, k in cards)


def render_last_trick(view: WizardView, names: list[str]) -> Any:
    """The latest finished trick, this round's or the last round's: who played each card, and who took it.

    None before the first trick (the line itself: :func:`atout.core.tricks.last_trick_line`).
    """
    from rich.markup import escape
    from rich.text import Text

    line = last_trick_line(
        view, "round", lambda cards: played_markup(cards, names), lambda seat: escape(names[seat])
    )
    return None if line is None else Text.from_markup(line)


def render_view(view: WizardView, names: list[str]) -> Any:
    """A rich renderable of what ``view.seat`` sees: trump, bids, trick, hand."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    trump = "none" if view.trump is None else C.SUITS[view.trump]
    turned = "" if view.turned is None else f" (turned up: {C.card_text(view.turned)})"
    header = Text.from_markup(
        f"[bold]Round {view.round}/{view.rounds}[/] — dealer: {names[view.dealer]} — "
        f"trump: [bold]{trump}[/]{turned}"
    )
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    for col in ("seat", "cards", "bid", "tricks", "score"):
        table.add_column(col)
    for seat in range(view.game.players):
        bid = view.bids[seat]
        shown = "?" if bid is None and view.has_bid[seat] else ("-" if bid is None else str(bid))
        marker = "▶ " if view.current_player == seat else "  "
        table.add_row(
            marker + names[seat],
            str(view.hand_sizes[seat]),
            shown,
            str(view.tricks_won[seat]),
            str(view.scores[seat]),
        )
    trick = played_markup(view.trick, names) or "(empty)"
    parts: list[Any] = [header, table, Text.from_markup(f"Trick: {trick}")]
    last = render_last_trick(view, names)
    if last is not None:
        parts.append(last)
    if view.seen_hands is not None:
        for seat, hand in enumerate(view.seen_hands):
            if hand is not None:
                parts.append(
                    Text.from_markup(f"{names[seat]} holds: " + " ".join(card_markup(k) for k in hand))
                )
        parts.append(Text.from_markup("[bold]Your hand:[/] ? (clairvoyance: you cannot see it)"))
    else:
        parts.append(
            Text.from_markup("[bold]Your hand:[/] " + (" ".join(card_markup(k) for k in view.hand) or "-"))
        )
    parts.append(Text.from_markup(LEGEND))
    return Group(*parts)


def sheet_cell(bid: int, tricks: int, delta: int, total: int) -> str:
    """One seat's line of a round: "bid/tricks ✓ +30 = 50", the round's points signed and the
    running total plain, so that a missed bid reads as points lost ("1/0 ✗ -10 = 10")."""
    ok = "✓" if bid == tricks else "✗"
    return f"{bid}/{tricks} {ok} {delta:+d} = {total}"


def render_sheet(view: WizardView, names: list[str]) -> Any:
    """The score sheet: one line per finished round, per seat bid/tricks, the round's points
    and the running total."""
    table = sheet_table("round", names)
    table.caption = "bid/tricks ✓ or ✗, points = total"
    totals = [0] * view.game.players
    for r, (bids, tricks, deltas) in enumerate(view.sheet, start=1):
        cells = []
        for seat in range(view.game.players):
            totals[seat] += deltas[seat]
            cells.append(sheet_cell(bids[seat], tricks[seat], deltas[seat], totals[seat]))
        table.add_row(str(r), *cells)
    return table
