"""Sticheln on a terminal: a seat's view as rich renderables, and a plain text dump.

Only the command line imports this module; the rules never do (rich is not a
dependency of the engine).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.tricks import last_trick_line
from ..terminal import sheet_table
from .cards import COLOURS, Deck

if TYPE_CHECKING:
    from .view import StichelnView

_STYLE = ("bold blue", "bold green", "bold red", "bold yellow", "bold dark_orange", "bold magenta")


def card_markup(deck: Deck, kind: int) -> str:
    """A card in rich markup, coloured by its colour (zeros dimmed: they never win)."""
    style = _STYLE[deck.colour_of[kind]]
    if deck.value_of[kind] == 0:
        style += " dim"
    return f"[{style}]{deck.text(kind)}[/]"


def lead_colour(view: StichelnView) -> int:
    """The lead colour of the trick in progress, or -1 when none is set yet."""
    deck = view.game.deck
    for i, (_, k) in enumerate(view.trick):
        if view.game.zero_sets_lead and i == 0:
            return deck.colour_of[k]
        if deck.value_of[k]:
            return deck.colour_of[k]
    return -1


def played_markup(deck: Deck, cards: tuple[tuple[int, int], ...], names: list[str]) -> str:
    """Cards on the table, each after the name of the seat that played it."""
    from rich.markup import escape

    return ", ".join(f"{escape(names[s])}: {card_markup(deck, k)}" for s, k in cards)


def render_last_trick(view: StichelnView, names: list[str]) -> Any:
    """The latest finished trick, this hand's or the last hand's: who played each card, and who took it.

    A trick of zeros only is taken by nobody (winner -1).  None before the first
    trick (the line itself: :func:`atout.core.tricks.last_trick_line`).
    """
    from rich.markup import escape
    from rich.text import Text

    def taker(seat: int) -> str:
        return escape(names[seat]) if seat >= 0 else "nobody (zeros only, set aside)"

    deck = view.game.deck
    line = last_trick_line(view, "hand", lambda cards: played_markup(deck, cards, names), taker)
    return None if line is None else Text.from_markup(line)


def render_view(view: StichelnView, names: list[str]) -> Any:
    """A rich renderable of what ``view.seat`` sees: handicap cards, trick, hand."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    deck = view.game.deck
    header = Text.from_markup(
        f"[bold]Hand {view.round}/{view.rounds}[/] — dealer: {names[view.dealer]} — "
        f"deck: {deck.colours} colours × 0..{deck.values - 1}"
    )
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    for col in ("seat", "cards", "handicap", "taken", "hand points", "score"):
        table.add_column(col)
    taken = [0] * view.game.players
    captured = [0] * view.game.players
    for trick, winner in view.tricks:
        if winner >= 0:
            taken[winner] += len(trick)
            for _, k in trick:
                captured[winner] |= 1 << k
    for seat in range(view.game.players):
        pains = view.pains[seat]
        if pains is None:
            shown = "face down" if view.pain_laid[seat] else "-"
        else:
            shown = " ".join(card_markup(deck, k) for k in pains) or "-"
            if not view.revealed and pains:
                shown += " [dim](hidden from others)[/]"
        marker = "▶ " if view.current_player == seat else "  "
        # This hand's points so far (laid card included), when the handicap colours are known.
        points = "?" if pains is None else f"{view.game.hand_score(pains, captured[seat]):+d}"
        table.add_row(
            marker + names[seat],
            str(view.hand_sizes[seat]),
            shown,
            str(taken[seat]),
            points,
            str(view.scores[seat]),
        )
    played = played_markup(deck, view.trick, names) or "(empty)"
    parts: list[Any] = [header, table]
    lead = lead_colour(view)
    if lead >= 0:
        note = f"   [dim](led {COLOURS[lead]}: every other colour is trump, zeros never win)[/]"
    elif view.trick:
        note = "   [dim](zeros only so far: the first non-zero card sets the lead colour)[/]"
    else:
        note = ""
    parts.append(Text.from_markup(f"Trick: {played}{note}"))
    last = render_last_trick(view, names)
    if last is not None:
        parts.append(last)
    if view.phase == "pain" and view.current_player == view.seat:
        parts.append(Text.from_markup("[bold]Choose a handicap card[/] (face down): write e.g. 'pain B3'"))
    parts.append(
        Text.from_markup("[bold]Your hand:[/] " + (" ".join(card_markup(deck, k) for k in view.hand) or "-"))
    )
    return Group(*parts)


def render_sheet(view: StichelnView, names: list[str]) -> Any:
    """The score sheet: one line per finished hand, handicap card and running total per seat."""
    deck = view.game.deck
    table = sheet_table("hand", names)
    totals = [0] * view.game.players
    for r, (pains, deltas) in enumerate(view.sheet, start=1):
        cells = []
        for seat in range(view.game.players):
            totals[seat] += deltas[seat]
            laid = " ".join(card_markup(deck, k) for k in pains[seat])
            cells.append(f"{laid} {deltas[seat]:+d} = {totals[seat]}")
        table.add_row(str(r), *cells)
    return table
