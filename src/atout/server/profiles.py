"""An account's figures: per game played, wins, margin per round, contracts made, its rating.

Counted once per finished table, lazily: :func:`settle` (called before a profile,
a leaderboard or a game's rating change is shown) takes every finished table with
a seat owned by an account and not counted yet, oldest first, stores each owned
seat's figures in its row and moves the ratings.  A :class:`~.accounts.RatedRow`
is inserted in the same transaction, so two processes settling at once count a
table once (the loser's insert fails and it rolls back).

Ratings are OpenSkill's Plackett–Luce model (the tournament's, :mod:`atout.tournament.stats`),
one per game.  A game rates the accounts' seats and the bots whose level has an
anchor (:data:`LADDER`): humans playing by link only, and bots without an anchor,
are left out of the rating (they are still in the figures).  A bot's rating is
fixed at its anchor (it does not move with the games it plays here), so humans
and bot levels share one scale: ``normal`` is 25 (a new account's starting μ), and
each rung of the measured ladder (bench/RESULTS.md, "The measured ladder": one
candidate against three copies of the rung below, its share of wins ``p``) is
placed where the model gives that candidate that share: in Plackett–Luce with
four seats and small σ, P(first) = 1 / (1 + 3·exp(-Δ/c)), c = 2β, so
Δ = c·ln(3p / (1 - p)) (``p`` clipped to 2%..98%: the random rungs' 99.9% would
put them off any scale a human reaches).

``master`` is placed the same way from its own measured share against three ``hard``
(:data:`MASTER`: bench/RESULTS.md, stop 28 for Wizard, stop 25 for Le Nain Jaune), never from a guess, and
only in the games where it was measured.  Those are a few deals, not the ladder's
hundreds, so its σ says so: the share's binomial standard error over the *deals*
(the four seat rotations of one deal are not independent: counting them as four
games would overstate what is known), √(p(1 − p)/deals), carried through Δ's
derivative c / (p(1 − p)), i.e. σ_Δ = c / √(p(1 − p)·deals), added in quadrature to
:data:`BOT_SIGMA` (the ``hard`` rung it stands on).  Wizard's 6 deals give σ ≈ 7.4 and
Le Nain Jaune's 13 deals σ ≈ 5.3: its shown rating (μ − 3σ) sits well below its μ
until more deals are measured, and a game against it moves a player's rating less.
"""

from __future__ import annotations

import datetime as _dt
import math
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..bots.factory import level_name
from ..match import contract_lines, contracts_made
from .accounts import AccountRow, OwnedSeatRow, RatedRow, RatingRow
from .storage import Storage, TableRow
from .tables import rebuild

#: Win shares of the measured ladder (bench/RESULTS.md), 4 players: rung → (field, share).
LADDER: dict[str, dict[str, tuple[str, float]]] = {
    "wizard": {"normal": ("random", 0.999), "hard": ("normal", 0.706), "expert": ("hard", 0.644)},
    "malin": {"normal": ("random", 0.971), "hard": ("normal", 0.946), "expert": ("hard", 0.321)},
    "sticheln": {"normal": ("random", 0.987), "hard": ("normal", 0.601), "expert": ("hard", 0.477)},
    "nain-jaune": {"normal": ("random", 0.423), "hard": ("normal", 0.447), "expert": ("hard", 0.269)},
}
#: ``master``'s measured win share against three ``hard`` (bench/RESULTS.md: Wizard's master,
#: ``batch:6000:strong`` since stop 28, 6 deals × 4 rotations, 68.8% of wins; Le Nain Jaune's,
#: "Learned bots … stop 25", 13 × 4, 26.9%): game → (field, share, deals).  Le Malin and
#: Sticheln: not one deal measured, no anchor.
MASTER: dict[str, tuple[str, float, int]] = {
    "wizard": ("hard", 0.688, 6),
    "nain-jaune": ("hard", 0.269, 13),
}
#: A ladder bot's σ: its level is known from hundreds of deals (``master``: :func:`anchor_sigma`).
BOT_SIGMA = 1.0
#: Games settled per call of :func:`settle` (the rest wait for the next call).
SETTLE_BATCH = 50

_model = PlackettLuce()


def _step(share: float) -> float:
    p = min(max(share, 0.02), 0.98)
    return 2 * _model.beta * math.log(3 * p / (1 - p))


def anchors(game: str) -> dict[str, float]:
    """The bot levels' fixed μ in ``game`` (``normal`` = the starting μ; empty for a game off the ladder)."""
    ladder = LADDER.get(game)
    if ladder is None:
        return {}
    out = {"normal": float(_model.mu)}
    out["random"] = out["normal"] - _step(ladder["normal"][1])
    out["hard"] = out["normal"] + _step(ladder["hard"][1])
    out["expert"] = out["hard"] + _step(ladder["expert"][1])
    master = MASTER.get(game)
    if master is not None:
        field, share, _ = master
        out["master"] = out[field] + _step(share)
    return out


def anchor_sigma(game: str, level: str) -> float:
    """A bot level's σ in ``game``: :data:`BOT_SIGMA`, and for ``master`` its few deals' uncertainty.

    σ_Δ = c / √(p(1 − p)·deals) is the standard error of Δ = c·ln(3p / (1 − p)) when ``p``
    is a share measured over ``deals`` independent deals (the delta method), added in
    quadrature to the σ of the rung it is measured against.
    """
    master = MASTER.get(game)
    if level != "master" or master is None:
        return BOT_SIGMA
    _, share, deals = master
    spread = 2 * _model.beta / math.sqrt(share * (1 - share) * deals)
    return math.sqrt(BOT_SIGMA**2 + spread**2)


def ordinal(mu: float, sigma: float) -> float:
    """The shown rating: μ − 3σ (a new account starts near 0 and rises as it is known)."""
    return mu - 3 * sigma


def settle(storage: Storage, limit: int = SETTLE_BATCH) -> int:
    """Count the finished tables with an owned seat not counted yet (oldest first); returns how many.

    A seat claimed after its table was counted gets its figures then, not a rating: the
    ratings moved game by game in order, and that game's turn has passed.
    """
    with Session(storage.engine) as session:
        pending = session.scalars(
            select(TableRow.id)
            .join(OwnedSeatRow, OwnedSeatRow.table_id == TableRow.id)
            .where(TableRow.finished.is_(True), OwnedSeatRow.result.is_(None))
            .group_by(TableRow.id, TableRow.created)
            .order_by(TableRow.created)
            .limit(limit)
        ).all()
    done = 0
    for table_id in pending:
        try:
            done += _settle_one(storage, table_id)
        except IntegrityError:  # another process counted it first
            continue
    return done


def _settle_one(storage: Storage, table_id: str) -> int:
    stored = storage.load(table_id)
    if stored is None or not stored.finished:
        return 0
    _, state, _ = rebuild(stored)
    scores = state.scores()
    n = len(scores)
    rounds = max(state.round, 1)
    winners = set(state.winners())
    lines = contract_lines(state)
    made = contracts_made(lines[1]) if lines is not None else None
    with Session(storage.engine) as session, session.begin():
        first = session.get(RatedRow, table_id) is None
        if first:
            session.add(RatedRow(table_id=table_id, at=_dt.datetime.now(_dt.UTC)))
            session.flush()  # the claim on this table: a second process fails here
        owned = {
            r.seat: r
            for r in session.scalars(
                select(OwnedSeatRow).where(OwnedSeatRow.table_id == table_id).with_for_update()
            ).all()
        }
        results: dict[int, dict[str, Any]] = {}
        for seat in owned:
            others = [s for i, s in enumerate(scores) if i != seat]
            margin = scores[seat] - (sum(others) / len(others) if others else 0.0)
            results[seat] = {
                "score": scores[seat],
                "won": seat in winners,
                "rank": 1 + sum(1 for s in scores if s > scores[seat]),
                "players": n,
                "rounds": rounds,
                "margin_per_round": round(margin / rounds, 3),
                "contracts": list(made[seat]) if made is not None else None,
            }
        if first:
            _rate(session, stored.game, stored.seats, scores, owned, results)
        for seat, row in owned.items():
            if row.result is None:  # a seat counted before keeps its figures and rating change
                row.result = results[seat]
    return 1


def _rate(
    session: Session,
    game: str,
    seats: list[Any],
    scores: list[int],
    owned: dict[int, OwnedSeatRow],
    results: dict[int, dict[str, Any]],
) -> None:
    """Move the ratings of the accounts seated at a finished game (see the module's docstring)."""
    fixed = anchors(game)
    entrants: list[tuple[int, int | None, float, float]] = []  # seat, account (None: bot), mu, sigma
    ratings: dict[int, RatingRow] = {}
    for info in seats:
        row = owned.get(info.seat)
        if row is not None:
            if row.account_id in ratings:  # one account in two seats: its first counts
                continue
            rating = session.get(RatingRow, (row.account_id, game), with_for_update=True)
            if rating is None:
                rating = RatingRow(
                    account_id=row.account_id,
                    game=game,
                    mu=float(_model.mu),
                    sigma=float(_model.sigma),
                    games=0,
                )
                session.add(rating)
            ratings[row.account_id] = rating
            entrants.append((info.seat, row.account_id, rating.mu, rating.sigma))
        elif info.bot is not None and level_name(info.bot) in fixed:
            level = level_name(info.bot)
            entrants.append((info.seat, None, fixed[level], anchor_sigma(game, level)))
    if len(entrants) < 2 or not ratings:
        return
    teams = [[_model.rating(mu=mu, sigma=sigma)] for _, _, mu, sigma in entrants]
    new = _model.rate(teams, scores=[float(scores[seat]) for seat, _, _, _ in entrants])
    for (seat, account_id, mu, sigma), team in zip(entrants, new, strict=True):
        if account_id is None:
            continue
        rating = ratings[account_id]
        after_mu, after_sigma = float(team[0].mu), float(team[0].sigma)
        results[seat]["rating"] = {
            "before": round(ordinal(mu, sigma), 2),
            "after": round(ordinal(after_mu, after_sigma), 2),
        }
        rating.mu, rating.sigma, rating.games = after_mu, after_sigma, rating.games + 1


def ratings_of(storage: Storage, account_id: int) -> dict[str, dict[str, float]]:
    """The account's rating per game: μ, σ, the shown rating and the rated games."""
    with Session(storage.engine) as session:
        rows = session.scalars(select(RatingRow).where(RatingRow.account_id == account_id)).all()
        return {
            r.game: {
                "mu": round(r.mu, 2),
                "sigma": round(r.sigma, 2),
                "rating": round(ordinal(r.mu, r.sigma), 2),
                "games": r.games,
            }
            for r in rows
        }


def summary(games: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per game: finished games, wins, mean margin per round, contracts made / played."""
    out: dict[str, dict[str, Any]] = {}
    for g in games:
        result = g.get("result")
        if not g["finished"] or result is None:
            continue
        s = out.setdefault(g["game"], {"played": 0, "wins": 0, "margin_sum": 0.0, "made": 0, "contracts": 0})
        s["played"] += 1
        s["wins"] += bool(result["won"])
        s["margin_sum"] += result["margin_per_round"]
        if result.get("contracts") is not None:
            s["made"] += result["contracts"][0]
            s["contracts"] += result["contracts"][1]
    for s in out.values():
        s["margin_per_round"] = round(s.pop("margin_sum") / s["played"], 2)
        if not s["contracts"]:
            s["made"] = s["contracts"] = None
    return out


#: A leaderboard shows at most this many accounts.
LEADERBOARD_SIZE = 50


def leaderboard(storage: Storage, game: str) -> list[dict[str, Any]]:
    """The opted-in accounts rated in ``game``, best shown rating first, with the bot levels' anchors."""
    with Session(storage.engine) as session:
        rows = session.execute(
            select(AccountRow.name, AccountRow.public, RatingRow.mu, RatingRow.sigma, RatingRow.games)
            .join(RatingRow, RatingRow.account_id == AccountRow.id)
            .where(RatingRow.game == game, AccountRow.leaderboard.is_(True))
        ).all()
    people: list[dict[str, Any]] = [
        {"name": name, "public": public, "rating": round(ordinal(mu, sigma), 2), "games": games, "bot": False}
        for name, public, mu, sigma, games in rows
    ]
    people.sort(key=lambda p: -float(p["rating"]))
    bots = [
        {
            "name": level,
            "rating": round(ordinal(mu, anchor_sigma(game, level)), 2),
            "games": None,
            "bot": True,
            "public": False,
        }
        for level, mu in anchors(game).items()
    ]
    return sorted(people[:LEADERBOARD_SIZE] + bots, key=lambda p: -float(p["rating"]))
