"""Running matches between bots: the loop shared by ``simulate``, tests and tournaments.

Bots are handed ``state.view(seat)`` and nothing else.  A bot answering an
action that is not legal is an error of that bot (:class:`BotError`): the
engine never substitutes another action for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .core.bot import Bot
from .core.errors import AtoutError
from .core.game import CHANCE, Game, State, seeded_rng


class BotError(AtoutError):
    """A bot answered something that is not one of its legal actions, or failed."""

    def __init__(self, seat: int, bot: str, message: str) -> None:
        self.seat = seat
        self.bot = bot
        super().__init__(f"bot {bot!r} at seat {seat}: {message}")


@dataclass
class MatchResult:
    state: State
    #: Seconds spent in each seat's ``choose`` calls, one entry per decision.
    decision_times: list[list[float]] = field(default_factory=list)


def derive_seed(seed: int, *keys: object) -> int:
    """A 63-bit seed for a sub-task (game i, bot j) drawn from a master seed."""
    return seeded_rng(seed, *keys).getrandbits(63)


def play_match(
    game: Game,
    bots: Sequence[Bot],
    seed: int,
    on_action: Callable[[State, int, int], None] | None = None,
) -> MatchResult:
    """Play one match from ``seed`` (deals drawn from it) with one bot per seat.

    ``on_action(state_before, actor, action)`` is called before each action is
    applied (for logs and progress displays).
    """
    if len(bots) != game.players:
        raise ValueError(f"{len(bots)} bots for {game.players} seats")
    state = game.new_state(seed)
    for seat, bot in enumerate(bots):
        try:
            bot.start(game, seat)
        except Exception as exc:
            raise BotError(seat, bot.name, f"failed to start: {exc}") from exc
    times: list[list[float]] = [[] for _ in bots]
    while not state.is_terminal:
        seat = state.current_player
        if seat == CHANCE:  # a seeded state resolves chance itself
            raise AssertionError("a seeded state stopped at a chance node")
        view = state.view(seat)
        bot = bots[seat]
        start = time.perf_counter()
        try:
            action = bot.choose(view)
        except AtoutError as exc:  # e.g. an external bot that hung or exited
            raise BotError(seat, bot.name, str(exc)) from exc
        except Exception as exc:
            raise BotError(seat, bot.name, f"crashed: {type(exc).__name__}: {exc}") from exc
        times[seat].append(time.perf_counter() - start)
        if action not in view.legal_actions:
            reason = state.illegal_reason(action) if isinstance(action, int) else "not an action id"
            raise BotError(seat, bot.name, f"answered {action!r}, which is illegal: {reason}")
        if on_action is not None:
            on_action(state, seat, action)
        state.apply(action)
    return MatchResult(state, times)


def contract_lines(state: State) -> tuple[list[list[int]], list[list[int]]] | None:
    """Per seat, per round: (the bids, tricks taken minus the bid), read from the final score sheet.

    Generic over games: a game whose view's ``sheet`` lines carry ``bids`` and
    ``tricks`` (Wizard, Le Malin) has contracts; the others have none (None).
    Kept per round because a bid rate hides where it is lost: by hand size
    (Wizard's round *r* deals *r* cards), by bid, and by direction, pushed over
    or held under.
    """
    sheet = state.view(0).to_dict().get("sheet")
    if not isinstance(sheet, list) or not sheet:
        return None
    if not all(isinstance(line, dict) and "bids" in line and "tricks" in line for line in sheet):
        return None
    seats = range(state.game.players)
    bids = [[line["bids"][s] for line in sheet] for s in seats]
    return bids, [[line["tricks"][s] - line["bids"][s] for line in sheet] for s in seats]


def contracts_made(overtricks: list[list[int]]) -> list[tuple[int, int]]:
    """Per seat (made, played): the contracts of :func:`contract_lines` that ended on zero."""
    return [(seat.count(0), len(seat)) for seat in overtricks]
