"""The Sticheln heuristic's rules (:mod:`.bot` says them), compiled (issue 48).

Functions of a view rather than methods, as Wizard's (:mod:`atout.games.wizard.heuristic`):
:class:`.bot.StichelnHeuristicBot` stays a Python class anyone may extend, and these
run compiled at every decision of every playout of a search.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .rules import PAIN, led_index, trick_winner_index
from .view import StichelnView

if TYPE_CHECKING:
    from .game import StichelnGame, StichelnState


def move(view: StichelnView) -> int:
    """The heuristic's answer at a decision with two legal actions or more."""
    if view.phase == "pain":
        return pain(view)
    return play(view)


def state_move(state: StichelnState, seat: int, legal: list[int]) -> int:
    """:func:`move` at ``state.view(seat)``, read from the state (issue 48): what the playouts of a
    search ask (:attr:`atout.core.bot.RuleBot.state_rule`).  The view's fields it reads, as
    ``seen.view_fields`` makes them: the seat's hand, the trick, and the handicap cards the
    seat knows (its own; everyone's once they are revealed).
    """
    game = state.game
    if state.phase == PAIN:
        return _pain(game, legal, tuple(game.deck.kinds_in(state.hands[seat])))
    colour_of = game.deck.colour_of
    pains = []
    for s, laid in enumerate(state.pains):
        mask = 0
        if state.revealed or s == seat:
            for k in laid:
                mask |= 1 << colour_of[k]
        pains.append(mask)
    return _play(game, seat, legal, state.trick, state.trick_seats, pains)


def pain(view: StichelnView) -> int:
    """The handicap card to lay: the lowest card of the least dangerous colour."""
    return _pain(view.game, view.legal_actions, view.hand)


def _pain(game: StichelnGame, legal: Sequence[int], hand: tuple[int, ...]) -> int:
    deck = game.deck
    space = game.space["pain"]
    candidates = [space.value(a) for a in legal]
    n = game.players
    top = deck.values - 1
    total = top * (top + 1) // 2  # the value of a whole colour

    dangers = []  # (danger, kind): the least dangerous, the lowest kind on a tie
    for kind in candidates:
        colour = deck.colour_of[kind]
        mine = sum([deck.value_of[k] for k in hand if deck.colour_of[k] == colour])
        dangers.append(((total - mine) / n + deck.value_of[kind], kind))
    return space(min(dangers)[1])


def play(view: StichelnView) -> int:
    """The card to play: each legal card scored (the docstring of :mod:`.bot`), the best, the lowest on a tie."""
    trick = [k for _, k in view.trick]
    seats = [s for s, _ in view.trick]
    pains = [view.pain_colours(s) for s in range(view.game.players)]
    return _play(view.game, view.seat, view.legal_actions, trick, seats, pains)


def _play(
    game: StichelnGame, seat: int, legal: Sequence[int], trick: list[int], seats: list[int], pains: list[int]
) -> int:
    """:func:`play` of the trick's cards and seats, and each seat's handicap colours as the seat knows them."""
    deck = game.deck
    colour_of, value_of = deck.colour_of, deck.value_of
    n = game.players
    my_pain = pains[seat]
    after = n - len(trick) - 1  # players still to play after me
    top = deck.values - 1
    zero_sets_lead = game.zero_sets_lead
    leader_takes = game.options["all_zero_trick"] == "leader_takes"

    # Who takes the trick with each card, without going over the trick again for every card:
    # once the trick fixes the colour led, a card only meets the best card so far (the last
    # step of trick_winner_index's loop, written out); before that, the card itself leads.
    led = led_index(value_of, trick, zero_sets_lead)
    if led >= 0:
        lead = colour_of[trick[led]]
        best = trick_winner_index(colour_of, value_of, trick, zero_sets_lead)
        best_value = value_of[trick[best]] if best >= 0 else 0
        best_trump = best >= 0 and colour_of[trick[best]] != lead
    trick_points = 0.0  # what the cards on the table are worth to me
    for k in trick:
        if my_pain >> colour_of[k] & 1:
            trick_points -= 1 if game.options["gentle"] else value_of[k]
        else:
            trick_points += 1
    best_action = -1
    best_score = float("-inf")
    for kind in legal:
        value = value_of[kind]
        if led < 0:
            i = trick_winner_index(colour_of, value_of, [*trick, kind], zero_sets_lead)
        else:
            i = best
            if value:
                if colour_of[kind] != lead:
                    if not best_trump or value > best_value:
                        i = len(trick)
                elif not best_trump and value > best_value:
                    i = len(trick)
        if i < 0 and leader_takes:
            i = 0
        winning = False if i < 0 else i == len(trick)
        if winning:
            # The chance that the n-1-len(trick) later players leave my card on top.
            strength = value / top if top else 1.0
            is_trump = bool(trick) and colour_of[kind] != colour_of[trick[0]]
            keep = strength if is_trump or not trick else strength * 0.5
            keep = keep**after if after else 1.0
            points = trick_points  # and this card's, the trick's part counted once
            if my_pain >> colour_of[kind] & 1:
                points -= 1 if game.options["gentle"] else value
            else:
                points += 1
            worth = points + 0.3 * after
            score = keep * worth
            if my_pain >> colour_of[kind] & 1:
                score -= 0.5 * (value if not game.options["gentle"] else 1)
            if not trick:  # leading: prefer low, cheap leads
                score = -value - (3.0 if my_pain >> colour_of[kind] & 1 and value else 0.0)
                if value == 0:
                    score += 2.0
        else:
            score = 0.0
            if my_pain >> colour_of[kind] & 1:
                score += 0.5 * value  # one danger fewer in my hand
            if i >= 0:
                winner = seats[i] if i < len(trick) else seat
                theirs = pains[winner]
                if theirs >> colour_of[kind] & 1:
                    score += 0.3 * value  # a sting for the taker
            score -= 0.2 * value  # do not waste strong cards for nothing
        if score > best_score or (score == best_score and kind < best_action):
            best_action, best_score = kind, score
    return best_action
