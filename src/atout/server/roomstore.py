"""What a living table keeps in the database besides its moves: its room (lobby listing,
settings and state), the chat, and the claim of a free seat.

New tables only (``Base.metadata.create_all`` makes them in an older database at start-up),
so the schema of :mod:`.storage` is untouched.  Every function takes the
:class:`~.storage.Storage` and runs one short transaction; call them from a worker thread.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from .storage import Base, SeatRow, Storage, TableRow

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


@dataclass(frozen=True)
class ChatLine:
    idx: int
    seat: int
    name: str
    text: str
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"idx": self.idx, "seat": self.seat, "name": self.name, "text": self.text, "n": self.n}


def ensure_tables(storage: Storage) -> None:
    """Create this module's tables in a database made before them (idempotent)."""
    Base.metadata.create_all(storage.engine, tables=[RoomRow.__table__, ChatRow.__table__])  # type: ignore[list-item]


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


def update_room(storage: Storage, table_id: str, changes: dict[str, Any]) -> None:
    """Merge ``changes`` into the room's settings (one transaction; a row is made if missing)."""
    with Session(storage.engine) as session, session.begin():
        row = session.get(RoomRow, table_id)
        if row is None:
            session.add(
                RoomRow(
                    table_id=table_id, public=False, created=_dt.datetime.now(_dt.UTC), settings=dict(changes)
                )
            )
        else:
            row.settings = {**(row.settings or {}), **changes}


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
        return bool(getattr(done, "rowcount", 0) == 1)


def add_chat(storage: Storage, table_id: str, line: ChatLine) -> None:
    with Session(storage.engine) as session, session.begin():
        session.add(
            ChatRow(
                table_id=table_id,
                idx=line.idx,
                seat=line.seat,
                name=line.name,
                text=line.text,
                n=line.n,
                at=_dt.datetime.now(_dt.UTC),
            )
        )


def load_chat(storage: Storage, table_id: str) -> list[ChatLine]:
    with Session(storage.engine) as session:
        rows = session.scalars(
            select(ChatRow).where(ChatRow.table_id == table_id).order_by(ChatRow.idx.desc()).limit(CHAT_KEEP)
        ).all()
        return [ChatLine(r.idx, r.seat, r.name, r.text, r.n) for r in reversed(rows)]
