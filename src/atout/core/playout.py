"""Playouts driven by compiled code: a state played to its end, or to the end of its round.

Why (issue 48): a playout is the searches' unit of work and the researchers' first
benchmark (OpenSpiel's "C++ loop" is a random playout driven by compiled code).
Written as a Python loop, a playout pays the interpreter at every move (the loop,
``rng.choice``, the calls into the state) even where the state itself is compiled.
This module is compiled with the engine (:data:`atout._build.COMPILED`), so these
loops call the state's methods natively; in the pure build they are the same
Python, and both builds play the same moves.

:func:`random_playout` plays uniformly at random among the legal actions, with
the draws of a :class:`random.Random`: it is, move for move, the Python loop ::

    while not state.is_terminal:            # or: until state.round changes
        if state.is_chance:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))

(tests/test_playout.py compares the two), so a seeded playout is reproducible in
either build.  :func:`play_out_round` is the searches' playout (``hard``,
``expert``, the review, the hint): each seat played by its policy bot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from . import rng as rand
from .bot import Bot, StateRule
from .game import CHANCE, TERMINAL, State


def _apply_legal(state: State, action: int) -> None:
    """``state.apply(action)`` for an action known to be legal (one of ``legal_actions()``).

    :meth:`State.apply` checks the action first (its refusal, for anyone's action);
    an action the rules listed themselves need not be judged again.  The rest is
    ``apply``'s: the move, the history, the chance nodes a seeded state resolves.
    """
    state._do(action)
    state.history.append(action)
    if state.seed is not None:
        state._resolve_chance()


def random_playout(state: State, rng: random.Random, round_only: bool = False) -> int:
    """Play ``state`` (changed in place) to the end of the match choosing uniformly among the legal actions.

    ``round_only``: stop at the end of the current round instead (when ``state.round``
    changes), as a search's playout does.  Chance nodes of a state without a seed are
    drawn with ``rng`` by their probabilities (:func:`~.game.sample_chance`); a seeded
    state draws them from its seed.  Returns the number of decisions played (actions
    of a seat, chance not counted).

    >>> import atout
    >>> state = atout.load("wizard", players=4).new_state(seed=1)
    >>> random_playout(state, random.Random(2))
    540
    >>> state.is_terminal
    True
    """
    start_round = state.round
    decisions = 0
    # rng.choice's draw (the one of atout.core.rng) made by the state from the generator's
    # getrandbits, looked up once a playout rather than at every move; another class's goes
    # to its choice.
    plain = type(rng) is random.Random
    getrandbits = rng.getrandbits
    while True:
        actor = state.current_player
        if actor == TERMINAL or (round_only and state.round != start_round):
            return decisions
        if actor == CHANCE:
            _apply_legal(state, state._draw_chance(rng))  # sample_chance's outcome
            continue
        decisions += 1
        if not plain:
            _apply_legal(state, rand.choice(rng, state.legal_actions()))
            continue
        # rng.choice(state.legal_actions())'s action, drawn by the state (Wizard's without the list)
        _apply_legal(state, state._uniform_action(getrandbits))


def play_out_round(
    state: State,
    policies: Sequence[Bot],
    rng: random.Random,
    round_: int | None = None,
    rules: Sequence[StateRule | None] = (),
) -> State:
    """``state`` (changed in place) played by ``policies`` (one bot a seat, each given its view) to the
    end of round ``round_`` (default: the current one) or of the match; chance drawn with ``rng``.

    A forced move is played without building a view (the policy could only answer it).
    ``rules``: for each seat, the policy's rules as a function of the state
    (:func:`atout.core.bot.state_rule`), asked instead of the policy where not None: the same
    answer without the seat's view built.  The answers go through :meth:`State.apply`: a
    bot's answer is judged by the rules.
    """
    start_round = state.round if round_ is None else round_
    while True:
        actor = state.current_player
        if actor == TERMINAL or state.round != start_round:
            return state
        if actor == CHANCE:
            _apply_legal(state, state._draw_chance(rng))  # sample_chance's outcome
            continue
        legal = state.legal_actions()
        if len(legal) == 1:
            _apply_legal(state, legal[0])
            continue
        rule = rules[actor] if rules else None
        if rule is not None:
            state.apply(rule(state, actor, legal))
        else:
            state.apply(policies[actor].choose(state.view(actor)))
