"""The text notation (both ways, every id), the chance notation, and the options."""

from __future__ import annotations

import pytest

import atout
from atout.core.errors import NotationError, OptionError
from atout.games.malin import MalinGame
from atout.games.malin.game import NUM_ACTIONS

from .helpers import HANDS_4P, REMOVED_4P, deal, new_state, phase


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_action_id_reads_back(players: int) -> None:
    game = MalinGame(players)
    assert game.num_actions == NUM_ACTIONS
    readable = 0
    for action in range(game.num_actions):
        text = game.action_to_text(action)
        try:
            back = game.text_to_action(text)
        except NotationError:
            # Only ids that do not exist at this table: high numbers at 3 players, absent seats.
            assert players < 6
            continue
        assert back == action, text
        assert game.text_to_action(text.upper()) == action  # case-insensitive
        readable += 1
    assert readable == game.num_actions if players == 6 else readable < game.num_actions
    with pytest.raises(NotationError):
        game.action_to_text(NUM_ACTIONS)


def test_issue_examples_and_aliases() -> None:
    game = MalinGame(4)
    assert game.action_to_text(game.text_to_action("play WISH -100")) == "play WISH -100"
    assert game.action_to_text(game.text_to_action("play TWIN 35")) == "play TWIN 35"
    assert game.text_to_action("play t 0") == game.text_to_action("play twin 0") == 34
    assert game.text_to_action("17") == game.text_to_action("play 17") == 16
    assert game.text_to_action("malheur belzébuth on 2") == game.text_to_action("malheur belzebuth on seat2")
    assert game.text_to_action("malheur malin on 3 1") == game.text_to_action("malheur malin on 1 and 3")
    assert game.text_to_action("wish 7") == game.text_to_action("redeclare 7")
    assert MalinGame(3).action_to_text(35) == "play TWIN 20"
    for bad in (
        "play TWIN 20",
        "play TWIN",
        "play WISH",
        "play WISH 3.5",
        "play 35",
        "bid 9",
        "malheur 666 on 1 2",
        "malheur malin on 2 2",
        "hello",
    ):
        with pytest.raises(NotationError):
            game.text_to_action(bad)
    with pytest.raises(NotationError, match=r"1\.\.19"):
        MalinGame(3).text_to_action("play 20")


def test_chance_notation_reads_back_and_refuses_the_wrong_event() -> None:
    state = new_state(4, fun=True)
    outcome = state.legal_actions()[0]
    text = state.action_to_text(outcome)
    assert text.startswith("draw 1 ") and state.parse(text) == outcome
    with pytest.raises(NotationError, match="seat 1"):
        state.parse("draw 2 fennec")
    with pytest.raises(NotationError, match="expected here"):
        state.parse("deal 1 17")
    state = new_state(4)
    assert state.action_to_text(state.legal_actions()[0]) == "remove 1"
    state.apply("remove TWIN")
    assert state.action_to_text(state.legal_actions()[-1]) == "deal 1 WISH"
    with pytest.raises(NotationError, match="seat 1"):
        state.parse("deal 2 17")
    random_dealer = MalinGame(4).new_state()
    assert random_dealer.action_to_text(random_dealer.legal_actions()[2]) == "dealer 2"


def test_a_named_target_card_is_checked() -> None:
    state = new_state(4, fun=True)
    while phase(state) == "gain":
        state.apply(state.legal_actions()[0])
    deal(state, HANDS_4P, REMOVED_4P)
    with pytest.raises(NotationError, match="no card in the current trick"):
        state.parse("malheur fennec on 2:19")


def test_options_and_their_checks() -> None:
    game = atout.load("malin", players=5, fun=True, start_score=6)
    assert isinstance(game, MalinGame)
    assert game.options["fun"] is True and game.hand_size == 7
    assert "fun=true" in game.options_text()
    with pytest.raises(OptionError):
        MalinGame(4, first_dealer=4)
    with pytest.raises(OptionError):
        MalinGame(4, sum_rule="sometimes")
    with pytest.raises(OptionError):
        MalinGame(7)
    assert MalinGame(4).copies == (0, 0, 0, 0, 0)  # no Malheur deck without jeu fun
    assert MalinGame(4, fun=True, fennec_copies=9).copies == (4, 4, 4, 4, 9)


def test_a_bare_number_is_read_by_the_phase() -> None:
    state = new_state(4)
    deal(state, HANDS_4P, REMOVED_4P)
    assert state.parse("3") == state.view(1).parse("3") == state.game.text_to_action("bid 3")
    for seat, bid in ((1, 1), (2, 2), (3, 3), (0, 0)):
        assert state.current_player == seat
        state.apply(str(bid))
    assert state.parse("3") == state.view(1).parse("3") == state.game.text_to_action("play 3")
    hands = [
        "1 5 9 13 17 21 25 29 33",
        "2 6 10 14 18 22 26 30 WISH",
        "3 7 11 15 19 23 27 31 TWIN",
        "4 8 12 16 20 24 28 34 TWIN",
    ]
    state = new_state(4)
    deal(state, hands, "32")
    for bid_text in ("1", "2", "3", "0"):
        state.apply(bid_text)
    assert (
        state.parse("wish 12") == state.view(1).parse("WISH 12") == state.game.text_to_action("play WISH 12")
    )
    for text in ("WISH 12", "TWIN 35", "12"):
        state.apply(text)
    assert phase(state) == "redeclare"
    assert state.parse("-7") == state.view(1).parse("-7") == state.game.text_to_action("wish -7")
