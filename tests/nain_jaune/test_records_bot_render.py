"""Records round trips, per-seat redaction, the heuristic bot and the terminal drawing."""

from __future__ import annotations

import random

import pytest

from atout.core.game import CHANCE
from atout.games.nain_jaune import NainJauneGame
from atout.games.nain_jaune import cards as C
from atout.games.nain_jaune.bot import NainJauneHeuristicBot, run_value
from atout.records import Record, parse_record

from .helpers import SANS_SEPT, deal, expand, legal, new_state, play


def bot_match(game: NainJauneGame, seed: int, bots: dict[int, NainJauneHeuristicBot]) -> list[int]:
    """A seeded match; seats in ``bots`` play the heuristic, the others at random."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    while not state.is_terminal:
        seat = state.current_player
        if seat in bots:
            view = state.view(seat)
            action = bots[seat].choose(view)
            assert action in view.legal_actions
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
    return state.scores()


class TestRecords:
    @pytest.mark.parametrize(
        "options",
        [{}, {"manual_claim": True, "voluntary_stop": True}, {"direction": "counterclockwise"}],
    )
    def test_text_and_json_records_replay_exactly(self, options: dict[str, bool | str]) -> None:
        game = NainJauneGame(5, max_deals=4, **options)
        state = game.new_state(seed=9)
        rng = random.Random(2)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        text = Record.from_state(state, seats=[f"P{i}" for i in range(5)]).to_text()
        assert "deal 1: " in text and ": play " in text
        parsed = parse_record(text)
        assert parsed.to_text() == text
        assert parse_record(parsed.to_json()).to_text() == text
        replayed = parsed.replay()
        assert replayed.history == state.history
        assert replayed.scores() == state.scores()
        assert replayed.view(0) == state.view(0)

    def test_every_action_text_parses_back_where_it_was_played(self) -> None:
        game = NainJauneGame(3, manual_claim=True)
        state = game.new_state(seed=4)
        replay = game.new_state()
        for action in state.history:
            replay.apply(replay.parse(replay.action_to_text(action)))
        rng = random.Random(0)
        while not state.is_terminal:
            action = rng.choice(state.legal_actions())
            assert state.parse(state.action_to_text(action)) == action
            state.apply(action)
        for action in state.history[len(replay.history) :]:
            replay.apply(replay.parse(replay.action_to_text(action)))
        assert replay.history == state.history

    def test_a_seat_export_hides_exactly_the_other_hands(self) -> None:
        state = new_state(4)
        deal(state, SANS_SEPT)
        play(state, "5S", "6H", "7C")
        for seat in range(4):
            redacted = state.redacted_history(seat)
            assert len(redacted) == len(state.history)
            assert redacted.count(None) == 36  # three other hands of 12
            assert redacted[-3:] == state.history[-3:]  # plays are public
            mine = [a for a in redacted[:48] if a is not None]
            assert sorted(C.card_text(c) for c in mine) == sorted(expand(SANS_SEPT[seat]))


class TestBot:
    def test_plays_the_board_card_when_it_has_a_choice_of_suit(self) -> None:
        state = new_state(4)
        deal(state, SANS_SEPT)
        play(state, "5S", "6H", "7C", "8H", "9H")
        assert state.current_player == 2 and legal(state) == ["play 10C", "play 10D", "play 10H", "play 10S"]
        bot = NainJauneHeuristicBot(0)
        assert state.action_to_text(bot.choose(state.view(2))) == "play 10D"

    def test_free_start_opens_the_longest_most_valuable_run(self) -> None:
        state = new_state(4)
        deal(state, SANS_SEPT)
        # Seat 0 holds A* 2* 5S 6H 9C 9D: runs A-2 (2 cards, 3 points), 5-6 (2 cards,
        # 11 points), 9 alone: 20 a card plus the points.
        view = state.view(0)
        assert run_value(C.parse_card("5S"), view.hand, view.boxes) == 40 + 11
        assert run_value(C.parse_card("AC"), view.hand, view.boxes) == 40 + 3
        assert run_value(C.parse_card("9C"), view.hand, view.boxes) == 20 + 9
        choice = NainJauneHeuristicBot(0).choose(view)
        assert C.card_text(choice) == "5S"

    def test_a_dead_rank_does_not_end_the_run(self) -> None:
        hand = tuple(C.parse_card(t) for t in ("5S", "6H", "8C"))
        sevens = C.RANK_MASK[7]
        assert run_value(hand[0], hand, (0,) * 5) == 40 + 11
        assert run_value(hand[0], hand, (0,) * 5, played=sevens) == 60 + 19
        assert run_value(hand[0], hand, (0,) * 5, played=sevens, free_restart=True) == 40 + 11 + 8

    def test_always_claims(self) -> None:
        state = new_state(4, manual_claim=True)
        deal(state, SANS_SEPT)
        play(state, "5S", "6H", "7C", "8H", "9H", "10D")
        assert state.action_to_text(NainJauneHeuristicBot(0).choose(state.view(2))) == "claim"

    def test_beats_random_players(self) -> None:
        game = NainJauneGame(4, max_deals=4)
        margin = 0
        for seed in range(40):
            seat = seed % 4
            scores = bot_match(game, seed, {seat: NainJauneHeuristicBot(seed)})
            margin += scores[seat] - (sum(scores) - scores[seat]) // 3
        assert margin > 40 * 5  # measured: about +20 a match

    def test_whole_tables_of_bots_finish(self) -> None:
        for players in range(2, 9):
            game = NainJauneGame(players, voluntary_stop=True, manual_claim=True, max_deals=5)
            bot_match(game, players, {s: NainJauneHeuristicBot(s) for s in range(players)})


class TestRender:
    def test_the_board_shows_each_box_and_its_tokens(self) -> None:
        from rich.console import Console

        from atout.games.nain_jaune.render import render_sheet, render_view

        state = new_state(4, start_tokens=200)
        deal(state, SANS_SEPT)
        play(state, "5S", "6H", "7C", "8H", "9H", "10D")
        console = Console(width=100, record=True, color_system=None)
        names = ["Ann", "Bob", "Cat", "Dan"]
        console.print(render_view(state.view(0), names))
        out = console.export_text()
        for label in ("10♦", "J♣", "Q♠", "K♥", "7♦ Nain Jaune", "Board"):
            assert label in out
        assert "0 tokens" in out and "8 tokens" in out and "20 tokens" in out
        assert "next card: any J" in out
        assert "Your hand:" in out and "A♣" in out
        state.apply("play JC")
        while state.current_player != CHANCE:
            state.apply(state.legal_actions()[0])
        console.print(render_sheet(state.view(0), names))
        sheet = console.export_text()
        assert "Score sheet" in sheet and "Ann" in sheet
        assert str(state).startswith("Le Nain Jaune, deal 2")

    def test_the_run_names_who_played_each_card_and_the_next_deal_says_who_went_out(self) -> None:
        from rich.console import Console

        from atout.games.nain_jaune.render import render_view

        names = ["Ann", "Bob", "Cat", "Dan"]

        def drawn(seat: int) -> str:
            console = Console(width=160, record=True, color_system=None)
            console.print(render_view(state.view(seat), names))
            return console.export_text()

        state = new_state(4, start_tokens=200)
        deal(state, SANS_SEPT)
        cards = ["5S", "6H", "7C", "8H", "9H", "10D"]
        seats = play(state, *cards)
        run = ", ".join(
            f"{names[s]} {C.card_symbol(C.parse_card(c))}" for s, c in zip(seats, cards, strict=True)
        )
        assert f"Run: {run} — next card: any J" in drawn(0)
        state.apply("play JC")
        while state.current_player != CHANCE:
            state.apply(state.legal_actions()[0])
        winner = state.view(0).sheet[-1].winner
        assert f"Last deal: {names[winner]} went out" in drawn(1)
