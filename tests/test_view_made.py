"""Every game's ``make_view`` builds its view with ``BaseView.made`` (issue 48): the same view its
dataclass ``__init__`` makes from the same values, every field named, in the fields' order."""

from __future__ import annotations

import dataclasses
import random

import pytest

import atout
from atout.core.view import BaseView


@pytest.mark.parametrize("name", ["wizard", "malin", "sticheln", "nain-jaune"])
def test_made_views_are_the_dataclass_views(name: str) -> None:
    game = atout.load(name, players=4)
    state = game.new_state(seed=9)
    rng = random.Random(9)
    checked = 0
    while not state.is_terminal:
        for seat in range(4):
            for public in (False, True):
                view = state.view(seat, public)
                assert isinstance(view, BaseView)
                names = [f.name for f in dataclasses.fields(view)]
                assert list(vars(view)) == names  # every field, no other, in order
                rebuilt = type(view)(**vars(view))
                assert vars(rebuilt) == vars(view) and rebuilt == view
                checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert checked > 100


def test_made_refuses_a_missing_or_unknown_field() -> None:
    from atout.games.wizard.view import WizardView

    view = atout.load("wizard", players=4).new_state(seed=1).view(0)
    assert isinstance(view, WizardView)
    values = dict(vars(view))
    del values["round"]
    with pytest.raises(TypeError, match=r"missing fields \['round'\], unknown fields \[\]"):
        WizardView.made(values)
    with pytest.raises(TypeError, match=r"unknown fields \['colour'\]"):
        WizardView.made({**vars(view), "colour": 1})
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.round = 3  # type: ignore[misc]  # frozen still
