"""Every atout game as an OpenSpiel python game: ``import atout.envs.openspiel``.

Importing this module registers ``python_atout_<name>`` (``python_atout_wizard``,
``python_atout_nain_jaune``, ...) for every game of the registry, so that::

    import pyspiel
    import atout.envs.openspiel
    game = pyspiel.load_game("python_atout_wizard", {"players": 4, "rounds": 3})

works with OpenSpiel's algorithms (random-simulation tests, playthroughs, MCTS
and ISMCTS bots, ``evaluate_bots``, CFR-style code reading information-state
strings), and pickles (``multiprocessing``, Ray): each game's class is bound in
this module under ``AtoutSpiel_python_atout_<name>``, and a game pickles as
``load_game(name, parameters)`` (pybind alone would rebuild the C++ game
without its python attributes); a state pickles as its game and history.

* Parameters: ``players`` (default 4 when the game allows it, else its
  minimum), ``information_state`` (below) and every game option under its own
  name.  OpenSpiel parameters cannot be None: an integer option whose default
  is None takes the value ``minimum - 1`` for None (Wizard: ``rounds=0`` plays
  the full game, ``first_dealer=-1`` draws the first dealer).
* ``position``: a position (docs/research.md, "Positions"), so that every
  state of the game starts there (a round's start, a hand half played...)
  instead of at the match's start; ``""`` (the default) is the match's start.
  A bad position is refused when the game is loaded, naming its field.  It
  may be given percent-encoded (``urllib.parse.quote``), as the game's
  parameters keep it: OpenSpiel's game strings cannot hold its ``,`` and ``=``.  Its
  history starts at the position (the rounds before it have no record, as in
  :meth:`atout.Game.new_state`); with ``seed=`` in it the seed resolves the
  chance that follows, so the states have no chance node.
* Chance is explicit: states start with ``game.new_state()`` (no seed), and
  every deal is a chance node with :meth:`chance_outcomes`.
* Returns are the match scores, paid at the end (``RewardModel.TERMINAL``,
  general sum).
* Observation string and tensor: the seat's view now (its canonical JSON, the
  game's :meth:`~atout.Game.observation_tensor`).
* Information state (``information_state=``):

  - ``"perfect_recall"`` (default, what OpenSpiel's CFR-family algorithms
    require): the seat's view now plus its record of every finished round
    (what it saw of each action, :meth:`atout.State.redacted_history`, as
    action texts with ``null`` for what it did not see).  The tensor is the
    game's :meth:`~atout.Game.information_state_tensor` followed by
    :data:`PAST_DIGEST_SIZE` 0/1 values, the bits of a BLAKE2 digest of the
    seat's view at each finished round's last state and just after (all 0 in
    the first round; views, not the redacted record, because a redacted
    history costs a replay of the whole match): a fixed size whatever the
    match length, and different pasts give different tensors.  The bits carry
    nothing a network can learn; what earlier rounds mean for the rest of the
    match (scores, the sheet, the dealer) is in the game's part.
  - ``"per_round"``: the view now only (the game's information-state tensor,
    no digest).  Within a round it holds everything the seat knows; across
    rounds it forgets (two matches that differ in the seat's own cards of an
    earlier round may give the same string).  Smaller and kinder to ISMCTS
    statistics, but not perfect recall.

  Both are functions of what the seat knows only, so they are equal in every
  world consistent with it — which ISMCTS relies on when it keys its tree by
  information state.
* Public and private observers (``IIGObservationType`` with
  ``private_info=NONE``, or ``public_info=False``): strings only, from the
  redacted histories: the actions of the round (of the match with
  ``perfect_recall=True``) every seat saw, and those the seat saw that some
  other seat did not.  What ``generate_playthrough`` prints.
* :meth:`AtoutSpielState.resample_from_infostate` draws a world with
  :meth:`atout.Game.sample_state`, as OpenSpiel's ISMCTS expects.  A world has
  no history of its own: it carries the resampling seat's record of the
  finished rounds (for every seat: it is the only past it knows), and records
  a round it finishes itself by the seat's view at the round's last state and
  just after.  Worlds cannot be serialized, and have no public or private
  observation.
"""

from __future__ import annotations

import hashlib
import json
import random
import urllib.parse
from typing import Any

import numpy as np
import pyspiel

from ..core.errors import PositionError
from ..core.game import Game, State
from ..core.options import OptionSpec
from ..core.registry import game_class, names
from .common import check_choice

#: Fallbacks for games that do not bound their length or scores.
DEFAULT_MAX_LENGTH = 100_000
DEFAULT_SCORE_BOUND = 1_000_000
#: The ``information_state`` parameter's values; the first is the default.
INFORMATION_STATES = ("perfect_recall", "per_round")
#: Values appended to the information-state tensor in ``perfect_recall`` mode.
PAST_DIGEST_SIZE = 64
#: Parameters of the adapter itself, beside the game's options.
ADAPTER_PARAMETERS = ("players", "information_state", "position")


def short_name(name: str) -> str:
    """OpenSpiel's name for atout game ``name`` (``nain-jaune`` -> ``python_atout_nain_jaune``)."""
    return "python_atout_" + game_class(name).name.replace("-", "_")


def class_name(name: str) -> str:
    """Name of the OpenSpiel game class of ``name`` in this module (what pickle looks up)."""
    return "AtoutSpiel_" + short_name(name)


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
    spec: dict[str, Any] = {
        "players": _default_players(cls),
        "information_state": INFORMATION_STATES[0],
        "position": "",  # the match's start; else a position (docs/research.md, Positions)
    }
    for option in cls.option_specs:
        if option.name in ADAPTER_PARAMETERS:
            raise TypeError(f"{cls.name} option {option.name!r} clashes with an OpenSpiel adapter parameter")
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


#: The digest block before any round is over (read only: shared).
_NO_PAST = np.zeros(PAST_DIGEST_SIZE, np.float32)
_NO_PAST.flags.writeable = False


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


class _Cell:
    """Holds the atout state inside a pyspiel state, with what its seats recall.

    OpenSpiel clones a python state by deep-copying its attributes and
    serializes it by pickling them: the cell makes the first an atout
    ``clone()`` (sharing the immutable caches) and the second a replay of the
    history.  It notes where each round ended (``ends``: history length and
    round number, with a snapshot of the state then) as actions are applied,
    and builds the seats' records of a finished round the first time they are
    asked for: ``seen`` records (what the seat saw of each action, for the
    information-state string) and ``views`` records (its view at the round's
    last state and just after, for the tensor's digest: linear in the match
    length, where a redacted history costs a replay of the whole match).
    """

    __slots__ = ("bits", "carried", "ends", "origin", "position", "seen", "snapshots", "state", "views")

    def __init__(
        self,
        state: State,
        origin: State | None = None,
        carried: tuple[tuple[str, ...], ...] = ((), ()),
        position: str | None = None,
    ) -> None:
        self.state = state
        #: The position the history starts from (the game's ``position`` parameter), None for the match's start.
        self.position = position
        #: The world as sampled (None for a state replayable from the start).
        self.origin = origin
        #: (seen, views) records of rounds finished before the world was sampled.
        self.carried = carried
        self.ends: list[tuple[int, int]] = []
        self.snapshots: list[State] = []
        #: Per seat: its seen records of the rounds finished in this cell's history.
        self.seen: dict[int, tuple[str, ...]] = {}
        #: Per round finished in this cell's history: every seat's views record.
        self.views: list[tuple[str, ...]] = []
        #: Per seat: (rounds finished in this cell's history, digest bits) of the last digest.
        self.bits: dict[int, tuple[int, np.ndarray[Any, np.dtype[np.float32]]]] = {}

    @property
    def replayable(self) -> bool:
        return self.origin is None

    def apply(self, action: int) -> None:
        state = self.state
        before = state.round
        state.apply(action)
        if state.round != before:
            self.ends.append((len(state.history), before))
            self.snapshots.append(state.clone())

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cell:
        new = _Cell(self.state.clone(), self.origin, self.carried, self.position)
        new.ends = self.ends.copy()
        new.snapshots = self.snapshots.copy()  # never mutated: shared
        new.seen = self.seen.copy()
        new.views = self.views.copy()
        new.bits = self.bits.copy()
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        if not self.replayable:
            raise TypeError("a world sampled from an information state has no history to serialize")
        game = self.state.game
        history = list(self.state.history)
        return (_replay, (game.name, game.players, dict(game.options), history, self.position))

    # -- what a seat recalls ------------------------------------------------------------
    def _start(self, k: int) -> State:
        """The state as round ``k`` (0-based, in this cell's history) began."""
        if k:
            return self.snapshots[k - 1]
        return self.state.game.new_state(None, self.position) if self.origin is None else self.origin

    def _round(self, k: int) -> tuple[list[int], State]:
        """Round ``k``'s actions and a fresh copy of the state it began with."""
        begin = self.ends[k - 1][0] if k else 0
        return self.state.history[begin : self.ends[k][0]], self._start(k).clone()

    def past(self, seat: int) -> tuple[str, ...]:
        """``seat``'s seen records of the finished rounds (canonical JSON, one per round)."""
        if not self.replayable:
            return self.carried[0] + tuple(views[seat] for views in self._views())
        own = self.seen.get(seat, ())
        if len(own) < len(self.ends):
            own += tuple(self._seen(seat, k) for k in range(len(own), len(self.ends)))
            self.seen[seat] = own
        return own

    def past_views(self, seat: int) -> tuple[str, ...]:
        """``seat``'s views records of the finished rounds."""
        return self.carried[1] + tuple(views[seat] for views in self._views())

    def _seen(self, seat: int, k: int) -> str:
        actions, replay = self._round(k)
        begin = self.ends[k - 1][0] if k else 0
        # What the seat saw of each action, as it stood when the round ended.
        shown = self.snapshots[k].redacted_history(seat)[begin:]
        texts: list[str | None] = []
        for action, seen in zip(actions, shown, strict=True):
            texts.append(None if seen is None else replay.action_to_text(action))
            replay.apply(action)
        return _canonical({"round": self.ends[k][1], "seen": texts})

    def _views(self) -> list[tuple[str, ...]]:
        for k in range(len(self.views), len(self.ends)):
            actions, replay = self._round(k)
            for action in actions[:-1]:
                replay.apply(action)
            after = self.snapshots[k]
            self.views.append(
                tuple(
                    _canonical(
                        {
                            "round": self.ends[k][1],
                            "end": replay.view(seat).to_dict(),
                            "after": after.view(seat).to_dict(),
                        }
                    )
                    for seat in range(self.state.game.players)
                )
            )
        return self.views

    def recall(self, seat: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """What a world sampled for ``seat`` carries: its seen and views records."""
        return self.past(seat), self.past_views(seat)

    def past_bits(self, seat: int) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The digest block of the perfect-recall tensor: 0/1 bits of ``seat``'s views records."""
        cached = self.bits.get(seat)
        if cached is not None and cached[0] == len(self.ends):
            return cached[1]
        past = self.past_views(seat)
        if not past:
            bits = _NO_PAST
        else:
            digest = hashlib.blake2b(
                ("[" + ",".join(past) + "]").encode(), digest_size=PAST_DIGEST_SIZE // 8
            ).digest()
            bits = np.unpackbits(np.frombuffer(digest, np.uint8), bitorder="little").astype(np.float32)
        self.bits[seat] = (len(self.ends), bits)
        return bits

    def information_state_string(self, seat: int, perfect_recall: bool) -> str:
        view = _canonical(self.state.view(seat).to_dict())
        if not perfect_recall:
            return view
        return '{"past":[' + ",".join(self.past(seat)) + '],"view":' + view + "}"

    # -- public and private observations ---------------------------------------------------
    def factored(self, seat: int, public: bool, private: bool, whole_match: bool) -> str:
        """Actions every seat saw (``public``) and those only some, ``seat`` included, saw (``private``)."""
        if not self.replayable:
            raise TypeError("a world sampled from an information state has no public or private observation")
        state = self.state
        history = state.history
        redacted = [state.redacted_history(s) for s in range(state.game.players)]
        begin = 0 if whole_match or not self.ends else self.ends[-1][0]
        replay = self._start(0 if whole_match else len(self.ends)).clone()
        shown: list[str | None] = []
        mine: list[str] = []
        for i in range(begin, len(history)):
            action = history[i]
            everyone = all(r[i] is not None for r in redacted)
            if everyone or redacted[seat][i] is not None:
                text = replay.action_to_text(action)
                if everyone:
                    shown.append(text)
                else:
                    shown.append(None)
                    mine.append(text)
            else:
                shown.append(None)
            replay.apply(action)
        out: dict[str, Any] = {} if whole_match else {"round": state.round}
        if public:
            out["public"] = shown
        if private:
            out["private"] = mine
        return _canonical(out)


def _replay(
    name: str, players: int, options: dict[str, Any], history: list[int], position: str | None = None
) -> _Cell:
    cell = _Cell(game_class(name)(players, **options).new_state(None, position), position=position)
    for action in history:
        cell.apply(action)
    return cell


class AtoutSpielGame(pyspiel.Game):  # type: ignore[misc]
    """Base of the registered classes; ``atout_class`` is set per game."""

    atout_class: type[Game]
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = parameter_specification(self.atout_class)
        full = {**spec, **(params or {})}
        self.atout = atout_game(self.atout_class, full)
        #: ``"perfect_recall"`` or ``"per_round"`` (see the module docstring).
        self.information_state = check_choice(
            "information_state", str(full["information_state"]), INFORMATION_STATES
        )
        #: The ``position`` parameter: where every state of this game starts (None: the match's start).
        given = dict(params or {})
        text = str(full["position"])
        text = urllib.parse.unquote(text) if "%" in text else text
        self.position: str | None = text or None
        if "position" in given:
            # OpenSpiel writes a game as "name(key=value,...)" and cannot read back a value holding
            # "," or "=" (a position does): it keeps the text percent-encoded, which is read back here.
            given["position"] = urllib.parse.quote(text, safe="")
        if self.position is not None:
            try:  # refused now, with the field at fault, rather than at the first new_initial_state()
                self.atout.new_state(None, self.position)
            except PositionError as exc:
                raise ValueError(f"position parameter: {exc}") from None
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
        super().__init__(self.game_type, info, given)

    @property
    def perfect_recall(self) -> bool:
        return self.information_state == "perfect_recall"

    def __reduce__(self) -> tuple[Any, ...]:
        # pybind would rebuild the C++ game alone, without its python attributes.
        return (load_game, (self.get_type().short_name, dict(self.get_parameters())))

    def new_initial_state(self) -> AtoutSpielState:
        return AtoutSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> AtoutObserver | AtoutFactoredObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is None:
            return AtoutObserver(self, information_state=False)
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("atout observers show one seat's information, never every seat's")
        single = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type.public_info and single:
            return AtoutObserver(self, information_state=iig_obs_type.perfect_recall)
        return AtoutFactoredObserver(
            public=iig_obs_type.public_info, private=single, whole_match=iig_obs_type.perfect_recall
        )


class AtoutSpielState(pyspiel.State):  # type: ignore[misc]
    """An atout state seen through pyspiel's State API."""

    def __init__(
        self,
        game: AtoutSpielGame,
        world: State | None = None,
        carried: tuple[tuple[str, ...], ...] = ((), ()),
    ) -> None:
        super().__init__(game)
        # Only the cell as attribute: OpenSpiel deep-copies and pickles them all.
        if world is None:
            self._cell = _Cell(game.atout.new_state(None, game.position), position=game.position)
        else:
            self._cell = _Cell(world, origin=world.clone(), carried=carried)

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
        self._cell.apply(int(action))

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
        """A world consistent with ``player_id``'s information (``Game.sample_state``).

        In ``perfect_recall`` mode the world carries the seat's record of the
        finished rounds, so its information state equals this state's.
        """
        state = self._cell.state
        game = self.get_game()
        seed = int(probability_sampler() * 2**52) ^ (int(probability_sampler() * 2**52) << 52)
        world = state.game.sample_state(state.view(player_id), random.Random(seed))
        carried = self._cell.recall(player_id) if game.perfect_recall else ((), ())
        return AtoutSpielState(game, world, carried)

    def __str__(self) -> str:
        return str(self._cell.state)


class AtoutObserver:
    """OpenSpiel's PyObserver interface over a seat's view: observation or information state."""

    def __init__(self, game: AtoutSpielGame, information_state: bool) -> None:
        self.game = game.atout
        self.information_state = information_state
        self.perfect_recall = information_state and game.perfect_recall
        if information_state:
            size, name = self.game.information_state_tensor_size(), "info_state"
        else:
            size, name = self.game.observation_tensor_size(), "observation"
        self.base = size
        if self.perfect_recall:
            size += PAST_DIGEST_SIZE
        self.tensor = np.zeros(size, np.float32)
        #: The game's part of the tensor (all of it but the perfect-recall digest), written in place.
        self.part = self.tensor[: self.base]
        self.dict = {name: self.tensor}
        #: The last (cell, history length, seat) written, and a copy of what was written.
        self._memo: tuple[_Cell, int, int] | None = None
        self._copy = np.zeros(size, np.float32)

    def set_from(self, state: AtoutSpielState, player: int) -> None:
        # pyspiel asks twice for each tensor it returns: the second time, the same
        # state (same cell, same history length: atout histories only grow) and
        # seat are answered from a private copy of the first answer.  The cell is
        # held, so its id cannot be reused by another state meanwhile.
        cell = state._cell
        key = (cell, len(cell.state.history), player)
        memo = self._memo
        if memo is not None and memo[0] is cell and memo[1:] == key[1:]:
            np.copyto(self.tensor, self._copy)
            return
        view = cell.state.view(player)
        tensor = self.tensor
        tensor.fill(0.0)
        self.game.write_tensor(view, self.information_state, self.part)
        if self.perfect_recall:
            tensor[self.base :] = cell.past_bits(player)
        np.copyto(self._copy, tensor)
        self._memo = key

    def string_from(self, state: AtoutSpielState, player: int) -> str:
        return state._cell.information_state_string(player, self.perfect_recall)


class AtoutFactoredObserver:
    """Public and private observations (strings only; see the module docstring)."""

    def __init__(self, public: bool, private: bool, whole_match: bool) -> None:
        self.public = public
        self.private = private
        self.whole_match = whole_match
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: AtoutSpielState, player: int) -> None:
        return None

    def string_from(self, state: AtoutSpielState, player: int) -> str:
        if not (self.public or self.private):
            return ""
        if not 0 <= player < state.num_players():
            raise ValueError(f"no seat {player} at this table")
        return state._cell.factored(player, self.public, self.private, self.whole_match)


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
        provides_factored_observation_string=True,
        parameter_specification=parameter_specification(cls),
    )


#: The registered OpenSpiel game classes by atout game name.
REGISTERED: dict[str, type[AtoutSpielGame]] = {}


def register(name: str) -> type[AtoutSpielGame]:
    """Register atout game ``name`` with pyspiel (once); returns its OpenSpiel class.

    The class is bound in this module under :func:`class_name`, so games and
    states pickle; a game registered from a user's package must be registered
    (``atout.core.registry.register``) in the unpickling process too.
    """
    cls = game_class(name)
    if cls.name in REGISTERED:
        return REGISTERED[cls.name]
    game_type = _game_type(cls)
    qualname = class_name(cls.name)
    spiel_cls = type(
        qualname,
        (AtoutSpielGame,),
        {
            "atout_class": cls,
            "game_type": game_type,
            "__doc__": f"atout {cls.title} for OpenSpiel.",
            "__module__": __name__,
            "__qualname__": qualname,
        },
    )
    globals()[qualname] = spiel_cls
    if short_name(cls.name) not in pyspiel.registered_names():
        pyspiel.register_game(game_type, spiel_cls)
    REGISTERED[cls.name] = spiel_cls
    return spiel_cls


def load_game(short: str, params: dict[str, Any]) -> AtoutSpielGame:
    """``pyspiel.load_game(short, params)`` for an atout game, registering it first (unpickling)."""
    for name in names():
        if short_name(name) == short:
            register(name)
            break
    game: AtoutSpielGame = pyspiel.load_game(short, params)
    return game


def __getattr__(attr: str) -> type[AtoutSpielGame]:
    # Unpickling a game registered after this module was imported.
    if attr.startswith("AtoutSpiel_"):
        for name in names():
            if class_name(name) == attr:
                return register(name)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


for _name in names():
    register(_name)
