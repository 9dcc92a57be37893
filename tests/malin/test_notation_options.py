"""The text notation (both ways, every id), the chance notation, and the options."""

from __future__ import annotations

import random

import pytest

import atout
from atout.core.errors import IllegalAction, NotationError, OptionError
from atout.games.malin import MalinGame
from atout.games.malin.cards import MALIN
from atout.games.malin.rules import (
    CARD,
    NUM_ACTIONS,
    TWIN_LOW,
    TWIN_PLAY,
    malheur_target,
    malheur_type,
    malin_targets,
)

from .helpers import HANDS_4P, REMOVED_4P, deal, new_state, phase


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_action_id_reads_back(players: int) -> None:
    """Every id of the table (the same for every configuration) reads back, even one this
    table lacks (a seat past its last, a number past its deck): the rules refuse those."""
    game = MalinGame(players, fun=True)
    assert game.num_actions == NUM_ACTIONS
    for action in range(game.num_actions):
        text = game.action_to_text(action)
        assert game.text_to_action(text) == action, text
        assert game.text_to_action(text.upper()) == action  # case-insensitive
    with pytest.raises(NotationError):
        game.action_to_text(NUM_ACTIONS)
    absent = [
        a
        for a in range(NUM_ACTIONS)
        if (a < TWIN_LOW and a >= game.top)
        or (malheur_type(a) == MALIN and max(malin_targets(a)) >= players)
        or (malheur_type(a) not in (-1, MALIN) and malheur_target(a) >= players)
    ]
    assert bool(absent) == (players < 6)
    state = game.new_state(seed=players)
    rng = random.Random(players)
    while not state.is_terminal:
        if not state.is_chance:
            assert all(state.illegal_reason(a) is not None for a in absent)
        state.apply(rng.choice(state.legal_actions()))


def test_issue_examples_and_aliases() -> None:
    game = MalinGame(4)
    assert game.action_to_text(game.text_to_action("play WISH -100")) == "play WISH -100"
    assert game.action_to_text(game.text_to_action("play TWIN 35")) == "play TWIN 35"
    assert game.text_to_action("play t 0") == game.text_to_action("play twin 0") == TWIN_PLAY(0)
    assert game.text_to_action("17") == game.text_to_action("play 17") == CARD(17)
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
    # "play 20" names an id of the table, which a 3-player deck lacks: the rules say so.
    state = MalinGame(3, rounds=1).new_state(seed=1)
    while phase(state) != "play":
        state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalAction, match=r"numbered cards are 1\.\.19"):
        state.apply("play 20")
    with pytest.raises(NotationError, match=r"seat must be 0\.\.3, not 6"):
        game.text_to_action("malheur fennec on 6")


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
