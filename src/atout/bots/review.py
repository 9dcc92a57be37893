"""Game review: every decision of a seat weighed by the search, from that seat's view at that moment.

Why the search bot and not an oracle: a player chose knowing only their own
view, so a fair judge knows no more.  The review replays a finished game (or
its finished rounds), and at each decision of a seat with a choice builds
``state.view(seat)`` — exactly what the seat was shown — and asks a search bot
to evaluate it (:meth:`~atout.bots.batched.BatchSearchBot.evaluate`: worlds
sampled from the view, every legal action played out in each).  The hidden
hands of the real game are never read: the bot is given the view only.

The figures are the bot's own (:class:`~atout.bots.evaluation.SearchEvaluation`):
each legal action's expected points (its mean margin over the round: the
seat's gain minus the others' mean gain, as the search scores it), their
standard error and number of worlds.  The best action is the bot's choice; the
*cost* of the player's action is the best's margin minus the player's,
paired over the worlds both were tried in (so the luck of the deal cancels).

A decision is flagged a **mistake** when its cost is at least the game's first
threshold (``Game.review_thresholds``: 5 points by default, half a point in Le
Malin, whose scores move by a point or two a hand) and more than two standard
errors (a difference the search could not tell from noise is not held against
the player), a **blunder** at the second (15 by default).  Each decision is searched with its own
seed, ``derive_seed(seed, "review", index)``, so a decision's figures do not
depend on which others were reviewed (the command line and the web table agree).

The budget is modest by default (:data:`REVIEW_PLAYOUTS` playouts a decision,
with the batch engine where the game has one): bench figures are in the
report of issue 29 and docs/bots.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from ..core.bot import Bot
from ..core.game import State, View
from ..match import derive_seed
from .evaluation import SearchEvaluation

__all__ = [
    "REVIEW_PLAYOUTS",
    "Decision",
    "DecisionReview",
    "GameReview",
    "OptionValue",
    "evaluate_view",
    "review_bot",
    "review_game",
    "review_plan",
]

#: Playouts a reviewed decision (the batch-engine search where the game has a batch simulator).
REVIEW_PLAYOUTS = 300
#: How many standard errors a cost must exceed to be held against the player.
SIGNIFICANCE = 2.0


def review_bot(game: Any, playouts: int = REVIEW_PLAYOUTS, seed: int = 0) -> Bot:
    """The search that reviews: the batch-engine search (heuristic playouts), else the engine's.

    Without wall-clock caps: a review is its budget in playouts, reproducible from its seed.
    """
    from ..batch import batch_class_for

    try:
        batch_class_for(game)
    except ValueError:
        from .search import SearchBot

        return SearchBot(seed, playouts=playouts)
    from .batched import BatchSearchBot

    return BatchSearchBot(seed, playouts=playouts)


def evaluate_view(view: View, playouts: int = REVIEW_PLAYOUTS, seed: int = 0) -> SearchEvaluation:
    """Every legal action of ``view`` evaluated by the reviewing search, from ``seed``.

    The same numbers ``review_bot(view.game, playouts, seed)`` computes to choose.
    """
    bot = review_bot(view.game, playouts, seed)
    bot.start(view.game, view.seat)
    try:
        evaluate: Callable[[View], SearchEvaluation] = bot.evaluate  # type: ignore[attr-defined]
        return evaluate(view)
    finally:
        bot.close()


@dataclass(frozen=True)
class OptionValue:
    """One legal action of a decision: its notation, expected points, standard error and worlds."""

    action: int
    text: str
    mean: float
    stderr: float
    worlds: int


@dataclass(frozen=True)
class DecisionReview:
    """One decision of a seat: the options weighed, what was played, what the search prefers.

    ``index``: the action's place in the state's history; ``step``: how many
    player actions came before it (the web replay's step); ``cost``: the best's
    margin minus the chosen action's, paired (0 when the player chose the best);
    ``level``: ``""``, ``"mistake"`` or ``"blunder"``.
    """

    index: int
    step: int
    round: int
    seat: int
    options: list[OptionValue]
    chosen: int
    best: int
    cost: float
    cost_stderr: float
    level: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class GameReview:
    """A game's reviewed decisions, and per seat and round the points lost and mistakes made."""

    game: str
    players: int
    playouts: int
    seed: int
    seats: list[int]
    #: The game's (mistake, blunder) thresholds in points (``Game.review_thresholds``).
    thresholds: tuple[float, float]
    decisions: list[DecisionReview] = field(default_factory=list)

    def rounds(self) -> list[dict[str, Any]]:
        """Per (round, seat): points lost (sum of costs), mistakes and blunders, in round order."""
        rows: dict[tuple[int, int], dict[str, Any]] = {}
        for d in self.decisions:
            row = rows.setdefault(
                (d.round, d.seat),
                {"round": d.round, "seat": d.seat, "decisions": 0, "lost": 0.0, "mistakes": 0, "blunders": 0},
            )
            row["decisions"] += 1
            row["lost"] += d.cost
            row["mistakes"] += d.level == "mistake"
            row["blunders"] += d.level == "blunder"
        return [rows[k] for k in sorted(rows)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "playouts": self.playouts,
            "seed": self.seed,
            "seats": self.seats,
            "mistake_points": self.thresholds[0],
            "blunder_points": self.thresholds[1],
            "decisions": [d.to_dict() for d in self.decisions],
            "rounds": self.rounds(),
        }


def level_of(cost: float, stderr: float, thresholds: tuple[float, float]) -> str:
    """``"blunder"``, ``"mistake"`` or ``""`` for a decision that cost ``cost`` ± ``stderr`` points."""
    mistake, blunder = thresholds
    if cost <= SIGNIFICANCE * stderr:
        return ""
    if cost >= blunder:
        return "blunder"
    return "mistake" if cost >= mistake else ""


def review_decision(
    view: View,
    chosen: int,
    at: tuple[int, int, int],
    playouts: int = REVIEW_PLAYOUTS,
    seed: int = 0,
) -> DecisionReview:
    """The decision at ``view`` (the seat's own view), where the seat played ``chosen``.

    ``at``: the decision's (history index, player step, round); the index seeds its search.
    """
    index, step, round_ = at
    evaluation = evaluate_view(view, playouts, derive_seed(seed, "review", index))
    options = [
        OptionValue(
            a, view.game.action_to_text(a), evaluation.mean(a), evaluation.stderr(a), evaluation.worlds(a)
        )
        for a in view.legal_actions
    ]
    cost, stderr = evaluation.cost(chosen)
    cost = max(cost, 0.0)  # exact zero for the choice itself (rounding only: see SearchEvaluation.cost)
    return DecisionReview(
        index=index,
        step=step,
        round=round_,
        seat=view.seat,
        options=options,
        chosen=chosen,
        best=evaluation.choice,
        cost=cost,
        cost_stderr=stderr,
        level=level_of(cost, stderr, view.game.review_thresholds),
    )


#: One decision a review weighs: the seat's view, the action it played, (history index, player step, round).
Decision = tuple[View, int, tuple[int, int, int]]


def review_plan(
    state: State, seats: Iterable[int] | None = None, finished_rounds_only: bool | None = None
) -> list[Decision]:
    """The decisions :func:`review_game` weighs, in order: each seat's view where it had a choice.

    Apart so that a caller can count them first (a progress bar's total) or share
    them out (the web table's reviewer searches them a part at a time, telling its
    readers how far it is); the arguments are :func:`review_game`'s.
    """
    game = state.game
    wanted = sorted(set(range(game.players) if seats is None else seats))
    if any(not 0 <= s < game.players for s in wanted):
        raise ValueError(f"seats are 0..{game.players - 1}")
    if finished_rounds_only is None:
        finished_rounds_only = not state.is_terminal
    replay = game.new_state(None) if state.start is None else game.new_state(position=state.start)
    todo: list[Decision] = []
    step = 0
    for index, action in enumerate(state.history):
        actor = replay.current_player
        if finished_rounds_only and replay.round == state.round:
            break
        if actor >= 0:
            if actor in wanted and len(replay.legal_actions()) > 1:
                todo.append((replay.view(actor), action, (index, step, replay.round)))
            step += 1
        replay.apply(action)
    return todo


def review_game(
    state: State,
    seats: Iterable[int] | None = None,
    playouts: int = REVIEW_PLAYOUTS,
    seed: int = 0,
    finished_rounds_only: bool | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview:
    """Review every decision with a choice of ``seats`` (default: all) in ``state``'s history.

    ``state`` is the game as it stands (a replayed record, a table): it is
    replayed from its start and each decision is judged from the seat's view
    at that moment.  An unfinished game is reviewed up to its last finished
    round (``finished_rounds_only``, default: when the game is not over): a
    round still being played shows hands other seats may still be playing.
    ``progress(done, total)`` is called once the decisions are counted, with
    ``done`` 0, then after each decision (a progress bar: ``atout review``).
    """
    game = state.game
    wanted = sorted(set(range(game.players) if seats is None else seats))
    todo = review_plan(state, wanted, finished_rounds_only)
    review = GameReview(game.name, game.players, playouts, seed, wanted, game.review_thresholds)
    if progress is not None:
        progress(0, len(todo))
    for done, (view, action, at) in enumerate(todo, 1):
        review.decisions.append(review_decision(view, action, at, playouts, seed))
        if progress is not None:
            progress(done, len(todo))
    return review
