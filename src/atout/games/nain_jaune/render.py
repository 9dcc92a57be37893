"""Le Nain Jaune on a terminal: the board with its boxes and tokens, the run, the hand.

Only the command line imports this module; the rules never do (rich is not a
dependency of the engine).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.words import Words, words
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


def render_board(view: NainJauneView, say: Words | None = None) -> Any:
    """The five boxes as a 3×3 board, each with its card and the tokens on it."""
    from rich.panel import Panel
    from rich.table import Table

    say = say or words()
    grid = Table.grid(padding=(0, 3))
    for _ in range(3):
        grid.add_column(justify="center")
    cells = [["", "", ""] for _ in range(3)]
    for box, (row, col) in _BOARD_LAYOUT.items():
        label = card_markup(C.BOARD[box])
        if box == 4:
            label += " [yellow]Nain Jaune[/]"
        tokens = view.boxes[box]
        pending = f" [blink]{say('nj_term_claim')}[/]" if view.claim_box == box else ""
        count = say.count("nj_term_tokens", tokens)
        cells[row][col] = f"{label}\n{count}{pending}"
    for line in cells:
        grid.add_row(*line)
    return Panel(grid, title=say("nj_term_board"), expand=False)


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


def render_view(view: NainJauneView, names: list[str], say: Words | None = None) -> Any:
    """A rich renderable of what ``view.seat`` sees: board, players, run, hand."""
    from rich.console import Group
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    say = say or words()
    header = Text.from_markup(
        f"[bold]{say('term_deal', n=view.deal)}[/] — {say('term_dealer', name=names[view.dealer])} — "
        f"{say('nj_term_opener', name=names[view.opener])}"
    )
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    for col in ("player", "cards", "tokens", "shown_no"):
        table.add_column(say(f"term_col_{col}"))
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
    pile = pile or say("nj_term_no_card")
    if view.phase != "play":
        status = f"[dim]{say('nj_term_phase_' + view.phase.replace('-', '_'))}[/]"
    elif view.need is None:
        status = say("nj_term_new_run", name=escape(names[view.last]))
    else:
        status = say("nj_term_next", rank=f"[bold]{C.rank_text(view.need)}[/]")
    # Who played each card of the run, as the last trick shows it in the trick games.
    run = ", ".join(f"{escape(names[s])} {card_markup(c)}" for s, c in last_run(view))
    parts: list[Any] = [
        header,
        render_board(view, say),
        table,
        Text.from_markup(say("nj_term_pile", cards=pile)),
        Text.from_markup(say("nj_term_run", run=(run + " — " if run else "") + status)),
    ]
    if not view.played and view.sheet:
        # A deal ends on its last card and the next is dealt at once: say how it ended.
        result = view.sheet[-1]
        opera = " (grand opéra)" if result.grand_opera else ""
        went = say("nj_term_went_out", name=escape(names[result.winner]))
        parts.append(Text.from_markup(f"[dim]{say('nj_term_last_deal')}[/] {went}{opera}"))
    hand = " ".join(card_markup(c) for c in C.by_rank(list(view.hand))) or "-"
    parts.append(Text.from_markup(f"[bold]{say('term_your_hand')}[/] {hand}"))
    return Group(*parts)


def render_sheet(view: NainJauneView, names: list[str], say: Words | None = None) -> Any:
    """The score sheet: per deal, the winner, what each paid, and the tokens after it."""
    say = say or words()
    table = sheet_table(
        say("term_deal_word"),
        names,
        title=say("nj_term_sheet"),
        before=(say("nj_term_out"),),
        after=(say("nj_term_board_column"),),
    )
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
    table.add_row(say("nj_term_now"), "", *[str(t) for t in view.tokens], str(sum(view.boxes)))
    return table
