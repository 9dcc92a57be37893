"""Le Malin on a terminal: a seat's view as rich renderables, and a plain text dump.

Only the command line imports this module; the rules never do (rich is not a
dependency of the engine).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.words import Words, words
from ..terminal import sheet_table, trick_renderable
from . import cards as C

if TYPE_CHECKING:
    from .view import MalinView, TableCard


def card_markup(kind: int, value: C.Value | None = None, declared: int | None = None) -> str:
    """A card in rich markup; Twins and the Wish show their declared value, changed values their new one."""
    if kind == C.TWIN:
        text = "[bold cyan]TWIN[/]"
    elif kind == C.WISH:
        text = "[bold magenta]WISH[/]"
    else:
        number = kind + 1
        style = "bold red" if number >= 30 else "bold yellow" if number >= 20 else "bold"
        text = f"[{style}]{number}[/]"
    if declared is not None and kind >= C.TWIN:
        text += f"={declared}"
    if value is not None and declared is not None and value != declared:
        text += f"[italic red]→{C.value_text(value)}[/]"
    return text


def _table(cards: tuple[TableCard, ...], names: list[str]) -> str:
    """Cards on the table, each after the name and number of the seat that played it
    (Malheur cards aim at seats: "on 2")."""
    from rich.markup import escape

    return ", ".join(f"{escape(names[s])} [dim]#{s}[/]: {card_markup(k, v, d)}" for s, k, d, v in cards)


def render_last_trick(view: MalinView, names: list[str], say: Words | None = None) -> Any:
    """The latest finished trick, this hand's or the last hand's: who played each card, and who took it.

    None before the first trick (the line itself: :func:`atout.core.tricks.last_trick_line`).
    """
    return trick_renderable(view, names, "term_hand_word", say or words(), lambda cards: _table(cards, names))


def render_view(view: MalinView, names: list[str], say: Words | None = None) -> Any:
    """A rich renderable of what ``view.seat`` sees: put-aside card, bids, trick, hand, Malheur cards."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    say = say or words()
    game = view.game
    removed = "-" if view.removed is None else card_markup(view.removed)
    header = Text.from_markup(
        f"[bold]{say('term_hand', n=view.round)}[/] — {say('term_dealer', name=names[view.dealer])} — "
        f"{say.count('mal_term_tricks', view.hand_size)} — {say('mal_term_put_aside', card=removed)}"
    )
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    columns = ["seat", "cards", "bid", "tricks", "score"]
    if game.fun:
        columns.append("malheur")
    for col in columns:
        table.add_column(say(f"term_col_{col}"))
    for seat in range(game.players):
        bid = view.bids[seat]
        marker = "▶ " if view.current_player == seat else "  "
        row = [
            f"{marker}{names[seat]} [dim]#{seat}[/]",
            str(view.hand_sizes[seat]),
            "-" if bid is None else str(bid),
            str(view.tricks_won[seat]),
            str(view.scores[seat]),
        ]
        if game.fun:
            row.append(str(view.malheur_counts[seat]))
        table.add_row(*row)
    trick = _table(view.trick, names) or say("term_empty")
    parts: list[Any] = [header, table, Text.from_markup(say("term_trick", cards=trick))]
    last = render_last_trick(view, names, say)
    if last is not None:
        parts.append(last)
    if view.window:
        window = say("mal_term_window_before" if view.window == "before bidding" else "mal_term_window_after")
        parts.append(Text.from_markup(f"[bold magenta]{say('mal_term_window')}[/] ({window})"))
    if view.pending is not None:
        caster, mtype, targets, _, _ = view.pending
        aim = ", ".join(names[t] for t in targets)
        plays = say("mal_term_plays", name=names[caster], card=C.MALHEUR_TITLES[mtype], seats=aim)
        parts.append(Text.from_markup(f"[bold red]{plays}[/]"))
    if view.phase == "redeclare":
        parts.append(Text.from_markup(f"[bold]{say('mal_term_redeclare')}[/]"))
    hand = " ".join(card_markup(k) for k in view.hand) or "-"
    parts.append(Text.from_markup(f"[bold]{say('term_your_hand')}[/] {hand}"))
    if game.fun:
        mine = ", ".join(f"{C.MALHEUR_TITLES[t]}×{c}" for t, c in enumerate(view.malheur) if c)
        parts.append(Text.from_markup(f"[bold]{say('mal_term_your_malheur')}[/] {mine or say('term_none')}"))
    return Group(*parts)


def render_sheet(view: MalinView, names: list[str], say: Words | None = None) -> Any:
    """The score sheet: one line per finished hand, bid/tricks and the running score per seat."""
    say = say or words()
    table = sheet_table(say("term_hand_word"), names, title=say("term_sheet"))
    totals = [view.game.options["start_score"]] * view.game.players
    table.add_row(say("mal_term_start"), *(str(t) for t in totals))
    for r, (bids, tricks, penalties) in enumerate(view.sheet, start=1):
        cells = []
        for seat in range(view.game.players):
            totals[seat] -= penalties[seat]
            if view.game.options["clamp_at_zero"]:
                totals[seat] = max(totals[seat], 0)
            ok = "✓" if penalties[seat] == 0 else f"-{penalties[seat]}"
            cells.append(f"{bids[seat]}/{tricks[seat]} {ok} {totals[seat]}")
        table.add_row(str(r), *cells)
    return table
