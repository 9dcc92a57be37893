"""What the adapters share: seeding, round rewards, the observation vector.

Nothing here imports an optional library: the PettingZoo, Gymnasium and
OpenSpiel adapters differ only in the shape their ecosystem expects.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from ..core.errors import PositionError
from ..core.game import Game, State, View

#: Which tensor an environment observes.
TENSORS = ("information_state", "observation")
#: How an environment pays its rewards.
REWARDS = ("round", "match", "win")


def check_choice(what: str, value: str, allowed: tuple[str, ...]) -> str:
    """Refuse an adapter setting outside ``allowed`` with the list of choices."""
    if value not in allowed:
        raise ValueError(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def check_illegal_penalty(illegal_penalty: float | None, illegal_action: str, game: Game) -> float | None:
    """An env's ``illegal_penalty`` as a float (None: derived from the game's score bounds), refused if it cannot be.

    Shared by the single-agent env and the batch vector env, which pay an
    illegal action the same way (``illegal_action="penalty"``).
    """
    if illegal_penalty is not None and (
        isinstance(illegal_penalty, bool)
        or not isinstance(illegal_penalty, int | float)
        or not math.isfinite(illegal_penalty)
    ):
        raise ValueError(f"illegal_penalty must be a finite number or None, not {illegal_penalty!r}")
    if illegal_action == "penalty" and illegal_penalty is None and game.score_bounds() is None:
        raise ValueError(
            f"{game.name} gives no score bounds to derive the penalty from: pass illegal_penalty="
        )
    return None if illegal_penalty is None else float(illegal_penalty)


def split_options(
    game_cls: type[Game], kwargs: Mapping[str, Any], adapter: tuple[str, ...]
) -> dict[str, Any]:
    """The keyword arguments that are game options; unknown names are refused."""
    options = {k: v for k, v in kwargs.items() if k not in adapter}
    known = {s.name for s in game_cls.option_specs}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ValueError(
            f"unknown argument(s) {', '.join(unknown)} for {game_cls.name}: "
            f"adapter settings are {', '.join(adapter)}; game options are {', '.join(sorted(known)) or 'none'}"
        )
    return options


class SeedStream:
    """Seeds for successive resets, Gymnasium-style.

    ``next(s)`` returns ``s`` itself, so ``reset(seed=s)`` plays exactly the
    match of ``game.new_state(s)`` (same deals, chance resolved by atout);
    ``next(None)`` continues a stream determined by the last explicit seed, so
    a seeded environment reset many times stays reproducible.  Never seeded,
    the stream starts from the operating system's entropy.
    """

    def __init__(self) -> None:
        self._rng: random.Random | None = None

    def next(self, seed: int | None) -> int:
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
                raise ValueError(f"a seed is a non-negative integer, not {seed!r}")
            self._rng = random.Random(f"atout-env-resets:{seed}")
            return seed
        if self._rng is None:
            self._rng = random.Random()
        return self._rng.getrandbits(63)


class RoundRewards:
    """Rewards paid when a round ends and when the match ends.

    ``round``: each seat's score change over the round just finished (summed
    over a match, the final score minus the starting one, which is zero in
    most games); ``match``: the final scores, once, at the
    end; ``win``: 1 shared among the winners at the end.  Generic: a round ends
    when ``state.round`` changes, and the match when the state is terminal.
    """

    def __init__(self, state: State, mode: str) -> None:
        self.mode = check_choice("reward", mode, REWARDS)
        self.paid = state.scores()
        self.round = state.round
        self.done = state.is_terminal

    def collect(self, state: State) -> list[float] | None:
        """The rewards due after the action just applied, or None."""
        if self.done:
            return None
        ended = state.is_terminal
        if state.round == self.round and not ended:
            return None
        self.round = state.round
        self.done = ended
        n = state.game.players
        if self.mode == "round":
            scores = state.scores()
            delta = [float(s - p) for s, p in zip(scores, self.paid, strict=True)]
            self.paid = scores
            return delta
        if not ended:
            return None
        if self.mode == "match":
            return [float(s) for s in state.scores()]
        winners = state.winners()
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(n)]


def observation_vector(game: Game, view: View, tensor: str) -> list[float]:
    """The chosen tensor of ``view`` (``information_state`` or ``observation``)."""
    if tensor == "observation":
        return game.observation_tensor(view)
    return game.information_state_tensor(view)


def tensor_size(game: Game, tensor: str) -> int:
    if tensor == "observation":
        return game.observation_tensor_size()
    return game.information_state_tensor_size()


#: What an environment's ``reset(options=...)`` reads.
RESET_OPTIONS = ("position",)


def reset_position(options: Mapping[str, Any] | None, strict: bool = True) -> str | None:
    """The ``position`` of ``reset(options={"position": text})``, or None; any other key is refused.

    Why refuse: an option a reset does not read would be silently ignored, and the episode
    would start where the caller did not ask (game options go to the constructor).  Not
    ``strict``: other keys are let pass, as PettingZoo's own API tests expect of an env
    (its ``seed_test`` resets with ``options={"options": 1}``).
    """
    if not options:
        return None
    if not isinstance(options, Mapping):
        raise ValueError(f"reset's options are a dict, not {type(options).__name__}")
    unknown = sorted(str(k) for k in options if k not in RESET_OPTIONS)
    if unknown and strict:
        raise ValueError(
            f"reset takes the option(s) {', '.join(RESET_OPTIONS)}, not {', '.join(unknown)} "
            "(game options go to the constructor)"
        )
    position = options.get("position")
    if position is not None and not isinstance(position, str):
        raise ValueError(f"a position is a text in the game's notation, not {type(position).__name__}")
    return position


def start_state(game: Game, seed: int, position: str | None) -> State:
    """An episode's first state: the match of ``seed``, or the state ``position`` describes
    (the game's notation, ``state.position()``; the chance events after it drawn from ``seed``,
    or from the position's own ``seed=`` field when it has one).

    A position that does not parse or does not fit this game (another player count, a round
    outside the configuration's...) is refused with a :class:`ValueError` carrying the
    engine's reason, which names the field at fault; so is a finished match.
    """
    if position is None:
        return game.new_state(seed)
    where = f"reset(options={{'position': ...}}) for {game!r}"
    try:
        try:
            state = game.new_state(seed, position=position)
        except PositionError as error:
            if error.field != "seed":
                raise
            state = game.new_state(None, position=position)  # the position's own seed= draws
    except PositionError as error:
        raise ValueError(f"{where}: {error}") from None
    if state.is_terminal:
        raise ValueError(f"{where}: {position!r} is a finished match, with no move to play")
    return state
