"""Build Wizard states the way a table does: explicit deals, explicit turned card.

Everything here goes through the public interface (``apply`` with the text
notation, ``view``), so a test reads like a game being played.  The only thing
the helpers take from the engine is *who receives the next card* (the seat
written in the chance notation "deal 2 B7"): the test says which cards each
seat holds, not in which order the dealer hands them out.

The rule-level reference functions (:func:`rule_trick_winner`,
:func:`rule_legal_cards`) are written from the rule texts (AMIGO sheet,
rules-notes §3.3), independently of the engine, so property tests can compare
the engine with them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from atout.core.game import CHANCE, TERMINAL
from atout.games.wizard import WizardGame, WizardState

SUIT_NAMES = {"B": "blue", "G": "green", "R": "red", "Y": "yellow"}
SUIT_LETTER = {name: letter for letter, name in SUIT_NAMES.items()}

#: The 60 cards as texts, with multiplicity.
FULL_DECK: Counter[str] = Counter([f"{s}{r}" for s in "BGRY" for r in range(1, 14)] + ["Z"] * 4 + ["N"] * 4)


def new_state(players: int = 3, dealer: int = 0, **options: Any) -> WizardState:
    """A seedless match whose first dealer is ``dealer``."""
    return WizardGame(players, first_dealer=dealer, **options).new_state()


def phase(state: WizardState, seat: int = 0) -> str:
    return str(state.view(seat).phase)


def vd(state: WizardState, seat: int) -> dict[str, Any]:
    """A seat's view in its JSON form (cards as texts)."""
    return state.view(seat).to_dict()


def next_deal_target(state: WizardState) -> int:
    """Seat the next dealt card goes to, read from the chance notation."""
    words = state.action_to_text(state.legal_actions()[0]).split()
    assert words[0] == "deal", words
    return int(words[1])


def deal(
    state: WizardState,
    hands: Mapping[int, str] | Sequence[str],
    turn: str | None = None,
    trump: str | None = None,
) -> None:
    """Deal each seat exactly the given cards ("B7 Z N"), then turn ``turn``.

    ``trump`` is the dealer's choice when ``turn`` is a Wizard.
    """
    todo = {
        seat: cards.split()
        for seat, cards in (hands.items() if isinstance(hands, Mapping) else enumerate(hands))
    }
    while state.current_player == CHANCE and phase(state) == "deal":
        seat = next_deal_target(state)
        assert todo.get(seat), f"the engine deals to seat {seat}, whose cards are all dealt"
        state.apply(f"deal {seat} {todo[seat].pop(0)}")
    assert not any(todo.values()), f"cards left undealt: {todo}"
    if turn is not None:
        state.apply(f"turn {turn}")
    if trump is not None:
        state.apply(f"trump {trump}")


def bid_all(state: WizardState, bids: Mapping[int, int] | Sequence[int]) -> None:
    """Every seat bids its number, in whatever order the table bids."""
    table = dict(bids.items() if isinstance(bids, Mapping) else enumerate(bids))
    while phase(state) == "bid":
        seat = state.current_player
        state.apply(f"bid {table[seat]}")


def play(state: WizardState, *cards: str) -> list[int]:
    """Play ``cards`` in turn order; returns the seats that played them."""
    seats = []
    for card in cards:
        seats.append(state.current_player)
        state.apply(f"play {card}")
    return seats


def finish_round(state: WizardState) -> None:
    """Play the current round to its end with the first legal action everywhere."""
    start = state.round
    while not state.is_terminal and state.round == start:
        state.apply(state.legal_actions()[0])


def goto_round(state: WizardState, r: int) -> None:
    while state.round < r:
        finish_round(state)


def random_step(state: WizardState, rng: random.Random) -> int:
    """Apply a uniformly random legal action (chance outcomes by probability)."""
    if state.is_chance:
        outcomes = state.chance_outcomes()
        action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    else:
        action = rng.choice(state.legal_actions())
    state.apply(action)
    return action


def is_special(card: str) -> bool:
    return card in ("Z", "N")


def rule_led_suit(trick: Iterable[tuple[int, str]]) -> str | None:
    """Suit letter to follow: the first ordinary card's, unless a Wizard came first."""
    for _, card in trick:
        if card == "Z":
            return None
        if card != "N":
            return card[0]
    return None


def rule_legal_cards(hand: Sequence[str], trick: Sequence[tuple[int, str]]) -> set[str]:
    """Cards a player may play (AMIGO: follow suit if able; Wizard/Jester always)."""
    led = rule_led_suit(trick)
    if led is None:
        return set(hand)
    same = {c for c in hand if not is_special(c) and c[0] == led}
    if not same:
        return set(hand)
    return same | {c for c in hand if is_special(c)}


def rule_trick_winner(trick: Sequence[tuple[int, str]], trump: str | None) -> int:
    """Seat winning a complete trick, by the AMIGO rules.

    ``trump`` is a suit letter or None.  First Wizard; else highest trump; else
    highest card of the led suit; a trick of Jesters only goes to the first.
    """
    for seat, card in trick:
        if card == "Z":
            return seat
    ordinary = [(int(c[1:]), seat, c[0]) for seat, c in trick if not is_special(c)]
    if not ordinary:
        return trick[0][0]
    trumps = [(rank, seat) for rank, seat, suit in ordinary if suit == trump]
    if trumps:
        return max(trumps)[1]
    led = rule_led_suit(trick)
    return max((rank, seat) for rank, seat, suit in ordinary if suit == led)[1]


def rule_score(bid: int, won: int) -> int:
    return 20 + 10 * won if bid == won else -10 * abs(bid - won)


__all__ = [
    "BLIND_TEXTS",
    "CHANCE",
    "FULL_DECK",
    "SUIT_LETTER",
    "SUIT_NAMES",
    "TERMINAL",
    "bid_all",
    "blind_text",
    "deal",
    "finish_round",
    "goto_round",
    "new_state",
    "next_deal_target",
    "phase",
    "play",
    "random_step",
    "rule_led_suit",
    "rule_legal_cards",
    "rule_score",
    "rule_trick_winner",
    "vd",
]


#: The brief names the blind play of clairvoyance "play ?"; the engine now writes
#: "play blind".  Either is accepted here (see test_notation for the check).
BLIND_TEXTS = ("play ?", "play blind")


def blind_text(state: WizardState) -> str:
    """Notation of the blind play (clairvoyance) in this game."""
    game = state.game
    text = game.action_to_text(game.space["blind"]())
    assert text in BLIND_TEXTS, text
    return text
