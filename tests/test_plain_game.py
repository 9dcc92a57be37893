"""A fifth game written in plain Python on the engine's classes, in both builds (issue 48).

The engine's ``Game`` and ``State`` are compiled as mypyc native classes that allow
interpreted subclasses: a game outside atout (a user's package, a test) subclasses
them in plain Python, declares its fields and refusals, and gets ``apply``, the
generated ``clone``, the refusal's reason and the views as the shipped games do.
A tiny race: two seats in turn add 1 or 2 to a count; whoever reaches 5 wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

import atout
from atout.core.actions import ActionRange, ActionSpace
from atout.core.errors import IllegalAction
from atout.core.fields import StateFields, state_fields
from atout.core.game import TERMINAL, BaseView, Game, Refusals, State, check_seat
from atout.core.reason import Reason, reason

ADD = ActionRange("add", 2, lambda v: f"add {v}", low=1)
SPACE = ActionSpace("Race", (ADD,), examples=("add 1",))
PLAY, OVER = 0, 1
GOAL = 5


class RaceGame(Game):
    name = "race-test"
    title = "Race"
    min_players = 2
    max_players = 2

    def __init__(self, players: int, **options: Any) -> None:
        super().__init__(players, **options)
        self.space = SPACE

    @property
    def num_chance_outcomes(self) -> int:
        return 0

    def new_state(self, seed: int | None = None, position: str | None = None) -> RaceState:
        return self._new_state(RaceState, seed, position)


@dataclass(frozen=True, eq=False, repr=False)
class RaceView(BaseView):
    game: RaceGame = field(repr=False)
    count: int

    def to_dict(self) -> dict[str, Any]:
        return {**self.head_dict(), "count": self.count}


class RaceState(State[RaceGame]):
    phase_names = ("play", "over")
    fields: ClassVar[StateFields] = state_fields(shared=("count", "to_act"), copied=("added",))

    def __init__(self, game: RaceGame, seed: int | None) -> None:
        super().__init__(game, seed)
        self.phase = PLAY
        self.count = 0
        self.to_act = 0
        self.added = [0, 0]

    @property
    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.to_act

    def legal_actions(self) -> list[int]:
        return [] if self.phase == OVER else [ADD(1), ADD(2)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def _add_refusal(self, action: int) -> Reason | None:
        return None if action in (ADD(1), ADD(2)) else reason("not_an_integer", v=repr(action))

    refusals: ClassVar[Refusals] = {PLAY: _add_refusal}

    def _do(self, action: int) -> None:
        step = ADD.value(action)
        self.count += step
        self.added[self.to_act] += step
        if self.count >= GOAL:
            self.phase = OVER
        else:
            self.to_act = 1 - self.to_act

    def _seeded_outcome(self) -> int:
        raise AssertionError("no chance in a race")

    def _chance_to_text(self, outcome: int) -> str:
        raise AssertionError("no chance in a race")

    def scores(self) -> list[int]:
        if self.phase != OVER:
            return [0, 0]
        return [1 if seat == self.to_act else 0 for seat in range(2)]

    def view(self, seat: int, public: bool = False) -> RaceView:
        check_seat(self.game, seat)
        mine = self.current_player == seat and not public
        return RaceView(
            game=self.game,
            seat=seat,
            current_player=self.current_player,
            legal_actions=tuple(self.legal_actions()) if mine else (),
            phase=self.phase_name,
            count=self.count,
        )

    def redacted_history(self, seat: int) -> list[int | None]:
        return list(self.history)


def test_a_plain_python_game_plays_on_the_engine() -> None:
    """apply, refusals, the generated clone, views and results, whichever build runs."""
    game = RaceGame(2)
    state = game.new_state(seed=1)
    with pytest.raises(IllegalAction):
        state.apply(7)
    rng = random.Random(3)
    copies = []
    while not state.is_terminal:
        copies.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    assert state.count >= GOAL and sum(state.added) == state.count
    assert sorted(state.returns()) == [0.0, 1.0] and len(state.winners()) == 1
    assert copies[0].count == 0 and copies[0].added == [0, 0], "a clone shares a mutable field"
    RaceState.fields.check(state)
    RaceState.fields.check(copies[-1])
    replay = game.new_state()
    for action in state.history:
        replay.apply(game.action_to_text(action))
    assert replay.view(0) == state.view(0) and state.view(1).to_dict()["count"] == state.count
    assert isinstance(state, State) and isinstance(game, Game)


def test_the_shipped_games_states_are_the_build_said() -> None:
    """Compiled: the shipped games' states are the engine's native classes, without a ``__dict__``."""
    state = atout.load("wizard", players=4).new_state(seed=1)
    assert hasattr(state, "__dict__") != atout.compiled()
