"""``View.from_dict``: every game's view rebuilt from its JSON form, exactly, or refused with the field at fault."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import atout
from atout.core.errors import ViewError
from atout.core.registry import game_class
from atout.games.malin.view import MalinView
from atout.games.wizard.view import WizardView

#: Options that change what views hold (hidden bids, clairvoyance, Malheur cards, hidden handicaps...).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "wizard": [{}, {"bids": "hidden_until_play"}, {"bids": "hidden_until_end"}, {"clairvoyance": True}],
    "malin": [{}, {"fun": True}, {"fun": True, "malin_steal": "one_total"}],
    "sticheln": [{}, {"hidden_pain": True}],
    "nain-jaune": [{}, {"manual_claim": True, "sequence_bonus": True}],
}


def fields(view: atout.View) -> dict[str, Any]:
    return {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}  # type: ignore[arg-type]


@st.composite
def mid_game(draw: st.DrawFn) -> tuple[atout.Game, atout.State]:
    name = draw(st.sampled_from(sorted(VARIANTS)))
    cls = game_class(name)
    players = draw(st.integers(cls.min_players, cls.max_players))
    options = draw(st.sampled_from(VARIANTS[name]))
    game = atout.load(name, players, **options)
    seed = draw(st.integers(0, 2**31))
    steps = draw(st.integers(0, 400))
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return game, state


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(mid_game())
def test_every_seat_view_round_trips_through_json(case: tuple[atout.Game, atout.State]) -> None:
    game, state = case
    for seat in range(game.players):
        view = state.view(seat)
        data = json.loads(json.dumps(view.to_dict()))
        rebuilt = atout.View.from_dict(data, game)
        assert type(rebuilt) is type(view)
        assert rebuilt.to_dict() == view.to_dict()
        assert fields(rebuilt) == fields(view)
        assert rebuilt.legal_actions == view.legal_actions
        assert rebuilt == view
        if seat == state.current_player:
            # A rebuilt view serves search bots as the original does: the worlds it
            # samples show the seat this very view.
            world = game.sample_state(rebuilt, random.Random(seat))
            assert world.view(seat) == view


def test_a_whole_match_of_every_game_round_trips_at_each_decision() -> None:
    for name in sorted(VARIANTS):
        game = atout.load(name, 3)
        state = game.new_state(11)
        rng = random.Random(11)
        decisions = 0
        while not state.is_terminal and decisions < 300:
            seat = state.current_player
            view = state.view(seat)
            assert atout.View.from_dict(view.to_dict(), game).to_dict() == view.to_dict()
            state.apply(rng.choice(view.legal_actions))
            decisions += 1
        final = state.view(0)
        assert fields(atout.View.from_dict(final.to_dict(), game)) == fields(final)


def _wizard_mid_trick() -> tuple[atout.Game, dict[str, Any]]:
    game = atout.load("wizard", 4)
    state = game.new_state(3)
    while not state.view(0).to_dict()["tricks"]:  # past a finished trick
        state.apply(state.legal_actions()[0])
    return game, json.loads(json.dumps(state.view(state.current_player).to_dict()))


def _edit(data: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(data))
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (["hand"], _DELETE, r"view: missing field 'hand'"),
        (["hand", 0], "X9", r"view\.hand\[0\]: 'X9' is not a Wizard card"),
        (["seat"], 7, r"view\.seat: 7 is out of range 0\.\.3"),
        (["seat"], True, r"view\.seat: expected an integer"),
        (["bids"], [0, 1], r"view\.bids: expected 4 elements, not 2"),
        (["trick"], "none", r"view\.trick: expected a list"),
        (["tricks", 0, "cards", 0], [0], r"view\.tricks\[0\]\.cards\[0\]: expected 2 elements"),
        (["phase"], "dance", r"view\.phase: 'dance' is not one of"),
        (["legal_actions"], ["castle"], r"view\.legal_actions\[0\]: .castle.* is not a Wizard"),
        (["game"], "malin", r"view\.game: this is a view of 'malin', not of 'wizard'"),
        (["colour"], "blue", r"view: unknown field 'colour'"),
        # Derived fields must agree with what they derive from.
        (["last_trick", "winner"], 3, r"view\.last_trick: .* does not match the rest of the view"),
        (["legal_actions", 0], "PLAY z", r"view\.legal_actions: .* does not match"),
    ],
)
def test_malformed_view_dicts_name_the_field_at_fault(path: list[Any], value: Any, message: str) -> None:
    game, data = _wizard_mid_trick()
    if path == ["last_trick", "winner"]:
        value = (data["last_trick"]["winner"] + 1) % 4
    if path == ["legal_actions", 0] and not any(t.startswith("play Z") for t in data["legal_actions"]):
        data = _edit(data, ["legal_actions"], ["play Z"])  # the first legal text, written differently
    with pytest.raises(ViewError, match=message):
        atout.View.from_dict(_edit(data, path, value), game)


def test_not_a_dict_and_wrong_view_class() -> None:
    game, data = _wizard_mid_trick()
    with pytest.raises(ViewError, match=r"view: expected an object"):
        atout.View.from_dict([1, 2], game)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Wizard views are WizardView, not MalinView"):
        MalinView.from_dict(data, game)
    assert isinstance(WizardView.from_dict(data, game), WizardView)
    with pytest.raises(TypeError, match="needs the game"):
        atout.View.from_dict(data, "wizard")  # type: ignore[arg-type]


def test_halved_malin_values_come_back_exact() -> None:
    """Belzébuth halves card values: JSON carries 17.5, the view a Fraction; both ways exact."""
    game = atout.load("malin", 4, fun=True)
    state = game.new_state(0)
    rng = random.Random(0)
    while True:
        data = state.view(0).to_dict()
        halves = [c["value"] for t in data["tricks"] for c in t["cards"] if isinstance(c["value"], float)]
        halves += [c["value"] for c in data["trick"] if isinstance(c["value"], float)]
        if halves:
            break
        state.apply(rng.choice(state.legal_actions()))
    rebuilt = atout.View.from_dict(json.loads(json.dumps(data)), game)
    assert fields(rebuilt) == fields(state.view(0))
    assert rebuilt.to_dict() == data


def test_tuples_for_lists_are_accepted() -> None:
    game, data = _wizard_mid_trick()
    as_tuples = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    assert atout.View.from_dict(as_tuples, game).to_dict() == data
