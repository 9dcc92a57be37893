"""The one interface every atout game implements.

The shape follows OpenSpiel (a :class:`Game` holds the parameters, a
:class:`State` is a position with ``legal_actions``/``apply``/``clone``, chance
is an explicit player) with python-chess ergonomics (actions have a compact
text notation, ``apply("play B7")`` works, errors explain themselves).

Design decisions that every game inherits:

* A state is the **whole match** (every round), never a single hand: users do not
  have to bolt match logic on top.
* Actions are small integers in a **fixed space per game configuration**
  (``game.num_actions``), so masks and tensors have a stable layout.  Chance
  outcomes live in their own space (``game.num_chance_outcomes``).
* **Chance is explicit.**  ``current_player == CHANCE`` at a deal; the outcomes
  and their probabilities come from :meth:`State.chance_outcomes`.  A state
  created with a ``seed`` resolves its chance nodes itself, from that seed only,
  and still records every chance outcome in ``history``: a record therefore
  replays without any random generator.  The same seed deals the same cards
  whatever the players do (duplicate deals for tournaments come for free).
* :meth:`State.apply` checks legality first and raises :class:`IllegalAction`
  with the rule broken; the state is then unchanged.  No action is ever
  replaced by another one.
* :meth:`State.view` is the only thing that should leave the engine towards a
  seat (bot, screen, socket): it holds exactly what that seat may know.
"""

from __future__ import annotations

import importlib
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Final, Generic, Self, TypedDict, TypeVar, cast

from . import rng as rand
from .actions import ActionSpace, ChanceEvent, integer, read_chance
from .cardname import CardName
from .errors import Explained, IllegalAction, NotationError, OptionError, PositionError
from .fields import StateFields
from .native import G, mypyc_attr
from .options import OptionSpec, validate_options
from .reason import Act, GameName, Option, Reason, SeatNo, reason
from .tensor import GENERIC_TENSOR_SIZE, Buffer, write_hashed
from .view import BaseView as BaseView
from .view import View as View
from .viewdict import made_view as made_view

#: ``current_player`` at a chance node (a deal, a turned card), as in OpenSpiel.
CHANCE: Final = -1
#: ``current_player`` once the match is over (OpenSpiel's value too).
TERMINAL: Final = -4
#: A game's own state class (:meth:`Game._new_state` returns one, :func:`redact_by_replay` takes one).
S = TypeVar("S", bound="State")
#: A cache slot not filled yet (None is a value: "no layout").
_UNSET: Final[Any] = object()
#: A state class's :attr:`State.refusals`: by phase, the function saying why an action is
#: illegal there (the rule broken, as a :class:`~atout.core.reason.Reason`), or None when it is legal.
Refusals = Mapping[int, Callable[[Any, int], Reason | None]]
#: The modules of a game package (:attr:`Game.package`), by the attribute naming each.
PACKAGE_MODULES: Mapping[str, str] = MappingProxyType(
    {"renderer": "render", "tensors": "tensor", "positions": "position", "sampler": "sampling"}
)


def _rebuild_game(cls: type[Game], players: int, options: dict[str, Any]) -> Game:
    """What an unpickled game is: the same class, players and options."""
    return cls(players, **options)


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(ABC):
    """A game with its parameters: immutable, hashable, cheap to share.

    Subclasses set the class attributes and implement the abstract methods.
    Compiled as a native class (issue 48) that a game written in plain Python
    may still subclass.
    """

    #: Name used on the command line and by :func:`atout.load` (``"wizard"``).
    name: ClassVar[str]
    #: Display title ("Wizard").
    title: ClassVar[str]
    #: One sentence describing the game, for menus and ``atout games``.
    summary: ClassVar[str] = ""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: Every option, variants included, with its default.
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: This game's own bots by level name, as import paths ("heuristic": "pkg.mod:Class").
    bots: ClassVar[dict[str, str]] = {}
    #: Optional import path ("pkg.mod:Class") of a fast *model of strong play*:
    #: the policy search bots may play their playouts with instead of the
    #: heuristic, because the heuristic is a poor model of strong opponents.
    playout_model: ClassVar[str | None] = None
    #: The game review's thresholds (``atout.bots.review``): a decision that cost at
    #: least the first of these points is a mistake, the second a blunder.  Points
    #: weigh differently per game (Wizard: 10 a trick made; Le Malin: one penalty point).
    review_thresholds: ClassVar[tuple[float, float]] = (5.0, 15.0)
    #: The package of this game's own modules (``"atout.games.wizard"``), laid out
    #: as docs/architecture.md says: when set, :attr:`renderer`, :attr:`tensors`,
    #: :attr:`positions` and :attr:`sampler` default to its modules that
    #: :data:`PACKAGE_MODULES` names (``render``, ``tensor``, ``position``,
    #: ``sampling``).  A game without one of them sets that attribute to ``""``;
    #: a module elsewhere is named by the attribute.  Empty: every path is given.
    package: ClassVar[str] = ""
    #: Import path of the module drawing a view on a terminal (``render_view``,
    #: ``render_sheet``, and optionally ``render_last_trick``, drawn at a round's
    #: end before the sheet); the rules never import it.
    renderer: ClassVar[str] = ""
    #: Name of this game's rules page in each language's folder (``i18n/<lang>/rules/<page>.md``,
    #: English in ``i18n/en/``), read by :func:`atout.core.rules_pages.rules_text`: by default
    #: the game's :attr:`name` (a class declaring a name, no page and inheriting none); a page by
    #: another name is declared (Le Malin's is ``le-malin``); empty: none.
    rules_page: ClassVar[str] = ""
    #: Import path of the module with this game's own tensor layout
    #: (``tensor_size(game, information_state)``, ``encode(view, information_state)``);
    #: empty: the generic hashed encoding.
    tensors: ClassVar[str] = ""
    #: Import path of the module with this game's position notation
    #: (``FIELDS``, ``read(game, fields, seeded)``, ``write(state)``; see
    #: :mod:`atout.core.position`); empty: positions are not offered.
    positions: ClassVar[str] = ""
    #: Import path of the module drawing hidden worlds for search bots
    #: (``sample_world(game, view, rng)`` and, if offered, ``sample_round``).
    #: Named here rather than imported: the sampler builds states, so the state's
    #: module importing it back would be an import cycle.  Empty: not offered.
    sampler: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Name the rules page and the modules of a declared :attr:`package` the class does not name itself."""
        super().__init_subclass__(**kwargs)
        if "name" in vars(cls) and "rules_page" not in vars(cls) and not cls.rules_page:
            cls.rules_page = cls.name
        if vars(cls).get("package"):
            for attribute, module in PACKAGE_MODULES.items():
                if attribute not in vars(cls):
                    setattr(cls, attribute, f"{cls.package}.{module}")

    def __init__(self, players: object, **options: Any) -> None:
        # ``object``: any value reaches the check below, which names the fault (compiled, an
        # ``int`` parameter would refuse a text with a bare TypeError first).
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(reason("option.players_int", v=repr(players)))
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                reason(
                    "option.players_range",
                    game=GameName(self.name),
                    lo=self.min_players,
                    hi=self.max_players,
                    n=players,
                )
            )
        self.players = players
        #: What modules derive from the game and keep on it, by key: the modules its class
        #: attributes name (:meth:`_module`), the tensor layouts' constants, the research
        #: adapters' sizes.  Never part of its identity (a pickle leaves it out); a dict of
        #: its own, as a compiled game (a native class) has no ``__dict__`` to hold them.
        self.cache: dict[str, Any] = {}
        self.options: Mapping[str, Any] = validate_options(self.option_specs, options, self.name)
        #: The first round (hand, deal) this match plays: the ``start_round`` option
        #: (:func:`~atout.core.options.start_round_option`), 1 for a game without it.
        self.start_round: int = self.options.get("start_round", 1)
        for spec in self.option_specs:
            seat = self.options[spec.name]
            if spec.seat and seat is not None and seat >= players:
                raise OptionError(
                    reason(
                        "option.seat_range", option=Option(spec.name), lo=SeatNo(0), hi=SeatNo(players - 1)
                    )
                )
        self._check_options()

    def _check_options(self) -> None:
        """Refuse combinations of options that cannot be played (hook)."""
        return None

    # -- identity -------------------------------------------------------------
    def non_default_options(self) -> dict[str, Any]:
        """The options that differ from their defaults (what a record writes)."""
        return {s.name: self.options[s.name] for s in self.option_specs if self.options[s.name] != s.default}

    def options_text(self) -> str:
        """Options as ``k=v`` pairs, the notation of the CLI and of records."""
        specs = {s.name: s for s in self.option_specs}
        return " ".join(f"{k}={specs[k].render(v)}" for k, v in self.non_default_options().items())

    def _key(self) -> tuple[Any, ...]:
        return (self.name, self.players, tuple(sorted(self.options.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple[Any, ...]:
        # A game is its class, players and options: pickled as such (to worker processes,
        # say), its caches (the tensor layout module, sizes) are rebuilt on the other side.
        return (_rebuild_game, (type(self), self.players, dict(self.options)))

    @classmethod
    def card_name(cls, text: str) -> CardName:
        """The parts of the name of the card written ``text`` in this game's notation.

        :class:`ValueError` when ``text`` is not one of the game's cards; the default:
        a game without cards.  Interfaces that name cards in words use it (the web
        table's translated refusals), never the game's notation itself.
        """
        raise ValueError(f"{cls.title} has no card {text!r}")

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in self.non_default_options().items())
        return f"atout.load({self.name!r}, players={self.players}{extra})"

    # -- the action space -------------------------------------------------------
    #: The player actions: named ranges of ids and their notation (:mod:`atout.core.actions`),
    #: built by each game for its configuration.
    space: ActionSpace

    @property
    def num_actions(self) -> int:
        """Size of the player-action space; ids are ``0 .. num_actions - 1``."""
        return self.space.size

    @property
    @abstractmethod
    def num_chance_outcomes(self) -> int:
        """Size of the chance-outcome space."""

    def action_to_text(self, action: int) -> str:
        """Notation of a player action, independent of any state ("play B7")."""
        return self.space.text(action)

    def text_to_action(self, text: str) -> int:
        """Inverse of :meth:`action_to_text`; raises :class:`NotationError`."""
        return self.space.read(text)

    def action_table(self) -> list[tuple[int, str]]:
        """The documented id table: every player action id and its notation."""
        return [(a, self.action_to_text(a)) for a in range(self.num_actions)]

    # -- states -----------------------------------------------------------------
    def opening_dealer(self, step: int = 1) -> int | None:
        """The dealer of the match's first round (:attr:`start_round`) when the ``first_dealer``
        option names round 1's, the deal moving ``step`` seats a round; None when it is drawn.

        Every game with a first-dealer option starts its match so (no game repeats the sum).
        """
        first: int | None = self.options.get("first_dealer")
        return None if first is None else (first + step * (self.start_round - 1)) % self.players

    @abstractmethod
    def new_state(self, seed: int | None = None, position: str | None = None) -> State:
        """The start of a match, or the state a ``position`` text describes.

        With a ``seed``, chance nodes are resolved from it (and recorded); without,
        the state stops at every chance node for the caller to apply an outcome.
        A ``position`` (the game's notation, src/atout/i18n/en/rules/<game>.md) is read by
        :meth:`state_from_position`.
        """

    def _new_state(self, state_class: type[S], seed: int | None, position: str | None) -> S:
        """What :meth:`new_state` does, for a game whose states are ``state_class``.

        Each game's ``new_state`` calls it and so keeps its own return type
        (``WizardGame.new_state`` gives a ``WizardState``): the state a ``position``
        describes, or ``state_class(self, seed)`` with its first chance events
        resolved when seeded.
        """
        if position is not None:
            from_position = self.state_from_position(position, seed)
            assert isinstance(from_position, state_class)
            return from_position
        state = state_class(self, seed)
        if seed is not None:
            state._resolve_chance()
        return state

    def read_position(self, position: str) -> State:
        """The state a seedless ``position`` describes, as read, without its ``start``.

        For the notation modules (a base to replay moves on); everyone else calls
        :meth:`new_state` or :meth:`state_from_position`.
        """
        from .position import split_fields

        module = importlib.import_module(self.positions)
        state: State = module.read(self, split_fields(position, module.FIELDS), False)
        return state

    def state_from_position(self, position: str, seed: int | None = None) -> State:
        """The state ``position`` describes; :class:`PositionError` says what is wrong and where.

        The position's own ``seed=`` field, or else ``seed``, draws the chance
        events after it (both given must agree).  The state's ``history`` is
        empty and its ``start`` is the position without the seed (what a record's
        ``Position`` tag holds); with a seed, the chance events it resolves at once
        (a round to deal) are in ``history``, as for :meth:`new_state`.
        """
        from .position import integer, split_fields

        if not self.positions:
            raise PositionError(f"{self.title} has no position notation")
        module = importlib.import_module(self.positions)
        fields = split_fields(position, module.FIELDS)
        if "seed" in fields:
            own = integer(fields.pop("seed"), "seed", what="(a seed)")
            if seed is not None and seed != own:
                raise PositionError(f"the position says seed={own} but seed={seed} was asked for", "seed")
            seed = own
        state: State = module.read(self, fields, seed is not None)
        # As given first (games whose position lists the round's moves rebuild it
        # from ``start``), then in the notation's own spelling.
        state.start = " ".join(f"{k}={v}" for k, v in fields.items())
        state.start = state.position()
        if seed is not None:
            state.seed = seed
            state._resolve_chance()
        return state

    # -- research adapters (optional: every method has a working default) ----------
    def _module(self, attribute: str) -> Any:
        """The module a class attribute names (:attr:`tensors`, :attr:`sampler`), or None.

        Looked up once per game object: the tensors are written at every step of
        the research adapters and worlds are drawn at every decision of a search bot.
        """
        key = "_module_" + attribute
        module = self.cache.get(key, _UNSET)
        if module is _UNSET:
            path = getattr(self, attribute)
            module = self.cache[key] = importlib.import_module(path) if path else None
        return module

    def _tensor_layout(self) -> Any:
        return self._module("tensors")

    def _sampling_view(self, view: View, what: str) -> Any:
        if not isinstance(view, View) or (view.game is not self and view.game != self):
            raise ValueError(f"{what} needs a view of this {self.title} game")
        return self._module("sampler")

    def _tensor_view(self, view: View) -> View:
        if not isinstance(view, View) or (view.game is not self and view.game != self):
            raise ValueError(f"a tensor needs a view of this {self.title} game")
        return view

    def _tensor_size(self, information_state: bool) -> int:
        """Length of the observation (or information-state) tensor: the layout's, or the generic one."""
        layout = self._tensor_layout()
        if layout is None:
            return GENERIC_TENSOR_SIZE
        return int(layout.tensor_size(self, information_state=information_state))

    def _tensor(self, view: View, information_state: bool) -> list[float]:
        """A new list holding ``view``'s observation (or information-state) tensor."""
        return self.write_tensor(view, information_state, [0.0] * self._tensor_size(information_state))

    def tensor_blocks(self, information_state: bool = True) -> list[tuple[str, int]]:
        """The tensor's layout: its blocks as (name, size), in order.

        Why public: a learned model reads one layout and must refuse any other
        (:mod:`atout.bots.learned` stores this list with the weights and compares
        it at load time).  A game without a layout of its own has one block, the
        hashed view.
        """
        layout = self._tensor_layout()
        if layout is None:
            return [("hashed", GENERIC_TENSOR_SIZE)]
        return [(str(name), int(size)) for name, size in layout.blocks(self, information_state)]

    def observation_tensor_size(self) -> int:
        """Length of :meth:`observation_tensor` for this configuration."""
        return self._tensor_size(False)

    def observation_tensor(self, view: View) -> list[float]:
        """What ``view`` shows now, as a fixed-size vector of values in [-1, 1].

        A deterministic function of the view only.  The default hashes the view's
        JSON form (:mod:`atout.core.tensor`); games override it with a documented
        layout (the rules page's "Tensors" section) named by :attr:`tensors`.
        """
        return self._tensor(view, False)

    def write_tensor(self, view: View, information_state: bool, out: Buffer) -> Buffer:
        """Write ``view``'s observation (or information-state) tensor into ``out`` and return it.

        ``out`` is zeroed by the caller and has the tensor's size: the research
        adapters pass their float32 arrays, so no list of floats is built and
        converted at every step (the values are those of :meth:`observation_tensor`
        and :meth:`information_state_tensor`, as float32).
        """
        layout = self._tensor_layout()
        if layout is None:
            return write_hashed(view.to_dict(), out)
        layout.encode(self._tensor_view(view), information_state, out)
        return out

    def information_state_tensor_size(self) -> int:
        """Length of :meth:`information_state_tensor` for this configuration."""
        return self._tensor_size(True)

    def information_state_tensor(self, view: View) -> list[float]:
        """Everything ``view`` knows that bears on the rest of the match, in [-1, 1].

        Unlike the observation (the table now), this may add what the seat has
        seen earlier (the round's finished tricks, say).  The default is the
        hashed view, which holds all of it.
        """
        return self._tensor(view, True)

    def max_history_length(self) -> int | None:
        """An upper bound on ``len(state.history)`` of a whole match, if known."""
        return None

    def score_bounds(self) -> tuple[int, int] | None:
        """Lowest and highest final score a seat can have, if known."""
        return None

    def sample_round(self, view: View, rng: random.Random) -> tuple[State, list[int]] | None:
        """A world as it stood at the first decision of ``view``'s round, and the actions since.

        Optional (the default, ``None``, means "not offered"); search bots use it
        for **inference**: replaying the round's actions in the world and asking
        how likely a model of each seat was to play what it did weighs the world
        by what the other seats' bids and plays reveal.  Hidden cards are drawn
        as :meth:`sample_state` draws them, the cards played since put back in
        the hands that played them; actions the viewer did not see (a secret
        bid, say) are drawn too.  Replaying the actions (chance outcomes
        included) must reach a state whose ``view(view.seat)`` equals ``view``.
        """
        sampler = self._sampling_view(view, "sample_round")
        if sampler is None or not hasattr(sampler, "sample_round"):
            return None
        result: tuple[State, list[int]] | None = sampler.sample_round(self, view, rng)
        return result

    def sample_state(self, view: View, rng: random.Random) -> State:
        """A full state consistent with ``view`` (for search bots).

        Hidden cards are dealt at random among the seats that may hold them,
        respecting everything play has revealed.  The sample has no seed: its
        future chance nodes are explicit.  Its ``history`` is empty: a sample is a
        world to search, not a record of how it came about.  Drawn by the
        :attr:`sampler` module's ``sample_world``.
        """
        sampler = self._sampling_view(view, "sample_state")
        if sampler is None:
            raise NotImplementedError(f"{self.title} draws no hidden worlds (it names no sampler)")
        state: State = sampler.sample_world(self, view, rng)
        return state


class ViewHead(TypedDict):
    """The fields every game's view starts with: ``XView(**head, ...)``.

    Written by :func:`view_head` from a state and read back by
    :func:`atout.core.viewdict.read_head`, so that every game fills them alike.
    """

    game: Any  # the view's own game class
    seat: int
    current_player: int
    legal_actions: tuple[int, ...]
    phase: str


def view_head(state: State, seat: int, public: bool = False) -> ViewHead:
    """:class:`ViewHead` of ``seat``'s view of ``state``; a seat not at the table raises ValueError.

    Called first in a game's ``make_view``, so that the seat is checked before
    anything is read for it.  The phase is named by ``state.phase_name``.  The
    legal actions are only for the seat to act, and never in a public
    (spectator's) view, which holds no seat's choices.
    """
    to_act, legal, phase = head_values(state, seat, public)
    return {
        "game": state.game,
        "seat": seat,
        "current_player": to_act,
        "legal_actions": legal,
        "phase": phase,
    }


def head_values(state: State, seat: int, public: bool = False) -> tuple[int, tuple[int, ...], str]:
    """The values of :func:`view_head` that are read from ``state``: (player to act, legal actions, phase).

    What the games' ``view_fields`` call first (the seat checked before anything is read for
    it) and write, with the game and the seat, at the head of their one dict display: a dict
    built whole is sized once, where a head dict merged into it (``{**view_head(...), ...}``)
    was built, copied and grown twice, a fifth of a Wizard view (issue 48).
    """
    game = state.game
    if type(seat) is not int or not 0 <= seat < game.players:  # a seat passes on its type alone
        check_seat(game, seat)
    to_act = state.current_player
    legal = tuple(state.legal_actions()) if to_act == seat and not public else ()
    return to_act, legal, state.phase_name


def redact_by_replay(state: S, hidden: Callable[[S, int], bool]) -> list[int | None]:
    """``state.history`` with None for each action for which ``hidden(replay, action)`` is true.

    What a game's ``redacted_history`` shares: it replays the history on a
    seedless copy of the game from ``state.start`` (its chance nodes wait), so
    that ``hidden`` sees, before each action, who acted and in which round;
    what the reader may know *at* ``state`` it reads from ``state`` itself.
    The actions are those ``state`` applied, so the replay applies them
    unchecked, as :meth:`State.apply` does once it has checked them.
    """
    replay = cast(S, state.game.new_state(position=state.start))
    out: list[int | None] = []
    for action in state.history:
        out.append(None if hidden(replay, action) else action)
        replay._do(action)
        replay.history.append(action)
    return out


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC, Generic[G]):
    """A position in a whole match.  Mutable; copy with :meth:`clone`.

    ``State[WizardGame]``: a state of that game (``state.game`` is one), declared
    once here for the whole hierarchy, as mypyc's native classes need (issue 48:
    a subclass may not narrow an attribute's type).  A game written in plain
    Python may still subclass it.
    """

    #: Every field of the state, each once, with how a copy treats it
    #: (:mod:`atout.core.fields`): ``clone`` and the samplers' rebuilds come from it.
    fields: ClassVar[StateFields]
    #: The names of the phases, by number: ``phase_names[state.phase]`` is what views call it.
    phase_names: ClassVar[tuple[str, ...]]
    #: Each phase's refusal, by phase number: the function (a method of the class,
    #: ``refusal(state, action)``) saying why ``action`` breaks a rule there, or None
    #: when it is legal.  It is the very code that decides legality, so the reason a
    #: refusal gives is the check that refused; :meth:`illegal_reason` dispatches on it.
    #: A game declares this table, or writes :meth:`_phase_refusal` (the shipped games,
    #: compiled: a native method names its phases' refusals in code, issue 48).
    refusals: ClassVar[Refusals]
    #: :attr:`refusals` as a tuple indexed by phase (None: no refusal), derived by the
    #: class: a tuple index is the fastest dispatch, and this runs at every move.
    _refusal_by_phase: ClassVar[tuple[Callable[[Any, int], Reason | None] | None, ...]] = ()
    game: G
    #: The phase of the round the state is in (a number, named by :attr:`phase_names`).
    phase: int
    #: The seed chance is drawn from, or ``None`` when chance is applied by hand.
    #: Secret: never part of a view.
    seed: int | None
    #: Every action applied so far, chance outcomes included, in order.
    history: list[int]
    #: The current round (hand, deal) number, from 1.
    round: int
    #: The position this state was built from (``game.new_state(position=...)``,
    #: without its seed), or ``None`` for a state from the start of a match:
    #: ``history`` counts from there.
    start: str | None = None

    #: The number of seats (``game.players``), kept on the state for the hot loops.
    n: int

    def __init__(self, game: G, seed: int | None) -> None:
        """The start of a match of ``game``, before its first chance event.

        ``seed`` draws the chance events (``None``: the caller applies them);
        :meth:`Game.new_state` builds states so and resolves the first ones.
        Sets what every game's state starts with; each game's ``__init__``
        calls it, then sets its own fields.
        """
        self.game = game
        _set_common(self, seed, None, game.start_round, [], game.players)

    # -- whose turn -------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or :data:`CHANCE`, or :data:`TERMINAL`."""

    @property
    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    @property
    def is_chance(self) -> bool:
        return self.current_player == CHANCE

    # -- actions ------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal actions (or chance outcomes at a chance node), ascending."""

    def legal_mask(self) -> list[int]:
        """0/1 mask over the action space (chance space at a chance node)."""
        size = self.game.num_chance_outcomes if self.is_chance else self.game.num_actions
        mask = [0] * size
        for a in self.legal_actions():
            mask[a] = 1
        return mask

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node; empty elsewhere."""

    # The compiled loops' draws (:mod:`.playout`): the outcome the documented draw gives, which a
    # game may reach without building the lists (Wizard, issue 48); the same generator calls.
    def _uniform_action(self, getrandbits: Callable[[int], int]) -> int:
        """``rand.choice(rng, self.legal_actions())`` for a :class:`random.Random` ``rng`` whose
        ``getrandbits`` this is: the same action, the same draws (IndexError when there is none)."""
        legal = self.legal_actions()
        n = len(legal)
        if not n:
            raise IndexError("Cannot choose from an empty sequence")
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return legal[r]

    def _draw_chance(self, rng: random.Random) -> int:
        """The chance outcome :func:`sample_chance` draws with ``rng`` here (the same draws)."""
        return rand.weighted(rng, self.chance_outcomes())

    def refusal(self, action: object) -> Reason | None:
        """Why ``action`` is illegal now (the rule broken, as data), or ``None`` if legal.

        An action is an integer id; the phase's refusal (:attr:`refusals`) judges it,
        and a phase without one is the match's end.  Runs at every :meth:`apply`: the
        legal case builds nothing, a refusal builds its :class:`Reason` (a key and
        parameters), which the reader's language puts in words (``str()`` is English).
        """
        # A plain int passes on its type alone, the common case (bool, an int, is refused).
        if type(action) is not int and (isinstance(action, bool) or not isinstance(action, int)):
            return reason("not_an_integer", v=repr(action))
        return self._phase_refusal(action)

    def _phase_refusal(self, action: int) -> Reason | None:
        """The refusal of the phase the state is in, for an action id: from :attr:`refusals`.

        A compiled game writes it out instead (``if phase == PLAY: return
        self._play_refusal(action)``...): a native call rather than a table of
        Python functions, and the table of a compiled class cannot name its
        methods (mypyc).  A phase without a refusal is the match's end.
        """
        table = self._refusal_by_phase
        phase = self.phase
        refusal = table[phase] if phase < len(table) else None
        if refusal is None:
            return reason("match_over")
        return refusal(self, action)

    def illegal_reason(self, action: object) -> str | None:
        """Why ``action`` is illegal now, in the engine's English words, or ``None`` if legal."""
        why = self.refusal(action)
        return None if why is None else str(why)

    @abstractmethod
    def _do(self, action: int) -> None:
        """Apply an action already known to be legal (no check, no history)."""

    @abstractmethod
    def _seeded_outcome(self) -> int:
        """The chance outcome this state's seed gives at the current chance node."""

    def apply(self, action: object) -> None:
        """Play ``action`` (an id, or its text) for the player to act.

        Raises :class:`IllegalAction` (state unchanged) or :class:`NotationError`.
        ``action`` is typed ``object``, as :meth:`refusal`'s, because anything a caller
        passes must be refused by the rules' words ("not an action id: 1.5"): a compiled
        ``int`` parameter would raise a bare TypeError before the rules could say why.
        """
        if isinstance(action, str):
            action = self.parse(action)
        why = self.refusal(action)
        if why is not None:
            raise IllegalAction(why, action if isinstance(action, int) else None)
        legal = cast(int, action)  # refusal() let only an int through
        self._do(legal)
        self.history.append(legal)
        if self.seed is not None:
            self._resolve_chance()

    def reseed(self, seed: int) -> None:
        """Let ``seed`` draw the chance outcomes from here on (resuming a saved game).

        The deals drawn are those the seed gives for each round, so a game
        resumed from its record continues exactly as it would have.
        """
        self.seed = seed
        self._resolve_chance()

    def _resolve_chance(self) -> None:
        while self.current_player == CHANCE:
            outcome = self._seeded_outcome()
            self._do(outcome)
            self.history.append(outcome)

    def is_legal(self, action: object) -> bool:
        return self.refusal(action) is None

    # -- notation ---------------------------------------------------------------
    def action_to_text(self, action: int) -> str:
        """Notation of an action here; chance outcomes get their own words ("deal 2 B7")."""
        if self.is_chance:
            return self._chance_to_text(action)
        return self.game.action_to_text(action)

    def parse(self, text: object) -> int:
        """Action id for ``text`` at this state (chance notation at chance nodes).

        ``text`` is typed ``object`` so that the compiled build refuses a non-text with the
        notation's words, as the pure one does, not with a bare TypeError."""
        if not isinstance(text, str):
            raise NotationError(reason("notation.not_a_text", v=repr(text)))
        if self.is_chance:
            return self._text_to_chance(text)
        return self.game.text_to_action(text)

    @abstractmethod
    def _chance_to_text(self, outcome: int) -> str: ...

    def _chance_event(self) -> ChanceEvent | None:
        """The chance event this state waits for, with its reader; None at a decision (hook)."""
        return None

    def _text_to_chance(self, text: str) -> int:
        """The chance outcome ``text`` names here, read by :meth:`_chance_event`'s reader."""
        return read_chance(text, self.phase_name, self._chance_event())

    # -- the first dealer's draw ------------------------------------------------------------
    # A game whose first dealer is drawn (no ``first_dealer`` option given) has a phase for it,
    # with chance outcomes ``_dealer_base() + seat``: the draw's steps are the same in each such
    # game, only where its outcomes start differs (after the cards').
    def _dealer_base(self) -> int:
        """The chance outcome naming seat 0 the first dealer (a game drawing it says which)."""
        raise NotImplementedError(f"{type(self).__name__} does not draw its first dealer")

    def _dealer_outcomes(self) -> list[tuple[int, float]]:
        """The first dealer's draw: each seat alike."""
        base = self._dealer_base()
        return uniform_outcomes(range(base, base + self.n))

    def _first_dealer_refusal(self, action: int) -> Reason | None:
        """Why ``action`` is not a first-dealer draw (outcomes :meth:`_dealer_base` + seat)."""
        base = self._dealer_base()
        return None if base <= action < base + self.n else reason("first_dealer_first")

    def _drawn_dealer(self, action: int, step: int = 1) -> int:
        """The dealer of this round when draw ``action`` names round 1's (as ``first_dealer``
        does: :meth:`Game.opening_dealer`), the deal moving ``step`` seats a round."""
        return (action - self._dealer_base() + step * (self.round - 1)) % self.n

    def _seeded_dealer(self) -> int:
        """The seeded state's first-dealer draw."""
        # seeded_rng(seed, "first-dealer").randrange(n), without random.Random's Python seeding
        generator = rand.text_seeded(seed_text(self.seed or 0, "first-dealer"))
        return self._dealer_base() + rand.below(generator, self.n)

    def _dealer_text(self, outcome: int) -> str:
        """The draw ``outcome`` in the notation: ``dealer 2``."""
        return f"dealer {outcome - self._dealer_base()}"

    def _read_dealer(self, words: list[str]) -> int:
        """The draw a ``dealer <seat>`` names, a seat of the table."""
        seat = integer(words[0])
        if not 0 <= seat < self.n:
            raise Explained(reason("notation.dealer_range", hi=self.n - 1))
        return self._dealer_base() + seat

    def _verb(self, action: int) -> Act:
        """What player action ``action`` would do, for a refusal ("play B7"), even with no notation."""
        try:
            return Act(self.game.action_to_text(action), self.game.space.range_of(action).name)
        except NotationError:
            return Act(f"play action {action}")

    def position(self) -> str:
        """This state in the game's position notation (src/atout/i18n/en/rules/<game>.md).

        ``game.new_state(position=state.position())`` gives the same views for
        every seat, the same legal actions, and the same futures (the seed, when
        the state has one, is the ``seed=`` field).  Secret: it shows every hand.
        """
        if not self.game.positions:
            raise PositionError(f"{self.game.title} has no position notation")
        fields: dict[str, str] = importlib.import_module(self.game.positions).write(self)
        if self.seed is not None:
            fields["seed"] = str(self.seed)
        return " ".join(f"{k}={v}" for k, v in fields.items())

    # -- results ----------------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[int]:
        """Each seat's score so far (the score sheet's last line)."""

    def returns(self) -> list[float]:
        """Each seat's payoff: the match score (final once terminal)."""
        return [float(s) for s in self.scores()]

    def winners(self) -> list[int]:
        """Seats with the best score (co-winners on a tie); empty until terminal."""
        if not self.is_terminal:
            return []
        scores = self.scores()
        best = max(scores)
        return [seat for seat, s in enumerate(scores) if s == best]

    # -- information ----------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int, public: bool = False) -> View:
        """What ``seat`` may know now.

        ``public``: what a spectator may know, oriented as ``seat`` (see
        :meth:`public_view`).  A seat not at the table raises ValueError.
        """

    def public_view(self) -> View:
        """What a spectator may know: what every seat knows, nothing more.

        Oriented as seat 0 (its ``seat`` field) but with no hand, no legal
        actions and no seat's own secrets (a bid still hidden, a handicap not yet
        revealed): the web table sends it to people watching.  A game whose
        :meth:`view` cannot say what is public raises :class:`NotImplementedError`
        (its tables cannot be watched); the four shipped games all implement it.
        """
        return self.view(0, public=True)

    @abstractmethod
    def redacted_history(self, seat: int) -> list[int | None]:
        """``history`` with what ``seat`` may not know replaced by ``None``.

        Used by per-seat record exports: a hidden card dealt to another seat, a
        bid still secret, etc.
        """

    @property
    def phase_name(self) -> str:
        """The name of the phase the state is in ("bid", "play"), as views give it."""
        return self.phase_names[self.phase]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Derive ``clone`` from the class's :attr:`fields`, unless the class writes its own,
        and the phase-indexed dispatch of :attr:`refusals`."""
        super().__init_subclass__(**kwargs)
        if "refusals" in vars(cls):
            phases = range(len(cls.phase_names))
            if not set(cls.refusals) <= set(phases):
                raise TypeError(f"{cls.__name__}.refusals names phases that phase_names does not")
            cls._refusal_by_phase = tuple(cls.refusals.get(phase) for phase in phases)
        if "fields" in vars(cls) and "clone" not in vars(cls):
            cls.clone = cls.fields.cloner(cls)  # type: ignore[method-assign,assignment]

    def clone(self) -> Self:
        """A copy sharing nothing that changes in place: derived from :attr:`fields` (or written by the game)."""
        raise NotImplementedError(f"{type(self).__name__} declares no fields and writes no clone")

    def _clone_base(self) -> Self:
        """A new state of this class with the fields every state has copied (``STATE_SHARED``,
        ``STATE_COPIED`` of :mod:`.fields`), the rest unset: where a compiled game's written-out
        ``clone`` starts (a native class takes no generated method, issue 48)."""
        new = type(self).__new__(type(self))
        new.game = self.game
        _set_common(new, self.seed, self.start, self.round, self.history.copy(), self.n)
        new.phase = self.phase
        return new

    def __str__(self) -> str:
        return f"<{self.game.name} state, round {self.round}, to act: {self.current_player}>"

    def __repr__(self) -> str:
        """An expression that rebuilds this state: ``atout.load(...).new_state(position='...')``.

        A failing test or a debugger then shows something a person can paste back
        (python-chess's ``Board('fen')``).  It shows every hand (like
        :meth:`position`): a repr is for the programmer, never for a player.  A game
        without a position notation, or a state it cannot write, keeps the short form.
        """
        try:
            position = self.position()
        except (PositionError, NotImplementedError):
            return f"<{type(self).__name__} {self}>"
        return f"{self.game!r}.new_state(position={position!r})"


def _set_common(
    state: State[Any], seed: int | None, start: str | None, round_number: int, history: list[int], n: int
) -> None:
    """Set the fields every state has (``STATE_SHARED``, ``STATE_COPIED`` of :mod:`.fields`) but
    ``game``, set first, and ``phase``: one place for a state that starts (:meth:`State.__init__`)
    and one that is a copy (:meth:`State._clone_base`), so that a field added to every state is set
    by both.  A function, not a method: a direct call in the compiled build, on every clone."""
    state.seed = seed
    state.start = start
    state.history = history
    state.n = n
    state.round = round_number


def check_seat(game: Game, seat: object) -> int:
    """``seat`` if it is a seat of the table, else ValueError saying which are.

    ``object``: the states' ``view`` and ``redacted_history`` take anything and ask here,
    so that a wrong seat gets these words in the compiled build too (an ``int`` parameter
    of a native method raises a bare TypeError first).
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise ValueError(f"seat must be 0..{game.players - 1}, not {seat!r}")
    return seat


def seed_text(seed: int, *keys: object) -> str:
    """The text :func:`seeded_rng` seeds its generator with: ``seed`` and ``keys`` joined by colons."""
    return ":".join(str(k) for k in (seed, *keys))


def seeded_rng(seed: int, *keys: object) -> random.Random:
    """A generator determined by ``seed`` and ``keys`` only (stable across runs).

    String seeding goes through SHA-512 in CPython, so the stream does not depend
    on ``PYTHONHASHSEED`` or on the process.  A deal that only shuffles with it
    calls :func:`atout.core.rng.shuffle_seeded` with :func:`seed_text` instead (the
    same permutation, cheaper).
    """
    return random.Random(seed_text(seed, *keys))


def seeded_deal(seed: int, key: str, round_number: int, cards: int, seats: int, hand_size: int) -> list[int]:
    """The cards ``0 .. cards - 1`` in the order a seeded deal gives them: ``hand_size`` to each seat in turn.

    One shuffle from ``seed``, ``key`` and the round number only, so that a seed
    deals the same cards whatever is played; each seat's cards come in ascending
    order, so that a record (which lists a seat's cards sorted) replays to the
    same history.  The cards left over (a talon) are not in the list.
    """
    deck = list(range(cards))
    # seeded_rng(seed, key, round_number).shuffle(deck)'s order, compiled
    rand.shuffle_seeded(seed_text(seed, key, round_number), deck)
    order: list[int] = []
    for i in range(seats):
        order.extend(sorted(deck[i * hand_size : (i + 1) * hand_size]))
    return order


def sample_chance(state: State, rng: random.Random) -> int:
    """Draw a chance outcome at ``state`` by its probabilities (``rng.choices``' draw, compiled)."""
    return rand.weighted(rng, state.chance_outcomes())


def uniform_outcomes(outcomes: Sequence[int]) -> list[tuple[int, float]]:
    """:meth:`State.chance_outcomes` of equally likely ``outcomes``: a seat drawn, a card of a shuffled deck.

    >>> uniform_outcomes(range(4, 8))
    [(4, 0.25), (5, 0.25), (6, 0.25), (7, 0.25)]
    """
    p = 1.0 / len(outcomes)
    return [(outcome, p) for outcome in outcomes]


def legal_texts(state: State, actions: Sequence[int] | None = None) -> list[str]:
    """Notations of the legal actions, in id order (handy in messages and UIs)."""
    return [state.action_to_text(a) for a in (state.legal_actions() if actions is None else actions)]
