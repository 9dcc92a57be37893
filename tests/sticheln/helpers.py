"""Build Sticheln states the way a table does: explicit deals, explicit handicap cards.

Everything goes through the public interface (``apply`` with the text notation,
``view``), so a test reads like a hand being played.  The only thing taken from
the engine is *who receives the next card* (the seat written in the chance
notation "deal 2 B7").

The rule-level reference functions (:func:`rule_trick_winner`,
:func:`rule_hand_score`, :data:`RULE_DECKS`) are written from the rule texts
(seed 003 as corrected by rules-notes §4), independently of the engine, so that
property tests can compare the engine with them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from atout.core.game import CHANCE
from atout.games.sticheln import StichelnGame, StichelnState

#: Players -> (colour letters, highest value, cards in each hand), from rules-notes §4.1.
RULE_DECKS: dict[int, tuple[str, int, int]] = {
    3: ("BGRYO", 8, 15),
    4: ("BGRYO", 11, 15),
    5: ("BGRYO", 14, 15),
    6: ("BGRYOV", 14, 15),
    7: ("BGRYOV", 17, 15),
    8: ("BGRYOV", 18, 14),
}


def deck_texts(players: int) -> list[str]:
    """The cards of a ``players`` game, as texts, colour by colour then by value."""
    letters, top, _ = RULE_DECKS[players]
    return [f"{c}{v}" for c in letters for v in range(top + 1)]


def new_state(players: int = 4, dealer: int = 0, **options: Any) -> StichelnState:
    """A seedless match whose first dealer is ``dealer``."""
    return StichelnGame(players, first_dealer=dealer, **options).new_state()


def vd(state: StichelnState, seat: int) -> dict[str, Any]:
    """A seat's view in its JSON form (cards as texts)."""
    return state.view(seat).to_dict()


def phase(state: StichelnState) -> str:
    return str(state.view(0).phase)


def next_deal_target(state: StichelnState) -> int:
    words = state.action_to_text(state.legal_actions()[0]).split()
    assert words[0] == "deal", words
    return int(words[1])


def deal(state: StichelnState, hands: Mapping[int, str] | Sequence[str] = ()) -> dict[int, list[str]]:
    """Deal each seat the given cards ("B7 R0") and fill every hand up with the
    lowest cards nobody was given; returns the full hands dealt."""
    players = state.game.players
    given = {s: c.split() for s, c in (hands.items() if isinstance(hands, Mapping) else enumerate(hands))}
    size = RULE_DECKS[players][2]
    used = {c for cards in given.values() for c in cards}
    spare = [c for c in deck_texts(players) if c not in used]
    full: dict[int, list[str]] = {}
    for seat in range(players):
        cards = list(given.get(seat, []))
        while len(cards) < size:
            cards.append(spare.pop(0))
        full[seat] = cards
    todo = {s: list(c) for s, c in full.items()}
    while state.current_player == CHANCE:
        seat = next_deal_target(state)
        assert todo[seat], f"the engine deals a card too many to seat {seat}"
        state.apply(f"deal {seat} {todo[seat].pop(0)}")
    assert not any(todo.values()), f"cards left undealt: {todo}"
    return full


def lay(state: StichelnState, pains: Mapping[int, str]) -> None:
    """Every seat lays its handicap card(s) ("B0", or "B0 R1" in Sticheln méchant), in table order."""
    todo = {s: c.split() for s, c in pains.items()}
    while phase(state) == "pain":
        seat = state.current_player
        state.apply(f"pain {todo[seat].pop(0)}")
    assert not any(todo.values()), f"handicap cards not laid: {todo}"


def play(state: StichelnState, *cards: str) -> list[int]:
    """Play ``cards`` in turn order; returns the seats that played them."""
    seats = []
    for card in cards:
        seats.append(state.current_player)
        state.apply(f"play {card}")
    return seats


def random_step(state: StichelnState, rng: random.Random) -> int:
    """Apply a uniformly random legal action (chance outcomes by probability)."""
    if state.is_chance:
        outcomes = state.chance_outcomes()
        action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    else:
        action = rng.choice(state.legal_actions())
    state.apply(action)
    return action


def rule_trick_winner(
    trick: Sequence[tuple[int, str]], zero_lead: str = "own", all_zero: str = "leader_takes"
) -> int | None:
    """Seat winning a complete trick by the rules (rules-notes §4.3); None for a void trick.

    The led colour is the first card's (``own``) or the first non-zero card's;
    every other colour is trump; a 0 never trumps and never wins; the highest
    trump wins, the first played of equal trumps; without a trump the highest
    card of the led colour; a trick of zeros goes to its leader (or is void).
    """
    cards = [(seat, c[0], int(c[1:])) for seat, c in trick]
    led = cards[0][1] if zero_lead == "own" else next((colour for _, colour, value in cards if value), "")
    trumps = [(seat, value) for seat, colour, value in cards if colour != led and value != 0]
    if trumps:
        top = max(v for _, v in trumps)
        return next(seat for seat, v in trumps if v == top)
    leads = [(value, seat) for seat, colour, value in cards if colour == led and value != 0]
    if leads:
        return max(leads)[1]
    return cards[0][0] if all_zero == "leader_takes" else None


def rule_hand_score(
    pain_cards: Iterable[str], captured: Iterable[str], gentle: bool = False, pain_card_only: bool = False
) -> int:
    """A player's hand score (seed 003): +1 per captured card not of a handicap colour,
    minus the value of each card of a handicap colour, the laid card(s) included."""
    pains = list(pain_cards)
    colours = {c[0] for c in pains}

    def cost(card: str) -> int:
        return 1 if gentle else int(card[1:])

    score = -sum(cost(c) for c in pains)
    for card in captured:
        score += 1 if (pain_card_only or card[0] not in colours) else -cost(card)
    return score
