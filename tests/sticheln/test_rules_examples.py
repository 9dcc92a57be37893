"""Worked examples that read like the rules (seed 003 as corrected by rules-notes §4).

Each test deals explicit hands through explicit chance outcomes and plays the
cards a table would; the expected results come from the rule texts, not from
the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from atout.core.errors import IllegalAction, OptionError
from atout.core.game import CHANCE, TERMINAL
from atout.games.sticheln import StichelnGame, StichelnState

from .helpers import RULE_DECKS, deal, deck_texts, lay, new_state, phase, play, rule_hand_score, vd


def one_trick(cards: list[str], **options: Any) -> int | None:
    """Hand 1 with len(cards) players, dealer 0: the players (seats 1, 2, ..., 0,
    the dealer's left first) play ``cards`` in that order.  Returns the position
    (0 = the leader) of the trick's taker, None when nobody takes it."""
    n = len(cards)
    order = [(1 + i) % n for i in range(n)]
    state = new_state(n, dealer=0, **options)
    hands = deal(state, {seat: card for seat, card in zip(order, cards, strict=True)})
    lay(state, {seat: hands[seat][-1] for seat in range(n)})
    seats = play(state, *cards)
    assert seats == order, "the dealer's left leads the first trick, then clockwise"
    winner = vd(state, 0)["tricks"][0]["winner"]
    return None if winner < 0 else order.index(winner)


# --- who takes a trick -------------------------------------------------------------------


class TestTrickWinner:
    def test_every_other_colour_is_trump_and_the_highest_trump_wins(self) -> None:
        # "Pour le pli en cours, TOUTES les autres couleurs sont des couleurs d'atout"
        assert one_trick(["B5", "R3", "G9", "Y2"]) == 2

    def test_the_lowest_trump_beats_the_highest_card_of_the_led_colour(self) -> None:
        assert one_trick(["B11", "R1", "B10", "B9"]) == 1

    def test_equal_trumps_the_first_played_wins(self) -> None:
        # "si des joueurs ont joué une carte d'atout de même valeur, c'est le premier qui l'emporte"
        assert one_trick(["B5", "R9", "G9", "Y2"]) == 1
        assert one_trick(["B5", "R9", "Y11", "G11"]) == 2

    def test_three_equal_trumps_in_a_five_player_trick(self) -> None:
        assert one_trick(["B14", "R7", "G7", "Y7", "O3"]) == 1

    def test_equal_trump_values_after_a_higher_one_change_nothing(self) -> None:
        assert one_trick(["B1", "R12", "G14", "Y14", "O14"]) == 2

    def test_without_trump_the_highest_card_of_the_led_colour_wins(self) -> None:
        # zeros of other colours do not trump (brettspielwelt: "If besides cards in the
        # start color also one or more 0's are played, ... the highest card ... takes the trick")
        assert one_trick(["B5", "B9", "R0", "B2"]) == 1

    def test_the_led_card_wins_against_zeros_and_lower_cards(self) -> None:
        assert one_trick(["B5", "R0", "B2", "G0"]) == 0

    def test_a_zero_never_wins_nor_trumps(self) -> None:
        # "les 0 ne coupent jamais et ne remportent jamais de pli"
        assert one_trick(["B3", "R0", "G0", "Y0"]) == 0
        assert one_trick(["B3", "R0", "G1", "Y0"]) == 2


class TestZeroLeads:
    """rules-notes §4.4 S5: a trick led with a 0 (option zero_lead_colour)."""

    def test_own_reading_the_zero_sets_the_led_colour(self) -> None:
        # B0 led: blue is the led colour, R7 is a trump and wins
        assert one_trick(["B0", "R7", "B3", "G0"]) == 1

    def test_first_nonzero_reading_the_next_card_sets_the_led_colour(self) -> None:
        # B0 led, R7 sets red: B3 is now a trump and wins (rules-notes example ST-6)
        assert one_trick(["B0", "R7", "B3", "G0"], zero_lead_colour="first_nonzero") == 2

    def test_zero_lead_followed_by_its_colour_only(self) -> None:
        # both readings: blue is led, no trump, the highest blue wins
        for reading in ("own", "first_nonzero"):
            assert one_trick(["B0", "B7", "G0", "B3"], zero_lead_colour=reading) == 1

    def test_first_nonzero_with_two_zeros_first(self) -> None:
        # first_nonzero: G2 sets green, B5 is a trump; own: blue is led, G2 is the trump
        assert one_trick(["B0", "R0", "G2", "B5"], zero_lead_colour="first_nonzero") == 3
        assert one_trick(["B0", "R0", "G2", "B5"]) == 2


class TestAllZeroTrick:
    """rules-notes §4.4 S6: a trick of zeros only (option all_zero_trick)."""

    def test_the_leader_takes_it_by_default(self) -> None:
        # brettspielwelt: "unless you start the trick by playing a 0 and all other players also play a 0"
        assert one_trick(["B0", "R0", "G0", "Y0"]) == 0

    def test_void_nobody_takes_it(self) -> None:
        assert one_trick(["B0", "R0", "G0", "Y0"], all_zero_trick="void") is None

    def test_leader_takes_scores_and_leads_again(self) -> None:
        state = new_state(4, dealer=0)
        hands = deal(state, {1: "B0 B11", 2: "R0 B10", 3: "G0 B9", 0: "Y0 B8"})
        lay(state, {s: hands[s][-1] for s in range(4)})
        play(state, "B0", "R0", "G0", "Y0")
        view = vd(state, 0)
        assert view["tricks"][0]["winner"] == 1
        assert view["current_player"] == 1 and view["leader"] == 1

    def test_void_cards_leave_play_and_the_same_leader_leads_again(self) -> None:
        state = new_state(4, dealer=0, all_zero_trick="void")
        hands = deal(state, {1: "B0 B11", 2: "R0 B10", 3: "G0 B9", 0: "Y0 B8"})
        lay(state, {s: hands[s][-1] for s in range(4)})
        play(state, "B0", "R0", "G0", "Y0")
        view = vd(state, 2)
        assert view["tricks"] == [{"cards": [[1, "B0"], [2, "R0"], [3, "G0"], [0, "Y0"]], "winner": -1}]
        assert view["current_player"] == 1
        assert view["hand_sizes"] == [13, 13, 13, 13]


# --- how a hand goes -------------------------------------------------------------------------


class TestCourseOfAHand:
    def test_no_obligation_to_follow(self) -> None:
        # "on n'est ni obligé de fournir, ni obligé de monter à l'atout ou à la couleur"
        state = new_state(4, dealer=0)
        hands = deal(state, {1: "B5", 2: "B7 R3"})
        lay(state, {s: hands[s][-1] for s in range(4)})
        play(state, "B5")
        texts = [state.action_to_text(a) for a in state.legal_actions()]
        assert sorted(texts) == sorted(f"play {c}" for c in hands[2][:-1])
        play(state, "R3")  # holding B7, red may be played on a blue lead

    def test_the_winner_leads_the_next_trick(self) -> None:
        state = new_state(4, dealer=0)
        hands = deal(state, {1: "B5", 2: "R3", 3: "G9", 0: "Y2"})
        lay(state, {s: hands[s][-1] for s in range(4)})
        play(state, "B5", "R3", "G9", "Y2")
        assert state.current_player == 3

    def test_first_lead_is_the_dealers_left_or_the_dealer_by_option(self) -> None:
        for option, leader in (("dealer_left", 3), ("dealer", 2)):
            state = new_state(4, dealer=2, first_lead=option)
            hands = deal(state)
            assert vd(state, 0)["current_player"] == 3, "handicap cards are chosen from the dealer's left"
            lay(state, {s: hands[s][-1] for s in range(4)})
            assert state.current_player == leader

    def test_playing_a_card_not_held_is_refused_and_changes_nothing(self) -> None:
        state = new_state(4, dealer=0)
        hands = deal(state, {1: "B5", 2: "R3"})
        lay(state, {s: hands[s][-1] for s in range(4)})
        before = vd(state, 1)
        with pytest.raises(IllegalAction, match="you do not hold R3"):
            state.apply("play R3")
        assert vd(state, 1) == before

    def test_fourteen_tricks_then_the_next_hand_with_the_next_dealer(self) -> None:
        state = new_state(3, dealer=0)
        hands = deal(state)
        lay(state, {s: hands[s][0] for s in range(3)})
        tricks = 0
        while state.round == 1:
            for _ in range(3):
                state.apply(state.legal_actions()[0])
            tricks += 1
        assert tricks == 14
        assert state.current_player == CHANCE
        assert vd(state, 0)["dealer"] == 1

    def test_one_hand_per_player_with_the_dealer_rotating(self) -> None:
        state = new_state(4, dealer=2)
        dealers = []
        while not state.is_terminal:
            if state.is_chance and next_is_first_card(state):
                dealers.append(vd(state, 0)["dealer"])
            state.apply(state.legal_actions()[0])
        assert dealers == [2, 3, 0, 1]
        assert len(vd(state, 0)["sheet"]) == 4
        assert state.current_player == TERMINAL

    def test_hands_option_sets_the_match_length(self) -> None:
        state = new_state(5, dealer=0, hands=2)
        while not state.is_terminal:
            state.apply(state.legal_actions()[0])
        assert len(vd(state, 0)["sheet"]) == 2


def next_is_first_card(state: StichelnState) -> bool:
    return sum(state.view(0).hand_sizes) == 0


# --- the handicap ("pain") card --------------------------------------------------------------


class TestHandicapChoice:
    def test_choices_are_secret_until_everybody_has_chosen(self) -> None:
        state = new_state(4, dealer=0)
        hands = deal(state)
        state.apply(f"pain {hands[1][3]}")
        state.apply(f"pain {hands[2][3]}")
        for seat in (0, 3):
            view = vd(state, seat)
            assert view["pains"][1] is None and view["pains"][2] is None
            assert view["pain_laid"] == [0, 1, 1, 0], "a card laid face down is seen"
            assert view["revealed"] is False
        assert vd(state, 1)["pains"][1] == [hands[1][3]], "a seat sees its own handicap card"
        state.apply(f"pain {hands[3][3]}")
        assert vd(state, 1)["pains"][3] is None
        state.apply(f"pain {hands[0][3]}")
        for seat in range(4):  # "tous les joueurs révèlent leur carte simultanément"
            assert vd(state, seat)["pains"] == [[hands[s][3]] for s in range(4)]
            assert vd(state, seat)["revealed"] is True

    def test_a_later_chooser_sees_nothing_of_an_earlier_choice(self) -> None:
        views = []
        for first_choice in (0, 5):
            state = new_state(4, dealer=0)
            hands = deal(state)
            state.apply(f"pain {hands[1][first_choice]}")
            views.append(state.view(2))
        assert views[0] == views[1]

    def test_redacted_history_and_record_export_hide_unrevealed_choices(self) -> None:
        from atout.records import Record

        state = new_state(3, dealer=0)
        hands = deal(state)
        state.apply(f"pain {hands[1][2]}")
        pain_index = len(state.history) - 1
        assert state.redacted_history(2)[pain_index] is None
        assert state.redacted_history(1)[pain_index] is not None
        export = Record.from_state(state, view=2).to_text()
        assert f"pain {hands[1][2]}" not in export and "1: pain ?" in export
        state.apply(f"pain {hands[2][2]}")
        state.apply(f"pain {hands[0][2]}")
        assert state.redacted_history(2)[pain_index] is not None, "revealed: now public"
        assert f"1: pain {hands[1][2]}" in Record.from_state(state, view=2).to_text()

    def test_the_handicap_card_leaves_the_hand(self) -> None:
        state = new_state(4, dealer=0)
        hands = deal(state)
        lay(state, {s: hands[s][0] for s in range(4)})
        assert vd(state, 1)["hand_sizes"] == [14, 14, 14, 14]
        assert hands[1][0] not in vd(state, 1)["hand"]

    def test_playing_before_choosing_is_refused_with_the_rule(self) -> None:
        state = new_state(4, dealer=0)
        hands = deal(state)
        with pytest.raises(IllegalAction, match="handicap card"):
            state.apply(f"play {hands[1][0]}")
        with pytest.raises(IllegalAction, match="do not hold"):
            state.apply(f"pain {hands[2][0]}")

    def test_a_bare_card_during_the_choice_means_pain(self) -> None:
        state = new_state(4, dealer=0)
        hands = deal(state)
        assert state.parse(hands[1][0]) == state.parse(f"pain {hands[1][0]}")
        assert state.view(1).parse(hands[1][0]) == state.parse(f"pain {hands[1][0]}")

    def test_hidden_pain_variant_keeps_cards_face_down_until_the_hand_is_scored(self) -> None:
        state = new_state(3, dealer=0, hidden_pain=True, hands=2)
        hands = deal(state)
        lay(state, {s: hands[s][0] for s in range(3)})
        assert vd(state, 0)["pains"] == [[hands[0][0]], None, None]
        while state.round == 1:
            state.apply(state.legal_actions()[0])
        assert vd(state, 0)["sheet"][0]["pains"] == [[hands[s][0]] for s in range(3)]


# --- scoring -------------------------------------------------------------------------------------


def score(players: int, pains: list[str], captured: list[str], **options: Any) -> int:
    game = StichelnGame(players, **options)
    deck = game.deck
    mask = 0
    for c in captured:
        mask |= 1 << deck.parse(c)
    return game.hand_score([deck.parse(c) for c in pains], mask)


class TestScoring:
    def test_the_seeds_example_minus_nine(self) -> None:
        # "si ma couleur de handicap est le bleu, et que je ramasse un pli contenant un 7 bleu,
        # un 5 bleu, un 4 rouge, un 2 jaune et un 14 violet, je marque - 9 points"
        # (violet needs 6 players; the laid B0 costs nothing)
        assert score(6, ["B0"], ["B7", "B5", "R4", "Y2", "V14"]) == -9

    def test_the_seeds_example_in_a_played_trick(self) -> None:
        # Six players, dealer 5: seat 4 (blue handicap, laid B1) takes the seed's trick
        # and a B0 (a handicap-colour 0 is worth nothing): that trick is worth -9 to it.
        state = new_state(6, dealer=5, hands=1)
        hands = deal(state, {0: "B7", 1: "B5", 2: "R4", 3: "Y2", 4: "V14 B1", 5: "B0"})
        lay(state, {4: "B1", **{s: hands[s][-1] for s in (0, 1, 2, 3, 5)}})
        play(state, "B7", "B5", "R4", "Y2", "V14", "B0")
        assert vd(state, 0)["tricks"][0]["winner"] == 4, "V14 is the highest trump"
        while not state.is_terminal:
            state.apply(state.legal_actions()[0])
        view = vd(state, 0)
        later = [c for t in view["tricks"][1:] if t["winner"] == 4 for _, c in t["cards"]]
        rest = sum(-int(c[1:]) if c[0] == "B" else 1 for c in later)
        assert view["sheet"][0]["deltas"][4] == -1 - 9 + rest

    def test_brettspielwelt_example_plus_two(self) -> None:
        # pain red with R1 laid; 16 captured cards of which R0, R2, R8: 13 - 10 - 1 = 2
        others = ["B1", "B2", "B3", "B4", "G1", "G2", "G3", "G4", "Y1", "Y2", "Y3", "O1", "O2"]
        assert score(4, ["R1"], ["R0", "R2", "R8", *others]) == 2

    def test_the_laid_card_counts_against_its_owner(self) -> None:
        # "la carte choisie au début pour indiquer sa couleur de handicap est également comptée"
        assert score(4, ["G9"], []) == -9
        assert score(4, ["G0"], []) == 0

    def test_a_captured_zero_of_the_handicap_colour_is_worth_nothing(self) -> None:
        assert score(4, ["R3"], ["R0", "B0"]) == -3 + 0 + 1

    def test_gentle_each_handicap_card_costs_one(self) -> None:
        others = ["B1", "B2", "B3", "B4", "G1", "G2", "G3", "G4", "Y1", "Y2", "Y3", "O1", "O2"]
        assert score(4, ["R1"], ["R0", "R2", "R8", *others], gentle=True) == 13 - 3 - 1
        assert score(4, ["R9"], [], gentle=True) == -1

    def test_mechant_both_colours_cost_their_value(self) -> None:
        assert score(4, ["R1", "B3"], ["B5", "R2", "G4"], two_pain_colours=True) == -1 - 3 - 5 - 2 + 1

    def test_pain_card_only_variant(self) -> None:
        assert score(4, ["R7"], ["R2", "R8", "G1"], pain_card_only=True) == -7 + 3

    @pytest.mark.parametrize("options", [{}, {"gentle": True}, {"two_pain_colours": True}])
    def test_a_whole_hand_is_scored_by_the_rule(self, options: dict[str, Any]) -> None:
        state = new_state(3, dealer=0, hands=1, **options)
        hands = deal(state)
        if options.get("two_pain_colours"):
            lay(state, {s: f"{hands[s][0]} {hands[s][-1]}" for s in range(3)})
        else:
            lay(state, {s: hands[s][4] for s in range(3)})
        pains = vd(state, 0)["pains"]
        while not state.is_terminal:
            state.apply(state.legal_actions()[-1])
        view = vd(state, 0)
        captured: dict[int, list[str]] = {s: [] for s in range(3)}
        for trick in view["tricks"]:
            captured[trick["winner"]].extend(c for _, c in trick["cards"])
        expected = [
            rule_hand_score(pains[s], captured[s], gentle=bool(options.get("gentle"))) for s in range(3)
        ]
        assert view["sheet"][0]["deltas"] == expected
        assert view["scores"] == expected
        assert state.winners() == [s for s in range(3) if expected[s] == max(expected)]


# --- Sticheln méchant -------------------------------------------------------------------------


class TestMechant:
    def test_two_cards_of_two_colours_then_thirteen_tricks(self) -> None:
        state = new_state(3, dealer=0, two_pain_colours=True)
        hands = deal(state, {1: "B1 B2 R5"})
        state.apply("pain B1")
        assert state.current_player == 1, "the same player lays its second card"
        with pytest.raises(IllegalAction, match="another colour"):
            state.apply("pain B2")
        state.apply("pain R5")
        assert vd(state, 2)["pains"][1] is None
        lay(state, {2: f"{hands[2][0]} {hands[2][-1]}", 0: f"{hands[0][0]} {hands[0][-1]}"})
        assert vd(state, 2)["pains"][1] == ["B1", "R5"]
        assert vd(state, 2)["hand_sizes"] == [13, 13, 13]
        tricks = 0
        while state.round == 1:
            for _ in range(3):
                state.apply(state.legal_actions()[0])
            tricks += 1
        assert tricks == 13

    def test_a_one_colour_hand_may_lay_two_cards_of_that_colour(self) -> None:
        # Decision S13: the only possible choice stays legal.
        state = new_state(5, dealer=0, two_pain_colours=True)
        deal(state, {1: " ".join(f"B{v}" for v in range(15))})
        state.apply("pain B0")
        assert [state.action_to_text(a) for a in state.legal_actions()] == [
            f"pain B{v}" for v in range(1, 15)
        ]
        state.apply("pain B1")
        assert state.current_player == 2


# --- decks ---------------------------------------------------------------------------------------


class TestDecks:
    @pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
    def test_deck_per_player_count(self, players: int) -> None:
        # rules-notes §4.1: 3p 0-8 x5 = 45, 4p 0-11 x5 = 60 (the seed's 0-12 is wrong),
        # 5p 0-14 x5 = 75, 6p 0-14 x6 = 90, 7p 0-17 x6 = 108, 8p 0-18 x6 = 114
        sizes = {3: 45, 4: 60, 5: 75, 6: 90, 7: 108, 8: 114}
        game = StichelnGame(players)
        assert game.deck.size == sizes[players] == len(deck_texts(players))
        assert [game.deck.text(k) for k in range(game.deck.size)] == deck_texts(players)
        state = game.new_state(seed=players)
        view = state.view(0).to_dict()
        each = RULE_DECKS[players][2]
        assert view["hand_sizes"] == [each] * players
        assert game.tricks_per_hand == each - 1
        if players <= 5:
            assert not any(c.startswith("V") for c in view["hand"]), "violet is removed below 6 players"

    def test_cards_outside_the_deck_are_refused(self) -> None:
        state = new_state(4)
        with pytest.raises(Exception, match="not a card of this deck"):
            state.apply("deal 1 B12")  # 4 players: values 0..11
        with pytest.raises(Exception, match="not a card of this deck"):
            state.apply("deal 1 V3")  # no violet below 6 players

    def test_options_are_checked(self) -> None:
        with pytest.raises(OptionError):
            StichelnGame(4, first_dealer=4)
        with pytest.raises(OptionError):
            StichelnGame(4, zero_lead_colour="second")
        with pytest.raises(OptionError):
            StichelnGame(2)
        assert phase(new_state(4)) == "deal"
