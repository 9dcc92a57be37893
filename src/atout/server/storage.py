"""Durable storage of tables: SQLAlchemy 2 over SQLite (default) or PostgreSQL.

What is stored is the least that rebuilds a table exactly: the game, its
options, the secret seed, the seats (bot name or the SHA-256 of the human
seat's key, never the key itself) and the list of player actions in order.
Chance needs no storage: a seeded state draws its deals from the seed, so
``game.new_state(seed)`` followed by the stored actions is the table.  A table's
settings that are not rules (``settings``, a JSON object: the bots' pace) live
next to it.

The schema only grows by nullable columns: :meth:`Storage.migrate` (run at start-up)
adds the columns an older database lacks with ``ALTER TABLE ... ADD COLUMN``, so a
database written by an earlier version keeps working (its tables read back with
the default settings).

An action is appended in its own transaction, and ``(table_id, idx)`` is the
primary key: a second writer racing for the same position fails instead of
forking the history.  The server tells nobody about an action before
:meth:`Storage.append_action` has returned, so a crash (even SIGKILL) can
lose only actions nobody has seen.
"""

from __future__ import annotations

import datetime as _dt
import functools
import logging
import os
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    create_engine,
    delete,
    event,
    func,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship
from sqlalchemy.sql.elements import TextClause

from .pubsub import CHANNEL, LOCK_SPACE, notice_payload

DEFAULT_DB_ENV = "ATOUT_DATABASE_URL"
#: What a deleted account's seats and chat lines are called in the stored games (:mod:`.accounts`);
#: the pages show it in the reader's language (``former`` in a state's seats and in a chat line).
FORMER_PLAYER = "former player"
#: Connections each process keeps to PostgreSQL for its calls (besides the listener's and the leases').
POOL_SIZE = 15

log = logging.getLogger("atout.server")


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "atout_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    #: Non-default options as texts (``Game.options_text`` pairs).
    options: Mapped[dict[str, str]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    created: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))
    finished: Mapped[bool] = mapped_column(default=False)
    #: Table settings that are not rules (``{"bot_pace": "fast"}``); ``None`` in rows
    #: written before the column existed (added by :meth:`Storage.migrate`).
    settings: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)
    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="table", order_by="SeatRow.seat", cascade="all, delete-orphan"
    )


class SeatRow(Base):
    __tablename__ = "atout_seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("atout_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    #: Bot name for a bot seat, ``None`` for a human seat.
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    #: SHA-256 (hex) of the seat's key; ``None`` for a bot seat.
    key_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    table: Mapped[TableRow] = relationship(back_populates="seats")


class OutsideRow(Base):
    """A change of table ``table_id`` made outside the serving process on SQLite (an operator's
    command), which nobody else would tell it: :meth:`Storage.changed_outside`."""

    __tablename__ = "atout_outside_changes"

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32))
    #: What changed, as a notice's ``what`` (:mod:`.pubsub`): empty, the seats; else a room's part.
    what: Mapped[str] = mapped_column(String(40))
    at: Mapped[_dt.datetime] = mapped_column(DateTime(timezone=True))


#: A SQLite outside change is kept this long (the serving process reads it within seconds).
OUTSIDE_KEEP = _dt.timedelta(days=1)


class ActionRow(Base):
    __tablename__ = "atout_actions"

    table_id: Mapped[str] = mapped_column(ForeignKey("atout_tables.id"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    name: str
    bot: str | None
    key_hash: str | None


@dataclass(frozen=True)
class StoredTable:
    """A table as read back: everything needed to rebuild it."""

    id: str
    game: str
    players: int
    options: dict[str, str]
    seed: int
    seats: list[SeatInfo]
    actions: list[int]
    finished: bool
    settings: dict[str, Any] = field(default_factory=dict)


class ConflictError(Exception):
    """Another writer already stored an action at this position."""


class SeatTaken(Exception):
    """A human's move for a seat whose key has changed (it was handed over to a bot)."""


class Unseen(Exception):
    """A human's move refused by one of :attr:`Storage.move_guards`: nothing was stored.

    Another process changed something this process has not heard of yet (its notice
    is on its way): the caller catches up (reads what changed) and tries again.
    """


@functools.cache
def pg_move_statement(human: bool, guards: tuple[str, ...] = ()) -> TextClause:
    """:func:`pg_move` as a statement, made once per kind of move.

    Why: a server stores every bot's move and every human's through it; parsing the
    text into a statement at each move cost the serving process CPU (and a busy event
    loop delays the next move), while the same few statements come back for ever.
    """
    return text(pg_move(human, guards))


@functools.cache
def pg_move(human: bool, guards: tuple[str, ...] = ()) -> str:
    """A move on PostgreSQL as one statement, committed on its own (autocommit).

    Why: a transaction costs five round trips (BEGIN, the seat's lock, INSERT, NOTIFY,
    COMMIT) and an ORM session; on a busy machine every round trip waits for the
    database's process and then for this one's interpreter, and a move's latency was
    mostly those waits.  One statement does it all: a human's move (``human``) locks
    the seat's row (a seat handed over to a bot by another process meanwhile refuses
    the move), checks each of ``guards`` (SQL conditions on ``:table_id`` and
    ``:seat``), and inserts only if all hold; the notice is sent only when the action
    was inserted (a row of ``ins``), and a race for the position fails the whole
    statement (primary key), which then changed nothing.
    """
    checks = ["(SELECT key_hash FROM holder) IS NOT DISTINCT FROM :key_hash"] if human else []
    checks += [f"({g})" for g in guards]
    holder = "holder AS (SELECT key_hash FROM atout_seats WHERE table_id = :table_id AND seat = :seat FOR UPDATE), "
    return f"""
WITH {holder if human else ""}ok AS (SELECT {" AND ".join(checks) or "true"} AS ok),
ins AS (
    INSERT INTO atout_actions (table_id, idx, action, seat)
    SELECT :table_id, :idx, :action, :seat FROM ok WHERE ok.ok RETURNING idx
),
fin AS (
    UPDATE atout_tables SET finished = true
    WHERE id = :table_id AND :finished AND EXISTS (SELECT 1 FROM ins) RETURNING id
)
SELECT {"(SELECT key_hash FROM holder)" if human else "NULL"} AS holder, (SELECT ok FROM ok) AS ok,
    (SELECT count(*) FROM ins, LATERAL (SELECT pg_notify(:channel, :payload)) AS n) AS stored,
    (SELECT count(*) FROM fin) AS finished
"""


def default_url(path: str | None = None) -> str:
    """The database URL: ``ATOUT_DATABASE_URL``, else a SQLite file under ``$ATOUT_HOME``."""
    env = os.environ.get(DEFAULT_DB_ENV)
    if env:
        return env
    if path is None:
        home = os.environ.get("ATOUT_HOME") or os.path.join(os.path.expanduser("~"), ".atout")
        os.makedirs(home, exist_ok=True)
        path = os.path.join(home, "tables.sqlite3")
    return f"sqlite:///{path}"


def url_for(db: str) -> str:
    """Accept a URL or a plain file path (taken as a SQLite file)."""
    if "://" in db:
        if db.startswith("postgresql://"):  # use psycopg 3, the driver we ship
            return "postgresql+psycopg://" + db[len("postgresql://") :]
        return db
    return f"sqlite:///{db}"


class Storage:
    """The tables' database.  Thread-safe (one session per call)."""

    def __init__(self, url: str) -> None:
        url = url_for(url)
        self.url = url
        if url.startswith("sqlite"):
            self.engine: Engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            # The pool's connections all kept open (15, as many as before: 5 kept and 10 more
            # under load): a connection made for a burst and closed at its return cost a new
            # PostgreSQL process and its login at every burst, the largest part of a busy
            # server's time in the database (a profile of 100 tables on three processes).
            self.engine = create_engine(url, pool_pre_ping=True, pool_size=POOL_SIZE, max_overflow=0)
        if self.engine.dialect.name == "postgresql":
            # Several processes starting together on an empty database: one creates the
            # tables while the others wait for it (a transaction-scoped advisory lock).
            with self.engine.begin() as conn:
                conn.execute(text("SELECT pg_advisory_xact_lock(:space, 0)"), {"space": LOCK_SPACE})
                Base.metadata.create_all(conn)
        else:
            for attempt in range(3):  # another process created a table between check and create
                try:
                    Base.metadata.create_all(self.engine)
                    break
                except (OperationalError, IntegrityError):
                    if attempt == 2:
                        raise
                    time.sleep(0.05)
        self.migrate()
        #: This process's name in change notices (it skips its own).
        self.origin = secrets.token_hex(6)
        #: PostgreSQL: every change also sends "table changed" to the other processes
        #: (:mod:`.pubsub`), in the transaction that makes it.
        self.notifies = self.engine.dialect.name == "postgresql"
        #: PostgreSQL: SQL conditions on ``:table_id`` and ``:seat`` a human's move must meet to be
        #: stored, checked in the move's statement (:func:`pg_move`), else :class:`Unseen`
        #: (:mod:`.roomstore` adds "the seat is not handed to the away bot").
        self.move_guards: tuple[str, ...] = ()
        #: The same pool's connections in autocommit: a move is one statement, its own transaction.
        self._autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")

    @property
    def shared(self) -> bool:
        """Whether other server processes may use this database (PostgreSQL)."""
        return self.notifies

    def changed(self, session: Session, table_id: str, what: str = "") -> None:
        """Tell the other processes (at commit) that ``table_id`` changed (``what``: its room's part)."""
        if self.notifies:
            session.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": notice_payload(table_id, self.origin, what)},
            )

    def changed_outside(self, session: Session, table_id: str, what: str = "") -> None:
        """:meth:`changed`, for a program that serves no table (an operator's command).

        PostgreSQL: the notice every serving process listens to.  SQLite has no
        notices: a row in ``atout_outside_changes`` instead, which the serving process
        reads at its next look (:meth:`outside_since`; :class:`.tables.TableManager` looks
        at each table read and every few seconds).  Rows older than :data:`OUTSIDE_KEEP`
        are deleted here.
        """
        if self.notifies:
            self.changed(session, table_id, what)
            return
        now = _dt.datetime.now(_dt.UTC)
        session.execute(delete(OutsideRow).where(OutsideRow.at < now - OUTSIDE_KEEP))
        session.add(OutsideRow(table_id=table_id, what=what, at=now))

    def outside_since(self, seq: int) -> tuple[int, list[tuple[str, str]]]:
        """The outside changes after number ``seq`` (table, what), and the last number (SQLite)."""
        with Session(self.engine) as session:
            rows = session.execute(
                select(OutsideRow.seq, OutsideRow.table_id, OutsideRow.what)
                .where(OutsideRow.seq > seq)
                .order_by(OutsideRow.seq)
            ).all()
        return (rows[-1][0] if rows else seq), [(table_id, what) for _, table_id, what in rows]

    def last_outside(self) -> int:
        """The number of the last outside change (a serving process starts after it)."""
        with Session(self.engine) as session:
            return session.scalar(select(func.max(OutsideRow.seq))) or 0

    def announce(self, table_id: str, what: str) -> None:
        """A notice with no stored change (an announcement for the other processes' sockets)."""
        if self.notifies:
            with self.engine.begin() as conn:
                conn.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": CHANNEL, "payload": notice_payload(table_id, self.origin, what)},
                )

    def migrate(self) -> list[str]:
        """Add the nullable columns an older database lacks; returns their names.

        ``create_all`` creates missing tables but never alters an existing one.
        Two servers starting together may both try: the loser's ``ALTER`` fails and
        the column is then found to be there.
        """
        added: list[str] = []
        for table in Base.metadata.sorted_tables:
            have = {c["name"] for c in inspect(self.engine).get_columns(table.name)}
            for column in table.columns:
                if column.name in have:
                    continue
                if not column.nullable:  # pragma: no cover - the schema only grows by nullable columns
                    raise RuntimeError(f"{table.name}.{column.name} is missing and cannot be added")
                kind = column.type.compile(dialect=self.engine.dialect)
                ddl = f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}"
                try:
                    with self.engine.begin() as conn:
                        conn.execute(text(ddl))
                except (OperationalError, ProgrammingError):
                    have = {c["name"] for c in inspect(self.engine).get_columns(table.name)}
                    if column.name not in have:
                        raise
                    continue
                log.warning("database upgraded: added the column %s.%s", table.name, column.name)
                added.append(column.name)
        return added

    def close(self) -> None:
        self.engine.dispose()

    def create_table(self, row: TableRow) -> None:
        """Store a new table: its row with its seats, as :func:`table_row` builds it."""
        with Session(self.engine) as session, session.begin():
            session.add(row)

    def append_action(
        self, table_id: str, idx: int, seat: int, action: int, finished: bool, key_hash: str | None = None
    ) -> None:
        """Store action number ``idx``; commits before returning.  :class:`ConflictError` on a race.

        ``key_hash`` (a human's move): the seat must still have that key, checked on
        the seat's row locked for the transaction, so a seat handed over to a bot by
        another process in the meantime refuses the move (:class:`SeatTaken`); on
        PostgreSQL the move must also meet :attr:`move_guards` (else :class:`Unseen`).
        """
        if self.notifies:
            self._append_pg(table_id, idx, seat, action, finished, key_hash)
            return
        try:
            with Session(self.engine) as session, session.begin():
                if key_hash is not None:
                    holder = session.execute(
                        select(SeatRow.key_hash)
                        .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                        .with_for_update()
                    ).scalar()
                    if holder != key_hash:
                        raise SeatTaken(f"table {table_id}: seat {seat} was handed over")
                session.add(ActionRow(table_id=table_id, idx=idx, action=action, seat=seat))
                if finished:
                    session.execute(update(TableRow).where(TableRow.id == table_id).values(finished=True))
                session.flush()
                self.changed(session, table_id)
        except IntegrityError:
            raise ConflictError(f"table {table_id}: action {idx} is already stored") from None

    def _append_pg(
        self, table_id: str, idx: int, seat: int, action: int, finished: bool, key_hash: str | None
    ) -> None:
        """:meth:`append_action` on PostgreSQL: one statement (:func:`pg_move`)."""
        human = key_hash is not None
        params = {
            "table_id": table_id,
            "idx": idx,
            "seat": seat,
            "action": action,
            "finished": finished,
            "channel": CHANNEL,
            "payload": notice_payload(table_id, self.origin),
        }
        if human:
            params["key_hash"] = key_hash
        try:
            with self._autocommit.connect() as conn:
                row = conn.execute(pg_move_statement(human, self.move_guards if human else ()), params).one()
        except IntegrityError:
            raise ConflictError(f"table {table_id}: action {idx} is already stored") from None
        if human and row.holder != key_hash:
            raise SeatTaken(f"table {table_id}: seat {seat} was handed over")
        if not row.stored:
            raise Unseen(f"table {table_id}: seat {seat} changed elsewhere")

    def set_seat(self, table_id: str, seat: int, bot: str | None, key_hash: str | None) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.get(SeatRow, (table_id, seat))
            if row is None:
                raise KeyError(seat)
            row.bot = bot
            row.key_hash = key_hash
            self.changed(session, table_id)

    def set_name(self, table_id: str, seat: int, name: str) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.get(SeatRow, (table_id, seat))
            if row is None:
                raise KeyError(seat)
            row.name = name
            self.changed(session, table_id)

    def load(self, table_id: str) -> StoredTable | None:
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            actions = session.scalars(
                select(ActionRow.action).where(ActionRow.table_id == table_id).order_by(ActionRow.idx)
            ).all()
            return StoredTable(
                id=row.id,
                game=row.game,
                players=row.players,
                options=dict(row.options),
                seed=row.seed,
                seats=[SeatInfo(s.seat, s.name, s.bot, s.key_hash) for s in row.seats],
                actions=list(actions),
                finished=row.finished,
                settings=dict(row.settings or {}),
            )

    def changes(self, table_id: str, since: int) -> tuple[list[SeatInfo], list[int]] | None:
        """A table's seats and its actions from number ``since`` on (what a reload needs)."""
        with Session(self.engine) as session:
            seats = session.execute(
                select(SeatRow.seat, SeatRow.name, SeatRow.bot, SeatRow.key_hash)
                .where(SeatRow.table_id == table_id)
                .order_by(SeatRow.seat)
            ).all()
            if not seats:
                return None
            actions = session.scalars(
                select(ActionRow.action)
                .where(ActionRow.table_id == table_id, ActionRow.idx >= since)
                .order_by(ActionRow.idx)
            ).all()
            return [SeatInfo(*row) for row in seats], list(actions)

    def unfinished_ids(self) -> list[str]:
        with Session(self.engine) as session:
            return list(session.scalars(select(TableRow.id).where(TableRow.finished.is_(False))).all())

    def seat_for_key(self, table_id: str, key_hash: str) -> int | None:
        with Session(self.engine) as session:
            seat = session.scalar(
                select(SeatRow.seat).where(SeatRow.table_id == table_id, SeatRow.key_hash == key_hash)
            )
            return seat


def table_row(
    table_id: str,
    game: str,
    players: int,
    options: dict[str, str],
    seed: int,
    seats: list[SeatInfo],
    settings: dict[str, Any] | None = None,
) -> TableRow:
    """A new table's row with its seats (added to a session by its caller, in its transaction)."""
    row = TableRow(
        id=table_id,
        game=game,
        players=players,
        options=options,
        seed=seed,
        created=_dt.datetime.now(_dt.UTC),
        finished=False,
        settings=dict(settings or {}),
    )
    row.seats = [SeatRow(seat=s.seat, name=s.name, bot=s.bot, key_hash=s.key_hash) for s in seats]
    return row


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL: readers do not block the writer; a commit survives a killed process."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
