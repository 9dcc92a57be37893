"""The heuristic bot: legal, bids from its hand, uses the Wish and Twins, saves contracts with Malheur cards."""

from __future__ import annotations

import pytest

from atout.bots.random import RandomBot
from atout.core.bot import Bot
from atout.games.malin import MalinGame, MalinState
from atout.games.malin.bot import MalinHeuristicBot
from atout.games.malin.rules import BID_ACTION, PASS

from .helpers import (
    HANDS_4P,
    REMOVED_4P,
    bid_all,
    deal,
    draw_malheurs,
    new_state,
    pass_window,
    phase,
    play,
    vd,
)

SPECIAL_HANDS = [
    "1 5 9 13 17 21 25 29 33",
    "2 6 10 14 18 22 26 30 WISH",
    "3 7 11 15 19 23 27 31 TWIN",
    "4 8 12 16 20 24 28 34 TWIN",
]


def bot_for(state: MalinState, seat: int) -> MalinHeuristicBot:
    bot = MalinHeuristicBot(seed=1)
    bot.start(state.game, seat)
    return bot


def choose_text(state: MalinState) -> str:
    seat = state.current_player
    action = bot_for(state, seat).choose(state.view(seat))
    assert action in state.legal_actions()
    return state.game.action_to_text(action)


def test_bids_follow_hand_strength() -> None:
    strong = ["1 2 3 4 5 6 7", "8 9 10 11 12 13 14", "15 16 17 18 19 TWIN WISH"]
    state = new_state(3, dealer=2)
    deal(state, strong, "TWIN")
    bids = {}
    while phase(state) == "bid":
        seat = state.current_player
        action = bot_for(state, seat).choose(state.view(seat))
        bids[seat] = BID_ACTION.value(action)
        state.apply(action)
    assert bids[0] == 0  # 1..7: no trick
    assert bids[2] >= 3  # 15..19, the Twin and the Wish


def test_wants_the_trick_wins_it_cheaply_when_last() -> None:
    state = new_state(4)
    deal(state, SPECIAL_HANDS, "32")
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    play(state, "WISH 5", "TWIN 35", "4", "1")  # seat 2 wins the first trick
    # Seat 1 still needs its trick; playing last, it wins with its cheapest winning card.
    play(state, "3", "8", "5")
    assert state.current_player == 1
    assert choose_text(state) == "play 10"


def test_contract_made_ducks_with_the_twin_at_zero() -> None:
    state = new_state(4)
    deal(state, SPECIAL_HANDS, "32")
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    # Seat 2 bid... make seat 0 (bid 0) face a trick where only specials could lose.
    play(state, "2", "3")
    # Seat 3 needs tricks: plays a winner; seat 0 (bid 0) then ducks under it.
    assert choose_text(state).startswith("play")
    state.apply(choose_text(state))
    text = choose_text(state)
    value = int(text.split()[-1])
    best = max(c["value"] for c in vd(state, 0)["trick"])
    assert value < best  # seat 0 does not take a trick it does not want


def test_wish_redeclared_high_when_the_trick_is_needed() -> None:
    state = new_state(4)
    deal(state, SPECIAL_HANDS, "32")
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    play(state, "WISH 12", "TWIN 35", "12")
    assert phase(state) == "redeclare"
    assert choose_text(state) == "wish 100"  # seat 1 bid 1 and still needs its trick


def test_a_malheur_card_saves_the_contract() -> None:
    """Seat 0 bid 0 and is about to win the trick with 33: it plays Fennec on its own card."""
    state = new_state(4, fun=True)
    draw_malheurs(state, {1: ["666"], 2: ["666"], 3: ["666"], 0: ["fennec"]})
    deal(state, HANDS_4P, REMOVED_4P)
    pass_window(state)
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    for card in ("2", "3", "4"):
        state.apply(f"play {card}")
        pass_window(state)
    state.apply("play 33")
    while state.current_player != 0:
        assert choose_text(state) == "pass"  # nobody else gains by acting
        state.apply("pass")
    text = choose_text(state)
    assert text.startswith("malheur fennec on 0") or text.startswith("malheur 666")
    state.apply(text)
    while phase(state) != "play":
        state.apply(choose_text(state))
    assert vd(state, 0)["tricks"][0]["winner"] != 0


def test_avocat_redirects_when_it_helps() -> None:
    state = new_state(4, fun=True)
    draw_malheurs(state, {1: ["avocat"], 2: ["666"], 3: ["666"], 0: ["fennec"]})
    deal(state, HANDS_4P, REMOVED_4P)
    pass_window(state)
    bid_all(state, {1: 1, 2: 2, 3: 3, 0: 0})
    for card in ("34", "3", "4", "1"):
        state.apply(f"play {card}")
        if card != "1":
            pass_window(state)
    while state.current_player != 0:
        state.apply("pass")
    state.apply("malheur fennec on 1")  # aimed at seat 1's 34: seat 1 needs that trick
    assert phase(state) == "react"
    text = choose_text(state)
    assert text.startswith("malheur avocat on ")
    state.apply(text)
    while phase(state) != "play":
        state.apply("pass")
    assert vd(state, 0)["tricks"][0]["winner"] == 1


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_heuristic_beats_random_and_stays_legal(players: int) -> None:
    game = MalinGame(players, fun=True)
    wins = [0, 0]
    hit = [0, 0]
    for seed in range(6):
        state = game.new_state(seed=seed)
        bots: list[Bot] = [MalinHeuristicBot(seed) if s % 2 == 0 else RandomBot(seed) for s in range(players)]
        for s, b in enumerate(bots):
            b.start(game, s)
        while not state.is_terminal:
            seat = state.current_player
            action = bots[seat].choose(state.view(seat))
            assert action in state.legal_actions()
            state.apply(action)
        for seat in state.winners():
            wins[seat % 2] += 1
        for _, _, penalties in state.view(0).sheet:
            for s in range(players):
                hit[s % 2] += penalties[s] == 0
    assert wins[0] > wins[1]
    assert hit[0] > 2 * hit[1]


def test_pass_is_the_default_in_windows() -> None:
    state = new_state(4, fun=True)
    draw_malheurs(state, {1: ["666"], 2: ["666"], 3: ["666"], 0: ["fennec"]})
    deal(state, HANDS_4P, REMOVED_4P)
    assert phase(state) == "window"
    assert bot_for(state, 1).choose(state.view(1)) == PASS
