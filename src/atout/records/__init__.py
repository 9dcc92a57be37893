"""Game records: the text format (like PGN), its JSON twin, replay and per-seat export.

The format is specified in docs/records.md.  In short::

    [Atout "1"]
    [Game "wizard"]
    [Players "4"]
    [Options "plus_minus_one=true"]
    [Seed "7"]
    [Seat0 "Alice"]
    [Result "120 -30 50 10"]
    [MoveCount "6"]
    [Digest "sha256:…"]

    dealer 3
    round 1
    deal 0: B6
    deal 1: Y6
    turn G13
    0: bid 1
    0: play B6

Every chance event is written out (deals, turned cards), so a record replays
without any random generator; ``Seed`` only says where they came from.
``MoveCount`` and ``Digest`` let replay notice a move deleted or altered after
the record was written, even when the game left is still legal.
"""

from .format import Integrity, Move, Record, ReplayError, load_record, parse_record, save_record

__all__ = ["Integrity", "Move", "Record", "ReplayError", "load_record", "parse_record", "save_record"]
