"""``led_card``: the view says which card's colour is led, so the table draws it (issue 30).

The page used to work the led colour out in JavaScript; the rule now lives only in
Python (:func:`atout.games.sticheln.rules.led_index`) and the view carries its
answer.  Checked here against the rule as the rules page words it (the first card
leads its colour; with ``zero_lead_colour=first_nonzero`` a zero leads nothing and
the first non-zero card does), on random matches of both variants; the field is
public: every seat's view, and the public view, carry the same card.
"""

from __future__ import annotations

import random

import pytest

from atout import load
from atout.games.sticheln import StichelnGame, StichelnView
from atout.games.sticheln.rules import led_index


def _expected(view: StichelnView, first_nonzero: bool) -> str | None:
    deck = view.game.deck
    texts = [deck.text(k) for _, k in view.trick]
    if first_nonzero:
        texts = [t for t in texts if int(t[1:]) != 0]
    return texts[0] if texts else None


@pytest.mark.parametrize("lead", ["own", "first_nonzero"])
@pytest.mark.parametrize("players", [3, 5])
def test_led_card_is_the_rule_s_and_public(lead: str, players: int) -> None:
    game = load("sticheln", players, zero_lead_colour=lead)
    rng = random.Random(players)
    state = game.new_state(7)
    seen = {"none": 0, "card": 0}
    while not state.is_terminal:
        if state.phase_name == "play":
            views = [state.view(s) for s in range(players)] + [state.public_view()]
            dicts = [v.to_dict()["led_card"] for v in views]
            assert len(set(dicts)) == 1, dicts  # public: the same for every reader
            view = views[0]
            assert isinstance(view, StichelnView)
            assert dicts[0] == _expected(view, lead == "first_nonzero"), view.trick
            seen["card" if dicts[0] else "none"] += 1
        state.apply(rng.choice(state.legal_actions()))
    assert seen["card"] > 20 and seen["none"] > 5


def test_a_zero_leads_a_colour_only_where_the_rules_say() -> None:
    game = load("sticheln", 3)
    assert isinstance(game, StichelnGame)
    deck = game.deck
    red0, blue5, green3 = (deck.parse(t) for t in ("R0", "B5", "G3"))
    assert led_index(deck.value_of, [red0, blue5, green3], True) == 0
    assert led_index(deck.value_of, [red0, blue5, green3], False) == 1
    assert led_index(deck.value_of, [red0], False) == -1
    assert led_index(deck.value_of, [], True) == -1
