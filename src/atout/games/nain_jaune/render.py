"""Le Nain Jaune on a terminal: the board with its boxes and tokens, the run, the hand.

Only the command line imports this module; the rules never do (rich is not a
dependency of the engine).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..terminal import sheet_table
from . import cards as C

if TYPE_CHECKING:
    from .view import NainJauneView

_SUIT_STYLE = ("bold", "bold red", "bold red", "bold")
#: Where each box sits on the drawn board (row, column): the Nain Jaune in the middle.
_BOARD_LAYOUT = {0: (0, 0), 1: (0, 2), 4: (1, 1), 2: (2, 0), 3: (2, 2)}


def card_markup(c: int) -> str:
    """A card in rich markup: red for diamonds and hearts, gold for the Nain Jaune."""
    style = "bold yellow" if c == C.BOARD[4] else _SUIT_STYLE[C.suit_of(c)]
    return f"[{style}]{C.card_symbol(c)}[/]"


def render_board(view: NainJauneView) -> Any:
    """The five boxes as a 3×3 board, each with its card and the tokens on it."""
    from rich.panel import Panel
    from rich.table import Table

    grid = Table.grid(padding=(0, 3))
    for _ in range(3):
        grid.add_column(justify="center")
    cells = [["", "", ""] for _ in range(3)]
    for box, (row, col) in _BOARD_LAYOUT.items():
        label = card_markup(C.BOARD[box])
        if box == 4:
            label += " [yellow]Nain Jaune[/]"
        tokens = view.boxes[box]
        pending = " [blink]claim?[/]" if view.claim_box == box else ""
        cells[row][col] = f"{label}\n[bold]{tokens}[/] token{'s' if tokens != 1 else ''}{pending}"
    for line in cells:
        grid.add_row(*line)
    return Panel(grid, title="Board", expand=False)


def last_run(view: NainJauneView) -> tuple[tuple[int, int], ...]:
    """The pile's latest run, (seat, card) oldest first: the run in progress, or the one just ended.

    Le Nain Jaune's "trick": the rising cards since the last free start.  The
    pile does not mark where a run began, but the rules do: a run climbs (by one
    with ``free_restart``, skipping missing ranks with ``skip_rank``) and ends
    after a King or when nobody can go on, and a new run never continues the old
    one (nobody held the next rank), except when ``voluntary_stop`` let a holder
    pass and then start with it.
    """
    played = view.played
    if not played:
        return ()
    by_one = view.game.options["stuck_rule"] == "free_restart"
    start = len(played) - 1
    while start > 0:
        before, after = C.rank_of(played[start - 1][1]), C.rank_of(played[start][1])
        if before == C.KING or after <= before or (by_one and after != before + 1):
            break
        start -= 1
    return played[start:]


def render_view(view: NainJauneView, names: list[str]) -> Any:
    """A rich renderable of what ``view.seat`` sees: board, players, run, hand."""
    from rich.console import Group
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    header = Text.from_markup(
        f"[bold]Deal {view.deal}[/] — dealer: {names[view.dealer]} — opener: {names[view.opener]}"
    )
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    for col in ("player", "cards", "tokens", "has shown no"):
        table.add_column(col)
    for seat in range(view.game.players):
        marker = "▶ " if view.current_player == seat else "  "
        table.add_row(
            marker + names[seat],
            str(view.hand_sizes[seat]),
            str(view.tokens[seat]),
            C.ranks_text(view.lacks[seat]) or "-",
        )
    shown = view.played[-12:]
    pile = ("… " if len(view.played) > len(shown) else "") + " ".join(card_markup(c) for _, c in shown)
    pile = pile or "(no card yet)"
    if view.phase != "play":
        status = f"[dim]{view.phase}[/]"
    elif view.need is None:
        who = escape(names[view.last])
        status = f"new run: {who} plays any card"
    else:
        status = f"next card: any [bold]{C.rank_text(view.need)}[/]"
    # Who played each card of the run, as the last trick shows it in the trick games.
    run = ", ".join(f"{escape(names[s])} {card_markup(c)}" for s, c in last_run(view))
    parts: list[Any] = [
        header,
        render_board(view),
        table,
        Text.from_markup(f"Pile: {pile}"),
        Text.from_markup(f"Run: {run + ' — ' if run else ''}{status}"),
    ]
    if not view.played and view.sheet:
        # A deal ends on its last card and the next is dealt at once: say how it ended.
        result = view.sheet[-1]
        opera = " (grand opéra)" if result.grand_opera else ""
        parts.append(Text.from_markup(f"[dim]Last deal:[/] {escape(names[result.winner])} went out{opera}"))
    hand = " ".join(card_markup(c) for c in C.by_rank(list(view.hand))) or "-"
    parts.append(Text.from_markup(f"[bold]Your hand:[/] {hand}"))
    return Group(*parts)


def render_sheet(view: NainJauneView, names: list[str]) -> Any:
    """The score sheet: per deal, the winner, what each paid, and the tokens after it."""
    table = sheet_table("deal", names, title="Score sheet (tokens)", before=("out",), after=("board",))
    for r in view.sheet:
        cells = []
        for seat in range(view.game.players):
            if seat == r.winner:
                cell = f"+{sum(r.paid)}"
            else:
                cell = f"-{r.paid[seat]}" + (f" -{r.penalties[seat]}▣" if r.penalties[seat] else "")
            cells.append(f"{cell} = {r.tokens[seat]}")
        out = names[r.winner] + (" (grand opéra)" if r.grand_opera else "")
        table.add_row(str(r.deal), out, *cells, str(sum(r.boxes)))
    table.add_row("now", "", *[str(t) for t in view.tokens], str(sum(view.boxes)))
    return table
