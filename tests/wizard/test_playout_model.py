"""Wizard's playout model: situations and kinds of play, legal and reproducible, and it ducks where strong play does."""

from __future__ import annotations

import random
import re

import pytest

import atout
from atout.bots import make_bot
from atout.bots.factory import EXPERT_MODEL_PLAYOUTS, EXPERT_PLAYOUTS
from atout.games.wizard import cards as C
from atout.games.wizard.bot import WizardHeuristicBot, strength, would_win
from atout.games.wizard.game import WizardState
from atout.games.wizard.playout import (
    HEURISTIC_WEIGHT,
    WizardPlayoutBot,
    kind,
    kinds,
    situation,
    sure_winners,
    unwanted,
)
from atout.games.wizard.playout_table import COUNTS
from atout.games.wizard.view import WizardView
from atout.match import play_match

from .helpers import bid_all, deal, goto_round, new_state, play

SITUATION = re.compile(r"^(n\+[0-3]s?|n0[1-3]|nX)\|(lead|(mid|last)(!\|some|\|(all|some|none)))$")
KIND = re.compile(r"^(lead|win|duck)_(max|mid|min)$")
#: Which kinds of play a situation allows, by its last field.
REACH = {"lead": {"lead"}, "all": {"win"}, "none": {"duck"}, "some": {"win", "duck"}}


def following_with_tricks_to_spare() -> WizardView:
    """Seat 1 needs one trick with four cards left; blue 5 led, it holds blue 9 (wins) and blue 2 (ducks)."""
    state = new_state(4, dealer=0)
    goto_round(state, 4)  # seat 3 deals, seat 0 bids first and leads
    deal(state, {0: "B5 G2 R9 R3", 1: "B9 B2 G3 G4", 2: "B7 B8 Y2 Y3", 3: "G7 N R2 G1"}, turn="Y1")
    bid_all(state, {0: 1, 1: 1, 2: 1, 3: 0})
    play(state, "B5")
    view = state.view(1)
    assert isinstance(view, WizardView)
    return view


def test_situation_and_kinds_of_a_worked_example() -> None:
    view = following_with_tricks_to_spare()
    assert situation(view) == "n+3|mid|some"
    b9, b2 = view.parse("play B9"), view.parse("play B2")
    assert {kind(view, b9), kind(view, b2)} == {"win_max", "duck_max"}
    assert sorted(view.legal_actions) == sorted([b9, b2])


def holding_sure_winners(lead: str) -> WizardView:
    """Seat 1 needs two of four tricks, holds a Wizard and the top trump; seat 0 (bid 0) leads ``lead``."""
    state = new_state(4, dealer=0)
    goto_round(state, 4)
    deal(state, {0: "B5 G2 Y12 R3", 1: "Z Y13 Y11 B2", 2: "B7 B8 G5 G6", 3: "G7 N R2 G1"}, turn="Y1")
    bid_all(state, {0: 0, 1: 2, 2: 1, 3: 0})
    play(state, lead)
    view = state.view(1)
    assert isinstance(view, WizardView)
    return view


def test_sure_winners_count_wizards_and_trumps_nothing_hidden_beats() -> None:
    blue = holding_sure_winners("B5")
    assert sure_winners(blue) == 2  # Z and Y13: yellow 12 is still out, so yellow 11 is not sure
    assert unwanted(blue)  # seat 0 bid nothing: ducking hands it a trick too many
    assert situation(blue) == "n+2s|mid!|some"  # Z wins, B2 (forced to follow blue) ducks
    yellow = holding_sure_winners("Y12")
    assert sure_winners(yellow) == 3  # yellow 12 is on the table: yellow 11 is now the second-best trump
    assert situation(yellow) == "n+2s|mid!|some"
    assert not unwanted(following_with_tricks_to_spare())  # the leader bid 1 and has none yet


def test_the_model_ducks_where_strong_players_do_and_the_heuristic_never_does() -> None:
    """Needing one trick of four, strong play ducks this blue 5 about as often as it wins it."""
    view = following_with_tricks_to_spare()
    b9 = view.parse("play B9")
    heuristic = WizardHeuristicBot(1)
    heuristic.start(view.game, 1)
    assert heuristic.choose(view) == b9
    counts = COUNTS["n+3|mid|some"]
    ducks = counts.get("duck_max", 0)
    expected = ducks / (ducks + counts.get("win_max", 0) + HEURISTIC_WEIGHT)
    model = WizardPlayoutBot(7)
    model.start(view.game, 1)
    answers = [model.choose(view) for _ in range(400)]
    share = sum(a != b9 for a in answers) / len(answers)
    assert 0.2 < expected < 0.8
    assert abs(share - expected) < 0.08  # ± 3.3 standard deviations of 400 draws


def test_the_table_names_only_real_situations_and_kinds() -> None:
    assert COUNTS, "the playout table is empty: run bench/fit_playout.py"
    for where, tally in COUNTS.items():
        assert SITUATION.match(where), where
        assert tally and all(KIND.match(k) and n > 0 for k, n in tally.items()), where
        reach = where.rsplit("|", 1)[-1]
        assert {k.split("_")[0] for k in tally} <= REACH[reach], where


def test_situations_and_kinds_agree_on_random_decisions() -> None:
    """Over random play: every situation matches the grammar and every card's kind fits it."""
    game = atout.load("wizard", 4, rounds=8)
    rng = random.Random(3)
    seen = 0
    for seed in range(6):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            view = state.view(state.current_player)
            assert isinstance(view, WizardView)
            if view.phase == "play" and len(view.legal_actions) > 1:
                where = situation(view)
                assert SITUATION.match(where), where
                reach = where.rsplit("|", 1)[-1]
                assert ("!" in where) == (reach == "some" and unwanted(view)), where
                prefixes = {kind(view, c).split("_")[0] for c in view.legal_actions}
                assert prefixes == REACH[reach], (where, prefixes)
                seen += 1
            state.apply(rng.choice(view.legal_actions))
    assert seen > 100


def test_the_model_plays_whole_matches_legally_and_reproducibly() -> None:
    game = atout.load("wizard", 4, rounds=6)

    def run() -> list[int]:
        bots = [WizardPlayoutBot(s) for s in range(4)]
        return play_match(game, bots, seed=11).state.scores()

    assert run() == run()


def test_expert_plays_its_playouts_with_the_model() -> None:
    wizard, malin = atout.load("wizard", 4), atout.load("malin", 4)
    expert = make_bot("expert", wizard, seed=1)
    expert.start(wizard, 0)
    assert all(type(p) is WizardPlayoutBot for p in expert._policies)  # type: ignore[attr-defined]
    # A better model makes a bigger budget pay: expert searches longer where the game has one.
    assert make_bot("expert", wizard).playouts == EXPERT_MODEL_PLAYOUTS  # type: ignore[attr-defined]
    assert make_bot("expert", malin).playouts == EXPERT_PLAYOUTS < EXPERT_MODEL_PLAYOUTS  # type: ignore[attr-defined]
    hard = make_bot("hard", wizard, seed=1)
    hard.start(wizard, 0)
    assert all(type(p) is WizardHeuristicBot for p in hard._policies)  # type: ignore[attr-defined]
    # A game without a model of strong play falls back to its heuristic.
    assert malin.playout_model is None
    fallback = make_bot("search:10:model", malin, seed=1)
    fallback.start(malin, 0)
    assert all(type(p).__name__ == "MalinHeuristicBot" for p in fallback._policies)  # type: ignore[attr-defined]


def test_kinds_partition_the_legal_cards_by_power() -> None:
    """Over random play: every legal card has one kind, and max ≥ mid ≥ min in power within a pool."""
    game = atout.load("wizard", 4, rounds=8)
    rng = random.Random(5)
    for seed in range(3):
        state = game.new_state(seed=seed)
        while not state.is_terminal:
            view = state.view(state.current_player)
            assert isinstance(view, WizardView)
            if view.phase == "play":
                grouped = kinds(view)
                assert sorted(c for cards in grouped.values() for c in cards) == sorted(view.legal_actions)
                for tag in ("lead", "win", "duck"):
                    powers = {
                        rank: {strength(c, view.trump) for c in grouped.get(f"{tag}_{rank}", [])}
                        for rank in ("max", "mid", "min")
                    }
                    assert len(powers["max"]) <= 1 and len(powers["min"]) <= 1
                    ordered = [
                        p for rank in ("max", "mid", "min") for p in sorted(powers[rank], reverse=True)
                    ]
                    assert ordered == sorted(ordered, reverse=True), (tag, powers)
                    assert not powers["mid"] or powers["min"], "a middle card needs a weaker one"
                for name, cards in grouped.items():
                    tag = name.split("_")[0]
                    assert (tag == "lead") == (not view.trick)
                    assert (
                        all(would_win(c, view.trick, view.trump) == (tag == "win") for c in cards)
                        or tag == "lead"
                    )
            state.apply(rng.choice(view.legal_actions))


def steering_position(bids: dict[int, int], *played: str) -> WizardState:
    """Round 4, yellow trumps; seat 0 leads.  Seat 1 holds Z Y13 B9 B2; seat 3 holds the last blue."""
    state = new_state(4, dealer=0)
    goto_round(state, 4)
    deal(state, {0: "B5 G2 Y12 R3", 1: "Z Y13 B9 B2", 2: "G8 G9 R5 R6", 3: "B10 N R2 G1"}, turn="Y1")
    bid_all(state, bids)
    play(state, *played)
    return state


def test_steering_takes_a_needed_trick_with_the_weakest_card_nobody_after_can_beat() -> None:
    steer = WizardPlayoutBot(1)
    state = steering_position({0: 1, 1: 2, 2: 0, 3: 1}, "B5")
    # Seat 1 must follow blue (Z, B9 or B2).  Blue 9 wins now, but seat 3 still holds blue 10:
    # the Wizard is the only card nobody after can top.
    assert state.action_to_text(steer.choose_world(state, 1)) == "play Z"  # type: ignore[arg-type]
    # Seat 3's blue 10 gone from the deal, blue 9 is safe: it is the weakest sure winner.
    state = steering_position({0: 1, 1: 2, 2: 0, 3: 1}, "B5")
    state.hands[3] &= ~(1 << C.parse_card("B10"))
    state.hands[3] |= 1 << C.parse_card("R13")
    assert state.action_to_text(steer.choose_world(state, 1)) == "play B9"  # type: ignore[arg-type]


def test_steering_sheds_a_trick_it_does_not_want_with_its_strongest_loser() -> None:
    steer = WizardPlayoutBot(1)
    state = steering_position({0: 1, 1: 0, 2: 0, 3: 1}, "B5", "B2", "G8", "B10")  # seat 3 took trick 1
    play(state, "N", "R3")  # seat 3 leads a Jester, seat 0's red 3 sets the suit
    # Seat 1 (bid 0) holds Z Y13 B9, no red: the Wizard and the trump would win, blue 9 loses.
    assert state.action_to_text(steer.choose_world(state, 1)) == "play B9"  # type: ignore[arg-type]


def test_steering_leaves_unclear_turns_to_the_model() -> None:
    steer = WizardPlayoutBot(1)
    state = steering_position({0: 1, 1: 0, 2: 0, 3: 1}, "B5", "B2", "G8", "B10")
    assert state.current_player == 3
    assert steer.choose_world(state, 3) is None  # leading with its bid made: no clear-cut lead
    bidding = steering_position({0: 1, 1: 0, 2: 0, 3: 1})
    assert steer.choose_world(bidding, 0) is None  # card play only: bids stay the model's


def test_search_steers_its_own_seat_only_and_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    original = WizardPlayoutBot.choose_world

    def spy(self: WizardPlayoutBot, state: WizardState, seat: int) -> int | None:
        asked.append(seat)
        return original(self, state, seat)

    monkeypatch.setattr(WizardPlayoutBot, "choose_world", spy)
    state = steering_position({0: 1, 1: 2, 2: 0, 3: 1}, "B5")
    for spec, steered in (("search:16:model", False), ("search:16:model:steer", True)):
        asked.clear()
        bot = make_bot(spec, state.game, seed=3)
        bot.start(state.game, 1)
        assert bot.choose(state.view(1)) in state.legal_actions()
        assert set(asked) == ({1} if steered else set())
    assert make_bot("expert", state.game).steer  # type: ignore[attr-defined]
    assert not make_bot("hard", state.game).steer  # type: ignore[attr-defined]
