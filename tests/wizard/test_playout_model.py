"""Wizard's playout model: situations and kinds of play, legal and reproducible, and it ducks where strong play does."""

from __future__ import annotations

import random
import re

import atout
from atout.bots import make_bot
from atout.bots.factory import EXPERT_MODEL_PLAYOUTS, EXPERT_PLAYOUTS
from atout.games.wizard.bot import WizardHeuristicBot, strength, would_win
from atout.games.wizard.playout import HEURISTIC_WEIGHT, WizardPlayoutBot, kind, kinds, situation
from atout.games.wizard.playout_table import COUNTS
from atout.games.wizard.view import WizardView
from atout.match import play_match

from .helpers import bid_all, deal, goto_round, new_state, play

SITUATION = re.compile(r"^(n\+[0-3]|n0[1-3]|nX)\|(lead|(mid|last)\|(all|some|none))$")
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
                assert situation(view, kinds(view)) == where  # the playout's one-pass call agrees
                reach = where.rsplit("|", 1)[-1]
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
