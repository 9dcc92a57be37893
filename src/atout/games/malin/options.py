"""Le Malin's options: every variant the rules leave open, with its default (the seed's), and
the bounds they set on a match (its hands, its history, its scores).

Le Malin settles more open questions by option than any other game here (the sum
rule, the Wish's forbidden values and collisions, the Twins, the jeu fun's Malheur
deck and its effects): a table of data that :func:`atout.core.options.validate_options`
checks a table's choices against, kept out of the way of the rules in ``game.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.options import OptionSpec, first_dealer_option, start_round_option
from .rules import MAX_SEATS

if TYPE_CHECKING:
    from .game import MalinGame

#: :attr:`MalinGame.option_specs <atout.games.malin.game.MalinGame.option_specs>`.
OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "start_score",
        int,
        10,
        "Starting capital: 10 (the long game) or 6 (the short game for a first play).",
        minimum=1,
        maximum=99,
    ),
    OptionSpec(
        "sum_rule",
        str,
        "final",
        "final: the bids of a hand may not add up to its number of tricks (binds the dealer); "
        "running: no running total of the bids may equal it either.",
        choices=("final", "running"),
    ),
    OptionSpec(
        "wish_forbidden_scope",
        str,
        "trick",
        "trick: the Wish may not take the value of a card already in the trick; "
        "hand: nor of any card already played this hand.",
        choices=("trick", "hand"),
    ),
    OptionSpec(
        "wish_collision",
        str,
        "redeclare_any_trick",
        "A card played after the Wish with the Wish's value makes the Wish's owner choose "
        "again: in every trick (redeclare_any_trick) or in the last trick only "
        "(last_trick_only; elsewhere the earlier card, the Wish, wins the tie).",
        choices=("redeclare_any_trick", "last_trick_only"),
    ),
    OptionSpec(
        "wish_beats_both_twins",
        str,
        "last_trick",
        "A trick holding the Wish and both Twins goes to the Wish: in the last trick "
        "(the seed), in any_trick, or never.",
        choices=("last_trick", "any_trick", "never"),
    ),
    OptionSpec(
        "twin_value",
        str,
        "free",
        "free: a Twin may take 0 or the high value even if it equals the Wish's value (the "
        "Wish then re-declares); avoid_taken: a Twin must avoid a value already in the trick "
        "when it has the choice.",
        choices=("free", "avoid_taken"),
    ),
    OptionSpec(
        "clamp_at_zero",
        bool,
        False,
        "Scores stop at 0 instead of going negative.",
    ),
    first_dealer_option(MAX_SEATS),
    OptionSpec(
        "rounds",
        int,
        None,
        "Play at most N hands (1: a single hand); none plays until a score reaches 0.",
        minimum=1,
        maximum=200,
        none_ok=True,
    ),
    start_round_option(
        "Start the match at this hand number, dealt (from the seed) and rotated as that hand "
        "of a whole match, every seat on start_score; with rounds=1, a single-hand game.",
        maximum=200,
    ),
    OptionSpec(
        "fun",
        bool,
        False,
        "Jeu fun: every player starts with a Malheur card, gains more as the score falls, "
        "and may play them in the Malheur windows.",
    ),
    OptionSpec(
        "malheur_gain",
        str,
        "odd_crossed",
        "When a Malheur card is gained: one per odd score passed or reached (odd_crossed), "
        "one when the new score is odd (final_odd), or one per point lost (per_point).",
        choices=("odd_crossed", "final_odd", "per_point"),
    ),
    OptionSpec("malin_copies", int, 4, "Copies of Le Malin in the Malheur deck.", minimum=0, maximum=20),
    OptionSpec(
        "avocat_copies",
        int,
        4,
        "Copies of L'Avocat du Diable in the Malheur deck.",
        minimum=0,
        maximum=20,
    ),
    OptionSpec("copies_666", int, 4, "Copies of 666 in the Malheur deck.", minimum=0, maximum=20),
    OptionSpec("belzebuth_copies", int, 4, "Copies of Belzébuth in the Malheur deck.", minimum=0, maximum=20),
    OptionSpec("fennec_copies", int, 4, "Copies of Fennec in the Malheur deck.", minimum=0, maximum=20),
    OptionSpec(
        "reverse_single_digit",
        str,
        "unchanged",
        "666 on a one-digit value: unchanged (7 stays 7) or pad_to_two (7 is read 07 and becomes 70).",
        choices=("unchanged", "pad_to_two"),
    ),
    OptionSpec(
        "halve_rounding",
        str,
        "exact",
        "Belzébuth halves exactly (35 -> 17.5) or rounds down (35 -> 17).",
        choices=("exact", "floor"),
    ),
    OptionSpec(
        "malin_steal",
        str,
        "one_from_each",
        "Le Malin takes a random Malheur card from each chosen opponent (one_from_each) "
        "or a single one from the cards of the chosen opponents together (one_total).",
        choices=("one_from_each", "one_total"),
    ),
)


def max_hands(game: MalinGame) -> int:
    """The most hands a match can last: ``rounds``, or fewer, as the sum rule bounds it.

    The contracts never add up to the tricks, so every hand costs the table
    at least one point; a match ends when a score reaches 0, so before its
    last hand the table still holds at least ``players`` points: at most
    ``players * (start_score - 1) + 1`` hands (clamping at 0 changes nothing
    before the last hand).
    """
    by_points: int = game.players * (game.options["start_score"] - 1) + 1
    rounds: int | None = game.options["rounds"]
    return by_points if rounds is None else min(rounds, by_points)


def max_history_length(game: MalinGame) -> int:
    """An upper bound on a whole match's history, from the rules' own limits (see :func:`max_hands`).

    Per hand: the card set aside (1), the deal (``n * hand_size``), the bids
    (``n``), the plays (``n * hand_size``) and the Wish's re-declarations (at
    most one per trick).  The jeu fun adds the opening Malheur draws (``n``),
    every Malheur window's closing round of passes (at most ``n``; one
    window before the bidding and one after each card), and per Malheur card
    ever played a bounded train (the play, a reaction, a steal's two draws,
    the passes it reopens: ``2n + 8`` covers it twice over).  Cards are
    played only once held: the ``n`` opening ones and those gained, at most
    one per point lost, each drawn (one chance action); points lost are at
    most ``start_score`` minus the lowest final score, per seat.
    """
    n, size = game.players, game.hand_size
    hands = max_hands(game)
    per_hand = 1 + n * size + n + n * size + size
    total = 1 + hands * per_hand
    if game.fun:
        low = score_bounds(game)[0]
        gained = n * (game.options["start_score"] - low)
        windows = hands * (n * size + 1)
        total += n + windows * n + (n + gained) * (2 * n + 8) + gained
    return total


def score_bounds(game: MalinGame) -> tuple[int, int]:
    """Final scores lie between 1 - tricks per hand (a seat on 1 missing by every
    trick; 0 with clamp_at_zero) and the starting capital (points are only lost)."""
    low = 0 if game.options["clamp_at_zero"] else 1 - game.hand_size
    return low, game.options["start_score"]
