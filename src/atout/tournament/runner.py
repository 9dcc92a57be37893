"""Scheduling and playing a tournament's matches: duplicate deals with seat rotation.

Every deal is a match seed (``derive_seed(seed, "deal", i)``: the same cards
whoever plays them) and is played once per rotation of the line-up around the
table, so each entrant sits in each seat on the same cards and luck of the deal
cancels out of the comparison.

A match is described by a small picklable :class:`MatchSpec` (game by name and
options, bot names, seeds) and played by :func:`run_match` in whatever process
gets it — a local process pool or a Ray worker — and its outcome depends on the
spec only (decision times aside), so every backend gives the same results.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots.factory import make_bot
from ..core.bot import Bot
from ..core.errors import AtoutError
from ..core.game import Game, State
from ..core.registry import load
from ..match import BotError, MatchResult, contract_lines, contracts_made, derive_seed, play_match


@dataclass(frozen=True)
class MatchSpec:
    """One match of a tournament: which deal, which rotation, who sits where."""

    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    deal: int
    rotation: int
    #: The deal's seed (the cards), shared by every rotation of the deal.
    seed: int
    #: Bot name per seat.
    seats: tuple[str, ...]
    #: Bot seed per seat.
    bot_seeds: tuple[int, ...]
    #: Whether the search levels keep their wall-clock caps (live play).  Off by default: a
    #: measurement must not depend on how busy the machine is (a cap that fires on a loaded
    #: machine quietly weakens hard and expert, and makes a seeded match irreproducible).
    caps: bool = False

    def load_game(self) -> Game:
        return load(self.game, self.players, **dict(self.options))


@dataclass
class MatchOutcome:
    """What a match gives the statistics (plain data: it crosses process boundaries)."""

    deal: int
    rotation: int
    seats: tuple[str, ...]
    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    rounds: int = 0
    #: Per seat: (contracts made, contracts played), when the score sheet shows bids and tricks.
    contracts: list[tuple[int, int]] | None = None
    #: Per seat, per round: tricks taken minus the contract (0 made, > 0 over, < 0 under),
    #: when the score sheet shows bids and tricks; None in logs written before it existed.
    overtricks: list[list[int]] | None = None
    #: Per seat, per round: the contract (the bid), alongside ``overtricks``.
    bids: list[list[int]] | None = None
    #: Per seat, seconds per decision (every decision, forced ones included).
    times: list[list[float]] = field(default_factory=list)
    #: Per seat, whether each decision had more than one legal action (aligned with ``times``).
    choice: list[list[bool]] = field(default_factory=list)
    #: Why the match was aborted (a bot's fault), or None when it was played out.
    error: str | None = None
    #: The deal's seed (its cards): two logs compare deal by deal only when these agree
    #: (None in logs written before it was kept).
    seed: int | None = None


def lineup(bots: Sequence[str], players: int) -> list[str]:
    """The entrants at the table: the bots given, the last one repeated to fill the seats.

    ``hard,heuristic`` at four seats is one ``hard`` against three ``heuristic``:
    the usual way to measure a candidate against a field of a reference bot.
    """
    names = [b.strip() for b in bots if b.strip()]
    if not names:
        raise ValueError("a tournament needs at least one bot")
    if len(names) > players:
        raise ValueError(f"{len(names)} bots for {players} seats: give at most {players}")
    return names + [names[-1]] * (players - len(names))


def schedule(
    game: Game, bots: Sequence[str], deals: int, seed: int, first_deal: int = 0, *, caps: bool = False
) -> list[MatchSpec]:
    """Every deal once per rotation: in rotation ``r`` seat ``s`` holds entrant ``(s + r) % n``.

    ``caps``: the search levels keep their wall-clock caps (see :attr:`MatchSpec.caps`).
    """
    if deals < 1:
        raise ValueError("deals must be at least 1")
    names = lineup(bots, game.players)
    n = game.players
    options = tuple(sorted(game.options.items()))
    specs = []
    for i in range(first_deal, first_deal + deals):
        deal_seed = derive_seed(seed, "deal", i)
        for r in range(n):
            seats = tuple(names[(s + r) % n] for s in range(n))
            bot_seeds = tuple(derive_seed(seed, "deal", i, "rotation", r, "seat", s) for s in range(n))
            specs.append(MatchSpec(game.name, n, options, i, r, deal_seed, seats, bot_seeds, caps))
    return specs


def run_match(spec: MatchSpec) -> MatchOutcome:
    """Play one scheduled match; a bot's fault aborts it (recorded in ``error``, not raised)."""
    outcome = MatchOutcome(spec.deal, spec.rotation, spec.seats, seed=spec.seed)
    game = spec.load_game()
    bots: list[Bot] = []
    choice: list[list[bool]] = [[] for _ in range(spec.players)]

    def note(state: State, actor: int, action: int) -> None:
        choice[actor].append(len(state.legal_actions()) > 1)

    try:
        for s, name in enumerate(spec.seats):
            bots.append(make_bot(name, game, spec.bot_seeds[s], caps=spec.caps))
        result = play_match(game, bots, spec.seed, on_action=note)
    except BotError as exc:
        outcome.error = str(exc)
        return outcome
    except AtoutError as exc:  # a bot that cannot even be built
        outcome.error = str(exc)
        return outcome
    finally:
        for bot in bots:
            bot.close()
    return record(outcome, result, choice)


def record(outcome: MatchOutcome, result: MatchResult, choice: list[list[bool]]) -> MatchOutcome:
    """``outcome`` filled from a finished match (``choice``: per seat, whether each decision had one).

    Also what a bench script that plays the ladder's matches its own way writes
    (bench/oracle.py), so its logs read as the ladder's.
    """
    state = result.state
    outcome.scores = state.scores()
    outcome.winners = state.winners()
    outcome.rounds = state.round
    lines = contract_lines(state)
    if lines is not None:
        outcome.bids, outcome.overtricks = lines
        outcome.contracts = contracts_made(outcome.overtricks)
    outcome.times = result.decision_times
    outcome.choice = choice
    return outcome


Progress = Callable[[MatchOutcome], None]


def run_local(
    specs: Sequence[MatchSpec], jobs: int = 1, on_done: Progress | None = None
) -> list[MatchOutcome]:
    """Play ``specs`` in ``jobs`` processes (in this process when 1); outcomes in schedule order."""
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    if jobs == 1:
        return _collect(specs, (run_match(s) for s in specs), on_done)
    # "spawn": workers start clean (no copy of this process's threads or locks).
    context = multiprocessing.get_context("spawn")
    with _single_threaded_math():
        pool = context.Pool(jobs)
    try:
        outcomes = _collect(specs, pool.imap_unordered(run_match, specs), on_done)
    except BaseException:
        # Interrupted (Ctrl-C, a bench's deadline): the matches in progress are dropped at once,
        # not waited for (a search match takes minutes).
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()
    return outcomes


#: The math libraries' thread counts, set to 1 in worker processes.
_MATH_THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


@contextlib.contextmanager
def _single_threaded_math() -> Iterator[None]:
    """Worker processes started here use one thread for numpy's matrix products.

    Why: the batch-engine search (``master``) multiplies matrices at every playout
    step; with several workers each starting one BLAS thread per core, the machine
    is oversubscribed and spin-waiting threads made a 2-worker Wizard tournament
    many times slower than one worker.  The workers are the parallelism.
    """
    saved = {name: os.environ.get(name) for name in _MATH_THREADS}
    os.environ.update(dict.fromkeys(_MATH_THREADS, "1"))
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def run_ray(
    specs: Sequence[MatchSpec], address: str | None = None, on_done: Progress | None = None
) -> list[MatchOutcome]:
    """Play ``specs`` as Ray tasks: on the cluster at ``address``, or a local Ray when None.

    Ray is imported here only (an optional extra: ``pip install 'atout[ray]'``).
    """
    try:
        import ray
    except ImportError as exc:  # pragma: no cover - ray is in the dev extra
        raise RuntimeError("the Ray backend needs ray: pip install 'atout[ray]'") from exc
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    try:
        task = ray.remote(run_match)
        pending = [task.remote(s) for s in specs]

        def results() -> Iterable[MatchOutcome]:
            waiting = list(pending)
            while waiting:
                done, waiting = ray.wait(waiting, num_returns=1)
                for ref in done:
                    yield ray.get(ref)

        return _collect(specs, results(), on_done)
    finally:
        if started:
            ray.shutdown()


def _collect(
    specs: Sequence[MatchSpec], outcomes: Iterable[MatchOutcome], on_done: Progress | None
) -> list[MatchOutcome]:
    """Outcomes put back in schedule order, whatever order they finished in."""
    by_key: dict[tuple[int, int], MatchOutcome] = {}
    for outcome in outcomes:
        by_key[(outcome.deal, outcome.rotation)] = outcome
        if on_done is not None:
            on_done(outcome)
    return [by_key[(s.deal, s.rotation)] for s in specs]
