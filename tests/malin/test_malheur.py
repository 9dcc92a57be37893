"""Worked examples of the "jeu fun" Malheur cards, their windows and reactions.

4 players, dealer 0: the opening Malheur cards are drawn by seats 1, 2, 3, 0;
after the deal a window opens (seat 1 first); after each card a window opens
with the next seat first.  Only seats holding Malheur cards are asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from atout.core.errors import IllegalAction, NotationError
from atout.games.malin import MalinState
from atout.games.malin.rules import PASS, gains

from .helpers import (
    HANDS_4P,
    REMOVED_4P,
    bid_all,
    deal,
    draw_malheurs,
    finish_hand,
    new_state,
    pass_until,
    pass_window,
    phase,
    vd,
)

BIDS = {1: 1, 2: 2, 3: 3, 0: 0}


def fun_state(malheurs: Mapping[int, str], hands: list[str] | None = None, **options: Any) -> MalinState:
    """Jeu fun, 4 players: each seat's opening Malheur card, the deal, every window passed, the bids."""
    state = new_state(4, fun=True, **options)
    draw_malheurs(state, {s: [m] for s, m in malheurs.items()})
    deal(state, hands or HANDS_4P, REMOVED_4P)
    assert vd(state, 0)["window"] == "before bidding"
    pass_window(state)
    bid_all(state, BIDS)
    return state


def card_then_pass(state: MalinState, *cards: str) -> None:
    """Play each card and let everyone pass the window after it (not after the last one)."""
    for i, card in enumerate(cards):
        state.apply(f"play {card}")
        if i < len(cards) - 1:
            pass_window(state)


def values(state: MalinState) -> list[float]:
    return [c["value"] for c in vd(state, 0)["trick"]]


def last_winner(state: MalinState) -> int:
    return int(vd(state, 0)["tricks"][-1]["winner"])


def refused(state: MalinState, text: str, *words: str) -> None:
    before = [vd(state, s) for s in range(4)], list(state.history)
    with pytest.raises(IllegalAction) as err:
        state.apply(text)
    for w in words:
        assert w in err.value.reason, err.value.reason
    assert ([vd(state, s) for s in range(4)], list(state.history)) == before


def test_opening_malheur_cards_and_the_window_before_bidding() -> None:
    state = new_state(4, fun=True)
    assert phase(state) == "gain"
    draw_malheurs(state, {1: ["fennec"], 2: ["666"], 3: ["avocat"], 0: ["malin"]})
    assert vd(state, 0)["malheur"] == {"malin": 1, "avocat": 0, "666": 0, "belzebuth": 0, "fennec": 0}
    assert vd(state, 0)["malheur_counts"] == [1, 1, 1, 1] and vd(state, 0)["malheur_pile"] == 16
    deal(state, HANDS_4P, REMOVED_4P)
    asked = []
    while phase(state) == "window":
        asked.append(state.current_player)
        state.apply("pass")
    assert asked == [1, 2, 3, 0] and phase(state) == "bid"


def test_666_reverses_the_digits_19_becomes_91() -> None:
    state = fun_state({0: "666", 1: "fennec", 2: "belzebuth", 3: "fennec"})
    card_then_pass(state, "18", "19", "20", "17")
    pass_until(state, 0)
    with pytest.raises(NotationError, match="worth 19"):
        state.apply("malheur 666 on 2:18")  # the named card is checked against the trick
    state.apply("malheur 666 on 2:19")
    # Seat 2's card is aimed at: seat 2 may answer (it holds no Avocat: pass only).
    assert phase(state) == "react" and state.current_player == 2 and state.legal_actions() == [PASS]
    assert vd(state, 1)["pending"] == {
        "caster": 0,
        "card": "666",
        "targets": [2],
        "asking": 0,
        "redirected": [False],
    }
    state.apply("pass")
    assert values(state) == [18, 91, 20, 17]
    pass_window(state)
    assert last_winner(state) == 2


def test_666_on_single_digits_unchanged_or_padded() -> None:
    for setting, expected_values, winner in (
        ("unchanged", [2, 3, 4, 1], 3),
        ("pad_to_two", [2, 30, 4, 1], 2),
    ):
        state = fun_state({0: "666", 1: "fennec", 2: "fennec", 3: "fennec"}, reverse_single_digit=setting)
        card_then_pass(state, "2", "3", "4", "1")
        pass_until(state, 0)
        state.apply("malheur 666 on 2")
        state.apply("pass")  # seat 2 does not redirect
        assert values(state) == expected_values
        pass_window(state)
        assert last_winner(state) == winner


def test_belzebuth_halves_odd_values_exactly_or_rounding_down() -> None:
    for setting, half in (("exact", 17.5), ("floor", 17)):
        state = fun_state({0: "belzebuth", 1: "666", 2: "fennec", 3: "fennec"}, halve_rounding=setting)
        card_then_pass(state, "18", "TWIN 35", "20", "17")
        pass_until(state, 0)
        state.apply("malheur belzebuth on 2")
        state.apply("pass")
        assert values(state) == [18, half, 20, 17]
        assert state.current_player == 1  # the window goes on after the caster
        if setting == "exact":
            refused(state, "malheur 666 on 2", "whole number", "17.5")
        pass_window(state)
        assert last_winner(state) == 3  # 20 now beats the halved Twin


def test_fennec_sets_a_card_to_zero() -> None:
    state = fun_state({0: "fennec", 1: "666", 2: "666", 3: "666"})
    card_then_pass(state, "34", "3", "4", "1")
    pass_until(state, 0)
    state.apply("malheur fennec on 1:34")
    state.apply("pass")
    assert values(state) == [0, 3, 4, 1]
    pass_window(state)
    assert last_winner(state) == 3


def test_a_tie_made_by_a_malheur_card_goes_to_the_earlier_card() -> None:
    state = fun_state({0: "666", 1: "fennec", 2: "fennec", 3: "fennec"})
    card_then_pass(state, "2", "31", "4", "13")
    pass_until(state, 0)
    state.apply("malheur 666 on 2")  # 31 -> 13, equal to seat 0's 13
    state.apply("pass")
    pass_window(state)
    assert last_winner(state) == 2


def test_avocat_du_diable_redirects_a_card_effect() -> None:
    state = fun_state({0: "fennec", 1: "avocat", 2: "666", 3: "666"})
    card_then_pass(state, "34", "19", "20", "1")
    pass_until(state, 0)
    state.apply("malheur fennec on 1")
    assert phase(state) == "react" and state.current_player == 1
    refused(state, "malheur avocat on 1", "another player")
    refused(state, "malheur fennec on 2", "Avocat")
    state.apply("malheur avocat on 3")  # seat 3's 20 takes the Fennec instead
    assert state.current_player == 3 and phase(state) == "react"
    state.apply("pass")
    assert values(state) == [34, 19, 0, 1]
    assert vd(state, 2)["malheur_log"] == [[0, "malheur fennec on 1"], [1, "malheur avocat on 3"]]
    pass_window(state)
    assert last_winner(state) == 1


def test_avocat_chain_back_to_the_caster() -> None:
    state = fun_state({0: "fennec", 1: "avocat", 2: "avocat", 3: "666"})
    card_then_pass(state, "34", "19", "20", "1")
    pass_until(state, 0)
    state.apply("malheur fennec on 1")
    state.apply("malheur avocat on 2")
    assert state.current_player == 2 and phase(state) == "react"
    state.apply("malheur avocat on 0")  # back to the caster, who holds nothing more
    assert values(state) == [34, 19, 20, 0]
    assert vd(state, 0)["malheur_counts"] == [0, 0, 0, 1]


def test_avocat_is_not_played_in_a_plain_window() -> None:
    state = fun_state({0: "fennec", 1: "avocat", 2: "666", 3: "666"})
    state.apply("play 34")
    pass_until(state, 1)
    refused(state, "malheur avocat on 2", "only played in answer")


def test_le_malin_takes_a_random_card_from_each_of_two_opponents() -> None:
    state = new_state(4, fun=True)
    draw_malheurs(state, {1: ["fennec"], 2: ["belzebuth"], 3: ["666"], 0: ["malin"]})
    deal(state, HANDS_4P, REMOVED_4P)
    pass_until(state, 0)
    refused(state, "malheur malin on 0", "not from yourself")
    state.apply("malheur malin on 1 2")
    assert phase(state) == "react" and state.current_player == 1
    state.apply("pass")
    assert state.current_player == 2
    state.apply("pass")
    assert phase(state) == "steal" and state.chance_outcomes() == [(47 + 5 * 1 + 4, 1.0)]
    state.apply("steal 1 fennec")
    state.apply("steal 2 belzebuth")
    assert vd(state, 0)["malheur"]["fennec"] == 1 and vd(state, 0)["malheur"]["belzebuth"] == 1
    assert vd(state, 3)["malheur_counts"] == [2, 0, 0, 1]
    # Seat 3 saw that cards were taken, not which: hidden in its history, shown to the thief and victims.
    steals = [len(state.history) - 2, len(state.history) - 1]
    assert state.history[-2:] == [47 + 5 + 4, 47 + 10 + 3]
    assert all(state.redacted_history(3)[i] is None for i in steals)
    assert all(state.redacted_history(0)[i] is not None for i in steals)
    # The window goes on: seats 1 and 2 now hold nothing and are not asked.
    asked = []
    while phase(state) == "window":
        asked.append(state.current_player)
        state.apply("pass")
    assert asked == [3, 0]


def test_le_malin_one_total_variant_and_empty_targets() -> None:
    state = new_state(4, fun=True, malin_steal="one_total")
    draw_malheurs(state, {1: ["fennec"], 2: ["belzebuth"], 3: ["666"], 0: ["malin"]})
    deal(state, HANDS_4P, REMOVED_4P)
    pass_until(state, 0)
    state.apply("malheur malin on 1 3")
    state.apply("pass")
    state.apply("pass")
    assert sorted(state.chance_outcomes()) == [(47 + 5 + 4, 0.5), (47 + 15 + 2, 0.5)]
    state.apply("steal 3 666")
    assert vd(state, 0)["malheur_counts"] == [1, 1, 1, 0] and phase(state) == "window"


def test_avocat_redirects_le_malin_to_another_victim() -> None:
    state = new_state(4, fun=True)
    draw_malheurs(state, {1: ["avocat"], 2: ["belzebuth"], 3: ["666"], 0: ["malin"]})
    deal(state, HANDS_4P, REMOVED_4P)
    pass_until(state, 0)
    state.apply("malheur malin on 1")
    refused(state, "malheur avocat on 0", "cannot be the new victim")
    state.apply("malheur avocat on 2")
    state.apply("pass")  # seat 2 has no Avocat
    assert state.chance_outcomes() == [(47 + 10 + 3, 1.0)]
    state.apply("steal 2 belzebuth")
    assert vd(state, 0)["malheur_counts"] == [1, 0, 0, 1]


def test_a_wish_changed_by_a_malheur_card_no_longer_redeclares() -> None:
    hands = [
        "1 5 9 13 17 21 25 29 33",
        "2 6 10 14 18 22 26 30 WISH",
        "3 7 11 15 19 23 27 31 TWIN",
        "4 8 12 16 20 24 28 34 TWIN",
    ]
    state = fun_state({0: "fennec", 1: "666", 2: "666", 3: "666"}, hands=hands)
    state.apply("play WISH 50")
    pass_until(state, 0)
    state.apply("malheur fennec on 1")
    state.apply("pass")
    pass_window(state)
    state.apply("play TWIN 0")  # equals the Wish's current value 0: no re-declaration
    assert phase(state) == "window"
    pass_window(state)
    card_then_pass(state, "4", "1")
    pass_window(state)
    assert last_winner(state) == 3


def test_windows_ask_only_seats_holding_malheur_cards() -> None:
    state = new_state(
        4, fun=True, malin_copies=0, avocat_copies=0, copies_666=0, belzebuth_copies=0, fennec_copies=2
    )
    draw_malheurs(state, {1: ["fennec"], 2: ["fennec"]})  # the Malheur deck is then empty
    assert vd(state, 0)["malheur_counts"] == [0, 1, 1, 0]
    deal(state, HANDS_4P, REMOVED_4P)
    asked = []
    while phase(state) == "window":
        asked.append(state.current_player)
        state.apply("pass")
    assert asked == [1, 2]
    bid_all(state, BIDS)
    state.apply("play 2")
    asked = []
    while phase(state) == "window":
        asked.append(state.current_player)
        state.apply("pass")
    assert asked == [2, 1] and state.current_player == 2 and phase(state) == "play"


def test_gain_rules() -> None:
    assert [gains(10, 7, "odd_crossed"), gains(10, 8, "odd_crossed"), gains(9, 8, "odd_crossed")] == [2, 1, 0]
    assert [gains(6, 5, "odd_crossed"), gains(7, 7, "odd_crossed"), gains(3, -2, "odd_crossed")] == [1, 0, 2]
    assert [gains(10, 7, "final_odd"), gains(10, 8, "final_odd"), gains(7, 7, "final_odd")] == [1, 0, 0]
    assert [gains(10, 7, "per_point"), gains(7, 7, "per_point")] == [3, 0]


@pytest.mark.parametrize("rule", ["odd_crossed", "final_odd", "per_point"])
def test_malheur_cards_are_gained_after_a_hand_and_kept(rule: str) -> None:
    state = new_state(4, fun=True, malheur_gain=rule, copies_666=20)
    draw_malheurs(state, {1: ["fennec"], 2: ["fennec"], 3: ["fennec"], 0: ["fennec"]})
    deal(state, HANDS_4P, REMOVED_4P)
    pass_window(state)
    bid_all(state, BIDS)
    finish_hand(state)
    penalties = vd(state, 0)["sheet"][0]["penalties"]
    due = {s: gains(10, 10 - penalties[s], rule) for s in range(4)}
    assert sum(due.values()) <= 20  # the draw pile holds enough 666s for this example
    assert vd(state, 0)["gain_queue"] == [s for s in (1, 2, 3, 0) for _ in range(due[s])]
    draw_malheurs(state, {s: ["666"] * due[s] for s in range(4)})
    assert state.round == 2 and phase(state) == "remove"
    for s in range(4):
        assert vd(state, s)["malheur"]["fennec"] == 1  # kept from the first hand
        assert vd(state, s)["malheur"]["666"] == due[s]
