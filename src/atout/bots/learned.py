"""Learned models at play time: numpy inference over a seat's view, and the ``policy`` bot.

Why numpy and not the training library: playing must never need PyTorch or
JAX (hundreds of megabytes, and nothing a family's laptop should install to
play cards); a small multi-layer perceptron is a few matrix products, which
numpy does in well under a millisecond.  The weights are trained by
:mod:`atout.learn` (``atout train``) and written here in one format:

* a ``.npz`` file holding the layers (``w0``, ``b0``, ``w1``, ``b1``, ...
  for the trunk, ``wp``/``bp`` for the policy head, ``wv``/``bv`` for the
  value head), stored as float16 to keep the shipped files small, and
* ``meta``: a JSON text saying what the model reads and answers — the game,
  the players, the **tensor layout** (the information-state blocks, from
  :meth:`atout.core.game.Game.tensor_blocks`) and a fingerprint of the
  action ids.  A model is used only where both match exactly: a model read
  with another layout would give answers that look fine and mean nothing, so
  a mismatch is refused with :class:`ModelMismatch`, naming what differs.

A bot using a model sees only its seat's view, as every bot does: the tensor
is written from the view (the same values the batch engine writes for that
seat), so a model cannot read a card its seat may not know.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ..core.bot import Bot
from ..core.errors import OptionError
from ..core.game import Game, View
from .path import bot_from_path

if TYPE_CHECKING:
    from ..batch.common import SparseTensor

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "ForwardBuffers",
    "ModelMismatch",
    "PolicyBot",
    "PolicyModel",
    "action_fingerprint",
    "model_meta",
    "shipped_model",
    "shipped_path",
    "shipped_small_model",
]

#: What a model file says it is, and the version of its layout of arrays and metadata.
FORMAT = "atout-policy"
FORMAT_VERSION = 1
#: Largest model file read (bytes): a model is a few MB; a bigger file is not one of ours.
MAX_MODEL_BYTES = 64 << 20

FloatArray = NDArray[np.float32]


class ModelMismatch(OptionError):
    """A model does not read this game's tensors or answer in its action ids (nothing is guessed)."""


def action_fingerprint(game: Game) -> str:
    """A short digest of every action id's text: the same ids mean the same actions.

    Why: the policy head answers in action ids; a game whose ids were
    renumbered (an option adding bids, a new action kind) must refuse the model.
    """
    texts = "\n".join(game.action_to_text(a) for a in range(game.num_actions))
    return hashlib.sha256(texts.encode()).hexdigest()[:16]


def layout_of(game: Game) -> list[list[Any]]:
    """The information-state layout as stored in a model's metadata (JSON lists)."""
    return [[name, size] for name, size in game.tensor_blocks(information_state=True)]


def model_meta(game: Game, training: dict[str, Any], value_scale: float = 1.0) -> dict[str, Any]:
    """A model's metadata for ``game``: what :meth:`PolicyModel.check` compares (game, players,
    tensor layout, action ids) and how it was made (``training``, free-form, for its card)."""
    return {
        "game": game.name,
        "players": game.players,
        "options": {k: v for k, v in game.options.items() if isinstance(v, (int, str, bool, float))},
        "layout": layout_of(game),
        "num_actions": game.num_actions,
        "actions": action_fingerprint(game),
        "value_scale": value_scale,
        "training": training,
    }


class ForwardBuffers:
    """Reused output arrays for :meth:`PolicyModel.best_actions`, one per layer, grown as needed.

    Why: the vector env's learned opponents answer about 500 rows at every opponent step at 1,024
    envs; each layer's fresh (rows, 256) float32 result is half a megabyte, which the allocator
    hands back to the system and takes again (page faults, zeroing) at every call.  A caller
    that asks again and again keeps one of these; the arrays returned are views of its storage,
    overwritten by the next call (the actions returned are new arrays).
    """

    def __init__(self) -> None:
        self._arrays: dict[int, FloatArray] = {}

    def take(self, layer: int, rows: int, width: int) -> FloatArray:
        """A C-contiguous (rows, width) float32 array for ``layer``'s output (its contents undefined)."""
        array = self._arrays.get(layer)
        if array is None or array.shape[0] < rows or array.shape[1] != width:
            array = np.empty(
                (max(rows, 1024 if array is None else 2 * array.shape[0]), width), dtype=np.float32
            )
            self._arrays[layer] = array
        return array[:rows]


@dataclass(frozen=True)
class PolicyModel:
    """A trained policy-and-value network, ready for numpy inference.

    ``trunk``: (weight, bias) per hidden layer (ReLU); ``policy`` and
    ``value``: the heads.  ``meta``: the model's metadata (game, players,
    layout, action fingerprint, how it was trained).  ``value_scale``: the
    value head predicts a seat's margin over the round divided by it.
    """

    meta: dict[str, Any]
    trunk: tuple[tuple[FloatArray, FloatArray], ...]
    policy: tuple[FloatArray, FloatArray]
    value: tuple[FloatArray, FloatArray]

    @property
    def game_name(self) -> str:
        return str(self.meta["game"])

    @property
    def players(self) -> int:
        return int(self.meta["players"])

    @property
    def value_scale(self) -> float:
        return float(self.meta.get("value_scale", 1.0))

    # -- reading and writing -------------------------------------------------------------
    @classmethod
    def load(cls, source: str | Path | Any) -> PolicyModel:
        """A model from a ``.npz`` file (a path or an open binary file); a clear error if it is not one."""
        where = str(source)
        try:
            if isinstance(source, (str, Path)):
                size = Path(source).stat().st_size
                if size > MAX_MODEL_BYTES:
                    raise ModelMismatch(f"{where}: {size} bytes is too large for a model file")
            with np.load(source, allow_pickle=False) as data:
                arrays = {key: data[key] for key in data.files}
        except ModelMismatch:
            raise
        except (OSError, ValueError, EOFError) as error:
            raise ModelMismatch(f"{where}: not a model file ({error})") from None
        try:
            meta = json.loads(bytes(arrays.pop("meta")).decode())
        except (KeyError, ValueError, UnicodeDecodeError):
            raise ModelMismatch(f"{where}: not a model file (no readable 'meta')") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise ModelMismatch(f"{where}: not an {FORMAT} file")
        if meta.get("version") != FORMAT_VERSION:
            raise ModelMismatch(
                f"{where}: model format version {meta.get('version')!r}; this atout reads version {FORMAT_VERSION}"
            )
        try:
            layers = int(meta["hidden_layers"])
            trunk = tuple(
                (arrays[f"w{i}"].astype(np.float32), arrays[f"b{i}"].astype(np.float32))
                for i in range(layers)
            )
            policy = (arrays["wp"].astype(np.float32), arrays["bp"].astype(np.float32))
            value = (arrays["wv"].astype(np.float32), arrays["bv"].astype(np.float32))
        except (KeyError, ValueError, TypeError) as error:
            raise ModelMismatch(f"{where}: incomplete model file ({error})") from None
        model = cls(meta, trunk, policy, value)
        model._check_shapes(where)
        return model

    def _check_shapes(self, where: str) -> None:
        width = int(sum(size for _, size in self.meta["layout"]))
        for i, (w, b) in enumerate(self.trunk):
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise ModelMismatch(f"{where}: layer {i} has shape {w.shape}, expected ({width}, …)")
            width = w.shape[1]
        for head, (w, b) in (("policy", self.policy), ("value", self.value)):
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise ModelMismatch(f"{where}: the {head} head has shape {w.shape}, expected ({width}, …)")
        if self.policy[0].shape[1] != int(self.meta["num_actions"]) or self.value[0].shape[1] != 1:
            raise ModelMismatch(
                f"{where}: the heads do not match {self.meta['num_actions']} actions and a value"
            )

    def save(self, path: str | Path) -> None:
        """Write the model (float16 weights, metadata as JSON)."""
        arrays: dict[str, NDArray[Any]] = {}
        for i, (w, b) in enumerate(self.trunk):
            arrays[f"w{i}"], arrays[f"b{i}"] = w.astype(np.float16), b.astype(np.float16)
        arrays["wp"], arrays["bp"] = self.policy[0].astype(np.float16), self.policy[1].astype(np.float16)
        arrays["wv"], arrays["bv"] = self.value[0].astype(np.float16), self.value[1].astype(np.float16)
        meta = {**self.meta, "format": FORMAT, "version": FORMAT_VERSION, "hidden_layers": len(self.trunk)}
        arrays["meta"] = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)
        with open(path, "wb") as out:  # numpy types **kwds as allow_pickle
            np.savez_compressed(out, **arrays)  # type: ignore[arg-type]

    # -- checking ------------------------------------------------------------------------
    def check(self, game: Game) -> None:
        """Refuse (:class:`ModelMismatch`) unless the model reads ``game``'s tensors and answers in its ids."""
        meta = self.meta
        if meta["game"] != game.name:
            raise ModelMismatch(f"this model plays {meta['game']}, not {game.name}")
        if int(meta["players"]) != game.players:
            raise ModelMismatch(
                f"this model plays {meta['game']} at {meta['players']} players, not {game.players}"
            )
        expected = layout_of(game)
        if meta["layout"] != expected:
            ours = dict(map(tuple, expected))
            theirs = dict(map(tuple, meta["layout"]))
            differ = sorted(k for k in set(ours) | set(theirs) if ours.get(k) != theirs.get(k))
            raise ModelMismatch(
                f"this model reads another tensor layout than {game.name} here "
                f"(blocks that differ: {', '.join(differ) or 'their order'}): retrain it for this version"
            )
        if meta["actions"] != action_fingerprint(game) or int(meta["num_actions"]) != game.num_actions:
            raise ModelMismatch(f"this model answers in other action ids than {game.name} with these options")

    # -- inference -------------------------------------------------------------------------
    @property
    def prior_weight(self) -> float | None:
        """The weight of the heuristic's choice in the logits, or None for a model without that prior.

        Why a prior: a network trained as a *correction* of the game's heuristic
        (its logits plus this weight on the heuristic's action) plays as the
        heuristic from its first update and only has to learn where to differ.
        """
        weight = self.meta.get("prior_weight")
        return None if weight is None else float(weight)

    def forward(self, x: FloatArray, prior: NDArray[np.intp] | None = None) -> tuple[FloatArray, FloatArray]:
        """(B, size) tensors → ((B, actions) logits, (B,) values in units of ``value_scale``).

        ``prior``: (B,) the heuristic's action per row, required by a model with a prior.
        """
        h = self._trunk(x)
        values = (h @ self.value[0] + self.value[1])[:, 0]
        return self._policy_logits(h, prior), values

    def _trunk(self, x: FloatArray | SparseTensor, buffers: ForwardBuffers | None = None) -> FloatArray:
        """The hidden layers: one matrix product per layer for all ``B`` rows at once (that is
        the whole cost of a decision; rows evaluated together share it).

        ``x`` may be a batch's :class:`~atout.batch.common.SparseTensor` (``batch.sparse_tensor()``):
        the first layer then adds only the weight rows of its non-zero inputs (Wizard's
        information-state tensor: 3,739 values, 20–80 non-zero; the dense product was most of a
        step with learned opponents), the same sums in another order (float rounding apart).
        ``buffers``: the later layers write into these arrays instead of new ones (the same
        products, the same values).
        """
        h: FloatArray
        for i, (w, b) in enumerate(self.trunk):
            if i == 0:
                h = x @ w if isinstance(x, np.ndarray) else x.dot(w).astype(np.float32, copy=False)
            elif buffers is not None:
                h = np.matmul(h, w, out=buffers.take(i, len(h), w.shape[1]))
            else:
                h = h @ w
            h += b
            np.maximum(h, 0.0, out=h)
        return h

    def _policy_logits(self, h: FloatArray, prior: NDArray[np.intp] | None) -> FloatArray:
        logits: FloatArray = h @ self.policy[0] + self.policy[1]
        weight = self.prior_weight
        if weight is not None:
            if prior is None:
                raise ValueError("this model adds the heuristic's choice to its logits: pass prior=")
            logits[np.arange(len(logits)), prior] += weight
        return logits

    def masked_logits(
        self, x: FloatArray | SparseTensor, mask: NDArray[np.bool_], prior: NDArray[np.intp] | None = None
    ) -> FloatArray:
        """The logits with every illegal action at -inf (``mask``: (B, actions) legal).

        The value head is not computed: choosing an action never reads it.
        """
        logits = self._policy_logits(self._trunk(x), prior)
        return np.where(mask, logits, -np.inf).astype(np.float32)

    def best_actions(
        self,
        x: FloatArray | SparseTensor,
        mask: NDArray[np.bool_],
        prior: NDArray[np.intp] | None = None,
        buffers: ForwardBuffers | None = None,
    ) -> NDArray[np.intp]:
        """The most probable legal action per row.

        ``buffers`` (:class:`ForwardBuffers`, kept by a caller that asks at every step, as the
        vector env's learned opponents): the layers after the first and the logits are written
        into them, and the illegal actions' logits set in place, instead of five fresh arrays of
        the batch's size a call (the same products and the same sums: the same actions).
        """
        if buffers is None:
            result: NDArray[np.intp] = np.argmax(self.masked_logits(x, mask, prior), axis=1)
            return result
        h = self._trunk(x, buffers)
        w, b = self.policy
        logits = np.matmul(h, w, out=buffers.take(len(self.trunk), len(h), w.shape[1]))
        logits += b
        weight = self.prior_weight
        if weight is not None:
            if prior is None:
                raise ValueError("this model adds the heuristic's choice to its logits: pass prior=")
            logits[np.arange(len(logits)), prior] += weight
        np.copyto(logits, -np.inf, where=~mask)
        chosen: NDArray[np.intp] = np.argmax(logits, axis=1)
        return chosen

    def batch_actions(
        self,
        batch: Any,
        rows: NDArray[np.intp],
        rng: np.random.Generator | None = None,
        temperature: float = 1.0,
    ) -> NDArray[np.intp]:
        """The action of the player to act in each of a batch's ``rows``: the most probable legal one,
        or with ``rng`` one drawn from the policy (the softmax of the legal logits over ``temperature``:
        above 1 flatter, below 1 sharper; a distilled network's fit to the search's top choice can be
        sharper than the table it models).

        ``batch``: an :mod:`atout.batch` batch (its tensors, legal masks and, for a
        model with a prior, its heuristic); the one place the evaluation, the
        batch search and their kin read a model over a batch.  Drawn actions
        make the policy a *model* of how players choose (a distilled model's
        probabilities are how often the search chose each action), greedy ones
        a player.
        """
        x = batch.information_state_tensor()[rows]
        prior = batch.heuristic_actions()[rows] if self.prior_weight is not None else None
        if rng is None:
            return self.best_actions(x, batch.legal_mask()[rows], prior)
        logits = self.masked_logits(x, batch.legal_mask()[rows], prior)
        if temperature != 1.0:
            logits = logits / np.float32(temperature)
        # Gumbel-max: the argmax of the logits plus Gumbel noise is a draw from their softmax.
        noise = -np.log(-np.log(rng.random(logits.shape, dtype=np.float32) + np.float32(1e-12)))
        result: NDArray[np.intp] = np.argmax(logits + noise, axis=1)
        return result


#: Where the shipped models live: package data beside this module.
_SHIPPED = "models"


def shipped_path(game: Game, *folder: str) -> Any:
    """The shipped model file for ``game``'s name and players (a resource; it may not exist),
    in the models' sub-``folder`` if given (``playout``)."""
    return resources.files(__package__).joinpath(_SHIPPED, *folder, f"{game.name}-{game.players}p.npz")


def shipped_players(game_name: str) -> list[int]:
    """The player counts a model is shipped for."""
    found = []
    folder = resources.files(__package__).joinpath(_SHIPPED)
    for entry in folder.iterdir() if folder.is_dir() else ():
        stem = entry.name.removesuffix(".npz")
        name, _, players = stem.rpartition("-")
        if entry.name.endswith(".npz") and name == game_name and players.endswith("p"):
            found.append(int(players[:-1]))
    return sorted(found)


_CACHE: dict[tuple[str, int], PolicyModel] = {}

#: Where the shipped *playout* networks live (``models/playout/<game>-<players>p.npz``): networks
#: distilled from a strong search's choices (``atout distill``), read by ``master``'s playouts,
#: which draw their actions from them.  A separate file from the policy network because the two
#: answer different questions: ``policy`` plays greedy on its own, where a playout network must
#: spread its probability as the strong players it models do (bench/RESULTS.md, stops 30–32).
_PLAYOUT = "playout"

_PLAYOUT_CACHE: dict[tuple[str, int], PolicyModel | None] = {}

#: Where the shipped *small* policy networks live (``models/small/<game>-<players>p.npz``): networks
#: distilled from the shipped policy network on its own decisions (:mod:`atout.learn.shrink`), a
#: tenth of its first layer's width, for the vector env's learned opponents, whose step the big
#: network's first layer bounds (bench/RESULTS.md, issue 49).
_SMALL = "small"

_SMALL_CACHE: dict[tuple[str, int], PolicyModel | None] = {}


def _shipped_in(
    folder: str, cache: dict[tuple[str, int], PolicyModel | None], game: Game
) -> PolicyModel | None:
    """The network shipped in the models' ``folder`` for ``game``'s name and players, loaded once and
    checked against the game; None if none is shipped.

    A file that no longer fits the game's tensor layout raises :class:`ModelMismatch` (never a
    silent wrong answer).
    """
    key = (game.name, game.players)
    if key not in cache:
        resource = shipped_path(game, folder)
        model = None
        if resource.is_file():
            with resource.open("rb") as stream:
                model = PolicyModel.load(stream)
        cache[key] = model
    model = cache[key]
    if model is not None:
        model.check(game)
    return model


def shipped_playout_model(game: Game) -> PolicyModel | None:
    """The playout network shipped for ``game``'s name and players, checked against it; None if none."""
    return _shipped_in(_PLAYOUT, _PLAYOUT_CACHE, game)


def shipped_small_model(game: Game) -> PolicyModel | None:
    """The small policy network shipped for ``game``'s name and players, checked against it; None if none."""
    return _shipped_in(_SMALL, _SMALL_CACHE, game)


def shipped_model(game: Game) -> PolicyModel:
    """The model shipped for ``game`` (loaded once per process), checked against it."""
    key = (game.name, game.players)
    model = _CACHE.get(key)
    if model is None:
        resource = shipped_path(game)
        if not resource.is_file():
            counts = shipped_players(game.name)
            where = f"at {', '.join(map(str, counts))} players only" if counts else "for no player count yet"
            raise ModelMismatch(
                f"atout ships a learned model of {game.name} {where}, not at {game.players}; "
                f"train one (atout train {game.name} --players {game.players}) and play it as net:PATH"
            )
        with resource.open("rb") as stream:
            model = PolicyModel.load(stream)
        _CACHE[key] = model
    model.check(game)
    return model


class PolicyBot(Bot):
    """The policy network alone: one forward pass on the seat's view, the most probable legal action.

    Why greedy: the level must be steady for players and reproducible for
    tournaments; sampling from the policy is what the training does.
    ``model``: a :class:`PolicyModel` or a path to one (None: the model
    shipped for the game at :meth:`start`).
    """

    name = "policy"

    def __init__(self, seed: int | None = None, model: PolicyModel | str | Path | None = None) -> None:
        super().__init__(seed)
        self._source = model
        self.model: PolicyModel | None = model if isinstance(model, PolicyModel) else None
        self._buffer: FloatArray | None = None

    def start(self, game: Game, seat: int) -> None:
        super().start(game, seat)
        self._bind(game)

    def _bind(self, game: Game) -> PolicyModel:
        if self._source is None:
            model = shipped_model(game)
        elif isinstance(self._source, PolicyModel):
            model = self._source
        else:
            model = PolicyModel.load(self._source)
        model.check(game)
        self.model = model
        self._game = game
        self._heuristics: dict[int, Bot] = {}
        self._buffer = np.zeros((1, game.information_state_tensor_size()), dtype=np.float32)
        return model

    def choose(self, view: View) -> int:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        game = view.game
        model = self.model
        if model is None or self._buffer is None or getattr(self, "_game", None) != game:
            model = self._bind(game)
        assert self._buffer is not None
        x = self._buffer
        x.fill(0.0)
        game.write_tensor(view, True, x[0])
        prior = None
        if model.prior_weight is not None:
            prior = np.array([self._heuristic(view.seat).choose(view)], dtype=np.intp)
        logits, _ = model.forward(x, prior)
        row = logits[0]
        return max(legal, key=lambda a: float(row[a]))

    def _heuristic(self, seat: int) -> Bot:
        """The game's heuristic for ``seat`` (a model with a prior reads its choice), made once."""
        bot = self._heuristics.get(seat)
        if bot is None:
            path = self._game.bots.get("heuristic")
            if path is None:
                raise ModelMismatch(f"this model needs {self._game.name}'s heuristic, which it has not")
            bot = self._heuristics[seat] = bot_from_path(path, self.rng.getrandbits(32))
            bot.start(self._game, seat)
        return bot
