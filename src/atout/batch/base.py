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
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

from ..core.game import TERMINAL, Game
from .common import Arrays, IllegalActions, SeedQueue, Step, TensorFrame

__all__ = ["BatchBase"]

IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]
GameT = TypeVar("GameT", bound=Game)
DealsT = TypeVar("DealsT", bound=Arrays)


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
    #: The deals' NamedTuple class (``Deals``, ``Starts``): rebuilds a deal from its arrays.
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
    phase: IntArray
    round: IntArray
    dealer: IntArray
    current_player: IntArray
    _games: IntArray
    _queue: SeedQueue | None

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
        self.game = game
        self.num_games = N = len(seed_list)
        self.players = players
        self.num_actions = game.num_actions
        self.auto_reset = auto_reset
        self.check = check
        self.seeds = seed_list
        if reset_seeds is None:
            reset_seeds = itertools.count(max(seed_list) + 1)
        self._queue = SeedQueue(iter(reset_seeds), self._deal, max(N, 256)) if auto_reset else None
        self.matches_done = 0
        self._games = np.arange(N, dtype=np.intp)
        z = np.zeros(N, dtype=np.intp)
        self.phase = z.copy()
        self.round = z.copy()
        self.dealer = z.copy()
        self.current_player = z.copy()
        self._init_state()
        self._start_matches(self._games, self._deal(self.seeds))

    # -- hooks -------------------------------------------------------------------------------
    #: The game's engine class (``WizardGame``, ...): the batch's options are its options.
    _game_class: Callable[..., GameT]

    #: Engine options the batch does not play, with the only value it accepts (their default):
    #: refused rather than ignored, so a batch never plays other rules than the engine's.
    _fixed_options: ClassVar[dict[str, Any]] = {"start_round": 1}

    def _new_game(self, players: int, options: dict[str, Any]) -> GameT:
        """The engine's game of this configuration (it validates the players and the options)."""
        game = self._game_class(players, **options)
        for name, value in self._fixed_options.items():
            if name in game.options and game.options[name] != value:
                raise ValueError(
                    f"the batch plays whole matches from the first {self._round_word}: "
                    f"{name}={game.options[name]!r} is not supported here (only {value!r})"
                )
        return game

    @abstractmethod
    def _init_state(self) -> None:
        """The game's own arrays and tables (``game``, ``num_games``, ``players``, ``phase``... are set)."""

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

    #: The game's batch tensor encoder and heuristic policy, as modules of this package:
    #: ``blocks(game, information_state)`` (the engine's layout, from the game's tensor module)
    #: with ``encode(batch, frame, information_state)`` (fills a :class:`.common.TensorFrame`),
    #: and ``heuristic_actions(batch)``.  Imported on first use (they read the batch's own module).
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

    def _first_round(self, g: IntArray, first_dealer: IntArray) -> None:
        """The new matches ``g`` open their round 1, dealt by ``first_dealer`` (:meth:`_start_round` deals it)."""
        self.dealer[g] = first_dealer
        self.round[g] = 1
        self._start_round(g)

    def _end_rounds(self, g: IntArray, last: BoolArray, terminal: BoolArray) -> None:
        """After the matches ``g`` scored a round: those at their ``last`` end, the others deal the next.

        The next round's dealer is the seat to the left (:meth:`_start_round` deals it).
        """
        done, going = g[last], g[~last]
        if done.size:
            self._end_matches(done, terminal)
        if going.size:
            self.round[going] += 1
            self.dealer[going] = (self.dealer[going] + 1) % self.players
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
        self._start_matches(g, self._deals_type(*arrays))

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
    ) -> NDArray[np.floating[Any]]:
        """(N, size) tensors in the engine's layout (the game's ``tensor`` module, e.g. :mod:`atout.games.wizard.tensor`).

        ``seats``: whose view per match (default: the player to act, seat 0
        once a match is over).  The same values as
        ``game.observation_tensor(state.view(seat))`` (or
        ``information_state_tensor`` with ``information_state=True``).
        """
        if seats is None:
            seat_array = np.maximum(self.current_player, 0)
        else:
            seat_array = np.broadcast_to(np.asarray(seats, dtype=np.intp), (self.num_games,))
        encoder = importlib.import_module(self._tensor_module, __package__)
        layout = encoder.blocks(self.game, information_state)
        frame = TensorFrame(layout, seat_array, self.num_games, self.players, dtype, self._direction)
        encoder.encode(self, frame, information_state)
        return frame.out

    def information_state_tensor(
        self,
        seats: int | Sequence[int] | IntArray | None = None,
        *,
        dtype: type[np.floating[Any]] = np.float32,
    ) -> NDArray[np.floating[Any]]:
        """:meth:`observation_tensor` with ``information_state=True`` (adds the round's history: its finished tricks, or who played what and when)."""
        return self.observation_tensor(seats, information_state=True, dtype=dtype)
