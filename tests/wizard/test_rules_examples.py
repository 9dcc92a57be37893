"""Worked examples that read like the rules (AMIGO Wizard, rules-notes §3).

Each test deals explicit hands through explicit chance outcomes and plays the
cards a table would; the expected results come from the rule texts, not from
the engine.
"""

from __future__ import annotations

import pytest

from atout.core.errors import IllegalAction
from atout.core.game import CHANCE, TERMINAL
from atout.games.wizard import WizardGame, WizardState

from .helpers import bid_all, blind_text, deal, finish_round, goto_round, new_state, phase, play, vd


def legal_texts(state: WizardState) -> list[str]:
    return [state.action_to_text(a) for a in state.legal_actions()]


def one_trick(cards: list[str], turn: str | None, trump: str | None = None) -> int:
    """Round 1 with len(cards) players, dealer 0: the players (seats 1, 2, ..., 0,
    the dealer's left first) play ``cards`` in that order.  Returns the position
    (0 = the leader) of the trick's winner."""
    n = len(cards)
    order = [(1 + i) % n for i in range(n)]
    state = new_state(n, dealer=0)
    deal(state, {seat: card for seat, card in zip(order, cards, strict=True)}, turn=turn, trump=trump)
    bid_all(state, [0] * n)
    seats = play(state, *cards)
    assert seats == order, "the dealer's left leads the first trick, then clockwise"
    won = vd(state, 0)["sheet"][0]["tricks"]
    assert sorted(won) == [0] * (n - 1) + [1], "one trick, one winner"
    return order.index(won.index(1))


# --- who wins a trick ------------------------------------------------------------------


class TestTrickWinner:
    def test_wizard_led_wins_the_trick(self) -> None:
        # "Wird ein Stich mit einer Zaubererkarte eröffnet ... Der Stich geht in jedem Fall an den ersten Zauberer"
        assert one_trick(["Z", "B13", "Z", "R13"], turn="R1") == 0

    def test_first_wizard_wins_even_against_trumps_and_later_wizards(self) -> None:
        assert one_trick(["R13", "Z", "R12", "Z"], turn="R1") == 1

    def test_first_wizard_after_jesters_wins(self) -> None:
        assert one_trick(["N", "N", "Z", "Z"], turn="B1") == 2

    def test_wizard_after_jesters_frees_the_trick_and_wins(self) -> None:
        assert one_trick(["N", "Z", "B13", "R13"], turn="R1") == 1

    def test_all_jesters_first_jester_wins(self) -> None:
        # "Werden in einem Stich nur Narren gespielt, dann gewinnt die erste Narrenkarte den Stich."
        assert one_trick(["N", "N", "N", "N"], turn="B5") == 0

    def test_highest_trump_wins(self) -> None:
        # turned R1: red is trump
        assert one_trick(["B13", "R2", "R9", "B12"], turn="R1") == 2

    def test_lowest_trump_beats_highest_led_card(self) -> None:
        assert one_trick(["B13", "R1", "B12"], turn="R5") == 1

    def test_highest_card_of_led_suit_wins_and_off_suit_never_wins(self) -> None:
        # trump red, nobody trumps: Y13 and B13 are discards
        assert one_trick(["G5", "Y13", "G9", "B13"], turn="R3") == 2

    def test_led_card_wins_when_everybody_discards(self) -> None:
        assert one_trick(["G2", "Y13", "B13"], turn="R3") == 0

    def test_jester_turned_up_means_no_trump(self) -> None:
        # a Jester turned up: no trump, so Y13/B13 are plain discards on a green lead
        assert one_trick(["G5", "Y13", "G9", "B13"], turn="N") == 2

    def test_jester_lead_the_first_ordinary_card_sets_the_suit(self) -> None:
        # N leads, B3 sets blue; G13 is then an off-suit discard; B7 wins
        assert one_trick(["N", "B3", "G13", "B7"], turn="N") == 3

    def test_two_jesters_then_the_first_ordinary_card_sets_the_suit(self) -> None:
        assert one_trick(["N", "N", "G4", "B13"], turn="R1") == 2

    def test_jester_lead_trump_still_beats_the_suit(self) -> None:
        assert one_trick(["N", "B3", "G13", "Y2"], turn="Y1") == 3

    def test_trump_chosen_by_the_dealer_after_a_turned_wizard(self) -> None:
        assert one_trick(["B13", "G1", "B2", "B3"], turn="Z", trump="green") == 1

    def test_jester_loses_to_any_card(self) -> None:
        assert one_trick(["B1", "N", "N"], turn="N") == 0


# --- follow suit -------------------------------------------------------------------------


class TestFollowSuit:
    def make(self, hands: dict[int, str] | None = None, turn: str = "Y13") -> WizardState:
        state = new_state(3, dealer=1)
        goto_round(state, 3)  # dealers: 1, 2, 0 -> round 3 dealer 0, 3 cards each
        assert vd(state, 0)["dealer"] == 0
        deal(state, hands or {1: "B5 G2 R9", 2: "B3 B11 Y4", 0: "G7 N R2"}, turn=turn)
        bid_all(state, [1, 1, 1])
        assert state.current_player == 1, "the dealer's left leads"
        return state

    def test_must_follow_the_led_suit_even_holding_trump(self) -> None:
        state = self.make()
        play(state, "B5")
        assert set(legal_texts(state)) == {"play B3", "play B11"}
        with pytest.raises(IllegalAction) as err:
            state.apply("play Y4")  # yellow is trump: holding it does not exempt
        assert str(err.value).startswith("you must follow blue")
        assert "B3" in str(err.value) and "B11" in str(err.value)

    def test_follow_suit_refusal_message_shape(self) -> None:
        state = self.make()
        play(state, "B5")
        with pytest.raises(IllegalAction) as err:
            state.apply("play Y4")
        assert str(err.value) == "you must follow blue: you hold B3, B11"

    def test_wizard_and_jester_are_always_playable(self) -> None:
        state = self.make({1: "B5 G2 R9", 2: "B3 Z N", 0: "G7 G8 R2"})
        play(state, "B5")
        assert set(legal_texts(state)) == {"play B3", "play Z", "play N"}
        for card in ("Z", "N"):
            trial = state.clone()
            trial.apply(f"play {card}")

    def test_void_player_may_discard_or_trump(self) -> None:
        state = self.make()
        play(state, "B5", "B11")
        assert set(legal_texts(state)) == {"play G7", "play N", "play R2"}
        play(state, "G7")
        # B11 wins (G7 is an off-suit discard) and seat 2 leads the next trick
        assert vd(state, 0)["tricks"][0] == {"cards": [[1, "B5"], [2, "B11"], [0, "G7"]], "winner": 2}
        assert state.current_player == 2
        assert vd(state, 0)["leader"] == 2

    def test_wizard_lead_frees_everybody(self) -> None:
        state = self.make({1: "Z G2 R9", 2: "B3 B11 Y4", 0: "G7 N R2"})
        play(state, "Z")
        assert set(legal_texts(state)) == {"play B3", "play B11", "play Y4"}
        play(state, "Y4")
        assert set(legal_texts(state)) == {"play G7", "play N", "play R2"}

    def test_jester_lead_the_next_ordinary_card_sets_the_suit_to_follow(self) -> None:
        state = self.make({1: "N G2 R9", 2: "B7 G9 R1", 0: "B4 G1 Y5"})
        play(state, "N")
        assert set(legal_texts(state)) == {"play B7", "play G9", "play R1"}, "no suit yet"
        play(state, "B7")
        assert set(legal_texts(state)) == {"play B4"}
        with pytest.raises(IllegalAction, match="you must follow blue"):
            state.apply("play G1")

    def test_wizard_after_a_jester_lead_frees_the_trick(self) -> None:
        state = self.make({1: "N G2 R9", 2: "Z G9 R1", 0: "B4 G1 Y5"})
        play(state, "N", "Z")
        assert set(legal_texts(state)) == {"play B4", "play G1", "play Y5"}

    def test_cannot_play_a_card_not_held(self) -> None:
        state = self.make()
        with pytest.raises(IllegalAction, match="B13"):
            state.apply("play B13")
        with pytest.raises(IllegalAction):
            state.apply("play Z")

    def test_refusal_leaves_the_state_unchanged(self) -> None:
        state = self.make()
        play(state, "B5")
        before = ([vd(state, s) for s in range(3)], list(state.history))
        with pytest.raises(IllegalAction):
            state.apply("play Y4")
        assert ([vd(state, s) for s in range(3)], list(state.history)) == before


# --- the turned-up card ---------------------------------------------------------------


class TestTurnedCard:
    def test_ordinary_card_sets_trump(self) -> None:
        state = new_state(3, dealer=0)
        deal(state, {1: "B1", 2: "B2", 0: "B3"}, turn="G8")
        v = vd(state, 1)
        assert (v["turned"], v["trump"], v["phase"]) == ("G8", "green", "bid")

    def test_jester_means_no_trump(self) -> None:
        state = new_state(3, dealer=0)
        deal(state, {1: "B1", 2: "B2", 0: "B3"}, turn="N")
        v = vd(state, 1)
        assert (v["turned"], v["trump"], v["phase"]) == ("N", None, "bid")

    def test_wizard_the_dealer_chooses_a_suit_before_bidding(self) -> None:
        state = new_state(4, dealer=2)
        deal(state, {3: "B1", 0: "B2", 1: "B3", 2: "Y9"}, turn="Z")
        assert state.current_player == 2, "the dealer chooses"
        assert vd(state, 2)["hand"] == ["Y9"], "after looking at his cards"
        assert sorted(legal_texts(state)) == ["trump blue", "trump green", "trump red", "trump yellow"]
        with pytest.raises(IllegalAction):
            state.apply("bid 0")  # nobody bids before trump is chosen
        state.apply("trump red")
        v = vd(state, 0)
        assert (v["turned"], v["trump"], v["phase"]) == ("Z", "red", "bid")
        assert state.current_player == 3, "then bidding starts at the dealer's left"

    def test_turned_card_is_in_nobodys_hand_and_cannot_be_dealt_twice(self) -> None:
        state = new_state(3, dealer=0)
        deal(state, {1: "B1", 2: "B2", 0: "B3"})
        assert phase(state) == "turn-up"
        with pytest.raises(IllegalAction):
            state.apply("turn B2")  # already in seat 2's hand
        state.apply("turn B4")
        assert all("B4" not in vd(state, s)["hand"] for s in range(3))

    @pytest.mark.parametrize("players", [3, 4, 5, 6])
    def test_last_round_every_card_is_dealt_and_there_is_no_trump(self, players: int) -> None:
        state = new_state(players, dealer=0)
        last = 60 // players
        goto_round(state, last)
        while state.current_player == CHANCE:
            state.apply(state.legal_actions()[0])
        v = vd(state, 0)
        assert v["round"] == last == v["rounds"]
        assert v["hand_sizes"] == [last] * players
        assert (v["phase"], v["turned"], v["trump"]) == ("bid", None, None)
        finish_round(state)
        assert state.is_terminal and state.current_player == TERMINAL

    def test_short_game_last_round_still_turns_a_card(self) -> None:
        state = new_state(4, dealer=0, rounds=2)
        goto_round(state, 2)
        deal(state, {1: "B1 B2", 2: "B3 B4", 3: "B5 B6", 0: "B7 B8"})
        assert phase(state) == "turn-up"


# --- chance events --------------------------------------------------------------------------


class TestDeal:
    def test_deal_probabilities_follow_the_cards_left(self) -> None:
        state = new_state(3, dealer=0)
        probs = dict(state.chance_outcomes())
        assert len(probs) == 54 and abs(sum(probs.values()) - 1) < 1e-9
        assert probs[state.parse("deal 1 Z")] == pytest.approx(4 / 60)
        assert probs[state.parse("deal 1 B7")] == pytest.approx(1 / 60)
        state.apply("deal 1 Z")
        probs = dict(state.chance_outcomes())
        assert probs[state.parse("deal 2 Z")] == pytest.approx(3 / 59)
        assert probs[state.parse("deal 2 N")] == pytest.approx(4 / 59)

    def test_a_fifth_wizard_cannot_be_dealt(self) -> None:
        state = new_state(3, dealer=0)
        goto_round(state, 2)  # dealer 1: seats 2, 0, 1 receive 2 cards each
        for card in ("Z", "Z", "Z", "Z"):
            state.apply(state.parse(f"deal {next_target(state)} {card}"))
        before = list(state.history)
        with pytest.raises(IllegalAction):
            state.apply(state.parse(f"deal {next_target(state)} Z"))
        assert state.history == before

    def test_each_seat_receives_round_number_cards_seat_by_seat_from_the_dealers_left(self) -> None:
        state = new_state(4, dealer=1)
        goto_round(state, 3)  # dealer 3
        targets = []
        while phase(state) == "deal":
            targets.append(next_target(state))
            state.apply(state.legal_actions()[0])
        assert targets == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]


def next_target(state: WizardState) -> int:
    return int(state.action_to_text(state.legal_actions()[0]).split()[1])


# --- bidding ---------------------------------------------------------------------------------


class TestBidding:
    def test_bidding_starts_at_the_dealers_left_and_the_dealer_bids_last(self) -> None:
        state = new_state(4, dealer=2)
        deal(state, {3: "B1", 0: "B2", 1: "B3", 2: "B4"}, turn="G1")
        order = []
        while phase(state) == "bid":
            order.append(state.current_player)
            state.apply("bid 0")
        assert order == [3, 0, 1, 2]
        assert state.current_player == 3, "the dealer's left leads the first trick"

    @pytest.mark.parametrize("r", [1, 2, 4])
    def test_bids_are_zero_to_the_round_number(self, r: int) -> None:
        state = new_state(3, dealer=0)
        goto_round(state, r)
        while state.current_player == CHANCE:
            state.apply(state.legal_actions()[0])
        assert phase(state) in ("bid", "trump")
        if phase(state) == "trump":
            state.apply("trump blue")
        assert legal_texts(state) == [f"bid {b}" for b in range(r + 1)]
        with pytest.raises(IllegalAction):
            state.apply(f"bid {r + 1}")
        with pytest.raises(IllegalAction):
            state.apply("play B1")  # not the time to play

    def test_open_bids_are_public_at_once(self) -> None:
        state = new_state(3, dealer=0)
        deal(state, {1: "B1", 2: "B2", 0: "B3"}, turn="G1")
        state.apply("bid 1")
        assert vd(state, 2)["bids"] == [None, 1, None]
        assert vd(state, 0)["bids"] == [None, 1, None]

    def test_dealer_may_make_the_total_equal_in_the_base_game(self) -> None:
        state = new_state(3, dealer=0)
        deal(state, {1: "B1", 2: "B2", 0: "B3"}, turn="G1")
        state.apply("bid 0")
        state.apply("bid 0")
        assert legal_texts(state) == ["bid 0", "bid 1"]


class TestPlusMinusOne:
    def test_dealer_may_not_make_the_bids_add_up_to_the_tricks(self) -> None:
        state = new_state(3, dealer=0, plus_minus_one=True)
        deal(state, {1: "B1", 2: "B2", 0: "B3"}, turn="G1")
        assert legal_texts(state) == ["bid 0", "bid 1"]
        state.apply("bid 0")
        assert legal_texts(state) == ["bid 0", "bid 1"]
        state.apply("bid 0")
        assert state.current_player == 0
        assert legal_texts(state) == ["bid 0"]
        with pytest.raises(IllegalAction):
            state.apply("bid 1")
        state.apply("bid 0")

    def test_round_three_forbidden_value(self) -> None:
        state = new_state(3, dealer=1, plus_minus_one=True)
        goto_round(state, 3)  # dealer 0
        deal(state, {1: "B1 B2 B3", 2: "B4 B5 B6", 0: "B7 B8 B9"}, turn="G1")
        state.apply("bid 1")
        state.apply("bid 1")
        assert legal_texts(state) == ["bid 0", "bid 2", "bid 3"]
        with pytest.raises(IllegalAction) as err:
            state.apply("bid 1")
        assert str(err.value) == "plus/minus one: the bids may not add up to 3, so the dealer may not bid 1"

    def test_non_dealers_are_never_restricted(self) -> None:
        state = new_state(3, dealer=1, plus_minus_one=True)
        goto_round(state, 3)
        deal(state, {1: "B1 B2 B3", 2: "B4 B5 B6", 0: "B7 B8 B9"}, turn="G1")
        state.apply("bid 3")
        assert legal_texts(state) == ["bid 0", "bid 1", "bid 2", "bid 3"]
        state.apply("bid 0")  # total 3 already: the dealer must now bid >= 1
        assert legal_texts(state) == ["bid 1", "bid 2", "bid 3"]

    def test_no_restriction_once_the_total_is_over(self) -> None:
        state = new_state(3, dealer=0, plus_minus_one=True)
        deal(state, {1: "B1", 2: "B2", 0: "B3"}, turn="G1")
        state.apply("bid 1")
        state.apply("bid 1")
        assert legal_texts(state) == ["bid 0", "bid 1"]


class TestHiddenBids:
    def test_hidden_until_play(self) -> None:
        state = new_state(3, dealer=0, bids="hidden_until_play")
        deal(state, {1: "B1", 2: "B2", 0: "B3"}, turn="G1")
        state.apply("bid 1")
        assert vd(state, 1)["bids"] == [None, 1, None], "a seat sees its own bid"
        assert vd(state, 2)["bids"] == [None, None, None]
        assert vd(state, 0)["bids"] == [None, None, None]
        assert vd(state, 2)["has_bid"] == [False, True, False]
        assert state.redacted_history(2)[-1] is None
        assert state.redacted_history(1)[-1] is not None
        state.apply("bid 0")
        assert vd(state, 0)["bids"] == [None, None, None]
        state.apply("bid 1")
        # revealed together before the first trick
        assert phase(state) == "play" and vd(state, 0)["trick"] == []
        for seat in range(3):
            assert vd(state, seat)["bids"] == [1, 1, 0]
            assert None not in state.redacted_history(seat)[-3:]

    def test_hidden_until_end(self) -> None:
        state = new_state(3, dealer=0, bids="hidden_until_end")
        goto_round(state, 2)  # dealer 1
        deal(state, {2: "B1 B2", 0: "B3 B4", 1: "B5 B6"}, turn="G1")
        bid_all(state, {2: 2, 0: 1, 1: 0})
        assert phase(state) == "play"
        for seat, bid in ((0, 1), (1, 0), (2, 2)):
            expected: list[int | None] = [None, None, None]
            expected[seat] = bid
            assert vd(state, seat)["bids"] == expected
        play(state, "B2", "B4", "B6")  # seat 1 (B6) wins and leads
        for seat, bid in ((0, 1), (1, 0), (2, 2)):
            assert vd(state, seat)["bids"].count(None) == 2, "still secret during play"
            assert vd(state, seat)["bids"][seat] == bid
        assert state.current_player == 1
        play(state, "B5", "B1", "B3")  # seat 1 wins again
        v = vd(state, 0)
        assert v["round"] == 3
        assert v["sheet"][-1]["bids"] == [1, 0, 2], "revealed when the round is scored"
        assert v["sheet"][-1]["tricks"] == [0, 2, 0]
        assert v["sheet"][-1]["deltas"] == [-10, -20, -20]


class TestClairvoyance:
    def test_round_one_you_see_the_others_not_your_own(self) -> None:
        state = new_state(3, dealer=0, clairvoyance=True)
        deal(state, {1: "B7", 2: "G2", 0: "Z"}, turn="R1")
        v1 = vd(state, 1)
        assert v1["hand"] == []
        assert v1["seen_hands"] == [["Z"], None, ["G2"]]
        assert vd(state, 0)["seen_hands"] == [None, ["B7"], ["G2"]]
        assert state.redacted_history(1)[0] is None, "own card hidden"
        assert state.redacted_history(1)[1] is not None, "the others' cards seen"
        bid_all(state, [0, 1, 0])
        blind = blind_text(state)
        assert legal_texts(state) == [blind]
        with pytest.raises(IllegalAction):
            state.apply("play B7")  # even though it is the card held
        state.apply(blind)
        assert vd(state, 2)["trick"] == [[1, "B7"]]
        state.apply(blind)
        state.apply(blind)
        assert vd(state, 0)["sheet"][0]["tricks"] == [1, 0, 0], "the Wizard wins"

    def test_round_two_is_played_normally(self) -> None:
        state = new_state(3, dealer=0, clairvoyance=True)
        goto_round(state, 2)
        deal(state, {2: "B1 B2", 0: "B3 B4", 1: "B5 B6"}, turn="G1")
        v = vd(state, 2)
        assert v["hand"] == ["B1", "B2"] and v["seen_hands"] is None
        bid_all(state, [0, 0, 0])
        assert legal_texts(state) == ["play B1", "play B2"]
        with pytest.raises(IllegalAction):
            state.apply(blind_text(state))


# --- scoring -------------------------------------------------------------------------------------


class TestScoring:
    def round_one(self, bids: list[int]) -> list[int]:
        state = new_state(3, dealer=0)
        deal(state, {1: "B7", 2: "G2", 0: "Z"}, turn="R1")  # seat 0's Wizard wins
        bid_all(state, bids)
        play(state, "B7", "G2", "Z")
        line = vd(state, 0)["sheet"][0]
        assert line["tricks"] == [1, 0, 0]
        assert line["bids"] == bids
        assert state.scores() == line["deltas"]
        return list(state.scores())

    def test_exact_bids_score_twenty_plus_ten_a_trick(self) -> None:
        assert self.round_one([1, 0, 0]) == [30, 20, 20]

    def test_missed_bids_lose_ten_a_trick_over_or_under(self) -> None:
        assert self.round_one([0, 1, 1]) == [-10, -10, -10]

    def test_two_tricks_off(self) -> None:
        state = new_state(3, dealer=0)
        goto_round(state, 2)  # dealer 1, seat 2 leads
        before = state.scores()
        deal(state, {2: "Z Z", 0: "B1 B2", 1: "G1 G2"}, turn="R5")
        bid_all(state, {2: 0, 0: 2, 1: 0})
        play(state, "Z", "B1", "G1", "Z", "B2", "G2")
        line = vd(state, 0)["sheet"][1]
        assert line["tricks"] == [0, 0, 2]
        assert line["deltas"] == [-20, 20, -20]
        assert state.scores() == [b + d for b, d in zip(before, line["deltas"], strict=True)]

    def test_totals_may_go_negative(self) -> None:
        scores = self.round_one([0, 1, 1])
        assert min(scores) < 0


# --- dealer, rounds, match end ------------------------------------------------------------------------


class TestMatch:
    def test_dealer_rotates_one_seat_clockwise(self) -> None:
        state = new_state(4, dealer=3)
        dealers = []
        for _ in range(6):
            dealers.append(vd(state, 0)["dealer"])
            finish_round(state)
        assert dealers == [3, 0, 1, 2, 3, 0]

    @pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
    def test_number_of_rounds_is_sixty_over_players(self, players: int, rounds: int) -> None:
        state = new_state(players, dealer=0)
        assert vd(state, 0)["rounds"] == rounds
        played = 0
        while not state.is_terminal:
            finish_round(state)
            played += 1
        assert played == rounds
        assert len(vd(state, 0)["sheet"]) == rounds
        assert state.legal_actions() == []
        assert state.winners() != []

    def test_rounds_option_plays_a_short_game(self) -> None:
        state = new_state(5, dealer=0, rounds=3)
        assert vd(state, 0)["rounds"] == 3
        for _ in range(3):
            assert not state.is_terminal
            finish_round(state)
        assert state.is_terminal and len(vd(state, 0)["sheet"]) == 3

    def test_first_dealer_option(self) -> None:
        state = WizardGame(5, first_dealer=3).new_state()
        assert state.current_player == CHANCE
        assert vd(state, 0)["dealer"] == 3
        assert next_target(state) == 4

    def test_random_first_dealer_is_a_chance_event(self) -> None:
        state = WizardGame(4).new_state()
        assert state.current_player == CHANCE
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 4
        assert all(p == pytest.approx(0.25) for _, p in outcomes)
        assert sorted(state.action_to_text(a) for a, _ in outcomes) == [f"dealer {s}" for s in range(4)]
        state.apply("dealer 2")
        assert vd(state, 0)["dealer"] == 2
        assert next_target(state) == 3

    def test_random_first_dealer_with_a_seed(self) -> None:
        game = WizardGame(4)
        dealers = {game.new_state(seed).view(0).dealer for seed in range(30)}
        assert len(dealers) >= 2
        assert dealers <= {0, 1, 2, 3}
        assert game.new_state(7).view(1).dealer == game.new_state(7).view(1).dealer

    def test_co_winners_on_a_tie(self) -> None:
        state = new_state(3, dealer=0, rounds=1)
        deal(state, {1: "B7", 2: "G2", 0: "Z"}, turn="R1")
        bid_all(state, [1, 0, 0])
        play(state, "B7", "G2", "Z")
        assert state.is_terminal
        assert state.scores() == [30, 20, 20]
        assert state.winners() == [0]
        state = new_state(3, dealer=0, rounds=1)
        deal(state, {1: "B7", 2: "G2", 0: "Z"}, turn="R1")
        bid_all(state, [0, 0, 0])
        play(state, "B7", "G2", "Z")
        assert state.scores() == [-10, 20, 20]
        assert state.winners() == [1, 2]


def test_every_three_card_trick_from_a_small_pool_matches_the_rules() -> None:
    """Exhaustive: every ordered 3-card trick over Wizards, Jesters, high/low cards
    of the led suit, of trump and of a third suit, under each kind of turned card."""
    from itertools import product

    from .helpers import rule_trick_winner

    pool = ["Z", "N", "B1", "B13", "R1", "R13", "G5"]
    checked = 0
    for turn, trump in (("R2", "R"), ("N", None), ("G2", "G"), ("Z", "B")):
        for cards in product(pool, repeat=3):
            if any(cards.count(c) > 1 for c in cards if c not in ("Z", "N")):
                continue
            state = new_state(3, dealer=2)  # seats 0, 1, 2 play in that order
            deal(state, dict(enumerate(cards)), turn=turn, trump="blue" if turn == "Z" else None)
            bid_all(state, [0, 0, 0])
            play(state, *cards)
            won = vd(state, 0)["sheet"][0]["tricks"]
            expected = rule_trick_winner(list(enumerate(cards)), trump)
            assert won.index(1) == expected, (cards, turn)
            checked += 1
    assert checked > 800
