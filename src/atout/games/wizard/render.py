"""Wizard on a terminal: a seat's view as rich renderables, and a plain text dump.

Only the command line imports this module; the rules never do (rich is not a
dependency of the engine).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.words import Words, words
from ..terminal import sheet_table, trick_renderable
from . import cards as C

if TYPE_CHECKING:
    from .view import WizardView

_STYLE = {0: "bold blue", 1: "bold green", 2: "bold red", 3: "bold yellow"}


def legend(say: Words) -> str:
    """Under every view: what the single letters stand for (a player new to the terminal asks)."""
    return f"[dim]{say('wiz_term_legend')}[/]"


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


def render_last_trick(view: WizardView, names: list[str], say: Words | None = None) -> Any:
    """The latest finished trick, this round's or the last round's: who played each card, and who took it.

    None before the first trick (the line itself: :func:`atout.core.tricks.last_trick_line`).
    """
    return trick_renderable(
        view, names, "term_round_word", say or words(), lambda cards: played_markup(cards, names)
    )


def render_view(view: WizardView, names: list[str], say: Words | None = None) -> Any:
    """A rich renderable of what ``view.seat`` sees: trump, bids, trick, hand (in ``say``'s language)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    say = say or words()
    trump = say("term_none") if view.trump is None else say.colour(C.SUITS[view.trump])
    turned = "" if view.turned is None else " " + say("wiz_term_turned", card=C.card_text(view.turned))
    header = Text.from_markup(
        f"[bold]{say('term_round_of', n=view.round, of=view.rounds)}[/] — "
        f"{say('term_dealer', name=names[view.dealer])} — {say('wiz_term_trump', trump=f'[bold]{trump}[/]')}{turned}"
    )
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    for col in ("seat", "cards", "bid", "tricks", "score"):
        table.add_column(say(f"term_col_{col}"))
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
    trick = played_markup(view.trick, names) or say("term_empty")
    parts: list[Any] = [header, table, Text.from_markup(say("term_trick", cards=trick))]
    last = render_last_trick(view, names, say)
    if last is not None:
        parts.append(last)
    if view.seen_hands is not None:
        for seat, hand in enumerate(view.seen_hands):
            if hand is not None:
                held = " ".join(card_markup(k) for k in hand)
                parts.append(Text.from_markup(say("wiz_term_holds", name=names[seat], cards=held)))
        parts.append(Text.from_markup(f"[bold]{say('term_your_hand')}[/] {say('wiz_term_clairvoyance')}"))
    else:
        mine = " ".join(card_markup(k) for k in view.hand) or "-"
        parts.append(Text.from_markup(f"[bold]{say('term_your_hand')}[/] {mine}"))
    parts.append(Text.from_markup(legend(say)))
    return Group(*parts)


def sheet_cell(bid: int, tricks: int, delta: int, total: int) -> str:
    """One seat's line of a round: "bid/tricks ✓ +30 = 50", the round's points signed and the
    running total plain, so that a missed bid reads as points lost ("1/0 ✗ -10 = 10")."""
    ok = "✓" if bid == tricks else "✗"
    return f"{bid}/{tricks} {ok} {delta:+d} = {total}"


def render_sheet(view: WizardView, names: list[str], say: Words | None = None) -> Any:
    """The score sheet: one line per finished round, per seat bid/tricks, the round's points
    and the running total."""
    say = say or words()
    table = sheet_table(say("term_round_word"), names, title=say("term_sheet"))
    table.caption = say("wiz_term_caption")
    totals = [0] * view.game.players
    for r, (bids, tricks, deltas) in enumerate(view.sheet, start=1):
        cells = []
        for seat in range(view.game.players):
            totals[seat] += deltas[seat]
            cells.append(sheet_cell(bids[seat], tricks[seat], deltas[seat], totals[seat]))
        table.add_row(str(r), *cells)
    return table
