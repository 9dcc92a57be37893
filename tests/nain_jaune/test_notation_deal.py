"""Card notation, the action id table, options, and the deal sizes (seed: 15/12/9/8/7/6)."""

from __future__ import annotations

import json

import pytest

import atout
from atout.core.errors import IllegalAction, NotationError, OptionError
from atout.core.game import CHANCE
from atout.games.nain_jaune import NainJauneGame
from atout.games.nain_jaune import cards as C
from atout.games.nain_jaune.rules import CLAIM_BOX, PASS_TURN, PLAY_CARD

from .helpers import SANS_SEPT, deal, new_state


class TestNotation:
    @pytest.mark.parametrize(
        ("text", "card"),
        [
            ("7D", (7, 1)),
            ("7♦", (7, 1)),
            ("d7", (7, 1)),
            ("10D", (10, 1)),
            ("td", (10, 1)),
            ("JC", (11, 0)),
            ("q♠", (12, 3)),
            ("KH", (13, 2)),
            ("K♡", (13, 2)),
            ("AS", (1, 3)),
            ("1s", (1, 3)),
        ],
    )
    def test_cards_parse_in_every_accepted_spelling(self, text: str, card: tuple[int, int]) -> None:
        assert C.parse_card(text) == C.card(*card)

    @pytest.mark.parametrize("text", ["", "7", "11D", "0C", "7X", "ZZ", "10"])
    def test_nonsense_is_refused(self, text: str) -> None:
        with pytest.raises(ValueError):
            C.parse_card(text)

    def test_action_table(self) -> None:
        game = NainJauneGame(4)
        table = game.action_table()
        assert len(table) == game.num_actions == 54
        assert table[PLAY_CARD(C.parse_card("AC"))] == (0, "play AC")
        assert table[PLAY_CARD(C.parse_card("KS"))] == (51, "play KS")
        assert table[PASS_TURN()] == (52, "pass") and table[CLAIM_BOX()] == (53, "claim")
        for action, text in table:
            assert game.text_to_action(text) == action
            assert game.text_to_action(text.upper()) == action
        assert game.text_to_action("7♦") == PLAY_CARD(C.BOARD[4])
        with pytest.raises(NotationError):
            game.text_to_action("bid 3")
        with pytest.raises(NotationError):
            game.action_to_text(game.num_actions)

    def test_board_and_points(self) -> None:
        assert [C.card_text(c) for c in C.BOARD] == ["10D", "JC", "QS", "KH", "7D"]
        assert C.BOX_STAKES == (1, 2, 3, 4, 5)
        values = [C.points(C.parse_card(t)) for t in ("AS", "7D", "10C", "JH", "QS", "KD")]
        assert values == [1, 7, 10, 10, 10, 10]
        assert C.hand_points(C.FULL_MASK) == 4 * (55 + 30)

    def test_chance_notation_names_the_seat_and_refuses_others(self) -> None:
        state = NainJauneGame(4).new_state()
        dealer = state.legal_actions()[2]
        assert state.action_to_text(dealer) == "dealer 2"
        state.apply(dealer)
        assert state.action_to_text(C.parse_card("AC")) == "deal 3 AC"
        with pytest.raises(NotationError, match="goes to seat 3"):
            state.apply("deal 1 AC")
        with pytest.raises(NotationError, match="not the chance event"):
            state.apply("play AC")
        state.apply("deal 3 AC")
        with pytest.raises(IllegalAction, match="already dealt"):
            state.apply("deal 3 AC")


class TestOptions:
    def test_defaults_follow_the_rules_notes(self) -> None:
        game = NainJauneGame(4)
        assert game.non_default_options() == {}
        o = game.options
        assert (o["stuck_rule"], o["voluntary_stop"], o["first_card"], o["direction"]) == (
            "skip_rank",
            False,
            "any",
            "clockwise",
        )
        assert (o["payment"], o["kept_pay_card"], o["grand_opera"], o["manual_claim"]) == (
            "points",
            "double_box",
            "off",
            False,
        )
        assert (o["max_deals"], o["start_tokens"], o["stake_unit"]) == (None, 100, 1)

    def test_bad_options_are_refused(self) -> None:
        with pytest.raises(OptionError, match="first_dealer"):
            NainJauneGame(3, first_dealer=5)
        with pytest.raises(OptionError, match="stake of one deal"):
            NainJauneGame(3, start_tokens=20, stake_unit=2)
        with pytest.raises(OptionError):
            NainJauneGame(9)
        with pytest.raises(OptionError):
            NainJauneGame(4, stuck_rule="whatever")

    def test_stake_unit_multiplies_the_stakes(self) -> None:
        state = new_state(stake_unit=3)
        assert state.view(0).tokens == (55, 55, 55, 55)
        assert state.view(0).boxes == (12, 24, 36, 48, 60)

    def test_registered(self) -> None:
        game = atout.load("nain-jaune", 6)
        assert isinstance(game, NainJauneGame)
        assert game.title == "Le Nain Jaune"


@pytest.mark.parametrize(("players", "size"), [(2, 22), (3, 15), (4, 12), (5, 9), (6, 8), (7, 7), (8, 6)])
def test_deal_sizes_and_the_undealt_cards_stay_hidden(players: int, size: int) -> None:
    game = NainJauneGame(players)
    state = game.new_state(seed=players)
    assert state.current_player != CHANCE
    assert all(len(state.view(s).hand) == size for s in range(players))
    assert state.view(0).hand_sizes == (size,) * players
    dealt = set()
    for seat in range(players):
        dealt |= set(state.view(seat).hand)
    talon = {C.card_text(c) for c in range(52)} - {C.card_text(c) for c in dealt}
    assert len(talon) == 52 - size * players == {2: 8, 3: 7, 4: 4, 5: 7, 6: 4, 7: 3, 8: 4}[players]
    for seat in range(players):
        d = state.view(seat).to_dict()
        del d["boxes"]  # its keys name the five board cards
        text = json.dumps(d)
        for char in '",[]{}:':
            text = text.replace(char, " ")
        words = set(text.split())
        assert not words & talon, "an undealt card appears in a view"


def test_the_deal_goes_round_from_the_dealer_left() -> None:
    state = new_state(4, dealer=1)
    targets = []
    while state.current_player == CHANCE:
        targets.append(int(state.action_to_text(state.legal_actions()[0]).split()[1]))
        state.apply(state.legal_actions()[0])
    assert targets == [2] * 12 + [3] * 12 + [0] * 12 + [1] * 12


def test_helper_deals_are_complete() -> None:
    state = new_state()
    deal(state, SANS_SEPT, talon="7D 7H KH KS")
    assert state.current_player == 0
