"""What every game's batch class inherits: the bookkeeping around the rules, written once.

Why a base class: the four batches (Wizard, Sticheln, Le Malin, Le Nain Jaune)
keep the same bookkeeping around their rules — the seeds and the auto-reset
queue, a step's arguments (the actions, the ``active`` mask) and its result,
the end of a match, the next round, the refusal of illegal actions, the
viewer seats of the tensors, where the tensor encoder and the heuristic live.
It is written once here, as a template: each game's class keeps its rules
(deals, legal actions, moves, scoring, tensors, heuristic) in its hooks
(``_init_state``, ``_deal``, ``_start_matches``, ``_move``, ...) and names in
a few class attributes what differs: the phase id of a finished match, what a
round is called, its engine class, its deals' NamedTuple, its modules.

The base decides nothing a game's rules decide: it only sequences the hooks
and keeps the bookkeeping, so that a batch stays exactly its engine.
"""

from __future__ import annotations

import importlib
import itertools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Generic, Self, TypeVar, cast, get_args, get_origin, overload

import numpy as np
from numpy.typing import NDArray

from ..core.game import TERMINAL, Game, State
from .common import Arrays, IllegalActions, SeedQueue, SparseTensor, Step, TensorFrame

__all__ = ["BatchBase", "MatchArray"]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]
GameT = TypeVar("GameT", bound=Game)
DealsT = TypeVar("DealsT", bound=Arrays)
ScalarT = TypeVar("ScalarT", bound=np.generic)
#: The engine games the batches built, checked, by (class, players, options): see ``BatchBase._new_game``.
_GAMES: dict[tuple[Any, ...], Game] = {}
#: How many configurations :data:`_GAMES` keeps before it starts again (a bound, never a leak).
_GAMES_KEPT = 64


class MatchArray(Generic[ScalarT]):
    """One of a batch's state arrays, declared once as an attribute of its class: one row per match.

    Why a declaration: a batch's state is a few dozen arrays, each created when
    the batch is and most reset when a round opens; written out, every one was
    named in both places and the lists of the four games repeated each other.
    Here each array is named once with its ``dtype``; ``dims``, the axes after
    the match's, as numbers or as names of int attributes the batch has set in
    its ``_init_state`` (``"players"``, ...); ``fill``, its value when created; and
    ``round_start``, the value every row takes when its match opens a round
    (None: the game's rules set it then, or it lasts the whole match).

    The declaration types the attribute (its ``__get__``, for the type
    checker) and then takes itself off the class, into the class's
    ``_declared_arrays``: the array lives in the batch's ``__dict__`` and is
    read as a plain attribute.  Why: CPython specialises an attribute read
    only when the class has no attribute of that name, and the hot loops read
    these arrays many times a step (a read cost 31 ns with the declaration
    left on the class, 20 ns without).
    """

    __slots__ = ("dims", "dtype", "fill", "name", "round_start")

    def __init__(
        self,
        dtype: type[ScalarT],
        *dims: str | int,
        fill: int = 0,
        round_start: int | None = None,
    ) -> None:
        self.dtype = dtype
        self.dims = dims
        self.fill = fill
        self.round_start = round_start
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        """Named, move into ``owner._declared_arrays`` (Python sets names from a copy of the class body)."""
        self.name = name
        declared: list[MatchArray[Any]] | None = vars(owner).get("_declared_arrays")
        if declared is None:
            declared = []
            setattr(owner, "_declared_arrays", declared)  # noqa: B010  (each class its own list)
        declared.append(self)
        delattr(owner, name)

    @overload
    def __get__(self, batch: None, owner: type | None = None) -> MatchArray[ScalarT]: ...
    @overload
    def __get__(self, batch: object, owner: type | None = None) -> NDArray[ScalarT]: ...
    def __get__(self, batch: object, owner: type | None = None) -> MatchArray[ScalarT] | NDArray[ScalarT]:
        """What the type checker reads (at run time the declaration is no longer on the class)."""
        if batch is None:
            return self
        raise AttributeError(f"{type(batch).__name__}.{self.name} is created after _init_state")

    def create(self, batch: object, count: int) -> NDArray[ScalarT]:
        """The array of ``count`` matches, its further axes read from ``batch``, filled with ``fill``."""
        shape = (count, *(dim if isinstance(dim, int) else int(getattr(batch, dim)) for dim in self.dims))
        if self.fill == 0:
            return np.zeros(shape, dtype=self.dtype)
        return np.full(shape, self.fill, dtype=self.dtype)


class BatchBase(ABC, Generic[GameT, DealsT]):
    """The shared part of ``WizardBatch``, ``StichelnBatch``, ``MalinBatch`` and ``NainJauneBatch``.

    ``GameT``: the game's engine class; ``DealsT``: the NamedTuple of arrays
    its deal function returns (one row per match), which auto-reset rebuilds
    from the rows the :class:`.common.SeedQueue` hands out.
    """

    #: The engine's phase id of a finished match (each game's ``OVER``).
    _over: ClassVar[int]
    #: What the ``round`` counter is called in messages ("round", "hand", "deal").
    _round_word: ClassVar[str] = "round"
    #: The deals' NamedTuple class (``Deals``, ``Starts``): rebuilds a deal from its arrays (the
    #: class's ``DealsT``, see :meth:`__init_subclass__`).
    _deals_type: Callable[..., DealsT]

    game: GameT
    num_games: int
    players: int
    num_actions: int
    auto_reset: bool
    check: bool
    #: The seed of the match each entry plays (auto-reset replaces a finished match's).
    seeds: list[int]
    #: Matches finished so far (auto-reset included).
    matches_done: int
    phase = MatchArray(np.intp)
    round = MatchArray(np.intp)
    dealer = MatchArray(np.intp)
    current_player = MatchArray(np.intp)
    #: The match ends with its current round: loaded (:meth:`from_states`) from a state
    #: without a seed, it has no deal for the next round.
    round_only = MatchArray(np.bool_)
    #: The round each match started at: the ``start_round`` option, or the one :meth:`restart` gave it.
    start_round = MatchArray(np.intp)
    _games: IntArray
    _queue: SeedQueue | None
    #: The legal actions as the game last computed them (None: to compute); every game caches them
    #: between steps, and whatever changes a match outside a step clears them.
    _legal: Any
    #: Every :class:`MatchArray` of the class (its bases' first), and the (name, value) of those reset per round.
    _match_arrays: ClassVar[tuple[MatchArray[Any], ...]] = ()
    _round_starts: ClassVar[tuple[tuple[str, int], ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Read the class's engine class and deals from its parameters (``BatchBase[WizardGame, Deals]``:
        written once, for the type checker and the batch alike); a game's batch names its tensor and
        heuristic modules unless it does; collect its state declarations.

        A subclass may redeclare a base's array.
        """
        super().__init_subclass__(**kwargs)
        for base in vars(cls).get("__orig_bases__", ()):
            origin = get_origin(base)
            if isinstance(origin, type) and issubclass(origin, BatchBase):
                game_class, deals_type = get_args(base)
                if isinstance(game_class, type) and isinstance(deals_type, type):  # not a TypeVar
                    cls._game_class, cls._deals_type = game_class, deals_type
        if hasattr(cls, "_game_class"):  # a game's batch (not a part of one: .families)
            if not hasattr(cls, "_tensor_module"):
                cls._tensor_module = f"{cls.__module__}_tensor"
            if not hasattr(cls, "_heuristic_module"):
                cls._heuristic_module = f"{cls.__module__}_heuristic"
        found: dict[str, MatchArray[Any]] = {}
        for klass in reversed(cls.__mro__):
            for array in vars(klass).get("_declared_arrays", ()):
                found[array.name] = array
        cls._match_arrays = tuple(found.values())
        cls._round_starts = tuple(
            (array.name, array.round_start) for array in cls._match_arrays if array.round_start is not None
        )

    def __init__(
        self,
        players: int,
        seeds: Sequence[int] | NDArray[np.integer[Any]],
        *,
        auto_reset: bool = False,
        reset_seeds: Iterable[int] | None = None,
        check: bool = True,
        **options: Any,
    ) -> None:
        """The engine's game from the options, the seeds (at least one), then the game's own state and deals."""
        game = self._new_game(players, options)
        seed_list = [int(s) for s in seeds]
        if not seed_list:
            raise ValueError("a batch needs at least one seed")
        self._setup(game, seed_list, check)
        self.auto_reset = auto_reset
        # The next matches' seeds, dealt ahead: auto-reset's, and those restart() takes when given none.
        if auto_reset or reset_seeds is not None:
            if reset_seeds is None:
                reset_seeds = itertools.count(max(seed_list) + 1)
            self._queue = SeedQueue(iter(reset_seeds), self._deal, max(self.num_games, 256))
        self._start_matches(self._games, self._deal(self.seeds))

    def _setup(self, game: GameT, seeds: list[int], check: bool, arrays: bool = True) -> None:
        """What every batch sets before its matches start: the game, the sizes, the seeds, the state arrays.

        Shared by ``__init__`` (matches started from seeds), :meth:`from_states`
        (matches loaded from engine states) and :meth:`subset` (``arrays`` False: it
        sets the state arrays itself); auto-reset off until the caller says.
        """
        self.game = game
        self.num_games = N = len(seeds)
        self.players = game.players
        self.num_actions = game.num_actions
        self.auto_reset = False
        self._queue = None
        self.check = check
        self.seeds = seeds
        self.matches_done = 0
        self._games = np.arange(N, dtype=np.intp)
        self._init_state()
        if not arrays:
            return
        state = self.__dict__
        for array in self._match_arrays:
            state[array.name] = array.create(self, N)
        self.start_round[:] = game.start_round

    @classmethod
    def from_states(
        cls,
        states: Sequence[State],
        *,
        seeds: Sequence[int | None] | None = None,
        check: bool = True,
        reset_seeds: Iterable[int] | None = None,
    ) -> Self:
        """A batch whose match ``i`` is the engine state ``states[i]``, copied (later changes to it do not reach the batch).

        Why: a search bot samples many worlds (``game.sample_state(view, rng)``)
        and plays each out; loaded into one batch, the playouts of every world
        step together as numpy arrays.  The states must be of one configuration
        (the game's players and options; the batch's own refusals, such as Le
        Malin's jeu fun, apply) and at a decision or over — never at a chance
        node — anywhere in a match: bidding, play, between tricks, a finished
        match.  Refused with a :class:`ValueError` naming the first bad index.

        When a loaded match finishes its round, the next round is dealt from
        the match's seed exactly as the engine deals it for that seed: the
        state's own seed, or ``seeds[i]`` when given (not None), which deals as
        ``state.reseed(seeds[i])`` would.  A match with neither (a sampled
        world has no seed) has no next deal: it ends with its round
        (:attr:`round_only`; the step that scores the round reports it
        terminal, with the round's rewards), which is all a playout needs.
        ``seeds[i]`` reads -1 for such a match.  Auto-reset is off; ``reset_seeds``,
        as at construction, are the seeds :meth:`restart` takes when given none (a vector
        env started at a position goes on with fresh matches).
        """
        if not states:
            raise ValueError("from_states needs at least one state")
        given: list[int | None] = [None] * len(states) if seeds is None else list(seeds)
        if len(given) != len(states):
            raise ValueError(f"seeds has {len(given)} entries for {len(states)} states")
        first = states[0].game
        engine: type = cast(type, cls._game_class)
        if not isinstance(first, engine):
            raise ValueError(
                f"state 0 is a {first.title} state: {cls.__name__} loads {engine.__name__} states"
            )
        batch = cls.__new__(cls)
        game = batch._new_game(first.players, dict(first.options))
        for i, state in enumerate(states):
            if state.game != game:
                raise ValueError(
                    f"state {i} is of another configuration ({state.game!r}) than state 0 ({game!r}): "
                    "a batch plays one configuration"
                )
            if state.is_chance:
                raise ValueError(
                    f"state {i} is at a chance node ({state.phase_name}): load states at a decision "
                    "or at the end of a match (a seeded state resolves its chance itself)"
                )
        match_seeds = [s.seed if g is None else g for s, g in zip(states, given, strict=True)]
        batch._setup(game, [-1 if s is None else int(s) for s in match_seeds], check)
        batch.round_only[:] = [s is None for s in match_seeds]
        batch._reset_round(batch._games)  # what a round opens with: the game's loader sets the rest
        batch._load(states)
        if reset_seeds is not None:
            batch._queue = SeedQueue(iter(reset_seeds), batch._deal, max(batch.num_games, 256))
        return batch

    @abstractmethod
    def _load(self, states: Sequence[State]) -> None:
        """Copy the engine states into the batch's arrays, one match each (:meth:`from_states` checked them).

        ``seeds`` and :attr:`round_only` are set, and every array declared with
        a ``round_start`` holds it; the game deals the later rounds of the
        matches with a seed as the engine would for it.
        """

    def _load_fields(self, states: Sequence[State], names: Iterable[str]) -> None:
        """The arrays ``names`` from the engine states' fields of the same names, one match each.

        Why: most of a match's arrays hold what its engine state holds under the same name
        (``phase``, ``round``, ``dealer``, ``current_player``, a game's own counters); each
        game's :meth:`_load` names them here and copies only what it must rebuild.
        """
        for name in names:
            array = getattr(self, name)
            array[:] = np.array([getattr(state, name) for state in states], dtype=array.dtype)

    # -- hooks -------------------------------------------------------------------------------
    #: The game's engine class (``WizardGame``, ...): the batch's options are its options (the
    #: class's ``GameT``, see :meth:`__init_subclass__`).
    _game_class: Callable[..., GameT]

    #: Engine options the batch does not play, with the only value it accepts (their default):
    #: refused rather than ignored, so a batch never plays other rules than the engine's.
    #: (Every batch plays ``start_round``: a match starts at that round, dealt, rotated and
    #: ended as the engine's.)
    _fixed_options: ClassVar[dict[str, Any]] = {}

    def _new_game(self, players: int, options: dict[str, Any]) -> GameT:
        """The engine's game of this configuration (it validates the players and the options).

        A game is immutable, so one checked game per configuration is kept and shared
        (:data:`_GAMES`): the search bots build a batch at every decision, and validating
        the options again each time was a twentieth of a Le Malin review.
        """
        try:
            key = (self._game_class, players, tuple(sorted(options.items())))
            hash(key)
        except TypeError:  # an unhashable option value: built and checked each time
            key = None
        if key is not None and key in _GAMES:
            return cast(GameT, _GAMES[key])
        game = self._game_class(players, **options)
        self.check_game(game)
        if key is not None:
            if len(_GAMES) >= _GAMES_KEPT:
                _GAMES.clear()
            _GAMES[key] = game
        return game

    @classmethod
    def check_game(cls, game: Any) -> None:
        """Raise ``ValueError`` naming the rule when this batch does not play ``game`` as it is
        configured: a caller (a search bot, the review) then knows to use the engine instead."""
        for name, value in cls._fixed_options.items():
            if name in game.options and game.options[name] != value:
                raise ValueError(
                    f"the {game.title} batch does not play {name}={game.options[name]!r} "
                    f"(only {value!r}): use the engine for it"
                )

    @abstractmethod
    def _init_state(self) -> None:
        """The game's own tables, and the sizes its :class:`MatchArray` axes name (``game``, ``num_games``, ``players`` are set).

        The declared arrays are created after it.
        """

    @abstractmethod
    def _deal(self, seeds: Sequence[int]) -> DealsT:
        """The deals of new matches seeded ``seeds`` (the first ones, or all of them), one row per match."""

    @abstractmethod
    def _start_matches(self, g: IntArray, deals: DealsT) -> None:
        """Start new matches in the entries ``g`` from their deals (one row each)."""

    def _start_round(self, g: IntArray) -> None:
        """Deal and open the round ``round[g]`` of the matches ``g`` (used by :meth:`_first_round`, :meth:`_end_rounds`)."""
        raise NotImplementedError(f"{type(self).__name__} starts its rounds itself")

    @abstractmethod
    def legal_mask(self) -> BoolArray:
        """(N, num_actions) booleans: the engine's ``legal_actions()`` of each match, as a mask."""

    #: The game's batch tensor encoder and heuristic policy, as module names:
    #: ``blocks(game, information_state)`` (the engine's layout, from the game's tensor module)
    #: with ``encode(batch, frame, information_state)`` (fills a :class:`.common.TensorFrame`),
    #: and ``heuristic_actions(batch)``.  Imported on first use (they read the batch's own module).
    #: By default the class's module's name with ``_tensor`` and ``_heuristic`` after it
    #: (``atout.batch.wizard_tensor`` for :class:`.WizardBatch`).
    _tensor_module: ClassVar[str]
    _heuristic_module: ClassVar[str]
    #: The direction of play (1, or -1 for counterclockwise play): the tensors number the seats so.
    _direction: int = 1

    # -- state ---------------------------------------------------------------------------------
    @property
    def terminal(self) -> BoolArray:
        """(N,) whether each match is over."""
        result: BoolArray = self.phase == self._over
        return result

    # -- stepping ------------------------------------------------------------------------------
    def _step_phases(
        self, actions: Sequence[int] | IntArray, active: BoolArray | None
    ) -> tuple[IntArray, IntArray]:
        """A step's arguments: ((N,) actions, (N,) phases in which the matches outside ``active`` read as over).

        A held match then moves like a finished one: not at all, whatever its action.
        """
        N = self.num_games
        a = np.asarray(actions, dtype=np.intp).reshape(N)
        phase = self.phase
        if active is not None:
            held = ~np.asarray(active, dtype=bool).reshape(N)
            if held.any():
                phase = np.where(held, self._over, phase)
        return a, phase

    def step(self, actions: Sequence[int] | IntArray, active: BoolArray | None = None) -> Step:
        """Apply one action per match and resolve the chance that follows (the next deals).

        Finished matches, and those outside ``active`` ((N,) bool, optional:
        all when None), ignore their action and keep their state (a vector
        env holds the matches waiting for its agent this way).  Raises
        :class:`IllegalActions` (nothing applied) when ``check`` is on and
        some moving match's action is not legal.
        """
        a, phase = self._step_phases(actions, active)
        rewards = np.zeros((self.num_games, self.players), dtype=np.int32)
        terminal = np.zeros(self.num_games, dtype=bool)
        scores = self._move(a, phase, active is None, rewards, terminal)
        if self.auto_reset and terminal.any():
            self._reset_finished(np.flatnonzero(terminal))
        return Step(rewards, terminal, scores)

    @abstractmethod
    def _move(
        self,
        a: IntArray,
        phase: IntArray,
        everyone: bool,
        rewards: NDArray[np.int32],
        terminal: BoolArray,
    ) -> NDArray[np.int32]:
        """The game's part of :meth:`step`: check, then apply the actions ``a`` of the matches that move.

        ``phase``: the matches' phases, over for those that do not move;
        ``everyone``: no ``active`` mask was given.  Scores the rounds that end
        into ``rewards``, flags the matches that end in ``terminal``, and returns
        a copy of the scores after the step (taken before auto-reset).
        """

    def _end_matches(self, done: IntArray, terminal: BoolArray | None) -> None:
        """The matches ``done`` are over: nobody acts, the step reports it (``terminal``), they count as done."""
        self.phase[done] = self._over
        self.current_player[done] = TERMINAL
        if terminal is not None:
            terminal[done] = True
        self.matches_done += int(done.size)

    def _reset_round(self, g: IntArray) -> None:
        """The matches ``g`` open a round: every array declared with a ``round_start`` takes it in their rows."""
        state = self.__dict__
        for name, value in self._round_starts:
            state[name][g] = value

    def _first_round(self, g: IntArray, first_dealer: IntArray) -> None:
        """The new matches ``g`` open their first round, ``start_round[g]`` (:meth:`_start_round` deals it).

        ``first_dealer`` is round 1's dealer (fixed or drawn); from a later
        start the deal has moved on one seat a round, as in a whole match.
        """
        start = self.start_round[g]
        self.dealer[g] = (first_dealer + start - 1) % self.players
        self.round[g] = start
        self._reset_round(g)
        self._start_round(g)

    def _end_rounds(self, g: IntArray, last: BoolArray, terminal: BoolArray) -> None:
        """After the matches ``g`` scored a round: those at their ``last`` (or :attr:`round_only`) end, the others deal the next.

        The next round's dealer is the seat to the left (:meth:`_start_round` deals it).
        """
        last = last | self.round_only[g]
        done, going = g[last], g[~last]
        if done.size:
            self._end_matches(done, terminal)
        if going.size:
            self.round[going] += 1
            self.dealer[going] = (self.dealer[going] + 1) % self.players
            self._reset_round(going)
            self._start_round(going)

    def _reset_finished(self, g: IntArray) -> None:
        """Auto-reset: the finished matches ``g`` restart from the next seeds (while there are any)."""
        assert self._queue is not None
        got = self._queue.take(int(g.size))
        if got is None:
            return
        seeds, arrays = got
        g = g[: len(seeds)]
        for i, s in zip(g.tolist(), seeds, strict=True):
            self.seeds[i] = s
        self.start_round[g] = self.game.start_round  # the queue deals from the configuration's start
        self._start_matches(g, self._deals_type(*arrays))

    def subset(self, rows: Sequence[int] | IntArray) -> Self:
        """A batch of the matches ``rows`` of this one, in that order: copies of their arrays, to read.

        Why: the vector env asks its learned opponents' network for the matches
        whose learned seat is to act only, about half of them at each opponent
        step; their tensors and heuristic prior, written for those rows alone,
        cost that much less than the whole batch's (the encoders and the
        heuristic write every match).  Its tensors, legal masks and heuristic
        are this batch's rows, value for value (tested in every game); it is
        made to be read: it has no seeds queue, and stepping it changes nothing
        here.  Every :class:`MatchArray` is indexed; the game's own tables of
        the batch's size (``_games``...) are built again by ``_init_state``
        for the subset's size; everything else (the game, the options' flags)
        is shared.
        """
        picked = np.asarray(rows, dtype=np.intp).reshape(-1)
        if not picked.size:
            raise ValueError("subset needs at least one row")
        part = type(self).__new__(type(self))
        part._setup(self.game, list(map(self.seeds.__getitem__, picked.tolist())), self.check, arrays=False)
        state, mine = part.__dict__, self.__dict__
        for array in self._match_arrays:
            # ``take`` along the first axis: the copy fancy indexing makes, at about half its cost.
            state[array.name] = mine[array.name].take(picked, axis=0)
        for key, value in mine.items():
            if key not in state:
                if isinstance(value, np.ndarray):  # a table sized by the batch, not rebuilt: refuse to guess
                    raise TypeError(f"{type(self).__name__}.subset: {key} is not rebuilt by _init_state")
                state[key] = value
        part._legal = None
        return part

    # -- restarting matches one by one -------------------------------------------------------------
    def start_rounds(self) -> range:
        """The rounds :meth:`restart` may start a match at: the configuration's start to its last round.

        A match started at round ``R`` plays on to the configuration's last
        round (or end), exactly as the engine's game with ``start_round=R``
        (and, when the configuration counts its rounds, as many fewer rounds).
        """
        return range(self.game.start_round, self._last_start() + 1)

    def _last_start(self) -> int:
        """The last round a match may start at (a game whose matches have a last round names it)."""
        spec = next(s for s in self.game.option_specs if s.name == "start_round")
        assert spec.maximum is not None
        return int(spec.maximum)

    #: The game's deals hold every round from the configuration's start (Wizard, Sticheln): the
    #: same deal serves a match started at any later round, so restart() may take it from the queue.
    _deals_serve_any_start: ClassVar[bool] = False

    def restart(
        self,
        games: Sequence[int] | IntArray,
        seeds: Sequence[int] | None = None,
        start_rounds: Sequence[int] | IntArray | None = None,
    ) -> None:
        """Start new matches in the entries ``games``: seeded ``seeds``, each at its round of ``start_rounds``.

        Why: a vector env resets each of its matches when that match ends (or
        when told), not the whole batch, and may start each at another round
        (``start_round="random"``), so that its matches do not run in lockstep.
        ``seeds`` None: the next seeds of ``reset_seeds`` (given at
        construction), dealt ahead in chunks as auto-reset deals them — a few
        matches restarting at each step would otherwise each be dealt on its
        own, by ``random.Random`` (≈ 180 µs a Wizard match).  ``start_rounds``
        (default: the configuration's ``start_round``) must lie in
        :meth:`start_rounds`; match ``i`` then is the engine's
        ``new_state(seeds[i])`` of this configuration with ``start_round`` that
        round.  Whatever the entries held (over or not) is dropped.
        """
        g = np.asarray(games, dtype=np.intp).reshape(-1)
        if g.size and (g.min() < 0 or g.max() >= self.num_games or np.unique(g).size != g.size):
            raise ValueError(f"restart: match indices must be distinct, 0..{self.num_games - 1}")
        allowed = self.start_rounds()
        if start_rounds is None:
            starts = np.full(g.size, self.game.start_round, dtype=np.intp)
        else:
            starts = np.asarray(start_rounds, dtype=np.intp).reshape(-1)
            if starts.size != g.size:
                raise ValueError(f"restart: {starts.size} start rounds for {g.size} matches")
            bad = (starts < allowed.start) | (starts >= allowed.stop)
            if bad.any():
                raise ValueError(
                    f"restart: a match of this batch starts at {self._round_word} "
                    f"{allowed.start}..{allowed.stop - 1}, not {int(starts[bad][0])}"
                )
        dealt: DealsT | None = None
        if seeds is not None:
            seed_list = [int(s) for s in seeds]
            if len(seed_list) != g.size:
                raise ValueError(f"restart: {len(seed_list)} seeds for {g.size} matches")
            if any(s < 0 for s in seed_list):
                raise ValueError("restart: a seed is a non-negative integer")
        elif self._queue is None:
            raise ValueError("restart: no seeds given and no reset_seeds to take them from")
        elif not g.size:
            seed_list = []
        else:
            got = self._queue.take(int(g.size))
            if got is None or len(got[0]) < g.size:
                raise ValueError("restart: reset_seeds ran out")
            seed_list = got[0]
            dealt = self._deals_type(*got[1])
        if not g.size:
            return
        for i, s in zip(g.tolist(), seed_list, strict=True):
            self.seeds[i] = s
        self.round_only[g] = False
        self.start_round[g] = starts
        if dealt is None or not (self._deals_serve_any_start or (starts == self.game.start_round).all()):
            dealt = self._deal_starting(seed_list, starts)
        self._start_matches(g, dealt)
        self._legal = None  # the legal actions cached since the last step are stale now

    def _deal_starting(self, seeds: Sequence[int], starts: IntArray) -> DealsT:
        """The deals of new matches ``seeds`` starting at the rounds ``starts`` (default: :meth:`_deal`, which deals every round)."""
        return self._deal(seeds)

    def _action_text(self, action: int) -> str:
        """An action id as the engine writes it (its bare number when it is no action at all)."""
        try:
            return self.game.action_to_text(action)
        except ValueError:
            return f"action {action}"

    def _legal_texts(self, m: int) -> list[str]:
        """Match ``m``'s legal actions as the engine writes them."""
        return [self.game.action_to_text(x) for x in np.flatnonzero(self.legal_mask()[m]).tolist()]

    def _refusal(
        self, count: int, m: int, text: str, legal: Sequence[str], rule: str | None = None
    ) -> IllegalActions:
        """The error a step raises: how many matches were given an illegal action, and the first one's case.

        ``m``: the first such match; ``text``: its action; ``rule``: the rule it
        breaks, where the game says; ``legal``: what it could have played.
        """
        why = "" if rule is None else f"{rule}; "
        return IllegalActions(
            f"{count} match(es) given an illegal action, first match {m} "
            f"({self._round_word} {int(self.round[m])}, seat {int(self.current_player[m])}): {text}; {why}"
            f"legal: {', '.join(legal)}"
        )

    # -- policies and tensors ------------------------------------------------------------------
    #: The game's model of strong play, vectorised (the engine's ``game.playout_model``): a module
    #: with ``playout_actions(batch, rng)``; None where the game has none (the heuristic plays).
    _playout_module: ClassVar[str | None] = None

    @classmethod
    def has_playout_model(cls) -> bool:
        """Whether the game offers a model of strong play for playouts (:meth:`playout_model_actions`)."""
        return cls._playout_module is not None

    def playout_model_actions(self, rng: np.random.Generator) -> IntArray:
        """Per match, an action of the game's model of strong play (-1 once over), drawn with ``rng``.

        The engine search's ``:model`` playouts (``expert``'s), at batch speed;
        the heuristic's actions where the game has no such model, as the
        engine's search falls back to its heuristic.
        """
        if self._playout_module is None:
            return self.heuristic_actions()
        module = importlib.import_module(self._playout_module, __package__)
        actions: IntArray = module.playout_actions(self, rng)
        return actions

    def playout_model_probabilities(self, rows: IntArray) -> NDArray[np.float64]:
        """(len(rows), num_actions) the chance the model of strong play takes each action at ``rows``.

        The distribution :meth:`playout_model_actions` draws from (matches not
        over); where the game has no model, the heuristic's action with
        certainty.  The batch search's inference weighs worlds by it.
        """
        if self._playout_module is not None:
            module = importlib.import_module(self._playout_module, __package__)
            chances: NDArray[np.float64] = module.action_probabilities(self, rows)
            return chances
        chances = np.zeros((len(rows), self.num_actions), dtype=np.float64)
        chances[np.arange(len(rows)), self.heuristic_actions()[rows]] = 1.0
        return chances

    def heuristic_actions(self) -> IntArray:
        """The engine's heuristic bot's choice per match (-1 for a finished match; the game's ``*_heuristic`` module)."""
        actions: IntArray = importlib.import_module(self._heuristic_module, __package__).heuristic_actions(
            self
        )
        return actions

    def observation_tensor(
        self,
        seats: int | Sequence[int] | IntArray | None = None,
        *,
        information_state: bool = False,
        dtype: type[np.floating[Any]] = np.float32,
        out: NDArray[np.floating[Any]] | None = None,
    ) -> NDArray[np.floating[Any]]:
        """(N, size) tensors in the engine's layout (the game's ``tensor`` module, e.g. :mod:`atout.games.wizard.tensor`).

        ``seats``: whose view per match (default: the player to act, seat 0
        once a match is over).  The same values as
        ``game.observation_tensor(state.view(seat))`` (or
        ``information_state_tensor`` with ``information_state=True``).
        ``out``: (N, size) zeros of ``dtype`` to write them into, returned (a view of a wider
        array, say: the vector env writes its observations into its flattened buffer so).
        """
        return self._encode(seats, information_state, dtype, sparse=False, out=out).dense()

    def sparse_tensor(
        self,
        seats: int | Sequence[int] | IntArray | None = None,
        *,
        information_state: bool = True,
        dtype: type[np.floating[Any]] = np.float32,
    ) -> SparseTensor:
        """:meth:`observation_tensor`'s values (the information-state tensor by default) as compressed rows.

        Why: a network's first layer needs only the non-zero entries (Wizard's
        information-state tensor: 3,739 values, 20–80 non-zero); the game's
        encoder writes them straight into a :class:`~atout.batch.common.SparseTensor`,
        with no (N, size) array to clear and scan.  ``.toarray()`` is
        :meth:`observation_tensor` value for value (tested).
        """
        encoder = importlib.import_module(self._tensor_module, __package__)
        # A game's encoder may write its compressed rows directly (Wizard's: the vector env's learned
        # opponents read them at every step); else its writes are recorded and sorted into them.
        direct = getattr(encoder, "encode_sparse", None)
        frame = self._encode(seats, information_state, dtype, sparse=True, fill=direct is None)
        tensor: SparseTensor | None = None if direct is None else direct(self, frame, information_state)
        if tensor is None:
            if direct is not None:  # it declined this configuration
                encoder.encode(self, frame, information_state)
            tensor = frame.sparse_tensor()
        return tensor

    def _encode(
        self,
        seats: int | Sequence[int] | IntArray | None,
        information_state: bool,
        dtype: type[np.floating[Any]],
        sparse: bool,
        out: NDArray[np.floating[Any]] | None = None,
        fill: bool = True,
    ) -> TensorFrame:
        """The frame of the viewers ``seats`` (default: the player to act), filled by the game's
        encoder (``fill=False``: empty, for a caller that writes it another way)."""
        if seats is None:
            seat_array = np.maximum(self.current_player, 0)
        else:
            seat_array = np.broadcast_to(np.asarray(seats, dtype=np.intp), (self.num_games,))
        encoder = importlib.import_module(self._tensor_module, __package__)
        layout = encoder.blocks(self.game, information_state)
        frame = TensorFrame(
            layout, seat_array, self.num_games, self.players, dtype, self._direction, sparse=sparse, out=out
        )
        if fill:
            # A game's encoder may write its dense tensors another way where it can (Wizard's, from
            # its compressed rows: the vector env's observations); ``encode`` stays the reference.
            dense = None if sparse else getattr(encoder, "encode_dense", None)
            if dense is None or not dense(self, frame, information_state):
                encoder.encode(self, frame, information_state)
        return frame

    def information_state_tensor(
        self,
        seats: int | Sequence[int] | IntArray | None = None,
        *,
        dtype: type[np.floating[Any]] = np.float32,
    ) -> NDArray[np.floating[Any]]:
        """:meth:`observation_tensor` with ``information_state=True`` (adds the round's history: its finished tricks, or who played what and when)."""
        return self.observation_tensor(seats, information_state=True, dtype=dtype)
