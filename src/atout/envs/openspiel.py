"""Every atout game as an OpenSpiel python game: ``import atout.envs.openspiel``.

Importing this module registers ``python_atout_<name>`` (``python_atout_wizard``,
``python_atout_nain_jaune``, ...) for every game of the registry, so that::

    import pyspiel
    import atout.envs.openspiel
    game = pyspiel.load_game("python_atout_wizard", {"players": 4, "rounds": 3})

works with OpenSpiel's algorithms (random-simulation tests, MCTS and ISMCTS
bots, ``evaluate_bots``, CFR-style code reading information-state strings).

* Parameters: ``players`` (default 4 when the game allows it, else its
  minimum) and every game option under its own name.  OpenSpiel parameters
  cannot be None: an integer option whose default is None takes the value
  ``minimum - 1`` for None (Wizard: ``rounds=0`` plays the full game,
  ``first_dealer=-1`` draws the first dealer).
* Chance is explicit: states start with ``game.new_state()`` (no seed), and
  every deal is a chance node with :meth:`chance_outcomes`.
* Returns are the match scores, paid at the end (``RewardModel.TERMINAL``,
  general sum).
* Observation and information-state tensors are the game's
  (:meth:`atout.Game.observation_tensor`, :meth:`~atout.Game.information_state_tensor`);
  the strings are the seat's view as canonical JSON.  Both are functions of
  ``state.view(player)`` only, so they are equal in every world consistent
  with it — which ISMCTS relies on when it keys its tree by information state.
* :meth:`AtoutSpielState.resample_from_infostate` draws a world with
  :meth:`atout.Game.sample_state`, as OpenSpiel's ISMCTS expects.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..core.game import Game, State
from ..core.options import OptionSpec
from ..core.registry import game_class, names
from .arrays import float32_view

#: Fallbacks for games that do not bound their length or scores.
DEFAULT_MAX_LENGTH = 100_000
DEFAULT_SCORE_BOUND = 1_000_000


def short_name(name: str) -> str:
    """OpenSpiel's name for atout game ``name`` (``nain-jaune`` -> ``python_atout_nain_jaune``)."""
    return "python_atout_" + game_class(name).name.replace("-", "_")


def _none_value(spec: OptionSpec) -> Any:
    if spec.kind is int and spec.minimum is not None:
        return spec.minimum - 1
    if spec.kind is str:
        return ""
    raise TypeError(f"option {spec.name}: no OpenSpiel stand-in for None")


def _default_players(cls: type[Game]) -> int:
    return min(max(4, cls.min_players), cls.max_players)


def parameter_specification(cls: type[Game]) -> dict[str, Any]:
    """OpenSpiel parameters (with defaults) for an atout game class."""
    spec: dict[str, Any] = {"players": _default_players(cls)}
    for option in cls.option_specs:
        spec[option.name] = _none_value(option) if option.default is None else option.default
    return spec


def atout_game(cls: type[Game], params: dict[str, Any]) -> Game:
    """The atout game an OpenSpiel parameter dict describes."""
    options: dict[str, Any] = {}
    for option in cls.option_specs:
        if option.name not in params:
            continue
        value = params[option.name]
        if option.none_ok and value == _none_value(option):
            value = None
        options[option.name] = value
    return cls(int(params.get("players", _default_players(cls))), **options)


class _Cell:
    """Holds the atout state inside a pyspiel state.

    OpenSpiel clones a python state by deep-copying its attributes and
    serializes it by pickling them: the cell makes the first an atout
    ``clone()`` and the second a replay of the history.
    """

    __slots__ = ("replayable", "state")

    def __init__(self, state: State, replayable: bool) -> None:
        self.state = state
        self.replayable = replayable

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cell:
        return _Cell(self.state.clone(), self.replayable)

    def __reduce__(self) -> tuple[Any, ...]:
        if not self.replayable:
            raise TypeError("a world sampled from an information state has no history to serialize")
        game = self.state.game
        return (_replay, (game.name, game.players, dict(game.options), list(self.state.history)))


def _replay(name: str, players: int, options: dict[str, Any], history: list[int]) -> _Cell:
    state = game_class(name)(players, **options).new_state(None)
    for action in history:
        state.apply(action)
    return _Cell(state, True)


class AtoutSpielGame(pyspiel.Game):  # type: ignore[misc]
    """Base of the registered classes; ``atout_class`` is set per game."""

    atout_class: type[Game]
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = parameter_specification(self.atout_class)
        self.atout = atout_game(self.atout_class, {**spec, **(params or {})})
        bounds = self.atout.score_bounds() or (-DEFAULT_SCORE_BOUND, DEFAULT_SCORE_BOUND)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.atout.num_actions,
            max_chance_outcomes=self.atout.num_chance_outcomes,
            num_players=self.atout.players,
            min_utility=float(bounds[0]),
            max_utility=float(bounds[1]),
            utility_sum=None,
            max_game_length=self.atout.max_history_length() or DEFAULT_MAX_LENGTH,
        )
        super().__init__(self.game_type, info, params or {})

    def new_initial_state(self) -> AtoutSpielState:
        return AtoutSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> AtoutObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is None:
            return AtoutObserver(self.atout, perfect_recall=False)
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(
                "atout observers show one seat's whole view (public and its private information) only"
            )
        return AtoutObserver(self.atout, perfect_recall=iig_obs_type.perfect_recall)


class AtoutSpielState(pyspiel.State):  # type: ignore[misc]
    """An atout state seen through pyspiel's State API."""

    def __init__(self, game: AtoutSpielGame, state: State | None = None) -> None:
        super().__init__(game)
        # Only the cell as attribute: OpenSpiel deep-copies and pickles them all.
        self._cell = _Cell(game.atout.new_state(None) if state is None else state, state is None)

    @property
    def atout_state(self) -> State:
        """The wrapped atout state (the whole table: not for a seat's eyes)."""
        return self._cell.state

    def current_player(self) -> int:
        return self._cell.state.current_player  # CHANCE and TERMINAL share OpenSpiel's values

    def _legal_actions(self, player: int) -> list[int]:
        return self._cell.state.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._cell.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._cell.state.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        state = self._cell.state
        if player == pyspiel.PlayerId.CHANCE:
            return state.action_to_text(action) if state.is_chance else f"chance outcome {action}"
        return state.game.action_to_text(action)

    def is_terminal(self) -> bool:
        return self._cell.state.is_terminal

    def returns(self) -> list[float]:
        state = self._cell.state
        return state.returns() if state.is_terminal else [0.0] * state.game.players

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> AtoutSpielState:
        """A world consistent with ``player_id``'s information (``Game.sample_state``)."""
        state = self._cell.state
        seed = int(probability_sampler() * 2**52) ^ (int(probability_sampler() * 2**52) << 52)
        world = state.game.sample_state(state.view(player_id), random.Random(seed))
        return AtoutSpielState(self.get_game(), world)

    def __str__(self) -> str:
        return str(self._cell.state)


class AtoutObserver:
    """OpenSpiel's PyObserver interface over a seat's view."""

    def __init__(self, game: Game, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        if perfect_recall:
            size, name = game.information_state_tensor_size(), "info_state"
        else:
            size, name = game.observation_tensor_size(), "observation"
        self.tensor = np.zeros(size, np.float32)
        self.dict = {name: self.tensor}

    def set_from(self, state: AtoutSpielState, player: int) -> None:
        view = state.atout_state.view(player)
        if self.perfect_recall:
            self.tensor[:] = float32_view(self.game.information_state_tensor(view))
        else:
            self.tensor[:] = float32_view(self.game.observation_tensor(view))

    def string_from(self, state: AtoutSpielState, player: int) -> str:
        return json.dumps(state.atout_state.view(player).to_dict(), sort_keys=True, separators=(",", ":"))


def _game_type(cls: type[Game]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name(cls.name),
        long_name=f"atout {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(cls),
    )


#: The registered OpenSpiel game classes by atout game name.
REGISTERED: dict[str, type[AtoutSpielGame]] = {}


def register(name: str) -> type[AtoutSpielGame]:
    """Register atout game ``name`` with pyspiel (once); returns its OpenSpiel class."""
    cls = game_class(name)
    if cls.name in REGISTERED:
        return REGISTERED[cls.name]
    game_type = _game_type(cls)
    spiel_cls = type(
        f"AtoutSpiel_{short_name(cls.name)}",
        (AtoutSpielGame,),
        {"atout_class": cls, "game_type": game_type, "__doc__": f"atout {cls.title} for OpenSpiel."},
    )
    if short_name(cls.name) not in pyspiel.registered_names():
        pyspiel.register_game(game_type, spiel_cls)
    REGISTERED[cls.name] = spiel_cls
    return spiel_cls


for _name in names():
    register(_name)
