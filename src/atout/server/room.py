"""A live table's social side: who is connected, who watches, the clock, the away bots,
the chat and the rematch votes.

One :class:`Room` per :class:`~.tables.LiveTable` (its ``room``).  What must survive
a restart is in the table's settings (``public``, ``turn_time``, ``away_level``,
``spectator_chat``, the watch link's hash, the seats the away bot plays, the rematch
votes and the next table) or in the chat table (:mod:`.roomstore`); who is
connected is not: after a restart nobody is, and every clock starts afresh.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .clock import TURN_TIMES, TurnClock, default_turn_time
from .roomstore import ChatLine

if TYPE_CHECKING:  # chat.py imports tables.py, which imports this module
    from .chat import ChatLimiter

#: Level of the bot that plays for an absent human when the table names none.
DEFAULT_AWAY_LEVEL = "normal"


@dataclass
class Room:
    public: bool = False
    watch_hash: str | None = None
    spectator_chat: bool = False
    #: The table gives hints (a setting chosen at creation): every reader is told, spectators too,
    #: so that nobody watches a game without knowing a seat may have been advised.
    hints: bool = False
    away_level: str = DEFAULT_AWAY_LEVEL
    #: The game whose lesson this table is (server/lessons.py), else None: never rated.
    lesson: str | None = None
    clock: TurnClock = field(default_factory=lambda: TurnClock(0))
    #: Human seats a bot plays for until their player comes back.
    away: set[int] = field(default_factory=set)
    chat: list[ChatLine] = field(default_factory=list)
    #: Sockets that asked for presence, clock and chat messages (``"living": true`` in join).
    living: set[Any] = field(default_factory=set)
    #: Seats with a live socket on another server process (PostgreSQL: :mod:`.roomstore`).
    elsewhere: set[int] = field(default_factory=set)
    #: Spectators of the table on other server processes.
    spectators_elsewhere: int = 0
    limiters: dict[object, ChatLimiter] = field(default_factory=dict)
    rematch_votes: set[int] = field(default_factory=set)
    next_table: str | None = None
    prev_table: str | None = None
    #: The clock the room reads (tests give their own).
    now: Callable[[], float] = time.monotonic

    @classmethod
    def from_settings(cls, settings: dict[str, Any], humans: int, now: float) -> Room:
        turn = settings.get("turn_time")
        if not isinstance(turn, int) or turn not in TURN_TIMES:
            turn = default_turn_time(humans)
        room = cls(
            public=settings.get("public") is True,
            watch_hash=settings.get("watch") if isinstance(settings.get("watch"), str) else None,
            spectator_chat=settings.get("spectator_chat") is True,
            hints=settings.get("hints") is True,
            lesson=settings.get("lesson") if isinstance(settings.get("lesson"), str) else None,
            clock=TurnClock(turn, started=now),
        )
        level = settings.get("away_level")
        if isinstance(level, str):
            room.away_level = level
        room.apply(settings)
        return room

    def apply(self, settings: dict[str, Any]) -> None:
        """Take the changing part of the stored settings: away seats, rematch votes and tables."""
        self.away = {s for s in settings.get("away") or [] if isinstance(s, int)}
        self.rematch_votes = {s for s in settings.get("rematch_votes") or [] if isinstance(s, int)}
        nxt, prev = settings.get("next"), settings.get("prev")
        self.next_table = nxt if isinstance(nxt, str) else None
        self.prev_table = prev if isinstance(prev, str) else None

    def facts(
        self, seats: list[dict[str, Any]], sockets: dict[int, set[Any]], to_act: int | None, n: int
    ) -> dict[str, Any]:
        """The public facts every reader of the table is sent with its view."""
        now = self.now()
        for i, s in enumerate(seats):
            s["connected"] = bool(sockets.get(i)) or i in self.elsewhere
            s["away"] = i in self.away and not s.get("bot")
            s["free"] = s.get("free", False)
        clock = None
        if (
            to_act is not None
            and to_act >= 0
            and not seats[to_act]["bot"]
            and not seats[to_act]["free"]  # a stand-in bot plays a free seat: no clock runs
            and to_act not in self.away
        ):
            self.clock.observe(n, to_act, now)
            left = self.clock.left(to_act, now)
            if left is not None:
                clock = {"seat": to_act, "left": round(left, 1), "total": self.clock.turn_time}
        return {
            "spectators": len(sockets.get(-1, ())) + self.spectators_elsewhere,
            "public": self.public,
            "turn_time": self.clock.turn_time,
            "spectator_chat": self.spectator_chat,
            "hints": self.hints,
            "clock": clock,
            "rematch": {"votes": sorted(self.rematch_votes), "next": self.next_table},
        }
