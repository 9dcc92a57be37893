"""Sticheln on a terminal: a seat's view as rich renderables, and a plain text dump.

Only the command line imports this module; the rules never do (rich is not a
dependency of the engine).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.words import Words, words
from ..terminal import sheet_table, trick_renderable
from .cards import COLOURS, Deck
from .rules import led_index

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
    """The lead colour of the trick in progress (the rules' :func:`.rules.led_index`), or -1 when none is set yet."""
    deck = view.game.deck
    kinds = [k for _, k in view.trick]
    i = led_index(deck.value_of, kinds, view.game.zero_sets_lead)
    return -1 if i < 0 else deck.colour_of[kinds[i]]


def played_markup(deck: Deck, cards: tuple[tuple[int, int], ...], names: list[str]) -> str:
    """Cards on the table, each after the name of the seat that played it."""
    from rich.markup import escape

    return ", ".join(f"{escape(names[s])}: {card_markup(deck, k)}" for s, k in cards)


def render_last_trick(view: StichelnView, names: list[str], say: Words | None = None) -> Any:
    """The latest finished trick, this hand's or the last hand's: who played each card, and who took it.

    A trick of zeros only is taken by nobody (winner -1).  None before the first
    trick (the line itself: :func:`atout.core.tricks.last_trick_line`).
    """
    from rich.markup import escape

    say = say or words()

    def taker(seat: int) -> str:
        return escape(names[seat]) if seat >= 0 else say("st_term_nobody")

    deck = view.game.deck
    return trick_renderable(
        view, names, "term_hand_word", say, lambda cards: played_markup(deck, cards, names), taker
    )


def render_view(view: StichelnView, names: list[str], say: Words | None = None) -> Any:
    """A rich renderable of what ``view.seat`` sees: handicap cards, trick, hand."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    say = say or words()
    deck = view.game.deck
    header = Text.from_markup(
        f"[bold]{say('term_hand_of', n=view.round, of=view.rounds)}[/] — {say('term_dealer', name=names[view.dealer])} — "
        f"{say('st_term_deck', n=deck.colours, hi=deck.values - 1)}"
    )
    table = Table(show_header=True, header_style="bold", box=None, padding=(0, 2))
    for col in ("seat", "cards", "handicap", "taken", "hand_points", "score"):
        table.add_column(say(f"term_col_{col}"))
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
            shown = say("st_term_face_down") if view.pain_laid[seat] else "-"
        else:
            shown = " ".join(card_markup(deck, k) for k in pains) or "-"
            if not view.revealed and pains:
                shown += f" [dim]{say('st_term_hidden')}[/]"
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
    played = played_markup(deck, view.trick, names) or say("term_empty")
    parts: list[Any] = [header, table]
    lead = lead_colour(view)
    if lead >= 0:
        note = f"   [dim]{say('st_term_led', colour=say.colour(COLOURS[lead]))}[/]"
    elif view.trick:
        note = f"   [dim]{say('st_term_zeros')}[/]"
    else:
        note = ""
    parts.append(Text.from_markup(say("term_trick", cards=played) + note))
    last = render_last_trick(view, names, say)
    if last is not None:
        parts.append(last)
    if view.phase == "pain" and view.current_player == view.seat:
        parts.append(Text.from_markup(say("st_term_choose_pain")))
    hand = " ".join(card_markup(deck, k) for k in view.hand) or "-"
    parts.append(Text.from_markup(f"[bold]{say('term_your_hand')}[/] {hand}"))
    return Group(*parts)


def render_sheet(view: StichelnView, names: list[str], say: Words | None = None) -> Any:
    """The score sheet: one line per finished hand, handicap card and running total per seat."""
    say = say or words()
    deck = view.game.deck
    table = sheet_table(say("term_hand_word"), names, title=say("term_sheet"))
    totals = [0] * view.game.players
    for r, (pains, deltas) in enumerate(view.sheet, start=1):
        cells = []
        for seat in range(view.game.players):
            totals[seat] += deltas[seat]
            laid = " ".join(card_markup(deck, k) for k in pains[seat])
            cells.append(f"{laid} {deltas[seat]:+d} = {totals[seat]}")
        table.add_row(str(r), *cells)
    return table
