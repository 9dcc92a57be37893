"""What every game's batch shares: the step result, the refusal, seeded shuffles, the auto-reset queue, the tensors' frame.

Why shared: each game's engine deals the same way — one ``random.Random``
shuffle per (seed, round), seeded from a text, plus a first-dealer draw — so
the vectorised reproduction (:mod:`.pyrandom`), its fallbacks and the
deal-ahead queue of auto-reset are written once.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, Self

import numpy as np
from numpy.typing import NDArray

from . import pyrandom

if TYPE_CHECKING:
    from ..core.game import Game

#: Seed texts dealt per vectorised pass (bounds the memory: 4 bytes per generator word).
DEAL_ROWS = 1 << 15
#: Below this many seed texts the Python generator is faster than the vectorised one.
VECTOR_MIN_ROWS = 256


class Step(NamedTuple):
    """What a batch's ``step`` returns.

    ``rewards``: (N, n) score deltas of the rounds (hands) scored by this step
    (0 where none ended), so they add up to the match scores; ``terminal``:
    (N,) the match ended with this step; ``scores``: (N, n) the match scores
    after the step — for a match that ended and was auto-reset, its final
    scores (the batch already holds the next match).
    """

    rewards: NDArray[np.int32]
    terminal: NDArray[np.bool_]
    scores: NDArray[np.int32]


class IllegalActions(ValueError):
    """Some matches were given an action their legal set does not hold (nothing was applied)."""


def words_for(size: int) -> int:
    """Generator outputs to compute per shuffle of ``size`` items.

    A shuffle draws ``size - 1`` values by rejection, about 1.45 outputs each;
    this leaves a margin that runs out about once in 10^4..10^5 shuffles (those
    rows are redone with ``random.Random``), within the 227 outputs one twist
    gives.
    """
    return min(pyrandom.MAX_OUTPUTS, 2 * size + 16)


def seeded_shuffles(
    shuffle_texts: Sequence[bytes], draw_texts: Sequence[bytes], size: int, draw_below: int
) -> tuple[NDArray[np.int8], NDArray[np.intp]]:
    """``Random(t).shuffle(list(range(size)))`` per shuffle text and ``Random(t).randrange(draw_below)`` per draw text.

    Returns ((size, len(shuffle_texts)) permutations, (len(draw_texts),) draws),
    exactly ``random.Random``'s: vectorised when there are enough texts, with
    ``random.Random`` itself for the rest and for the rows the vectorised
    generator cannot finish.
    """
    rows = len(shuffle_texts)
    texts = [*shuffle_texts, *draw_texts]
    if len(texts) < VECTOR_MIN_ROWS:
        decks = np.array([pyrandom.python_shuffle(t, size) for t in shuffle_texts], dtype=np.int8).T.reshape(
            size, rows
        )
        draws = np.array([pyrandom.python_randbelow(t, draw_below) for t in draw_texts], dtype=np.intp)
        return decks, draws.reshape(len(draw_texts))
    # Columns in the generator's key-length order; only the decks and draws are put back.
    order, words = pyrandom.outputs_in_key_order(texts, words_for(size))
    where = np.empty_like(order)
    where[order] = np.arange(order.size)
    shuffled, out = pyrandom.shuffle_indices(words, size)
    decks = shuffled[:, where[:rows]]
    for row in np.flatnonzero(out[where[:rows]]).tolist():
        decks[:, row] = pyrandom.python_shuffle(shuffle_texts[row], size)
    draws = np.zeros(len(draw_texts), dtype=np.intp)
    if draw_texts:
        values, out = pyrandom.randbelow(words, np.zeros(order.size, dtype=np.intp), draw_below)
        draws = values[where[rows:]]
        for g in np.flatnonzero(out[where[rows:]]).tolist():
            draws[g] = pyrandom.python_randbelow(draw_texts[g], draw_below)
    return decks, draws


def shuffles_and_first_dealers(
    shuffle_texts: Sequence[bytes], seeds: Sequence[int], size: int, game: Game
) -> tuple[NDArray[np.int8], NDArray[np.intp]]:
    """The decks of ``shuffle_texts`` (as :func:`seeded_shuffles`) and the first dealer of each match ``seeds``.

    The first dealer is the ``first_dealer`` option when it is set, else the
    engine's draw ``seeded_rng(seed, "first-dealer").randrange(players)``,
    drawn in the same vectorised pass as the shuffles (each column gets
    enough generator outputs for a shuffle of ``size``).
    """
    fixed = game.options["first_dealer"]
    draws = [b"%d:first-dealer" % s for s in seeds] if fixed is None else []
    decks, first = seeded_shuffles(shuffle_texts, draws, size, game.players)
    if fixed is not None:
        first = np.full(len(seeds), fixed, dtype=np.intp)
    return decks, first


def turn_seats(hands: NDArray[Any], drawn: NDArray[np.intp], first: NDArray[np.intp]) -> NDArray[Any]:
    """Deals by absolute seat, ``hands`` (G, rounds, n, ...), made for the first dealer ``first`` instead of ``drawn``.

    Why: a match's round ``r`` is dealt from its seed to the seats in order
    from that round's dealer; a state loaded into a batch (or reseeded) may
    have another dealer than the seed's first-dealer draw names, and the
    engine deals its rounds to come from the dealer it has.  The same hands,
    each moved ``first - drawn`` seats on.
    """
    n = hands.shape[2]
    shift = (first - drawn) % n
    seat = (np.arange(n)[None, :] - shift[:, None]) % n  # (G, n): whose deal each seat gets
    index = seat.reshape(seat.shape[0], 1, n, *([1] * (hands.ndim - 3)))
    result: NDArray[Any] = np.take_along_axis(hands, index, axis=2)
    return result


Arrays = tuple[NDArray[Any], ...]


def in_chunks(seeds: Sequence[int], per_chunk: int, deal: Callable[[Sequence[int]], Arrays]) -> Arrays:
    """``deal(seeds)`` in passes of ``per_chunk`` matches, concatenated (memory stays bounded)."""
    if len(seeds) <= per_chunk:
        return deal(seeds)
    parts = [deal(seeds[i : i + per_chunk]) for i in range(0, len(seeds), per_chunk)]
    return tuple(np.concatenate(column) for column in zip(*parts, strict=True))


class SeedQueue:
    """The seeds of the matches auto-reset will start, dealt ahead in chunks.

    Why ahead: a vectorised deal has a fixed cost of a few milliseconds however
    few matches it deals, while matches end a few at a time.  ``deal(seeds)``
    returns arrays whose first axis is the match.
    """

    def __init__(self, seeds: Iterator[int], deal: Callable[[Sequence[int]], Arrays], chunk: int) -> None:
        self.seeds = seeds
        self.deal = deal
        self.chunk = chunk
        self.pending: list[int] = []
        self.deals: Arrays | None = None
        self.at = 0

    def take(self, count: int) -> tuple[list[int], Arrays] | None:
        """Up to ``count`` next seeds with their deals (fewer when the seeds run out; None when none are left)."""
        if self.deals is None or self.at + count > len(self.pending):
            rest = self.pending[self.at :]
            fresh = [int(s) for s in itertools.islice(self.seeds, max(self.chunk, count))]
            if not rest and not fresh:
                return None
            parts: list[Arrays] = []
            if self.deals is not None and rest:
                parts.append(tuple(a[self.at :] for a in self.deals))
            if fresh:
                parts.append(self.deal(fresh))
            self.deals = tuple(np.concatenate(column) for column in zip(*parts, strict=True))
            self.pending = rest + fresh
            self.at = 0
        end = min(self.at + count, len(self.pending))
        out = self.pending[self.at : end], tuple(a[self.at : end] for a in self.deals)
        self.at = end
        return out


class SparseTensor(NamedTuple):
    """(N, size) tensors as compressed rows (CSR): the non-zero values only, row by row.

    Why: the information-state tensors are wide and nearly empty (Wizard's:
    3,739 values, 20–80 of them non-zero), and what reads them first is a
    network's dense first layer.  Row ``i``'s values are ``values[indptr[i]:
    indptr[i + 1]]`` at the columns ``indices[...]`` (ascending).  Written by
    :meth:`atout.batch.base.BatchBase.sparse_tensor` straight from the game's
    encoder (no dense array, no scan for the non-zeros).
    """

    indptr: NDArray[np.intp]
    indices: NDArray[np.intp]
    values: NDArray[np.floating[Any]]
    shape: tuple[int, int]

    def toarray(self) -> NDArray[np.floating[Any]]:
        """The dense (N, size) array (what ``observation_tensor`` returns)."""
        out = np.zeros(self.shape, dtype=self.values.dtype)
        rows = np.repeat(np.arange(self.shape[0]), np.diff(self.indptr))
        out[rows, self.indices] = self.values
        return out

    @classmethod
    def from_dense(cls, x: NDArray[Any], dtype: Any = np.float32) -> SparseTensor:
        """The non-zero entries of a dense (N, size) array (an action mask, say), as ``dtype``."""
        rows, columns = np.nonzero(x)
        indptr = np.zeros(x.shape[0] + 1, dtype=np.intp)
        np.cumsum(np.bincount(rows, minlength=x.shape[0]), out=indptr[1:])
        return cls(indptr, columns.astype(np.intp), x[rows, columns].astype(dtype), (x.shape[0], x.shape[1]))

    @classmethod
    def hstack(cls, parts: Sequence[SparseTensor]) -> SparseTensor:
        """The parts side by side (``np.hstack`` of their dense arrays): each row's entries part after
        part, so its columns stay ascending."""
        count = parts[0].shape[0]
        if any(part.shape[0] != count for part in parts):
            raise ValueError(f"parts of {[p.shape[0] for p in parts]} rows cannot stand side by side")
        lengths = [np.diff(p.indptr) for p in parts]
        indptr = np.zeros(count + 1, dtype=np.intp)
        np.cumsum(sum(lengths), out=indptr[1:])
        total = int(indptr[-1])
        indices = np.empty(total, dtype=np.intp)
        values = np.empty(total, dtype=np.result_type(*(p.values for p in parts)))
        row_at = indptr[:-1].copy()  # where each row's entries of the next part go
        column = 0
        for part, length in zip(parts, lengths, strict=True):
            to = np.repeat(row_at - part.indptr[:-1], length) + np.arange(int(part.indptr[-1]))
            indices[to] = part.indices + column
            values[to] = part.values
            row_at += length
            column += part.shape[1]
        return cls(indptr, indices, values, (count, column))

    def select(self, rows: NDArray[np.intp]) -> SparseTensor:
        """The rows ``rows``, in that order (as ``dense[rows]``)."""
        begin = self.indptr[rows]
        lengths = self.indptr[rows + 1] - begin
        indptr = np.zeros(len(rows) + 1, dtype=np.intp)
        np.cumsum(lengths, out=indptr[1:])
        # Each picked entry's place in the source: its row's start plus its rank in the row.
        at = np.repeat(begin - indptr[:-1], lengths) + np.arange(int(indptr[-1]))
        return SparseTensor(indptr, self.indices[at], self.values[at], (len(rows), self.shape[1]))

    def dot(self, weight: NDArray[np.floating[Any]]) -> NDArray[np.floating[Any]]:
        """``dense @ weight``: (N, size) @ (size, k) → (N, k), adding only the weight rows of the non-zeros.

        Why scipy: the product wants a compiled loop over the non-zeros (numpy's
        fancy-index gathers of the weight rows cost as much as the dense product
        they replace, measured); scipy's CSR product is one.  Without scipy the
        dense product is used (the same result up to float rounding).
        """
        try:
            from scipy.sparse import csr_matrix
        except ImportError:  # pragma: no cover - scipy comes with the pettingzoo extra
            return self.toarray() @ weight
        product = _csr_product()
        if (
            product is not None
            and weight.ndim == 2
            and weight.flags.c_contiguous
            and weight.dtype == self.values.dtype
            and self.indices.dtype == self.indptr.dtype
        ):
            # The very loop ``csr_matrix @ weight`` runs (scipy's ``csr_matvecs``, into zeros), without
            # building the matrix and its checks around it: about 40 % of the product's time on the
            # vector env's ~500-row batches (the same sums in the same order: tested).
            rows, width = self.shape[0], weight.shape[1]
            out = np.zeros((rows, width), dtype=weight.dtype)
            product(
                rows,
                self.shape[1],
                width,
                self.indptr,
                self.indices,
                self.values,
                weight.ravel(),
                out.ravel(),
            )
            return out
        matrix = csr_matrix((self.values, self.indices, self.indptr), shape=self.shape)
        result: NDArray[np.floating[Any]] = np.asarray(matrix @ weight)
        return result


#: The name of scipy's private CSR × dense loop (tests point it elsewhere).
_CSR_LOOP = "csr_matvecs"


@functools.cache
def _csr_product() -> Callable[..., None] | None:
    """scipy's compiled CSR × dense loop (``scipy.sparse._sparsetools.csr_matvecs``), or None where this
    scipy has no such private function, or one that does not answer a small product as
    ``csr_matrix`` does (a private function may change with scipy's versions): then
    :meth:`SparseTensor.dot` builds a ``csr_matrix``."""
    try:
        from scipy.sparse import _sparsetools
    except ImportError:  # pragma: no cover - scipy comes with the pettingzoo extra
        return None
    found: Callable[..., None] | None = getattr(_sparsetools, _CSR_LOOP, None)
    if found is None:
        return None
    # Checked once on a product with the cases the vector env meets (an empty row, a column hit
    # by two rows, a weight of several columns), in float32 as the networks' weights, against
    # numpy's dense product (exact here: small binary fractions).
    indptr = np.array([0, 2, 2, 3], dtype=np.int32)
    indices = np.array([0, 2, 2], dtype=np.int32)
    values = np.array([1.5, -2.0, 0.25], dtype=np.float32)
    weight = np.arange(6, dtype=np.float32).reshape(3, 2)
    dense = np.zeros((3, 3), dtype=np.float32)
    dense[[0, 0, 2], indices] = values
    out = np.zeros((3, 2), dtype=np.float32)
    try:
        found(3, 3, 2, indptr, indices, values, weight.ravel(), out.ravel())
    except Exception:  # another scipy's signature
        return None
    return found if np.array_equal(out, dense @ weight) else None


class _SparseOut:
    """Stands for ``TensorFrame.out`` when the frame is sparse: each write ``out[key] = value`` is
    recorded as (rows, columns, values) of its non-zero values, with numpy's indexing rules.

    Why it works for every encoder unchanged: the key is applied to two zero-stride arrays
    holding each cell's row and column, so a slice, an integer, a boolean or an integer
    array select exactly the cells numpy would write.  The encoders only write (never read)
    their frame, into zeros: a later write to a cell replaces an earlier one
    (:meth:`tensor` keeps the last), and a zero written is no entry.
    """

    def __init__(self, count: int, size: int) -> None:
        self.shape = (count, size)
        self.parts: list[tuple[NDArray[np.intp], NDArray[np.intp], NDArray[Any]]] = []

    # Made at the first write: a game's direct sparse encoder (Wizard's) makes a frame a call and
    # writes none (the vector env's learned opponents, several calls a step).
    @functools.cached_property
    def row_of(self) -> NDArray[np.intp]:
        """Each cell's row (a zero-stride view)."""
        return np.broadcast_to(np.arange(self.shape[0], dtype=np.intp)[:, None], self.shape)

    @functools.cached_property
    def column_of(self) -> NDArray[np.intp]:
        """Each cell's column (a zero-stride view)."""
        return np.broadcast_to(np.arange(self.shape[1], dtype=np.intp)[None, :], self.shape)

    def __setitem__(self, key: Any, value: Any) -> None:
        self.record(self.row_of[key], self.column_of[key], value)

    def record(self, rows: NDArray[np.intp], columns: NDArray[np.intp], value: Any) -> None:
        values = np.broadcast_to(np.asarray(value), rows.shape)
        if values.ndim == 0 or values.strides == (0,) * values.ndim:  # one value for every cell (1.0, mostly)
            if values.size and values.reshape(-1)[0] != 0:
                self.parts.append((rows, columns, values))
            return
        keep = values != 0
        if keep.all():
            self.parts.append((rows, columns, values))
        else:
            self.parts.append((rows[keep], columns[keep], values[keep]))

    def columns(self, at: int, size: int) -> _SparseColumns:
        return _SparseColumns(self, at, size)

    def tensor(self, dtype: type[np.floating[Any]]) -> SparseTensor:
        """The recorded writes as a :class:`SparseTensor` (the last write to a cell wins, as in numpy)."""
        count, size = self.shape
        if self.parts:
            rows = np.concatenate([p[0].reshape(-1) for p in self.parts])
            columns = np.concatenate([p[1].reshape(-1) for p in self.parts])
            values = np.concatenate([p[2].reshape(-1).astype(dtype) for p in self.parts])
        else:
            rows = columns = np.zeros(0, dtype=np.intp)
            values = np.zeros(0, dtype=dtype)
        order = np.argsort(rows * size + columns, kind="stable")  # stable: writes to a cell in order
        rows, columns, values = rows[order], columns[order], values[order]
        last = np.ones(len(rows), dtype=bool)
        last[:-1] = (rows[1:] != rows[:-1]) | (columns[1:] != columns[:-1])
        rows, columns, values = rows[last], columns[last], values[last]
        indptr = np.zeros(count + 1, dtype=np.intp)
        np.cumsum(np.bincount(rows, minlength=count), out=indptr[1:])
        return SparseTensor(indptr, columns, values, self.shape)


class _SparseColumns:
    """``frame.block(name, size)`` of a sparse frame: writes into it are the block's columns' writes."""

    def __init__(self, out: _SparseOut, at: int, size: int) -> None:
        self.out, self.at, self.size = out, at, size

    def __setitem__(self, key: Any, value: Any) -> None:
        where = (slice(None), slice(self.at, self.at + self.size))
        self.out.record(self.out.row_of[where][key], self.out.column_of[where][key], value)


class TensorFrame:
    """A batch's tensors in the making, in the engine's layout: what each game's encoder fills.

    Why one frame for every game: the block starts are read from the engine's
    layout (its ``blocks()``: (name, size) in order), so the batch encoders
    cannot drift apart from the engine's in where a block lies, only in its
    values (which the tests compare); the viewer seats are checked once; the
    seats are numbered from each match's viewer in the direction of play, as
    the engine's tensors number them.

    ``start[name]``: where block ``name`` starts; ``out``: the (N, size) zeros
    the encoder fills; ``rows``: ``arange(N)``; ``seats``: the (N,) viewers;
    ``step``: the direction of play (1, or -1 for counterclockwise play).
    """

    def __init__(
        self,
        layout: Iterable[tuple[str, int]],
        seats: NDArray[np.intp],
        count: int,
        players: int,
        dtype: type[np.floating[Any]],
        step: int = 1,
        sparse: bool = False,
        out: NDArray[np.floating[Any]] | None = None,
    ) -> None:
        """``seats``: the viewer of each of the ``count`` matches (refused unless one seat 0..players - 1 each);
        ``out``: the (count, size) zeros of ``dtype`` to fill (a dense frame's; by default a new array)."""
        checked = np.asarray(seats, dtype=np.intp)
        if checked.shape != (count,) or ((checked < 0) | (checked >= players)).any():
            raise ValueError(f"seats must be one seat 0..{players - 1} per match")
        self.start: dict[str, int] = {}
        at = 0
        for name, size in layout:
            self.start[name] = at
            at += size
        #: The tensors: an (N, size) array of zeros to fill, or with ``sparse`` a recorder of the
        #: writes (:class:`_SparseOut`: the same indexing, read back by :meth:`sparse_tensor`).
        self.out: Any
        if sparse:
            self.out = _SparseOut(count, at)
        elif out is None:
            self.out = np.zeros((count, at), dtype=dtype)
        else:
            if out.shape != (count, at) or out.dtype != dtype:
                raise ValueError(
                    f"out must be ({count}, {at}) {np.dtype(dtype)} zeros, not {out.dtype} {out.shape}"
                )
            self.out = out
        self.dtype = dtype
        self.rows = np.arange(count)
        self.seats = checked
        self.players = players
        self.step = step

    def rel(self, seat: NDArray[np.intp]) -> NDArray[np.intp]:
        """Seat numbers as each match's viewer sees them: 0 the viewer, then the seats in the direction of play.

        ``seat``: (N,) one seat per match, or (N, k) several.
        """
        base = self.seats if seat.ndim == 1 else self.seats[:, None]
        if self.step == 1:
            result: NDArray[np.intp] = (seat - base) % self.players
        else:
            result = ((seat - base) * self.step) % self.players
        return result

    def seat_blocks(self, **seats: NDArray[np.intp]) -> None:
        """Block ``name`` gets, per match, the one-hot of the seat ``seats[name]`` as its viewer numbers it.

        Nothing where that seat is negative (nobody: no one to act once a match is over, no card yet).
        """
        for name, seat in seats.items():
            at = self.start[name] + self.rel(seat)
            present = seat >= 0
            if present.all():
                self.out[self.rows, at] = 1.0
            else:
                self.out[self.rows[present], at[present]] = 1.0

    def block(self, name: str, size: int) -> Any:
        """The (N, size) columns of block ``name`` (a view: writing it fills the tensor)."""
        at = self.start[name]
        if isinstance(self.out, _SparseOut):
            return self.out.columns(at, size)
        return self.out[:, at : at + size]

    def dense(self) -> NDArray[np.floating[Any]]:
        """The filled (N, size) array (a dense frame's)."""
        assert isinstance(self.out, np.ndarray)
        return self.out

    def sparse_tensor(self) -> SparseTensor:
        """The filled tensors as compressed rows (a sparse frame's)."""
        assert isinstance(self.out, _SparseOut)
        return self.out.tensor(self.dtype)


class Batch(Protocol):
    """What every game's batch offers (``WizardBatch``, ``StichelnBatch``, ...): what :mod:`.vector` builds on.

    Constructor: ``Cls(players, seeds, *, auto_reset=False, reset_seeds=None,
    check=True, **options)``.  ``step(actions, active)``: only the matches in
    ``active`` (all when None) move; the others keep their state.
    ``from_states(states, *, seeds=None, check=True, reset_seeds=None)``: a batch of engine states
    (the vector env's ``reset`` at a position).
    ``restart(games, seeds, start_rounds)``: new matches in some entries only,
    each at its round of ``start_rounds()`` (the vector env resets its matches
    one by one so).  A game with a heuristic policy also has
    ``heuristic_actions() -> (N,) actions``; one may offer ``forced_actions() -> (N,)`` (each
    match's one legal action where it has exactly one, else -1: Wizard's), which the vector env's
    learned opponents then play without their network.
    """

    def __init__(
        self,
        players: int,
        seeds: Sequence[int] | NDArray[np.integer[Any]],
        *,
        auto_reset: bool = False,
        reset_seeds: Iterable[int] | None = None,
        check: bool = True,
        **options: Any,
    ) -> None: ...
    @classmethod
    def from_states(cls, *args: Any, **keywords: Any) -> Self: ...
    @classmethod
    def check_game(cls, game: Game) -> None: ...
    @property
    def game(self) -> Game: ...
    @property
    def num_games(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def seeds(self) -> list[int]: ...
    @property
    def current_player(self) -> NDArray[np.intp]: ...
    @property
    def round(self) -> NDArray[np.intp]: ...
    @property
    def scores(self) -> NDArray[np.int32]: ...
    @property
    def terminal(self) -> NDArray[np.bool_]: ...
    @property
    def start_round(self) -> NDArray[np.intp]: ...
    def legal_mask(self) -> NDArray[np.bool_]: ...
    def random_actions(self, rng: np.random.Generator) -> NDArray[np.intp]: ...
    def start_rounds(self) -> range: ...
    def restart(
        self,
        games: Sequence[int] | NDArray[np.intp],
        seeds: Sequence[int] | None = None,
        start_rounds: Sequence[int] | NDArray[np.intp] | None = None,
    ) -> None: ...
    def step(
        self, actions: Sequence[int] | NDArray[np.intp], active: NDArray[np.bool_] | None = None
    ) -> Step: ...
    def observation_tensor(
        self,
        seats: int | Sequence[int] | NDArray[np.intp] | None = None,
        *,
        information_state: bool = False,
        dtype: type[np.floating[Any]] = np.float32,
        out: NDArray[np.floating[Any]] | None = None,
    ) -> NDArray[np.floating[Any]]: ...
    def information_state_tensor(
        self,
        seats: int | Sequence[int] | NDArray[np.intp] | None = None,
        *,
        dtype: type[np.floating[Any]] = np.float32,
    ) -> NDArray[np.floating[Any]]: ...
    def sparse_tensor(
        self,
        seats: int | Sequence[int] | NDArray[np.intp] | None = None,
        *,
        information_state: bool = True,
        dtype: type[np.floating[Any]] = np.float32,
    ) -> SparseTensor: ...
    def heuristic_actions(self) -> NDArray[np.intp]: ...
    def subset(self, rows: Sequence[int] | NDArray[np.intp]) -> Self: ...
    @classmethod
    def has_playout_model(cls) -> bool: ...
    def playout_model_actions(self, rng: np.random.Generator) -> NDArray[np.intp]: ...
    def playout_model_probabilities(self, rows: NDArray[np.intp]) -> NDArray[np.float64]: ...
