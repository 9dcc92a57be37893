"""What a living table keeps in the database besides its moves: its room (lobby listing,
settings and state), the chat, and the claim of a free seat.

New tables only (``Base.metadata.create_all`` makes them in an older database at start-up),
so the schema of :mod:`.storage` is untouched.  Every function takes the
:class:`~.storage.Storage` and runs one short transaction; call them from a worker thread.

Several processes on one PostgreSQL share the room through these rows: a change of
the room's state is made on its row locked for the transaction (``FOR UPDATE``: two
processes adding a rematch vote or an away seat at once both count) and sends its
notice (:mod:`.pubsub`) in that transaction.  Who is connected is in
:class:`PresenceRow`: one row per (table, seat, process) holding a live socket,
kept alive by that process's heartbeat and dead :data:`PRESENCE_TTL` seconds after
its last one (a process killed with ``kill -9`` leaves rows that expire).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    delete,
    func,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from .storage import FORMER_PLAYER, Base, SeatRow, Storage, TableRow

#: The lobby lists at most this many tables (newest first): a stranger cannot make it unbounded.
LOBBY_LIMIT = 60
#: Chat lines read back with a table (the newest); older ones stay in the database.
CHAT_KEEP = 200


class RoomRow(Base):
    """A table's living side: listed in the lobby or not, and its room settings and state.

    ``settings``: ``watch`` (SHA-256 of the watch link's token), ``spectator_chat``,
    ``turn_time``, ``away_level``, and what changes during play: ``away`` (seats the
    away bot plays), ``rematch_votes``, ``next`` / ``prev`` (the rematch's tables).
    A table made before this table existed has no row: it is private, with defaults.
    """

    __tablename__ = "atout_rooms"

    table_id: Mapped[str] = mapped_column(ForeignKey("atout_tables.id"), primary_key=True)
    public: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    created: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)


class ChatRow(Base):
    """One chat line: who said it (seat, or -1 for a spectator), their name then, and at which move."""

    __tablename__ = "atout_chat"

    table_id: Mapped[str] = mapped_column(ForeignKey("atout_tables.id"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(400))
    n: Mapped[int] = mapped_column(Integer)
    at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))


class PresenceRow(Base):
    """Process ``origin`` holds ``sockets`` live sockets of seat ``seat`` of the table, until ``expires``.

    Seat -1 counts the process's spectators of the table (renewed with the heartbeat
    only, so they may be a second late; a player's row is written as they come and go).
    """

    __tablename__ = "atout_presence"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    origin: Mapped[str] = mapped_column(String(32), primary_key=True)
    sockets: Mapped[int] = mapped_column(Integer, default=1)
    expires: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True), index=True)


#: Seconds a presence row lives after its process's last heartbeat.
PRESENCE_TTL = 5.0


@dataclass(frozen=True)
class ChatLine:
    idx: int
    seat: int
    name: str
    text: str
    n: int

    def to_dict(self) -> dict[str, Any]:
        line: dict[str, Any] = {
            "idx": self.idx,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "n": self.n,
        }
        if (
            self.seat >= 0 and self.name == FORMER_PLAYER
        ):  # a deleted account's: shown in the reader's language
            line["former"] = True
        return line


#: A human's move is stored only if its seat is not among the room's away seats
#: (:attr:`.Storage.move_guards`): when another process handed the seat to the away bot
#: and its notice has not arrived yet, the move is refused as :class:`.storage.Unseen`, and
#: the mover reads the room (``away``, then ``back``) before trying again.  Checked in the
#: move's own statement, so a move made when nothing changed costs no read of the room.
NOT_AWAY = (
    "NOT EXISTS (SELECT 1 FROM atout_rooms AS r WHERE r.table_id = :table_id"
    " AND (r.settings -> 'away')::jsonb @> to_jsonb(CAST(:seat AS integer)))"
)


def ensure_tables(storage: Storage) -> None:
    """Create this module's tables in a database made before them (idempotent), and guard
    human moves on the room's away seats (PostgreSQL: :data:`NOT_AWAY`)."""
    tables = [RoomRow.__table__, ChatRow.__table__, PresenceRow.__table__]
    Base.metadata.create_all(storage.engine, tables=tables)  # type: ignore[arg-type]
    if storage.notifies and NOT_AWAY not in storage.move_guards:
        storage.move_guards = (*storage.move_guards, NOT_AWAY)


def save_room(storage: Storage, table_id: str, public: bool, settings: dict[str, Any]) -> None:
    with Session(storage.engine) as session, session.begin():
        session.merge(
            RoomRow(
                table_id=table_id, public=public, created=_dt.datetime.now(_dt.UTC), settings=dict(settings)
            )
        )


def load_room(storage: Storage, table_id: str) -> tuple[bool, dict[str, Any]]:
    """Whether the table is public, and its room settings (private and empty without a row)."""
    with Session(storage.engine) as session:
        row = session.get(RoomRow, table_id)
        return (False, {}) if row is None else (row.public, dict(row.settings or {}))


def _locked_room(session: Session, table_id: str) -> RoomRow:
    """The room's row, locked until the transaction ends (made, private, if missing)."""
    row = session.get(RoomRow, table_id, with_for_update=True)
    if row is None:
        row = RoomRow(table_id=table_id, public=False, created=_dt.datetime.now(_dt.UTC), settings={})
        session.add(row)
    return row


def set_away(storage: Storage, table_id: str, seat: int, away: bool) -> bool:
    """Add seat ``seat`` to the away seats (``away``) or take it out; whether that changed them.

    On the locked row: a process handing a seat to the away bot and another giving it
    back to its player cannot both win.
    """
    with Session(storage.engine) as session, session.begin():
        row = _locked_room(session, table_id)
        settings = dict(row.settings or {})
        seats = {s for s in settings.get("away") or [] if isinstance(s, int)}
        if (seat in seats) == away:
            return False
        seats = seats | {seat} if away else seats - {seat}
        row.settings = {**settings, "away": sorted(seats)}
        storage.changed(session, table_id, "room")
        return True


def vote_rematch(
    storage: Storage,
    table_id: str,
    seat: int,
    present: set[int],
    make: Callable[[Session], tuple[str, Any]],
) -> tuple[set[int], str | None, Any]:
    """Seat ``seat`` votes for a rematch; when every seat of ``present`` has, the new table is made.

    One transaction on the locked room row, wherever the votes are cast: exactly one
    rematch table whatever process each vote lands on.  ``make(session)`` adds the new
    table's rows to the session and returns its id and what the caller needs of it.
    Returns the votes, the next table's id (``None`` until made) and ``make``'s answer
    when this vote made it.
    """
    with Session(storage.engine) as session, session.begin():
        row = _locked_room(session, table_id)
        settings = dict(row.settings or {})
        votes = {s for s in settings.get("rematch_votes") or [] if isinstance(s, int)} | {seat}
        nxt = settings.get("next")
        if isinstance(nxt, str):
            return votes, nxt, None
        made = None
        if present <= votes:
            nxt, made = make(session)
            settings["next"] = nxt
        row.settings = {**settings, "rematch_votes": sorted(votes)}
        storage.changed(session, table_id, "room")
        return votes, nxt if isinstance(nxt, str) else None, made


def public_ids(storage: Storage) -> list[str]:
    """Unfinished public tables, newest first (at most :data:`LOBBY_LIMIT`)."""
    with Session(storage.engine) as session:
        rows = session.scalars(
            select(RoomRow.table_id)
            .join(TableRow, TableRow.id == RoomRow.table_id)
            .where(RoomRow.public.is_(True), TableRow.finished.is_(False))
            .order_by(RoomRow.created.desc())
            .limit(LOBBY_LIMIT)
        ).all()
        return list(rows)


def claim_seat(storage: Storage, table_id: str, seat: int, name: str, key_hash: str) -> bool:
    """Give free seat ``seat`` its key and name, only if it is still free; whether it was."""
    with Session(storage.engine) as session, session.begin():
        done = session.execute(
            update(SeatRow)
            .where(
                SeatRow.table_id == table_id,
                SeatRow.seat == seat,
                SeatRow.key_hash.is_(None),
                SeatRow.bot.is_(None),
            )
            .values(key_hash=key_hash, name=name)
        )
        ok = bool(getattr(done, "rowcount", 0) == 1)
        if ok:
            storage.changed(session, table_id)
            storage.changed(session, table_id, f"event sat {seat}")
        return ok


def add_chat(storage: Storage, table_id: str, seat: int, name: str, text: str, n: int) -> ChatLine:
    """Store a chat line under the table's next number (given here: several processes add lines)."""
    for attempt in range(5):
        try:
            with Session(storage.engine) as session, session.begin():
                last = session.scalar(select(func.max(ChatRow.idx)).where(ChatRow.table_id == table_id))
                line = ChatLine(0 if last is None else last + 1, seat, name, text, n)
                session.add(
                    ChatRow(
                        table_id=table_id,
                        idx=line.idx,
                        seat=seat,
                        name=name,
                        text=text,
                        n=n,
                        at=_dt.datetime.now(_dt.UTC),
                    )
                )
                session.flush()
                storage.changed(session, table_id, "chat")
                return line
        except IntegrityError:  # another process took that number first
            if attempt == 4:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def load_chat(storage: Storage, table_id: str, after: int = -1) -> list[ChatLine]:
    """The table's newest :data:`CHAT_KEEP` lines numbered above ``after``, oldest first."""
    with Session(storage.engine) as session:
        rows = session.scalars(
            select(ChatRow)
            .where(ChatRow.table_id == table_id, ChatRow.idx > after)
            .order_by(ChatRow.idx.desc())
            .limit(CHAT_KEEP)
        ).all()
        return [ChatLine(r.idx, r.seat, r.name, r.text, r.n) for r in reversed(rows)]


# -- presence (several processes) ----------------------------------------------------------------
def _expiry(session: Session) -> Any:
    return func.now() + _dt.timedelta(seconds=PRESENCE_TTL)


def _upsert(session: Session, rows: list[dict[str, Any]]) -> None:
    from sqlalchemy.dialects.postgresql import insert

    stmt = insert(PresenceRow).values(rows)
    session.execute(
        stmt.on_conflict_do_update(
            index_elements=["table_id", "seat", "origin"],
            set_={"expires": stmt.excluded.expires, "sockets": stmt.excluded.sockets},
        )
    )


def set_present(storage: Storage, table_id: str, seat: int, origin: str, sockets: int) -> None:
    """This process (``origin``) now holds ``sockets`` live sockets of the seat (0: none); others are told."""
    with Session(storage.engine) as session, session.begin():
        if sockets > 0:
            row = {"table_id": table_id, "seat": seat, "origin": origin, "sockets": sockets}
            _upsert(session, [{**row, "expires": _expiry(session)}])
        else:
            session.execute(
                delete(PresenceRow).where(
                    PresenceRow.table_id == table_id, PresenceRow.seat == seat, PresenceRow.origin == origin
                )
            )
        storage.changed(session, table_id, "presence")


#: The heartbeat's two statements (PostgreSQL), their text fixed so the driver prepares
#: them once: drop rows dead for a minute and this process's spectator counts (replaced
#: whole: a flood of spectators costs one write a second), then renew this process's
#: rows from three arrays.  Why not the ORM's insert: built anew each second for a
#: hundred rows, its compilation held the interpreter about 20 ms a second (a profile of
#: three processes serving 100 tables), delaying the moves waiting on the event loop.
_HEARTBEAT_DROP = text(
    "DELETE FROM atout_presence"
    " WHERE expires < now() - interval '1 minute' OR (origin = :origin AND seat < 0)"
)
_HEARTBEAT_RENEW = text(
    "INSERT INTO atout_presence (table_id, seat, origin, sockets, expires)"
    " SELECT t, s, :origin, n, now() + :ttl * interval '1 second'"
    " FROM unnest(CAST(:tables AS varchar[]), CAST(:seats AS integer[]), CAST(:sockets AS integer[]))"
    " AS u(t, s, n)"
    " ON CONFLICT (table_id, seat, origin) DO UPDATE SET expires = excluded.expires, sockets = excluded.sockets"
)
#: The live sockets of other processes at some tables (PostgreSQL: an array, one prepared statement).
_ELSEWHERE = text(
    "SELECT table_id, seat, sum(sockets) FROM atout_presence"
    " WHERE table_id = ANY(CAST(:tables AS varchar[])) AND origin <> :origin AND expires > now()"
    " GROUP BY table_id, seat"
)


def heartbeat(storage: Storage, origin: str, seats: list[tuple[str, int, int]]) -> None:
    """Keep this process's presence rows (table, seat, sockets) alive, made again if an outage let them expire."""
    with Session(storage.engine) as session, session.begin():
        session.execute(_HEARTBEAT_DROP, {"origin": origin})
        if seats:
            session.execute(
                _HEARTBEAT_RENEW,
                {
                    "origin": origin,
                    "ttl": PRESENCE_TTL,
                    "tables": [t for t, _, _ in seats],
                    "seats": [s for _, s, _ in seats],
                    "sockets": [n for _, _, n in seats],
                },
            )


def forget_process(storage: Storage, origin: str) -> None:
    """A process stopping: its presence rows go at once (not when they expire)."""
    with Session(storage.engine) as session, session.begin():
        session.execute(delete(PresenceRow).where(PresenceRow.origin == origin))


def present_elsewhere(storage: Storage, table_ids: list[str], origin: str) -> dict[str, dict[int, int]]:
    """For each of ``table_ids``, the live sockets of each seat (-1: spectators) on processes other than ``origin``."""
    out: dict[str, dict[int, int]] = {t: {} for t in table_ids}
    if not table_ids:
        return out
    with Session(storage.engine) as session:
        rows = session.execute(_ELSEWHERE, {"tables": list(table_ids), "origin": origin}).all()
    for table_id, seat, count in rows:
        out[table_id][seat] = int(count or 0)
    return out
