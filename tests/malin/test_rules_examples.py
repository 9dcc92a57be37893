"""Worked examples of Le Malin's base rules (src/atout/i18n/en/rules/le-malin.md, rules-notes §1).

Each test deals explicit hands and plays the example the way the rule text
tells it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from atout.core.errors import IllegalAction, NotationError, OptionError
from atout.games.malin import MalinGame, MalinState
from atout.games.malin.rules import BID_ACTION, TWIN_PLAY

from .helpers import (
    HANDS_4P,
    REMOVED_4P,
    bid_all,
    deal,
    finish_hand,
    new_state,
    phase,
    play,
    play_lowest,
    vd,
)

#: Wish, Twin and Twin in three different hands (4 players).
SPECIAL_HANDS = [
    "1 5 9 13 17 21 25 29 33",
    "2 6 10 14 18 22 26 30 WISH",
    "3 7 11 15 19 23 27 31 TWIN",
    "4 8 12 16 20 24 28 34 TWIN",
]


def refused(state: MalinState, text: str, *words: str) -> None:
    """``text`` is refused with a reason naming ``words``, and the state is unchanged."""
    before = vd(state, 0), vd(state, 1), list(state.history)
    with pytest.raises(IllegalAction) as err:
        state.apply(text)
    for w in words:
        assert w in err.value.reason, err.value.reason
    assert (vd(state, 0), vd(state, 1), list(state.history)) == before


# -- set-up ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "size", "top", "high"), [(3, 7, 19, 20), (4, 9, 34, 35), (5, 7, 34, 35), (6, 6, 34, 35)]
)
def test_deck_and_deal_per_player_count(players: int, size: int, top: int, high: int) -> None:
    game = MalinGame(players)
    state = game.new_state(seed=5)
    views = [state.view(s) for s in range(players)]
    assert all(len(v.hand) == size for v in views)
    assert game.hand_size == size and game.top == top and game.twin_high == high
    removed = views[0].removed
    assert removed is not None and all(v.removed == removed for v in views)  # public, face up
    seen = [k for v in views for k in v.hand]
    assert 35 in seen or players == 5  # the Wish replaced the card put aside
    assert removed != 35  # the Wish is never the card put aside
    everything = sorted([*seen, removed])
    deck = sorted([*range(top), 34, 34, 35])
    if players == 5:
        # One card stays face down: in nobody's hand, not the card put aside.
        assert len(everything) == 36 and len(set(deck) - set(everything)) <= 1
        assert len(seen) == 35
    else:
        assert everything == deck


def test_the_card_put_aside_may_be_a_twin_and_is_then_out_of_play() -> None:
    state = new_state(4)
    deal(
        state,
        [
            "1 5 9 13 17 21 25 29 33",
            "2 6 10 14 18 22 26 30 34",
            "3 7 11 15 19 23 27 31 32",
            "4 8 12 16 20 24 28 TWIN WISH",
        ],
        "TWIN",
    )
    assert vd(state, 2)["removed"] == "TWIN"
    assert phase(state) == "bid"


def test_start_score_is_6_or_10() -> None:
    assert new_state(4).scores() == [10] * 4
    assert new_state(4, start_score=6).scores() == [6] * 4
    with pytest.raises(OptionError):
        MalinGame(4, start_score=0)


# -- bidding -----------------------------------------------------------------------


def test_bidding_from_the_dealers_left_distinct_and_below_the_trick_count() -> None:
    state = new_state(4, dealer=0)
    deal(state, HANDS_4P, REMOVED_4P)
    assert state.current_player == 1  # the dealer's left bids first
    with pytest.raises(NotationError):
        state.apply("bid 9")  # no such bid in a game of at most 9 tricks
    state.apply("bid 3")
    refused(state, "bid 3", "already bid by seat 1")
    state.apply("bid 2")
    state.apply("bid 0")
    # The dealer bids last and may not make the total 9: 3 + 2 + 0 + 4 = 9.
    assert state.current_player == 0
    refused(state, "bid 4", "may not add up to 9")
    assert [BID_ACTION.value(a) for a in state.legal_actions()] == [1, 5, 6, 7, 8]
    state.apply("bid 5")
    assert phase(state) == "play" and state.current_player == 1  # the first bidder leads


def test_running_sum_rule_forbids_every_partial_total() -> None:
    state = new_state(4, sum_rule="running")
    deal(state, HANDS_4P, REMOVED_4P)
    state.apply("bid 8")
    refused(state, "bid 1", "running sum")  # 8 + 1 = 9 already
    state.apply("bid 0")
    plain = new_state(4)
    deal(plain, HANDS_4P, REMOVED_4P)
    plain.apply("bid 8")
    plain.apply("bid 1")  # allowed with the default (final) rule


def test_three_players_the_dealer_may_not_complete_seven() -> None:
    state = new_state(3, dealer=2)
    deal(state, ["1 2 3 4 5 6 7", "8 9 10 11 12 13 14", "15 16 17 18 TWIN TWIN WISH"], "19")
    refused(state, "bid 7", "0 to 6")
    state.apply("bid 1")
    state.apply("bid 2")
    assert state.current_player == 2
    assert [BID_ACTION.value(a) for a in state.legal_actions()] == [
        0,
        3,
        5,
        6,
    ]  # not 1, 2 (taken), not 4 (sum 7)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_legal_bids_for_every_player_count(players: int) -> None:
    """Random bidding rounds: bids distinct, 0..N-1, the final total never N;
    at 6 players the dealer has exactly one legal bid, at 5 exactly three."""
    rng = random.Random(players)
    for sum_rule in ("final", "running"):
        game = MalinGame(players, first_dealer=0, sum_rule=sum_rule)
        size = game.hand_size
        for seed in range(30):
            state = game.new_state(seed=seed)
            bids: list[int] = []
            while phase(state) == "bid":
                legal = [BID_ACTION.value(a) for a in state.legal_actions()]
                assert legal and all(0 <= b < size and b not in bids for b in legal)
                if state.current_player == state.dealer:
                    assert all(sum(bids) + b != size for b in legal)
                    if players == 6:
                        assert len(legal) == 1
                    if players == 5:
                        assert len(legal) == 3
                if sum_rule == "running":
                    assert all(sum(bids) + b != size for b in legal)
                bids.append(rng.choice(legal))
                state.apply(f"bid {bids[-1]}")
            assert len(set(bids)) == players and sum(bids) != size
            if players == 6:
                assert sorted(bids) == list(range(6))


# -- tricks ------------------------------------------------------------------------


def test_no_obligation_to_follow_highest_card_wins_and_leads() -> None:
    state = new_state(4)
    deal(state, HANDS_4P, REMOVED_4P)
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    assert play(state, "30", "3", "28", "1") == [1, 2, 3, 0]  # nobody has to go higher
    view = vd(state, 0)
    assert view["tricks"][0]["winner"] == 1 and view["tricks_won"] == [0, 1, 0, 0]
    assert state.current_player == 1  # the winner leads the next trick


def test_second_twin_in_a_trick_takes_the_other_value() -> None:
    state = new_state(4)
    deal(state, HANDS_4P, REMOVED_4P)
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    play(state, "34", "TWIN 35")
    refused(state, "play TWIN 35", "must take 0")
    assert TWIN_PLAY(1) not in state.legal_actions() and TWIN_PLAY(0) in state.legal_actions()
    play(state, "TWIN 0", "33")
    assert vd(state, 0)["tricks"][0]["winner"] == 2  # 35 beats 34


def test_twins_in_different_tricks_choose_freely() -> None:
    state = new_state(4)
    deal(state, HANDS_4P, REMOVED_4P)
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    play(state, "2", "TWIN 35", "4", "1")  # seat 2 wins and leads
    play(state, "3", "TWIN 35", "5", "6")  # the other Twin may take 35 again
    assert [t["winner"] for t in vd(state, 0)["tricks"]] == [2, 3]


def test_wish_may_not_take_a_value_already_in_the_trick() -> None:
    state = new_state(4)
    deal(state, SPECIAL_HANDS, "32")
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    state.apply("play 2")
    # Seat 1 led; make seat 1's Wish come after a Twin in the next trick instead.
    play(state, "TWIN 35", "4", "1")  # seat 2 wins the first trick
    state.apply("play 3")  # seat 2 leads 3
    state.apply("play 8")  # seat 3
    state.apply("play 5")  # seat 0
    refused(state, "play WISH 8", "already in this trick")
    with pytest.raises(NotationError, match="-100"):
        state.apply("play WISH 101")
    state.apply("play WISH 9")
    assert vd(state, 0)["tricks"][-1]["winner"] == 1


def test_wish_collision_the_owner_declares_again() -> None:
    """A card played after the Wish with the Wish's value: the Wish's owner re-declares."""
    state = new_state(4)
    deal(state, SPECIAL_HANDS, "32")
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    play(state, "WISH 12", "TWIN 35")
    play(state, "12")  # seat 3 plays 12, the Wish's value
    assert phase(state) == "redeclare" and state.current_player == 1
    refused(state, "wish 35", "already in the trick")
    refused(state, "wish 12", "already in the trick")
    refused(state, "play 2", "new Wish value")
    state.apply("wish 36")
    state.apply("play 1")
    trick = vd(state, 0)["tricks"][0]
    assert trick["winner"] == 1 and trick["cards"][0]["value"] == 36


def test_wish_collision_last_trick_only_variant() -> None:
    state = new_state(4, wish_collision="last_trick_only")
    deal(state, SPECIAL_HANDS, "32")
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    play(state, "WISH 12", "TWIN 35", "12")  # no re-declaration outside the last trick
    assert phase(state) == "play"
    play(state, "13")
    assert vd(state, 0)["tricks"][0]["winner"] == 2  # Twin 35 beats the tied 12s


def test_wish_collision_tie_goes_to_the_earlier_card_outside_the_last_trick() -> None:
    state = new_state(4, wish_collision="last_trick_only")
    deal(state, SPECIAL_HANDS, "32")
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    play(state, "WISH 34", "3", "34", "1")  # 34 = 34: the Wish came first and wins
    assert vd(state, 0)["tricks"][0]["winner"] == 1


def to_last_trick(**options: Any) -> MalinState:
    """SPECIAL_HANDS played lowest-first for 8 tricks: seat 3 wins them all (4k beats
    4k-1, 4k-2, 4k-3, then 34), and the last trick is seat 3 TWIN, seat 0 33,
    seat 1 WISH, seat 2 TWIN."""
    state = new_state(4, **options)
    deal(state, SPECIAL_HANDS, "32")
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    play_lowest(state, 8)
    assert vd(state, 0)["tricks_won"] == [0, 0, 0, 8]
    assert [vd(state, s)["hand"] for s in range(4)] == [["33"], ["WISH"], ["TWIN"], ["TWIN"]]
    assert state.current_player == 3
    return state


def test_wish_collision_in_the_last_trick_under_both_settings() -> None:
    """Seed: in the last trick, a Wish equal to a later card must choose a different value."""
    for setting in ("redeclare_any_trick", "last_trick_only"):
        state = to_last_trick(wish_collision=setting)
        play(state, "TWIN 0", "33", "WISH 35", "TWIN 35")  # the second Twin is forced to 35
        assert phase(state) == "redeclare" and state.current_player == 1
        state.apply("wish 34")
        assert state.round == 2
        # Both Twins and the Wish were in the last trick: the Wish won it.
        assert vd(state, 0)["sheet"][0]["tricks"] == [0, 1, 0, 8]


def test_the_wish_beats_both_twins_in_the_last_trick() -> None:
    """Seed: if both Twins and the Wish are in the last trick, the Wish wins, whatever its value."""
    for rule, winner in (("last_trick", 1), ("any_trick", 1), ("never", 3)):
        state = to_last_trick(wish_beats_both_twins=rule)
        play(state, "TWIN 35", "33", "WISH -100", "TWIN 0")
        tricks = vd(state, 0)["sheet"][0]["tricks"]
        assert tricks[winner] == (9 if winner == 3 else 1), (rule, tricks)


def test_wish_beats_both_twins_only_in_the_last_trick_by_default() -> None:
    for rule, expected in (("last_trick", 2), ("any_trick", 1)):
        state = new_state(4, wish_beats_both_twins=rule)
        deal(state, SPECIAL_HANDS, "32")
        bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
        play(state, "WISH -100", "TWIN 35", "TWIN 0", "1")
        assert vd(state, 0)["tricks"][0]["winner"] == expected


def test_wish_forbidden_scope_hand() -> None:
    state = new_state(4, wish_forbidden_scope="hand")
    deal(state, SPECIAL_HANDS, "32")
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    play(state, "2", "3", "4", "1")  # seat 3 wins with 4
    play(state, "8", "5")
    refused(state, "play WISH 3", "already in this hand")  # 3 was played in trick 1
    state.apply("play WISH 7")


def test_twin_value_avoid_taken_variant() -> None:
    state = new_state(4, twin_value="avoid_taken")
    deal(state, SPECIAL_HANDS, "32")
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    state.apply("play WISH 35")
    refused(state, "play TWIN 35", "avoid a value")
    state.apply("play TWIN 0")
    free = new_state(4)
    deal(free, SPECIAL_HANDS, "32")
    bid_all(free, {1: 1, 2: 2, 3: 3, 0: 0})
    free.apply("play WISH 35")
    free.apply("play TWIN 35")  # free: allowed, and the Wish must choose again
    assert phase(free) == "redeclare"


# -- scoring and the end -----------------------------------------------------------


def test_penalty_is_the_distance_between_bid_and_tricks() -> None:
    state = new_state(4)
    deal(state, HANDS_4P, REMOVED_4P)
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    finish_hand(state)
    sheet = vd(state, 0)["sheet"][0]
    assert sum(sheet["tricks"]) == 9
    assert sheet["penalties"] == [abs(b - t) for b, t in zip(sheet["bids"], sheet["tricks"], strict=True)]
    assert state.scores() == [10 - p for p in sheet["penalties"]]
    assert state.round == 2 and state.dealer == 1  # the dealer's left deals next


def test_game_ends_after_the_hand_a_score_reaches_zero_scores_may_go_negative() -> None:
    state = new_state(4, start_score=1)
    deal(state, HANDS_4P, REMOVED_4P)
    bid_all(state, {1: 8, 2: 7, 3: 6, 0: 5})
    finish_hand(state)
    assert state.is_terminal
    penalties = vd(state, 0)["sheet"][0]["penalties"]
    assert state.scores() == [1 - p for p in penalties]
    assert min(state.scores()) < 0
    best = max(state.scores())
    assert state.winners() == [s for s in range(4) if state.scores()[s] == best]


def test_clamp_at_zero_variant() -> None:
    state = new_state(4, start_score=1, clamp_at_zero=True)
    deal(state, HANDS_4P, REMOVED_4P)
    bid_all(state, {1: 8, 2: 7, 3: 6, 0: 5})
    finish_hand(state)
    assert state.is_terminal and min(state.scores()) == 0


def test_six_players_lose_at_least_nine_points_a_hand() -> None:
    game = MalinGame(6)
    state = game.new_state(seed=3)
    rng = random.Random(1)
    while state.round == 1:
        state.apply(rng.choice(state.legal_actions()))
    penalties = state.view(0).sheet[0][2]
    assert sum(penalties) >= 9
