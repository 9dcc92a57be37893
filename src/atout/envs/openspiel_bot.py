"""An OpenSpiel bot (``pyspiel.Bot``) playing as an atout bot, seeing only its seat's view.

OpenSpiel bots ask for a *state* (``bot.step(state)``), and an atout bot only
ever gets a view.  At each decision :class:`OpenSpielBot` therefore builds a
**world**: ``game.sample_state(view, rng)``, the view's hidden cards dealt at
random among the seats that may hold them under everything play revealed
(exactly what atout's own search bots search), wrapped as a state of atout's
OpenSpiel game (:mod:`atout.envs.openspiel`, ``python_atout_<name>``), and
hands that world to the OpenSpiel bot.  What the OpenSpiel bot sees is then:

* the seat's view, exactly (``world.view(seat) == view``): its cards, the
  table, the bids, the tricks of the round, scores and sheet;
* the other hands and undealt cards **as sampled**, never as they are: an
  algorithm that reads the whole state (OpenSpiel's ``MCTSBot``, which
  searches the true state for any game) plays a determinization, one sampled
  world per decision; one that resamples (``ISMCTSBot``, through
  ``resample_from_infostate``) draws further worlds from the same view;
* no past: the world has an empty ``history()`` and carries no record of the
  finished rounds, so its information state is that of the ``per_round`` mode
  (the default ``information_state`` here) — what the view holds of the past
  is the scores and the sheet.  With ``information_state="perfect_recall"``
  the information-state string has an empty ``past`` and the tensor's 64
  digest bits are zero.

The OpenSpiel bot is built once per match by ``make(spiel_game, seat, seed)``
(or the :meth:`OpenSpielBot.make_spiel_bot` method of a subclass, the form a
``py:`` name loads) with a seed drawn from this bot's ``rng``, and asked only
``step`` (a fresh search at every decision: nothing is told it between them,
``inform_action``/``restart_at`` included); a forced decision (one legal
action) is played without asking it.  Its answer must be one of the view's
legal actions; anything else is reported, never replaced.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pyspiel

from ..core.bot import Bot
from ..core.game import Game, View
from .openspiel import (
    INFORMATION_STATES,
    AtoutSpielGame,
    AtoutSpielState,
    _none_value,
    load_game,
    short_name,
)

#: ``make(spiel_game, seat, seed) -> pyspiel.Bot``
SpielBotFactory = Callable[[AtoutSpielGame, int, int], Any]


def spiel_game(game: Game, information_state: str = "per_round") -> AtoutSpielGame:
    """atout's OpenSpiel game (``python_atout_<name>``) for this atout game and its options."""
    if information_state not in INFORMATION_STATES:
        raise ValueError(f"information_state must be one of {', '.join(INFORMATION_STATES)}")
    params: dict[str, Any] = {"players": game.players, "information_state": information_state}
    for spec in game.option_specs:
        value = game.options[spec.name]
        params[spec.name] = _none_value(spec) if value is None else value
    return load_game(short_name(game.name), params)


class OpenSpielBot(Bot):
    """A ``pyspiel.Bot`` (python or C++) as an atout bot; see the module docstring for what it sees."""

    name = "openspiel"

    def __init__(
        self,
        make: SpielBotFactory | None = None,
        seed: int | None = None,
        information_state: str = "per_round",
        name: str | None = None,
    ) -> None:
        super().__init__(seed)
        self._make = make
        self.information_state = information_state
        if name is not None:
            self.name = name
        self.spiel_bot: Any = None
        self._spiel_game: AtoutSpielGame | None = None
        self._for: Game | None = None

    def make_spiel_bot(self, game: AtoutSpielGame, seat: int, seed: int) -> Any:
        """The OpenSpiel bot for one match (override, or pass ``make``)."""
        if self._make is None:
            raise NotImplementedError("give OpenSpielBot a make(game, seat, seed) or override make_spiel_bot")
        return self._make(game, seat, seed)

    def start(self, game: Game, seat: int) -> None:
        super().start(game, seat)
        if self._spiel_game is None or self._for != game:
            self._spiel_game = spiel_game(game, self.information_state)
            self._for = game
        self.spiel_bot = self.make_spiel_bot(self._spiel_game, seat, self.rng.getrandbits(31))

    def world(self, view: View) -> AtoutSpielState:
        """The state the OpenSpiel bot is shown: a world sampled from ``view`` (nothing else)."""
        if self._spiel_game is None or self._for != view.game:
            self.start(view.game, view.seat)
        assert self._spiel_game is not None
        sampled = view.game.sample_state(view, random.Random(self.rng.getrandbits(63)))
        return AtoutSpielState(self._spiel_game, sampled)

    def choose(self, view: View) -> int:
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]  # forced: no world to build
        state = self.world(view)
        action = self.spiel_bot.step(state)
        return int(action)


class UniformRandom(OpenSpielBot):
    """OpenSpiel's C++ uniform random bot (``pyspiel.make_uniform_random_bot``), as a ``py:`` target."""

    name = "openspiel-random"

    def make_spiel_bot(self, game: AtoutSpielGame, seat: int, seed: int) -> Any:
        return pyspiel.make_uniform_random_bot(seat, seed)


__all__ = ["OpenSpielBot", "SpielBotFactory", "UniformRandom", "spiel_game"]
