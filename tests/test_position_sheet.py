"""A position whose scores contradict its own score sheet is refused, naming the sheet (issue 27, point 6).

Why: the sheet and the scores (Le Nain Jaune: the tokens and boxes) are two
records of the same finished rounds; reading a position means "play can give
it", and no play gives both.  A partial sheet (fewer lines than finished
rounds) says nothing of the scores and is not checked.
"""

from __future__ import annotations

import random

import pytest

import atout
from atout import PositionError


@pytest.mark.parametrize(
    ("name", "players", "position", "says"),
    [
        # The example: round 1 bid 1 / 0 / 0 and made so scores 30, 20, 20, not 7, 0, 0.
        ("wizard", 3, "round=2 dealer=1 scores=7,0,0 hands=-/-/- sheet=1,0,0|1,0,0", "30,20,20"),
        (
            "wizard",
            3,
            "round=3 dealer=2 scores=30,20,21 hands=-/-/- sheet=1,0,0|1,0,0;0,0,0|0,0,0",
            "50,40,40",
        ),
        ("sticheln", 3, "round=2 dealer=1 scores=3,0,0 hands=-/-/- sheet=-/-/-|2,-1,0", "2,-1,0"),
    ],
)
def test_scores_against_the_sheet_refused(name: str, players: int, position: str, says: str) -> None:
    game = atout.load(name, players=players)
    with pytest.raises(PositionError, match=rf"the sheet .* adds up to scores {says}") as caught:
        game.new_state(position=position)
    assert caught.value.field == "sheet"


def test_consistent_and_partial_sheets_accepted() -> None:
    game = atout.load("wizard", players=3)
    state = game.new_state(position="round=2 dealer=1 scores=30,20,20 hands=-/-/- sheet=1,0,0|1,0,0")
    assert state.scores() == [30, 20, 20]
    # No sheet at all (or fewer lines than finished rounds): nothing to compare the scores with.
    assert game.new_state(position="round=3 dealer=2 scores=7,0,0 hands=-/-/-").scores() == [7, 0, 0]


def played_to(name: str, players: int, seed: int, rnd: int) -> atout.State:
    state = atout.load(name, players=players).new_state(seed)
    rng = random.Random(seed)
    while state.round < rnd and not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    assert state.round == rnd
    return state


def test_malin_scores_against_the_sheet() -> None:
    state = played_to("malin", 4, 5, 3)
    position = state.position()
    fields = dict(word.split("=", 1) for word in position.split())
    scores = [int(x) for x in fields["scores"].split(",")]
    wrong = ",".join(str(s - 1 if i == 0 else s) for i, s in enumerate(scores))
    with pytest.raises(PositionError, match=r"the sheet .* adds up to scores") as caught:
        state.game.new_state(position=position.replace(f"scores={fields['scores']}", f"scores={wrong}"))
    assert caught.value.field == "sheet"


def test_nain_jaune_tokens_against_the_sheet() -> None:
    state = played_to("nain-jaune", 4, 3, 3)
    position = state.position()
    fields = dict(word.split("=", 1) for word in position.split())
    tokens = [int(x) for x in fields["tokens"].split(",")]
    moved = ",".join(str(t + (1 if i == 0 else -1 if i == 1 else 0)) for i, t in enumerate(tokens))
    with pytest.raises(PositionError, match=r"the sheet's last line \(deal 2\)") as caught:
        state.game.new_state(position=position.replace(f"tokens={fields['tokens']}", f"tokens={moved}"))
    assert caught.value.field == "sheet"
    assert state.game.new_state(position=position).position() == position
