"""Who sits where: a new table's seats drawn, keys checked, a seat handed to a bot or renamed.

Why a module of its own: a seat is what a stranger's key opens, so everything that
gives, checks or takes one away (a key's hash compared in constant time, a bot named
only from the built-in list or the operator's, a former holder's sockets cut off) is
read in one place.  :class:`TableSeats` is one part of :class:`~.tables.TableManager`.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any

from anyio import to_thread

from ..bots.factory import available, make_bot
from ..core.bot import Bot
from ..core.errors import AtoutError, OptionError
from ..core.game import Game
from ..core.reason import GameName, Quoted, reason
from ..core.registry import game_class, load
from ..match import derive_seed
from .live import (
    BOT_PACES,
    DEFAULT_PACE,
    LEFT_WHY,
    LiveTable,
    ManagerParts,
    PlannedTable,
    SeatSpec,
    TableError,
    clean_name,
    hash_key,
)
from .storage import SeatInfo


class TableSeats(ManagerParts):
    """The seats of the manager's tables (a part of :class:`~.tables.TableManager`)."""

    def plan(
        self,
        game_name: str,
        players: int,
        options: dict[str, Any],
        seats: list[SeatSpec],
        bot_pace: str = DEFAULT_PACE,
        key_hashes: dict[int, str] | None = None,
        seed: int | None = None,
    ) -> PlannedTable:
        """A new table checked and drawn (id, seed, seats, keys), not stored yet.

        ``seed``: the deal's seed, for a lesson's scripted deal (server/lessons.py); else drawn.
        """
        if bot_pace not in BOT_PACES:
            raise TableError("bad_request", reason("server.bot_pace", known=", ".join(BOT_PACES)))
        live = sum(1 for t in self.tables.values() if not t.state.is_terminal)
        if live >= self.limits.max_live_tables:
            raise TableError("busy", reason("server.busy", n=live))
        try:
            # Only the game's own option names reach the game's constructor (not
            # ``players``, ``name``, ``self``: keyword arguments of something else).
            cls = game_class(game_name)
            by_name = {s.name for s in cls.option_specs}
            for key in options:
                if key.replace("-", "_") not in by_name:
                    known = ", ".join(sorted(by_name)) or "none"
                    raise OptionError(
                        reason("option.unknown", game=GameName(cls.name), option=Quoted(key), known=known)
                    )
            game = load(game_name, players, **options)
        except AtoutError as exc:
            raise TableError("bad_request", exc.why or str(exc)) from None
        if len(seats) != game.players:
            raise TableError("bad_request", reason("server.seat_count", n=game.players, m=len(seats)))
        bots = self.bots_for(game)
        infos: list[SeatInfo] = []
        keys: dict[int, str] = {}
        for i, spec in enumerate(seats):
            name = clean_name(spec.name) or f"Seat {i + 1}"
            if spec.bot is not None and spec.bot in self.bot_aliases:
                spec = SeatSpec(spec.name, self.bot_aliases[spec.bot], spec.open)
            if spec.bot is not None:
                # Never a program or an import path the operator did not allow:
                # a web user names bots from this list only.
                if spec.bot not in bots:
                    raise TableError(
                        "bad_request",
                        reason(
                            "server.no_bot_for",
                            bot=Quoted(spec.bot),
                            game=GameName(game.name),
                            known=", ".join(bots),
                        ),
                    )
                infos.append(SeatInfo(i, name, spec.bot, None))
            elif key_hashes is not None and i in key_hashes:  # a rematch: the seat keeps its key
                infos.append(SeatInfo(i, name, None, key_hashes[i]))
            elif spec.open:
                infos.append(SeatInfo(i, name, None, None))
            else:
                keys[i] = secrets.token_urlsafe(24)
                infos.append(SeatInfo(i, name, None, hash_key(keys[i])))
        options_text = {k: v for k, v in (p.split("=", 1) for p in game.options_text().split())}
        if seed is None:
            seed = self._seeds.getrandbits(63) if self._seeds is not None else secrets.randbits(63)
        return PlannedTable(
            secrets.token_hex(8),
            game,
            options_text,
            seed,
            infos,
            {"bot_pace": bot_pace},
            keys,
        )

    def bots_for(self, game: Game) -> list[str]:
        """The bot names a table of ``game`` may seat: the built-in ones and the operator's."""
        return [*available(game), *(b for b in self.allowed_bots if b not in available(game))]

    def _make_bot(self, table: LiveTable, info: SeatInfo) -> Bot:
        assert info.bot is not None
        if info.bot not in self.bots_for(table.game):
            # A table stored while the operator allowed this bot, served now without it.
            raise TableError(
                "bad_request",
                reason("server.bot_not_allowed", n=info.seat + 1, bot=Quoted(info.bot)),
            )
        bot = make_bot(info.bot, table.game, derive_seed(table.seed, "bot", info.seat, table.n))
        bot.start(table.game, info.seat)
        return bot

    def seat_for_key(self, table: LiveTable, key: object) -> int:
        """The seat whose key this is; anything else is refused the same way."""
        if not isinstance(key, str) or not 0 < len(key) <= 200:
            raise TableError("bad_key", reason("server.bad_key"))
        digest = hash_key(key)
        for info in table.seats:
            if info.key_hash is not None and hmac.compare_digest(info.key_hash, digest):
                return info.seat
        raise TableError("bad_key", reason("server.bad_key"))

    @staticmethod
    def check_holder(table: LiveTable, seat: int, key_hash: str | None) -> None:
        """Refuse a socket whose seat has been handed over since it joined (under the lock)."""
        if key_hash is not None and table.seats[seat].key_hash != key_hash:
            raise TableError("left", LEFT_WHY)

    async def replace_with_bot(self, table: LiveTable, seat: int, bot_name: str) -> None:
        """A human who left is replaced by a bot; the seat's key stops working."""
        if bot_name not in self.bots_for(table.game):
            raise TableError(
                "bad_request",
                reason("server.no_bot", bot=Quoted(bot_name), known=", ".join(self.bots_for(table.game))),
            )
        async with table.lock:
            if table.state.is_terminal:
                raise TableError("over", reason("server.over"))
            info = table.seats[seat]
            await self._db(lambda: self.storage.set_seat(table.id, seat, bot_name, None))
            table.seats[seat] = SeatInfo(seat, info.name, bot_name, None)
            table.bots[seat] = self._make_bot(table, table.seats[seat])
            # The sockets joined with the old key must neither see the bot's hand nor play.
            await self._cut_off(table, seat)
            await self._broadcast(table)
        await to_thread.run_sync(self.leases.acquire, [table.id])
        self._kick(table)

    async def rename(self, table: LiveTable, seat: int, name: object, key_hash: str | None = None) -> None:
        """A player sitting down gives the seat their name (shown to everyone)."""
        if not isinstance(name, str) or not clean_name(name):
            raise TableError("bad_request", reason("server.name_empty"))
        clean = clean_name(name)
        async with table.lock:
            self.check_holder(table, seat, key_hash)
            await self._db(lambda: self.storage.set_name(table.id, seat, clean))
            info = table.seats[seat]
            table.seats[seat] = SeatInfo(seat, clean, info.bot, info.key_hash)
            await self._broadcast(table)
