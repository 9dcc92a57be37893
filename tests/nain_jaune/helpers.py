"""Build Nain Jaune states the way a table does: explicit deals, then the cards played.

Everything goes through the public interface (``apply`` with the text notation,
``view``).  Hands are written compactly: ``"5S 6H 9*"`` is the 5♠, the 6♥ and
all four 9s.  The only thing taken from the engine is *who receives the next
card* (the seat in the chance notation "deal 2 7D"): a test says which cards
each seat holds, not in which order the dealer hands them out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from atout.core.game import CHANCE
from atout.games.nain_jaune import NainJauneGame, NainJauneState
from atout.games.nain_jaune import cards as C

FULL_DECK = [C.card_text(c) for c in range(C.NUM_CARDS)]


def expand(cards: str) -> list[str]:
    """``"5S 9* KH"`` -> ``["5S", "9C", "9D", "9H", "9S", "KH"]`` (card texts)."""
    out: list[str] = []
    for word in cards.split():
        if word.endswith("*"):
            out.extend(f"{word[:-1]}{s}" for s in "CDHS")
        else:
            out.append(word)
    return [C.card_text(C.parse_card(w)) for w in out]


def new_state(players: int = 4, dealer: int = 3, **options: Any) -> NainJauneState:
    """A seedless match whose first dealer is ``dealer`` (dealer 3 of 4: seat 0 opens)."""
    return NainJauneGame(players, first_dealer=dealer, **options).new_state()


def next_deal_target(state: NainJauneState) -> int:
    words = state.action_to_text(state.legal_actions()[0]).split()
    assert words[0] == "deal", words
    return int(words[1])


def deal(state: NainJauneState, hands: Mapping[int, str], talon: str | None = None) -> None:
    """Deal each seat exactly the given cards; ``talon`` (optional) is checked to be
    the cards left out of play."""
    todo = {seat: expand(cards) for seat, cards in hands.items()}
    size = state.game.hand_size
    for seat, cards in todo.items():
        assert len(cards) == size, f"seat {seat} gets {len(cards)} cards, not {size}"
    everything = [c for cards in todo.values() for c in cards]
    assert len(set(everything)) == len(everything), "a card is dealt twice"
    if talon is not None:
        assert sorted(set(FULL_DECK) - set(everything)) == sorted(expand(talon)), "talon mismatch"
    while state.current_player == CHANCE:
        seat = next_deal_target(state)
        assert todo.get(seat), f"the engine deals to seat {seat}, whose cards are all dealt"
        state.apply(f"deal {seat} {todo[seat].pop(0)}")
    assert not any(todo.values()), f"cards left undealt: {todo}"


def play(state: NainJauneState, *actions: str) -> list[int]:
    """Apply ``actions`` ("5S", "claim", "pass") in turn order; returns who did each."""
    seats = []
    for action in actions:
        seats.append(state.current_player)
        state.apply(action if action in ("claim", "pass") else f"play {action}")
    return seats


def legal(state: NainJauneState) -> list[str]:
    """The legal actions as texts ("play 6H", "pass", "claim")."""
    return [state.action_to_text(a) for a in state.legal_actions()]


def vd(state: NainJauneState, seat: int) -> dict[str, Any]:
    return state.view(seat).to_dict()


def boxes(state: NainJauneState) -> list[int]:
    """Tokens on the boxes 10♦, J♣, Q♠, K♥, 7♦ (read from a view)."""
    return list(vd(state, 0)["boxes"].values())


def tokens(state: NainJauneState) -> list[int]:
    return list(vd(state, 0)["tokens"])


# The worked deals of the tests, for 4 players (12 cards each, 4 out of play).

#: "Six sans sept": seat 0 runs 5-6, seats 0 and 1 have no 7, seat 2 has.
SANS_SEPT = {
    0: "A* 2* 5S 6H 9C 9D",
    1: "3* 4* 5C 5D 8C 8D",
    2: "7C 7S 8H 8S 10* J*",
    3: "5H 6C 6D 6S 9H 9S Q* KC KD",
}
SANS_SEPT_TALON = "7D 7H KH KS"

#: Every 7 is out of play: after 5-6 nobody has the 7.
NO_SEVEN = {
    0: "5C 6C 8C A* 2* 3C",
    1: "3D 3H 3S 4* 5D 5H 5S 6D 6H",
    2: "6S 8D 8H 8S 9* 10*",
    3: "J* Q* K*",
}
NO_SEVEN_TALON = "7*"

#: Every King is out of play: after J-Q nobody has the King.
NO_KING = {
    0: "JC QC A* 2* 3C 3D",
    1: "3H 3S 4* 5* 6S 6H",
    2: "6C 6D 7* 8* 9C 9D",
    3: "9H 9S 10* JD JH JS QD QH QS",
}
NO_KING_TALON = "K*"

#: Seat 0 can run A..Q of clubs/diamonds in one go; seat 1 holds 10♦ J♣ Q♠ 7♦.
RUN_OUT = {
    0: "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QD",
    1: "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JC QS",
    2: "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
    3: "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QC",
}
RUN_OUT_TALON = "K*"

#: Seat 0 plays the ace, seat 1 runs 2..K and goes out (not the opener).
SECOND_OUT = {
    0: "AC AD AH AS 3D 3H 3S 4D 4H 4S 5D 5H",
    1: "2C 3C 4C 5C 6C 7C 8C 9C 10C JD QD KD",
    2: "2D 2H 2S 5S 6D 6H 6S 7D 7H 7S 8D 8H",
    3: "8S 9D 9H 9S 10D 10H 10S JC JH JS QC QH",
}
SECOND_OUT_TALON = "QS KC KH KS"
