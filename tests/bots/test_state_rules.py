"""A heuristic's rules read from a state answer what the heuristic answers from the seat's view.

The searches' playouts ask :func:`atout.core.bot.state_rule` instead of the policy
bot (no view built per decision, issue 48); their moves, so every seeded search's
decisions, stay the same only if the two agree at every decision.  Checked on
random matches of each game (options that change what a seat sees included), at
every decision with a choice, and in worlds sampled from those decisions' views
(a playout's states: whole deals no seat sees all of).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import atout
from atout.bots.search import policy_bot
from atout.core.bot import Bot, RuleBot, state_rule
from atout.core.game import State
from atout.games.wizard.bot import WizardHeuristicBot
from atout.games.wizard.view import WizardView

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("wizard", 4, {}),
    ("wizard", 3, {"bids": "hidden_until_play", "clairvoyance": True}),
    ("wizard", 5, {"bids": "hidden_until_end", "plus_minus_one": False}),
    ("malin", 4, {}),
    ("malin", 3, {"fun": True}),
    ("sticheln", 4, {}),
    ("sticheln", 5, {"hidden_pain": True, "gentle": True, "all_zero_trick": "void"}),
    ("nain-jaune", 4, {}),
    ("nain-jaune", 5, {"stuck_rule": "free_restart", "voluntary_stop": True}),
]


def _check(state: State, bot: Bot, twin: Bot) -> int:
    """Compare ``twin``'s rule with ``bot`` at ``state``'s decision (a choice); the number of comparisons.

    ``twin`` is a bot made alike (the same seed): a bot that draws numbers (the Wizard playout
    model) draws the same ones in both ways, so the two generators stay in step.
    """
    rule = state_rule(twin)
    assert rule is not None
    seat = state.current_player
    legal = state.legal_actions()
    if seat < 0 or len(legal) < 2:
        return 0
    assert rule(state, seat, legal) == bot.choose(state.view(seat)), (state.history, seat)
    return 1


#: Each case with the heuristic, and with the model of strong play where the game has one.
POLICIES: list[Any] = [
    pytest.param(*case, model, id=f"{case[0]}-{case[1]}-{i}-{'model' if model else 'heuristic'}")
    for i, case in enumerate(CASES)
    for model in (False, True)
    if not model or atout.load(case[0], players=case[1], **case[2]).playout_model
]


@pytest.mark.parametrize(("name", "players", "options", "model"), POLICIES)
def test_state_rule_is_the_bot(name: str, players: int, options: dict[str, Any], model: bool) -> None:
    game = atout.load(name, players=players, **options)
    bot, twin = policy_bot(game, 0, model), policy_bot(game, 0, model)
    assert isinstance(bot, RuleBot)
    rng = random.Random(7)
    checked = 0
    for match in range(2):
        state = game.new_state(seed=match)
        while not state.is_terminal:
            checked += _check(state, bot, twin)
            seat = state.current_player
            if seat >= 0 and rng.random() < 0.2:
                for _ in range(2):  # worlds of this decision, as a search samples them
                    checked += _check(game.sample_state(state.view(seat), rng), bot, twin)
            # The bot's own moves half the time: situations it plays into, not only random ones.
            legal = state.legal_actions()
            if seat >= 0 and len(legal) > 1 and rng.random() < 0.5:
                move = bot.choose(state.view(seat))
                twin.choose(state.view(seat))  # the twin's generator kept in step
                state.apply(move)
            else:
                state.apply(rng.choice(legal))
    assert checked > 200


def test_a_subclass_does_not_inherit_the_rule() -> None:
    """A bot extending a heuristic may play otherwise: without a rule of its own, it gets views."""
    game = atout.load("wizard", players=4)

    class Contrarian(WizardHeuristicBot):
        def decide(self, view: WizardView) -> int:
            return view.legal_actions[-1]

    assert state_rule(policy_bot(game, 0)) is not None
    assert state_rule(Contrarian(0)) is None
