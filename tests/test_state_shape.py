"""One shape for every game (issue 19): fields declared once, actions in named ranges.

* Every state attribute is a declared field (``State.fields``), in every phase
  of seeded matches and in the worlds the samplers draw; the derived ``clone``
  copies every field and shares nothing that changes in place.
* A refused action leaves every field as it was.
* The action space is the game's named ranges end to end: every id's text reads
  back to the id, and the documented table is the ranges'.
"""

from __future__ import annotations

import random

import pytest

import atout
from atout.core.actions import ActionSpace
from atout.core.errors import IllegalAction
from atout.core.fields import StateFields
from atout.core.game import State
from atout.core.registry import game_class

CONFIGS = [(name, players) for name in atout.names() for players in sorted({game_class(name).min_players, 4})]


def _fields(state: State) -> StateFields:
    fields = type(state).fields
    assert isinstance(fields, StateFields), f"{type(state).__name__}.fields is not a StateFields table"
    return fields


def _walk(name: str, players: int, seed: int, steps: int) -> list[State]:
    """The states of a seeded match with random play, the first ``steps`` decisions."""
    state = atout.load(name, players=players).new_state(seed=seed)
    rng = random.Random(seed)
    out = [state.clone()]
    while not state.is_terminal and len(out) < steps:
        state.apply(rng.choice(state.legal_actions()))
        out.append(state.clone())
    return out


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=[f"{n}-{p}p" for n, p in CONFIGS])
def test_every_field_is_declared_and_cloned(name: str, players: int) -> None:
    states = _walk(name, players, seed=7, steps=400)
    assert len(states) > 20
    for state in states:
        fields = _fields(state)
        fields.check(state)
        copy = state.clone()
        assert type(copy) is type(state)
        assert fields.diff(state, copy) == [], "a clone differs from its original"
        fields.check(copy)  # every field set, no other (a clone written out: issue 48)
        for field in fields.shared:  # the same object (a compiled int is boxed at each read: equal)
            mine, theirs = getattr(copy, field), getattr(state, field)
            assert mine is theirs or (type(mine) is int and mine == theirs), f"clone copies {field}"
        for field in fields.copied:
            value = getattr(state, field)
            assert getattr(copy, field) is not value, f"clone shares the mutable field {field}"
        for field in fields.nested:
            assert all(
                a is not b for a, b in zip(getattr(copy, field), getattr(state, field), strict=True)
            ), field


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=[f"{n}-{p}p" for n, p in CONFIGS])
def test_a_refused_action_changes_no_field(name: str, players: int) -> None:
    refused = 0
    for state in _walk(name, players, seed=11, steps=200)[::5]:
        if state.is_terminal:
            continue
        legal = set(state.legal_actions())
        size = state.game.num_chance_outcomes if state.is_chance else state.game.num_actions
        before = state.clone()
        for action in [a for a in range(size) if a not in legal][:8]:
            with pytest.raises(IllegalAction):
                state.apply(action)
            refused += 1
        assert _fields(state).diff(before, state) == []
    assert refused > 0


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=[f"{n}-{p}p" for n, p in CONFIGS])
def test_sampled_worlds_have_every_field(name: str, players: int) -> None:
    game = atout.load(name, players=players)
    rng = random.Random(3)
    sampled = 0
    for state in _walk(name, players, seed=5, steps=150)[::10]:
        if state.is_terminal or state.is_chance:
            continue
        view = state.view(state.current_player)
        world = game.sample_state(view, rng)
        _fields(world).check(world)
        assert world.view(view.seat) == view
        found = game.sample_round(view, rng)
        if found is not None:
            _fields(found[0]).check(found[0])
        sampled += 1
    assert sampled > 3


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=[f"{n}-{p}p" for n, p in CONFIGS])
def test_action_space_is_named_ranges(name: str, players: int) -> None:
    game = atout.load(name, players=players)
    space = game.space
    assert isinstance(space, ActionSpace)
    assert space.size == game.num_actions
    starts = [r.start for r in space.ranges]
    assert starts[0] == 0 and starts == sorted(starts)
    assert all(a.stop == b.start for a, b in zip(space.ranges, space.ranges[1:], strict=False))
    for action, text in game.action_table():
        assert space.range_of(action).text(action) == text
        assert game.text_to_action(text) == action, f"{text!r} does not read back to {action}"


@pytest.mark.parametrize("name", ["wizard", "malin", "sticheln", "nain-jaune"])
@pytest.mark.parametrize("seat", ["0", 1.5, None, True, -1, 4])
def test_a_seat_not_at_the_table_is_refused_by_name(name: str, seat: object) -> None:
    """A view or a redacted history for a seat not at the table: ValueError naming the seats, in
    both builds (compiled, an ``int`` parameter raised a bare TypeError for ``"0"``), and the
    redacted history no longer answers for seat 4 of 4 as if it were a spectator's."""
    state = atout.load(name, 4).new_state(seed=1)
    with pytest.raises(ValueError, match=r"seat must be 0\.\.3"):
        state.view(seat)  # type: ignore[arg-type]  # not a seat: refused as such
    with pytest.raises(ValueError, match=r"seat must be 0\.\.3"):
        state.redacted_history(seat)  # type: ignore[arg-type]  # not a seat: refused as such
