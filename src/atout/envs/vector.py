"""A Gymnasium vector environment over a batch: one learning seat per match, the batch's policies at the others.

Why: :class:`atout.envs.single_agent.AtoutGymEnv` steps one Python engine
state and asks a bot object per opponent move; wrapped in Gymnasium's
``SyncVectorEnv`` it runs at engine speed.  Here ``num_envs`` matches are
one batch (:mod:`atout.batch`), the opponents are the batch's vectorised
policies (``random``: uniform over the legal actions; ``heuristic``: the
engine's heuristic bot, the same choice in every position), and one
:meth:`AtoutVectorEnv.step` applies the agent's actions to every match, then
steps the batch — only the matches whose opponents are to act, the others
held — until the agent must act again in every match.

Conventions are the single-agent env's (same observation ``Dict``, same
``illegal_action`` modes, same reward modes, ``reset(seed=s)`` plays the
engine's matches ``s, s+1, ..., s+num_envs-1``), batched:

* ``reset(seed=None)`` → ``(obs, infos)``; ``step(actions)`` →
  ``(obs, rewards, terminations, truncations, infos)``; ``obs`` is
  ``{"observation": (N, size) float32, "action_mask": (N, num_actions) int8}``,
  the mask is also ``infos["action_mask"]`` and :meth:`AtoutVectorEnv.action_masks`
  (bool, the method sb3-contrib's ``MaskablePPO`` calls); ``infos`` also holds ``scores``
  (N, players), ``illegal_action`` (N,) and ``match_seed`` (N,), each with
  Gymnasium's ``_key`` presence mask;
* auto-reset, two modes (``autoreset_mode=``, Gymnasium's names):

  - ``NEXT_STEP`` (**the default**): when a match ends, ``terminations[i]``
    is True and ``obs[i]`` is the ended match's last observation (its
    ``action_mask`` row all ones: see :meth:`AtoutVectorEnv.action_masks`),
    ``infos["scores"][i]`` its final scores; the next ``step`` ignores the
    env's action and starts its next match: reward 0, not terminated, the
    new match's first decision.  Why the default: it is Gymnasium's own
    default (``SyncVectorEnv``, ``AsyncVectorEnv``) and the only mode its
    observation wrappers accept (``FilterObservation``,
    ``TransformObservation``, ``NormalizeObservation``,
    ``DtypeObservation``, ``FlattenObservation``... refuse ``SAME_STEP``),
    and the terminal observation exists, so nothing a learner might want is
    lost.  Its price is one step per episode that does nothing: well under
    1 % of a whole match's 135 agent steps (Wizard, 4 players), but a
    third of a one-trick round's — pick ``SAME_STEP`` for very short
    episodes;
  - ``SAME_STEP``: the step that ends a match already returns the next
    match's first decision in ``obs[i]`` (``infos["final_info"]`` holds the
    ended matches' final ``scores``); ``infos`` has no ``final_obs`` (matches
    are never truncated, so no value bootstrapping needs it).  What
    Stable-Baselines3's ``VecEnv`` does (:mod:`atout.envs.sb3`).

  New matches are seeded with the next seeds, counting up from
  ``s + num_envs``, each env on its own: matches end and restart whenever
  they do, and with ``start_round="random"`` each starts at a round drawn
  from ``np_random`` among the batch's ``start_rounds()`` and plays on to
  the configuration's last round (exactly the engine's game with that
  ``start_round``; tensors keep the configuration's score scale), so the
  envs do not run in lockstep;
* staggered starts (``stagger=True``, the default): after a reset, each env's
  *first* match starts at such a random round and every later one is whole:
  whole matches of a game like Wizard all last the same number of steps, so
  envs started together would end together for ever (and a learner's batches
  would hold only first tricks, then only last ones).  ``stagger=False``
  starts every env at the configuration's first round, in lockstep: the
  engine's matches ``s .. s + num_envs - 1`` exactly;
* ``reset(options={"position": text})`` starts every env at that position
  (the game's notation); its later matches are the env's usual ones;
* rewards: ``round`` (the agent's score change of each round, paid in the
  step in which the round ends; what the opponents earn for the agent before
  its first move of a match is paid with that move), ``match`` (the final
  score, once) or ``win`` (1 shared among the winners); truncations are
  always False;
* an illegal action: ``raise`` (the default here, :class:`atout.IllegalAction`,
  nothing changes), ``penalty`` (the default of ``gymnasium.make_vec`` on the
  registered ids: the episode ends with a reward one less than the worst a
  legal episode can return, or ``illegal_penalty``; the match is abandoned
  as it stands and the env's next match starts as after any end),
  ``substitute`` (a uniformly random legal
  action from ``np_random`` is played; ``infos["played_action"]``).

Random opponents and the single-agent env (``engine_random=``): from the
same seed both envs deal the same matches, but by default their ``random``
opponents draw differently, so the matches part at the first random move.
The single env's ``random`` is the engine's ``RandomBot``: per match and seat
a ``random.Random`` seeded ``derive_seed(match_seed, "bot", seat)``, one
``choice`` over the sorted legal actions a move.  Here ``random`` is one
numpy draw for every match at once from the env's ``np_random`` (so a
match's moves also depend on ``num_envs`` and on the other matches): what
keeps random opponents at batch speed.  ``engine_random=True`` draws as the
bot does instead — the same matches as :func:`atout.envs.gym_env` from the
same seeds (tested), at the cost of a Python loop over the moving matches
at each opponent step.  (The ``heuristic`` is deterministic: the same
either way.)  One difference stays: a match that ends before the agent's
first decision (a Le Nain Jaune deal the others finish, leaving the agent
unable to stake) is skipped here, not returned as an episode.

Generic: any batch class with the :class:`.common.Batch` API works
(:func:`batch_class` finds a game's by name).
"""

from __future__ import annotations

import inspect
import itertools
import random
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from ..batch import BATCH_CLASSES, batch_class
from ..batch.common import Batch, SparseTensor
from ..bots.learned import ForwardBuffers, ModelMismatch, PolicyModel, shipped_model, shipped_small_model
from ..core.errors import IllegalAction
from ..core.game import Game
from ..core.registry import game_class
from ..match import derive_seed
from .common import REWARDS, TENSORS, check_choice, check_illegal_penalty, reset_position, start_state

__all__ = [
    "AUTORESET_MODES",
    "BATCH_CLASSES",
    "ILLEGAL_ACTIONS",
    "LEARNED",
    "POLICIES",
    "AtoutVectorEnv",
    "BatchPolicy",
    "batch_class",
    "learned_model",
    "make_vector_env",
    "set_blas_threads",
]

#: The batch's built-in policies an opponent seat may use.
POLICIES = ("random", "heuristic")
#: The learned opponents by name: ``policy`` (the vector env's network for the game: the small one
#: where one is shipped, else the ``policy`` bot's), ``policy-full`` (the ``policy`` bot's network,
#: always), ``policy-small`` (the small network, refused where none is shipped).
LEARNED = ("policy", "policy-full", "policy-small")
#: What an illegal action does (as :data:`atout.envs.single_agent.ILLEGAL_ACTIONS`).
ILLEGAL_ACTIONS = ("raise", "penalty", "substitute")

ObsType = dict[str, NDArray[Any]]
IntArray = NDArray[np.intp]
BoolArray = NDArray[np.bool_]

#: The autoreset modes offered (``autoreset_mode=``: the mode, or its name: ``"next_step"``, ``"same_step"``).
AUTORESET_MODES = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)


def _autoreset_mode(value: AutoresetMode | str) -> AutoresetMode:
    """``autoreset_mode=`` read: an :class:`AutoresetMode`, its name or value in any case (``"next_step"``, ``"NextStep"``)."""
    for mode in AUTORESET_MODES:
        if value == mode or (isinstance(value, str) and value.replace("_", "").lower() == mode.value.lower()):
            return mode
    names = ", ".join(repr(m.name.lower()) for m in AUTORESET_MODES)
    raise ValueError(f"autoreset_mode must be one of {names} (or the AutoresetMode), not {value!r}")


FloatArray = NDArray[np.float32]


class BatchPolicy(Protocol):
    """An opponent of your own for the vector env: called once a step with the tensors of every
    env in which its seats are to act, each from that seat's view (``(B, size)`` float32, the
    env's ``tensor``), and their legal masks (``(B, num_actions)`` bool); answers ``(B,)``
    legal action ids.  One call for all of them: a network answers them in one forward pass
    (:class:`atout.envs.sb3.SB3Policy` wraps a Stable-Baselines3 model so, for self-play and
    leagues)."""

    def __call__(self, observations: FloatArray, masks: BoolArray, /) -> Any: ...


def set_blas_threads(threads: int) -> None:
    """Limit numpy's BLAS to ``threads`` threads, for the whole process (threadpoolctl).

    Why: a learned opponent's decision is a few matrix products, and OpenBLAS starts one thread per
    core for each; with the batch's own numpy work in between, on a machine whose cores are
    shared (a laptop, a CI runner, several envs at once) the threads wait on each other: at 64
    envs a step took 30 times longer with OpenBLAS's default than with one thread (issue 49).
    One thread is the default of the vector env with learned opponents; run several envs in
    processes to use more cores.  threadpoolctl is the maintained way to set it after numpy is
    imported (``OPENBLAS_NUM_THREADS`` must be set before).
    """
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=threads, user_api="blas")


def learned_model(game: Game, name: str) -> PolicyModel:
    """The shipped network a learned opponent's name (:data:`LEARNED`) stands for in ``game``.

    Why ``policy`` is the small network where one is shipped: the vector env's step with learned
    opponents is bound by the network's first layer (bench/RESULTS.md, issue 49), and the small
    network, distilled from the big one on its own decisions, plays as it does (its margin against
    three big ones, duplicate deals, 95 % interval, includes 0: docs/research.md).  The bots'
    ``policy`` level keeps the big network (a decision costs a table nothing either way).
    """
    small = shipped_small_model(game) if name != "policy-full" else None
    if small is not None:
        return small
    if name == "policy-small":
        raise ModelMismatch(f"atout ships no small network of {game.name} at {game.players} players")
    return shipped_model(game)


def _pick(x: FloatArray | SparseTensor, rows: IntArray) -> FloatArray | SparseTensor:
    """Some rows of dense or sparse tensors."""
    return x[rows] if isinstance(x, np.ndarray) else x.select(rows)


class AtoutVectorEnv(VectorEnv[ObsType, NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` matches of one batch, the agent at ``seat`` in each (see the module docstring).

    ``batch``: a batch class (``WizardBatch``, ...) or an atout game name;
    ``opponents``: one policy for every other seat or one per other seat,
    in seat order: ``random``, ``heuristic``, ``policy`` (the learned network
    shipped for the game and player count: the small one distilled from the ``policy`` bot's where
    one is shipped, :func:`learned_model`), ``policy-full`` (the ``policy`` bot's network),
    ``policy-small``, ``net:PATH`` (a network trained
    with ``atout train``: a frozen snapshot of your learner, say) or a callable
    (:class:`BatchPolicy`: your own network, an SB3 model through
    :class:`atout.envs.sb3.SB3Policy`), asked once a step for all its rows; ``autoreset_mode``: ``NEXT_STEP`` (default) or
    ``SAME_STEP``; ``start_round``: the round every match starts at (an int,
    the engine's option) or ``"random"`` (each match at a round drawn from
    ``np_random`` among the batch's :meth:`~atout.batch.base.BatchBase.start_rounds`);
    ``stagger`` (default True): after a reset, each env's first match starts at a round
    drawn from ``np_random`` (as ``start_round="random"``), every later one whole, so that the
    envs' matches do not end in lockstep (whole Wizard matches all have the same length);
    False: every env starts at the configuration's first round, in lockstep (as with a
    ``start_round`` given: then every match starts there);
    ``blas_threads``: with learned opponents, numpy's BLAS threads for the process
    (:func:`set_blas_threads`; None leaves them as they are);
    ``options``: the game's other options (validated by the engine).
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012  (gymnasium declares it so)
    #: Learned opponents read the batch's sparse tensors (their first layer adds only the weight rows
    #: of the non-zero inputs); False: the dense tensors and product, as before (bench/vector_env.py's
    #: A/B, and the tests that compare the two).
    sparse_inputs: bool = True
    #: The observations' two arrays are views of one fresh (N, flatdim) float32 array a step, laid
    #: out as gymnasium's ``FlattenObservation`` flattens the ``Dict`` (the entry ``observation``
    #: then strided, not contiguous; the same values).  Set by
    #: :class:`atout.envs.vector_wrappers.FlattenObservation` when it wraps this env directly:
    #: it then returns that array as it is instead of copying both into a new one (at 8,192 envs
    #: the copy was 125 MB a step).
    flat_observations: bool = False
    #: The observation is returned as a :class:`~atout.batch.common.SparseTensor` (its non-zero
    #: entries, no (N, size) array at all) beside the dense mask: set by
    #: :class:`atout.envs.vector_wrappers.NormalizeObservation` over atout's ``FlattenObservation``
    #: directly over this env, which writes the whole normalised array itself (at 8,192 envs the
    #: env's fresh 125 MB of zeros was half a step, and the normalisation overwrote every value).
    #: The ``Dict`` is then not one of the observation space: only that wrapper pair reads it.
    sparse_observations: bool = False
    #: Learned opponents' tensors and heuristic prior are written for the matches they answer only
    #: (``batch.subset``); False: for the whole batch, then those rows picked, as before (the A/B of
    #: bench/vector_env.py, and the tests that compare the two).
    subset_rows: bool = True
    #: Learned opponents (the shipped or saved networks, :class:`~atout.bots.learned.PolicyModel`) play a
    #: forced move (one legal action) without asking the network: its greedy answer is that action
    #: whatever the logits (the others are masked to -inf), so the rows it answers are the choices
    #: only (Wizard: about a fifth fewer; the batch's ``forced_actions``).  False: every row through
    #: the network, as before (the A/B of bench/vector_env.py, and the test that compares the two).
    skip_forced: bool = True

    def __init__(
        self,
        batch: type[Batch] | str,
        num_envs: int,
        players: int = 4,
        *,
        seat: int = 0,
        opponents: str | BatchPolicy | Sequence[str | BatchPolicy] = "random",
        tensor: str = "information_state",
        reward: str = "round",
        illegal_action: str = "raise",
        illegal_penalty: float | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        start_round: int | str | None = None,
        engine_random: bool = False,
        blas_threads: int | None = 1,
        stagger: bool = True,
        **options: Any,
    ) -> None:
        cls = batch_class(batch) if isinstance(batch, str) else batch
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        if "active" not in inspect.signature(cls.step).parameters:
            raise TypeError(
                f"{cls.__name__}.step takes no 'active' mask: the vector env holds the matches that wait "
                f"for the agent with it (see atout.batch.common.Batch)"
            )
        self.autoreset_mode = _autoreset_mode(autoreset_mode)
        if not isinstance(engine_random, bool):
            raise ValueError(f"engine_random must be True or False, not {engine_random!r}")
        #: ``random`` opponents draw as the single-agent env's RandomBot (see the module docstring).
        self.engine_random = engine_random
        # Per instance: the wrappers read the mode from env.metadata.
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        #: Each match at a random start round (``start_round="random"``).
        self.random_start = start_round == "random"
        if not isinstance(stagger, bool):
            raise ValueError(f"stagger must be True or False, not {stagger!r}")
        #: The first match of each env after a reset starts at a random round, the later ones whole.
        self.stagger = stagger and start_round is None  # a round asked for is every match's
        if isinstance(start_round, str) and not self.random_start:
            raise ValueError(f"start_round must be a round number or 'random', not {start_round!r}")
        if start_round is not None and not self.random_start:
            options["start_round"] = start_round
        self._cls = cls
        self._options = options
        probe = cls(players, [0], **options)  # validates the players and the options
        game = probe.game
        self._start_rounds = probe.start_rounds()
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, not {seat!r}")
        given = (
            [opponents] * (players - 1)
            if isinstance(opponents, str) or callable(opponents)
            else list(opponents)
        )
        if len(given) != players - 1:
            raise ValueError(f"{players - 1} opponents needed, got {len(given)}")
        #: Learned opponents by name: :data:`LEARNED` (the models shipped for the game), ``net:PATH``, or
        #: ``callable:K`` for the K-th distinct callable given (an SB3 model, your own network).
        self._models: dict[str, PolicyModel | BatchPolicy] = {}
        #: Each learned model's reused layer outputs (its forward pass writes no new arrays a step).
        self._buffers: dict[str, ForwardBuffers] = {}
        names: list[str] = []
        for entry in given:
            if not isinstance(entry, str):
                if not callable(entry):
                    raise ValueError(f"an opponent is a name or a callable policy, not {entry!r}")
                key = next(
                    (k for k, m in self._models.items() if m is entry), f"callable:{len(self._models)}"
                )
                self._models[key] = entry
                names.append(key)
                continue
            name = entry
            names.append(name)
            if name in LEARNED or name.startswith("net:"):
                try:
                    model = (
                        PolicyModel.load(name[4:]) if name.startswith("net:") else learned_model(game, name)
                    )
                    model.check(game)
                except ModelMismatch as error:
                    raise ValueError(f"opponent {name!r}: {error}") from None
                self._models[name] = model
                continue
            check_choice("opponents", name, (*POLICIES, *LEARNED, "net:PATH"))
            if name == "heuristic" and not hasattr(probe, "heuristic_actions"):
                raise ValueError(f"the {game.name} batch has no heuristic policy (use 'random')")
        if blas_threads is not None and (
            isinstance(blas_threads, bool) or not isinstance(blas_threads, int) or blas_threads < 1
        ):
            raise ValueError(f"blas_threads must be a positive integer or None, not {blas_threads!r}")
        if self._models and blas_threads is not None:
            set_blas_threads(blas_threads)
        self.illegal_action = check_choice("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        self.illegal_penalty = check_illegal_penalty(illegal_penalty, self.illegal_action, game)
        self.tensor = check_choice("tensor", tensor, TENSORS)
        self.reward_mode = check_choice("reward", reward, REWARDS)
        self.game = game
        self.players = players
        self.seat = seat
        self.num_envs = num_envs
        self.opponent_names = names
        #: The policy of each seat (the agent's seat's entry is never asked).
        others = [s for s in range(players) if s != seat]  # in seat order, as AtoutGymEnv's opponents
        by_seat = dict(zip(others, names, strict=True))
        self._policy = [by_seat.get(s, names[0]) for s in range(players)]
        #: Each seat's learned model, as its index in ``_models`` (-1: not a learned opponent).
        order = list(self._models)
        self._model_code = np.array(
            [
                order.index(self._policy[s]) if s != seat and self._policy[s] in self._models else -1
                for s in range(players)
            ],
            dtype=np.intp,
        )
        size = (
            game.observation_tensor_size()
            if tensor == "observation"
            else game.information_state_tensor_size()
        )
        self.single_observation_space = observations = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
            }
        )
        #: Each entry's columns in the flattened observation (gymnasium's order: the ``Dict``'s
        #: keys), and ``"end"``: all of them (:attr:`flat_observations`).
        self._flat_columns: dict[str, slice] = {}
        at = 0
        for key, space in observations.items():
            width = int(np.prod(space.shape or ()))
            self._flat_columns[key] = slice(at, at + width)
            at += width
        self._flat_columns["end"] = slice(0, at)
        self.single_action_space = spaces.Discrete(game.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.batch: Batch | None = None
        N = num_envs
        #: The agent has not moved yet in the env's match: what it earns meanwhile waits in ``_pending``.
        self._first = np.ones(N, dtype=bool)
        self._pending = np.zeros(N, dtype=np.float64)
        self._returned = np.zeros(N, dtype=np.float64)
        self._start = np.zeros(N, dtype=np.float64)
        #: The agent's score at the last ``round`` payment (as RoundRewards.paid).
        self._paid = np.zeros(N, dtype=np.float64)
        #: NEXT_STEP: the env's episode ended with the last step; the next step resets it.
        self._done = np.zeros(N, dtype=bool)
        #: ``engine_random``: each env's random opponents' generators, by seat (as RandomBot's).
        self._bot_rngs: list[dict[int, random.Random]] = [{} for _ in range(N)]

    # -- policies -------------------------------------------------------------------------
    def _policy_actions(self, batch: Batch) -> IntArray:
        """The built-in policies' action in every match (for the seat to act there)."""
        wanted = set(self._policy)
        found: dict[str, IntArray] = {}
        if "random" in wanted:
            found["random"] = (
                self._engine_random_actions(batch)
                if self.engine_random
                else batch.random_actions(self.np_random)
            )
        if "heuristic" in wanted or (
            not self.subset_rows
            and any(isinstance(m, PolicyModel) and m.prior_weight is not None for m in self._models.values())
        ):
            found["heuristic"] = batch.heuristic_actions()
        if self._models:
            found.update(self._learned_actions(batch, found.get("heuristic")))
        if len(wanted) == 1:
            return found[next(iter(wanted))]
        if len(found) == 1:
            return next(iter(found.values()))
        seat = np.maximum(batch.current_player, 0)
        by_seat = np.stack([found[self._policy[s]] for s in range(self.players)], axis=1)
        result: IntArray = by_seat[np.arange(self.num_envs), seat]
        return result

    def _learned_actions(self, batch: Batch, heuristic: IntArray | None) -> dict[str, IntArray]:
        """Learned opponents' actions: greedy, on the view of the seat to act, for the matches where a
        learned seat is to act only (elsewhere -1: those matches are held or another policy moves).

        Why this shape: every row the network must answer, in every env, goes through one matrix
        product per layer (one per model when seats hold different models), and no row that does
        not need it: at 4 players about half of the matches wait for the agent at each opponent
        step.  The rows' tensors and heuristic prior are written for those rows alone
        (``batch.subset``, :attr:`subset_rows`): writing them for the whole batch cost more than
        the network (bench/vector_env.py).  ``heuristic``: the whole batch's heuristic actions
        when a heuristic seat asked for them already (else computed here for the rows).
        """
        player = batch.current_player
        code = self._model_code[np.maximum(player, 0)]
        rows = np.flatnonzero((player >= 0) & (player != self.seat) & ~batch.terminal & (code >= 0))
        found = {name: np.full(self.num_envs, -1, dtype=np.intp) for name in self._models}
        if not rows.size:
            return found
        code = code[rows]
        forced = getattr(batch, "forced_actions", None)
        if (
            self.skip_forced
            and forced is not None
            and all(isinstance(m, PolicyModel) for m in self._models.values())
        ):
            only = forced()[rows]
            single = only >= 0
            if single.any():
                for i, name in enumerate(self._models):
                    mine = single if len(self._models) == 1 else single & (code == i)
                    found[name][rows[mine]] = only[mine]
                rows, code = rows[~single], code[~single]
                if not rows.size:
                    return found
        tensors: dict[bool, FloatArray] = {}
        sparse: list[SparseTensor] = []  # written once a step, if asked
        everyone = rows.size == self.num_envs  # rows is then arange(N)
        # The matches to answer, alone (their tensors and prior, no other match's).
        part = batch if everyone or not self.subset_rows else batch.subset(rows)
        # The rows' legal masks: the subset's own (the same values, tested), which the heuristic's
        # prior then reads from the subset's cache, rather than the whole batch's then picked.
        mask = part.legal_mask() if part is not batch or everyone else batch.legal_mask()[rows]

        def picked(x: Any) -> Any:
            """The rows of something written for ``part``: all of it when ``part`` is just the rows."""
            return x if part is not batch or everyone else _pick(x, rows)

        def sparse_rows() -> SparseTensor:
            """The rows' information-state tensors as compressed rows, for the networks: their first
            layer adds the weight rows of the non-zero inputs only (``PolicyModel``'s sparse path)."""
            if not sparse:
                sparse.append(picked(part.sparse_tensor(information_state=True)))
            return sparse[0]

        def tensor(information_state: bool) -> FloatArray:
            """The rows' tensors from the seat to act's view, written once per kind a step."""
            if information_state not in tensors:
                tensors[information_state] = picked(
                    part.observation_tensor(information_state=information_state, dtype=np.float32)
                )
            return tensors[information_state]

        if heuristic is None and any(
            isinstance(m, PolicyModel) and m.prior_weight is not None for m in self._models.values()
        ):
            heuristic_rows = picked(part.heuristic_actions())
        else:
            heuristic_rows = None if heuristic is None else heuristic[rows]

        for i, (name, model) in enumerate(self._models.items()):
            mine = None if len(self._models) == 1 else np.flatnonzero(code == i)
            if mine is not None and not mine.size:
                continue
            if isinstance(model, PolicyModel):
                rows_x = sparse_rows() if self.sparse_inputs else tensor(True)
                prior = None
                if model.prior_weight is not None:
                    assert heuristic_rows is not None
                    prior = heuristic_rows if mine is None else heuristic_rows[mine]
                answer = model.best_actions(
                    rows_x if mine is None else _pick(rows_x, mine),
                    mask if mine is None else mask[mine],
                    prior,
                    self._buffers.setdefault(name, ForwardBuffers()),
                )
            else:
                # A callable sees what the agent sees: the env's tensor (and the legal masks).
                x = tensor(self.tensor == "information_state")
                legal = mask if mine is None else mask[mine]
                answer = np.asarray(model(x if mine is None else x[mine], legal)).astype(np.intp).reshape(-1)
                ok = (answer.shape == (len(legal),)) and bool(
                    ((answer >= 0) & (answer < legal.shape[1])).all()
                )
                if not ok or not legal[np.arange(len(legal)), answer].all():
                    raise ValueError(
                        f"opponent {name} answered {answer.tolist()[:8]}... for {len(legal)} rows: "
                        "it must answer one legal action id a row (the masks it is given)"
                    )
            found[name][rows if mine is None else rows[mine]] = answer
        return found

    def _engine_random_actions(self, batch: Batch) -> IntArray:
        """``random`` opponents as the single-agent env's: each seat's ``RandomBot`` generator, one draw a move.

        A Python loop over the matches whose random opponent is to act (only
        those: a draw is made for a move that is played, as the bot's is).
        """
        actions = np.full(self.num_envs, -1, dtype=np.intp)
        player = batch.current_player
        acting = np.flatnonzero((player >= 0) & (player != self.seat) & ~batch.terminal)
        if not acting.size:
            return actions
        mask = batch.legal_mask()
        for g in acting.tolist():
            rng = self._bot_rngs[g].get(int(player[g]))
            if rng is not None:
                actions[g] = rng.choice(np.flatnonzero(mask[g]).tolist())
        return actions

    def _seed_bots(self, batch: Batch, g: IntArray) -> None:
        """``engine_random``: the random opponents' generators of the new matches ``g``, seeded as the single env seeds its bots."""
        if not self.engine_random:
            return
        randoms = [s for s in range(self.players) if s != self.seat and self._policy[s] == "random"]
        for i in g.tolist():
            seed = batch.seeds[i]
            self._bot_rngs[i] = {s: random.Random(derive_seed(seed, "bot", s)) for s in randoms}

    # -- the episodes' bookkeeping ------------------------------------------------------------
    def _restart(
        self, batch: Batch, g: IntArray, seeds: Sequence[int] | None = None, anywhere: bool = False
    ) -> None:
        """New matches in the envs ``g``: ``seeds``, or the batch's next (dealt ahead), each at its start round
        (``anywhere``: a round drawn from ``np_random``, as with ``start_round="random"``).

        Their bookkeeping is cleared.
        """
        starts = None
        if self.random_start or anywhere:
            rounds = self._start_rounds
            starts = self.np_random.integers(rounds.start, rounds.stop, size=g.size)
        batch.restart(g, seeds, starts)
        self._seed_bots(batch, g)
        self._first[g] = True
        self._pending[g] = 0.0
        self._returned[g] = 0.0
        self._done[g] = False
        # A game may score before the first decision: the penalty's and the rewards' reference.
        self._start[g] = batch.scores[g, self.seat]
        self._paid[g] = batch.scores[g, self.seat]

    def _batch_step(
        self, batch: Batch, actions: IntArray, moving: BoolArray, reward: NDArray[np.float64]
    ) -> BoolArray:
        """One batch step of the matches ``moving``; pays or holds its rewards, returns the matches it ended.

        ``round`` rewards are :class:`atout.envs.common.RoundRewards`'s: when a
        round ends (``round`` changes, or the match ends), the agent's score
        change since the last payment — computed from the scores, not from the
        batch's ``Step.rewards``, so that every game's env pays what the
        single-agent env pays (a game may score before the first decision).
        What is earned before the agent's first move of a match is paid with
        that move (``_pending``).
        """
        seat = self.seat
        before = batch.round.copy()
        step = batch.step(actions, active=moving)
        ended: BoolArray = step.terminal & moving
        if self.reward_mode == "round":
            due = moving & ((batch.round != before) | ended)
            now = batch.scores[:, seat].astype(np.float64)  # no auto-reset: final scores stay
            earned = np.where(due, now - self._paid, 0.0)
            self._paid = np.where(due, now, self._paid)
            reward += np.where(self._first, 0.0, earned)
            self._pending += np.where(self._first, earned, 0.0)
        elif ended.any():
            scores = batch.scores[ended]
            if self.reward_mode == "match":
                reward[ended] += scores[:, seat]
            else:
                best = scores.max(axis=1, keepdims=True)
                winners = scores == best
                reward[ended] += np.where(winners[:, seat], 1.0 / winners.sum(axis=1), 0.0)
        return ended

    def _advance(self, batch: Batch, reward: NDArray[np.float64]) -> BoolArray:
        """Step the opponents until the agent is to act in every match not over; the matches that ended.

        A match that ends before the agent's first decision in it (a Le Nain
        Jaune deal the others finish, leaving the agent unable to stake) is no
        episode of the agent's: it is replaced at once by the env's next match,
        and what it paid is dropped (the agent could not have changed it).
        """
        ended = np.zeros(self.num_envs, dtype=bool)
        while True:
            moving = (batch.current_player != self.seat) & ~batch.terminal
            if not moving.any():
                break
            now = self._batch_step(batch, self._policy_actions(batch), moving, reward)
            skipped = now & self._first
            if skipped.any():
                self._restart(batch, np.flatnonzero(skipped))
            ended |= now & ~skipped
        return ended

    def _observe(self, batch: Batch) -> ObsType:
        info = self.tensor == "information_state"
        seats = np.full(self.num_envs, self.seat, dtype=np.intp)
        mask = self.action_masks()
        if self.sparse_observations:
            sparse = batch.sparse_tensor(seats, information_state=info, dtype=np.float32)
            return {"observation": sparse, "action_mask": mask.astype(np.int8)}  # type: ignore[dict-item]
        if not self.flat_observations:
            return {
                "observation": batch.observation_tensor(seats, information_state=info, dtype=np.float32),
                "action_mask": mask.astype(np.int8),
            }
        # One fresh (N, flatdim) float32 array in the flattened Dict's order, each entry a view of its
        # columns: what gymnasium's FlattenObservation would build, written once.
        columns = self._flat_columns
        flat = np.zeros((self.num_envs, columns["end"].stop), dtype=np.float32)
        flat[:, columns["action_mask"]] = mask
        tensor = batch.observation_tensor(
            seats, information_state=info, dtype=np.float32, out=flat[:, columns["observation"]]
        )
        return {"observation": tensor, "action_mask": mask.astype(np.int8)}

    def action_masks(self) -> BoolArray:
        """(num_envs, num_actions) bool: the actions each env accepts now (sb3-contrib's MaskablePPO calls this).

        The agent's legal actions; for an env whose episode ended with the last
        step (``NEXT_STEP``), every action: the next step resets it and ignores
        its action, and an all-False row would make a masked softmax undefined.
        """
        if self.batch is None:
            raise RuntimeError("call reset() before action_masks()")
        mask = self.batch.legal_mask()
        mask[self._done] = True
        return mask

    def _infos(self, batch: Batch, obs: ObsType, illegal: BoolArray) -> dict[str, Any]:
        every = np.ones(self.num_envs, dtype=bool)
        return {
            "action_mask": obs["action_mask"].copy(),
            "_action_mask": every,
            "scores": batch.scores.copy(),
            "_scores": every.copy(),
            "illegal_action": illegal,
            "_illegal_action": every.copy(),
            "match_seed": np.array(batch.seeds, dtype=np.int64),
            "_match_seed": every.copy(),
        }

    # -- Gymnasium API -------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsType, dict[str, Any]]:
        """Start ``num_envs`` new matches: seeds ``seed .. seed + num_envs - 1`` (drawn from ``np_random`` if None).

        ``options={"position": text}``: every env starts at the state that position describes
        (the game's notation, ``state.position()``), its hidden cards and later deals drawn from
        the env's seed (or all from the position's own ``seed=``); the matches that follow are
        the env's usual ones.  A position that does not parse or fit the game is a ValueError
        naming the field at fault.
        """
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise ValueError(f"a seed is a non-negative integer, not {seed!r}")
        position = reset_position(options)
        super().reset(seed=seed)
        base = seed if seed is not None else int(self.np_random.integers(1 << 62))
        N = self.num_envs
        # Later matches take the next seeds, counting on, dealt ahead by the batch in chunks.
        later = itertools.count(base + N)
        if position is not None:
            states = [start_state(self.game, base + i, position) for i in range(N)]
            self.batch = batch = self._cls.from_states(states, reset_seeds=later)
        else:
            self.batch = batch = self._cls(
                self.players, range(base, base + N), reset_seeds=later, **self._options
            )
        if (self.random_start or self.stagger) and position is None:
            # At random rounds: each match (start_round="random"), or each env's first (stagger).
            self._restart(batch, np.arange(N, dtype=np.intp), range(base, base + N), anywhere=True)
        else:
            self._seed_bots(batch, np.arange(N, dtype=np.intp))
            self._first[:] = True
            self._pending[:] = 0.0
            self._returned[:] = 0.0
            self._done[:] = False
            self._start[:] = batch.scores[:, self.seat]
            self._paid = self._start.copy()
        self._advance(batch, np.zeros(N))
        obs = self._observe(batch)
        return obs, self._infos(batch, obs, np.zeros(N, dtype=bool))

    def penalty(self) -> NDArray[np.float64]:
        """(N,) the reward an illegal action would get now in ``penalty`` mode (as the single-agent env's)."""
        if self.illegal_penalty is not None:
            return np.full(self.num_envs, self.illegal_penalty)
        bounds = self.game.score_bounds()
        assert bounds is not None  # checked at construction
        if self.reward_mode == "win":
            worst = np.zeros(self.num_envs)
        elif self.reward_mode == "match":
            worst = np.full(self.num_envs, float(bounds[0]))
        else:
            worst = float(bounds[0]) - self._start
        result: NDArray[np.float64] = worst - 1.0 - self._returned
        return result

    def step(
        self, actions: NDArray[np.int64] | Sequence[int]
    ) -> tuple[ObsType, NDArray[np.float64], BoolArray, BoolArray, dict[str, Any]]:
        batch = self.batch
        if batch is None:
            raise RuntimeError("call reset() before step()")
        N = self.num_envs
        a = np.asarray(actions)
        if a.shape != (N,) or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(
                f"actions must be {N} integer action ids (shape ({N},)), not {a.dtype} {a.shape}"
            )
        a = a.astype(np.intp)
        resetting = self._done.copy()  # NEXT_STEP: this step resets them; their actions are ignored
        mask = batch.legal_mask()
        inside = (a >= 0) & (a < self.game.num_actions)
        legal = inside & mask[np.arange(N), np.where(inside, a, 0)]
        illegal = ~legal & ~resetting
        reward = np.zeros(N, dtype=np.float64)
        terminated = np.zeros(N, dtype=bool)
        played = a.copy()
        penalised = np.zeros(N, dtype=bool)
        if illegal.any():
            g = int(np.flatnonzero(illegal)[0])
            if self.illegal_action == "raise":
                options = ", ".join(str(x) for x in np.flatnonzero(mask[g]).tolist())
                raise IllegalAction(
                    f"{int(illegal.sum())} env(s) given an illegal action, first env {g}: "
                    f"{int(a[g])} is not among its legal actions ({options}); nothing was applied",
                    int(a[g]),
                )
            if self.illegal_action == "penalty":
                reward[illegal] = self.penalty()[illegal]
                terminated |= illegal
                penalised = illegal  # the match is abandoned as it stands
            else:
                played = np.where(illegal, batch.random_actions(self.np_random), a)
        if resetting.any():
            self._restart(batch, np.flatnonzero(resetting))
        moving = ~resetting & ~penalised
        # What the opponents earned for the agent before its first move of a match is paid with that move.
        first = moving & self._first
        reward += np.where(first, self._pending, 0.0)
        self._pending[first] = 0.0
        self._first[moving] = False
        ended = self._batch_step(batch, played, moving, reward)
        ended |= self._advance(batch, reward)
        terminated |= ended
        final_scores = batch.scores.copy()
        over = np.flatnonzero(terminated)
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            if over.size:
                self._restart(batch, over)
                self._advance(batch, np.zeros(N))  # the new matches' early rewards wait in _pending
        else:
            self._done[over] = True
        self._returned += reward
        self._returned[terminated] = 0.0
        obs = self._observe(batch)
        infos = self._infos(batch, obs, illegal & (self.illegal_action != "raise"))
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            infos["scores"][terminated] = final_scores[terminated]
        if self.illegal_action == "substitute" and illegal.any():
            infos["played_action"] = played
            infos["_played_action"] = illegal.copy()
        if ended.any():
            infos["final_info"] = {
                "scores": np.where(ended[:, None], final_scores, 0),
                "_scores": ended.copy(),
            }
            infos["_final_info"] = ended.copy()
        return obs, reward, terminated, np.zeros(N, dtype=bool), infos

    @property
    def match_seeds(self) -> list[int]:
        """The seed of the match now played in each env (the engine's ``new_state(seed)``)."""
        return [] if self.batch is None else list(self.batch.seeds)


def make_vector_env(num_envs: int, name: str, players: int | None = None, **kwargs: Any) -> AtoutVectorEnv:
    """``gymnasium.make_vec`` entry point: ``AtoutVectorEnv(batch_class(name), num_envs, players, **kwargs)``."""
    cls = batch_class(name)
    if players is None:
        game_cls = game_class(name)
        players = min(max(4, game_cls.min_players), game_cls.max_players)
    if kwargs.pop("render_mode", None) is not None:
        raise ValueError("the batch vector env does not render (render_mode must be None)")
    return AtoutVectorEnv(cls, num_envs, players, **kwargs)
