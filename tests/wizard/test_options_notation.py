"""Options (every variant is an option; bad ones are refused naming the option)
and the action notation (every id <-> text, both ways, for every configuration)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from atout.core.errors import NotationError, OptionError
from atout.core.game import CHANCE
from atout.games.wizard import WizardGame
from atout.games.wizard import cards as C
from atout.games.wizard.rules import PLAY_CARD

from .helpers import BLIND_TEXTS, deal, new_state, phase

# --- options ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "named"),
    [
        (4, {"trumps": True}, "trumps"),
        (4, {"plus_minus_one": "maybe"}, "plus_minus_one"),
        (4, {"bids": "secret"}, "bids"),
        (4, {"clairvoyance": 3}, "clairvoyance"),
        (4, {"first_dealer": 4}, "first_dealer"),
        (6, {"first_dealer": 6}, "first_dealer"),
        (4, {"first_dealer": -1}, "first_dealer"),
        (4, {"first_dealer": "north"}, "first_dealer"),
        (4, {"rounds": 0}, "rounds"),
        (4, {"rounds": 16}, "rounds"),
        (6, {"rounds": 11}, "rounds"),
        (3, {"rounds": 21}, "rounds"),
        (4, {"plus_minus_one": True, "bids": "hidden_until_play"}, "plus_minus_one"),
        (4, {"plus_minus_one": True, "bids": "hidden_until_end"}, "plus_minus_one"),
    ],
)
def test_bad_options_are_refused_naming_the_option(players: int, options: dict[str, Any], named: str) -> None:
    with pytest.raises(OptionError, match=named):
        WizardGame(players, **options)


@pytest.mark.parametrize("players", [0, 1, 2, 7, 10])
def test_wrong_player_count(players: int) -> None:
    with pytest.raises(OptionError, match="players"):
        WizardGame(players)


def test_player_count_must_be_an_integer() -> None:
    with pytest.raises(OptionError):
        WizardGame("4")
    with pytest.raises(OptionError):
        WizardGame(True)


def test_good_options_and_their_defaults() -> None:
    game = WizardGame(4)
    assert dict(game.options) == {
        "plus_minus_one": False,
        "bids": "open",
        "clairvoyance": False,
        "first_dealer": None,
        "rounds": None,
        "start_round": 1,
    }
    assert game.non_default_options() == {}
    game = WizardGame(3, plus_minus_one="yes", bids="open", rounds="5", first_dealer="2")
    assert game.non_default_options() == {"plus_minus_one": True, "rounds": 5, "first_dealer": 2}
    # every documented variant combination that makes sense is accepted
    for bids, clair, rounds in itertools.product(
        ("open", "hidden_until_play", "hidden_until_end"), (False, True), (None, 1, 15)
    ):
        WizardGame(4, bids=bids, clairvoyance=clair, rounds=rounds)


# --- notation --------------------------------------------------------------------------------

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (n, opts)
    for n in (3, 4, 5, 6)
    for opts in (
        {},
        {"clairvoyance": True},
        {"plus_minus_one": True, "rounds": 2},
        {"bids": "hidden_until_end", "clairvoyance": True, "first_dealer": 1},
    )
]


def ids(config: tuple[int, dict[str, Any]]) -> str:
    n, opts = config
    return f"{n}p-" + "-".join(f"{k}={v}" for k, v in opts.items())


@pytest.mark.parametrize("config", CONFIGS, ids=[ids(c) for c in CONFIGS])
def test_every_action_id_round_trips(config: tuple[int, dict[str, Any]]) -> None:
    n, opts = config
    game = WizardGame(n, **opts)
    texts = [game.action_to_text(a) for a in range(game.num_actions)]
    assert len(set(texts)) == game.num_actions, "one text per id"
    for a, text in enumerate(texts):
        assert game.text_to_action(text) == a
        assert game.text_to_action(text.upper()) == a, "case-insensitive"
        assert game.text_to_action(f"  {text.title()} ") == a
    assert game.action_table() == list(enumerate(texts))


@pytest.mark.parametrize("config", CONFIGS, ids=[ids(c) for c in CONFIGS])
def test_the_action_space_is_plays_bids_trumps(config: tuple[int, dict[str, Any]]) -> None:
    n, opts = config
    game = WizardGame(n, **opts)
    texts = {game.action_to_text(a) for a in range(game.num_actions)}
    cards = [f"{s}{r}" for s in "BGRY" for r in range(1, 14)] + ["Z", "N"]
    expected = {f"play {c}" for c in cards}
    expected |= {f"bid {b}" for b in range(60 // n + 1)}
    expected |= {f"trump {s}" for s in ("blue", "green", "red", "yellow")}
    blind = texts & set(BLIND_TEXTS)
    if opts.get("clairvoyance"):
        assert len(blind) == 1
        expected |= blind
    else:
        assert not blind
    assert texts == expected


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_short_forms(players: int) -> None:
    game = WizardGame(players)
    assert game.text_to_action("B7") == game.text_to_action("play b7")
    assert game.text_to_action("z") == game.text_to_action("play Z")
    assert game.text_to_action("play wizard") == game.text_to_action("play Z")
    assert game.text_to_action("Jester") == game.text_to_action("play N")
    assert game.text_to_action("2") == game.text_to_action("bid 2")
    assert game.text_to_action("trump g") == game.text_to_action("trump green")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "hello",
        "play",
        "play B14",
        "play B0",
        "play X3",
        "play B",
        "play Z Z",
        "bid",
        "bid -1",
        "bid two",
        "bid 16",
        "trump",
        "trump purple",
        "trump none",
        "deal 1 B7",
        "play ?",
        "play blind",
        "16",
    ],
)
def test_bad_notation_raises_notation_error(text: str) -> None:
    game = WizardGame(4)  # bids 0..15, no clairvoyance
    with pytest.raises(NotationError):
        game.text_to_action(text)


@pytest.mark.parametrize("players", [3, 6])
def test_bad_ids_raise_notation_error_above_the_space(players: int) -> None:
    for opts in ({}, {"clairvoyance": True}):
        game = WizardGame(players, **opts)
        for bad in (game.num_actions, game.num_actions + 1, 10**6):
            with pytest.raises(NotationError):
                game.action_to_text(bad)


def check_negative_ids(game: WizardGame) -> None:
    for bad in (-1, -2, -100):
        with pytest.raises(NotationError):
            game.action_to_text(bad)


def test_negative_ids_raise_notation_error_with_clairvoyance() -> None:
    check_negative_ids(WizardGame(4, clairvoyance=True))


def test_negative_ids_raise_notation_error_without_clairvoyance() -> None:
    check_negative_ids(WizardGame(4))


def test_blind_play_only_exists_with_clairvoyance() -> None:
    game = WizardGame(4, clairvoyance=True)
    blind = game.action_to_text(game.space["blind"]())
    assert blind in BLIND_TEXTS
    with pytest.raises(NotationError):
        WizardGame(4).text_to_action(blind)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_ids_are_the_documented_table(players: int) -> None:
    """The rules page's id table (records saved before replay): cards, bids from 54, trumps, blind."""
    full = 60 // players
    for opts in ({}, {"clairvoyance": True}):
        game = WizardGame(players, **opts)
        assert [r.name for r in game.space.ranges] == ["play", "bid", "trump"] + (["blind"] if opts else [])
        assert PLAY_CARD(0) == 0 and game.text_to_action("play B7") == PLAY_CARD(6) == 6
        assert game.text_to_action("play Z") == PLAY_CARD(C.WIZARD) == 52
        assert game.text_to_action("play N") == PLAY_CARD(C.JESTER) == 53
        bid, trump = game.space["bid"], game.space["trump"]
        assert (bid(0), bid(full)) == (54, 54 + full) == (game.bid_base, game.bid_base + full)
        assert [trump(s) for s in range(4)] == list(range(55 + full, 59 + full))
        assert game.text_to_action("trump green") == trump(1) == game.trump_base + 1
        if opts:
            assert game.space["blind"]() == game.blind_action == 59 + full == game.num_actions - 1
        else:
            assert game.blind_action == -1 and game.num_actions == 59 + full


def test_bid_above_the_round_parses_but_is_illegal_in_early_rounds() -> None:
    game = WizardGame(3)
    assert game.action_to_text(game.text_to_action("bid 20")) == "bid 20"
    with pytest.raises(NotationError):
        game.text_to_action("bid 21")


# --- chance notation -----------------------------------------------------------------------------


def test_chance_texts_round_trip_at_every_chance_node() -> None:
    state = WizardGame(4, clairvoyance=True).new_state()
    seen = set()
    for _ in range(400):
        if state.is_terminal:
            break
        if state.is_chance:
            for outcome in state.legal_actions():
                text = state.action_to_text(outcome)
                seen.add(text.split()[0])
                assert state.parse(text) == outcome
                assert state.parse(text.upper()) == outcome
        state.apply(state.legal_actions()[-1])
    assert seen == {"dealer", "deal", "turn"}


def test_chance_texts_for_the_wrong_event_are_refused() -> None:
    state = WizardGame(3).new_state()
    assert phase(state) == "first-dealer"
    for bad in ("deal 1 B7", "turn B7", "dealer", "dealer x", "play B7", "bid 1"):
        with pytest.raises(NotationError):
            state.parse(bad)
    state.apply("dealer 0")
    assert phase(state) == "deal"
    for bad in ("deal 2 B7", "deal 0 B7", "turn B7", "dealer 1", "deal 1 B14", "deal 1", "deal one B7"):
        with pytest.raises(NotationError):
            state.parse(bad)
    assert state.action_to_text(state.parse("deal 1 b7")) == "deal 1 B7"
    deal(state, {1: "B1", 2: "B2", 0: "B3"})
    assert phase(state) == "turn-up"
    for bad in ("deal 1 B7", "turn", "turn B14", "turn blue"):
        with pytest.raises(NotationError):
            state.parse(bad)
    assert state.action_to_text(state.parse("turn z")) == "turn Z"


def test_chance_refusals_say_what_to_write() -> None:
    state = WizardGame(3).new_state()
    with pytest.raises(NotationError) as refused:
        state.parse("turn B7")
    assert (
        str(refused.value)
        == "'turn B7' is not the chance event expected here (first-dealer: write e.g. 'dealer 2')"
    )
    state.apply("dealer 0")
    with pytest.raises(NotationError) as refused:
        state.parse("deal 0 B7")
    assert str(refused.value) == (
        "'deal 0 B7': the next card of round 1 goes to seat 1, not seat 0 (seat 1 has 0 of 1 cards)"
    )
    with pytest.raises(NotationError) as refused:
        state.parse("deal 1 B14")
    assert "B14" in str(refused.value) and "is not a Wizard card" in str(refused.value)


def test_action_refusals_say_what_to_write() -> None:
    game = WizardGame(4)
    messages = {}
    for text in ("hello there", "bid 16", "16", "trump purple", "play"):
        with pytest.raises(NotationError) as refused:
            game.text_to_action(text)
        messages[text] = str(refused.value)
    assert (
        messages["hello there"]
        == "'hello there' is not a Wizard action: write 'play B7', 'bid 2' or 'trump green'"
    )
    assert messages["bid 16"] == "'bid 16': a bid is 0..15"
    assert messages["16"] == "'16': 'bid 16': a bid is 0..15"
    assert messages["trump purple"] == "'trump purple': 'purple' is not a suit (blue, green, red or yellow)"
    assert messages["play"] == "'play': 'play' is not a Wizard card (write B7, G13, R1, Y12, Z or N)"


def test_chance_outcome_out_of_range_is_illegal() -> None:
    state = new_state(3)
    assert state.current_player == CHANCE
    before = list(state.history)
    for bad in (-1, state.game.num_chance_outcomes, 10**6):
        assert not state.is_legal(bad)
    assert state.history == before
