"""``atout review RECORD``: every decision of a seat weighed by the search, from that seat's view.

The record is replayed (checked move by move, as ``atout replay`` does); each
decision with a choice is evaluated by :func:`atout.bots.review.review_game`
(the seat's view at that moment, worlds sampled from it, never the record's
hidden hands).  Strings come from the web table's dictionaries
(``i18n/<lang>/review.json``), so the terminal and the web page say the
same in both languages.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ..bots.review import REVIEW_PLAYOUTS, DecisionReview, GameReview, review_game
from ..core.errors import RecordError
from ..core.words import Words as TableWords
from ..core.words import languages
from ..records import ReplayError, load_record
from .output import EXIT_BAD_INPUT, EXIT_ILLEGAL, err, fail, out

#: The languages the review speaks: one per folder with a ``review.json``, English first.
LANGS: tuple[str, ...] = languages("review")


def strings(lang: str) -> dict[str, str]:
    """The review's strings in ``lang`` (``i18n/<lang>/review.json``, the web table's too)."""
    return Words(lang).table


class Words(TableWords):
    """``say(key, **values)`` in one language, numbers written its way (a decimal comma in French and German)."""

    def __init__(self, lang: str) -> None:
        super().__init__(lang, "review")

    def number(self, value: float, signed: bool = False) -> str:
        text = f"{value:+.1f}" if signed else f"{value:.1f}"
        # The language's own decimal mark (a comma in French and German; the web page uses Intl).
        return text.replace(".", self.table["review_decimal_point"])


def review(
    record: Annotated[Path, typer.Argument(help="A finished game's record (.atout text or .json).")],
    seat: Annotated[
        int | None, typer.Option("--seat", "-s", help="The seat to review (default: every seat).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    playouts: Annotated[
        int, typer.Option(help="Playouts a decision (the batch-engine search).", min=1, max=100_000)
    ] = REVIEW_PLAYOUTS,
    seed: Annotated[int, typer.Option(help="Seed of the search: the same seed gives the same figures.")] = 0,
    lang: Annotated[str, typer.Option(help=f"Language of the text output: {', '.join(LANGS)}.")] = "en",
) -> None:
    """Review a game: each decision's options with their expected points, the choice, the best, the cost.

    Expected points are the seat's margin over the others' mean for the rest of
    the round, as the search estimates it from what the seat could see.  A
    mistake costs at least the game's first threshold, a blunder its second (and
    more than two standard errors): 5 and 15 points, half a point and 1.5 in Le
    Malin.  An unfinished game is reviewed up to its last finished round.  Exit 2 when the record cannot be read, 3 when a move is illegal.
    """
    if lang not in LANGS:
        raise fail(f"--lang is one of: {', '.join(LANGS)}")
    try:
        rec = load_record(record)
        state = rec.replay()
    except RecordError as exc:
        raise fail(str(exc), EXIT_ILLEGAL if isinstance(exc, ReplayError) else EXIT_BAD_INPUT) from None
    players = state.game.players
    if seat is not None and not 0 <= seat < players:
        raise fail(f"--seat is 0..{players - 1} for this {players}-player game")
    # A name is the record's text: control characters shown escaped (no escape sequence reaches the screen).
    names = [
        "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in name)
        for name in rec.seats or [f"seat {i}" for i in range(players)]
    ]
    say = Words(lang)
    started = time.perf_counter()
    # A bar on a terminal (stderr), nothing when piped: a whole game's review takes seconds.
    progress = Progress(
        TextColumn(say("review_cli_progress")), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
        console=err, transient=True, disable=not err.is_terminal,
    )  # fmt: skip
    with progress:
        task = progress.add_task("review", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        result = review_game(
            state, seats=None if seat is None else [seat], playouts=playouts, seed=seed, progress=advance
        )
    seconds = time.perf_counter() - started
    if as_json:
        print(json.dumps({**result.to_dict(), "names": names, "seconds": round(seconds, 2)}))
        return
    for s in result.seats:
        _print_seat(result, s, names, say)
    err.print(f"{len(result.decisions)} decisions in {seconds:.1f} s")


def _print_seat(result: GameReview, seat: int, names: list[str], say: Words) -> None:
    header = say(
        "review_cli_header",
        name=names[seat],
        seat=seat,
        game=result.game,
        playouts=result.playouts,
        seed=result.seed,
    )
    out.print(Text(header, style="bold"))
    out.print(Text(say("review_explain", playouts=result.playouts), style="dim"))
    current = None
    for d in (d for d in result.decisions if d.seat == seat):
        if d.round != current:
            current = d.round
            out.print(Text(say("review_round", round=d.round), style="bold underline"))
        _print_decision(d, say)
    rounds = [r for r in result.rounds() if r["seat"] == seat]
    table = Table(title=say("review_chart"))
    for key in (
        "review_col_round",
        "review_col_decisions",
        "review_col_lost",
        "review_col_mistakes",
        "review_col_blunders",
    ):
        table.add_column(say(key), justify="right")
    for r in rounds:
        table.add_row(
            str(r["round"]),
            str(r["decisions"]),
            say.number(r["lost"]),
            str(r["mistakes"]),
            str(r["blunders"]),
        )
    table.add_row(
        say("review_total"),
        str(sum(r["decisions"] for r in rounds)),
        say.number(sum(r["lost"] for r in rounds)),
        str(sum(r["mistakes"] for r in rounds)),
        str(sum(r["blunders"] for r in rounds)),
        style="bold",
    )
    out.print(table)


#: The kinds of move the text review words in the reader's language (``review_cli_<word>`` in
#: review.json, ``{rest}`` the notation after the word): every first word of the four games'
#: notations (a word not here is shown in notation).
WORDED = ("bid", "play", "pass", "trump", "wish", "pain", "claim", "malheur")


def move_words(text: str, say: Words) -> str:
    """A move's notation in the reader's words where review.json has them ("bid 0" is "annonce
    0" in French: issue 50; "malheur fennec on 2" is "malheur fennec sur 2"); the notation's own
    card names stay (B7, Z, fennec), as the records write them."""
    word, _, rest = text.partition(" ")
    if word not in WORDED:
        return text
    if word == "malheur":  # (Le Malin's "malheur <card> on <seats>": the "on" is a word too)
        rest = " ".join(say("review_cli_on") if w == "on" else w for w in rest.split(" "))
    return say(f"review_cli_{word}", rest=rest).strip()


def _print_decision(d: DecisionReview, say: Words) -> None:
    chosen = next(o for o in d.options if o.action == d.chosen)
    line = Text(f"  {say('review_chip', step=d.step + 1)} · {move_words(chosen.text, say)} · ")
    if d.level:
        style = "bold red" if d.level == "blunder" else "yellow"
        line.append(say(f"review_{d.level}"), style=style)
        line.append(" · " + say("review_cost", cost=say.number(d.cost)))
    elif d.chosen == d.best:
        line.append(say("review_good"), style="green")
    else:
        line.append(say("review_close") + " · " + say("review_cost", cost=say.number(d.cost)))
    out.print(line)
    texts = {o.action: move_words(o.text, say) for o in d.options}
    width = max(len(t) for t in texts.values())
    for o in sorted(d.options, key=lambda o: (-o.mean, o.action)):
        row = Text(
            f"      {texts[o.action]:<{width}}  {say.number(o.mean, signed=True):>7} ± {say.number(o.stderr)}"
        )
        marks: list[tuple[str, str]] = []
        if o.action == d.best:
            marks.append(("★ " + say("review_best"), "green"))
        if o.action == d.chosen:
            marks.append(("◀ " + say("review_played"), "bold"))
        for text, style in marks:
            row.append("  " + text, style=style)
        out.print(row)


__all__ = ["review"]
