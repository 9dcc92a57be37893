"""The heuristic bot (handicap choice, dumping, not taking its own colour) and sample_state."""

from __future__ import annotations

import random
from typing import Any

import pytest

import atout
from atout.games.sticheln import StichelnGame, StichelnState
from atout.games.sticheln.bot import StichelnHeuristicBot

from .helpers import deal, lay, new_state, play, random_step, vd


def bot_for(state: Any, seat: int) -> StichelnHeuristicBot:
    bot = StichelnHeuristicBot(seed=1)
    bot.start(state.game, seat)
    return bot


class TestHeuristicBot:
    def test_is_registered_and_loads(self) -> None:
        game = atout.load("sticheln", players=4)
        assert game.bots["heuristic"] == "atout.games.sticheln.bot:StichelnHeuristicBot"

    def test_chooses_the_colour_it_holds_most_of_and_lays_its_lowest_card(self) -> None:
        # Seat 1 holds red 0..8: the others hold little red, so red is the safe handicap colour;
        # the R0 laid costs nothing.
        state = new_state(4, dealer=0)
        deal(state, {1: "R0 R1 R2 R3 R4 R5 R6 R7 R8 B11 G11 Y11 O11 B10 G10"})
        action = bot_for(state, 1).choose(state.view(1))
        assert state.game.action_to_text(action) == "pain R0"

    def test_mechant_chooses_two_colours(self) -> None:
        state = new_state(4, dealer=0, two_pain_colours=True)
        deal(state, {1: "R0 R1 R2 R3 R4 R5 R6 R7 G0 G1 G2 G3 G4 G5 B11"})
        bot = bot_for(state, 1)
        state.apply(bot.choose(state.view(1)))
        state.apply(bot.choose(state.view(1)))
        assert sorted(vd(state, 1)["pains"][1]) == ["G0", "R0"]

    def test_last_to_play_dumps_its_own_colour_on_the_taker(self) -> None:
        # Seat 0 (red handicap) plays last on B3 (lead), G9, Y0: G9 wins and seat 0 cannot
        # beat it (its other cards are blue, the led colour); R8 does not win either, so the
        # bot gets rid of its most dangerous card.
        state = new_state(4, dealer=0)
        hands = deal(state, {1: "B3", 2: "G9", 3: "Y0", 0: "R0 R8"})
        lay(state, {0: "R0", **{s: hands[s][-1] for s in (1, 2, 3)}})
        play(state, "B3", "G9", "Y0")
        action = bot_for(state, 0).choose(state.view(0))
        assert state.game.action_to_text(action) == "play R8"

    def test_does_not_take_a_trick_holding_its_own_colour(self) -> None:
        # Seat 0 (blue handicap) last: the trick holds B10 and B9; taking it would cost 19.
        state = new_state(4, dealer=0)
        hands = deal(state, {1: "B10", 2: "B9", 3: "G2", 0: "B0 O11 Y1"})
        lay(state, {0: "B0", **{s: hands[s][-1] for s in (1, 2, 3)}})
        play(state, "B10", "B9", "G2")
        action = bot_for(state, 0).choose(state.view(0))
        text = state.game.action_to_text(action)
        assert text not in ("play O11",), "O11 would take 19 points of its own colour"
        state.apply(action)
        assert vd(state, 0)["tricks"][0]["winner"] != 0

    def test_takes_a_clean_trick_when_last_with_its_cheapest_winner(self) -> None:
        # Seat 0 (red handicap) holds blue 0..11 but B3: G3, Y4, O2 are worth +4 to it;
        # B5 is the cheapest card that wins (a trump above 4).
        state = new_state(4, dealer=0)
        hands = deal(state, {1: "G3", 2: "Y4", 3: "O2", 0: "R0 B0 B1 B2 B4 B5 B6 B7 B8 B9 B10 B11"})
        lay(state, {0: "R0", **{s: hands[s][-1] for s in (1, 2, 3)}})
        play(state, "G3", "Y4", "O2")
        action = bot_for(state, 0).choose(state.view(0))
        assert state.game.action_to_text(action) == "play B5"
        state.apply(action)
        assert vd(state, 0)["tricks"][0]["winner"] == 0

    @pytest.mark.parametrize("players", [3, 4, 6, 8])
    def test_always_legal_and_beats_random_play(self, players: int) -> None:
        game = StichelnGame(players, two_pain_colours=players == 6)
        margin = 0.0
        for gi in range(6):
            hero = gi % players
            bot = StichelnHeuristicBot(seed=gi)
            bot.start(game, hero)
            rng = random.Random(gi)
            state = game.new_state(seed=100 + gi)
            while not state.is_terminal:
                seat = state.current_player
                if seat == hero:
                    view = state.view(seat)
                    action = bot.choose(view)
                    assert action in view.legal_actions
                    state.apply(action)
                else:
                    random_step(state, rng)
            scores = state.scores()
            margin += scores[hero] - (sum(scores) - scores[hero]) / (players - 1)
        assert margin > 0


class TestSampleState:
    def test_a_sample_keeps_what_the_seat_knows_and_redeals_the_rest(self) -> None:
        game = StichelnGame(4, first_dealer=0, two_pain_colours=True)
        state = game.new_state(seed=5)
        state.apply(state.legal_actions()[0])
        state.apply(state.legal_actions()[-1])  # seat 1 has laid two secret cards
        view = state.view(2)
        rng = random.Random(3)
        differs = False
        for _ in range(20):
            world = game.sample_state(view, rng)
            assert isinstance(world, StichelnState)
            assert world.history == [] and world.seed is None
            assert world.view(2) == view
            assert len(world.pains[1]) == 2
            colours = {game.deck.colour_of[k] for k in world.pains[1]}
            assert len(colours) == 2, "méchant: two handicap colours"
            differs = differs or world.hands[1] != state.hands[1]
            world.apply(world.legal_actions()[0])  # a playable state
        assert differs, "hidden cards are dealt anew"

    @pytest.mark.parametrize("options", [{}, {"hidden_pain": True}, {"all_zero_trick": "void"}])
    def test_samples_during_play_at_every_player_count(self, options: dict[str, Any]) -> None:
        for players in range(3, 9):
            game = StichelnGame(players, **options)
            state = game.new_state(seed=players)
            rng = random.Random(players)
            for _ in range(game.deck.hand_size * players // 2):
                random_step(state, rng)
            seat = state.current_player
            view = state.view(seat)
            world = game.sample_state(view, rng)
            assert isinstance(world, StichelnState)
            assert world.view(seat) == view
            assert sum(h.bit_count() for h in world.hands) == sum(view.hand_sizes)
            while world.round == view.round and not world.is_terminal:
                random_step(world, rng)

    def test_refuses_a_view_of_another_game_and_chance_nodes(self) -> None:
        game = StichelnGame(4)
        other = StichelnGame(5)
        state = other.new_state(seed=1)
        with pytest.raises(ValueError):
            game.sample_state(state.view(0), random.Random(0))
        fresh = StichelnGame(4, first_dealer=0).new_state()
        with pytest.raises(ValueError):
            fresh.game.sample_state(fresh.view(0), random.Random(0))
