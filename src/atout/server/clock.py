"""The turn clock: when a bot must play for a human seat.

Pure arithmetic on times given by the caller (``now``), so tests drive it with
their own clock and nothing depends on sleeping.  A seat's turn starts when the
table's move count or the seat to act changes; the seat is due for the away bot
when its turn has run ``turn_time`` seconds, or, if its player is disconnected,
when they have been gone ``turn_time`` seconds (whichever comes first): a
connected player always has their whole time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: The turn times a table may have (seconds; 0 is off).
TURN_TIMES = (0, 30, 60, 180)
#: The default with two or more humans: generous, so nobody is rushed.
DEFAULT_TURN_TIME = 180


def default_turn_time(humans: int) -> int:
    """Off for one human among bots (nobody waits for them), generous otherwise."""
    return DEFAULT_TURN_TIME if humans >= 2 else 0


@dataclass
class TurnClock:
    turn_time: float
    #: (move count, seat to act) of the turn being timed, and when it started.
    turn: tuple[int, int] | None = None
    started: float = 0.0
    #: When each human seat's last socket closed (absent: connected).
    gone: dict[int, float] = field(default_factory=dict)

    def observe(self, n: int, seat: int, now: float) -> None:
        """Note the current turn; a new one starts its time now."""
        if self.turn != (n, seat):
            self.turn = (n, seat)
            self.started = now

    def restart(self, now: float) -> None:
        """Start the current turn's time again (a player came back; a server restarted)."""
        self.started = now

    def deadline(self, seat: int) -> float | None:
        """When seat ``seat`` (the one to act) is due for the away bot; None when the clock is off."""
        if self.turn_time <= 0:
            return None
        due = self.started + self.turn_time
        gone = self.gone.get(seat)
        if gone is not None:
            due = min(due, max(gone + self.turn_time, self.started))
        return due

    def left(self, seat: int, now: float) -> float | None:
        due = self.deadline(seat)
        return None if due is None else max(0.0, due - now)

    def due(self, seat: int, now: float) -> bool:
        d = self.deadline(seat)
        return d is not None and now >= d
