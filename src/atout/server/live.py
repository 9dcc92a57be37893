"""One live table and what every part of the table manager shares about tables.

Why a module of its own: :class:`~.tables.TableManager` is split by concept (its
life and the moves in :mod:`.tables`, the seats in :mod:`.seats`, keeping up with
the database in :mod:`.tablesync`, the bots' thinking in :mod:`.botthink`), and all
of them speak of the same things: a :class:`LiveTable` and the message a seat is
sent, a :class:`TableError`, the bot paces, a planned table, a table rebuilt from its
stored actions, the games and bots the creation form offers.  Those live here, below
every part; :class:`ManagerParts` declares (for the type checker only) what the parts
call on one another.  Every name stays importable from :mod:`.tables`.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..bots.factory import LEVELS, available, make_bot
from ..core.bot import Bot
from ..core.errors import AtoutError, OptionError
from ..core.game import Game, State
from ..core.reason import Reason, reason
from ..core.registry import game_class, load
from .room import Room
from .storage import FORMER_PLAYER, SeatInfo, StoredTable, TableRow, table_row

if TYPE_CHECKING:
    import random
    import threading

    from .botpool import BotPool
    from .limits import Limits
    from .pubsub import Leases, LocalLeases
    from .storage import Storage

log = logging.getLogger("atout.server")

#: What a socket is to a table: an async function sending one JSON message.
Sender = Callable[[dict[str, Any]], Awaitable[None]]

MAX_NAME = 40

#: Bot paces a table may be created with: each one's factor on the server's bot delay.
BOT_PACES: dict[str, float] = {"slow": 1.875, "normal": 1.0, "fast": 0.375}
DEFAULT_PACE = "normal"


class TableError(AtoutError):
    """A request about a table that cannot be served; ``code`` is for clients.

    ``message`` is what the reader is told: a reason (rendered in the reader's
    language, server/messages.py), or a text sent as it is.
    """

    def __init__(self, code: str, message: str | Reason, reason: Reason | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: A rules engine's refusal as data (the socket sends it as data too), else None.
        self.reason = reason


def public_bot_name(bot: str | None) -> str | None:
    """What visitors are shown of a bot: an operator's ``py:``/``cmd:`` bot by its name alone.

    ``py:pkg.module:MyBot`` is ``MyBot``, ``cmd:/opt/bots/mine --deep`` is ``mine``: the
    specs name the server's modules and files, which are nobody else's business.
    """
    if bot is None or not bot.startswith(("py:", "cmd:")):
        return bot
    if bot.startswith("py:"):
        return bot.rsplit(":", 1)[-1].rsplit(".", 1)[-1] or "bot"
    words = bot[4:].split()
    return (words[0].replace("\\", "/").rsplit("/", 1)[-1] if words else "") or "bot"


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def clean_name(name: str) -> str:
    """A name as shown and stored: printable characters only (no NUL, control or lone
    surrogate, which PostgreSQL refuses), runs of spaces as one, at most MAX_NAME long."""
    return " ".join("".join(c if c.isprintable() else " " for c in name).split())[:MAX_NAME]


#: Why a socket of a seat handed over to a bot is closed (sent as ``{"type": "left"}``).
LEFT_WHY = reason("server.left")
LEFT = str(LEFT_WHY)
#: Refusal when the database cannot be reached (nothing was changed).
UNAVAILABLE_WHY = reason("server.unavailable")
UNAVAILABLE = str(UNAVAILABLE_WHY)
#: Refusals that may come from this process's copy being behind the database.
STALE = ("stale", "not_your_turn", "over")


@dataclass(frozen=True)
class SeatSpec:
    """A seat as asked for at creation: a bot's name, or ``None`` for a human."""

    name: str
    bot: str | None = None
    #: A human seat left free for whoever joins from the lobby (no key until then).
    open: bool = False


@dataclass
class LiveTable:
    id: str
    game: Game
    seed: int
    state: State
    seats: list[SeatInfo]
    #: Player actions in order: exactly what the database holds.
    actions: list[int]
    #: Every seat's match score at the start and after each round (the chart's points):
    #: scores at a round's end are on the public score sheet of every game.
    score_history: list[list[int]] = field(default_factory=list)
    bots: dict[int, Bot] = field(default_factory=dict)
    sockets: dict[int, set[Sender]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    driver: asyncio.Task[None] | None = None
    #: The bots' pace (a key of :data:`BOT_PACES`), stored with the table.
    bot_pace: str = DEFAULT_PACE
    #: Presence, spectators, clock, away bots, chat, rematch (:mod:`.room`).
    room: Room = field(default_factory=Room)

    @property
    def n(self) -> int:
        return len(self.actions)

    def seat_names(self) -> list[str]:
        return [s.name for s in self.seats]

    def message(self, seat: int) -> dict[str, Any]:
        """What seat ``seat`` is sent: its view and public table facts, nothing else.

        Seat -1 is a spectator: the public view, oriented as seat 0, no legal action.
        """
        view = self.state.view(seat) if seat >= 0 else self.state.public_view()
        over = self.state.is_terminal
        msg: dict[str, Any] = {
            "type": "state",
            "table": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "players": self.game.players,
            "options": self.game.options_text(),
            "seat": seat,
            "n": self.n,
            "seats": [
                {
                    "name": s.name,
                    "bot": public_bot_name(s.bot),
                    "free": s.bot is None and s.key_hash is None,
                    "former": s.bot is None and s.name == FORMER_PLAYER,
                }
                for s in self.seats
            ],
            "view": view.to_dict(),
            "legal": [view.text(a) for a in view.legal_actions] if seat >= 0 else [],
            "to_act": self.state.current_player if not over else None,
            "over": over,
            "score_history": self.score_history,
        }
        if over:
            msg["result"] = {"scores": self.state.scores(), "winners": self.state.winners()}
        if seat < 0:
            msg["spectator"] = True
        msg["room"] = self.room.facts(msg["seats"], self.sockets, msg["to_act"], self.n)
        return msg


@dataclass(frozen=True)
class PlannedTable:
    """A new table as :meth:`TableManager.plan` drew it: what its rows hold, and the seats' keys."""

    table_id: str
    game: Game
    options: dict[str, str]
    seed: int
    seats: list[SeatInfo]
    settings: dict[str, Any]
    keys: dict[int, str]

    def row(self) -> TableRow:
        """The table's new row with its seats (for :meth:`Storage.create_table`, or a room's transaction)."""
        return table_row(
            self.table_id,
            self.game.name,
            self.game.players,
            self.options,
            self.seed,
            self.seats,
            self.settings,
        )


def rebuild(stored: StoredTable) -> tuple[Game, State, list[list[int]]]:
    """The table's game, state and score history: ``new_state(seed)`` then every stored action."""
    game = load(stored.game, stored.players, **stored.options)
    state = game.new_state(stored.seed)
    history = [state.scores()]
    for action in stored.actions:
        before = state.round
        state.apply(action)
        if state.round != before or state.is_terminal:
            history.append(state.scores())
    return game, state, history


def check_allowed_bots(specs: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The operator's extra bots, each checked now (``py:`` imported and built), not at a table.

    Only ``py:`` and ``cmd:`` names: the built-in bots are always offered.
    """
    from ..core.registry import names

    out: list[str] = []
    for spec in specs:
        name = spec.strip()
        if not name.startswith(("py:", "cmd:")):
            raise AtoutError(f"--allow-bot {spec!r}: give a py:MODULE:NAME or cmd:<program> bot")
        if name.startswith("py:"):
            for game in names():
                cls = game_class(game)
                make_bot(name, cls(cls.min_players), 0).close()
        out.append(name)
    return tuple(out)


def game_catalogue() -> list[dict[str, Any]]:
    """Every registered game with what the creation form needs (options, bots)."""
    from ..core.registry import names

    out: list[dict[str, Any]] = []
    for name in names():
        cls = game_class(name)
        try:
            sample = cls(cls.min_players)
            bots = available(sample)
        except (OptionError, AtoutError):
            bots = ["random"]
        out.append(
            {
                "name": name,
                "title": cls.title,
                "summary": cls.summary,
                "min_players": cls.min_players,
                "max_players": cls.max_players,
                "bots": bots,
                "default_bot": "normal" if "normal" in bots else bots[-1],
                "bot_help": {b: LEVELS[b] for b in bots if b in LEVELS},
                "options": [
                    {
                        "name": s.name,
                        "kind": s.kind.__name__,
                        "default": s.default,
                        "help": s.help,
                        "choices": list(s.choices) if s.choices is not None else None,
                        "minimum": s.minimum,
                        "maximum": s.maximum,
                        "none_ok": s.none_ok,
                    }
                    for s in cls.option_specs
                ],
            }
        )
    return out


class ManagerParts:
    """What the parts of :class:`~.tables.TableManager` hold and call on one another.

    Declarations only (set by ``TableManager.__init__``, defined by one part each): a
    part's methods type-check against these without importing the others.
    """

    storage: Storage
    limits: Limits
    tables: dict[str, LiveTable]
    allowed_bots: tuple[str, ...]
    bot_aliases: dict[str, str]
    pool: BotPool | None
    leases: Leases | LocalLeases
    _seeds: random.Random | None
    _overdue: dict[tuple[str, int], threading.Event]
    _thinking: asyncio.Semaphore
    _closing: bool
    _refreshing: set[str]
    _unwatched: set[str]
    _loading_id: str | None
    _outside_seen: int | None
    outside_every: float
    notice_hooks: list[Callable[[str, str], None]]
    moves_hooks: list[Callable[[LiveTable, list[int]], Awaitable[None]]]

    if TYPE_CHECKING:

        async def _db(self, call: Callable[[], Any]) -> Any: ...
        async def get(self, table_id: str) -> LiveTable: ...
        def _spawn(self, coro: Awaitable[None]) -> None: ...
        def _kick(self, table: LiveTable) -> None: ...
        async def _broadcast(self, table: LiveTable) -> None: ...
        async def _cut_off(self, table: LiveTable, seat: int) -> None: ...
        @staticmethod
        def _advance(table: LiveTable, state: State, action: int) -> None: ...
        @staticmethod
        def wants_lease(table: LiveTable) -> bool: ...
        def _make_bot(self, table: LiveTable, info: SeatInfo) -> Bot: ...
