"""Writing a tournament's results: JSON (everything), CSV (per bot, per match) and a plot.

Files written into the output directory:

* ``results.json`` — the settings, per-bot summaries, aborted matches;
* ``bots.csv`` — one line per bot (the table of the terminal);
* ``matches.csv`` — one line per seat of every match played (deal, rotation,
  seat, bot, score, rounds, winner), for analyses of one's own;
* ``plot.png`` and ``plot.svg`` — score-per-round distributions per bot and the
  rating table.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .runner import MatchOutcome
from .stats import BotSummary, complete

BOT_COLUMNS = (
    "bot",
    "seat_matches",
    "score_per_match",
    "score_per_match_ci95",
    "score_per_round",
    "score_per_round_ci95",
    "margin_per_match",
    "margin_per_match_ci95",
    "margin_per_round",
    "margin_per_round_ci95",
    "win_share",
    "win_share_ci95",
    "contracts_made",
    "contracts_over",
    "contracts_under",
    "decision_p50",
    "decision_p90",
    "decision_p99",
    "decision_max",
    "decisions",
    "rating_mu",
    "rating_sigma",
    "rating",
)


def bot_row(b: BotSummary) -> dict[str, Any]:
    """A bot's summary flattened to the CSV columns."""
    row: dict[str, Any] = {"bot": b.bot, "seat_matches": b.seat_matches}
    for key in ("score_per_match", "score_per_round", "margin_per_match", "margin_per_round", "win_share"):
        est = getattr(b, key)
        row[key] = est.mean
        row[f"{key}_ci95"] = est.ci95
    row.update(
        contracts_made=b.contracts_made, contracts_over=b.contracts_over, contracts_under=b.contracts_under
    )
    for key in ("p50", "p90", "p99", "max"):
        row[f"decision_{key}"] = b.decision_times.get(key)
    row.update(decisions=b.decisions, rating_mu=b.rating_mu, rating_sigma=b.rating_sigma, rating=b.rating)
    return row


def write_results(
    out: Path,
    settings: dict[str, Any],
    outcomes: Sequence[MatchOutcome],
    summaries: Sequence[BotSummary],
    plot: bool = True,
) -> list[Path]:
    """Write every result file into ``out`` (created if needed); the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    played, aborted = complete(outcomes)
    payload = {
        "settings": settings,
        "matches": len(outcomes),
        "matches_scored": len(played),
        "deals_scored": len({o.deal for o in played}),
        "bots": [b.to_dict() for b in summaries],
        "aborted": [
            {"deal": o.deal, "rotation": o.rotation, "seats": list(o.seats), "error": o.error}
            for o in aborted
        ],
    }
    paths = [out / "results.json", out / "bots.csv", out / "matches.csv"]
    paths[0].write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    with paths[1].open("w", newline="", encoding="utf-8") as f:
        table = csv.DictWriter(f, fieldnames=BOT_COLUMNS)
        table.writeheader()
        for b in summaries:
            table.writerow(bot_row(b))
    with paths[2].open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["deal", "rotation", "seat", "bot", "score", "rounds", "winner", "error"])
        for o in outcomes:
            for s, name in enumerate(o.seats):
                if o.error is not None:
                    writer.writerow([o.deal, o.rotation, s, name, "", "", "", o.error])
                else:
                    writer.writerow(
                        [o.deal, o.rotation, s, name, o.scores[s], o.rounds, int(s in o.winners), ""]
                    )
    if plot and summaries:
        paths += write_plot(out, settings, played, summaries)
    return paths


def write_plot(
    out: Path, settings: dict[str, Any], played: Sequence[MatchOutcome], summaries: Sequence[BotSummary]
) -> list[Path]:
    """Score-per-round distributions (box plots) beside the rating table, as PNG and SVG."""
    import matplotlib

    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    names = [b.bot for b in summaries]
    data: dict[str, list[float]] = {name: [] for name in names}
    for o in played:
        for s, name in enumerate(o.seats):
            data[name].append(o.scores[s] / max(o.rounds, 1))
    fig, (box, table) = plt.subplots(
        1, 2, figsize=(12, 0.6 * len(names) + 3), gridspec_kw={"width_ratios": [3, 2]}
    )
    box.boxplot([data[n] for n in names], orientation="horizontal", showmeans=True)
    box.set_yticks(range(1, len(names) + 1), names)
    box.invert_yaxis()
    box.set_xlabel("score per round (one point per seat-match)")
    box.set_title(f"{settings.get('game', '')}, {settings.get('players', '')} players, {len(played)} matches")
    box.grid(axis="x", alpha=0.3)
    table.axis("off")
    rows = [
        [
            b.bot,
            f"{b.rating:.1f}",
            f"{b.rating_mu:.1f} ± {b.rating_sigma:.1f}",
            f"{b.margin_per_round.mean:+.2f}",
            f"{b.win_share.mean:.0%}",
        ]
        for b in summaries
    ]
    tab = table.table(
        cellText=rows, colLabels=["bot", "rating", "mu ± sigma", "margin/round", "wins"], loc="center"
    )
    tab.auto_set_font_size(False)
    tab.set_fontsize(9)
    tab.scale(1, 1.4)
    table.set_title("OpenSkill (Plackett–Luce), sorted by mu − 3 sigma")
    fig.tight_layout()
    paths = [out / "plot.png", out / "plot.svg"]
    for p in paths:
        fig.savefig(p)
    plt.close(fig)
    return paths
