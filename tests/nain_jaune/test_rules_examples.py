"""Worked examples that read like the rules (seed 001, rules-notes §2).

Each test deals explicit hands through explicit chance outcomes (see
helpers.py for the deals) and plays the cards a table would; the expected
results are worked out from the rule texts, not read from the engine.
Four players, dealer seat 3, so seat 0 (the dealer's left) opens; everyone
starts with 100 tokens unless said otherwise and stakes 1+2+3+4+5 = 15.
"""

from __future__ import annotations

from typing import Any

import pytest

from atout.core.errors import IllegalAction
from atout.core.game import CHANCE, TERMINAL

from .helpers import (
    NO_KING,
    NO_KING_TALON,
    NO_SEVEN,
    NO_SEVEN_TALON,
    RUN_OUT,
    RUN_OUT_TALON,
    SANS_SEPT,
    SANS_SEPT_TALON,
    SECOND_OUT,
    SECOND_OUT_TALON,
    boxes,
    deal,
    expand,
    legal,
    new_state,
    play,
    tokens,
    vd,
)


def plays(cards: str) -> list[str]:
    return [f"play {c}" for c in expand(cards)]


class TestStakesAndDeal:
    def test_every_player_stakes_1_2_3_4_5_before_the_deal(self) -> None:
        state = new_state(4)
        assert state.current_player == CHANCE
        assert tokens(state) == [85, 85, 85, 85]
        assert boxes(state) == [4, 8, 12, 16, 20]

    def test_the_dealer_left_opens_with_any_card(self) -> None:
        state = new_state(4, dealer=3)
        deal(state, SANS_SEPT, talon=SANS_SEPT_TALON)
        assert state.current_player == 0
        assert vd(state, 0)["need"] is None
        by_id = sorted(expand(SANS_SEPT[0]), key=lambda c: "CDHS".index(c[-1]))
        assert legal(state) == plays(" ".join(by_id))


class TestSixSansSept:
    def test_a_run_rises_regardless_of_suit_and_must_go_on(self) -> None:
        state = new_state()
        deal(state, SANS_SEPT)
        play(state, "5S")
        # "on peut jouer le 4 de pique, puis le 5 de pique, puis le 6 de cœur"
        assert state.current_player == 0
        assert legal(state) == ["play 6H"]
        with pytest.raises(IllegalAction, match="needs a 6"):
            state.apply("play 9C")
        with pytest.raises(IllegalAction, match="must play it"):
            state.apply("pass")

    def test_the_seven_passes_round_the_table_to_its_holder(self) -> None:
        state = new_state()
        deal(state, SANS_SEPT)
        assert play(state, "5S", "6H") == [0, 0]
        # "6 sans 7": seat 0 has no 7, seat 1 neither, seat 2 has two.
        assert state.current_player == 2
        view = vd(state, 3)
        assert view["need"] == "7"
        assert view["lacks"] == [["7"], ["7"], [], []]
        assert legal(state) == ["play 7C", "play 7S"]
        with pytest.raises(IllegalAction, match="needs a 7"):
            state.apply("play 8H")

    def test_the_holder_goes_on_with_his_own_run_then_the_next_holder(self) -> None:
        state = new_state()
        deal(state, SANS_SEPT)
        assert play(state, "5S", "6H", "7C", "8H") == [0, 0, 2, 2]
        assert state.current_player == 3  # "8 sans 9": seat 3 holds 9H 9S
        assert play(state, "9H") == [3]
        # "9 sans 10": seats 3, 0 and 1 have no 10; seat 2 has all four.
        assert state.current_player == 2
        assert vd(state, 0)["lacks"] == [["7", "10"], ["7", "10"], ["9"], ["10"]]


class TestNobodyHasIt:
    def test_skip_rank_the_last_player_is_asked_first_for_the_next_rank(self) -> None:
        state = new_state()
        deal(state, NO_SEVEN, talon=NO_SEVEN_TALON)
        play(state, "5C", "6C")
        # All four 7s are out of play: "la main reste au joueur de départ qui doit
        # passer à la carte suivante": seat 0 is asked for an 8 first, and has one
        # (seat 2 has three, but comes later).
        assert state.current_player == 0
        assert vd(state, 0)["need"] == "8"
        assert legal(state) == ["play 8C"]
        assert vd(state, 1)["lacks"] == [["7"], ["7"], ["7"], ["7"]]
        play(state, "8C")
        assert state.current_player == 2

    def test_free_restart_variant(self) -> None:
        state = new_state(stuck_rule="free_restart")
        deal(state, NO_SEVEN)
        play(state, "5C", "6C")
        assert state.current_player == 0
        assert vd(state, 0)["need"] is None
        assert len(legal(state)) == 10

    def test_a_missing_king_ends_the_run_and_the_last_player_restarts(self) -> None:
        state = new_state()
        deal(state, NO_KING, talon=NO_KING_TALON)
        play(state, "JC", "QC")
        assert state.current_player == 0
        assert vd(state, 0)["need"] is None
        assert vd(state, 2)["lacks"] == [["K"]] * 4
        assert legal(state) == plays("AC 2C 3C AD 2D 3D AH 2H AS 2S")


class TestKing:
    def test_a_king_ends_the_run_and_its_player_starts_a_new_one(self) -> None:
        state = new_state()
        deal(state, SANS_SEPT)
        seats = play(state, "5S", "6H", "7C", "8H", "9H", "10D", "JC", "QS")
        assert seats == [0, 0, 2, 2, 3, 2, 2, 3]
        assert legal(state) == ["play KC", "play KD"]
        play(state, "KC")
        # "Lorsqu'un joueur a joué un roi, il repart à la hauteur de son choix."
        assert state.current_player == 3
        assert vd(state, 3)["need"] is None
        assert sorted(legal(state)) == sorted(plays("5H 6C 6D 6S 9S QC QD QH KD"))
        play(state, "5H")
        assert state.current_player == 3 and legal(state) == plays("6C 6D 6S")


class TestBoard:
    def test_playing_a_board_card_wins_its_box(self) -> None:
        state = new_state()
        deal(state, SANS_SEPT)
        play(state, "5S", "6H", "7C", "8H", "9H", "10D")
        assert tokens(state) == [85, 85, 89, 85] and boxes(state) == [0, 8, 12, 16, 20]
        play(state, "JC")
        assert tokens(state) == [85, 85, 97, 85] and boxes(state) == [0, 0, 12, 16, 20]
        play(state, "QS")
        assert tokens(state) == [85, 85, 97, 97] and boxes(state) == [0, 0, 0, 16, 20]

    def test_an_empty_box_is_restaked_next_deal_and_a_full_one_carries_over(self) -> None:
        state = new_state(start_tokens=200)
        deal(state, RUN_OUT, talon=RUN_OUT_TALON)
        play(state, *expand("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QD"))
        assert state.round == 2 and state.current_player == CHANCE
        # after the deal [8, 16, 24, 16, 40] (seat 1 kept 10D, JC, QS, 7D), plus the new stakes
        assert boxes(state) == [12, 24, 36, 32, 60]


class TestEndOfDeal:
    def test_losers_pay_their_points_and_a_kept_board_card_pays_its_box_again(self) -> None:
        state = new_state(start_tokens=200)
        deal(state, RUN_OUT, talon=RUN_OUT_TALON)
        assert play(state, *expand("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QD")) == [0] * 12
        sheet = vd(state, 0)["sheet"]
        assert len(sheet) == 1
        line = sheet[0]
        # Seats 1-3 each hold A..10 (55) and two faces (20): 75 points.
        assert line["winner"] == 0 and line["owed"] == [0, 75, 75, 75]
        assert line["paid"] == [0, 75, 75, 75]
        # Seat 1 was caught with 10D, JC, QS and the Nain Jaune: 4 + 8 + 12 + 20.
        assert line["kept"] == [[], ["10D", "JC", "QS", "7D"], [], []]
        assert line["penalties"] == [0, 44, 0, 0]
        assert line["tokens"] == [185 + 225, 185 - 75 - 44, 110, 110]
        assert line["boxes"] == [8, 16, 24, 16, 40]
        assert line["grand_opera"] is False
        # Next deal: stakes again, dealer one seat clockwise.
        assert tokens(state) == [395, 51, 95, 95]
        assert vd(state, 0)["dealer"] == 0 and vd(state, 0)["deal"] == 2

    def test_the_winner_need_not_be_the_opener(self) -> None:
        state = new_state(start_tokens=200)
        deal(state, SECOND_OUT, talon=SECOND_OUT_TALON)
        seats = play(state, *expand("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QD KD"))
        assert seats == [0] + [1] * 12
        line = vd(state, 0)["sheet"][0]
        assert line["winner"] == 1
        assert line["owed"] == [34, 0, 66, 115]
        assert line["kept"] == [[], [], ["7D"], ["10D", "JC"]]
        assert line["penalties"] == [0, 0, 20, 12]
        assert line["tokens"] == [151, 400, 99, 58]
        assert vd(state, 0)["dealer"] == 0

    def test_next_dealer_can_be_the_deal_winner(self) -> None:
        state = new_state(start_tokens=200, next_dealer="deal_winner")
        deal(state, SECOND_OUT)
        play(state, *expand("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QD KD"))
        assert vd(state, 0)["dealer"] == 1 and vd(state, 0)["opener"] == 2

    @pytest.mark.parametrize(
        ("options", "winner_tokens", "seat1_tokens", "board"),
        [
            ({"payment": "per_card"}, 185 + 36, 185 - 12 - 44, [8, 16, 24, 16, 40]),
            ({"kept_pay_card": "base_stake"}, 410, 185 - 75 - 11, [5, 10, 15, 16, 25]),
            ({"kept_pay_card": "no_penalty"}, 410, 110, [4, 8, 12, 16, 20]),
            ({"grand_opera": "take_all_boxes"}, 185 + 60 + 225, 110, [0, 0, 0, 0, 0]),
        ],
    )
    def test_payment_variants(
        self, options: dict[str, Any], winner_tokens: int, seat1_tokens: int, board: list[int]
    ) -> None:
        state = new_state(start_tokens=200, max_deals=1, **options)
        deal(state, RUN_OUT)
        play(state, *expand("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QD"))
        assert state.is_terminal
        assert tokens(state)[:2] == [winner_tokens, seat1_tokens]
        assert boxes(state) == board

    def test_grand_opera_double_payments(self) -> None:
        state = new_state(start_tokens=200, grand_opera="double_payments")
        deal(state, RUN_OUT)
        play(state, *expand("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QD"))
        line = vd(state, 0)["sheet"][0]
        assert line["grand_opera"] is True
        assert line["paid"] == [0, 150, 150, 150]
        # Seat 1 has 35 left for boxes worth 44: he pays all he has (4 + 8 + 12 + 11).
        assert line["penalties"] == [0, 35, 0, 0]
        assert line["tokens"] == [635, 0, 35, 35]
        assert line["boxes"] == [8, 16, 24, 16, 31]
        assert state.is_terminal  # seat 1 cannot stake any more

    def test_no_grand_opera_once_another_player_has_played(self) -> None:
        state = new_state(start_tokens=200, grand_opera="take_all_boxes")
        deal(state, SECOND_OUT)
        play(state, *expand("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QD KD"))
        assert vd(state, 0)["sheet"][0]["grand_opera"] is False


class TestGameEnd:
    def test_a_player_who_cannot_pay_pays_all_he_has_and_the_game_ends(self) -> None:
        state = new_state()  # 100 tokens: 85 after the stakes
        deal(state, RUN_OUT)
        play(state, *expand("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QD"))
        line = vd(state, 0)["sheet"][0]
        assert line["paid"] == [0, 75, 75, 75]
        # Seat 1 has 10 left: 4 into the 10D box, his last 6 into the JC box.
        assert line["penalties"] == [0, 10, 0, 0]
        assert line["boxes"] == [8, 14, 12, 16, 20]
        assert state.is_terminal and state.current_player == TERMINAL
        assert state.scores() == [310, 0, 10, 10]
        assert state.winners() == [0]
        assert sum(state.scores()) + sum(line["boxes"]) == 400

    def test_the_game_ends_before_a_deal_nobody_can_fully_stake(self) -> None:
        state = new_state(start_tokens=15)
        deal(state, SECOND_OUT)
        play(state, *expand("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QD KD"))
        assert state.is_terminal and state.round == 1

    def test_deal_limit(self) -> None:
        state = new_state(start_tokens=200, max_deals=1)
        deal(state, RUN_OUT)
        play(state, *expand("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QD"))
        assert state.is_terminal
        assert state.winners() == [0]

    def test_per_card_payment_without_box_penalty(self) -> None:
        state = new_state(start_tokens=200, max_deals=1, payment="per_card", kept_pay_card="no_penalty")
        deal(state, RUN_OUT)
        play(state, *expand("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QD"))
        assert state.scores() == [221, 173, 173, 173]
        assert state.winners() == [0]


class TestManualClaim:
    def test_a_claimed_box_is_won(self) -> None:
        state = new_state(manual_claim=True)
        deal(state, SANS_SEPT)
        play(state, "5S", "6H", "7C", "8H", "9H", "10D")
        assert state.current_player == 2 and vd(state, 0)["claim_box"] == "10D"
        assert legal(state) == [*plays("JC JD JH JS"), "claim"]
        assert tokens(state)[2] == 85
        play(state, "claim")
        assert tokens(state)[2] == 89 and boxes(state)[0] == 0
        assert legal(state) == plays("JC JD JH JS")

    def test_playing_on_without_claiming_loses_the_box_till_next_deal(self) -> None:
        state = new_state(manual_claim=True)
        deal(state, SANS_SEPT)
        play(state, "5S", "6H", "7C", "8H", "9H", "10D", "JC")
        assert tokens(state)[2] == 85 and boxes(state)[0] == 4  # the 10D box stays
        # Seat 2 has no queen: he may still claim the J♣ box, or say nothing.
        assert legal(state) == ["pass", "claim"]
        play(state, "claim")
        assert tokens(state)[2] == 93 and boxes(state) == [4, 0, 12, 16, 20]
        assert state.current_player == 3
        assert vd(state, 0)["lacks"][2] == ["9", "Q"]

    def test_pass_forgets_the_box(self) -> None:
        state = new_state(manual_claim=True)
        deal(state, SANS_SEPT)
        play(state, "5S", "6H", "7C", "8H", "9H", "10D", "claim", "JC", "pass")
        assert boxes(state)[1] == 8 and tokens(state)[2] == 89
        assert state.current_player == 3

    def test_a_last_card_on_the_board_can_be_claimed_before_the_payments(self) -> None:
        hands = dict(RUN_OUT)
        hands[0] = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QS"
        hands[1] = "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JC QD"
        for claim, seat0 in (("claim", 185 + 12 + 225), ("pass", 185 + 225)):
            state = new_state(start_tokens=200, manual_claim=True)
            deal(state, hands)
            play(state, *expand("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JD QS"))
            assert state.current_player == 0 and legal(state) == ["pass", "claim"]
            assert vd(state, 0)["sheet"] == []
            play(state, claim)
            line = vd(state, 0)["sheet"][0]
            assert line["tokens"][0] == seat0
            assert line["penalties"][1] == 4 + 8 + 20


class TestVariants:
    def test_voluntary_stop_lets_a_holder_pass(self) -> None:
        state = new_state(voluntary_stop=True)
        deal(state, SANS_SEPT)
        play(state, "5S")
        assert legal(state) == ["play 6H", "pass"]
        # Everyone is asked in turn, holder or not: passing reveals nothing.
        assert play(state, "pass", "pass", "pass") == [0, 1, 2]
        assert legal(state) == [*plays("6C 6D 6S"), "pass"]
        play(state, "pass")
        # Nobody played a 6: the stuck rule; seat 0 is asked first for a 7.
        assert state.current_player == 0 and vd(state, 0)["need"] == "7"
        assert legal(state) == ["pass"]
        assert vd(state, 0)["lacks"] == [[], [], [], []]

    def test_first_card_lowest(self) -> None:
        state = new_state(first_card="lowest")
        deal(state, SANS_SEPT)
        assert legal(state) == plays("AC AD AH AS")
        with pytest.raises(IllegalAction, match="lowest"):
            state.apply("play 5S")

    def test_counterclockwise_the_dealer_right_opens_and_the_turn_goes_right(self) -> None:
        state = new_state(dealer=1, direction="counterclockwise")
        deal(state, SANS_SEPT)
        assert state.current_player == 0
        play(state, "5S", "6H")
        # 7 asked of seat 0, then seat 3 (no 7 either), then seat 2.
        assert state.current_player == 2
        assert vd(state, 0)["lacks"] == [["7"], [], [], ["7"]]

    def test_sequence_bonus_for_a_king_and_for_a_dead_run(self) -> None:
        state = new_state(sequence_bonus=True)
        deal(state, NO_KING)
        play(state, "JC", "QC")  # JC wins its box (8); nobody has a King: +1 from each
        assert tokens(state) == [85 + 8 + 3, 84, 84, 84]
        state = new_state(sequence_bonus=True)
        deal(state, SANS_SEPT)
        play(state, "5S", "6H", "7C", "8H", "9H", "10D", "JC", "QS", "KC")
        assert tokens(state) == [84, 84, 85 + 12 - 1, 85 + 12 + 3]
        # No bonus without the option
        state = new_state()
        deal(state, NO_KING)
        play(state, "JC", "QC")
        assert tokens(state) == [93, 85, 85, 85]
